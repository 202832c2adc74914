/**
 * Hostile-but-valid motions and BVH files (docs/testing.md#hostile-motions): the shapes of capture data the
 * bundled captures never show (quaternion sign flips, half turns in one frame, gimbal lock, teleports, huge and
 * tiny translations, every BVH channel order, one and two frames, CRLF and tabs, 240 fps, user keys and flags on
 * the first and last frames). Deterministic: a case is a function of its name. Used by
 * electron/compress/hostileMotions.test.ts (compressor and CLI) and by `npm run fuzz -- --format hostile`.
 */
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { independentChannel, independentErrors } from './independentDecode';
import type { CompressResult } from '../compress/types';
import { seededRandom } from './random';
import { axisAngle, setRotation } from './quaternions';

/** The six BVH rotation orders. */
export const BVH_ORDERS = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX'] as const;

export interface BvhSpecJoint {
  name: string;
  parent: number;
  offset: [number, number, number];
  /** Channel names in file order (e.g. Zrotation Xrotation Yrotation). */
  channels: string[];
  /** Adds an End Site under this joint. */
  endSite?: boolean;
}

export interface BvhSpec {
  joints: BvhSpecJoint[];
  frames: number;
  frameTime: number;
  /** Value of channel `c` (index in the joint's list) of joint `j` at frame `f`. */
  value: (f: number, j: number, c: number, channel: string) => number;
  /** Line ending ('\n' or '\r\n') and the separator between tokens (' ', '\t', '  \t ' ...). */
  eol?: string;
  sep?: string;
  /** Indentation per nesting level. */
  indent?: string;
}

/** BVH text from a spec: the hierarchy nested by parent, End Sites, then one line per frame. */
export function bvhText(spec: BvhSpec): string {
  const eol = spec.eol ?? '\n';
  const sep = spec.sep ?? ' ';
  const ind = spec.indent ?? '  ';
  const out: string[] = ['HIERARCHY'];
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toPrecision(9));
  const emit = (j: number, depth: number) => {
    const jt = spec.joints[j];
    const pad = ind.repeat(depth);
    out.push(`${pad}${j === 0 ? 'ROOT' : 'JOINT'}${sep}${jt.name}`, `${pad}{`);
    out.push(`${pad}${ind}OFFSET${sep}${jt.offset.map(fmt).join(sep)}`);
    out.push(`${pad}${ind}CHANNELS${sep}${jt.channels.length}${sep}${jt.channels.join(sep)}`);
    spec.joints.forEach((c, k) => {
      if (c.parent === j) emit(k, depth + 1);
    });
    if (jt.endSite)
      out.push(`${pad}${ind}End Site`, `${pad}${ind}{`, `${pad}${ind}${ind}OFFSET 0 1 0`, `${pad}${ind}}`);
    out.push(`${pad}}`);
  };
  emit(0, 0);
  // Joints are written depth first, so the frame values follow the order in which emit visits them.
  const order: number[] = [];
  const visit = (j: number) => {
    order.push(j);
    spec.joints.forEach((c, k) => {
      if (c.parent === j) visit(k);
    });
  };
  visit(0);
  out.push('MOTION', `Frames:${sep}${spec.frames}`, `Frame Time:${sep}${spec.frameTime}`);
  for (let f = 0; f < spec.frames; f++) {
    const row: string[] = [];
    for (const j of order) spec.joints[j].channels.forEach((ch, c) => row.push(fmt(spec.value(f, j, c, ch))));
    out.push(row.join(sep));
  }
  return out.join(eol) + eol;
}

const ROT = (order: string) => order.split('').map((a) => `${a}rotation`);
const POS = ['Xposition', 'Yposition', 'Zposition'];

/** A chain root + one joint per rotation order, each with all six channels (position first, then its order). */
function chainSpec(frames: number, frameTime: number, value: BvhSpec['value'], extra: Partial<BvhSpec> = {}): BvhSpec {
  const joints: BvhSpecJoint[] = [{ name: 'Hips', parent: -1, offset: [0, 0, 0], channels: [...POS, ...ROT('ZXY')] }];
  BVH_ORDERS.forEach((o, i) =>
    joints.push({
      name: `Joint_${o}`,
      parent: i,
      offset: [0, 10, 0],
      channels: i % 2 ? [...ROT(o), ...POS] : [...POS, ...ROT(o)],
      endSite: i === BVH_ORDERS.length - 1,
    }),
  );
  return { joints, frames, frameTime, value, ...extra };
}

/** A smooth value per channel (a few sinusoids), seeded by the channel. */
function smooth(seed: number, amp: number): (f: number) => number {
  const r = seededRandom(seed);
  const terms = Array.from({ length: 3 }, () => ({ a: amp * r(), w: 0.02 + r() * 0.2, p: r() * 6.28 }));
  return (f) => terms.reduce((s, t) => s + t.a * Math.sin(t.w * f + t.p), 0);
}

