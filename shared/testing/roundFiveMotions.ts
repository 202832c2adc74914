/**
 * Round 5 of the held-out work (docs/compression.md#round-5-2026-12-05-motions-nobody-tuned-on): seeded motions that
 * are legal MTN but that no capture the compressor was tuned on looks like. A case is a function of its seed only:
 * 1, 2 or 3 frames or a few hundred; 29.97, 120, 23.976, 59.94 or 30 fps; a random tree or a deep chain (the
 * skeleton-aware mode's hardest lever); per joint one rotation shape (constant; the sign flipped every frame or every
 * other frame; neighbours 179-181 deg apart; a non-unit quaternion, length 1e-5 to 1e5, which the MTN stores as is
 * and every reader normalises before use, docs/formats.md 1; smooth; white noise); a root constant, smooth, or within
 * a few h16 steps of its largest magnitude; user keys on every frame, locks on the first and last frame, trace keys;
 * and the runs to make of it (refined, classic and skeleton-aware, at and below the precision floor and at the usual
 * tolerances). `wideMotion`, `deepChainMotion` and `longMotion` give the named extremes: the most joints the format
 * allows, a deep chain, and the most frames.
 */
import type { CompressOptions } from '../compress/types';
import { H16_MAX } from '../math/half';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { pick, randomAxis, type AdversarialCase, type AdversarialRun, type Rand } from './adversarialMotions';
import { axisAngle, quatProduct } from './quaternions';
import { seededRandom } from './random';
import { MTN_MAX_JOINTS } from '../mtn/constants';

export const ROUND_FIVE_FPS = [29.97, 120, 23.976, 59.94, 30] as const;

const ROTATIONS = ['constant', 'flip-every', 'flip-other', 'turn-179-181', 'non-unit', 'smooth', 'noise'] as const;
type RotationShape = (typeof ROTATIONS)[number];
const POSITIONS = ['constant', 'smooth', 'near-range', 'range-swing'] as const;
type PositionShape = (typeof POSITIONS)[number];

/** Tolerances (units, degrees): below the h16 / s12 floor, at it, a hair over s12's half step, the usual ones. */
const TOLERANCES: readonly (readonly [number, number])[] = [
  [0.001, 0.01],
  [0.003, 0.03],
  [0.005, 0.05],
  [0.01, 0.056],
  [0.05, 0.5],
  [0.5, 2],
];

/** A round-5 case has the adversarial generator's shape: its seed, what was chosen, the motion, the runs. */
export type RoundFiveRun = AdversarialRun;
export type RoundFiveCase = AdversarialCase;

function rotationTrack(shape: RotationShape, N: number, r: Rand): number[][] {
  const ax = randomAxis(r);
  const amp = pick(r, [2, 45, 120]);
  const w = 0.02 + r() * 0.3;
  const ph = r() * 6.28;
  const smooth = (f: number) => axisAngle(ax, amp * Math.sin(w * f + ph));
  const out: number[][] = [];
  for (let f = 0; f <= N; f++) {
    switch (shape) {
      case 'constant':
        out.push(f === 0 ? axisAngle(ax, r() * 360) : out[0]);
        break;
      case 'flip-every':
        out.push(smooth(f).map((c) => (f % 2 ? -c : c)));
        break;
      case 'flip-other':
        out.push(smooth(f).map((c) => (f % 4 >= 2 ? -c : c)));
        break;
      case 'turn-179-181': {
        // Neighbours 179 to 181 deg apart about one axis (181 is 179 the short way round).
        const prev = f === 0 ? [0, 0, 0, 1] : out[f - 1];
        out.push(f === 0 ? prev : quatProduct(prev, axisAngle(ax, pick(r, [179, 179.9, 180, 180.1, 181]))));
        break;
      }
      case 'non-unit': {
        const len = pick(r, [1e-5, 0.01, 0.5, 1, 2, 1e3, 1e5]) * (1 + r());
        out.push(smooth(f).map((c) => c * len));
        break;
      }
      case 'smooth':
        out.push(smooth(f));
        break;
      case 'noise': {
        const [u1, u2, u3] = [r(), r(), r()];
        const a = Math.sqrt(1 - u1),
          b = Math.sqrt(u1);
        out.push([
          a * Math.sin(2 * Math.PI * u2),
          a * Math.cos(2 * Math.PI * u2),
          b * Math.sin(2 * Math.PI * u3),
          b * Math.cos(2 * Math.PI * u3),
        ]);
        break;
      }
    }
  }
  return out;
}

