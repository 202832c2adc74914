/**
 * Ctrl+C and SIGTERM during the commands that write (docs/cli.md, "Exit status"): the built CLI, spawned, is sent the
 * signal while it works (once a line it prints before the long part appears, or once it listens for the signal), and
 * must say `interrupted: ` with what was and was not written, exit 130 / 143, and leave the outputs as they were and
 * no temp file. No timing is asserted: each run is long enough (a motion two or four times the CMU capture's length, a
 * project of a dozen such motions) that the signal lands while it works, or is held by a preload; export-msh, whose
 * whole run is short, raises its own signal as it starts listening (docs/testing.md, "Tests under load, round 8").
 *
 * Mutations, each failing this file: onInterrupt's handlers not installed (process.on dropped: the process dies by
 * the signal, status null, no line); compress's `await interruption.checkpoint()` removed (the output is written and
 * the status is 0); build's onInterrupt dropped; the import batch's onInterrupt dropped; export-msh's checkpoint
 * removed; the second signal's `if (handled) return` removed (two lines); compress on the CLI's own thread again
 * (compressOffThread not used: the worker's compression is never reached, and the run ends with its output written);
 * one import on the CLI's own thread again (importOffThread not used), and a batch's files imported in-process again
 * (inProcessImportRunner): the worker is never reached and the run ends with its output written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resampleMotion } from '../../shared/motion/resample';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { spineBvh } from '../../shared/testing/bvhFixtures';
import { onInterrupt } from './interrupt';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-interrupt-'));
  // The CMU capture (687 frames, 31 joints) four times as long: 2,748 frames at 30 fps.
  const cmu = readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'cmu_01_01.mtn'))));
  const long = resampleMotion(cmu, cmu.fps * 4);
  long.fps = cmu.fps;
  writeFileSync(join(dir, 'long.mtn'), writeMtn(long));
  // Twice as long, for MSH (whose u16 frame map holds at most 65,535 words: frames x animated nodes).
  const twice = resampleMotion(cmu, cmu.fps * 2);
  twice.fps = cmu.fps;
  writeFileSync(join(dir, 'twice.mtn'), writeMtn(twice));
}, 60_000);
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Files anywhere under `folder` whose name marks a temp file of ours. */
function temps(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => /\.actguy-.*\.tmp$|\.tmp$/.test(f));
}

/**
 * Runs the CLI in `cwd`; once `ready` matches what it printed (stdout, stderr or, with a preload, its third stream),
 * sends `signal` (`ready` null: never; the preload raises it). Resolves with the exit status, the signal that ended it
 * if any, and its output.
 */
