/**
 * Round 9 (docs/compression.md#round-9-the-seams): seeded motions at the compressor's seams, each a function of its
 * seed. A seam is a shape the bundled captures do not have: 1, 2 or 3 frames; every channel constant; the sign of
 * every rotation flipped each frame (q, -q); a 180-degree turn in one frame; translations and offsets at the edge of
 * what h16 stores (8,384,512, and values that round down to it); denormal floats and -0; user keys on the first and
 * last frame; a lock on every frame; a trace key on every frame. The runs of a case are drawn around the motion's own
 * precision floor (at it, below it, 0), the usual tolerances and a huge one (1e30), with per-joint overrides at the
 * floor and at 0, in the classic, refined and skeleton-aware modes. `seamRefusals` lists motions and options the
 * compressor must refuse, each with the place its error must name.
 */
import type { CompressOptions } from '../compress/types';
import { defaultShell } from '../compress/objectError';
import { precisionFloor } from '../compress/unreachable';
import { H16_MAX } from '../math/half';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { pick, randomAxis, type AdversarialRun, type Rand } from './adversarialMotions';
import { axisAngle, quatProduct, setRotation } from './quaternions';
import { seededRandom } from './random';

export const SEAM_SHAPES = [
  'frames-1',
  'frames-2',
  'frames-3',
  'all-constant',
  'flip-every-frame',
  'half-turn-one-frame',
  'h16-edge',
  'denormal-negative-zero',
  'user-keys-first-last',
  'lock-every-frame',
  'trace-every-frame',
] as const;
export type SeamShape = (typeof SEAM_SHAPES)[number];

/** The largest float32 denormal magnitudes and the smallest: what a float32 MTN holds below its normal range. */
const DENORMALS = [1.1754942e-38, 1e-40, 1e-44, 1.4e-45];
/** A value above H16_MAX that h16 still stores (it rounds down to H16_MAX: half of the top step is 2,048 units). */
const H16_ROUNDS_DOWN = H16_MAX + 2047;
/** The smallest magnitude h16 cannot store: 65,520 x 128 rounds (to even) up to 65,536 x 128, past binary16. */
const H16_PAST = 65520 * 128;

export interface SeamCase {
  seed: number;
  shape: SeamShape;
  /** What was drawn, for the failure message. */
  label: string;
  motion: Motion;
  runs: AdversarialRun[];
}

function skeleton(J: number, r: Rand): JointInfo[] {
  return Array.from({ length: J }, (_, j) => ({
    parent: j === 0 ? -1 : Math.floor(r() * j),
    mirror: j,
    part: 0,
    reserved: 0,
    name: `s${j}`,
  }));
}

/** Smooth content on every channel: the background each seam is put into. */
function smoothMotion(N: number, J: number, r: Rand, offsets: boolean): Motion {
  const m = emptyMotion(N, skeleton(J, r), pick(r, [30, 60, 120, 29.97]));
  if (offsets) m.flags |= MotionFlag.OFFSETS;
  const c = [r() * 200 - 100, r() * 100, r() * 200 - 100];
  const w = 0.05 + r() * 0.3;
  const axes = Array.from({ length: J }, () => randomAxis(r));
  const amp = Array.from({ length: J }, () => pick(r, [5, 40, 120]));
  const len = Array.from({ length: J }, (_, j) => (j === 0 ? 0 : 2 + r() * 18));
  for (let f = 0; f <= N; f++) {
    m.translation.set([c[0] + 20 * Math.sin(w * f), c[1], c[2] + 3 * f, 0], f * 4);
    for (let j = 0; j < J; j++) {
      setRotation(m, f, j, axisAngle(axes[j], amp[j] * Math.sin(w * f + j)));
      const stretch = offsets ? 1 + 0.1 * Math.sin(w * f + 2 * j) : 1;
      m.offset.set([0, len[j] * stretch, 0, 0], (f * J + j) * 4);
    }
  }
  return m;
}