function positionTrack(shape: PositionShape, N: number, r: Rand): number[][] {
  const c = [r() * 200 - 100, r() * 200, r() * 200 - 100];
  const w = 0.02 + r() * 0.3;
  const out: number[][] = [];
  for (let f = 0; f <= N; f++) {
    switch (shape) {
      case 'constant':
        out.push(c);
        break;
      case 'smooth':
        out.push(c.map((x, i) => x + 30 * Math.sin(w * f + i)));
        break;
      case 'near-range':
        // Within a few h16 steps (8192 units at the top) of the largest magnitude h16 stores.
        out.push([H16_MAX - 4096 * (1 + Math.sin(w * f)), -H16_MAX + 2048 * (f % 3), H16_MAX * Math.cos(w * f)]);
        break;
      case 'range-swing':
        out.push([(f % 2 ? 1 : -1) * (H16_MAX - 8192), H16_MAX * 0.5 * Math.sin(w * f), -H16_MAX]);
        break;
    }
  }
  return out;
}

/** Joints of a random tree (or a chain), named, with the given offsets length. */
function skeleton(J: number, chain: boolean, r: Rand): JointInfo[] {
  return Array.from({ length: J }, (_, j) => ({
    parent: j === 0 ? -1 : chain ? j - 1 : Math.floor(r() * j),
    mirror: j,
    part: 0,
    reserved: 0,
    name: `j${j}`,
  }));
}

/** Fills a motion's samples from the drawn shapes; `shapes` gets what was drawn. */
function fill(m: Motion, r: Rand, shapes: string[], rot: () => RotationShape, root: PositionShape): void {
  const N = m.frameCount,
    J = m.joints.length;
  shapes.push(`root:${root}`);
  positionTrack(root, N, r).forEach((p, f) => m.translation.set([p[0], p[1], p[2], 0], f * 4));
  for (let j = 0; j < J; j++) {
    const s = rot();
    if (j < 6) shapes.push(`j${j}:${s}`);
    rotationTrack(s, N, r).forEach((q, f) => m.rotation.set(q, (f * J + j) * 4));
    // Offsets: a bone length of 1-20 units, animated (OFFSETS) when the motion says so.
    const len = 1 + r() * 19;
    for (let f = 0; f <= N; f++) {
      const stretch = m.flags & MotionFlag.OFFSETS ? 1 + 0.2 * Math.sin(0.1 * f + j) : 1;
      m.offset.set([0, j === 0 ? 0 : len * stretch, 0, 0], (f * J + j) * 4);
    }
  }
}

/** User keys on every frame of some channels, locks on the first and last frame, trace keys. */
function flags(m: Motion, r: Rand, shapes: string[]): void {
  const N = m.frameCount,
    J = m.joints.length;
  if (r() < 0.35) {
    const every = r() < 0.5;
    shapes.push(every ? 'keys:every channel every frame' : 'keys:one channel every frame');
    const j0 = Math.floor(r() * J);
    for (let f = 0; f <= N; f++) {
      if (every) m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
      for (let j = 0; j < J; j++) if (every || j === j0) m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
    }
  }
  if (r() < 0.5) {
    // At most one joint locked per frame (docs/formats.md 1).
    const a = Math.floor(r() * J),
      b = Math.floor(r() * J);
    m.jointKeyInfo[a * 4] |= KeyFlag.LOCK;
    m.jointKeyInfo[(N * J + b) * 4] |= KeyFlag.LOCK;
    shapes.push(`locks:${a}@0,${b}@${N}`);
  }
  if (r() < 0.5) {
    const at = pick(r, [0, N, Math.floor(r() * (N + 1))]);
    m.translationKeyInfo[at * 4] |= KeyFlag.TRACE;
    m.translationKeyInfo[N * 4] |= KeyFlag.TRACE;
    shapes.push(`trace:${at},${N}`);
  }
}