function interrupted(
  cwd: string,
  args: string[],
  ready: RegExp | null,
  signal: NodeJS.Signals,
  preload?: string,
): Promise<{
  code: number | null;
  killedBy: NodeJS.Signals | null;
  out: string;
  err: string;
  extra: string;
  sent: boolean;
}> {
  const child = spawn(process.execPath, [...(preload ? ['-r', preload] : []), cli, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state') },
  });
  children.push(child);
  let out = '';
  let err = '';
  let extra = '';
  let sent = false;
  const check = () => {
    if (!sent && ready?.test(`${out}\n${err}\n${extra}`)) {
      sent = true;
      child.kill(signal);
    }
  };
  child.stdout!.on('data', (d) => ((out += d), check()));
  child.stderr!.on('data', (d) => ((err += d), check()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => ((extra += d), check()));
  return new Promise((resolve) =>
    child.on('close', (code, killedBy) => resolve({ code, killedBy, out, err, extra, sent })),
  );
}

describe('a signal while a command works', () => {
  it('compress: Ctrl+C while the motion is compressed writes nothing and says so (130)', async () => {
    const folder = join(dir, 'compress');
    mkdirSync(folder);
    copyFileSync(join(dir, 'long.mtn'), join(folder, 'long.mtn'));
    // A tuning file beside the motion: compress says it uses it before it compresses, the moment to press Ctrl+C.
    writeFileSync(
      join(folder, 'long.mtn.actguy-tuning.json'),
      JSON.stringify({
        version: 1,
        tolerances: { position: 0.01, rotationDeg: 0.05, offset: 0.01, method: 'refined' },
      }),
    );
    writeFileSync(join(folder, 'long.mt3'), 'the previous output');
    const r = await interrupted(
      folder,
      ['compress', 'long.mtn', '-o', 'long.mt3', '--report', 'long.json'],
      /using the tuning saved in/,
      'SIGINT',
    );
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 130, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; long.mt3 and long.json are as before, and no temp file is left',
    ]);
    expect(r.out).toBe('');
    expect(readFileSync(join(folder, 'long.mt3'), 'utf8')).toBe('the previous output');
    expect(existsSync(join(folder, 'long.json'))).toBe(false);
    expect(temps(folder)).toEqual([]);
  }, 120_000);

  it('compress: Ctrl+C while the worker compresses ends the run at once, not when the compression would (130)', async () => {
    const folder = join(dir, 'compress-worker');
    mkdirSync(folder);
    copyFileSync(join(dir, 'long.mtn'), join(folder, 'long.mtn'));
    writeFileSync(join(folder, 'long.mt3'), 'the previous output');
    // In the compression's worker thread (a preload runs in each): say so once the motion is there, then never
    // answer, a compression longer than any test. Compressed on the CLI's own thread, nothing is said and the
    // run ends with its output written; with the main thread waiting for the compression, the signal is never
    // handled and the run never ends.
    const preload = join(folder, 'endless.cjs');
    writeFileSync(
      preload,
      `const { isMainThread, workerData } = require('node:worker_threads');
if (!isMainThread && workerData && workerData.request) {
  require('node:fs').writeSync(3, 'compressing\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
`,
    );
    const r = await interrupted(
      folder,
      ['compress', 'long.mtn', '-o', 'long.mt3', '--report', 'long.json'],
      /compressing/,
      'SIGINT',
      preload,
    );
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 130, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; long.mt3 and long.json are as before, and no temp file is left',
    ]);
    expect(readFileSync(join(folder, 'long.mt3'), 'utf8')).toBe('the previous output');
    expect(existsSync(join(folder, 'long.json'))).toBe(false);
    expect(temps(folder)).toEqual([]);
  }, 120_000);

  it('build: SIGTERM after the first motion leaves the outputs as they were and says so (143)', async () => {
    const folder = join(dir, 'build');
    mkdirSync(folder);
    const motions = Array.from({ length: 12 }, (_, i) => {
      copyFileSync(join(dir, 'long.mtn'), join(folder, `m${i}.mtn`));
      return { name: `m${i}`, mtn: `m${i}.mtn` };
    });
    writeFileSync(
      join(folder, 'p.actguy.json'),
      JSON.stringify({ version: 1, motions, outputs: { mar: 'out/p.mar', sar: 'out/p.sar' } }),
    );
    const r = await interrupted(
      folder,
      ['build', 'p.actguy.json', '--jobs', '1', '--no-cache'],
      /^\[1\/12\] /m,
      'SIGTERM',
    );
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 143, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      "interrupted: nothing was written; the project's outputs are as before, and no temp file is left (the cache keeps the motions compressed so far)",
    ]);
    expect(existsSync(join(folder, 'out', 'p.mar'))).toBe(false);
    expect(existsSync(join(folder, 'out', 'p.sar'))).toBe(false);
    expect(temps(folder)).toEqual([]);
  }, 180_000);

  it('batch import: Ctrl+C after the first file writes none of them (130)', async () => {
    const folder = join(dir, 'import');
    mkdirSync(join(folder, 'src'), { recursive: true });
    const rows = Array.from({ length: 20000 }, (_, f) => `${f % 50} 90 0 ${f % 360} 0 0 ${(f * 2) % 360} 0 0`);
    const inputs = Array.from({ length: 30 }, (_, i) => {
      writeFileSync(join(folder, 'src', `take${i}.bvh`), spineBvh(rows));
      return `src/take${i}.bvh`;
    });
    mkdirSync(join(folder, 'motions'));
    const r = await interrupted(folder, ['import', ...inputs, '-o', 'motions'], /^\[1\/30\] /m, 'SIGINT');
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 130, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; motions is as before, and no temp file is left',
    ]);
    expect(readdirSync(join(folder, 'motions'))).toEqual([]);
  }, 180_000);

  /**
   * A preload that makes every worker thread of the run an import that never ends: it says so on the third stream,
   * then waits for good. The CLI's own thread is free only if the importer runs in a worker (importOffThread.ts,
   * workerImportRunner): imported on the CLI's thread, nothing is said and the run ends with its output written.
   */
  const endlessImport = (folder: string): string => {
    const preload = join(folder, 'endless-import.cjs');
    writeFileSync(
      preload,
      `const { isMainThread } = require('node:worker_threads');
if (!isMainThread) {
  require('node:fs').writeSync(3, 'importing\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
`,
    );
    return preload;
  };

  it('import: Ctrl+C while one long file is imported ends the run at once, no .mtn and no temp (130)', async () => {
    const folder = join(dir, 'import-one');
    mkdirSync(folder);
    const rows = Array.from({ length: 20000 }, (_, f) => `${f % 50} 90 0 ${f % 360} 0 0 ${(f * 2) % 360} 0 0`);
    writeFileSync(join(folder, 'take.bvh'), spineBvh(rows));
    writeFileSync(join(folder, 'take.mtn'), 'the previous output');
    const r = await interrupted(
      folder,
      ['import', 'take.bvh', '-o', 'take.mtn'],
      /importing/,
      'SIGINT',
      endlessImport(folder),
    );
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 130, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; take.mtn is as before, and no temp file is left',
    ]);
    expect(r.out).toBe('');
    expect(readFileSync(join(folder, 'take.mtn'), 'utf8')).toBe('the previous output');
    expect(readdirSync(folder).sort()).toEqual(['endless-import.cjs', 'take.bvh', 'take.mtn']);
  }, 120_000);

  it('import: SIGTERM while one long file is imported into a folder ends the run at once, nothing written (143)', async () => {
    const folder = join(dir, 'import-one-dir');
    mkdirSync(join(folder, 'motions'), { recursive: true });
    writeFileSync(join(folder, 'take.bvh'), spineBvh(['0 90 0 0 0 0 0 0 0', '1 90 0 0 0 0 0 0 0']));
    const r = await interrupted(
      folder,
      ['import', 'take.bvh', '-o', 'motions'],
      /importing/,
      'SIGTERM',
      endlessImport(folder),
    );
    expect(r.sent).toBe(true);
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 143, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; motions is as before, and no temp file is left',
    ]);
    expect(readdirSync(join(folder, 'motions'))).toEqual([]);
    expect(temps(folder)).toEqual([]);
  }, 120_000);

  it('export-msh: Ctrl+C while the nodes are fitted writes none of the three files (130)', async () => {
    const folder = join(dir, 'msh');
    mkdirSync(folder);
    copyFileSync(join(dir, 'twice.mtn'), join(folder, 'long.mtn'));
    // export-msh prints nothing before its fit, and its whole run is short (0.77 s of CPU time here, the process's
    // start included): a Ctrl+C sent once it said it listens could come after a fast machine's fit and commit. So the
    // run sends it to itself: this preload raises SIGINT the moment the CLI listens for it, before the fit begins, and
    // says so on the third stream. The signal is then waiting whatever the fit's speed, handled at the checkpoint
    // after the fit (the fit is on this thread, --jobs 1), before anything is written.
    const preload = join(folder, 'listening.cjs');
    writeFileSync(
      preload,
      `const on = process.on.bind(process);
process.on = (event, fn) => {
  const r = on(event, fn);
  if (event === 'SIGINT') {
    process.kill(process.pid, 'SIGINT');
    require('node:fs').writeSync(3, 'raised\\n');
  }
  return r;
};
`,
    );
    const r = await interrupted(
      folder,
      ['export-msh', 'long.mtn', '-o', 'out/long', '--jobs', '1', '--pos-tol', '0.01', '--rot-tol', '0.05'],
      null,
      'SIGINT',
      preload,
    );
    expect(r.extra).toBe('raised\n');
    expect({ code: r.code, killedBy: r.killedBy }, r.err).toEqual({ code: 130, killedBy: null });
    expect(r.err.split('\n').filter((l) => l.startsWith('interrupted:'))).toEqual([
      'interrupted: nothing was written; out/long.res8, out/long.res19 and out/long.nodes.json are as before, and no temp file is left',
    ]);
    expect(existsSync(join(folder, 'out'))).toBe(false);
  }, 120_000);
});

