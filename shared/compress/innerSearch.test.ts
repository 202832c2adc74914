import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { putContinuousQuaternion } from '../testing/syntheticMotion';
import { InnerSearch, KeySlerpCache } from './innerSearch';
import { RotationFit } from './rotationFit';

/** (N+1) x 4 sign-continuous unit quaternions: a smooth turn with a little noise. */
function motion(N: number, seed: number): Float64Array {
  const rnd = seededRandom(seed);
  const s = new Float64Array((N + 1) * 4);
  for (let f = 0; f <= N; f++) {
    const v = [0.6 * Math.sin(f * 0.05), 0.4 * Math.cos(f * 0.031), 0.01 * f];
    const th = Math.hypot(...v);
    const q = [...v.map((c) => (c / th) * Math.sin(th / 2)), Math.cos(th / 2)].map((c) => c + (rnd() - 0.5) * 0.004);
    putContinuousQuaternion(s, f, q);
  }
  return s;
}

function fitted(src: Float64Array, N: number, frames: number[]): RotationFit {
  const fit = new RotationFit(src, N);
  frames.forEach((f, k) => fit.fitKey(f, k > 0 ? frames[k - 1] : -1, k + 1 < frames.length ? frames[k + 1] : -1));
  return fit;
}

describe('InnerSearch', () => {
  it('finds what a fresh search finds after other searches on chains that share key frames (its key slerps are cached by segment)', () => {
    const N = 150;
    const src = motion(N, 3);
    const frames = [0, 4, 9, 11, 18, 26, 30, 41, 47, 52, 66, 70, 83, 97, 104, 120, 131, 150];
    // Two fits in the same state: one searched by a single InnerSearch, the other by a new one each time.
    const shared = fitted(src, N, frames);
    const other = fitted(src, N, frames);
    const search = new InnerSearch(shared);
    const rnd = seededRandom(9);
    let found = 0,
      failed = 0;
    for (let i = 0; i < 200; i++) {
      // Four increasing key frames, not always neighbours in `frames` (as after removals): a segment's end frame
      // is then reached from different starts by different searches.
      const chain: number[] = [];
      let at = Math.floor(rnd() * (frames.length - 8));
      for (let k = 0; k < 4; k++) {
        at += 1 + Math.floor(rnd() * 2);
        chain.push(frames[at]);
      }
      const variable = [chain[1], chain[2]];
      const bound = [0.25, 0.5, 1][i % 3];
      const e = search.optimise(chain, variable, bound);
      expect(e).toBe(new InnerSearch(other).optimise(chain, variable, bound));
      expect(Array.from(shared.aInt)).toEqual(Array.from(other.aInt));
      if (e <= bound) found++;
      else failed++;
    }
    // Both outcomes occur, so successful searches changed the fits between searches.
    expect(found).toBeGreaterThan(10);
    expect(failed).toBeGreaterThan(10);
  });

  it('searches of two fits sharing one key slerp cache find what searches with caches of their own find (round 7)', () => {
    const N = 150;
    const frames = [0, 4, 9, 11, 18, 26, 30, 41, 47, 52, 66, 70, 83, 97, 104, 120, 131, 150];
    // Two channels of one motion with the same key frames, so their chains meet the same segments (a, b).
    const sources = [motion(N, 3), motion(N, 4).map((c, i) => (i % 4 === 3 ? c : -c))];
    const sharing = sources.map((src) => fitted(src, N, frames));
    const alone = sources.map((src) => fitted(src, N, frames));
    const cache = new KeySlerpCache(N + 1);
    const shared = sharing.map((fit) => new InnerSearch(fit, cache));
    const own = alone.map((fit) => new InnerSearch(fit));
    const rnd = seededRandom(11);
    for (let i = 0; i < 120; i++) {
      const at = Math.floor(rnd() * (frames.length - 3));
      const chain = frames.slice(at, at + 4);
      const variable = [chain[1], chain[2]];
      // Alternating channels, several searches of one in a row at times.
      const c = i % 5 < 2 ? 0 : 1;
      const bound = [0.25, 0.5, 1][i % 3];
      expect(shared[c].optimise(chain, variable, bound)).toBe(own[c].optimise(chain, variable, bound));
      expect(Array.from(sharing[c].aInt)).toEqual(Array.from(alone[c].aInt));
    }
    expect(() => new InnerSearch(sharing[0], new KeySlerpCache(N))).toThrow('a key slerp cache of 150 frames');
  });

  it('accepts only a point whose reference errors are within the bound, leaves the fit as it was otherwise, and keeps a near miss to retry from', () => {
    // A point the linear model puts over the bound at the last linearisation is not sampled (CHECK_PREDICTED_WITHIN):
    // such a search must fail without touching the fit, and one predicted within exactUpTo times the bound must
    // still leave a nearest miss for the window retry.
    const N = 150;
    const rnd = seededRandom(17);
    let found = 0,
      near = 0,
      far = 0;
    for (const seed of [3, 5, 8]) {
      const src = motion(N, seed);
      const frames = [0];
      while (frames[frames.length - 1] < N)
        frames.push(Math.min(N, frames[frames.length - 1] + 2 + Math.floor(rnd() * 5)));
      for (let i = 0; i < 120; i++) {
        const fit = fitted(src, N, frames);
        const at = 1 + Math.floor(rnd() * (frames.length - 5));
        // A removal: the chain skips frames[at + 1], as refineRotationChannel's does.
        const chain = [frames[at - 1], frames[at], frames[at + 2], frames[at + 3]];
        const variable = [chain[1], chain[2]];
        const bound = [0.25, 0.5, 1][i % 3];
        const before = Array.from(fit.aInt);
        const search = new InnerSearch(fit);
        const e = search.optimise(chain, variable, bound, 1.4);
        const errors = new Float64Array(N + 1);
        let worst = 0;
        for (let k = 0; k + 1 < chain.length; k++)
          worst = Math.max(worst, fit.segmentError(chain[k], chain[k + 1], errors));
        if (e <= bound) {
          found++;
          // The reference decoder's errors of the stored integers (the search's own figure is within 1e-9 of them).
          expect(worst).toBeLessThanOrEqual(bound);
          expect(Math.abs(worst - e)).toBeLessThan(1e-9);
        } else {
          expect(Array.from(fit.aInt)).toEqual(before);
          if (e <= bound * 1.4) {
            near++;
            expect(search.storeNearestMiss()).toBe(true);
          } else far++;
        }
      }
    }
    expect(found).toBeGreaterThan(20);
    expect(near).toBeGreaterThan(10);
    expect(far).toBeGreaterThan(10);
  });
});
