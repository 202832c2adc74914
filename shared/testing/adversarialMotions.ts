/**
 * Seeded adversarial motions for the compressor's promise (docs/compression.md#adversarial-harness-2026-12-03):
 * each seed gives one motion whose channels each take a shape the bundled captures never show (sign flips between
 * frames, near-half turns between neighbours, teleports, jitter, constant, denormal, positions near the h16 limit
 * or far below its step), a length chosen around the 255-frame gap limit or of 1-3 frames, user keys / locks /
 * trace keys on the first, last and adjacent frames, a frame rate from 24 to 240, and the runs to make of it
 * (classic, refined, skeleton-aware and a budget scale, tolerances from the precision floor to very loose,
 * per-joint overrides). A case is a function of its seed only.
 */
import { budgetScale } from '../project/budget';
import type { CompressOptions } from '../compress/types';
import { H16_MAX } from '../math/half';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { seededRandom } from './random';
import { axisAngle, quatProduct } from './quaternions';

export const ADVERSARIAL_FPS = [24, 25, 30, 50, 60, 120, 240] as const;

/** Lengths (frameCount) around the 255-frame gap limit, and the shortest motions. */
const LENGTHS = [1, 2, 3, 4, 5, 17, 64, 254, 255, 256, 257, 258, 510, 511, 512, 513, 765, 766];

/** Tolerances (units, degrees): below and at the h16 / s12 floor, the usual ones, very loose. */
export const ADVERSARIAL_TOLERANCES: readonly (readonly [number, number])[] = [
  [0, 0],
  [5e-324, 5e-324],
  [1e-4, 0.001],
  [0.003, 0.03],
  [0.005, 0.05],
  [0.05, 0.5],
  [0.5, 2],
  [10, 45],
  [1e6, 179],
  [1e9, 1e9],
];

const OVERRIDES = [0, 0.001, 0.03, 0.05, 0.5, 5, 90, 179, 1e9];

export interface AdversarialRun {
  label: string;
  options: CompressOptions;
}

export interface AdversarialCase {
  seed: number;
  /** What the generator chose, for the failure message. */
  shape: string;
  motion: Motion;
  runs: AdversarialRun[];
}

export type Rand = () => number;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

export const randomAxis = (r: Rand) => [r() - 0.5, r() - 0.5, r() - 0.5];

const ROTATION_SHAPES = [
  'smooth',
  'constant',
  'identity-w-1',
  'sign-flips',
  'near-half-turns',
  'random-walk',
  'jitter',
  'teleports',
  'spin',
  'denormal',
  'slow-creep',
  's12-edges',
] as const;

/**
 * The shapes extremeCase adds (docs/compression.md#extreme-motions-2026-12-04): an Euler source at or near gimbal
 * lock, white noise (a uniformly random rotation each frame), a single spike frame. Kept apart from ROTATION_SHAPES
 * so that adversarialCase(seed) stays the motion it was (tests name some seeds).
 */
const EXTREME_ROTATION_SHAPES = [...ROTATION_SHAPES, 'gimbal-euler', 'white-noise', 'spike'] as const;
type RotationShape = (typeof EXTREME_ROTATION_SHAPES)[number];

/** The rotation of Euler angles (degrees) about the fixed axes X, then Y, then Z. */
const eulerXyz = (x: number, y: number, z: number) =>
  quatProduct(axisAngle([0, 0, 1], z), quatProduct(axisAngle([0, 1, 0], y), axisAngle([1, 0, 0], x)));