/** Puts the seam into a motion of `N` frames and `J` joints. */
function seamMotion(shape: SeamShape, r: Rand): Motion {
  const offsets = r() < 0.5;
  const J = 1 + Math.floor(r() * 5);
  const N =
    shape === 'frames-1'
      ? 1
      : shape === 'frames-2'
        ? 2
        : shape === 'frames-3'
          ? 3
          : pick(r, [4, 17, 64, 255, 256, 300]);
  const m = smoothMotion(N, J, r, offsets);
  const S = N + 1;
  const at = (f: number, j: number) => (f * J + j) * 4;
  switch (shape) {
    case 'frames-1':
    case 'frames-2':
    case 'frames-3':
      // The shortest motions also get a lock and a trace key on their last frame.
      m.jointKeyInfo[at(N, J - 1)] |= KeyFlag.LOCK;
      m.translationKeyInfo[N * 4] |= KeyFlag.TRACE;
      break;
    case 'all-constant':
      for (let f = 1; f < S; f++) {
        m.translation.copyWithin(f * 4, 0, 4);
        m.rotation.copyWithin(at(f, 0), 0, J * 4);
        m.offset.copyWithin(at(f, 0), 0, J * 4);
      }
      break;
    case 'flip-every-frame':
      for (let f = 1; f < S; f += 2) for (let i = at(f, 0); i < at(f + 1, 0); i++) m.rotation[i] = -m.rotation[i];
      break;
    case 'half-turn-one-frame': {
      // From frame k on, a joint (and with it every frame after) is turned 180 degrees about an axis: two
      // neighbours exactly half a turn apart, q and q * (axis, 180) with w = 0 relative to each other.
      const k = 1 + Math.floor(r() * N);
      const j = Math.floor(r() * J);
      const turn = axisAngle(randomAxis(r), 180);
      for (let f = k; f < S; f++)
        setRotation(m, f, j, quatProduct(Array.from(m.rotation.subarray(at(f, j), at(f, j) + 4)), turn));
      break;
    }
    case 'h16-edge':
      // The root at the largest magnitude h16 stores, jumping from one end to the other (the velocity a key stores
      // is clamped there), and values just above it that round down to it; offsets likewise with OFFSETS.
      for (let f = 0; f < S; f++) {
        const side = f % 2 ? 1 : -1;
        m.translation.set(
          [side * H16_MAX, f % 3 === 0 ? H16_ROUNDS_DOWN : -H16_MAX, H16_MAX * Math.cos(f / 7), 0],
          f * 4,
        );
        for (let j = 0; j < J; j++) m.offset.set([j === 0 ? 0 : -H16_ROUNDS_DOWN, H16_MAX * side, 0, 0], at(f, j));
      }
      break;
    case 'denormal-negative-zero':
      for (let f = 0; f < S; f++) {
        const d = pick(r, DENORMALS);
        m.translation.set([f % 2 ? -0 : d, -d, -0, 0], f * 4);
        for (let j = 0; j < J; j++) {
          // The identity as (-0, -0, -0, -1) and as (denormal, -0, denormal, 1).
          m.rotation.set(f % 2 ? [-0, -0, -0, -1] : [d, -0, pick(r, DENORMALS), 1], at(f, j));
          m.offset.set([-0, j === 0 ? -0 : d, -d, 0], at(f, j));
        }
      }
      break;
    case 'user-keys-first-last':
      for (const f of [0, N]) {
        m.translationKeyInfo[f * 4] |= KeyFlag.KEY | KeyFlag.TRACE;
        for (let j = 0; j < J; j++) m.jointKeyInfo[at(f, j)] |= KeyFlag.KEY;
      }
      m.jointKeyInfo[at(0, 0)] |= KeyFlag.LOCK;
      m.jointKeyInfo[at(N, J - 1)] |= KeyFlag.LOCK;
      break;
    case 'lock-every-frame': {
      // One joint locked on every frame, changing joint in runs of 1-4 frames (a fix entry per run).
      let j = 0;
      for (let f = 0; f < S; f++) {
        if (f % (1 + Math.floor(r() * 4)) === 0) j = Math.floor(r() * J);
        m.jointKeyInfo[at(f, j)] |= KeyFlag.LOCK;
      }
      break;
    }
    case 'trace-every-frame':
      for (let f = 0; f < S; f++) m.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
      break;
  }
  return m;
}

