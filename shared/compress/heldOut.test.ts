/**
 * The compressor's promise (docs/compression.md#the-guarantee) on held-out captures: shapes neither the bench, the
 * floor test (electron/compress/floorGuarantee.test.ts) nor the hostile cases (hostile.test.ts) use. Spins faster
 * than a half turn per frame, rotations crossing 180 deg, q and -q at random, exact and near-constant channels,
 * identity joints (w = 1 and w = -1), denormals, unnormalised quaternions, zero-length bones, huge and tiny
 * skeletons, positions near the h16 limit, user keys / locks / trace keys on every frame, a 10,001-frame clip, and
 * BVH files with ZYX / YXZ / XZY joints, rotation channels before position ones, position channels on non-root
 * joints, an End-Site-only joint, Frame Time 0.0083333 and 1/24, CRLF, tabs and lines after the frames. Each is
 * compressed in the refined, classic and skeleton-aware modes at 0.05 u / 0.5 deg, 0.01 u / 0.1 deg and the floor
 * 0.005 u / 0.05 deg, decoded by the independent decoder (guaranteeViolations), and compressed again for the same
 * bytes.
 */
import { describe, expect, it } from 'vitest';
import { importBvh } from '../interchange/bvh/import';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { bvhText, guaranteeViolations, type BvhSpecJoint } from '../testing/hostileMotions';
import { axisAngle, setRotation } from '../testing/quaternions';
import { seededRandom } from '../testing/random';
import { compressMotion } from './compress';
import type { CompressOptions } from './types';

const LEVELS = [
  { positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05 },
  { positionTolerance: 0.01, rotationToleranceDeg: 0.1, offsetTolerance: 0.01 },
  { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005 },
];
const MODES: [string, (l: (typeof LEVELS)[number]) => Partial<CompressOptions>][] = [
  ['refined', () => ({})],
  ['classic', () => ({ method: 'classic' })],
  ['skeleton-aware', (l) => ({ objectTolerance: 2 * l.positionTolerance })],
];

function check(m: Motion, levels = LEVELS): void {
  for (const level of levels)
    for (const [mode, extra] of MODES) {
      const options = { ...level, ...extra(level), name: 'held_out' };
      const label = `${mode} at ${level.positionTolerance} u / ${level.rotationToleranceDeg} deg`;
      const r = compressMotion(m, options);
      expect(guaranteeViolations(m, r), label).toEqual([]);
      expect(Array.from(compressMotion(m, options).bytes), `${label}: deterministic`).toEqual(Array.from(r.bytes));
    }
}

const chain = (J: number): JointInfo[] =>
  Array.from({ length: J }, (_, j) => ({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `joint_${j}` }));
/** A smooth motion of a J-joint chain with bones `bone` long. */
function base(N: number, J: number, bone = 10): Motion {
  const m = emptyMotion(N, chain(J));
  for (let f = 0; f <= N; f++) {
    m.translation.set([Math.sin(f / 10) * 20, 90, f * 0.5, 0], f * 4);
    for (let j = 0; j < J; j++) {
      m.rotation.set(axisAngle([1, j, 2], 40 * Math.sin(f / 8 + j)), (f * J + j) * 4);
      m.offset.set([0, bone, 0, 0], (f * J + j) * 4);
    }
  }
  return m;
}