/** One joint's rotation at every frame 0..N, of the named shape. */
function rotationTrack(shape: RotationShape, N: number, r: Rand): number[][] {
  const ax = randomAxis(r);
  const amp = pick(r, [1, 20, 90, 170]);
  const w = 0.01 + r() * 0.3;
  const ph = r() * 6.28;
  const smooth = (f: number) => axisAngle(ax, amp * Math.sin(w * f + ph));
  const out: number[][] = [];
  switch (shape) {
    case 'smooth':
      for (let f = 0; f <= N; f++) out.push(smooth(f));
      break;
    case 'constant': {
      const q = axisAngle(ax, r() * 360);
      for (let f = 0; f <= N; f++) out.push(q);
      break;
    }
    case 'identity-w-1':
      for (let f = 0; f <= N; f++) out.push(f % 3 === 1 ? [0, 0, 0, -1] : [0, 0, 0, 1]);
      break;
    case 'sign-flips':
      // The same smooth rotation, each sample's sign chosen at random (q and -q are one rotation).
      for (let f = 0; f <= N; f++) out.push(smooth(f).map((c) => (r() < 0.5 ? c : -c)));
      for (let f = 0; f <= N; f++) if (r() < 0.5) out[f] = out[f].map((c) => -c);
      break;
    case 'near-half-turns': {
      // Neighbouring frames 179-180.5 deg apart about a wandering axis.
      let q = [0, 0, 0, 1];
      for (let f = 0; f <= N; f++) {
        out.push(q);
        q = quatProduct(q, axisAngle(f % 2 ? ax : randomAxis(r), pick(r, [179, 179.9, 179.99, 180, 180.01, 180.5])));
      }
      break;
    }
    case 'random-walk': {
      const step = pick(r, [0.5, 5, 40, 170]);
      let q = [0, 0, 0, 1];
      for (let f = 0; f <= N; f++) {
        out.push(q);
        q = quatProduct(q, axisAngle(randomAxis(r), step * r()));
      }
      break;
    }
    case 'jitter': {
      const noise = pick(r, [0.01, 0.05, 0.3, 2, 10]);
      for (let f = 0; f <= N; f++) out.push(quatProduct(smooth(f), axisAngle(randomAxis(r), noise * r())));
      break;
    }
    case 'teleports': {
      // Smooth stretches with a jump to an unrelated rotation at a few frames (first, last, adjacent, random).
      let offset = [0, 0, 0, 1];
      const jumps = new Set([pick(r, [1, N, Math.max(1, N - 1)]), 1 + Math.floor(r() * N)]);
      const j2 = 1 + Math.floor(r() * N);
      jumps.add(j2).add(Math.min(N, j2 + 1));
      for (let f = 0; f <= N; f++) {
        if (jumps.has(f)) offset = axisAngle(randomAxis(r), 90 + r() * 90);
        out.push(quatProduct(offset, smooth(f)));
      }
      break;
    }
    case 'spin': {
      const deg = pick(r, [90, 179.5, 180, 181, 359]);
      for (let f = 0; f <= N; f++) out.push(axisAngle(ax, deg * f));
      break;
    }
    case 'denormal':
      // Components a float32 stores as denormals beside an exact identity.
      for (let f = 0; f <= N; f++) out.push([1e-40 * (f % 3), -2e-39, 1e-45 * f, f % 2 ? 1 : -1]);
      break;
    case 's12-edges':
      // Unit quaternions whose components sit on and between the s12 steps (1/2047), one axis at +-1.
      for (let f = 0; f <= N; f++) {
        const a = (Math.round(r() * 4) + 0.5 * (f % 2)) / 2047;
        const q = [a, 0, 0, Math.sqrt(1 - a * a)];
        out.push(f % 5 === 4 ? [0, f % 2 ? 1 : -1, 0, 0] : q);
      }
      break;
    case 'slow-creep':
      // Below the s12 step per frame: a long drift that a key every 255 frames must still follow.
      for (let f = 0; f <= N; f++) out.push(axisAngle(ax, 0.004 * f));
      break;
    case 'gimbal-euler': {
      // Y at 90 degrees, or a hair off, or crossing it; X and Z swing against each other (the rotation barely
      // moves while the angles do), and on some frames the same rotation is written as (x+180, 180-y, z+180).
      const hair = pick(r, [0, 1e-6, 1e-3, 0.5]);
      const flip = r() < 0.5;
      for (let f = 0; f <= N; f++) {
        const x = amp * Math.sin(w * f + ph),
          y = 90 + hair * Math.sin(3 * w * f),
          z = -x + 5 * Math.sin(w * f * 0.3);
        out.push(flip && f % 2 ? eulerXyz(x + 180, 180 - y, z + 180) : eulerXyz(x, y, z));
      }
      break;
    }
    case 'white-noise':
      for (let f = 0; f <= N; f++) {
        // A uniformly random rotation (Shoemake).
        const [u1, u2, u3] = [r(), r(), r()];
        const a = Math.sqrt(1 - u1),
          b = Math.sqrt(u1);
        out.push([
          a * Math.sin(2 * Math.PI * u2),
          a * Math.cos(2 * Math.PI * u2),
          b * Math.sin(2 * Math.PI * u3),
          b * Math.cos(2 * Math.PI * u3),
        ]);
      }
      break;
    case 'spike': {
      // Smooth but for one frame (first, last, second, or anywhere) turned far away.
      const at = pick(r, [0, N, 1, Math.floor(r() * (N + 1))]);
      const away = axisAngle(randomAxis(r), pick(r, [1, 45, 179, 180]));
      for (let f = 0; f <= N; f++) out.push(f === at ? quatProduct(away, smooth(f)) : smooth(f));
      break;
    }
  }
  return out;
}