/** Tolerances (units, degrees) against the motion's own floor: at it, below it, 0, usual, huge. */
function toleranceChoices(m: Motion): { label: string; p: number; d: number }[] {
  const fl = precisionFloor(m);
  const p = Math.max(fl.position, fl.offset ?? 0);
  return [
    { label: 'at the floor', p, d: fl.rotationDeg },
    { label: 'half the floor', p: p / 2, d: fl.rotationDeg / 2 },
    { label: 'zero', p: 0, d: 0 },
    { label: 'usual', p: 0.05, d: 0.5 },
    { label: 'huge', p: 1e30, d: 1e30 },
  ];
}

function runsOf(m: Motion, r: Rand, name: string): AdversarialRun[] {
  const runs: AdversarialRun[] = [];
  const choices = toleranceChoices(m);
  const fl = precisionFloor(m, defaultShell(m));
  const J = m.joints.length;
  for (let k = 0; k < 2; k++) {
    const t = pick(r, choices);
    const o: CompressOptions = { name, positionTolerance: t.p, rotationToleranceDeg: t.d, offsetTolerance: t.p };
    let label = t.label;
    const ov = r();
    if (ov < 0.5) {
      const j = Math.floor(r() * J);
      const v = ov < 0.25 ? 0 : fl.rotationDeg;
      o.rotationToleranceOverridesDeg = { [j]: v };
      label += `, joint ${j} overridden to ${ov < 0.25 ? '0' : 'the floor'}`;
    }
    runs.push({ label: `refined ${label}`, options: o });
    runs.push({ label: `classic ${label}`, options: { ...o, method: 'classic' } });
  }
  const object = pick(r, [
    { label: 'the object floor', v: fl.object! },
    { label: 'half the object floor', v: fl.object! / 2 },
    { label: '0.5', v: 0.5 },
    { label: '1e30', v: 1e30 },
  ]);
  // A motion whose rounding is exact everywhere has an object floor of 0, which no bound may be (it must be > 0).
  const v = object.v > 0 ? object.v : 1e-9;
  const method = r() < 0.5 ? ('classic' as const) : ('refined' as const);
  runs.push({
    label: `skeleton-aware ${method} at ${object.label} (${v})`,
    options: {
      name,
      positionTolerance: 0.5,
      rotationToleranceDeg: 0.5,
      offsetTolerance: 0.5,
      objectTolerance: v,
      method,
    },
  });
  return runs;
}

/** The case of one seed: shape `seed mod` the shapes, the rest drawn from the seed. */
export function seamCase(seed: number): SeamCase {
  const r = seededRandom(seed * 104729 + 17);
  const shape = SEAM_SHAPES[seed % SEAM_SHAPES.length];
  const motion = seamMotion(shape, r);
  const J = motion.joints.length;
  const label = `${shape} N=${motion.frameCount} J=${J}${motion.flags & MotionFlag.OFFSETS ? ' offsets' : ''} ${motion.fps} fps`;
  return { seed, shape, label, motion, runs: runsOf(motion, r, `seam_${seed}`) };
}

/** 65,535 frames of one constant pose (the most frames an MTN holds). */
export function constantPoseMotion(N = 65535, J = 3): Motion {
  const r = seededRandom(9);
  const m = smoothMotion(1, J, r, true);
  const long = emptyMotion(N, m.joints, 30);
  long.flags = m.flags;
  for (let f = 0; f <= N; f++) {
    long.translation.set(m.translation.subarray(0, 4), f * 4);
    long.rotation.set(m.rotation.subarray(0, J * 4), f * J * 4);
    long.offset.set(m.offset.subarray(0, J * 4), f * J * 4);
  }
  return long;
}

/**
 * A motion without OFFSETS whose offsets move anyway (legal MTN: the offsets are stored for every frame, docs/formats.md
 * 1): the MT3 holds none, so the decoder's frame-0 offsets are off by the drift on every frame.
 */
export function driftingOffsetsMotion(N = 120, J = 4): Motion {
  const m = smoothMotion(N, J, seededRandom(13), false);
  for (let f = 0; f <= N; f++) m.offset[(f * J + J - 1) * 4] += 2 * Math.sin(f / 10);
  return m;
}

export interface SeamRefusal {
  label: string;
  motion: Motion;
  options?: Partial<CompressOptions>;
  /** The place the FormatError must name (its `where`), and words its message must hold. */
  where: string;
  says: string;
}

