/**
 * The guarantee sweep's motions (docs/compression.md#guarantee-sweep-2026-12-03): shapes no bench, floor test,
 * hostile or held-out case used (random-walk quaternions, spins just under, at and over a half turn per frame,
 * q / -q on every frame, constant channels, 2 and 3 frames, a lock on every frame and a lock changing joint every
 * frame, user keys on every frame, trace keys on the first and last frames only, a root 3e4 to 6.5e4 units out,
 * denormals), a recipe that turns a few bytes into one such motion with a mode and tolerances (the `compress`
 * target of `npm run fuzz`), and the check of an MSH export against its source. Deterministic.
 */
import type { CompressOptions } from '../compress/types';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { exportMshAnimation } from '../msh/export';
import { readMshAnimation } from '../msh/read';
import { sampleMshNode } from '../msh/sample';
import { writeMshResources } from '../msh/write';
import { seededRandom } from './random';
import { axisAngle, quatProduct, setRotation } from './quaternions';

/** A chain of J joints, each under the one before. */
export const chain = (J: number): JointInfo[] =>
  Array.from({ length: J }, (_, j) => ({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `joint_${j}` }));

/** A smooth motion of a J-joint chain, bones 10 units long. */
export function base(N: number, J: number): Motion {
  const m = emptyMotion(N, chain(J));
  for (let f = 0; f <= N; f++) {
    m.translation.set([Math.sin(f / 10) * 20, 90, f * 0.5, 0], f * 4);
    for (let j = 0; j < J; j++) {
      setRotation(m, f, j, axisAngle([1, j, 2], 40 * Math.sin(f / 8 + j)));
      m.offset.set([0, 10, 0, 0], (f * J + j) * 4);
    }
  }
  return m;
}

/** Every joint a random walk of random steps up to `stepDeg` per frame; the root a random walk too. */
function randomWalk(N: number, J: number, stepDeg: number, seed: number): Motion {
  const m = base(N, J);
  const r = seededRandom(seed);
  for (let j = 0; j < J; j++) {
    let q = [0, 0, 0, 1];
    for (let f = 0; f <= N; f++) {
      q = quatProduct(q, axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], stepDeg * r()));
      const l = Math.hypot(q[0], q[1], q[2], q[3]);
      q = q.map((x) => x / l);
      setRotation(m, f, j, q);
    }
  }
  const p = [0, 0, 0];
  for (let f = 0; f <= N; f++) {
    for (let c = 0; c < 3; c++) p[c] += (r() - 0.5) * stepDeg;
    m.translation.set([p[0], p[1], p[2], 0], f * 4);
  }
  return m;
}

/** Spins of 179, 179.9, 180, 180.1 and 181 deg per frame (joints 0-4), about tilted axes. */
function nearHalfTurns(N: number): Motion {
  const m = base(N, 5);
  const degs = [179, 179.9, 180, 180.1, 181];
  for (let f = 0; f <= N; f++)
    for (let j = 0; j < 5; j++) setRotation(m, f, j, axisAngle([0.2, 1, 0.1 * j], degs[j] * f));
  return m;
}

