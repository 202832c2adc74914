/**
 * An output written as its pieces (a rebuild's .mar and report: BuildOutput.pieces, commit.ts writePieces), when the
 * system writes less than asked or fails part way (security round 27). writev may write fewer bytes than its buffers
 * hold, and a plain write fewer than asked: the file must still be their join, byte for byte. A write that fails part
 * way (a full disk) must leave the old set of outputs whole, no temp and no journal: a .mar never holds pieces of two
 * builds.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** How the mocked writes behave: at most this many bytes a call (undefined: as the system does), and a failure. */
const seam = vi.hoisted(() => ({
  most: undefined as number | undefined,
  /** Fail the writev call of this number (1: the first), once `most` bytes of it are written. */
  failAtWritev: undefined as number | undefined,
  writevCalls: 0,
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writevSync = (fd: number, buffers: NodeJS.ArrayBufferView[], position?: number | null): number => {
    seam.writevCalls++;
    if (seam.most === undefined) return fs.writevSync(fd, buffers, position ?? undefined);
    // Writes the first `most` bytes of the buffers, as a short writev does.
    let left = seam.most;
    let written = 0;
    for (const b of buffers) {
      const bytes = new Uint8Array(b.buffer, b.byteOffset, Math.min(b.byteLength, left));
      if (bytes.byteLength) written += fs.writeSync(fd, bytes);
      left -= bytes.byteLength;
      if (left === 0) break;
    }
    if (seam.writevCalls === seam.failAtWritev)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return written;
  };
  const writeSync = ((fd: number, buffer: Uint8Array, offset?: number, length?: number, position?: number) => {
    if (seam.most === undefined || !(buffer instanceof Uint8Array) || typeof offset !== 'number')
      return (fs.writeSync as (...a: unknown[]) => number)(fd, buffer, offset, length, position);
    return fs.writeSync(fd, buffer, offset, Math.min(length ?? buffer.byteLength - offset, seam.most), position);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writevSync, writeSync }, writevSync, writeSync };
});

const { commitOutputs } = await import('./commit');

const dirs: string[] = [];
afterEach(() => {
  seam.most = undefined;
  seam.failAtWritev = undefined;
  seam.writevCalls = 0;
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** 2,600 pieces of odd sizes, some empty, views into one buffer as a rebuild's carried MT3s and entries are. */
function manyPieces(seed: number): Uint8Array[] {
  const source = Uint8Array.from({ length: 200_000 }, (_, k) => (k * seed + (k >> 8)) & 0xff);
  const pieces: Uint8Array[] = [];
  for (let k = 0, at = 0; k < 2600; k++) {
    const n = k % 13 === 0 ? 0 : (k * 31) % 97;
    pieces.push(source.subarray(at % 150_000, (at % 150_000) + n));
    at += n + 3;
  }
  return pieces;
}

/** Every file in the folder with its bytes. */
function contents(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f)).toString('hex')]),
  );
}

describe('an output written as its pieces', () => {
  // Mutation that fails: writePieces taking writev's count as the whole batch (no resuming from where it stopped).
  it('is their join, byte for byte, when every writev and write takes only part of what it is given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-pieces-'));
    dirs.push(dir);
    const pieces = manyPieces(7);
    for (const most of [1, 50, 97, 4096]) {
      seam.most = most;
      const mar = join(dir, `stage-${most}.mar`);
      commitOutputs([{ path: mar, pieces, bytes: new Uint8Array() }]);
      expect(readFileSync(mar).equals(Buffer.concat(pieces)), `${most} bytes a call`).toBe(true);
    }
  });

  // Mutation that fails: the commit not removing the temps when a write fails (the part-written one is left beside
  // the outputs, for the next commit's sweep only).
  it('that fails part way (a full disk) leaves the old outputs whole, and no temp, journal or lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-pieces-'));
    dirs.push(dir);
    const mar = join(dir, 'stage.mar');
    const report = join(dir, 'stage.report.json');
    const old = { mar: manyPieces(3), report: manyPieces(5).slice(0, 900) };
    commitOutputs([
      { path: mar, pieces: old.mar, bytes: new Uint8Array() },
      { path: report, pieces: old.report, bytes: new Uint8Array() },
    ]);
    const before = contents(dir);
    expect(Object.keys(before)).toEqual(['stage.mar', 'stage.report.json']);
    // The .mar's first batch written whole, its second failing after a few bytes; then the report's, each in turn.
    for (const failAt of [2, 6, 7]) {
      seam.writevCalls = 0;
      seam.most = 20_000;
      seam.failAtWritev = failAt;
      expect(() =>
        commitOutputs([
          { path: mar, pieces: manyPieces(11), bytes: new Uint8Array() },
          { path: report, pieces: manyPieces(13), bytes: new Uint8Array() },
        ]),
      ).toThrow(/no space left on the device; nothing was written/);
      expect(seam.writevCalls, `writev ${failAt}`).toBe(failAt);
      expect(contents(dir), `writev ${failAt}`).toEqual(before);
    }
    // The next commit goes through as if none of that happened.
    seam.most = undefined;
    seam.failAtWritev = undefined;
    const next = manyPieces(17);
    commitOutputs([
      { path: mar, pieces: next, bytes: new Uint8Array() },
      { path: report, pieces: old.report, bytes: new Uint8Array() },
    ]);
    expect(readFileSync(mar).equals(Buffer.concat(next))).toBe(true);
    expect(existsSync(`${mar}.actguy-commit`)).toBe(false);
  });
});

/** The same through the commit's file-system seam (CommitFs), as the other commit tests inject failures. */
describe('a pieces write that fails through the CommitFs seam', () => {
  it('after writing part of a temp leaves the old set and no temp', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-pieces-'));
    dirs.push(dir);
    const mar = join(dir, 'stage.mar');
    const sar = join(dir, 'stage.sar');
    commitOutputs([
      { path: mar, bytes: Buffer.from('mar old') },
      { path: sar, bytes: Buffer.from('sar old') },
    ]);
    const before = contents(dir);
    expect(() =>
      commitOutputs(
        [
          { path: mar, pieces: manyPieces(7), bytes: new Uint8Array() },
          { path: sar, bytes: Buffer.from('sar new') },
        ],
        {
          fs: {
            writePiecesSync: (p, pieces) => {
              // Half of the pieces reach the temp, then the disk is full.
              writeFileSync(p, Buffer.concat(pieces.slice(0, pieces.length / 2)), { flag: 'wx' });
              throw Object.assign(new Error(`ENOSPC: no space left on device, write '${p}'`), { code: 'ENOSPC' });
            },
          },
        },
      ),
    ).toThrow(`cannot write ${mar}: no space left on the device; nothing was written`);
    expect(contents(dir)).toEqual(before);
  });
});
