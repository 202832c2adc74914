import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { greedyCompress } from './greedy';
import { KeyList, initialKeys } from './keyList';
import { naiveGreedyCompress } from './naive';
import type { TrackFit } from './track';

/**
 * A one-value track decoded by linear interpolation between stored key values,
 * so every error is exact. With fitRadius 1 a key's stored value also depends
 * on its neighbour keys (as Squad's inner controls do), so a loop that refits
 * too few keys stores different values than a full refit.
 */
class LinearFit implements TrackFit {
  readonly N: number;
  argmax = -1;
  readonly stored: Float64Array;
  readonly refits: number[] = [];
  readonly segments: number[] = [];

  constructor(
    readonly source: readonly number[],
    readonly fitRadius: 0 | 1,
  ) {
    this.N = source.length - 1;
    this.stored = new Float64Array(source.length);
  }

  fitKey(f: number, prev: number, next: number): void {
    this.refits.push(f);
    const lean = this.fitRadius === 1 && prev >= 0 && next >= 0 ? (this.source[next] - this.source[prev]) / 8 : 0;
    this.stored[f] = this.source[f] + lean;
  }

  keyError(f: number): number {
    return Math.abs(this.stored[f] - this.source[f]);
  }

  segmentError(a: number, b: number, errors: Float64Array): number {
    this.segments.push(a);
    let max = -1;
    this.argmax = -1;
    for (let t = a + 1; t < b; t++) {
      const v = this.stored[a] + ((this.stored[b] - this.stored[a]) * (t - a)) / (b - a);
      errors[t] = Math.abs(v - this.source[t]);
      if (errors[t] > max) {
        max = errors[t];
        this.argmax = t;
      }
    }
    return max;
  }
}

describe('KeyList', () => {
  it('starts with keys 0 and N, linked both ways', () => {
    const k = new KeyList(6);
    expect(k.frames()).toEqual([0, 6]);
    expect([k.count, k.next[0], k.prev[6], k.prev[0], k.next[6]]).toEqual([2, 6, 0, -1, -1]);
  });

  it('inserting an existing key changes nothing; removing a key unlinks it and counts it out', () => {
    const k = KeyList.fromFrames(10, [0, 3, 7, 10]);
    k.insert(3);
    expect([k.frames(), k.count]).toEqual([[0, 3, 7, 10], 4]);
    k.remove(3);
    expect([k.frames(), k.count, k.isKey[3], k.prev[3], k.next[3], k.next[0], k.prev[7]]).toEqual([
      [0, 7, 10],
      3,
      0,
      -1,
      -1,
      7,
      0,
    ]);
    k.insert(5);
    expect([k.frames(), k.count, k.prev[5], k.next[5]]).toEqual([[0, 5, 7, 10], 4, 0, 7]);
  });

  it('fromFrames and initialKeys ignore frames outside 1..N-1 (0 and N are keys already)', () => {
    const k = KeyList.fromFrames(10, [-1, 0, 3, 10, 12]);
    expect([k.frames(), k.count]).toEqual([[0, 3, 10], 3]);
    const u = initialKeys(10, [-1, 0, 4, 10, 12]);
    expect([u.frames(), u.count]).toEqual([[0, 4, 10], 3]);
  });
});

describe('greedyCompress', () => {
  it('inserts a key only where the error exceeds the tolerance, not where it equals it, and counts what it inserted', () => {
    const source = [0, 1, 0, 0, 3, 0, 0];
    const exact = greedyCompress(new LinearFit(source, 0), new KeyList(6), 3);
    expect(exact.inserted).toBe(0);
    expect(exact.maxError).toBe(3);
    const keys = new KeyList(6);
    const tight = greedyCompress(new LinearFit(source, 0), keys, 0.5);
    expect(tight.inserted).toBe(keys.count - 2);
    expect(tight.inserted).toBeGreaterThan(1);
    expect(tight.maxError).toBeLessThanOrEqual(0.5);
  });

  it('refits only the inserted key (radius 0), or it and its neighbour keys (radius 1), and re-measures only the segments they bound', () => {
    // a tent peaking at frame 4: one key goes in there, between keys 0 and 8; the segment after 8 is exact
    const source = [0, 2, 4, 6, 8, 6, 4, 2, 0, 0, 0, 0, 0];
    const independent = new LinearFit(source, 0);
    const keys = KeyList.fromFrames(12, [0, 8, 12]);
    greedyCompress(independent, keys, 5);
    expect(keys.frames()).toEqual([0, 4, 8, 12]);
    expect(independent.refits).toEqual([0, 8, 12, 4]);
    expect(independent.segments).toEqual([0, 8, 0, 4]);
    const neighbours = new LinearFit(source, 1);
    const k1 = KeyList.fromFrames(12, [0, 2, 8, 12]);
    greedyCompress(neighbours, k1, 5);
    expect(k1.frames()).toEqual([0, 2, 4, 8, 12]);
    // initial fit of every key; then key 4 and its neighbours 2 and 8, and the segments they bound
    expect(neighbours.refits).toEqual([0, 2, 8, 12, 2, 4, 8]);
    expect(neighbours.segments).toEqual([0, 2, 8, 0, 2, 4, 8]);
  });

  it('chooses the keys, errors and insertion count of the naive full-refit loop on random tracks', () => {
    const rnd = seededRandom(5);
    for (let trial = 0; trial < 40; trial++) {
      const N = 20 + Math.floor(rnd() * 60);
      const source = Array.from({ length: N + 1 }, () => Math.round(rnd() * 40) / 4);
      const radius = (trial % 2) as 0 | 1;
      const user = [Math.floor(rnd() * N)];
      const a = new LinearFit(source, radius);
      const ka = initialKeys(N, user);
      const fast = greedyCompress(a, ka, 1);
      const b = new LinearFit(source, radius);
      const kb = initialKeys(N, user);
      const naive = naiveGreedyCompress(b, kb, 1);
      expect(ka.frames()).toEqual(kb.frames());
      expect(Array.from(a.stored)).toEqual(Array.from(b.stored));
      expect([fast.inserted, fast.maxError, fast.maxErrorFrame]).toEqual([
        naive.inserted,
        naive.maxError,
        naive.maxErrorFrame,
      ]);
      expect(Array.from(fast.errors)).toEqual(Array.from(naive.errors));
    }
  });
});