const POSITION_SHAPES = [
  'smooth',
  'constant',
  'huge',
  'near-limit',
  'tiny',
  'denormal',
  'teleports',
  'jitter',
  'linear',
  'extremes',
] as const;

/** The position shapes extremeCase adds: white noise, a single spike frame, translations of a million units. */
const EXTREME_POSITION_SHAPES = [...POSITION_SHAPES, 'white-noise', 'spike', 'million'] as const;
type PositionShape = (typeof EXTREME_POSITION_SHAPES)[number];

/** A position track (root translation or a joint's offset) at every frame 0..N, of the named shape. */
function positionTrack(shape: PositionShape, N: number, r: Rand): number[][] {
  const c = [r() * 200 - 100, r() * 200, r() * 200 - 100];
  const w = 0.01 + r() * 0.3;
  const spikeAt = shape === 'spike' ? pick(r, [0, N, 1, Math.floor(r() * (N + 1))]) : -1;
  const spike = shape === 'spike' ? pick(r, [1, 100, 1e4, 1e6]) : 0;
  const smooth = (f: number, a: number) => c.map((x, i) => x + a * Math.sin(w * f + i));
  const out: number[][] = [];
  for (let f = 0; f <= N; f++) {
    switch (shape) {
      case 'smooth':
        out.push(smooth(f, 30));
        break;
      case 'constant':
        out.push(c);
        break;
      case 'huge':
        out.push(smooth(f, 300).map((x, i) => x + (i ? -1 : 1) * 1e5));
        break;
      case 'near-limit':
        // Within a few h16 steps (8192 units at the top) of the largest storable magnitude.
        out.push([H16_MAX * (0.99 + 0.005 * Math.sin(w * f)), -H16_MAX * 0.999, H16_MAX * 0.5 * Math.cos(w * f)]);
        break;
      case 'tiny':
        out.push(smooth(f, 1).map((x) => x * 1e-7));
        break;
      case 'denormal':
        out.push([1e-40 * f, -1e-39, f % 2 ? 1e-45 : 0]);
        break;
      case 'teleports':
        out.push(smooth(f, 5).map((x, i) => x + (f >= N / 2 ? (i ? 5e3 : -2e6) : 0) + (f === N ? 1e4 : 0)));
        break;
      case 'jitter':
        out.push(smooth(f, 20).map((x) => x + (r() - 0.5) * pick(r, [0.001, 0.05, 1])));
        break;
      case 'extremes':
        // From one end of h16's range to the other between neighbouring frames.
        out.push([(f % 2 ? 1 : -1) * H16_MAX * 0.999, f % 3 ? H16_MAX * 0.999 : 0, -H16_MAX * 0.999]);
        break;
      case 'linear':
        out.push(c.map((x, i) => x + f * (i + 1) * 0.37));
        break;
      case 'white-noise':
        out.push(c.map(() => (r() - 0.5) * 400));
        break;
      case 'spike':
        out.push(smooth(f, 10).map((x, i) => x + (f === spikeAt ? (i === 1 ? -spike : spike) : 0)));
        break;
      case 'million':
        out.push(smooth(f, 30).map((x, i) => x + (i === 2 ? -1e6 : 1e6)));
        break;
    }
  }
  return out;
}