/** Motions and options the compressor must refuse, each with the place and words of its error. */
export function seamRefusals(): SeamRefusal[] {
  const out: SeamRefusal[] = [];
  const refuse = (label: string, motion: Motion, where: string, says: string, options?: Partial<CompressOptions>) =>
    out.push({ label, motion, where, says, ...(options ? { options } : {}) });
  const base = (offsets = false) => smoothMotion(40, 3, seededRandom(11), offsets);
  const huge = { positionTolerance: 1e30, rotationToleranceDeg: 1e30, offsetTolerance: 1e30 };
  const m1 = base();
  m1.translation[17 * 4 + 1] = NaN;
  refuse('NaN in the root translation', m1, 'translation frame 17', 'not finite');
  const m2 = base();
  m2.rotation[(23 * 3 + 2) * 4 + 3] = Infinity;
  refuse('Infinity in a rotation', m2, 'rotation frame 23 joint 2', 'not finite');
  const m3 = base(true);
  m3.offset[(40 * 3 + 1) * 4] = -Infinity;
  refuse('-Infinity in an offset', m3, 'offset frame 40 joint 1', 'not finite');
  const m4 = base();
  m4.rotation.set([1e-40, -1e-42, 0, -0], (5 * 3 + 1) * 4);
  refuse('a quaternion of denormals', m4, 'rotation frame 5 joint 1', 'too close to zero');
  for (const [label, opts] of [
    ['usual tolerances', {}],
    ['huge tolerances', huge],
  ] as const) {
    // Past h16 on a frame that no tolerance makes a key (the middle of a segment at 1e30): the format cannot hold
    // the motion, whatever its tolerances, so the motion is refused rather than stored as something else.
    const m = base();
    m.translation[20 * 4 + 2] = H16_PAST;
    refuse(`a root past h16's range, ${label}`, m, 'translation frame 20', 'too large for h16', opts);
    const o = base(true);
    o.offset[(19 * 3 + 2) * 4] = -H16_PAST;
    refuse(`an offset past h16's range, ${label}`, o, 'offset joint 2 frame 19', 'too large for h16', opts);
  }
  const m5 = base();
  m5.translationKeyInfo[7 * 4] |= KeyFlag.TRACE;
  m5.translation[7 * 4] = -2 * H16_MAX;
  refuse('a trace key past h16', m5, 'translation frame 7', 'too large for h16', huge);
  // A user key beyond the last frame: key info of one frame more than the motion has, a KEY flag there.
  for (const [label, field, at, where] of [
    ['a root key', 'translationKeyInfo', 41, 'translation key info frame 41'],
    ['a joint key', 'jointKeyInfo', 41 * 3 + 2, 'joint key info frame 41 joint 2'],
  ] as const) {
    const m = base();
    const info = new Uint32Array((at + 1) * 4);
    info.set(m[field]);
    info[at * 4] = KeyFlag.KEY;
    m[field] = info;
    refuse(`${label} beyond the last frame`, m, where, 'beyond the last frame 40');
  }
  const m6 = base();
  m6.jointKeyInfo[(12 * 3 + 0) * 4] |= KeyFlag.LOCK;
  m6.jointKeyInfo[(12 * 3 + 2) * 4] |= KeyFlag.LOCK;
  refuse('two locks on one frame', m6, 'joint key info frame 12 joint 2', 'two joints locked on one frame');
  for (const [name, v] of [
    ['positionTolerance', NaN],
    ['rotationToleranceDeg', -1],
    ['offsetTolerance', Infinity],
    ['objectTolerance', 0],
  ] as const)
    refuse(`${name} ${v}`, base(), 'compression options', 'must be a finite number', { [name]: v });
  const overrides = { rotationToleranceOverridesDeg: { 1: -0.5 } };
  refuse('an override of -0.5', base(), 'compression options', 'rotation tolerance override of joint 1', overrides);
  return out;
}

/** A smooth motion with a user key on every frame of every channel (round 10's budget build: no scale moves a key). */
export function userKeysEverywhereMotion(N = 60, J = 3): Motion {
  const m = smoothMotion(N, J, seededRandom(21), true);
  for (let f = 0; f <= N; f++) {
    m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
    for (let j = 0; j < J; j++) m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
  }
  return m;
}
