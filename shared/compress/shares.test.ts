import { describe, expect, it } from 'vitest';
import { syntheticMotion } from '../testing/syntheticMotion';
import { compressChannelShare, compressMotion, compressWithShares } from './compress';
import type { CompressOptions } from './types';

/** A long motion's channels compressed in shares (the build pool's workers) and put together: one compressMotion. */
describe('compressChannelShare / compressWithShares', () => {
  const motion = syntheticMotion({
    frames: 90,
    joints: 7,
    seed: 11,
    offsets: true,
    noise: 0.01,
    userKeys: 2,
    locks: 1,
    traceKeys: 2,
  });
  const base: CompressOptions = {
    positionTolerance: 0.2,
    rotationToleranceDeg: 0.3,
    offsetTolerance: 0.2,
    name: 'shares',
    rotationToleranceOverridesDeg: { 2: 0.05 },
  };

  for (const method of ['refined', 'classic'] as const) {
    it(`gives the bytes, channels and warnings of compressMotion for 1 to 4 shares (${method})`, () => {
      const options = { ...base, method };
      const whole = compressMotion(motion, options);
      expect(whole.warnings.length + whole.channels.length).toBeGreaterThan(0);
      for (let count = 1; count <= 4; count++) {
        const shares = Array.from({ length: count }, (_, i) => compressChannelShare(motion, options, i, count));
        // The shares split the channels: each once, none left out.
        const ids = shares.flatMap((s) => s.map(([id]) => id));
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(whole.channels.length);
        const put = compressWithShares(motion, options, shares);
        expect(Array.from(put.bytes)).toEqual(Array.from(whole.bytes));
        expect(put.channels).toEqual(whole.channels);
        expect(put.warnings).toEqual(whole.warnings);
        expect(put.objectError).toEqual(whole.objectError);
      }
    });
  }

  it('refuses the skeleton-aware mode, whose rounds need every channel', () => {
    expect(() => compressChannelShare(motion, { ...base, objectTolerance: 1 }, 0, 2)).toThrow(/skeleton-aware/);
  });
});
