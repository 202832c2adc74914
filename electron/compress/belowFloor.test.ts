/**
 * The skeleton-aware mode asked for an object-space bound below what h16/s12 can hold a motion to
 * (docs/compression.md#below-the-floor): it holds the motion to its floor (the object-space error of the source
 * rounded to h16/s12 at every frame) and says what was asked. Before round 4 of the compressor's held-out checks it
 * keyed nearly every frame of every channel (19,167 keys on cmu_01_01 at 0.005) and ended at the floor all the same.
 * On every bundled capture at 30 fps, refined and classic: the written file, decoded by the independent decoder and
 * put through an independent FK, is within the floor at every frame; every channel's non-key frames are within
 * their tolerance; the keys are far fewer than every frame. objectFloorCeiling, which lets the mode skip measuring
 * the floor, is above the floor on every capture at 30 and 120 fps, and within 3.5 times it.
 *
 * Mutations that fail here: compressMotion without the clamp (requestedObjectTolerance missing, the key count);
 * objectFloorAbove clamping to half the floor (frames over it); objectFloorUpperBound without its rotation term
 * (under the floor: the ceiling test, and the clamp skipped), or with round 7's bound (s12's largest error for every
 * joint times the longest lever of a chain: over 3.5 times the floor).
 */
import { describe, expect, it } from 'vitest';
import { compressMotion, objectFloorCeiling } from '../../shared/compress/compress';
import { defaultShell } from '../../shared/compress/objectError';
import { precisionFloor } from '../../shared/compress/unreachable';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { independentObjectErrors } from '../../shared/testing/independentFk';
import { readMt3 } from '../../shared/mt3/read';
import { floorCaptures } from '../testing/floorGuarantee';

const captures = floorCaptures();
const tol = { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005 };

describe('an object-space bound below the floor', () => {
  for (const [name, at] of captures)
    for (const method of ['refined', 'classic'] as const)
      it(`${name} at 30 fps, ${method}: held to the floor, every frame within it by an independent FK`, () => {
        const m = at(30);
        const shell = defaultShell(m);
        const floor = precisionFloor(m, shell).object!;
        const r = compressMotion(m, { ...tol, objectTolerance: 0.005, method, name: 'below' });
        expect(r.skeleton).toMatchObject({ objectTolerance: floor, requestedObjectTolerance: 0.005, met: true });
        expect(guaranteeViolations(m, r)).toEqual([]);
        const channels = r.channels.length;
        // Every frame a key is what the bound below the floor gave (cmu_01_01: 19,167 of 19,280); at the floor the
        // refined mode keys 30-49 % of them (7,960 there), classic 51-94 % (its keys fit less closely).
        const share = method === 'refined' ? 0.55 : 0.97;
        expect(r.totalKeys, 'keys: fewer than every frame').toBeLessThan(share * channels * (m.frameCount + 1));
        const errors = independentObjectErrors(m, readMt3(r.bytes), shell);
        let worst = 0;
        errors.forEach((perJoint) => perJoint.forEach((e) => (worst = Math.max(worst, e))));
        expect(worst).toBeLessThanOrEqual(floor + 1e-9);
      }, 120_000);

  it('a bound at or above the floor is kept as asked', () => {
    const m = captures[0][1](30);
    const shell = defaultShell(m);
    const floor = precisionFloor(m, shell).object!;
    for (const bound of [floor, floor * 1.01]) {
      const r = compressMotion(m, { ...tol, objectTolerance: bound, name: 'at' });
      expect(r.skeleton!.objectTolerance).toBe(bound);
      expect(r.skeleton!.requestedObjectTolerance).toBeUndefined();
    }
  });

  it('objectFloorCeiling is above the floor on every capture at 30 and 120 fps, and within 3.5 times it', () => {
    for (const [name, at] of captures)
      for (const fps of [30, 120]) {
        const m = at(fps);
        const shell = defaultShell(m);
        const floor = precisionFloor(m, shell).object!;
        const ceiling = objectFloorCeiling(m, shell);
        expect(ceiling, `${name} at ${fps} fps`).toBeGreaterThanOrEqual(floor);
        // Near enough to spare the floor's FK below the bounds the skeleton-aware bench asks for (round 8: 2.2-2.8
        // times the floor; round 7's s12 bound for every joint times the longest lever gave 4.8-6.9 times).
        expect(ceiling, `${name} at ${fps} fps`).toBeLessThan(3.5 * floor);
      }
  }, 120_000);
});