/** The runs of a case: refined and classic at two tolerance pairs, skeleton-aware at a bound drawn around the floor. */
function runsOf(r: Rand, name: string): RoundFiveRun[] {
  const runs: RoundFiveRun[] = [];
  for (let k = 0; k < 2; k++) {
    const [p, d] = pick(r, TOLERANCES);
    const base: CompressOptions = { name, positionTolerance: p, rotationToleranceDeg: d, offsetTolerance: p };
    if (r() < 0.25) base.rotationToleranceOverridesDeg = { 0: pick(r, [0.01, 0.05, 5]) };
    runs.push({ label: `refined at ${p} u / ${d} deg`, options: base });
    runs.push({ label: `classic at ${p} u / ${d} deg`, options: { ...base, method: 'classic' } });
  }
  const objectTolerance = pick(r, [0.005, 0.05, 0.5, 5]);
  runs.push({
    label: `skeleton-aware at ${objectTolerance} u`,
    options: {
      name,
      positionTolerance: objectTolerance,
      rotationToleranceDeg: 0.5,
      offsetTolerance: objectTolerance,
      objectTolerance,
      method: r() < 0.5 ? 'classic' : 'refined',
    },
  });
  return runs;
}

/** The motion and runs of one seed. */
export function roundFiveCase(seed: number): RoundFiveCase {
  const r = seededRandom(seed * 7919 + 5);
  const N = pick(r, [1, 1, 2, 2, 3, 3, 17, 120, 255, 256, 300]);
  const fps = pick(r, ROUND_FIVE_FPS);
  const chain = r() < 0.3;
  const J = chain ? 4 + Math.floor(r() * 21) : 1 + Math.floor(r() * 6);
  const m = emptyMotion(N, skeleton(J, chain, r), fps);
  if (r() < 0.4) m.flags |= MotionFlag.OFFSETS;
  const shapes: string[] = [`N=${N}`, `${fps} fps`, `J=${J}${chain ? ' chain' : ''}`];
  if (m.flags & MotionFlag.OFFSETS) shapes.push('offsets');
  const oneShape = r() < 0.3 ? pick(r, ROTATIONS) : undefined;
  fill(m, r, shapes, () => oneShape ?? pick(r, ROTATIONS), pick(r, POSITIONS));
  flags(m, r, shapes);
  return { seed, shape: shapes.join(' '), motion: m, runs: runsOf(r, `round5_${seed}`) };
}

/** The most joints the format allows (1024, a random tree), of `N` frames, every shape in turn. */
export function wideMotion(N: number, seed = 1): Motion {
  const r = seededRandom(seed);
  const m = emptyMotion(N, skeleton(MTN_MAX_JOINTS, false, r), 30);
  let k = 0;
  fill(m, r, [], () => ROTATIONS[k++ % ROTATIONS.length], 'smooth');
  m.jointKeyInfo[0] |= KeyFlag.LOCK;
  m.jointKeyInfo[(N * MTN_MAX_JOINTS + MTN_MAX_JOINTS - 1) * 4] |= KeyFlag.LOCK;
  return m;
}

/** A chain of `J` joints (each the child of the last) swinging smoothly, the sign of every other joint flipped. */
export function deepChainMotion(N: number, J: number, fps = 120, seed = 2): Motion {
  const r = seededRandom(seed);
  const m = emptyMotion(N, skeleton(J, true, r), fps);
  let k = 0;
  fill(m, r, [], () => (k++ % 2 ? 'flip-every' : 'smooth'), 'smooth');
  return m;
}

/**
 * `N` frames (up to 65,535) of three joints: one smooth, one whose sign flips every frame, one turning 179-181 deg a
 * frame; the root near h16's range; locks on the first and last frame and a trace key on the last.
 */
export function longMotion(N: number, fps = 120, seed = 3): Motion {
  const r = seededRandom(seed);
  const m = emptyMotion(N, skeleton(3, true, r), fps);
  const order: RotationShape[] = ['smooth', 'flip-every', 'turn-179-181'];
  let k = 0;
  fill(m, r, [], () => order[k++], 'near-range');
  m.jointKeyInfo[0] |= KeyFlag.LOCK;
  m.jointKeyInfo[(N * 3 + 2) * 4] |= KeyFlag.LOCK;
  m.translationKeyInfo[N * 4] |= KeyFlag.TRACE;
  return m;
}
