import { describe, expect, it } from 'vitest';
import { KeyFlag, MotionFlag } from '../motion/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import { CompressCache } from './cache';
import { compressMotion } from './compress';
import { seededRandom } from '../testing/random';
import { axisOffsets, defaultShell, ObjectErrorMemo, objectSpaceError, rotateInto } from './objectError';

const options = {
  positionTolerance: 0.3,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.3,
  name: 'memo',
  method: 'classic' as const,
};

describe('ObjectErrorMemo', () => {
  it('gives the report of a fresh run after every edit, redoing only the frames whose decoded samples changed', () => {
    for (const offsets of [false, true]) {
      const m = syntheticMotion({ frames: 300, joints: 7, seed: 11, offsets, noise: 0.02 });
      const J = m.joints.length;
      const shell = defaultShell(m);
      const memo = new ObjectErrorMemo();
      const cache = new CompressCache();
      const first = compressMotion(m, options, cache);
      expect(objectSpaceError(m, first.mt3, shell, memo)).toEqual(objectSpaceError(m, first.mt3, shell));
      expect(memo.recomputedFrames).toBe(301);

      // The same result again: nothing to redo.
      expect(objectSpaceError(m, first.mt3, shell, memo)).toEqual(objectSpaceError(m, first.mt3, shell));
      expect(memo.recomputedFrames).toBe(0);

      // User keys on a leaf and on the root joint, one at a time: each report equals a fresh one.
      let last = first;
      for (const [near, joint] of [
        [150, J - 1],
        [40, 0],
        [222, 3],
      ]) {
        // A frame that is not a key yet, so that the decoded samples do change.
        const keys = last.channels.find((c) => c.kind === 'rotation' && c.joint === joint)!.keyFrames;
        let frame = near;
        while (keys.includes(frame)) frame++;
        m.jointKeyInfo[(frame * J + joint) * 4] |= KeyFlag.KEY;
        const r = (last = compressMotion(m, options, cache));
        const fresh = objectSpaceError(m, r.mt3, shell);
        expect(objectSpaceError(m, r.mt3, shell, memo)).toEqual(fresh);
        expect(memo.recomputedFrames).toBeGreaterThan(0);
        expect(memo.recomputedFrames).toBeLessThan(301);
      }
      // A global tolerance change touches every channel: still the fresh report.
      const loose = compressMotion(m, { ...options, rotationToleranceDeg: 2 }, cache);
      expect(objectSpaceError(m, loose.mt3, shell, memo)).toEqual(objectSpaceError(m, loose.mt3, shell));
    }
  });

  it('starts over for another motion or another shell', () => {
    const a = syntheticMotion({ frames: 80, joints: 4, seed: 1 });
    const b = syntheticMotion({ frames: 80, joints: 4, seed: 2 });
    const ra = compressMotion(a, options);
    const rb = compressMotion(b, options);
    const memo = new ObjectErrorMemo();
    objectSpaceError(a, ra.mt3, 1, memo);
    expect(objectSpaceError(b, rb.mt3, 1, memo)).toEqual(objectSpaceError(b, rb.mt3, 1));
    expect(memo.recomputedFrames).toBe(81);
    expect(objectSpaceError(b, rb.mt3, 2, memo)).toEqual(objectSpaceError(b, rb.mt3, 2));
    expect(memo.recomputedFrames).toBe(81);
  });

  it('redoes every frame when the offset streams appear or go', () => {
    const m = syntheticMotion({ frames: 90, joints: 5, seed: 5, offsets: true });
    const withOffsets = compressMotion(m, options);
    const without = compressMotion({ ...m, flags: m.flags & ~MotionFlag.OFFSETS }, options);
    expect(without.mt3.offsets).toBeNull();
    const memo = new ObjectErrorMemo();
    objectSpaceError(m, withOffsets.mt3, 1, memo);
    expect(objectSpaceError(m, without.mt3, 1, memo)).toEqual(objectSpaceError(m, without.mt3, 1));
    expect(memo.recomputedFrames).toBe(91);
  });

  it('is what compressMotion uses with a cache: a key toggle redoes few frames and reports as a fresh run', () => {
    const m = syntheticMotion({ frames: 400, joints: 6, seed: 8, noise: 0.02 });
    const cache = new CompressCache();
    compressMotion(m, options, cache);
    m.jointKeyInfo[(200 * 6 + 2) * 4] |= KeyFlag.KEY;
    const edited = compressMotion(m, options, cache);
    expect(cache.objectMemo.recomputedFrames).toBeLessThan(401);
    expect(edited.objectError).toEqual(compressMotion(m, options).objectError);
  });
});

describe('axisOffsets', () => {
  it('gives the virtual points of rotateInto along X, Y and Z, value for value', () => {
    const rnd = seededRandom(7);
    const got = new Float64Array(9);
    const want = new Float64Array(3);
    // Random unit quaternions, the identity, half turns about each axis and one with zero components.
    const quats: number[][] = [
      [0, 0, 0, 1],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [Math.SQRT1_2, 0, 0, -Math.SQRT1_2],
    ];
    for (let i = 0; i < 2000; i++) {
      const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const l = Math.hypot(...q);
      quats.push(q.map((c) => c / l));
    }
    for (const [qx, qy, qz, qw] of quats)
      for (const shell of [1, 0.37, 13.5, 1e-6, 4e5]) {
        axisOffsets(got, 0, qx, qy, qz, qw, shell);
        for (let axis = 0; axis < 3; axis++) {
          rotateInto(want, 0, qx, qy, qz, qw, axis === 0 ? shell : 0, axis === 1 ? shell : 0, axis === 2 ? shell : 0);
          // The same doubles, a zero of either sign being a zero (+ 0 makes -0 +0; errors are lengths of differences).
          for (let c = 0; c < 3; c++) expect(got[axis * 3 + c] + 0).toBe(want[c] + 0);
        }
      }
  });
});
