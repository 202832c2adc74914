import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { seededRandom } from './random';

export interface SyntheticOptions {
  frames: number;
  joints: number;
  seed: number;
  /** Set OFFSETS and animate offsets. */
  offsets?: boolean;
  /** Adds mocap-like noise of this amplitude (radians / units). */
  noise?: number;
  /** Number of random user keys per channel kind (root and per joint). */
  userKeys?: number;
  /** Number of random lock ranges. */
  locks?: number;
  /** Number of random trace keys. */
  traceKeys?: number;
}

/**
 * A smooth random motion (sums of sinusoids per channel, a forward-moving
 * root) with optional noise and random key info, deterministic per seed.
 * Used by tests and by `npm run bench` for the synthetic 60 x 600 motion.
 */
export function syntheticMotion(o: SyntheticOptions): Motion {
  const rnd = seededRandom(o.seed);
  const N = o.frames;
  const J = o.joints;
  const joints: JointInfo[] = [];
  for (let j = 0; j < J; j++) {
    const parent = j === 0 ? -1 : Math.floor(rnd() * j);
    joints.push({ parent, mirror: j, part: j % 2, reserved: 0, name: `joint_${j}` });
  }
  const m = emptyMotion(N, joints, 30);
  if (o.offsets) m.flags |= MotionFlag.OFFSETS;
  const noise = o.noise ?? 0;
  const wave = () => {
    const terms = Array.from({ length: 3 }, () => ({
      amp: rnd(),
      freq: ((rnd() * 4 + 0.3) * (2 * Math.PI)) / Math.max(30, N),
      phase: rnd() * 6.28,
    }));
    return (f: number) => terms.reduce((s, t) => s + t.amp * Math.sin(t.freq * f + t.phase), 0);
  };
  const speed = rnd() * 10 + 2;
  const ty = wave(),
    tx = wave();
  for (let f = 0; f <= N; f++) {
    m.translation[f * 4] = 20 * tx(f) + noise * (rnd() - 0.5);
    m.translation[f * 4 + 1] = 900 + 15 * ty(f) + noise * (rnd() - 0.5);
    m.translation[f * 4 + 2] = speed * f + noise * (rnd() - 0.5);
  }
  for (let j = 0; j < J; j++) {
    const ax = wave(),
      ay = wave(),
      az = wave();
    const scale = 0.3 + rnd() * 0.9;
    const rest = [rnd() * 40 - 20, rnd() * 80 + 20, rnd() * 40 - 20];
    const ox = wave(),
      oy = wave(),
      oz = wave();
    for (let f = 0; f <= N; f++) {
      // Rotation from a rotation vector (axis * angle), sign left as computed.
      const rx = scale * ax(f) + noise * (rnd() - 0.5);
      const ry = scale * ay(f) + noise * (rnd() - 0.5);
      const rz = scale * az(f) + noise * (rnd() - 0.5);
      const angle = Math.hypot(rx, ry, rz);
      const s = angle < 1e-12 ? 0.5 : Math.sin(angle / 2) / angle;
      const i = (f * J + j) * 4;
      m.rotation[i] = rx * s;
      m.rotation[i + 1] = ry * s;
      m.rotation[i + 2] = rz * s;
      m.rotation[i + 3] = Math.cos(angle / 2);
      const anim = o.offsets ? 3 : 0;
      m.offset[i] = rest[0] + anim * ox(f);
      m.offset[i + 1] = rest[1] + anim * oy(f);
      m.offset[i + 2] = rest[2] + anim * oz(f);
    }
  }
  const pick = () => Math.floor(rnd() * (N + 1));
  for (let k = 0; k < (o.userKeys ?? 0); k++) {
    m.translationKeyInfo[pick() * 4] |= KeyFlag.KEY;
    for (let j = 0; j < J; j++) if (rnd() < 0.5) m.jointKeyInfo[(pick() * J + j) * 4] |= KeyFlag.KEY;
  }
  for (let k = 0; k < (o.traceKeys ?? 0); k++) m.translationKeyInfo[pick() * 4] |= KeyFlag.TRACE;
  for (let k = 0; k < (o.locks ?? 0); k++) {
    const joint = Math.floor(rnd() * J);
    const first = pick();
    const len = 1 + Math.floor(rnd() * 10);
    for (let f = first; f <= Math.min(N, first + len); f++) {
      let free = true;
      for (let jj = 0; jj < J; jj++) if (m.jointKeyInfo[(f * J + jj) * 4] & KeyFlag.LOCK) free = false;
      if (free) m.jointKeyInfo[(f * J + joint) * 4] |= KeyFlag.LOCK;
    }
  }
  return m;
}

/**
 * Stores `q` (x, y, z, w), normalised, as frame `f` of a track of unit quaternions laid out 4 per frame,
 * negated when that puts it on the other side of frame f - 1 (a sign-continuous track, as the compressor's
 * sources are).
 */
export function putContinuousQuaternion(s: Float64Array, f: number, q: readonly number[]): void {
  const l = Math.hypot(...q);
  for (let c = 0; c < 4; c++) s[f * 4 + c] = q[c] / l;
  if (f > 0) {
    let d = 0;
    for (let c = 0; c < 4; c++) d += s[f * 4 + c] * s[(f - 1) * 4 + c];
    if (d < 0) for (let c = 0; c < 4; c++) s[f * 4 + c] = -s[f * 4 + c];
  }
}