describe('onInterrupt', () => {
  /** A stand-in for process: its listeners, and a signal sent to them. */
  function fakeProcess() {
    const listeners = new Map<string, ((s: NodeJS.Signals) => void)[]>();
    return {
      on: (e: string, f: (s: NodeJS.Signals) => void) => listeners.set(e, [...(listeners.get(e) ?? []), f]),
      off: (e: string, f: (s: NodeJS.Signals) => void) =>
        listeners.set(
          e,
          (listeners.get(e) ?? []).filter((g) => g !== f),
        ),
      send: (s: NodeJS.Signals) => (listeners.get(s) ?? []).forEach((f) => f(s)),
      count: () => [...listeners.values()].flat().length,
    };
  }

  it('says the state once and exits 130 for SIGINT, 143 for SIGTERM; a second signal adds nothing; dispose removes it', () => {
    for (const [signal, status] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const p = fakeProcess();
      const said: string[] = [];
      const exits: number[] = [];
      let stopped = 0;
      const i = onInterrupt(() => 'the state now', {
        on: p as unknown as NodeJS.Process,
        say: (l) => said.push(l),
        exit: ((s: number) => void exits.push(s)) as (s: number) => never,
        stop: () => stopped++,
      });
      p.send(signal);
      p.send('SIGINT');
      expect({ said, exits, stopped }).toEqual({ said: ['interrupted: the state now'], exits: [status], stopped: 1 });
      i.dispose();
      expect(p.count()).toBe(0);
    }
  });
});
