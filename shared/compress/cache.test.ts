import { describe, expect, it } from 'vitest';
import { KeyFlag } from '../motion/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import { CompressCache } from './cache';
import { compressMotion } from './compress';

const options = { positionTolerance: 0.3, rotationToleranceDeg: 0.3, offsetTolerance: 0.3, name: 'cached' };

describe('CompressCache', () => {
  it('recompresses only the channel an edit touched, with the bytes of a fresh run', () => {
    const m = syntheticMotion({ frames: 240, joints: 6, seed: 4, offsets: true, noise: 0.01 });
    const cache = new CompressCache();
    compressMotion(m, options, cache);
    expect(cache.computed).toBe(1 + 6 + 6);

    // A user key on joint 3: its rotation and offset channels change, nothing else.
    m.jointKeyInfo[(100 * 6 + 3) * 4] |= KeyFlag.KEY;
    const edited = compressMotion(m, options, cache);
    expect(cache.computed).toBe(2);
    expect(cache.reused).toBe(11);
    const fresh = compressMotion(m, options);
    expect(Array.from(edited.bytes)).toEqual(Array.from(fresh.bytes));
    expect(edited.channels.map((c) => c.keyFrames)).toEqual(fresh.channels.map((c) => c.keyFrames));
    expect(edited.channels.find((c) => c.kind === 'rotation' && c.joint === 3)!.keyFrames).toContain(100);

    // A per-joint override touches one rotation channel; the global rotation tolerance all of them.
    compressMotion(m, { ...options, rotationToleranceOverridesDeg: { 2: 2 } }, cache);
    expect(cache.computed).toBe(1);
    compressMotion(m, { ...options, rotationToleranceDeg: 1 }, cache);
    expect(cache.computed).toBe(6);
    // A root key touches the root translation only.
    m.translationKeyInfo[50 * 4] |= KeyFlag.KEY;
    compressMotion(m, { ...options, rotationToleranceDeg: 1 }, cache);
    expect(cache.computed).toBe(1);
  });

  it('forgets everything when it sees another motion', () => {
    const a = syntheticMotion({ frames: 60, joints: 3, seed: 1 });
    const b = syntheticMotion({ frames: 60, joints: 3, seed: 2 });
    const cache = new CompressCache();
    compressMotion(a, options, cache);
    const fromCache = compressMotion(b, options, cache);
    expect(cache.reused).toBe(0);
    expect(Array.from(fromCache.bytes)).toEqual(Array.from(compressMotion(b, options).bytes));
  });

  it('ignores flags that are not user keys (a trace key does not touch the root channel)', () => {
    const m = syntheticMotion({ frames: 60, joints: 2, seed: 3 });
    const cache = new CompressCache();
    compressMotion(m, options, cache);
    m.translationKeyInfo[20 * 4] |= KeyFlag.TRACE;
    const r = compressMotion(m, options, cache);
    expect(cache.computed).toBe(0);
    expect(Array.from(r.mt3.move!.frames)).toEqual([0, 20, 60]);
  });

  it("checks the samples once per motion, but key info on every run, and a new motion's samples again", () => {
    const m = syntheticMotion({ frames: 40, joints: 3, seed: 5 });
    const cache = new CompressCache();
    expect(cache.samplesChecked(m)).toBe(false);
    compressMotion(m, options, cache);
    expect(cache.samplesChecked(m)).toBe(true);
    // Two locks on one frame is an edit of key info: refused on a cached run too.
    m.jointKeyInfo[(10 * 3 + 0) * 4] |= KeyFlag.LOCK;
    m.jointKeyInfo[(10 * 3 + 1) * 4] |= KeyFlag.LOCK;
    expect(() => compressMotion(m, options, cache)).toThrow(/two joints locked on one frame/);
    // Another motion with a NaN sample: its own arrays, checked.
    const bad = syntheticMotion({ frames: 40, joints: 3, seed: 6 });
    bad.rotation[7] = NaN;
    expect(() => compressMotion(bad, options, cache)).toThrow(/not finite/);
    expect(cache.samplesChecked(bad)).toBe(false);
  });
});
