/**
 * An independent decoder written from docs/formats.md 2.7 for tests only: plain
 * arrays, no shared code with shared/mt3/decode.ts or the compressor, so a
 * test that compares the compressor's reported errors with it checks the
 * written bytes, not the compressor against itself.
 */
import { decodeH16 } from '../math/half';
import type { Motion } from '../motion/types';
import { readMt3 } from '../mt3/read';
import type { Mt3Motion } from '../mt3/types';
import type { ChannelKind } from '../compress/types';

function normalized(v: number[]): number[] {
  const l = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / l);
}
function slerp(p: number[], q: number[], u: number): number[] {
  const d = Math.max(-1, Math.min(1, p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]));
  const th = Math.acos(d);
  if (th < 1e-6) return normalized(p.map((x, i) => (1 - u) * x + u * q[i]));
  return p.map((x, i) => (Math.sin((1 - u) * th) * x + Math.sin(u * th) * q[i]) / Math.sin(th));
}
/** The last key at or before frame t (a binary search: a 65,535-frame track of thousands of keys stays linear). */
function keyIndex(frames: Uint16Array, t: number): number {
  let lo = 0,
    hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
export function decodePos(frames: Uint16Array, pos: Uint16Array, vel: Uint16Array, t: number): number[] {
  const k = keyIndex(frames, t);
  const P = (i: number) => [0, 1, 2].map((c) => decodeH16(pos[i * 3 + c]));
  const V = (i: number) => [0, 1, 2].map((c) => decodeH16(vel[i * 3 + c]));
  if (frames[k] === t) return P(k);
  const d = frames[k + 1] - frames[k];
  const u = (t - frames[k]) / d;
  const h00 = 2 * u ** 3 - 3 * u ** 2 + 1,
    h10 = u ** 3 - 2 * u ** 2 + u,
    h01 = -2 * u ** 3 + 3 * u ** 2,
    h11 = u ** 3 - u ** 2;
  const pa = P(k),
    pb = P(k + 1),
    va = V(k),
    vb = V(k + 1);
  return [0, 1, 2].map((c) => h00 * pa[c] + h10 * d * va[c] + h01 * pb[c] + h11 * d * vb[c]);
}
export function decodeRot(m: Mt3Motion, j: number, t: number): number[] {
  const tr = m.rotations[j];
  const k = keyIndex(tr.frames, t);
  const Q = (arr: Int16Array, i: number) => normalized([0, 1, 2, 3].map((c) => arr[i * 4 + c] / 2047));
  if (tr.frames[k] === t) return Q(tr.rotation, k);
  const u = (t - tr.frames[k]) / (tr.frames[k + 1] - tr.frames[k]);
  return normalized(
    slerp(
      slerp(Q(tr.rotation, k), Q(tr.rotation, k + 1), u),
      slerp(Q(tr.inner, k), Q(tr.inner, k + 1), u),
      2 * u * (1 - u),
    ),
  );
}
function posErr(a: number[], m: Float32Array, i: number): number {
  return Math.sqrt((a[0] - m[i]) ** 2 + (a[1] - m[i + 1]) ** 2 + (a[2] - m[i + 2]) ** 2);
}
function rotErr(q: number[], m: Float32Array, i: number): number {
  const s = normalized([m[i], m[i + 1], m[i + 2], m[i + 3]]);
  const d = Math.min(1, Math.abs(q[0] * s[0] + q[1] * s[1] + q[2] * s[2] + q[3] * s[3]));
  return (2 * Math.acos(d) * 180) / Math.PI;
}

/** Errors of every channel at every frame, decoded independently from the written bytes (independentErrors). */
export interface IndependentErrors {
  mt3: Mt3Motion;
  root: number[];
  rot: number[][];
  off: number[][] | null;
}

/**
 * One channel of an independent decode: its error at every frame and the key frames of its track as written;
 * undefined where the written file has no such track (offsets of a motion without them).
 */
export function independentChannel(
  ind: IndependentErrors,
  kind: ChannelKind,
  joint: number,
): { errors: number[]; frames: Uint16Array } | undefined {
  if (kind === 'translation') return { errors: ind.root, frames: ind.mt3.root.frames };
  if (kind === 'rotation') return { errors: ind.rot[joint], frames: ind.mt3.rotations[joint].frames };
  const errors = ind.off?.[joint];
  const track = ind.mt3.offsets?.[joint];
  return errors && track ? { errors, frames: track.frames } : undefined;
}

/** Errors of every channel at every frame, decoded independently from the written bytes. */
export function independentErrors(motion: Motion, bytes: Uint8Array): IndependentErrors {
  const mt3 = readMt3(bytes);
  const N = motion.frameCount,
    J = motion.joints.length;
  const root: number[] = [];
  const rot: number[][] = Array.from({ length: J }, () => []);
  const off: number[][] | null = mt3.offsets ? Array.from({ length: J }, () => []) : null;
  for (let t = 0; t <= N; t++) {
    root.push(posErr(decodePos(mt3.root.frames, mt3.root.position, mt3.root.velocity, t), motion.translation, t * 4));
    for (let j = 0; j < J; j++) {
      rot[j].push(rotErr(decodeRot(mt3, j, t), motion.rotation, (t * J + j) * 4));
      if (off && mt3.offsets) {
        const o = mt3.offsets[j];
        off[j].push(posErr(decodePos(o.frames, o.position, o.velocity, t), motion.offset, (t * J + j) * 4));
      }
    }
  }
  return { mt3, root, rot, off };
}
