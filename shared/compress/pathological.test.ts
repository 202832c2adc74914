/**
 * Pathological motions no other guarantee test draws (docs/compression.md#pathological-motions-2026-12-04): spins of
 * a whole turn and more per frame (a sampled spin aliases to a constant or a slow one), quaternions exactly a half
 * turn apart frame to frame, a root alternating between the two ends of h16's range, teleports of 4e6 units,
 * animated offsets at the h16 limit, user keys on every frame with locks on the first and last and a trace key on the
 * last, quaternions of length 0.01 and 3e38. Each runs in the classic, refined and skeleton-aware modes from 1e9 down
 * to 0 and the smallest double, with per-joint overrides of 0 and 1e300, decoded by the independent decoder
 * (guaranteeViolations), twice for the same bytes; and through the MSH export with the same overrides, read back
 * from its payloads (mshViolations: also every key within float32 / s16 rounding of its source).
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { H16_MAX } from '../math/half';
import { KeyFlag, MotionFlag, type Motion } from '../motion/types';
import { exportMshAnimation } from '../msh/export';
import { guaranteeViolations } from '../testing/hostileMotions';
import { axisAngle, setRotation } from '../testing/quaternions';
import { base, mshViolations } from '../testing/sweepMotions';
import { compressMotion } from './compress';
import { squadIllConditionedFrame } from './rotationFit';
import type { CompressOptions } from './types';

const CASES: [string, () => Motion][] = [
  [
    'spins of 360, 540, 720 and 1080.5 deg per frame',
    () => {
      const m = base(24, 4);
      for (let f = 0; f <= 24; f++)
        [360, 540, 720, 1080.5].forEach((deg, j) => setRotation(m, f, j, axisAngle([0.3, 1, 0.1 * j], deg * f)));
      return m;
    },
  ],
  [
    'quaternions exactly a half turn apart frame to frame',
    () => {
      const m = base(30, 3);
      for (let f = 0; f <= 30; f++) {
        setRotation(m, f, 0, f % 2 ? [0, 0, 1, 0] : [0, 0, 0, 1]);
        setRotation(m, f, 1, f % 2 ? [1, 0, 0, 0] : [0, 1, 0, 0]);
        setRotation(m, f, 2, f % 4 < 2 ? [0, 0, 0, -1] : [0.5, 0.5, 0.5, 0.5]);
      }
      return m;
    },
  ],
  [
    "a root alternating between the ends of h16's range, and teleports of 4e6",
    () => {
      const m = base(40, 2);
      for (let f = 0; f <= 40; f++)
        m.translation.set([f % 2 ? H16_MAX : -H16_MAX, Math.floor(f / 7) % 2 ? 4e6 : -4e6, f, 0], f * 4);
      return m;
    },
  ],
  [
    'animated offsets at the h16 limit and a denormal',
    () => {
      const m = base(30, 3);
      m.flags |= MotionFlag.OFFSETS;
      for (let f = 0; f <= 30; f++)
        for (let j = 1; j < 3; j++) m.offset.set([f % 2 ? 8e6 : -8e6, 1e-40, 5 * f, 0], (f * 3 + j) * 4);
      return m;
    },
  ],
  [
    'user keys on every frame, locks on the first and last, a trace key on the last',
    () => {
      const N = 20,
        J = 3;
      const m = base(N, J);
      for (let f = 0; f <= N; f++) {
        m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
        for (let j = 0; j < J; j++) m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
      }
      m.jointKeyInfo[(0 * J + 1) * 4] |= KeyFlag.LOCK;
      m.jointKeyInfo[(N * J + 2) * 4] |= KeyFlag.LOCK;
      m.translationKeyInfo[N * 4] |= KeyFlag.TRACE;
      return m;
    },
  ],
  [
    'quaternions of length 0.01 and 3e38',
    () => {
      const m = base(30, 3);
      for (let f = 0; f <= 30; f++) {
        const q = axisAngle([1, 0.3, 0], 7 * f);
        setRotation(
          m,
          f,
          1,
          q.map((x) => x * 0.01),
        );
        setRotation(
          m,
          f,
          2,
          q.map((x) => x * 3e38),
        );
      }
      return m;
    },
  ],
];

const TOLERANCES: [number, number][] = [
  [1e9, 1e9],
  [0.05, 0.5],
  [0.003, 0.03],
  [0, 0],
  [Number.MIN_VALUE, Number.MIN_VALUE],
];
const OVERRIDES = [undefined, { 0: 0, 1: 1e300 }];
const MODES: [string, (p: number) => Partial<CompressOptions>][] = [
  ['classic', () => ({ method: 'classic' })],
  ['refined', () => ({})],
  ['skeleton-aware', (p) => ({ objectTolerance: Math.max(2 * p, 1e-6) })],
];

describe('pathological motions keep the guarantee in every mode and in the MSH export', () => {
  for (const [name, make] of CASES)
    it(
      name,
      () => {
        const m = make();
        for (const [p, r] of TOLERANCES)
          for (const overrides of OVERRIDES) {
            for (const [mode, extra] of MODES) {
              const options: CompressOptions = {
                positionTolerance: p,
                rotationToleranceDeg: r,
                offsetTolerance: p,
                name: 'pathological',
                ...(overrides ? { rotationToleranceOverridesDeg: overrides } : {}),
                ...extra(p),
              };
              const label = `${mode} at ${p} u / ${r} deg, overrides ${JSON.stringify(overrides)}`;
              const res = compressMotion(m, options);
              expect(guaranteeViolations(m, res), label).toEqual([]);
              for (const t of res.mt3.rotations)
                expect(squadIllConditionedFrame(t.frames, t.rotation, t.inner), label).toBe(-1);
              expect(Array.from(compressMotion(m, options).bytes), `${label}: deterministic`).toEqual(
                Array.from(res.bytes),
              );
            }
            expect(mshViolations(m, p, r, overrides), `MSH at ${p} / ${r}`).toEqual([]);
          }
      },
      60_000,
    );
});

describe('the MSH export of pathological input', () => {
  const swing = (scale: number) => {
    const m = base(60, 2);
    for (let f = 0; f <= 60; f++)
      setRotation(
        m,
        f,
        1,
        axisAngle([1, 0.3, 0], 40 * Math.sin(f / 8)).map((x) => x * scale),
      );
    return m;
  };

  it('stores the unit quaternion of an unnormalised one: the same keys as the unit motion', () => {
    // Unscaled, a length of 2 clamped every s16 component to +-1: a key on each of the 61 frames, each 28.7 deg
    // off, blamed on "float32 / s16 precision"; a length of 0.01 kept 1/100 of s16's steps (42 keys for 26).
    const options = { positionTolerance: 0.05, rotationToleranceDeg: 0.5 };
    const unit = exportMshAnimation(swing(1), options);
    expect(unit.nodes[1].keys).toBe(26);
    for (const scale of [2, 0.5, 0.01]) {
      const res = exportMshAnimation(swing(scale), options);
      expect(res.warnings, `length ${scale}`).toEqual([]);
      expect(res.animation.keys, `length ${scale}`).toEqual(unit.animation.keys);
      expect(mshViolations(swing(scale), 0.05, 0.5), `length ${scale}`).toEqual([]);
    }
  });

  it('refuses a rotation tolerance override that is NaN, negative or infinite, naming the joint', () => {
    // It took NaN before: every frame of the node failed `error <= NaN`, a key went on each and the node's
    // report gave NaN as its tolerance; -1 was taken as 0.
    for (const v of [NaN, -1, Infinity]) {
      const run = () =>
        exportMshAnimation(swing(1), {
          positionTolerance: 0.05,
          rotationToleranceDeg: 0.5,
          rotationToleranceOverridesDeg: { 1: v },
        });
      expect(run).toThrow(FormatError);
      expect(run).toThrow(
        `MSH (export options): rotation tolerance override of joint 1 must be a finite number >= 0, got ${v}`,
      );
    }
  });
});

describe('values past what the MT3 can store', () => {
  it("a position past h16's range is refused naming the channel and frame; one rounding to the limit is warned", () => {
    const m = base(10, 2);
    m.flags |= MotionFlag.OFFSETS;
    m.translation[7 * 4] = 65519.9 * 128; // rounds to H16_MAX, 2035 units off
    m.offset[(3 * 2 + 1) * 4] = 9e6;
    const options = { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5, name: 'x' };
    expect(() => compressMotion(m, options)).toThrow(
      'MTN (offset joint 1 frame 3): position cannot be stored: value 9000000 is too large for h16 (largest magnitude 8384512)',
    );
    m.offset[(3 * 2 + 1) * 4] = 0;
    for (const mode of [{}, { method: 'classic' as const }, { objectTolerance: 1 }]) {
      const r = compressMotion(m, { ...options, ...mode });
      const w = r.warnings.find((x) => x.kind === 'translation');
      expect(w?.keyFrames).toEqual([7]);
      expect(guaranteeViolations(m, r)).toEqual([]);
    }
  });
});

describe('the MSH export measures a segment alone', () => {
  it('keeps its promise where a key on nearly every frame splits the segments unevenly', () => {
    // The export re-measures only the segment a key splits (docs/compression.md#pathological-motions-2026-12-04); a
    // fast swing keys most frames. mshViolations samples the whole written track at every frame.
    const m = base(400, 3);
    for (let f = 0; f <= 400; f++) {
      m.translation.set([Math.sin(f / 3) * 20, 0, 0, 0], f * 4);
      setRotation(m, f, 1, axisAngle([1, 0.3, 0], 40 * Math.sin(f / 3)));
      setRotation(m, f, 2, axisAngle([1, f % 7, 0.2], 173 * f));
    }
    expect(mshViolations(m, 0.05, 0.5)).toEqual([]);
    expect(mshViolations(m, 0.5, 5, { 2: 0 })).toEqual([]);
  });
});
