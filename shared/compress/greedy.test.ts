import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { putContinuousQuaternion } from '../testing/syntheticMotion';
import { greedyInsert } from './greedy';
import { initialKeys } from './keyList';
import { RotationFit } from './rotationFit';

/** (N+1) x 4 sign-continuous unit quaternions: a random walk of step `step`, a few spans of it held still. */
function source(N: number, seed: number, step: number): Float64Array {
  const rnd = seededRandom(seed);
  const s = new Float64Array((N + 1) * 4);
  const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() + 0.5];
  for (let f = 0; f <= N; f++) {
    if (f % 97 > 20) for (let c = 0; c < 4; c++) q[c] += (rnd() - 0.5) * step;
    putContinuousQuaternion(s, f, q);
  }
  return s;
}

describe('greedyInsert, the refined greedy start (no errors array)', () => {
  it('leaves every interior frame of every segment within the tolerance, as the removal pass requires', () => {
    // The start measures a segment whose neighbour's insertion moved one of its inner quaternions only when its
    // stale entry reaches the top of the heap or at the end: every segment must still have been measured in its
    // final state.
    let insertions = 0,
      segments = 0;
    for (const [seed, N, step, tol] of [
      [1, 400, 0.05, 0.5],
      [2, 700, 0.02, 0.2],
      [3, 300, 0.1, 1],
      [4, 900, 0.01, 0.05],
      [5, 500, 0.03, 0.5],
    ]) {
      const fit = new RotationFit(source(N, seed, step), N);
      const keys = initialKeys(N, []);
      insertions += greedyInsert(fit, keys, tol);
      const errors = new Float64Array(N + 1);
      for (let a = 0; a !== N; a = keys.next[a]) {
        fit.segmentError(a, keys.next[a], errors);
        segments++;
      }
      for (let a = 0; a !== N; a = keys.next[a])
        for (let t = a + 1; t < keys.next[a]; t++)
          expect(errors[t], `seed ${seed} frame ${t}`).toBeLessThanOrEqual(tol);
    }
    expect(insertions).toBeGreaterThan(300);
    expect(segments).toBeGreaterThan(300);
  });
});
