/**
 * The skeleton-aware mode computes each joint's rotation source once for its run (compress.ts, RotationSources;
 * docs/compression.md, round 8): its rounds' compressions and the channels that take keys in place (LocalKeys)
 * share one array, where each LocalKeys used to make its own and every round that compressed a channel again
 * made one more.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticMotion } from '../testing/syntheticMotion';
import { compressSkeletonAware } from './compress';
import { methodStrategy } from './methods';
import { rotationSource } from './sources';
import type { CompressOptions } from './types';

vi.mock('./sources', async (importOriginal) => {
  const original = await importOriginal<typeof import('./sources')>();
  return { ...original, rotationSource: vi.fn(original.rotationSource) };
});

const made = vi.mocked(rotationSource);
/** How many times each joint's source was made since the last reset. */
const madePerJoint = (J: number) => {
  const count = new Array<number>(J).fill(0);
  for (const [, j] of made.mock.calls) count[j]++;
  return count;
};

const base: CompressOptions = {
  positionTolerance: 0.5,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.5,
  name: 'skel',
};

describe('skeleton-aware rotation sources', () => {
  beforeEach(() => {
    made.mockClear();
  });

  it('makes each joint its source once, for the first round and the keys taken in place after it', () => {
    const m = syntheticMotion({ frames: 150, joints: 8, seed: 42, noise: 0.02 });
    for (const method of ['refined', 'classic'] as const) {
      made.mockClear();
      const r = compressSkeletonAware(m, { ...base, method }, 0.5, 10, methodStrategy(method), undefined, undefined);
      // Rounds after the first took keys in place, and met the bound before the fallback.
      expect(r.skeleton!.rounds).toBeGreaterThan(1);
      expect(r.skeleton!.met).toBe(true);
      expect(madePerJoint(m.joints.length)).toEqual(new Array(m.joints.length).fill(1));
    }
  });

  it('makes each joint its source once when the rounds end in the fallback, which compresses every channel again', () => {
    const m = syntheticMotion({ frames: 150, joints: 8, seed: 42, noise: 0.02 });
    // Below this motion's floor (skeleton.test.ts): the rounds end in the guaranteed allocation, every channel
    // compressed again.
    const o = { ...base, method: 'classic' as const, rotationToleranceOverridesDeg: { 6: 0.01 } };
    const r = compressSkeletonAware(m, o, 0.4, 10, methodStrategy('classic'), undefined, undefined);
    expect(r.skeleton!.met).toBe(false);
    expect(madePerJoint(m.joints.length)).toEqual(new Array(m.joints.length).fill(1));
  });
});
