import { describe, expect, it } from 'vitest';
import { decodeS12 } from '../math/s12';
import { conjQuat, expQuat, logQuat, mulQuat, normalize4, rotationErrorDeg } from '../math/quat';
import { encodeS12 } from '../math/s12';
import { squadRef } from '../math/squad';
import { seededRandom } from '../testing/random';
import { putContinuousQuaternion } from '../testing/syntheticMotion';
import { RotationFit } from './rotationFit';

/** (N+1) x 4 sign-continuous unit quaternions: a random walk, or a spin about Z by `spin` radians in all. */
function source(N: number, seed: number, spin?: number): Float64Array {
  const rnd = seededRandom(seed);
  const s = new Float64Array((N + 1) * 4);
  const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() + 0.5];
  for (let f = 0; f <= N; f++) {
    if (spin !== undefined) {
      const th = (spin * f) / N;
      q[0] = 0;
      q[1] = 0;
      q[2] = Math.sin(th / 2);
      q[3] = Math.cos(th / 2);
    } else {
      for (let c = 0; c < 4; c++) q[c] += (rnd() - 0.5) * 0.2;
    }
    putContinuousQuaternion(s, f, q);
  }
  return s;
}

/**
 * The error at every interior frame of segment (a, b) as the reference decoder
 * computes it from the stored integers: squadRef on the decoded, normalised,
 * sign-chained keys (what the written MT3 holds), against the source.
 */
function referenceErrors(fit: RotationFit, a: number, b: number): number[] {
  const stored = fit.storedKeys([a, b]);
  const q = new Float64Array(8),
    inner = new Float64Array(8);
  for (let i = 0; i < 8; i++) {
    q[i] = decodeS12(stored.rotation[i]);
    inner[i] = decodeS12(stored.inner[i]);
  }
  normalize4(q, 0);
  normalize4(q, 4);
  normalize4(inner, 0);
  normalize4(inner, 4);
  const out = new Float64Array(4);
  const errors: number[] = [];
  for (let t = a + 1; t < b; t++) {
    squadRef(out, q, 0, 4, inner, 0, 4, (t - a) / (b - a));
    errors.push(rotationErrorDeg(out, 0, fit.source, t * 4));
  }
  return errors;
}

function fitKeys(fit: RotationFit, keys: number[]): void {
  keys.forEach((f, k) => fit.fitKey(f, k > 0 ? keys[k - 1] : -1, k + 1 < keys.length ? keys[k + 1] : -1));
}

describe('RotationFit.segmentError (inlined Squad)', () => {
  it('gives bit-identical errors to squadRef on the stored keys, on random motion', () => {
    const N = 120;
    const fit = new RotationFit(source(N, 7), N);
    const keys = [0, 3, 4, 17, 40, 41, 77, 100, 120];
    fitKeys(fit, keys);
    const errors = new Float64Array(N + 1);
    for (let k = 0; k + 1 < keys.length; k++) {
      const [a, b] = [keys[k], keys[k + 1]];
      const max = fit.segmentError(a, b, errors);
      const ref = referenceErrors(fit, a, b);
      expect(Array.from(errors.subarray(a + 1, b))).toEqual(ref);
      if (ref.length === 0) {
        expect(fit.argmax).toBe(-1);
        continue;
      }
      expect(max).toBe(Math.max(...ref));
      expect(fit.argmax).toBe(a + 1 + ref.indexOf(Math.max(...ref)));
    }
  });

  it('matches across a segment whose stored keys have a negative dot product (far key negated)', () => {
    const N = 30;
    const fit = new RotationFit(source(N, 1, (300 * Math.PI) / 180), N);
    fitKeys(fit, [0, N]);
    expect(fit.segmentSign(0, N)).toBe(-1);
    const errors = new Float64Array(N + 1);
    fit.segmentError(0, N, errors);
    expect(Array.from(errors.subarray(1, N))).toEqual(referenceErrors(fit, 0, N));
  });

  it('matches on the linear branches of the slerps (identical keys, identical inner quaternions)', () => {
    const N = 10;
    const s = source(N, 3, 0); // constant rotation: every slerp angle is 0
    const fit = new RotationFit(s, N);
    fitKeys(fit, [0, N]);
    const errors = new Float64Array(N + 1);
    const max = fit.segmentError(0, N, errors);
    expect(Array.from(errors.subarray(1, N))).toEqual(referenceErrors(fit, 0, N));
    expect(max).toBe(0);
  });
});