export const SWEEP_CASES: readonly (readonly [string, () => Motion])[] = [
  ['random walk, steps up to 5 deg', () => randomWalk(90, 3, 5, 2)],
  ['random walk, steps up to 40 deg', () => randomWalk(60, 3, 40, 3)],
  ['random walk, steps up to 170 deg', () => randomWalk(40, 3, 170, 4)],
  ['spins of 179 to 181 deg per frame', () => nearHalfTurns(60)],
  [
    'flips of +-90 and 180 deg between frames',
    () => {
      const m = base(40, 3);
      for (let f = 0; f <= 40; f++) {
        setRotation(m, f, 0, axisAngle([0, 1, 0], f % 2 ? 89.95 : -89.95));
        setRotation(m, f, 1, axisAngle([0, 1, 0], f % 2 ? 179.99 : 0));
        setRotation(m, f, 2, axisAngle([1, 1, 0], f % 3 === 0 ? 180 : f % 3 === 1 ? 0.01 : -179.99));
      }
      return m;
    },
  ],
  [
    'q and -q on alternate frames',
    () => {
      const m = base(40, 3);
      for (let f = 1; f <= 40; f += 2) for (let i = 0; i < 12; i++) m.rotation[f * 12 + i] *= -1;
      return m;
    },
  ],
  [
    'constant channels',
    () => {
      const m = base(30, 2);
      for (let f = 0; f <= 30; f++) {
        m.translation.set([1, 2, 3, 0], f * 4);
        for (let j = 0; j < 2; j++) setRotation(m, f, j, axisAngle([1, 2, 3], 77));
      }
      return m;
    },
  ],
  ['two frames', () => base(1, 3)],
  [
    'three frames, a half turn and -identity',
    () => {
      const m = base(2, 2);
      setRotation(m, 1, 0, axisAngle([0, 1, 0], 180));
      setRotation(m, 2, 1, [0, 0, 0, -1]);
      return m;
    },
  ],
  [
    'a joint locked on every frame',
    () => {
      const m = base(40, 3);
      for (let f = 0; f <= 40; f++) m.jointKeyInfo[(f * 3 + 1) * 4] |= KeyFlag.LOCK;
      return m;
    },
  ],
  [
    'the lock on another joint every frame',
    () => {
      const m = base(40, 3);
      for (let f = 0; f <= 40; f++) m.jointKeyInfo[(f * 3 + (f % 3)) * 4] |= KeyFlag.LOCK;
      return m;
    },
  ],
  [
    'user keys on every frame, offsets animated',
    () => {
      const m = base(30, 3);
      m.flags |= MotionFlag.OFFSETS;
      for (let f = 0; f <= 30; f++) {
        m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
        for (let j = 0; j < 3; j++) {
          m.jointKeyInfo[(f * 3 + j) * 4] |= KeyFlag.KEY;
          m.offset.set([Math.sin(f / 3 + j), 10, 0, 0], (f * 3 + j) * 4);
        }
      }
      return m;
    },
  ],
  [
    'trace keys on the first and last frames only, 300 frames',
    () => {
      const m = base(300, 2);
      m.translationKeyInfo[0] |= KeyFlag.TRACE;
      m.translationKeyInfo[300 * 4] |= KeyFlag.TRACE;
      return m;
    },
  ],
  [
    'a root 3e4 to 6e4 units out, and one of 6.5e4 with noise',
    () => {
      const m = base(60, 2);
      const r = seededRandom(7);
      for (let f = 0; f <= 60; f++)
        m.translation.set(
          f < 30 ? [3e4 + 50 * Math.sin(f / 9), -2e4, 6e4 - f, 0] : [6.5e4 * (r() - 0.5) * 2, 1000 + r(), 0, 0],
          f * 4,
        );
      return m;
    },
  ],
  [
    'denormals',
    () => {
      const m = base(30, 3);
      m.flags |= MotionFlag.OFFSETS;
      for (let f = 0; f <= 30; f++) {
        m.translation.set([1e-44 * f, 1e-40, -1e-38, 0], f * 4);
        setRotation(m, f, 1, [1e-42, 1e-40 * f, 0, 1]);
        m.offset.set([1e-41, 1e-45, 0, 0], (f * 3 + 2) * 4);
      }
      return m;
    },
  ],
];

/** Tolerances (position units, degrees) from far above the motion to below the h16 / s12 floor. */
export const SWEEP_TOLERANCES: readonly (readonly [string, number, number])[] = [
  ['1e9', 1e9, 1e9],
  ['1e30 u / 179 deg', 1e30, 179],
  ['0.5 / 0.5', 0.5, 0.5],
  ['floor 0.003 / 0.03', 0.003, 0.03],
  ['below the floor 0.001 / 0.01', 0.001, 0.01],
  ['1e-9', 1e-9, 1e-9],
  ['0', 0, 0],
];

