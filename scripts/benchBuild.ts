/**
 * The build-scaling figures of `npm run bench`: a generated project
 * of real-capture motions (slices of the bundled CMU capture assets/cmu_01_01.mtn,
 * and of the Debian assimp-testmodels captures when installed, at full and
 * half rate (resampled to 30 fps by the build), with varied tolerances), built by the CLI in a fresh process
 * cold with --jobs 1, cold with --jobs 2, and again unchanged from the cache. Printed as times and ratios
 * measured in this one run; nothing here asserts a time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRealBvhSamples } from '../electron/interchange/realBvhSamples';
import { importBvh } from '../shared/interchange/bvh/import';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { median } from './benchStats';

/** Frames first..last (inclusive) of a motion, every `step`-th frame. */
export function sliceMotion(m: Motion, first: number, last: number, step: number): Motion {
  const frames: number[] = [];
  for (let f = first; f <= last; f += step) frames.push(f);
  const rows = <T extends Float32Array | Uint32Array>(a: T): T => {
    const stride = a.length / (m.frameCount + 1);
    const out = new (a.constructor as { new (n: number): T })(frames.length * stride);
    frames.forEach((f, i) => out.set(a.subarray(f * stride, (f + 1) * stride), i * stride));
    return out;
  };
  return {
    ...m,
    frameCount: frames.length - 1,
    fps: m.fps / step,
    translation: rows(m.translation),
    rotation: rows(m.rotation),
    offset: rows(m.offset),
    translationKeyInfo: rows(m.translationKeyInfo),
    jointKeyInfo: rows(m.jointKeyInfo),
  };
}

/**
 * CPU seconds (user + system) of this process's waited-for children so far, from /proc/self/stat (Linux; clock
 * ticks of 1/100 s): the difference around a spawnSync is that child's CPU time, its threads included. Undefined
 * where /proc is not there.
 */
export function childCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * `actguy build` of `project` in a fresh process with `args`: its wall-clock ms and its CPU seconds (childCpuSeconds;
 * undefined without /proc). Throws, naming `label`, when the build fails.
 */
function timedBuild(cli: string, project: string, args: string[], label: string): { ms: number; cpu?: number } {
  const t0 = performance.now();
  const cpu0 = childCpuSeconds();
  const r = spawnSync(process.execPath, [cli, 'build', project, '--quiet', ...args], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  const cpu1 = childCpuSeconds();
  if (r.status !== 0)
    throw new Error(
      `${label}: actguy build exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`,
    );
  return { ms, cpu: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined };
}

/**
 * How much two busy threads slow each other down on this machine: the same integer loop, in a fresh Node process,
 * alone and then two at once (medians of 3). On 2 cores that share caches or a physical core (a VM's vCPUs), each
 * of the two takes longer than one alone: the ratio bounds what any 2-job build can gain here.
 */
export async function parallelSlowdown(): Promise<{ alone: number; together: number }> {
  const loop =
    'let x=0;const t=process.hrtime.bigint();for(let i=0;i<2e8;i++){x=(x*1103515245+12345)|0}' +
    'process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6)+" "+(x&1))';
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', loop], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(Number(out.split(' ')[0])));
    });
  const alone: number[] = [];
  const together: number[] = [];
  for (let i = 0; i < 3; i++) {
    alone.push(await run());
    const [a, b] = await Promise.all([run(), run()]);
    together.push((a + b) / 2);
  }
  return { alone: median(alone), together: median(together) };
}

/**
 * Writes a project of >= `count` motions derived from the captures into `dir`; returns its path. Clip `k` is
 * `lengths.min + (k * 37) % lengths.span` frames long (default 60..179).
 */
export function generateProject(
  dir: string,
  captures: [string, Motion][],
  count: number,
  lengths = { min: 60, span: 120 },
): string {
  const motions: object[] = [];
  let k = 0;
  while (motions.length < count) {
    for (const [name, m] of captures) {
      if (motions.length >= count) break;
      const len = lengths.min + ((k * 37) % lengths.span);
      const first = (k * 53) % Math.max(1, m.frameCount - len);
      const step = k % 3 === 2 ? 2 : 1;
      const last = Math.min(m.frameCount, first + len * step);
      const file = `${name}_${k}.mtn`;
      writeFileSync(join(dir, file), writeMtn(sliceMotion(m, first, last, step)));
      // A half-rate slice is a 15 fps motion: the build resamples it to the game's 30 fps.
      motions.push({
        name: `${name}_${k}`,
        mtn: file,
        tolerances: { rotationDeg: [0.25, 0.5, 1, 2][k % 4], position: [0.25, 0.5, 1][k % 3] },
        ...(m.fps / step !== 30 ? { resample: true } : {}),
      });
      k++;
    }
  }
  const path = join(dir, 'bench.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({ version: 1, motions, outputs: { mar: 'out/bench.mar', sar: 'out/bench.sar' } }, null, 1),
  );
  return path;
}

