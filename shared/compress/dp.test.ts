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
