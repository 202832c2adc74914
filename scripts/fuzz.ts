/**
 * `npm run fuzz -- [--format F[,F...]] [--count N] [--seed S] [--time-limit MS] [--memory-mb MB] [--out DIR] [--table FILE]`
 *
 * Deterministic mutation fuzzing of every reader and importer, in-process
 * (a worker thread per format range). Each input runs under a watchdog: one
 * that uses more than --time-limit (default 2000 ms) of CPU time is a hang
 * (CPU, not wall time: this machine may be shared), and the
 * process growing past --memory-mb (default 1024) is a memory defect; the
 * worker is stopped and the run goes on with the next input. Prints a table of
 * inputs and defects per format and saves each finding (minimized) with its
 * message under --out (default fuzz-reproducers/). Exit status 1 when any
 * defect was found.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { quoteJson } from '../shared/errors';
import { emptyTally, formatTable, fuzzInput, targetByName, type Finding, type FormatTally } from './fuzz/harness';
import { DEFECT_KINDS, TARGETS, type DefectKind } from './fuzz/targets';
import { SHARED_SLOTS, SLOT, cpuMs, type WorkerJob } from './fuzz/protocol';

interface Options {
  formats: string[];
  count: number;
  seed: number;
  hangMs: number;
  memoryMb: number;
  out: string;
  table?: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    formats: TARGETS.map((t) => t.name),
    count: 2000,
    seed: 1,
    hangMs: 2000,
    memoryMb: 1024,
    out: 'fuzz-reproducers',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const int = (v: string, min: number) => {
      if (!/^\d+$/.test(v) || Number(v) < min)
        throw new Error(`${a} must be an integer >= ${min}, found ${JSON.stringify(v)}`);
      return Number(v);
    };
    if (a === '--format')
      o.formats = value()
        .split(',')
        .map((f) => targetByName(f.trim()).name);
    else if (a === '--count') o.count = int(value(), 1);
    else if (a === '--seed') o.seed = int(value(), 0);
    else if (a === '--time-limit') o.hangMs = int(value(), 1);
    else if (a === '--memory-mb') o.memoryMb = int(value(), 64);
    else if (a === '--out') o.out = value();
    else if (a === '--table') o.table = value();
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: npm run fuzz -- [--format F[,F...]] [--count N per format] [--seed S] [--time-limit MS] [--memory-mb MB] [--out DIR] [--table FILE]',
      );
      console.log(`formats: ${TARGETS.map((t) => t.name).join(', ')}`);
      process.exit(0);
    } else throw new Error(`unknown option ${quoteJson(a)} (try --help)`);
  }
  return o;
}

const WORKER = join(__dirname, 'fuzzWorker.cjs');
let peakRss = 0;

function save(o: Options, f: Finding): void {
  const dir = join(o.out, f.format);
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${f.kind}-seed${f.seed}-input${f.index}`);
  writeFileSync(`${base}.${targetByName(f.format).ext}`, f.input);
  writeFileSync(
    `${base}.txt`,
    `${f.format} input ${f.index} (seed ${f.seed}), ${f.input.byteLength} bytes, ${f.ms.toFixed(0)} ms\n${f.kind}: ${f.message}\n`,
  );
  console.log(
    `  ${f.kind} ${f.format} #${f.index}: ${f.message.slice(0, 160)} -> ${base}.${targetByName(f.format).ext}`,
  );
}

interface WorkerStop {
  /** The next input to run (inputs before it are counted in the tally). */
  next: number;
  /** Why the worker was stopped early, at input `next`. */
  stopped?: { kind: DefectKind; message: string; ms: number };
}

/**
 * Runs inputs from..to-1 of a format in a worker under the watchdog and adds
 * what completed to `tally`. Only completed inputs are counted (the worker
 * publishes its counts after each one), so stopping it never counts an input
 * twice; the input it was on when stopped comes back in `stopped`.
 */
