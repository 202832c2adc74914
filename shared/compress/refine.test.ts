import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { syntheticMotion } from '../testing/syntheticMotion';
import { independentChannel, independentErrors } from '../testing/independentDecode';
import { independentObjectErrors } from '../testing/independentFk';
import { compressMotion } from './compress';
import { dpOptimalKeys } from './dp';
import { FixedSpanRotationFit } from './referenceFit';
import type { CompressOptions } from './types';

const opts = (tol: number, extra: Partial<CompressOptions> = {}): CompressOptions => ({
  positionTolerance: tol,
  rotationToleranceDeg: tol,
  offsetTolerance: tol,
  name: 'refine_test',
  ...extra,
});

describe('refined compression', () => {
  const cases = [
    { seed: 31, frames: 240, joints: 5, tol: 0.5, noise: 0.01, offsets: false },
    { seed: 32, frames: 400, joints: 3, tol: 0.2, noise: 0.004, offsets: true },
    { seed: 33, frames: 150, joints: 4, tol: 1, noise: 0.03, offsets: false },
  ];
  for (const c of cases) {
    it(`seed ${c.seed}: every frame within tolerance (independent decoder), user keys kept, no more keys than classic on any channel`, () => {
      const m = syntheticMotion({
        frames: c.frames,
        joints: c.joints,
        seed: c.seed,
        noise: c.noise,
        offsets: c.offsets,
        userKeys: 5,
      });
      const classic = compressMotion(m, opts(c.tol, { method: 'classic' }));
      const refined = compressMotion(m, opts(c.tol));
      expect(refined.method).toBe('refined');
      const ind = independentErrors(m, refined.bytes);
      refined.channels.forEach((ch, i) => {
        const errs = independentChannel(ind, ch.kind, ch.joint)!.errors;
        const cl = classic.channels[i];
        for (let t = 0; t <= m.frameCount; t++) {
          // Within tolerance, or a key whose stored value itself misses it (h16 precision at large root positions).
          if (!(errs[t] <= c.tol + 1e-9)) expect(ch.keyFrames).toContain(t);
          expect(Math.abs(ch.errors[t] - errs[t])).toBeLessThan(1e-6);
        }
        expect(ch.maxError).toBeLessThanOrEqual(Math.max(c.tol, cl.maxError));
        for (const u of ch.userKeyFrames) expect(ch.keyFrames).toContain(u);
        for (let k = 1; k < ch.keyFrames.length; k++)
          expect(ch.keyFrames[k] - ch.keyFrames[k - 1]).toBeLessThanOrEqual(255);
        expect([cl.kind, cl.joint]).toEqual([ch.kind, ch.joint]);
        // Not guaranteed since the refined greedy start samples long segments coarsely (docs/compression.md: a few
        // channels of the smooth generated walk end with more keys than classic), but true on these motions.
        expect(ch.keyFrames.length).toBeLessThanOrEqual(cl.keyFrames.length);
      });
      // The refinement does something: fewer rotation keys than classic overall.
      const rot = (r: typeof refined) =>
        r.channels.filter((ch) => ch.kind === 'rotation').reduce((s, ch) => s + ch.keyFrames.length, 0);
      expect(rot(refined)).toBeLessThan(rot(classic));
      expect(refined.mt3Bytes).toBeLessThan(classic.mt3Bytes);
      // Trace and lock streams do not depend on the method.
      expect(refined.mt3.move).toEqual(classic.mt3.move);
      expect(refined.mt3.fix).toEqual(classic.mt3.fix);
    });
  }
});

describe('object-space error and the skeleton-aware mode', () => {
  it('reports the FK error of the written bytes at every frame, matching an independent FK', () => {
    const m = syntheticMotion({ frames: 90, joints: 6, seed: 41, noise: 0.01 });
    for (const method of ['classic', 'refined'] as const) {
      const r = compressMotion(m, opts(0.5, { method, shell: 5 }));
      const oe = r.objectError!;
      expect(oe.shell).toBe(5);
      const ind = independentObjectErrors(m, r.mt3, 5);
      for (let t = 0; t <= m.frameCount; t++)
        expect(Math.abs(oe.frameMaxError[t] - Math.max(...ind[t]))).toBeLessThan(1e-6);
      for (let j = 0; j < m.joints.length; j++)
        expect(Math.abs(oe.jointMaxError[j] - Math.max(...ind.map((row) => row[j])))).toBeLessThan(1e-6);
      expect(oe.maxError).toBe(Math.max(...oe.jointMaxError));
    }
  });

  it('bounds the object-space error by --object-tol at every frame, joint and virtual point (independent FK)', () => {
    const m = syntheticMotion({ frames: 120, joints: 8, seed: 42, noise: 0.005, userKeys: 3 });
    for (const D of [0.5, 2]) {
      const r = compressMotion(m, opts(0.5, { objectTolerance: D, shell: 10 }));
      expect(r.skeleton).toMatchObject({ objectTolerance: D, shell: 10, met: true });
      const ind = independentObjectErrors(m, r.mt3, 10);
      for (const row of ind) for (const e of row) expect(e).toBeLessThanOrEqual(D + 1e-9);
      // Tolerances came from the chain: a leaf joint gets more than the root.
      const tol = (j: number) => r.channels.find((ch) => ch.kind === 'rotation' && ch.joint === j)!.tolerance;
      const leaf = m.joints.findIndex((_, j) => !m.joints.some((o) => o.parent === j));
      expect(tol(leaf)).toBeGreaterThan(tol(0));
    }
  });

  it('refuses a bad object tolerance or shell', () => {
    const m = syntheticMotion({ frames: 10, joints: 2, seed: 1 });
    expect(() => compressMotion(m, opts(0.5, { objectTolerance: 0 }))).toThrowError(
      /object tolerance must be a finite number > 0/,
    );
    expect(() => compressMotion(m, opts(0.5, { objectTolerance: 1, shell: -1 }))).toThrowError(/shell must be/);
  });
});

describe('the DP reference for rotations', () => {
  it('finds the fewest keys of the segment-independent Squad fit, as brute force does', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const rnd = seededRandom(seed);
      const N = 9 + (seed % 3);
      const source = new Float64Array((N + 1) * 4);
      let angle = 0;
      for (let f = 0; f <= N; f++) {
        angle += 0.05 + 0.1 * rnd();
        const axis = [Math.sin(f * 0.3), 1, Math.cos(f * 0.2)];
        const l = Math.hypot(...axis);
        const s = Math.sin(angle / 2) / l;
        source.set([axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)], f * 4);
      }
      const tol = [0.5, 2, 5][seed % 3];
      const fit = new FixedSpanRotationFit(source, N, 2);
      for (let f = 0; f <= N; f++) fit.fitKey(f);
      const scratch = new Float64Array(N + 1);
      let brute = Infinity;
      for (let mask = 0; mask < 1 << (N - 1); mask++) {
        const keys = [0];
        for (let f = 1; f < N; f++) if (mask & (1 << (f - 1))) keys.push(f);
        keys.push(N);
        if (keys.length >= brute) continue;
        let ok = true;
        for (let k = 0; k + 1 < keys.length && ok; k++)
          if (fit.segmentError(keys[k], keys[k + 1], scratch) > tol) ok = false;
        if (ok) brute = keys.length;
      }
      const { keys, outcome } = dpOptimalKeys(new FixedSpanRotationFit(source, N, 2), [], tol);
      expect(keys.count).toBe(brute);
      expect(outcome.maxError).toBeLessThanOrEqual(tol);
    }
  });
});
