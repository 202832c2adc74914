/**
 * Round 20 (docs/compression.md#round-20-2026-12-07-classic-holds): a rotation that holds still for runs of frames
 * inside a moving motion (as simple_skin.gltf's joint 1 does: an animation whose keys repeat a pose), compressed by
 * the classic method. Its control point at a key beside a hold came from the moving neighbour too, so the segment
 * into the hold bulged and the greedy loop keyed the hold frame by frame (round 19: simple_skin.gltf's 15 of 45 keys
 * inside its holds). A key whose source holds its rotation up to a neighbouring key now takes t = 0 (RotationFit's
 * `holds`), so a hold needs no key inside it, and the promise holds as before.
 */
import { describe, expect, it } from 'vitest';
import type { Motion } from '../motion/types';
import { guaranteeViolations } from '../testing/hostileMotions';
import { constantPoseMotion } from '../testing/seamMotions';
import { toleranceMismatches } from '../testing/toleranceMismatches';
import { compressMotion } from './compress';
import type { CompressOptions } from './types';

const J = 3;
const N = 300;
/** The runs [from, to] joint 0's rotation holds (every frame of a run the same floats as its first). */
const holds: [number, number][] = [
  [40, 70],
  [120, 135],
  [200, 260],
];

/** Joint 0 turning about a tilted axis, its clock stopped on the holds; the other channels the constant pose's. */
function heldRotationMotion(): Motion {
  const m = constantPoseMotion(N, J);
  let clock = 0;
  for (let f = 0; f <= N; f++) {
    if (f > 0 && !holds.some(([a, b]) => f > a && f <= b)) clock++;
    const half = 0.6 * Math.sin(clock / 14) + 0.2 * Math.sin(clock / 5);
    const axis = [0.6, 0.64, 0.48];
    const s = Math.sin(half);
    const q = [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(half)];
    for (let c = 0; c < 4; c++) m.rotation[f * J * 4 + c] = q[c];
  }
  return m;
}

describe('the classic method on a rotation held still for runs of frames', () => {
  it('keys no frame inside a hold, and keeps the promise (per joint and skeleton-aware)', () => {
    const m = heldRotationMotion();
    for (const objectTolerance of [undefined, 0.01]) {
      const options: CompressOptions = {
        name: 'holds',
        method: 'classic',
        positionTolerance: 0.005,
        offsetTolerance: 0.005,
        rotationToleranceDeg: 0.05,
        ...(objectTolerance === undefined ? {} : { objectTolerance }),
      };
      const where = `classic ${objectTolerance ?? 'per joint'}`;
      const r = compressMotion(m, options);
      expect([...guaranteeViolations(m, r), ...toleranceMismatches(m, options, r)], where).toEqual([]);
      const channel = r.channels.find((c) => c.kind === 'rotation' && c.joint === 0)!;
      const inside = holds.map(([a, b]) => channel.keyFrames.filter((f) => f > a && f < b));
      // The greedy loop keys a hold's inside only where a frame there was the worst before both its ends were keys
      // (3 here: [50], [], [201, 218]); the control point from the moving neighbour keyed 16.
      expect(inside.flat().length, where).toBeLessThanOrEqual(3);
      // Each hold decodes its stored rotation on every frame: no frame of it is worse than its first key's error (but for
      // the Squad's rounding, under 1e-9 deg).
      for (const [a, b] of holds)
        for (let f = a; f <= b; f++)
          expect(channel.errors[f], `${where} frame ${f}`).toBeLessThanOrEqual(channel.errors[a] + 1e-6);
    }
  });
});