/**
 * A motion of N frames and J joints (random parents) at `fps`, each channel of a shape drawn from `r`, without
 * flags; `shapes` gets what was drawn.
 */
function adversarialSamples(
  r: Rand,
  N: number,
  J: number,
  fps: number,
  shapes: string[],
  rotationShapes: readonly RotationShape[] = ROTATION_SHAPES,
  positionShapes: readonly PositionShape[] = POSITION_SHAPES,
): Motion {
  const joints: JointInfo[] = Array.from({ length: J }, (_, j) => ({
    parent: j === 0 ? -1 : Math.floor(r() * j),
    mirror: j,
    part: 0,
    reserved: 0,
    name: `joint_${j}`,
  }));
  const m = emptyMotion(N, joints, fps);
  const rootShape = pick(r, positionShapes);
  shapes.push(`root:${rootShape}`);
  positionTrack(rootShape, N, r).forEach((p, f) => m.translation.set([p[0], p[1], p[2], 0], f * 4));
  const offsets = r() < 0.4;
  if (offsets) m.flags |= MotionFlag.OFFSETS;
  for (let j = 0; j < J; j++) {
    const rs = pick(r, rotationShapes);
    shapes.push(`rot${j}:${rs}`);
    rotationTrack(rs, N, r).forEach((q, f) => m.rotation.set(q, (f * J + j) * 4));
    const os = offsets ? pick(r, positionShapes) : 'constant';
    if (offsets) shapes.push(`off${j}:${os}`);
    positionTrack(os, N, r).forEach((p, f) => m.offset.set([p[0], p[1], p[2], 0], (f * J + j) * 4));
  }
  return m;
}

/**
 * A long motion of the same shapes (the build pool compresses a motion whose MTN is 512 KiB or more in channel
 * shares), with user keys every `keyEvery` frames on joint 0 and a lock moving along the joints.
 */
export function longAdversarialMotion(seed: number, N: number, J: number, fps: number): Motion {
  const r = seededRandom(seed * 104729 + 7);
  const m = adversarialSamples(r, N, J, fps, []);
  for (let f = 0; f <= N; f += 97) {
    m.jointKeyInfo[f * J * 4] |= KeyFlag.KEY;
    m.jointKeyInfo[(f * J + (f % J)) * 4] |= KeyFlag.LOCK;
    m.translationKeyInfo[f * 4] |= f % 2 ? KeyFlag.TRACE : KeyFlag.KEY;
  }
  return m;
}

/** The adversarial case of `seed`. */
export function adversarialCase(seed: number): AdversarialCase {
  return makeCase(seed, seededRandom(seed * 7919 + 13), false);
}

/**
 * The extreme case of `seed` (docs/compression.md#extreme-motions-2026-12-04): as adversarialCase, with the shapes
 * it adds (gimbal-locked Euler sources, white noise, single spikes, a million units) and, on some cases, user keys
 * at every frame of a channel.
 */
export function extremeCase(seed: number): AdversarialCase {
  return makeCase(seed, seededRandom(seed * 6007 + 101), true);
}