/**
 * Writes a project of five long motions into `dir`: the captures whole (at most four), then again at a tighter
 * rotation tolerance; the project's rate is the captures' (all at one rate). Returns its path and each motion's frame
 * count (none without captures).
 */
export function longProject(dir: string, captures: [string, Motion][]): { path: string; frames: number[] } {
  mkdirSync(dir, { recursive: true });
  const motions: object[] = [];
  const frames: number[] = [];
  for (let k = 0; k < 5 && captures.length; k++) {
    const m = captures[k % Math.min(4, captures.length)][1];
    const file = `long_${k}.mtn`;
    writeFileSync(join(dir, file), writeMtn(m));
    motions.push({ name: `long_${k}`, mtn: file, ...(k >= 4 ? { tolerances: { rotationDeg: 0.25 } } : {}) });
    frames.push(m.frameCount);
  }
  const path = join(dir, 'long.actguy.json');
  writeFileSync(
    path,
    JSON.stringify(
      { version: 1, fps: captures[0]?.[1].fps ?? 30, motions, outputs: { mar: 'out/long.mar', sar: 'out/long.sar' } },
      null,
      1,
    ),
  );
  return { path, frames };
}

/** The Debian assimp-testmodels BVH captures at their own 120 fps (none where the package is not installed). */
function realCapturesAt120(): [string, Motion][] {
  return listRealBvhSamples().map((s) => [
    s.name,
    importBvh(readFileSync(s.path, 'utf8'), { fps: 120, scale: s.centimetresPerUnit }).motion,
  ]);
}

/**
 * `actguy build --no-cache` of a long-motion project (longProject) with --jobs 1 and --jobs 2, 3 rounds alternating
 * the order: the lines that print the times, their ratio and the CPU time of each.
 */
function longScaling(cli: string, long: { path: string; frames: number[] }, what: string): string[] {
  if (long.frames.length === 0) return [];
  const l1: number[] = [],
    l2: number[] = [],
    longRatio: number[] = [];
  const longCpu: Record<number, number[]> = { 1: [], 2: [] };
  for (let round = 0; round < 3; round++) {
    const build = (jobs: number) => {
      const r = timedBuild(cli, long.path, ['--no-cache', '--jobs', String(jobs)], `long motions, jobs ${jobs}`);
      if (r.cpu !== undefined) longCpu[jobs].push(r.cpu);
      return r.ms;
    };
    const [a, b] =
      round % 2 === 0
        ? [build(1), build(2)]
        : (() => {
            const y = build(2);
            return [build(1), y];
          })();
    l1.push(a);
    l2.push(b);
    longRatio.push(b / a);
  }
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
  return [
    `Long motions, ${what}: ${long.frames.length} whole captures (${long.frames.join(', ')} frames), --no-cache, 3 rounds (load average ${loadavg()[0].toFixed(1)})`,
    `  --jobs 1 ${(median(l1) / 1000).toFixed(2)} s, --jobs 2 ${(median(l2) / 1000).toFixed(2)} s   ratio ${median(longRatio).toFixed(3)}x (target: towards 0.55x on 2 cores; rounds ${range(longRatio)})`,
    ...(longCpu[1].length && longCpu[2].length
      ? [
          `  CPU time: --jobs 1 ${median(longCpu[1]).toFixed(2)} s, --jobs 2 ${median(longCpu[2]).toFixed(2)} s (${(median(longCpu[2]) / median(longCpu[1])).toFixed(2)}x the work: each worker compiles the compressor again); both cores busy throughout would give ${(median(longCpu[2]) / 2 / (median(l1) / 1000)).toFixed(3)}x`,
        ]
      : []),
  ];
}