/** The three modes; the skeleton-aware one bounds the object-space error to twice the position tolerance. */
export const SWEEP_MODES: readonly (readonly [string, (positionTolerance: number) => Partial<CompressOptions>])[] = [
  ['classic', () => ({ method: 'classic' })],
  ['refined', () => ({})],
  ['skeleton-aware', (p) => (p > 0 ? { objectTolerance: 2 * p } : {})],
];

/**
 * A motion, mode and tolerances from a few bytes (the `compress` fuzz target): byte 0 the shape, 1 the frame
 * count, 2 the joints, 3-4 the seed, 5 the mode, 6-7 the tolerance exponents, 8 flags (user keys, locks, trace
 * keys, offsets, sign flips), 9 a spin rate. Every byte value gives a valid motion (missing bytes read as 0);
 * one tolerance byte value in 16 gives a tolerance the compressor must refuse.
 */
export function recipeMotion(bytes: Uint8Array): { motion: Motion; options: CompressOptions } {
  const b = (i: number) => bytes[i] ?? 0;
  const N = 1 + (b(1) % 64);
  const J = 1 + (b(2) % 3);
  const r = seededRandom(b(3) | (b(4) << 8));
  const shape = b(0) % 5;
  const m = shape === 0 ? randomWalk(N, J, 1 + r() * 179, b(3)) : shape === 1 ? base(N, J) : emptyMotion(N, chain(J));
  const spin = (b(9) / 255) * 400 - 20;
  for (let f = 0; f <= N; f++) {
    if (shape === 2) for (let j = 0; j < J; j++) setRotation(m, f, j, axisAngle([r() - 0.5, 1, r() - 0.5], spin * f));
    if (shape === 3) for (let j = 0; j < J; j++) setRotation(m, f, j, axisAngle([1, j, 0], r() < 0.5 ? 179.9 : -179.9));
    if (shape === 4) {
      m.translation.set([(r() - 0.5) * 1.3e5, (r() - 0.5) * 10, 0, 0], f * 4);
      for (let j = 0; j < J; j++) setRotation(m, f, j, axisAngle([r(), r(), r()], 360 * r()));
    }
    const flags = b(8);
    if (flags & 1 && r() < 0.2) m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
    if (flags & 2 && r() < 0.3) m.jointKeyInfo[(f * J + (f % J)) * 4] |= KeyFlag.KEY;
    if (flags & 4 && r() < 0.5) m.jointKeyInfo[(f * J + Math.floor(r() * J)) * 4] |= KeyFlag.LOCK;
    if (flags & 8 && (f === 0 || f === N || r() < 0.05)) m.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
    if (flags & 16) for (let j = 1; j < J; j++) m.offset.set([Math.sin(f / 4 + j) * r(), 10, 0, 0], (f * J + j) * 4);
    if (flags & 32 && f % 2) for (let i = 0; i < J * 4; i++) m.rotation[f * J * 4 + i] *= -1;
  }
  if (b(8) & 16) m.flags |= MotionFlag.OFFSETS;
  // 0, 1e-9 ... 1e4, and one value in 16 that no tolerance may be (negative, NaN, infinite: refused).
  const bad = [-1, NaN, Infinity, -0.5];
  const tol = (e: number, scale: number) =>
    e % 16 === 15 ? bad[(e >> 4) % 4] : e % 16 === 0 ? 0 : scale * 10 ** ((e % 16) - 10);
  const positionTolerance = tol(b(6), 1);
  const rotationToleranceDeg = tol(b(7), 1);
  const mode = b(5) % 3;
  return {
    motion: m,
    options: {
      name: 'recipe',
      positionTolerance,
      rotationToleranceDeg,
      offsetTolerance: positionTolerance,
      ...(mode === 0 ? { method: 'classic' as const } : {}),
      ...(mode === 2 && positionTolerance > 0 ? { objectTolerance: positionTolerance * 4 } : {}),
    },
  };
}