describe('RotationFit.segmentMaxNear (the refined greedy pass)', () => {
  it('is over a tolerance exactly when segmentError is, even a tolerance equal to a frame error, with its frame', () => {
    const N = 120;
    const fit = new RotationFit(source(N, 7), N);
    const keys = [0, 3, 4, 17, 40, 41, 77, 100, 120];
    fitKeys(fit, keys);
    const errors = new Float64Array(N + 1);
    let checked = 0;
    for (let k = 0; k + 1 < keys.length; k++) {
      const [a, b] = [keys[k], keys[k + 1]];
      if (b - a < 2) continue;
      const max = fit.segmentError(a, b, errors);
      const frame = fit.argmax;
      // Tolerances at the worst error itself, one ulp either side, and a few frames' errors of the segment.
      const tolerances = [max, max * (1 - 1e-16), max * (1 + 1e-15), ...Array.from(errors.subarray(a + 1, b))];
      for (const tolerance of tolerances) {
        const near = fit.segmentMaxNear(a, b, tolerance);
        expect(near > tolerance).toBe(max > tolerance);
        expect(Math.abs(near - max)).toBeLessThan(1e-9);
        checked++;
      }
      fit.segmentMaxNear(a, b, 0.5);
      expect(fit.argmax).toBe(frame);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('gives the values and frame of a fresh fit after other segments were measured (its key slerps are cached by segment)', () => {
    const N = 90;
    const src = source(N, 11);
    const fit = new RotationFit(src, N);
    const frames = [0, 6, 9, 20, 21, 33, 47, 60, 61, 75, 90];
    fitKeys(fit, frames);
    const rnd = seededRandom(5);
    const pick = () => frames[Math.floor(rnd() * frames.length)];
    let measured = 0;
    for (let i = 0; i < 300; i++) {
      const [a, b] = [pick(), pick()].sort((x, y) => x - y);
      if (b - a < 2) continue;
      // Refit a key now and then, as the greedy loop does: the inner quaternions change, the key slerps do not.
      if (i % 3 === 0) fit.fitKey(a, -1, b);
      const fresh = new RotationFit(src, N);
      fresh.fitKey(a, -1, b);
      fresh.fitKey(b, a, -1);
      for (const f of [a, b]) {
        const ints = Array.from(fit.aInt.subarray(f * 4, f * 4 + 4));
        fresh.setInner(f, ints[0], ints[1], ints[2], ints[3]);
      }
      // Every other time the tolerance is the segment's worst error: that frame takes the reference decoder's
      // sample, from the keys' exact slerp.
      const tolerance = i % 2 ? fresh.segmentError(a, b, new Float64Array(N + 1)) : [0.5, 2, 10][i % 3];
      const got = fit.segmentMaxNear(a, b, tolerance);
      const frame = fit.argmax;
      expect(got).toBe(fresh.segmentMaxNear(a, b, tolerance));
      expect(frame).toBe(fresh.argmax);
      measured++;
    }
    expect(measured).toBeGreaterThan(200);
  });
});

describe('RotationFit.segmentOverNear (the refined greedy start)', () => {
  it('is over a tolerance exactly when segmentError is, at a frame that is over it, from a coarse pass on long segments', () => {
    const N = 240;
    let coarse = 0,
      checked = 0;
    for (const seed of [3, 8, 21]) {
      const fit = new RotationFit(source(N, seed), N);
      const keys = [0, 5, 14, 40, 41, 90, 150, 151, 240];
      fitKeys(fit, keys);
      const errors = new Float64Array(N + 1);
      for (let k = 0; k + 1 < keys.length; k++) {
        const [a, b] = [keys[k], keys[k + 1]];
        if (b - a < 2) continue;
        const max = fit.segmentError(a, b, errors);
        // The worst error and one ulp either side, each interior frame's error, and a few fixed tolerances.
        const tolerances = [
          max,
          max * (1 - 1e-16),
          max * (1 + 1e-15),
          0.5,
          2,
          ...Array.from(errors.subarray(a + 1, b)),
        ];
        for (const tolerance of tolerances) {
          const got = fit.segmentOverNear(a, b, tolerance);
          const frame = fit.argmax;
          expect(got > tolerance).toBe(max > tolerance);
          expect(frame > a && frame < b).toBe(true);
          // The frame's own error, under the same rules as segmentMaxNear's.
          expect(Math.abs(got - errors[frame])).toBeLessThan(1e-9);
          if (got <= tolerance) expect(Math.abs(got - max)).toBeLessThan(1e-9);
          else {
            // The local worst: uphill from the coarse pass's worst frame.
            for (const g of [frame - 1, frame + 1])
              if (g > a && g < b) expect(errors[g]).toBeLessThanOrEqual(errors[frame] + 1e-9);
            if (errors[frame] < max) coarse++;
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    // The coarse pass did answer with a frame other than the worst on some long segments.
    expect(coarse).toBeGreaterThan(10);
  });
});

/**
 * The inner quaternion of FORMATS/COMPRESSION written with the quaternion
 * helpers, step by step: t = -(dr tl + dl tr) / (2 (dl + dr)) with tl, tr the
 * logs towards the sign-aligned neighbours (end keys: the source's angular
 * velocity over the one segment), a = q exp(t), stored as s12.
 */
function referenceInner(fit: RotationFit, f: number, prev: number, next: number): number[] {
  const q = (g: number) => fit.q.slice(g * 4, g * 4 + 4);
  const inv = conjQuat(new Float64Array(4), q(f));
  const rel = (g: number) => {
    const dot = [0, 1, 2, 3].reduce((s, c) => s + fit.qInt[f * 4 + c] * fit.qInt[g * 4 + c], 0);
    const other = q(g).map((v) => (dot < 0 ? -v : v));
    return logQuat(new Float64Array(4), mulQuat(new Float64Array(4), inv, other));
  };
  const dl = prev >= 0 ? f - prev : 0,
    dr = next >= 0 ? next - f : 0;
  const t = new Float64Array(4);
  if (prev >= 0 && next >= 0) {
    const tl = rel(prev),
      tr = rel(next);
    for (let c = 0; c < 3; c++) t[c] = (-dr * tl[c] - dl * tr[c]) / (2 * (dl + dr));
  } else {
    const s = fit.source,
      lo = Math.max(0, f - 1),
      hi = Math.min(fit.N, f + 1);
    const w = logQuat(
      new Float64Array(4),
      mulQuat(
        new Float64Array(4),
        conjQuat(new Float64Array(4), s.slice(lo * 4, lo * 4 + 4)),
        s.slice(hi * 4, hi * 4 + 4),
      ),
    );
    for (let c = 0; c < 3; c++) w[c] /= hi - lo;
    if (next >= 0) {
      const tr = rel(next);
      for (let c = 0; c < 3; c++) t[c] = (dr * w[c] - tr[c]) / 2;
    } else {
      const tl = rel(prev);
      for (let c = 0; c < 3; c++) t[c] = (-tl[c] - dl * w[c]) / 2;
    }
  }
  const a = mulQuat(new Float64Array(4), q(f), expQuat(new Float64Array(4), t));
  return Array.from(a, encodeS12);
}

describe('RotationFit.fitKey (inlined quaternion algebra)', () => {
  it('stores the inner quaternion the quaternion helpers give, for interior and end keys, across a sign flip', () => {
    for (const [seed, spin] of [
      [11, undefined],
      [12, (300 * Math.PI) / 180],
    ] as const) {
      const N = 60;
      const fit = new RotationFit(source(N, seed, spin), N);
      const keys = [0, 5, 6, 20, 41, 60];
      fitKeys(fit, keys);
      keys.forEach((f, k) => {
        const prev = k > 0 ? keys[k - 1] : -1,
          next = k + 1 < keys.length ? keys[k + 1] : -1;
        expect(Array.from(fit.aInt.subarray(f * 4, f * 4 + 4))).toEqual(referenceInner(fit, f, prev, next));
      });
    }
  });
});