function makeCase(seed: number, r: Rand, extreme: boolean): AdversarialCase {
  const N = pick(r, LENGTHS);
  const J = 1 + Math.floor(r() * 5);
  const fps = pick(r, ADVERSARIAL_FPS);
  const shapes: string[] = [`N=${N}`, `J=${J}`, `fps=${fps}`];
  const m = extreme
    ? adversarialSamples(r, N, J, fps, shapes, EXTREME_ROTATION_SHAPES, EXTREME_POSITION_SHAPES)
    : adversarialSamples(r, N, J, fps, shapes);
  if (extreme && r() < 0.3) {
    // User keys at every frame of the root translation or of one joint.
    const j = Math.floor(r() * (J + 1)) - 1;
    for (let f = 0; f <= N; f++)
      if (j < 0) m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
      else m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
    shapes.push(j < 0 ? 'rootKey@every' : `key${j}@every`);
  }

  // Flags on the first, last and adjacent frames, and a few at random.
  const oddFrames = () => {
    const f = Math.floor(r() * (N + 1));
    return pick(r, [[0], [N], [0, 1], [N - 1, N], [f, Math.min(N, f + 1)], [f], [0, N]]);
  };
  const flagged: string[] = [];
  if (r() < 0.6)
    for (const f of oddFrames()) {
      m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
      flagged.push(`rootKey@${f}`);
    }
  if (r() < 0.5)
    for (const f of oddFrames()) {
      m.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
      flagged.push(`trace@${f}`);
    }
  for (let j = 0; j < J; j++)
    if (r() < 0.5)
      for (const f of oddFrames()) {
        m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
        flagged.push(`key${j}@${f}`);
      }
  if (r() < 0.5) {
    // Locks: one joint per frame at most.
    for (const f of oddFrames()) {
      let locked = false;
      for (let j = 0; j < J; j++) locked ||= (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.LOCK) !== 0;
      if (locked) continue;
      const j = Math.floor(r() * J);
      m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.LOCK;
      flagged.push(`lock${j}@${f}`);
    }
  }
  shapes.push(...flagged);

  const runs: AdversarialRun[] = [];
  for (let k = 0; k < 3; k++) {
    const [p, deg] = pick(r, ADVERSARIAL_TOLERANCES);
    const overrides: Record<number, number> = {};
    if (r() < 0.4) for (let j = 0; j < J; j++) if (r() < 0.5) overrides[j] = pick(r, OVERRIDES);
    const base: CompressOptions = {
      positionTolerance: p,
      rotationToleranceDeg: deg,
      offsetTolerance: p,
      name: `adv_${seed}`,
      rotationToleranceOverridesDeg: overrides,
    };
    const tag = `${p} u / ${deg} deg, overrides ${JSON.stringify(overrides)}`;
    runs.push({ label: `refined at ${tag}`, options: base });
    runs.push({ label: `classic at ${tag}`, options: { ...base, method: 'classic' } });
    // A budget build compresses at its tolerances times a ladder scale, overrides unscaled (docs/formats.md#budget).
    const step = Math.floor(r() * 2049);
    const s = budgetScale(step);
    runs.push({
      label: `budget step ${step} (x${s}) at ${tag}`,
      options: { ...base, positionTolerance: p * s, rotationToleranceDeg: deg * s, offsetTolerance: p * s },
    });
  }
  const objectTolerance = pick(r, [1e-3, 0.01, 0.1, 1, 50]);
  const [p, deg] = pick(r, ADVERSARIAL_TOLERANCES.slice(2));
  const overrides: Record<number, number> = {};
  if (r() < 0.4) overrides[Math.floor(r() * J)] = pick(r, OVERRIDES);
  const shell = r() < 0.3 ? pick(r, [1e-6, 1e-3, 1e3]) : undefined;
  runs.push({
    label: `skeleton-aware at ${objectTolerance} u (${p} u, overrides ${JSON.stringify(overrides)}, shell ${shell})`,
    options: {
      positionTolerance: p,
      rotationToleranceDeg: deg,
      offsetTolerance: p,
      name: `adv_${seed}`,
      objectTolerance,
      rotationToleranceOverridesDeg: overrides,
      ...(shell === undefined ? {} : { shell }),
      method: r() < 0.5 ? 'classic' : 'refined',
    },
  });
  return { seed, shape: shapes.join(' '), motion: m, runs };
}
