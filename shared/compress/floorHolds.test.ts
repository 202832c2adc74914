/**
 * Round 18 (docs/compression.md#round-18-2026-12-07-positions-held-at-their-floor-and-the-tight-sweeps): a position
 * held still at exactly its precision floor. Rounds 10 and 11 measured a channel constant on every frame; here the
 * channels of a moving motion hold their pose for a run of frames (at its start, its end or inside) whose rounding is
 * the channel's floor, and every other frame is stored exactly (its error 0), so the floor is the hold's own key
 * error and every frame of the hold decodes at that error, a rounding step either side, keyed or not.
 */
import { describe, expect, it } from 'vitest';
import { decodeH16, encodeH16, quantizeH16 } from '../math/half';
import { decodeS12, encodeS12 } from '../math/s12';
import type { Motion } from '../motion/types';
import { guaranteeViolations } from '../testing/hostileMotions';
import { objectBoundViolations } from '../testing/independentFk';
import { constantPoseMotion } from '../testing/seamMotions';
import { toleranceMismatches } from '../testing/toleranceMismatches';
import { compressMotion } from './compress';
import { defaultShell } from './objectError';
import { PositionFit } from './positionFit';
import { offsetSource, translationSource } from './sources';
import type { CompressOptions } from './types';
import { precisionFloor } from './unreachable';

const J = 3;

/**
 * constantPoseMotion's pose held on frames [from, to] and moving elsewhere, every moving frame's values ones that
 * h16 / s12 store exactly (so the floor of each channel is its held pose's rounding).
 */
function heldPoseMotion(N: number, from: number, to: number): Motion {
  const m = constantPoseMotion(N, J);
  for (let f = 0; f <= N; f++) {
    if (f >= from && f <= to) continue;
    const t = f < from ? from - f : f - to;
    const ramp = Math.min(1, t / 40);
    for (let c = 0; c < 3; c++)
      m.translation[f * 4 + c] = quantizeH16(m.translation[c] + 0.5 * Math.sin(t / 20 + c) * (t / 50));
    for (let j = 0; j < J; j++) {
      const q = [0, 1, 2, 3].map((c) => m.rotation[j * 4 + c] + 0.3 * Math.sin(t / 25 + c + j) * ramp);
      const n = Math.hypot(...q);
      const stored = q.map((x) => decodeS12(encodeS12(x / n)));
      const sn = Math.hypot(...stored);
      for (let c = 0; c < 4; c++) m.rotation[(f * J + j) * 4 + c] = stored[c] / sn;
      for (let c = 0; c < 3; c++)
        m.offset[(f * J + j) * 4 + c] = quantizeH16(m.offset[j * 4 + c] + 0.2 * Math.sin(t / 30 + c) * ramp);
    }
  }
  return m;
}

const holds: [number, number][] = [
  [0, 700],
  [300, 1000],
  [200, 800],
];

describe('a position held still at exactly its precision floor', () => {
  it('keeps the promise in every mode: no frame that is not a key over its tolerance, every key over it named', () => {
    for (const [from, to] of holds) {
      const m = heldPoseMotion(1000, from, to);
      const floor = precisionFloor(m, defaultShell(m));
      // The hold is what sets the root's floor: the moving frames are stored exactly.
      expect(floor.position).toBeGreaterThan(0.02);
      for (const method of ['classic', 'refined'] as const)
        for (const objectTolerance of [undefined, floor.object!, 2 * floor.object!]) {
          const options: CompressOptions = {
            name: 'held',
            method,
            positionTolerance: floor.position,
            rotationToleranceDeg: floor.rotationDeg,
            offsetTolerance: floor.offset!,
            ...(objectTolerance === undefined ? {} : { objectTolerance }),
          };
          const where = `[${from}, ${to}] ${method} ${objectTolerance ?? 'per joint'}`;
          const r = compressMotion(m, options);
          expect([...guaranteeViolations(m, r), ...toleranceMismatches(m, options, r)], where).toEqual([]);
          if (objectTolerance === undefined) expect(r.warnings, where).toEqual([]);
          else {
            expect(r.skeleton!.met, where).toBe(true);
            expect(objectBoundViolations(m, r), where).toEqual([]);
          }
        }
    }
  });

  it('holds an end segment at every length up to 255 with a velocity toward the source, not with zero velocities (the root: none over 128)', () => {
    // Round 11 reasoned that the keys at frames 0 and N could pull their segments toward the source (their one
    // velocity starts or ends one segment only) and an inner key cannot. Measured here on the decoder's own
    // arithmetic (PositionFit.segmentError): the root of the constant pose at its floor, a segment from frame 0
    // with the key's velocity h16(-lambda e) (e the key's rounding, lambda the first of 2^(k/2) that holds) and a
    // zero velocity at its end, against zero velocities at both ends.
    const m = constantPoseMotion(300, J);
    for (const [name, source] of [
      ['root', translationSource(m)],
      ['offset 1', offsetSource(m, 1)],
    ] as const) {
      const fit = new PositionFit(source, 300, name);
      for (let f = 0; f <= 255; f++) fit.fitKey(f);
      const tolerance = fit.keyError(0);
      const e = [0, 1, 2].map((c) => fit.p[c] - source[c]);
      const scratch = new Float64Array(301);
      const zero: number[] = [];
      const pulled: number[] = [];
      for (let d = 2; d <= 255; d++) {
        fit.v.fill(0, 0, 3 * (d + 1));
        if (fit.segmentError(0, d, scratch) <= tolerance) zero.push(d);
        for (let k = -40; k <= 10; k++) {
          for (let c = 0; c < 3; c++) fit.v[c] = decodeH16(encodeH16(-(2 ** (k / 2)) * e[c]));
          if (fit.segmentError(0, d, scratch) <= tolerance) {
            pulled.push(d);
            break;
          }
        }
      }
      expect(pulled.length, name).toBe(254);
      expect(Math.max(...zero), name).toBeLessThan(255);
      if (name === 'root') expect(Math.max(...zero)).toBe(128);
    }
  });
});
