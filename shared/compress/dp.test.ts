import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { dpOptimalKeys } from './dp';
import { PositionFit } from './positionFit';

/** A small position channel: a random walk with some smooth drift, (N+1) x 3. */
function randomChannel(seed: number, N: number): Float64Array {
  const rnd = seededRandom(seed);
  const s = new Float64Array((N + 1) * 3);
  for (let f = 1; f <= N; f++)
    for (let c = 0; c < 3; c++) s[f * 3 + c] = s[(f - 1) * 3 + c] + Math.sin(f * 0.7 + c) + (rnd() - 0.5) * 2;
  return s;
}

/** The fewest keys over all key subsets containing 0, N and the user keys whose every segment is within tolerance. */
function bruteForceMinKeys(fit: PositionFit, N: number, user: number[], tol: number): number {
  for (let f = 0; f <= N; f++) fit.fitKey(f);
  const scratch = new Float64Array(N + 1);
  let best = Infinity;
  for (let mask = 0; mask < 1 << (N - 1); mask++) {
    const keys = [0];
    for (let f = 1; f < N; f++) if (mask & (1 << (f - 1))) keys.push(f);
    keys.push(N);
    if (!user.every((u) => keys.includes(u))) continue;
    if (keys.length >= best) continue;
    let ok = true;
    for (let k = 0; k + 1 < keys.length && ok; k++)
      if (fit.segmentError(keys[k], keys[k + 1], scratch) > tol) ok = false;
    if (ok) best = keys.length;
  }
  return best;
}

describe('dpOptimalKeys (segment-independent fits)', () => {
  it('finds the same key count as brute force over all key subsets, with user keys kept and every frame within tolerance', () => {
    let nontrivial = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const rnd = seededRandom(seed * 7);
      const N = 6 + (seed % 7); // 6..12 frames: at most 2^11 subsets
      const source = randomChannel(seed, N);
      const tol = [0.3, 1, 3][seed % 3];
      const user = seed % 2 ? [1 + Math.floor(rnd() * (N - 1))] : [];
      const brute = bruteForceMinKeys(new PositionFit(source, N, 'test'), N, user, tol);
      const fit = new PositionFit(source, N, 'test');
      const { keys, outcome } = dpOptimalKeys(fit, user, tol);
      const frames = keys.frames();
      expect(frames.length).toBe(brute);
      for (const u of user) expect(frames).toContain(u);
      expect(outcome.maxError).toBeLessThanOrEqual(tol);
      if (brute > 2 + user.length && brute < N + 1) nontrivial++;
    }
    expect(nontrivial).toBeGreaterThan(5); // the cases exercise real choices, not all-keys or no-keys
  });

  it('chooses the keys of the plain scan over every earlier frame (the skipping scan tries the same frames in the same order)', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const N = 400;
      const source = randomChannel(seed, N);
      const user = seed % 2 ? [137, 138, 290] : [];
      for (const tol of [0.5, 2, 6]) {
        const fit = new PositionFit(source, N, 'test');
        const frames = dpOptimalKeys(fit, user, tol).keys.frames();
        // The dynamic programme written plainly: every frame a before b (latest first), ties to the latest a.
        const best = new Array<number>(N + 1).fill(Infinity);
        const from = new Array<number>(N + 1).fill(-1);
        const scratch = new Float64Array(N + 1);
        best[0] = 1;
        let lastRequired = 0;
        for (let b = 1; b <= N; b++) {
          for (let a = b - 1; a >= Math.max(lastRequired, b - 255); a--) {
            if (best[a] + 1 >= best[b]) continue;
            if (b - a > 1 && fit.segmentError(a, b, scratch) > tol) continue;
            best[b] = best[a] + 1;
            from[b] = a;
          }
          if (user.includes(b)) lastRequired = b;
        }
        const plain: number[] = [];
        for (let f = N; f !== -1; f = from[f]) plain.unshift(f);
        expect(frames).toEqual(plain);
      }
    }
  });

  it('keeps gaps within 255 frames even when one segment would do', () => {
    const N = 600;
    const source = new Float64Array((N + 1) * 3);
    for (let f = 0; f <= N; f++) source[f * 3] = f * 0.25; // linear: any segment is exact
    const { keys } = dpOptimalKeys(new PositionFit(source, N, 'test'), [], 0.5);
    const frames = keys.frames();
    expect(frames.length).toBe(4);
    for (let k = 1; k < frames.length; k++) expect(frames[k] - frames[k - 1]).toBeLessThanOrEqual(255);
  });
});