export async function benchBuild(root: string, extraCaptures: [string, Motion][]): Promise<string[]> {
  const cmu = readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'cmu_01_01.mtn'))));
  const captures: [string, Motion][] = [
    ['cmu_01_01', cmu],
    ...extraCaptures.map(([, m], i) => [`capture${i}`, m] as [string, Motion]),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'actguy-bench-build-'));
  try {
    const project = generateProject(dir, captures, 120);
    // Each build is `actguy build` in a fresh process, as a user or a CI agent runs it: the same start-up and
    // cold JIT for --jobs 1 (in-process) and --jobs 2 (worker threads), each cold build filling its own cache.
    const cli = join(root, 'dist', 'cli', 'actguy.cjs');
    /** CPU seconds of each cold build without a cache, by jobs (childCpuSeconds). */
    const cpu: Record<number, number[]> = { 1: [], 2: [] };
    const time = (label: string, args: string[]): number => timedBuild(cli, project, args, label).ms;
    const timeBare = (jobs: 1 | 2): number => {
      const r = timedBuild(cli, project, ['--jobs', String(jobs), '--no-cache'], `jobs ${jobs} --no-cache`);
      if (r.cpu !== undefined) cpu[jobs].push(r.cpu);
      return r.ms;
    };
    // Five rounds, each cold build into a fresh cache. The machine's speed drifts over tens of seconds (shared
    // hosts), so each ratio is taken within one round, between builds run back to back, and the figure is the
    // median of those paired ratios; the order of --jobs 1 and --jobs 2 alternates between rounds.
    const ROUNDS = 5;
    const c1: number[] = [],
      c2: number[] = [],
      w: number[] = [],
      n1: number[] = [],
      n2: number[] = [];
    const coldRatio: number[] = [],
      bareRatio: number[] = [],
      warmRatio: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = (one: () => number, two: () => number): [number, number] => {
        if (round % 2 === 0) {
          const a = one();
          return [a, two()];
        }
        const b = two();
        return [one(), b];
      };
      const [b1, b2] = pair(
        () => timeBare(1),
        () => timeBare(2),
      );
      const [k1, k2] = pair(
        () => time('jobs 1', ['--jobs', '1', '--cache', join(dir, `cache-jobs1-${round}`)]),
        () => time('jobs 2', ['--jobs', '2', '--cache', join(dir, `cache-jobs2-${round}`)]),
      );
      const warm = time('rebuild', ['--jobs', '2', '--cache', join(dir, `cache-jobs2-${round}`)]);
      n1.push(b1);
      n2.push(b2);
      c1.push(k1);
      c2.push(k2);
      w.push(warm);
      bareRatio.push(b2 / b1);
      coldRatio.push(k2 / k1);
      warmRatio.push(warm / k2);
    }
    const cold1 = median(c1),
      cold2 = median(c2),
      warm = median(w),
      bare1 = median(n1),
      bare2 = median(n2);
    const range = (xs: number[], digits: number) =>
      `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
    const p = JSON.parse(readFileSync(project, 'utf8'));
    const slowdown = await parallelSlowdown();
    const cpuLines: string[] = [];
    if (cpu[1].length && cpu[2].length) {
      const cpu1 = median(cpu[1]);
      const cpu2 = median(cpu[2]);
      // With both cores busy from start to end, the 2-job build would take half its CPU time.
      cpuLines.push(
        `  CPU time without a cache (user + system, all threads): --jobs 1 ${cpu1.toFixed(2)} s (${(cpu1 / (bare1 / 1000)).toFixed(2)} cores busy on average), --jobs 2 ${cpu2.toFixed(2)} s (${(cpu2 / cpu1).toFixed(2)}x the work of --jobs 1)`,
        `    so even with both cores busy throughout, --jobs 2 would take ${(cpu2 / 2 / (bare1 / 1000)).toFixed(3)}x of --jobs 1 here`,
      );
    }
    cpuLines.push(
      `  this machine: an integer loop takes ${slowdown.alone.toFixed(0)} ms alone and ${slowdown.together.toFixed(0)} ms each with two at once (${(slowdown.together / slowdown.alone).toFixed(2)}x: what two busy threads cost each other here)`,
    );
    // Five long motions (whole captures; the pool compresses each in shares of its channels, one per job), from
    // the captures at 30 fps, then from the BVH captures at their own 120 fps (four times the frames).
    const longLines = [
      ...longScaling(cli, longProject(join(dir, 'long30'), captures), '30 fps'),
      ...longScaling(cli, longProject(join(dir, 'long120'), realCapturesAt120()), 'the BVH captures at 120 fps'),
    ];
    return [
      '',
      `Build scaling: ${p.motions.length} real-capture motions (slices of ${captures.map(([n]) => n).join(', ')}; full and half rate; varied tolerances), ${availableParallelism()} cores here`,
      `  (each build is \`actguy build\` in a fresh process; ${ROUNDS} rounds; times are medians, ratios are medians of the ratios within each round)`,
      `  cold build, --jobs 1          ${(cold1 / 1000).toFixed(2)} s`,
      `  cold build, --jobs 2          ${(cold2 / 1000).toFixed(2)} s   ratio ${median(coldRatio).toFixed(3)}x of --jobs 1 (target <= 0.65x on 2 cores; rounds ${range(coldRatio, 2)})`,
      `    fastest of ${ROUNDS}: --jobs 1 ${(Math.min(...c1) / 1000).toFixed(2)} s, --jobs 2 ${(Math.min(...c2) / 1000).toFixed(2)} s, ratio ${(Math.min(...c2) / Math.min(...c1)).toFixed(3)}x (noise only ever slows a build down)`,
      `  --no-cache, --jobs 1          ${(bare1 / 1000).toFixed(2)} s`,
      `  --no-cache, --jobs 2          ${(bare2 / 1000).toFixed(2)} s   ratio ${median(bareRatio).toFixed(3)}x of --jobs 1 (no cache written; rounds ${range(bareRatio, 2)})`,
      `  unchanged rebuild (up to date) ${(warm / 1000).toFixed(2)} s   ratio ${median(warmRatio).toFixed(3)}x of the cold build (target <= 0.1x; rounds ${range(warmRatio, 3)})`,
      ...cpuLines,
      ...longLines,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