function channelWaves(amp: { pos: number; rot: number }): BvhSpec['value'] {
  const cache = new Map<string, (f: number) => number>();
  return (f, j, c, ch) => {
    const key = `${j}:${c}`;
    let w = cache.get(key);
    if (!w) cache.set(key, (w = smooth(j * 31 + c + 1, ch.endsWith('position') ? amp.pos : amp.rot)));
    return w(f);
  };
}

export interface HostileBvh {
  name: string;
  text: string;
  /** Import rate (default 30). */
  fps?: number;
}

/** The hostile BVH files: each valid, each unlike the bundled captures. */
export function hostileBvhCases(): HostileBvh[] {
  const waves = channelWaves({ pos: 2, rot: 60 });
  const cases: HostileBvh[] = [];
  cases.push({ name: 'all-orders-six-channels', text: bvhText(chainSpec(90, 1 / 30, waves)) });
  cases.push({
    name: 'crlf-tabs-whitespace',
    text: bvhText(chainSpec(40, 1 / 30, waves, { eol: '\r\n', sep: ' \t  ', indent: '\t' })),
  });
  // Gimbal lock: the middle angle of every order at exactly +-90 degrees while the outer ones spin.
  cases.push({
    name: 'gimbal-lock',
    text: bvhText(
      chainSpec(60, 1 / 30, (f, j, c, ch) =>
        ch.endsWith('position') ? 0 : c % 3 === 1 || (j > 0 && j % 2 === 1 && c === 1) ? (f < 30 ? 90 : -90) : f * 7,
      ),
    ),
  });
  // A half turn in one frame (and angles that wrap from 179 to -179).
  cases.push({
    name: 'half-turn-in-one-frame',
    text: bvhText(
      chainSpec(40, 1 / 30, (f, j, c, ch) =>
        ch.endsWith('position') ? 0 : j === 0 && ch === 'Yrotation' ? (f < 20 ? 0 : 180) : j === 1 ? 170 + f : 0,
      ),
    ),
  });
  // Negative, so no position channel sits at its OFFSET (0 10 0): that would be a local position (bvhLocalPositionJoints).
  cases.push({ name: 'constant', text: bvhText(chainSpec(50, 1 / 30, (_f, j, c) => -(j * 3 + c))) });
  cases.push({ name: 'single-frame', text: bvhText(chainSpec(1, 1 / 30, waves)) });
  cases.push({ name: 'two-frames', text: bvhText(chainSpec(2, 1 / 30, waves)) });
  cases.push({
    name: 'teleport',
    text: bvhText(
      chainSpec(60, 1 / 30, (f, j, c, ch) =>
        j === 0 && ch === 'Xposition' ? (f < 30 ? f : 5000 + f) : ch.endsWith('position') ? 0 : waves(f, j, c, ch),
      ),
    ),
  });
  cases.push({
    name: 'huge-translations',
    text: bvhText(
      chainSpec(60, 1 / 30, (f, j, c, ch) =>
        ch.endsWith('position') ? 1e5 + 300 * Math.sin(f / 9 + c) : waves(f, j, c, ch),
      ),
    ),
  });
  cases.push({
    name: 'tiny-translations',
    text: bvhText(
      chainSpec(60, 1 / 30, (f, j, c, ch) =>
        ch.endsWith('position') ? 1e-6 * Math.sin(f / 5 + c) : 1e-4 * Math.sin(f / 7 + c),
      ),
    ),
  });
  cases.push({ name: '240fps-at-30', text: bvhText(chainSpec(480, 1 / 240, waves)) });
  cases.push({ name: '240fps-at-240', text: bvhText(chainSpec(480, 1 / 240, waves)), fps: 240 });
  return cases;
}

/** A long BVH: `frames` frames of the chain (the linear-time check). */
export function longBvh(frames: number): string {
  return bvhText(chainSpec(frames, 1 / 30, channelWaves({ pos: 2, rot: 60 })));
}

function joints(J: number): JointInfo[] {
  return Array.from({ length: J }, (_, j) => ({
    parent: j - 1,
    mirror: j,
    part: 0,
    reserved: 0,
    name: `joint_${j}`,
  }));
}

export interface HostileMotion {
  name: string;
  motion: Motion;
}

