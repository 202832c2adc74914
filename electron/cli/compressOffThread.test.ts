/**
 * `actguy compress` of a long motion runs the compression in a worker thread (compressOffThread; Ctrl+C is
 * interrupt.test.ts's): the same bytes as on the CLI's own thread, and a problem the compressor finds told as on that
 * thread, the input's file and place named (the worker's FormatError comes from the commands chunk's copy of the
 * class, which this bundle's `instanceof` does not know).
 *
 * Mutations, each failing this file: compress.ts's ownFormatError returning the error as it is (not this bundle's
 * class: runCommand would not tell it as the input's problem); OFF_THREAD_MIN_MTN_BYTES raised past the long motion
 * (nothing runs in a worker: the probe says so), or set to 0 (the short one runs in a worker too).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { FormatError } from '../../shared/errors';
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
    // The worker exits as its request arrives, before it answers: as one killed or out of memory would.
    const die = join(dir, 'die.cjs');
    writeFileSync(
      die,
      `const { isMainThread, parentPort } = require('node:worker_threads');
if (!isMainThread) parentPort.on('message', () => process.exit(7));
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
