/**
 * The compressor on hostile-but-valid motions (shared/testing/hostileMotions.ts; docs/testing.md#hostile-motions):
 * every BVH case imported, every direct case, in the refined (default), classic and skeleton-aware modes, at the
 * default tolerances, at the precision floor (0.003 u / 0.03 deg) and at 0. Each result keeps the guarantee by
 * the independent decoder (every non-key frame within tolerance, user keys written, keys over tolerance named by
 * a warning, nothing NaN), and compressing twice gives the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { H16_MAX } from '../math/half';
import { importBvh } from '../interchange/bvh/import';
import { KeyFlag, emptyMotion, type Motion } from '../motion/types';
import { guaranteeViolations, hostileBvhCases, hostileMotionCases } from '../testing/hostileMotions';
import { compressMotion, mt3Frame } from './compress';
import type { CompressOptions } from './types';

const DEFAULTS = { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 };
const FLOOR = { positionTolerance: 0.003, rotationToleranceDeg: 0.03, offsetTolerance: 0.003 };
const ZERO = { positionTolerance: 0, rotationToleranceDeg: 0, offsetTolerance: 0 };
const runs: [string, Omit<CompressOptions, 'name'>][] = [
  ['refined', DEFAULTS],
  ['classic', { ...DEFAULTS, method: 'classic' }],
  ['skeleton-aware 0.5 u', { ...DEFAULTS, objectTolerance: 0.5 }],
  ['refined at the floor', FLOOR],
  ['classic at the floor', { ...FLOOR, method: 'classic' }],
  ['skeleton-aware 0.01 u', { ...DEFAULTS, objectTolerance: 0.01 }],
  ['refined at 0', ZERO],
];

function check(m: Motion): void {
  for (const [label, options] of runs) {
    const r = compressMotion(m, { ...options, name: 'hostile' });
    expect(guaranteeViolations(m, r), label).toEqual([]);
    expect(Array.from(compressMotion(m, { ...options, name: 'hostile' }).bytes), `${label}: deterministic`).toEqual(
      Array.from(r.bytes),
    );
  }
}

describe('hostile BVH captures, imported, keep the guarantee in every mode', () => {
  for (const c of hostileBvhCases())
    it(
      c.name,
      () => {
        check(importBvh(c.text, { fps: c.fps }).motion);
      },
      120_000,
    );
});

describe('hostile motions keep the guarantee in every mode', () => {
  for (const c of hostileMotionCases())
    it(
      c.name,
      () => {
        check(c.motion);
      },
      120_000,
    );
});

describe('the check itself', () => {
  it('finds a frame off its source that is not a key, and a user key that was not written', () => {
    const m = hostileMotionCases().find((c) => c.name === 'sign-flips')!.motion;
    const r = compressMotion(m, { ...DEFAULTS, name: 'hostile' });
    expect(guaranteeViolations(m, r)).toEqual([]);
    const t = r.channels[0].keyFrames[1] - 1; // a frame of the root translation that is not a key
    const moved = { ...m, translation: m.translation.slice(), translationKeyInfo: m.translationKeyInfo.slice() };
    moved.translation[t * 4] += 10;
    moved.translationKeyInfo[t * 4] |= KeyFlag.KEY;
    const bad = guaranteeViolations(moved, r);
    expect(bad).toContain(`translation -1: user key ${t} is not a key of the file`);
    expect(bad.some((b) => b.startsWith(`translation -1: frame ${t} is not a key and has error`))).toBe(true);
  });
});

describe('positions near the h16 limit', () => {
  // Positions within h16 (8,384,512) whose one-sided velocity at a key (a jump of 16,000,000 units in a frame)
  // is not: the velocity is the compressor's choice, so it is stored at the largest magnitude h16 holds
  // instead of refusing a motion every position of which can be stored.
  it('a teleport from +8e6 to -8e6 compresses, the velocity held at the h16 limit', () => {
    const m = emptyMotion(6, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' }]);
    for (let f = 0; f <= 6; f++) m.translation[f * 4] = f % 2 ? -8e6 : 8e6;
    check(m);
    const r = compressMotion(m, { ...DEFAULTS, name: 'hostile' });
    expect(Math.max(...r.mt3.root.velocity.map((b) => b & 0x7fff))).toBe(0x7bff); // H16_MAX's bits
    expect(H16_MAX).toBeLessThan(16e6);
  });
});

describe('locks beyond the fix stream', () => {
  // The fix stream counts its entries in a u16. A motion of 65,536 frames whose lock changes joint every frame has
  // 65,536 entries: the compressor wrote a count of 0 (an MT3 that does not read); it refuses the motion instead,
  // before compressing anything, naming the frame of the first entry that does not fit.
  it('a lock on another joint every frame of 65,536 frames is refused with its place', () => {
    const N = 65535;
    const m = emptyMotion(
      N,
      [0, 1].map((j) => ({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `j${j}` })),
    );
    for (let f = 0; f <= N; f++) m.jointKeyInfo[(f * 2 + (f % 2)) * 4] |= KeyFlag.LOCK;
    for (const method of ['classic', 'refined'] as const) {
      const run = () => compressMotion(m, { ...DEFAULTS, method, name: 'locks' });
      expect(run).toThrow(FormatError);
      expect(run).toThrow(
        "MTN (joint key info frame 65535): LOCK flags form 65536 lock ranges (one per run of consecutive frames locking one joint); an MT3's fix stream holds at most 65535",
      );
    }
  });

  it('is refused before any compression: the work is never begun, so never asked to stop', () => {
    const N = 65535;
    const m = emptyMotion(
      N,
      [0, 1].map((j) => ({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `j${j}` })),
    );
    for (let f = 0; f <= N; f++) m.jointKeyInfo[(f * 2 + (f % 2)) * 4] |= KeyFlag.LOCK;
    let asked = 0;
    // A compression that had begun would ask, and stop at once with another error.
    const stop = () => ++asked > 0;
    expect(() => compressMotion(m, { ...DEFAULTS, name: 'locks' }, undefined, stop)).toThrow(/65536 lock ranges/);
    expect(asked).toBe(0);
    // The frame of a cache entry's header is checked by the same rule (mt3Frame).
    expect(() => mt3Frame(m, 0)).toThrow(/65536 lock ranges/);
  });

  it('65,535 lock ranges, the most a u16 count holds, are kept whole', () => {
    const N = 65534; // 65,535 frames, the lock on another joint every frame: one range per frame
    const m = emptyMotion(
      N,
      [0, 1].map((j) => ({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `j${j}` })),
    );
    for (let f = 0; f <= N; f++) m.jointKeyInfo[(f * 2 + (f % 2)) * 4] |= KeyFlag.LOCK;
    const fix = mt3Frame(m, 0).fix!;
    expect(fix).toHaveLength(65535);
    expect(fix.at(-1)).toEqual({ firstFrame: N, lastFrame: N, joint: 0 });
  });
});
