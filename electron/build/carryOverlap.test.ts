/**
 * A rebuild that carries motions from its last build (lastBuild.ts) reads the old outputs only after the motions
 * that changed went to the pool, so that the reading overlaps their compression (docs/cache.md, "Carried from the
 * last build"); an expected motion the old outputs do not give is compressed as any other.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBuild, type CompressedMotion, type PreparedBuild } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { compressMotions } from './compressMotions';
import { inProcessCompressor, type MotionCompressor } from './compressPool';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Three motions in a fresh folder, prepared, with each file's bytes as one array (so a request names its motion). */
function threeMotions(): { prepared: PreparedBuild; bytes: Map<string, Uint8Array> } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-carry-'));
  dirs.push(dir);
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'a.mtn'));
  copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(dir, 'b.mtn'));
  copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(dir, 'c.mtn'));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'a', mtn: 'a.mtn' },
        { name: 'b', mtn: 'b.mtn', resample: true },
        { name: 'c', mtn: 'c.mtn', tolerances: { rotationDeg: 2 } },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const bytes = new Map<string, Uint8Array>();
  const read = (p: string) => {
    let b = bytes.get(p);
    if (!b) bytes.set(p, (b = new Uint8Array(readFileSync(p))));
    return b;
  };
  const prep = prepareBuild(parseProject(readFileSync(path, 'utf8'), path).resolved!, read);
  if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
  return { prepared: prep.prepared, bytes };
}

/** The in-process compressor, logging `compress <index>` when a motion is sent to it. */
function loggingCompressor(log: string[], indexOf: (mtn: Uint8Array) => number): MotionCompressor {
  const inner = inProcessCompressor();
  return {
    ...inner,
    compress(mtn, options, resampleTo) {
      log.push(`compress ${indexOf(mtn)}`);
      return inner.compress(mtn, options, resampleTo);
    },
  };
}

describe('carrying motions from the last build', () => {
  it('reads the old outputs after the changed motions went to the pool, and compresses an expected motion they lack', async () => {
    const { prepared, bytes } = threeMotions();
    const files = prepared.motions.map((p) => bytes.get(p.resolved.mtnPath)!);
    const indexOf = (mtn: Uint8Array) => files.indexOf(mtn);
    const inputBytes = (p: string) => bytes.get(p);
    const whole = await compressMotions(prepared, { compressor: inProcessCompressor(), inputBytes });
    if (!whole.ok) throw new Error('the plain build failed');

    const log: string[] = [];
    const done: number[] = [];
    const fromLastBuild = new Map<number, CompressedMotion>([[2, whole.results[2]]]);
    const carried = await compressMotions(prepared, {
      compressor: loggingCompressor(log, indexOf),
      inputBytes,
      // Motions 0 and 2 are expected in the old outputs; they give only motion 2.
      carry: {
        expected: new Set([0, 2]),
        take: () => {
          log.push('take');
          return fromLastBuild;
        },
        refresh: true,
      },
      onMotion: (m) => done.push(m.index),
    });
    if (!carried.ok) throw new Error('the carrying build failed');
    expect(log).toEqual(['compress 1', 'take', 'compress 0']);
    expect(carried.results[2]).toBe(fromLastBuild.get(2));
    carried.results.forEach((r, k) => expect(r.bytes).toEqual(whole.results[k].bytes));
    expect([...done].sort()).toEqual([0, 1, 2]);
  });

  it('takes nothing and compresses everything when the old outputs give nothing', async () => {
    const { prepared, bytes } = threeMotions();
    const files = prepared.motions.map((p) => bytes.get(p.resolved.mtnPath)!);
    const log: string[] = [];
    const done = await compressMotions(prepared, {
      compressor: loggingCompressor(log, (mtn) => files.indexOf(mtn)),
      inputBytes: (p) => bytes.get(p),
      carry: {
        expected: new Set([0, 1, 2]),
        take: () => {
          log.push('take');
          return undefined;
        },
        refresh: true,
      },
    });
    expect(done.ok).toBe(true);
    // Every motion is then compressed, after the old outputs were read.
    expect(log[0]).toBe('take');
    expect(log.slice(1).sort()).toEqual(['compress 0', 'compress 1', 'compress 2']);
  });
});
