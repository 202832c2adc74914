/**
 * `actguy compress` of a long motion runs the compression in a worker thread (compressOffThread; Ctrl+C is
 * interrupt.test.ts's): the same bytes as on the CLI's own thread, and a problem the compressor finds told as on that
 * thread, the input's file and place named (the worker's FormatError comes from the commands chunk's copy of the
 * class, which this bundle's `instanceof` does not know).
 *
 * Mutations, each failing this file: compress.ts's ownFormatError returning the error as it is (not this bundle's
 * class: runCommand would not tell it as the input's problem); OFF_THREAD_MIN_MTN_BYTES raised past the long motion
 * (nothing runs in a worker: the probe says so), or set to 0 (the short one runs in a worker too). Round 4, each
 * way compressOffThread's worker ends (runOneShotWorker): stop() not aborting (the result never settles: the test
 * times out); an exit worded as an error or the reverse (`exitCode` ignored); a refusal made a plain Error (its code
 * lost, so the CLI would blame the input); the answer's error not made again (errorFromWire dropped: a plain
 * object); compressPoolWorker.cjs ignoring its workerData (no answer: the test times out). Round 7 (the bytes handed
 * over, not held twice): no transfer list (the caller's view stays full); a view transferred whole rather than copied
 * (the caller's larger buffer detached); the worker keeping the request's bytes after reading the motion.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { FormatError, isBundleRefusal } from '../../shared/errors';
import { compressMotion } from '../../shared/compress/compress';
import { answerPoolRequest, compressOffThread, type PoolRequest } from '../build/compressPool';
import { OFF_THREAD_MIN_MTN_BYTES, ownFormatError } from './commands/compress';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-offthread-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with a preload that says on stderr when a worker thread starts. */
function run(...args: string[]): { code: number | null; out: string; err: string } {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `const { isMainThread } = require('node:worker_threads');
if (!isMainThread) require('node:fs').writeSync(2, 'WORKER\\n');
`,
  );
  const r = spawnSync(process.execPath, ['-r', probe, cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('actguy compress of a long motion, in a worker thread', () => {
  it('a long motion is compressed in a worker thread, a short one on the CLI thread', () => {
    const long = writeMtn(syntheticMotion({ frames: 420, joints: 31, seed: 5 }));
    expect(long.byteLength).toBeGreaterThanOrEqual(OFF_THREAD_MIN_MTN_BYTES);
    writeFileSync(join(dir, 'long.mtn'), long);
    const r = run('compress', 'long.mtn', '-o', 'long.mt3', '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('WORKER');
    // The short copy of its first frames runs on the CLI thread.
    const short = writeMtn(syntheticMotion({ frames: 20, joints: 31, seed: 5 }));
    writeFileSync(join(dir, 'short.mtn'), short);
    const s = run('compress', 'short.mtn', '-o', 'short.mt3', '--quiet');
    expect(s.code, s.err).toBe(0);
    expect(s.err).not.toContain('WORKER');
    expect(readFileSync(join(dir, 'long.mt3')).byteLength).toBeGreaterThan(0);
  });

  it("a problem the worker's compressor finds is told as this bundle's FormatError, naming the input", () => {
    // The commands chunk's own copy of the class: the same fields, another prototype.
    class ChunkFormatError extends Error {
      override name = 'FormatError';
      kind = 'MTN' as const;
      detail = 'trace position cannot be stored: 1000000 is beyond a half float';
      place = { where: 'translation frame 0' };
    }
    const e = ownFormatError(new ChunkFormatError('MTN (translation frame 0): ...'), 'far.mtn');
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toBe(
      'far.mtn [MTN] (translation frame 0): trace position cannot be stored: 1000000 is beyond a half float',
    );
    const other = new Error('the compression worker stopped unexpectedly (exit code 1)');
    expect((ownFormatError(other, 'far.mtn') as Error).message).toBe(
      'far.mtn: the compression worker stopped unexpectedly (exit code 1) while compressing it; nothing was written',
    );
  });

  it('a worker that dies mid-way is told naming the input, and nothing is written (round 36)', () => {
    writeFileSync(join(dir, 'dies.mtn'), writeMtn(syntheticMotion({ frames: 420, joints: 31, seed: 6 })));
    // The worker exits with its request in hand, before it answers: as one killed or out of memory would.
    const die = join(dir, 'die.cjs');
    writeFileSync(
      die,
      `const { isMainThread, workerData } = require('node:worker_threads');
if (!isMainThread && workerData && workerData.request) process.exit(7);
`,
    );
    const before = readdirSync(dir).sort();
    for (const extra of [[], ['--report', 'dies.json'], ['--json']]) {
      const r = spawnSync(process.execPath, ['-r', die, cli, 'compress', 'dies.mtn', '-o', 'dies.mt3', ...extra], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        'actguy compress: dies.mtn: the compression worker stopped unexpectedly (exit code 7) while compressing it; nothing was written',
      );
      if (extra[0] === '--json') expect(JSON.parse(r.stdout).error.file).toBe('dies.mtn');
      expect(readdirSync(dir).sort()).toEqual(before);
    }
  });
});

describe('compressOffThread, each way its worker ends (round 4)', () => {
  const pool = join(__dirname, '..', '..', 'dist', 'cli', 'compressPoolWorker.cjs');
  const options = { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5, name: 'take' };
  /** A worker of its own with `body` as its code: what the bundle would do at its worst. */
  const workerDoing = (name: string, body: string): string => {
    const path = join(dir, `${name}.cjs`);
    writeFileSync(path, body);
    return path;
  };

  it('answers with the bytes compressMotion makes on this thread', async () => {
    const motion = syntheticMotion({ frames: 40, joints: 6, seed: 9 });
    const mtn = writeMtn(motion);
    const there = await compressOffThread(mtn, options, pool)!.result;
    expect('stopped' in there).toBe(false);
    if ('stopped' in there) return;
    expect(Buffer.from(there.bytes).equals(Buffer.from(compressMotion(motion, options).bytes))).toBe(true);
    // Handed to the thread, not copied (round 7): this thread's view is empty.
    expect(mtn.byteLength).toBe(0);
  });

  it("a view into a larger buffer is copied once and handed over, the caller's buffer left whole", async () => {
    const motion = syntheticMotion({ frames: 30, joints: 4, seed: 3 });
    const written = writeMtn(motion);
    const larger = new Uint8Array(written.byteLength + 16);
    larger.set(written, 8);
    const view = larger.subarray(8, 8 + written.byteLength);
    const there = await compressOffThread(view, options, pool)!.result;
    if ('stopped' in there) throw new Error('stopped');
    expect(Buffer.from(there.bytes).equals(Buffer.from(compressMotion(motion, options).bytes))).toBe(true);
    expect(view.byteLength).toBe(written.byteLength);
    expect(Buffer.from(view).equals(Buffer.from(written))).toBe(true);
  });

  it('the worker lets the bytes go once it has read the motion (round 7)', () => {
    const motion = syntheticMotion({ frames: 20, joints: 3, seed: 4 });
    const request: PoolRequest = { id: 0, mtn: writeMtn(motion), options, whole: true };
    const reply = answerPoolRequest(request);
    expect(reply.ok && 'whole' in reply && Buffer.from(reply.whole.bytes)).toEqual(
      Buffer.from(compressMotion(motion, options).bytes),
    );
    expect(request.mtn.byteLength).toBe(0);
  });

  it("a bad motion is the compressor's FormatError, made again on this thread", async () => {
    const e = await compressOffThread(new Uint8Array(8), options, pool)!.result.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).kind).toBe('MTN');
  });

  it('a worker that throws, one that exits without answering and a refused bundle are each told as such', async () => {
    // A motion's bytes for each call: a call hands them to its thread.
    const mtn = () => writeMtn(syntheticMotion({ frames: 10, joints: 3, seed: 1 }));
    const failure = (path: string) =>
      compressOffThread(mtn(), options, path)!.result.then(
        () => 'answered',
        (e: unknown) => e as Error,
      );
    const threw = await failure(workerDoing('throws', "throw new Error('the heap is spent');"));
    expect((threw as Error).message).toBe('the compression worker failed: the heap is spent');
    const exited = await failure(workerDoing('exits', 'process.exit(5);'));
    expect((exited as Error).message).toBe('the compression worker stopped unexpectedly (exit code 5)');
    const refused = await failure(
      workerDoing(
        'refused',
        "throw Object.assign(new Error('the bundle x.cjs is not the one installed'), { code: 'ACTGUY_BUNDLE_REFUSED' });",
      ),
    );
    expect(isBundleRefusal(refused)).toBe(true);
    expect((refused as Error).message).toBe('the bundle x.cjs is not the one installed');
    const part = await failure(
      workerDoing(
        'part',
        "require('node:worker_threads').parentPort.postMessage({ id: 0, ok: true, share: { index: 0, channels: [] } });",
      ),
    );
    expect((part as Error).message).toBe('the compression worker answered with a part of the motion');
  });

  it('stop() ends the worker and the result says so', async () => {
    const mtn = () => writeMtn(syntheticMotion({ frames: 10, joints: 3, seed: 1 }));
    const held = workerDoing('held', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);');
    const job = compressOffThread(mtn(), options, held)!;
    job.stop();
    expect(await job.result).toEqual({ stopped: true });
    // Stopped once its thread runs, too.
    const running = compressOffThread(mtn(), options, held)!;
    setImmediate(() => running.stop());
    expect(await running.result).toEqual({ stopped: true });
  });
});
