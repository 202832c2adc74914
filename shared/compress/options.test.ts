import { describe, expect, it } from 'vitest';
import { encodeH16 } from '../math/half';
import { readMt3 } from '../mt3/read';
import { syntheticMotion } from '../testing/syntheticMotion';
import { MotionFlag } from '../motion/types';
import { Mt3Flag } from '../mt3/types';
import { compressMotion, compressMotionWith } from './compress';
import { dpReferenceStrategy } from './referenceFit';
import { CompressAborted } from './types';
import type { CompressOptions } from './types';

const options = (tol: number): CompressOptions => ({
  positionTolerance: tol,
  rotationToleranceDeg: tol,
  offsetTolerance: tol,
  name: 'test_motion',
  method: 'classic',
});
const small = () => syntheticMotion({ frames: 20, joints: 2, seed: 3 });

describe('compressMotion names the option it refuses', () => {
  it.each<[string, Partial<CompressOptions>, string]>([
    [
      'a negative position tolerance',
      { positionTolerance: -1 },
      'MTN (compression options): position tolerance must be a finite number >= 0, got -1',
    ],
    [
      'an infinite offset tolerance',
      { offsetTolerance: Infinity },
      'MTN (compression options): offset tolerance must be a finite number >= 0, got Infinity',
    ],
    [
      'a negative joint override',
      { rotationToleranceOverridesDeg: { 1: -0.5 } },
      'MTN (compression options): rotation tolerance override of joint 1 must be a finite number >= 0, got -0.5',
    ],
    [
      'a NaN joint override',
      { rotationToleranceOverridesDeg: { 0: NaN } },
      'MTN (compression options): rotation tolerance override of joint 0 must be a finite number >= 0, got NaN',
    ],
    [
      'a zero object tolerance',
      { objectTolerance: 0 },
      'MTN (compression options): object tolerance must be a finite number > 0, got 0',
    ],
    [
      'an unknown method',
      { method: 'fast' as never },
      'MTN (compression options): method must be "classic" or "refined", got fast',
    ],
  ])('%s', (_what, change, message) => {
    expect(() => compressMotion(small(), { ...options(0.5), ...change })).toThrow(message);
  });

  it('a joint override of 0 is a valid (strict) tolerance', () => {
    const r = compressMotion(small(), { ...options(0.5), rotationToleranceOverridesDeg: { 1: 0 } });
    expect(r.channels.find((c) => c.kind === 'rotation' && c.joint === 1)!.tolerance).toBe(0);
  });

  it('a motion name the game cannot hash is refused as the motion name', () => {
    expect(() => compressMotion(small(), { ...options(0.5), name: 'walk fast' })).toThrow(
      /^MTN \(motion name\): motion name "walk fast" has whitespace/,
    );
  });
});

describe('compressMotion reports', () => {
  it('an unreachable tolerance names the channel, the frame, the error and the unit', () => {
    const m = syntheticMotion({ frames: 60, joints: 2, seed: 7, noise: 0.05, offsets: true });
    const r = compressMotion(m, options(0));
    const kinds = new Set(r.warnings.map((w) => w.kind));
    expect(kinds).toEqual(new Set(['translation', 'rotation', 'offset']));
    for (const w of r.warnings) {
      const name = w.kind === 'translation' ? 'root translation' : `${w.kind} of joint ${w.joint}`;
      const unit = w.kind === 'rotation' ? ' deg' : '';
      const others =
        w.keyFrames.length > 1
          ? `; ${w.keyFrames.length} keys over it: ${w.keyFrames.slice(0, 8).join(', ')}${w.keyFrames.length > 8 ? ` and ${w.keyFrames.length - 8} more` : ''}`
          : '';
      expect(w.message).toBe(
        `${name}: tolerance 0${unit} not reachable at frame ${w.frame} (error ${w.error.toPrecision(4)}${unit} at a key: stored precision limit${others})`,
      );
      expect(w.keyFrames).toContain(w.frame);
    }
  });

  it('a channel whose largest error equals its tolerance meets it, without a warning', () => {
    const m = syntheticMotion({ frames: 60, joints: 2, seed: 7 });
    const first = compressMotion(m, options(0.5)).channels.find((c) => c.kind === 'translation')!;
    expect(first.maxError).toBeGreaterThan(0);
    const again = compressMotion(m, { ...options(0.5), positionTolerance: first.maxError });
    const root = again.channels.find((c) => c.kind === 'translation')!;
    expect(root.maxError).toBe(first.maxError);
    expect(root.met).toBe(true);
    expect(again.warnings.filter((w) => w.kind === 'translation')).toEqual([]);
  });

  it('the root stream origin is the frame 0 position', () => {
    const m = small();
    m.translation.set([12.5, -3, 40], 0);
    const root = readMt3(compressMotion(m, options(0.5)).bytes).root;
    expect(Array.from(root.origin)).toEqual([12.5, -3, 40].map(encodeH16));
  });
});

describe('compressMotion returns what it wrote', () => {
  it('the Mt3Motion in the result is exactly what the bytes read back as, whatever streams and mirror flags the motion has', () => {
    const variants: [boolean, number][] = [
      [false, 0],
      [true, MotionFlag.DIRECTION | MotionFlag.MIRROR_UPPER],
      [true, MotionFlag.MIRROR_LOWER],
    ];
    for (const [rich, flags] of variants) {
      const m = syntheticMotion({
        frames: 30,
        joints: 3,
        seed: 9,
        offsets: rich,
        locks: rich ? 2 : 0,
        traceKeys: rich ? 2 : 0,
      });
      m.flags |= flags;
      if (flags & MotionFlag.DIRECTION) m.waistJoint = 1;
      const r = compressMotion(m, options(0.5));
      expect(r.mt3).toEqual(readMt3(r.bytes));
      expect(r.mt3.flags & (Mt3Flag.MIRROR_UPPER | Mt3Flag.MIRROR_LOWER)).toBe(
        (flags & MotionFlag.MIRROR_UPPER ? Mt3Flag.MIRROR_UPPER : 0) |
          (flags & MotionFlag.MIRROR_LOWER ? Mt3Flag.MIRROR_LOWER : 0),
      );
      expect(r.mt3.fix === null).toBe(!rich);
    }
  });

  it('asks shouldStop before every channel and stops with CompressAborted when it answers true', () => {
    const m = syntheticMotion({ frames: 20, joints: 2, seed: 4, offsets: true });
    let asked = 0;
    compressMotion(m, options(0.5), undefined, () => (asked++, false));
    expect(asked).toBe(1 + 2 + 2);
    let left = 2;
    expect(() => compressMotion(m, options(0.5), undefined, () => left-- <= 0)).toThrow(CompressAborted);
    expect(left).toBe(-1);
  });

  it('the DP reference names itself and meets every tolerance on a smooth motion', () => {
    const m = syntheticMotion({ frames: 40, joints: 2, seed: 12 });
    const r = compressMotionWith(dpReferenceStrategy, m, options(0.5));
    expect(r.method).toBe('dp-reference');
    expect(r.channels.every((c) => c.met)).toBe(true);
    expect(r.mt3).toEqual(readMt3(r.bytes));
  });
});
