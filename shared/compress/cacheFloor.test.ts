/**
 * CompressCache's precision floors (cache.floors, looked up by compress.ts's floorOf): a floor is of one motion's
 * samples and one shell, and looking it up after a run keeps that run's counts. Mutation audit 2026-12-05
 * (docs/testing.md): the lookup without forSamples (another motion's floor taken), one floor for every shell, and
 * begin() in its place (the counts zeroed), and a cache kept for a motion sharing some of its sample arrays, passed cache.test.ts and skeleton.test.ts; each fails here.
 */
import { describe, expect, it } from 'vitest';
import { syntheticMotion } from '../testing/syntheticMotion';
import { CompressCache } from './cache';
import { compressMotion } from './compress';
import type { CompressOptions } from './types';

const base: CompressOptions = {
  positionTolerance: 0.5,
  rotationToleranceDeg: 0.3,
  offsetTolerance: 0.5,
  name: 'floors',
};

describe("the cache's precision floors", () => {
  it("a bound below the floor is held at this motion's floor, not one the cache kept of another motion or shell", () => {
    const a = syntheticMotion({ frames: 60, joints: 5, seed: 7, noise: 0.03 });
    const b = syntheticMotion({ frames: 60, joints: 5, seed: 8, noise: 0.001 });
    const below = { ...base, objectTolerance: 1e-6, shell: 10 };
    const cache = new CompressCache();
    // A's run keeps its floor in the cache: a bound far above the floor is compressed as asked (its floor is not
    // looked up first), and keys over a root tolerance of 0 make the run look it up at its end.
    const runA = compressMotion(a, { ...below, objectTolerance: 1e3, positionTolerance: 0 }, cache);
    expect(runA.warnings.length).toBeGreaterThan(0);
    expect(runA.skeleton!.requestedObjectTolerance).toBeUndefined();
    const heldB = compressMotion(b, below, cache);
    const freshB = compressMotion(b, below);
    expect(compressMotion(a, below).skeleton!.objectTolerance).not.toBe(freshB.skeleton!.objectTolerance);
    expect(heldB.skeleton).toEqual(freshB.skeleton);
    expect(heldB.skeleton!.requestedObjectTolerance).toBe(1e-6);
    expect(heldB.bytes).toEqual(freshB.bytes);
    // Another shell of the same motion: its own floor.
    const other = { ...below, shell: 40 };
    expect(compressMotion(b, other, cache).skeleton).toEqual(compressMotion(b, other).skeleton);
  });

  it('a motion that shares some sample arrays with the last one is another motion', () => {
    const a = syntheticMotion({ frames: 60, joints: 5, seed: 7, noise: 0.03 });
    const b = syntheticMotion({ frames: 60, joints: 5, seed: 8, noise: 0.001 });
    const mixed = { ...a, rotation: b.rotation };
    const cache = new CompressCache();
    compressMotion(a, base, cache);
    const cached = compressMotion(mixed, base, cache);
    expect(cache.reused).toBe(0);
    expect(cached.bytes).toEqual(compressMotion(mixed, base).bytes);
  });

  it('the floor looked up after a run keeps the counts of that run', () => {
    const m = syntheticMotion({ frames: 60, joints: 5, seed: 7, noise: 0.03 });
    const cache = new CompressCache();
    const tight = { ...base, rotationToleranceDeg: 0, positionTolerance: 0, offsetTolerance: 0 };
    const first = compressMotion(m, tight, cache);
    // Keys over a tolerance of 0: the run ends by looking up the floor.
    expect(first.warnings.length).toBeGreaterThan(0);
    expect(first.precisionFloor).toBeDefined();
    expect([cache.computed, cache.reused]).toEqual([1 + 5, 0]);
    compressMotion(m, tight, cache);
    expect([cache.computed, cache.reused]).toEqual([0, 1 + 5]);
  });
});