const motions: [string, () => Motion][] = [
  [
    'spins of 200, 350 and 179.5 deg per frame',
    () => {
      const m = base(30, 4);
      for (let f = 0; f <= 30; f++) {
        setRotation(m, f, 1, axisAngle([0, 1, 0], 200 * f));
        setRotation(m, f, 2, axisAngle([0.3, 1, 0], 350 * f));
        setRotation(m, f, 3, axisAngle([0.3, 1, 0], 179.5 * f));
      }
      return m;
    },
  ],
  [
    'a slow rotation across 180 deg and exact half turns every frame',
    () => {
      const m = base(60, 3);
      for (let f = 0; f <= 60; f++) {
        setRotation(m, f, 1, axisAngle([1, 0.2, 0], 170 + f * 0.4));
        setRotation(m, f, 2, axisAngle([0, 0, 1], 180 * f));
      }
      return m;
    },
  ],
  [
    'q or -q at random on every sample',
    () => {
      const m = base(60, 3);
      const r = seededRandom(3);
      for (let i = 0; i < 61 * 3; i++) if (r() < 0.5) for (let k = 0; k < 4; k++) m.rotation[i * 4 + k] *= -1;
      return m;
    },
  ],
  [
    'constant and near-constant channels, identity joints (w = 1, w = -1, alternating)',
    () => {
      const m = base(60, 5);
      const r = seededRandom(9);
      for (let f = 0; f <= 60; f++) {
        m.translation.set([1 + r() * 1e-6, 2, 3 - r() * 1e-7, 0], f * 4);
        setRotation(m, f, 0, axisAngle([1, 1, 0], 10 + r() * 1e-5));
        setRotation(m, f, 1, [0, 0, 0, 1]);
        setRotation(m, f, 2, [0, 0, 0, -1]);
        setRotation(m, f, 3, [0, 0, 0, f % 2 ? -1 : 1]);
        setRotation(m, f, 4, axisAngle([0, 1, 0], 33));
      }
      return m;
    },
  ],
  [
    'denormals and unnormalised quaternions',
    () => {
      const m = base(40, 4);
      for (let f = 0; f <= 40; f++) {
        m.translation.set([1e-40, -1e-42, 1e-39 * f, 0], f * 4);
        setRotation(m, f, 1, [1e-40, -1e-41, 1e-39, 1]);
        setRotation(m, f, 2, [1e-40, 1, 1e-41, 1e-40]);
        for (let k = 0; k < 4; k++) m.rotation[(f * 4 + 3) * 4 + k] *= f % 2 ? 1e-3 : 1e3;
      }
      return m;
    },
  ],
  ['one frame pair', () => base(1, 3)],
  [
    'zero-length bones at the origin',
    () => {
      const m = base(40, 4, 0);
      m.translation.fill(0);
      return m;
    },
  ],
  [
    'positions near the h16 limit',
    () => {
      const m = base(60, 2);
      for (let f = 0; f <= 60; f++)
        m.translation.set([8.38e6 * Math.sin(f / 3), -8.3e6 + f * 3, 65504 + f * 0.1, 0], f * 4);
      return m;
    },
  ],
  [
    'a huge skeleton (1e5) and a tiny one (1e-4), offsets animated',
    () => {
      const m = base(40, 4, 1e5);
      m.flags |= MotionFlag.OFFSETS;
      for (let f = 0; f <= 40; f++) {
        m.translation.set([1e5 * Math.sin(f / 10), 1e5, f * 1000, 0], f * 4);
        m.offset.set([1e-4 * Math.sin(f / 5), 1e-4, 0, 0], (f * 4 + 3) * 4);
      }
      return m;
    },
  ],
  [
    'user keys, locks and trace keys on every frame',
    () => {
      const m = base(30, 3);
      m.flags |= MotionFlag.OFFSETS;
      for (let f = 0; f <= 30; f++) {
        m.translationKeyInfo[f * 4] |= KeyFlag.KEY | KeyFlag.TRACE;
        for (let j = 0; j < 3; j++) m.jointKeyInfo[(f * 3 + j) * 4] |= KeyFlag.KEY;
        m.jointKeyInfo[(f * 3 + (f % 3)) * 4] |= KeyFlag.LOCK;
      }
      return m;
    },
  ],
];