/** Hostile motions built directly (what an MTN can hold and a BVH import never makes: sign flips, flags). */
export function hostileMotionCases(): HostileMotion[] {
  const out: HostileMotion[] = [];
  const base = (N: number, J: number, fps = 30) => {
    const m = emptyMotion(N, joints(J), fps);
    for (let f = 0; f <= N; f++) {
      m.translation.set([Math.sin(f / 10) * 20, 90, f * 2, 0], f * 4);
      for (let j = 0; j < J; j++) setRotation(m, f, j, axisAngle([1, j, 2], 40 * Math.sin(f / 8 + j)));
    }
    return m;
  };
  // q and -q alternating between frames: the same rotation, every sample with the opposite sign.
  {
    const m = base(60, 4);
    for (let f = 1; f <= 60; f += 2)
      for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) m.rotation[(f * 4 + j) * 4 + k] *= -1;
    out.push({ name: 'sign-flips', motion: m });
  }
  // A half turn in one frame as quaternions: identity then exactly opposite (w = 0), and back.
  {
    const m = base(40, 3);
    for (let f = 0; f <= 40; f++) setRotation(m, f, 1, f < 20 ? [0, 0, 0, 1] : [0, 1, 0, 0]);
    for (let f = 0; f <= 40; f++) setRotation(m, f, 2, axisAngle([0, 0, 1], f % 2 ? 179.9 : -179.9));
    out.push({ name: 'half-turn-quaternions', motion: m });
  }
  // User keys, locks and trace keys on the first and last frames, offsets animated.
  {
    const N = 50,
      J = 4;
    const m = base(N, J);
    m.flags |= MotionFlag.OFFSETS;
    for (let f = 0; f <= N; f++)
      for (let j = 1; j < J; j++) m.offset.set([Math.sin(f / 6 + j), 10, 0, 0], (f * J + j) * 4);
    for (const f of [0, N]) {
      m.translationKeyInfo[f * 4] |= KeyFlag.KEY | KeyFlag.TRACE;
      for (let j = 0; j < J; j++) m.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.KEY;
    }
    m.jointKeyInfo[(0 * J + 2) * 4] |= KeyFlag.LOCK;
    m.jointKeyInfo[(N * J + 3) * 4] |= KeyFlag.LOCK;
    m.translationKeyInfo[1 * 4] |= KeyFlag.TRACE;
    m.translationKeyInfo[(N - 1) * 4] |= KeyFlag.TRACE;
    out.push({ name: 'flags-first-last', motion: m });
  }
  // One frame pair only (frames 0 and 1), with a user key on both.
  {
    const m = base(1, 2);
    m.translationKeyInfo[4] |= KeyFlag.KEY;
    m.jointKeyInfo[(1 * 2 + 1) * 4] |= KeyFlag.KEY | KeyFlag.LOCK;
    out.push({ name: 'one-frame-pair', motion: m });
  }
  // Noise at the h16 step of a huge position: every frame a different rounding.
  {
    const m = base(80, 2);
    const r = seededRandom(5);
    for (let f = 0; f <= 80; f++) m.translation.set([1e5 + r() * 50, -1e5, 1e5 * Math.sin(f / 30), 0], f * 4);
    out.push({ name: 'huge-noisy', motion: m });
  }
  return out;
}

/**
 * What breaks the compressor's promise (docs/compression.md#the-guarantee) in a result, decoded independently
 * from its bytes: a frame that is not a key of its channel over tolerance, a user key not written, a key over
 * tolerance not named by a warning, a NaN error. Empty when the result keeps it.
 */
export function guaranteeViolations(m: Motion, r: CompressResult): string[] {
  const bad: string[] = [];
  const ind = independentErrors(m, r.bytes);
  for (const ch of r.channels) {
    const track = independentChannel(ind, ch.kind, ch.joint);
    const where = `${ch.kind} ${ch.joint}`;
    if (!track) {
      bad.push(`${where}: no track in the written file`);
      continue;
    }
    const errs = track.errors;
    const written = new Set(track.frames);
    const J = m.joints.length;
    for (let f = 0; f <= m.frameCount; f++) {
      const flags = ch.kind === 'translation' ? m.translationKeyInfo[f * 4] : m.jointKeyInfo[(f * J + ch.joint) * 4];
      if (flags & KeyFlag.KEY && !written.has(f)) bad.push(`${where}: user key ${f} is not a key of the file`);
    }
    const over: number[] = [];
    for (let t = 0; t <= m.frameCount; t++) {
      if (!(errs[t] <= ch.tolerance + 1e-9)) {
        if (Number.isNaN(errs[t])) bad.push(`${where}: frame ${t} decodes to NaN`);
        else if (!written.has(t))
          bad.push(`${where}: frame ${t} is not a key and has error ${errs[t]} over ${ch.tolerance}`);
        else over.push(t);
      }
    }
    if (!Number.isFinite(ch.maxError)) bad.push(`${where}: reported max error ${ch.maxError}`);
    if (over.length === 0) continue;
    const w = r.warnings.find((x) => x.kind === ch.kind && x.joint === ch.joint);
    if (!w) bad.push(`${where}: keys ${over.join(', ')} over tolerance without a warning`);
    else {
      // The warning names exactly the keys over the tolerance. The compressor compares an error with the
      // tolerance exactly, this check with 1e-9 to spare (rounding in the independent decoder): a key over the
      // tolerance by less than that (4.7e-10 over a tolerance of 0, an h16 value's rounding) may be named or not.
      // Sets, not Array.includes: a 65,535-frame channel whose every key is over its tolerance stays linear.
      const named = new Set(w.keyFrames);
      const overSet = new Set(over);
      const band = (t: number) => errs[t] > ch.tolerance && errs[t] <= ch.tolerance + 1e-9;
      const missing = over.filter((t) => !named.has(t));
      const extra = w.keyFrames.filter((t) => !overSet.has(t) && !(written.has(t) && band(t)));
      if (missing.length || extra.length) bad.push(`${where}: warning names ${w.keyFrames.join()} not ${over.join()}`);
    }
  }
  return bad;
}