function runWorker(o: Options, format: string, from: number, to: number, tally: FormatTally): Promise<WorkerStop> {
  const shared = new SharedArrayBuffer(SHARED_SLOTS * 8);
  const s = new Float64Array(shared);
  const job: WorkerJob = { format, seed: o.seed, from, to, hangMs: o.hangMs, shared };
  const worker = new Worker(WORKER, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: o.memoryMb } });
  const base = { ...tally, defects: { ...tally.defects } };
  const absorb = () => {
    tally.inputs = base.inputs + s[SLOT.inputs];
    tally.accepted = base.accepted + s[SLOT.accepted];
    tally.rejected = base.rejected + s[SLOT.rejected];
    tally.maxCpuMs = Math.max(base.maxCpuMs, s[SLOT.maxCpuMs]);
    tally.totalMs = base.totalMs + s[SLOT.totalMs];
    DEFECT_KINDS.forEach((k, n) => (tally.defects[k] = base.defects[k] + s[SLOT.defects + n]));
    return from + s[SLOT.inputs];
  };
  return new Promise((resolve) => {
    let finished = false;
    const stopFor = (kind: DefectKind, message: string) => {
      if (finished) return;
      finished = true;
      clearInterval(watch);
      const ms = s[SLOT.cpuStart] ? cpuMs() - s[SLOT.cpuStart] : 0;
      void worker.terminate().then(() => resolve({ next: absorb(), stopped: { kind, message, ms } }));
    };
    const watch = setInterval(() => {
      const rss = process.memoryUsage.rss();
      peakRss = Math.max(peakRss, rss);
      if (rss > o.memoryMb * 1048576)
        stopFor('memory', `process memory reached ${(rss / 1048576).toFixed(0)} MB (limit ${o.memoryMb} MB)`);
      else if (s[SLOT.cpuStart] && cpuMs() - s[SLOT.cpuStart] > o.hangMs)
        stopFor('hang', `still running after ${o.hangMs} ms of CPU time`);
    }, 25);
    worker.on('message', (m: { type: string; finding?: Finding }) => {
      if (m.type === 'finding') save(o, { ...m.finding!, input: new Uint8Array(m.finding!.input) });
      if (m.type === 'done' && !finished) {
        finished = true;
        clearInterval(watch);
        void worker.terminate().then(() => resolve({ next: absorb() }));
      }
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') stopFor('memory', `worker heap over ${o.memoryMb} MB`);
      else stopFor('crash', `worker died: ${e.message}`);
    });
    worker.on('exit', () => {
      if (!finished) stopFor('crash', 'worker exited early');
    });
  });
}

/**
 * All inputs of one format. When the watchdog stops a worker, that one input
 * runs again alone: a defect only when it fails the same way twice.
 */
async function runFormat(o: Options, format: string): Promise<FormatTally> {
  const tally = emptyTally(format);
  let next = 0;
  while (next < o.count) {
    const r = await runWorker(o, format, next, o.count, tally);
    next = r.next;
    if (!r.stopped || next >= o.count) continue;
    const again = await runWorker(o, format, next, next + 1, tally);
    if (again.stopped) {
      const { kind, message, ms } = again.stopped;
      tally.inputs++;
      tally.defects[kind]++;
      if (kind === 'hang') tally.maxCpuMs = Math.max(tally.maxCpuMs, ms);
      save(o, {
        format,
        kind,
        message: `${message} (twice)`,
        seed: o.seed,
        index: next,
        input: fuzzInput(targetByName(format), o.seed, next),
        ms,
      });
      next++;
    } else {
      retried++;
      next = again.next;
    }
  }
  return tally;
}

let retried = 0;

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  const t0 = performance.now();
  const tallies: FormatTally[] = [];
  console.log(
    `fuzz: ${o.formats.join(', ')}; ${o.count} inputs each, seed ${o.seed}, time limit ${o.hangMs} ms, memory limit ${o.memoryMb} MB`,
  );
  for (const format of o.formats) {
    const tally = await runFormat(o, format);
    tallies.push(tally);
    const d = DEFECT_KINDS.reduce((n, k) => n + tally.defects[k], 0);
    console.log(
      `${format}: ${tally.inputs} inputs, ${tally.accepted} accepted, ${tally.rejected} rejected, ${d} defects (${((performance.now() - t0) / 1000).toFixed(0)} s so far)`,
    );
  }
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const table = formatTable(tallies, { peakRssMb: peakRss / 1048576, seconds: (performance.now() - t0) / 1000 });
  console.log(`\n${table}`);
  if (retried)
    console.log(
      `${retried} input(s) stopped by the watchdog once ran within the limits when run again, and are not defects`,
    );
  if (o.table) writeFileSync(o.table, `npm run fuzz -- ${process.argv.slice(2).join(' ')}\n\n${table}\n`);
  return tallies.some((t) => DEFECT_KINDS.some((k) => t.defects[k] > 0)) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`fuzz: ${e.message}`);
    process.exit(2);
  },
);