describe('held-out motions keep the promise in every mode at 0.05, 0.01 and the floor', () => {
  for (const [name, make] of motions) it(name, () => check(make()), 60_000);
  it('a 10,001-frame clip', () => {
    const m = base(10_001, 1);
    for (let f = 0; f <= 10_001; f++) m.translation[f * 4 + 2] = 50 * Math.sin(f / 300);
    for (const [mode, extra] of MODES) {
      const r = compressMotion(m, { ...LEVELS[0], ...extra(LEVELS[0]), name: 'held_out' });
      expect(guaranteeViolations(m, r), mode).toEqual([]);
    }
  }, 60_000);
});

/** A BVH skeleton unlike the captures': ZYX root with rotations first, position channels on a YXZ joint, an End-Site-only joint. */
const JOINTS: BvhSpecJoint[] = [
  {
    name: 'Hips',
    parent: -1,
    offset: [0, 0, 0],
    channels: ['Zrotation', 'Yrotation', 'Xrotation', 'Xposition', 'Yposition', 'Zposition'],
  },
  {
    name: 'Spine',
    parent: 0,
    offset: [0, 10, 0],
    channels: ['Yrotation', 'Xrotation', 'Zrotation', 'Xposition', 'Yposition', 'Zposition'],
  },
  { name: 'Neck', parent: 1, offset: [0, 8, 0], channels: [], endSite: true },
  { name: 'Arm', parent: 1, offset: [5, 0, 0], channels: ['Xrotation', 'Zrotation', 'Yrotation'] },
  { name: 'Hand', parent: 3, offset: [0, 0, 0], channels: ['Zrotation', 'Xrotation', 'Yrotation'], endSite: true },
];
const wave = (f: number, k: number, a: number) => a * Math.sin(f * (0.05 + 0.013 * k) + k);
/** Channel values: an Euler angle wrapping from 179.5 to -179.5, a spin of 200 deg per frame, flips of 360 deg. */
const VALUES = (f: number): number[] => [
  wave(f, 0, 170),
  179.5 * Math.sin(f / 40) + 180,
  wave(f, 2, 30),
  wave(f, 3, 20),
  90 + wave(f, 4, 3),
  f * 0.2,
  200 * f,
  wave(f, 6, 89.9),
  wave(f, 7, 45),
  wave(f, 8, 0.5),
  wave(f, 9, 0.5),
  0,
  wave(f, 10, 120),
  -180 + (f % 2) * 360,
  wave(f, 12, 10),
  0,
  0,
  0,
];
function heldOutBvh(frames: number, frameTime: number, extra: { eol?: string; sep?: string; trailer?: string } = {}) {
  const order = [0, 1, 2, 3, 4]; // depth first, as bvhText writes them
  let k = 0;
  const start = order.map((j) => ((k += JOINTS[j].channels.length), k - JOINTS[j].channels.length));
  const text = bvhText({ joints: JOINTS, frames, frameTime, value: (f, j, c) => VALUES(f)[start[j] + c], ...extra });
  return text + (extra.trailer ?? '');
}

describe('held-out BVH files, imported, keep the promise in every mode', () => {
  const cases: [string, string, number][] = [
    [
      'Frame Time 0.0083333, CRLF, tabs, blank lines after the frames, at 30 fps',
      heldOutBvh(240, 0.0083333, { eol: '\r\n', sep: '\t', trailer: '\r\n\r\n' }),
      30,
    ],
    ['Frame Time 1/24 at 120 fps', heldOutBvh(24, 1 / 24), 120],
    [
      'Frame Time 0.0416667 with text after the frames, at 30 fps',
      heldOutBvh(60, 0.0416667, { trailer: 'garbage after the frames\n1 2 3\n' }),
      30,
    ],
    ['a single frame', heldOutBvh(1, 1 / 30), 30],
    ['two frames at 120 fps', heldOutBvh(2, 1 / 30), 120],
  ];
  for (const [name, text, fps] of cases)
    it(
      name,
      () => {
        const { motion } = importBvh(text, { fps });
        expect(motion.joints.map((j) => j.name)).toEqual(['Hips', 'Spine', 'Neck', 'Arm', 'Hand']);
        check(motion);
      },
      60_000,
    );
});