/** The most a key's rotation can be off its source by s16 rounding alone (2 asin(1 / 32767) is 0.0035 deg). */
const MSH_KEY_ROUNDING_DEG = 0.004;

/**
 * What breaks the MSH export's promise on `m` at these tolerances, read back from the written Res8 / Res19 and
 * sampled with the MSH sampler (docs/formats.md 7) at every frame: a frame that is not a key of its node over a
 * tolerance (the joint's override, if any), a key further from its source than float32 / s16 rounding, a NaN, a
 * node report whose worst errors are not those of the written keys. Empty when it holds.
 */
export function mshViolations(
  m: Motion,
  positionTolerance: number,
  rotationToleranceDeg: number,
  rotationToleranceOverridesDeg?: Record<number, number>,
): string[] {
  const bad: string[] = [];
  const res = exportMshAnimation(m, { positionTolerance, rotationToleranceDeg, rotationToleranceOverridesDeg });
  const w = writeMshResources(res.animation);
  const a = readMshAnimation(w.res8.bytes, w.res19.bytes, { res8: w.res8, res19: w.res19 }, res.animation.nodes);
  const J = m.joints.length;
  a.nodes.forEach((n, j) => {
    const keyTimes = new Set<number>();
    for (let k = j === 0 ? 0 : a.nodes[j - 1].fallbackKey + 1; k <= n.fallbackKey; k++) keyTimes.add(a.keys[k].time);
    let maxP = 0,
      maxR = 0;
    for (let f = 0; f <= m.frameCount; f++) {
      const s = sampleMshNode(a, j, f);
      const i = j === 0 ? f * 4 : (f * J + j) * 4;
      const src = j === 0 ? m.translation : m.offset;
      const pe = Math.hypot(s.position[0] - src[i], s.position[1] - src[i + 1], s.position[2] - src[i + 2]);
      const q = m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4);
      const dot = s.rotation[0] * q[0] + s.rotation[1] * q[1] + s.rotation[2] * q[2] + s.rotation[3] * q[3];
      const cos = Math.abs(dot) / (Math.hypot(q[0], q[1], q[2], q[3]) * Math.hypot(...s.rotation));
      const re = (2 * Math.acos(Math.min(1, cos)) * 180) / Math.PI;
      if (!(Number.isFinite(pe) && Number.isFinite(re))) bad.push(`node ${j} frame ${f}: NaN`);
      maxP = Math.max(maxP, pe);
      maxR = Math.max(maxR, re);
      const rotTol = rotationToleranceOverridesDeg?.[j] ?? rotationToleranceDeg;
      if (!keyTimes.has(f) && (pe > positionTolerance + 1e-9 || re > rotTol + 1e-9))
        bad.push(`node ${j} frame ${f} is not a key and has errors ${pe} u, ${re} deg`);
      // A key holds its source as float32 (exactly: MTN samples are float32) and s16 (each unit component within
      // 0.5 / 32767, 0.0035 deg in all): more is a key that holds something else.
      if (keyTimes.has(f) && (pe > 0 || re > MSH_KEY_ROUNDING_DEG))
        bad.push(`node ${j} key ${f} is ${pe} u, ${re} deg off its source: more than float32 / s16 rounding`);
    }
    const rep = res.nodes[j];
    if (
      Math.abs(rep.maxPositionError - maxP) > 1e-6 * Math.max(1, maxP) ||
      Math.abs(rep.maxRotationErrorDeg - maxR) > 1e-6
    )
      bad.push(
        `node ${j}: reported ${rep.maxPositionError} u / ${rep.maxRotationErrorDeg} deg, written ${maxP} / ${maxR}`,
      );
  });
  return bad;
}
