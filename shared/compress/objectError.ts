import { decodeH16 } from '../math/half';
import { normalize4 } from '../math/quat';
import { decodeS12 } from '../math/s12';
import { ScalarSquad } from '../math/squad';
import { evalPositionSegment } from '../mt3/decode';
import type { Mt3Motion, PositionTrack, RotationTrack } from '../mt3/types';
import type { Motion } from '../motion/types';

/**
 * Default virtual-point distance as a fraction of the skeleton's size (the
 * diagonal of the bounding box of the joints at frame 0): 0.1, about a hand's
 * or a foot's length on a human.
 */
export const DEFAULT_SHELL_FRACTION = 0.1;

/** Object-space error of a compressed motion (FK of the decoded bytes vs FK of the source). */
export interface ObjectErrorReport {
  /** Distance of the virtual points from each joint along its local X, Y and Z axes, motion units. */
  shell: number;
  /**
   * Per joint: the largest distance, over frames 0..N, between the decoded
   * and the source position of the joint or any of its three virtual points
   * (motion units, object space: the root translation included).
   */
  jointMaxError: number[];
  /** Per joint: the earliest frame of that largest distance. */
  jointMaxErrorFrame: number[];
  /** The largest of jointMaxError, its joint and frame. */
  maxError: number;
  maxErrorJoint: number;
  maxErrorFrame: number;
  /** Worst joint at every frame 0..N (motion units). */
  frameMaxError: Float64Array;
}

/** The skeleton's size: the diagonal of the bounding box of the joints' positions at frame 0. */
export function skeletonSize(m: Motion): number {
  const J = m.joints.length;
  const frame = new SourceFrame(J);
  frame.load(m, 0);
  const world = new Float64Array(J * 3);
  const rot = new Float64Array(J * 4);
  fkFrame(parentsOf(m), frame.translation, 0, frame.rotation, frame.offset, world, rot);
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < J; j++)
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], world[j * 3 + c]);
      hi[c] = Math.max(hi[c], world[j * 3 + c]);
    }
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

/** The default shell of a motion: DEFAULT_SHELL_FRACTION of its skeleton size (1 unit for a point-like skeleton). */
export function defaultShell(m: Motion): number {
  const s = skeletonSize(m) * DEFAULT_SHELL_FRACTION;
  return s > 0 ? s : 1;
}

/**
 * Forward kinematics of one frame into world positions (J x 3) and rotations
 * (J x 4): p_j = p_parent + R_parent off_j, R_j = R_parent r_j; the root adds
 * the root translation (translation[tIndex..tIndex+2]). `rotation` holds J x 4
 * and `offset` J x 3 values. Rotations are normalised.
 */
function fkFrame(
  parents: Int32Array,
  translation: Float64Array,
  tIndex: number,
  rotation: Float64Array,
  offset: Float64Array,
  world: Float64Array,
  rot: Float64Array,
): void {
  // Plain arrays, not index callbacks: this runs twice per frame of every compression. (The parents as an
  // Int32Array, not the joint entries: one typed load per joint, whatever built the motion.) Float64Arrays only,
  // the source's frames copied into them (SourceFrame): fed the source's Float32Arrays as well, the optimised
  // code of the source's frames was thrown away at the first decoded frame and compiled again.
  for (let j = 0; j < parents.length; j++) {
    const ri = j * 4,
      oi = j * 3;
    let x = rotation[ri],
      y = rotation[ri + 1],
      z = rotation[ri + 2],
      w = rotation[ri + 3];
    const l = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
    x /= l;
    y /= l;
    z /= l;
    w /= l;
    const ox = offset[oi],
      oy = offset[oi + 1],
      oz = offset[oi + 2];
    const p = parents[j];
    if (p < 0) {
      world[j * 3] = translation[tIndex] + ox;
      world[j * 3 + 1] = translation[tIndex + 1] + oy;
      world[j * 3 + 2] = translation[tIndex + 2] + oz;
      rot[j * 4] = x;
      rot[j * 4 + 1] = y;
      rot[j * 4 + 2] = z;
      rot[j * 4 + 3] = w;
      continue;
    }
    const px = rot[p * 4],
      py = rot[p * 4 + 1],
      pz = rot[p * 4 + 2],
      pw = rot[p * 4 + 3];
    rotateInto(world, j * 3, px, py, pz, pw, ox, oy, oz);
    world[j * 3] += world[p * 3];
    world[j * 3 + 1] += world[p * 3 + 1];
    world[j * 3 + 2] += world[p * 3 + 2];
    rot[j * 4] = pw * x + px * w + py * z - pz * y;
    rot[j * 4 + 1] = pw * y - px * z + py * w + pz * x;
    rot[j * 4 + 2] = pw * z + px * y - py * x + pz * w;
    rot[j * 4 + 3] = pw * w - px * x - py * y - pz * z;
  }
}

/** One frame of a source motion in the arrays fkFrame takes (float32 to float64: the same values). */
class SourceFrame {
  readonly translation = new Float64Array(3);
  readonly rotation: Float64Array;
  readonly offset: Float64Array;

  constructor(J: number) {
    this.rotation = new Float64Array(J * 4);
    this.offset = new Float64Array(J * 3);
  }

  /** Loads frame f of `m`. */
  load(m: Motion, f: number): void {
    const J = this.offset.length / 3;
    for (let c = 0; c < 3; c++) this.translation[c] = m.translation[f * 4 + c];
    this.rotation.set(m.rotation.subarray(f * J * 4, (f + 1) * J * 4));
    for (let j = 0; j < J; j++) for (let c = 0; c < 3; c++) this.offset[j * 3 + c] = m.offset[(f * J + j) * 4 + c];
  }
}

/** Each joint's parent index (-1 for the root). */
function parentsOf(m: Motion): Int32Array {
  return Int32Array.from(m.joints, (j) => j.parent);
}

/** out[o..o+2] = q v q^-1 for a unit q. */
export function rotateInto(
  out: Float64Array,
  o: number,
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  vx: number,
  vy: number,
  vz: number,
): void {
  const tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * rotateInto of the three virtual points' offsets, (s, 0, 0), (0, s, 0) and (0, 0, s), into out[o..o+8]: the same
 * operations with the products of a zero left out, so the same values but for the sign of a zero result (which
 * no error sees: errors are lengths of differences). A virtual point costs 13 operations instead of 27; the
 * object-space error computes 6 per joint and frame, and on a short clip most of them before V8 has compiled
 * this, each operation then allocating its result.
 */
export function axisOffsets(
  out: Float64Array,
  o: number,
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  s: number,
): void {
  // t = 2 (q_xyz x v) has two components that are not zero: along X, t_y and t_z; along Y, t_x and t_z; along Z,
  // t_x and t_y. Then q v q^-1 = v + q_w t + q_xyz x t.
  const xy = 2 * (qz * s),
    xz = -2 * (qy * s);
  out[o] = s + (qy * xz - qz * xy);
  out[o + 1] = qw * xy - qx * xz;
  out[o + 2] = qw * xz + qx * xy;
  const yx = -2 * (qz * s),
    yz = 2 * (qx * s);
  out[o + 3] = qw * yx + qy * yz;
  out[o + 4] = s + (qz * yx - qx * yz);
  out[o + 5] = qw * yz - qy * yx;
  const zx = 2 * (qy * s),
    zy = -2 * (qx * s);
  out[o + 6] = qw * zx - qz * zy;
  out[o + 7] = qw * zy + qz * zx;
  out[o + 8] = s + (qx * zy - qy * zx);
}

/**
 * What objectSpaceError keeps between runs on one motion (one per open motion,
 * inside its CompressCache), so that an edit pays only for what it changed:
 * - the source's FK (each joint's position and rotation at every frame; its
 *   virtual points are computed again from them where a frame is redone),
 *   computed once per motion and shell;
 * - the tracks the previous run measured and its per-frame, per-joint errors:
 *   only frames where some track's stored keys differ from the previous run's
 *   (the keys that decide the frame's sample: TrackCursor) get their FK redone,
 *   and only there are the tracks sampled. Decoding every frame of every new
 *   track, as this did before 2026-12-05, kept 2 MB a rotation channel of
 *   65,536 frames for each track measured, the last run's and every track a
 *   compression cache still held.
 * The report is exactly what a run without a memo returns (the same
 * arithmetic on the same numbers, reduced in the same order).
 */
export class ObjectErrorMemo {
  private samples: readonly unknown[] = [];
  private shell = NaN;
  /** Source joint position (3) and rotation (4) per frame and joint: S x J x SOURCE_WIDTH. */
  private sourcePoints: Float64Array = new Float64Array(0);
  /** The tracks the previous run measured, channel by channel (root, J rotations, J offsets or none). */
  private previous: (StoredTrack | null)[] | null = null;
  /** Error of each joint at each frame from the previous run: S x J. */
  private errors: Float64Array = new Float64Array(0);
  /** Frames whose FK the last run redid (for tests and the bench). */
  recomputedFrames = 0;

  /** Whether the source's points for this motion and shell are there already (sourceFor would not compute them). */
  holdsSourceFor(source: Motion, shell: number): boolean {
    const samples = [source.translation, source.rotation, source.offset, source.joints];
    return shell === this.shell && samples.every((a, i) => a === this.samples[i]);
  }

  /** The source's points for this motion and shell, computed on first use. */
  sourceFor(source: Motion, shell: number): Float64Array {
    if (!this.holdsSourceFor(source, shell)) {
      this.samples = [source.translation, source.rotation, source.offset, source.joints];
      this.shell = shell;
      this.sourcePoints = sourcePoints(source);
      this.previous = null;
    }
    return this.sourcePoints;
  }

  /**
   * A memo of its own (no tracks, no errors) that shares this one's source points for `source` and `shell`,
   * computing them here first if need be: the precision floor's object-space error measures tracks of its own
   * (every frame a key), and with its own points it held a second copy of the source's FK while the
   * skeleton-aware rounds held this one.
   */
  sharingSource(source: Motion, shell: number): ObjectErrorMemo {
    const points = this.sourceFor(source, shell);
    const other = new ObjectErrorMemo();
    other.samples = this.samples;
    other.shell = shell;
    other.sourcePoints = points;
    return other;
  }

  /** Each frame's error at each joint (S x J, frame-major) as the last run left it: read it before the next run. */
  lastErrors(): Float64Array {
    return this.errors;
  }

  /**
   * Marks the frames where `channels` may sample otherwise than the previous run's tracks (every frame when there
   * is none), remembers them for the next run, and returns the error table to update.
   */
  dirtyFrames(channels: (StoredTrack | null)[], S: number, J: number, dirty: Uint8Array): Float64Array {
    const prev = this.previous;
    if (!prev || prev.length !== channels.length || this.errors.length !== S * J) {
      dirty.fill(1);
      this.errors = new Float64Array(S * J);
    } else {
      for (let c = 0; c < channels.length; c++) {
        const a = channels[c],
          b = prev[c];
        if (a === b) continue;
        if (!a || !b) {
          dirty.fill(1);
          break;
        }
        markChangedFrames(b, a, dirty);
      }
    }
    this.previous = channels;
    return this.errors;
  }
}

/** A stored rotation or position track: each key's value (rotation / position) and its tangent (inner / velocity). */
type StoredTrack = RotationTrack | PositionTrack;

/** A stored track's per-key values and tangents, and how many of each a key has. */
function keyWords(t: StoredTrack): { value: ArrayLike<number>; tangent: ArrayLike<number>; width: number } {
  return 'inner' in t
    ? { value: t.rotation, tangent: t.inner, width: 4 }
    : { value: t.position, tangent: t.velocity, width: 3 };
}

/** Whether `width` words from x[i] and from y[j] are the same. */
function sameWords(x: ArrayLike<number>, i: number, y: ArrayLike<number>, j: number, width: number): boolean {
  for (let c = 0; c < width; c++) if (x[i + c] !== y[j + c]) return false;
  return true;
}

/**
 * Marks in `dirty` every frame whose sample `b` may decode otherwise than `a` (two tracks of one channel). A frame's
 * sample is the value of its key when it is one, else the Squad or Hermite of the segment holding it, which reads
 * only that segment's two key frames and the two keys' stored words (before the first key, the first key's value):
 * a key of `b` whose frame is a key of `a` with the same value keeps its sample, and so do the frames inside a
 * segment of `b` that is a segment of `a` with the same words at both ends; every other frame is marked. (A frame
 * marked that decodes the same is only measured again, to the same error.) Walks the keys, not the frames.
 */
function markChangedFrames(a: StoredTrack, b: StoredTrack, dirty: Uint8Array): void {
  const A = keyWords(a),
    B = keyWords(b);
  const fa = a.frames,
    fb = b.frames;
  const w = A.width;
  const S = dirty.length;
  const KB = fb.length;
  // Key ka of `a` at key kb's frame, or -1; the keys walk together.
  let ka = 0;
  const match = (kb: number): number => {
    while (ka < fa.length && fa[ka] < fb[kb]) ka++;
    return ka < fa.length && fa[ka] === fb[kb] ? ka : -1;
  };
  const same = (i: number, j: number) =>
    sameWords(A.value, i * w, B.value, j * w, w) && sameWords(A.tangent, i * w, B.tangent, j * w, w);
  let m = match(0);
  const firstSame = m === 0 && sameWords(A.value, 0, B.value, 0, w);
  if (!firstSame) dirty.fill(1, 0, Math.min(fb[0], S));
  for (let kb = 0; kb < KB; kb++) {
    const f = fb[kb];
    if (f >= S) break;
    if (m < 0 || !sameWords(A.value, m * w, B.value, kb * w, w)) dirty[f] = 1;
    if (kb + 1 === KB) {
      dirty.fill(1, f + 1, S);
      break;
    }
    const next = match(kb + 1);
    if (!(m >= 0 && next === m + 1 && same(m, kb) && same(next, kb + 1))) dirty.fill(1, f + 1, Math.min(fb[kb + 1], S));
    m = next;
  }
}

/**
 * Doubles per frame and joint of the source's FK that ObjectErrorMemo keeps: the joint's position (3) and rotation
 * (4). Its three virtual points are computed from that rotation where a frame is redone (axisOffsets, the same
 * doubles as when they were kept too): 12 per joint and frame took 151 MB on a 24-joint chain of 65,536 frames.
 */
const SOURCE_WIDTH = 7;

/** FK of the source at every frame: each joint's position and rotation (S x J x SOURCE_WIDTH). */
function sourcePoints(source: Motion): Float64Array {
  const J = source.joints.length;
  const S = source.frameCount + 1;
  const out = new Float64Array(S * J * SOURCE_WIDTH);
  const world = new Float64Array(J * 3),
    rot = new Float64Array(J * 4);
  const parents = parentsOf(source);
  const frame = new SourceFrame(J);
  for (let f = 0; f < S; f++) {
    frame.load(source, f);
    fkFrame(parents, frame.translation, 0, frame.rotation, frame.offset, world, rot);
    for (let j = 0; j < J; j++) {
      const o = (f * J + j) * SOURCE_WIDTH;
      out[o] = world[j * 3];
      out[o + 1] = world[j * 3 + 1];
      out[o + 2] = world[j * 3 + 2];
      for (let c = 0; c < 4; c++) out[o + 3 + c] = rot[j * 4 + c];
    }
  }
  return out;
}

/**
 * Object-space error of an MT3 against its source motion: FK of both at every
 * frame, compared at each joint and at its three virtual points (the joint
 * plus `shell` along its local X, Y, Z). The decoded motion is what the
 * reference decoder returns (joint offsets from the offset streams, or the
 * source's frame 0 offsets when the MT3 has none, as decompressMt3 does).
 * With a memo (one per motion), only what changed since its previous run is
 * recomputed; the report is the same.
 */
export function objectSpaceError(
  source: Motion,
  mt3: Mt3Motion,
  shell: number,
  memo: ObjectErrorMemo = new ObjectErrorMemo(),
): ObjectErrorReport {
  const N = source.frameCount;
  const J = source.joints.length;
  const S = N + 1;
  const src = memo.sourceFor(source, shell);
  const dirty = new Uint8Array(S);
  const errors = memo.dirtyFrames([mt3.root, ...mt3.rotations, ...(mt3.offsets ?? [null])], S, J, dirty);
  const k = new FrameErrorKernel(parentsOf(source), src, shell, mt3);
  if (!mt3.offsets)
    for (let j = 0; j < J; j++) for (let c = 0; c < 3; c++) k.offset[j * 3 + c] = source.offset[j * 4 + c];
  let recomputed = 0;
  // One call per frame, not one loop over all frames here: V8 then optimises the small per-frame kernel once
  // instead of compiling this whole function on the stack (OSR) and again when the loop below first runs.
  for (let f = 0; f < S; f++) {
    if (!dirty[f]) continue;
    recomputed++;
    k.frame(f, errors);
  }
  memo.recomputedFrames = recomputed;
  return reportOf(errors, S, J, shell);
}

/**
 * A stored rotation track's decoded sample at ascending frames, the very doubles sampleRotationTrackFrames
 * (shared/mt3/decode.ts) writes there: a key frame gives the key's decoded rotation, a frame inside a segment the
 * Squad of its two keys (ScalarSquad, loaded once per segment), a frame before the first key the first key. Only
 * the keys a sample reads are decoded.
 */
export class RotationCursor {
  private k = 0;
  private loaded = -1;
  private readonly squad = new ScalarSquad();
  private readonly q = new Float64Array(8);
  private readonly a = new Float64Array(8);

  constructor(private readonly t: RotationTrack) {}

  /** out[o..o+3] = the sample at frame f (f not below the previous call's). */
  sample(f: number, out: Float64Array, o: number): void {
    const frames = this.t.frames;
    if (f < frames[0]) {
      this.key(0, out, o);
      return;
    }
    while (this.k + 1 < frames.length && frames[this.k + 1] <= f) this.k++;
    const k = this.k;
    if (frames[k] === f) {
      this.key(k, out, o);
      return;
    }
    if (this.loaded !== k) {
      decodeQuats(this.t.rotation, k, this.q);
      decodeQuats(this.t.inner, k, this.a);
      this.squad.set(this.q, 0, 4, this.a, 0, 4, 1);
      this.loaded = k;
    }
    this.squad.at(f, frames[k], frames[k + 1] - frames[k]);
    for (let c = 0; c < 4; c++) out[o + c] = this.squad.out[c];
  }

  /** out[o..o+3] = key k's decoded rotation. */
  private key(k: number, out: Float64Array, o: number): void {
    for (let c = 0; c < 4; c++) out[o + c] = decodeS12(this.t.rotation[k * 4 + c]);
    normalize4(out, o);
  }
}

/** Keys k and k + 1 of s12 quaternions, decoded and normalised as decodeQuatArray does, into out[0..7]. */
function decodeQuats(s: Int16Array, k: number, out: Float64Array): void {
  for (let c = 0; c < 8; c++) out[c] = decodeS12(s[k * 4 + c]);
  normalize4(out, 0);
  normalize4(out, 4);
}

/**
 * A stored position track's decoded sample at ascending frames, the very doubles samplePositionTrackFrames writes
 * there (evalPositionSegment on the segment it picks), decoding only the two keys of that segment.
 */
export class PositionCursor {
  private k = 0;
  private loaded = -1;
  private readonly p = new Float64Array(6);
  private readonly v = new Float64Array(6);

  constructor(private readonly t: PositionTrack) {}

  /** out[o..o+2] = the sample at frame f (f not below the previous call's). */
  sample(f: number, out: Float64Array, o: number): void {
    const frames = this.t.frames;
    while (this.k + 1 < frames.length - 1 && frames[this.k + 1] <= f) this.k++;
    const k = this.k;
    const last = k >= frames.length - 1;
    if (this.loaded !== k) {
      for (let i = 0; i < (last ? 3 : 6); i++) {
        this.p[i] = decodeH16(this.t.position[k * 3 + i]);
        this.v[i] = decodeH16(this.t.velocity[k * 3 + i]);
      }
      this.loaded = k;
    }
    const fa = frames[k];
    if (last) evalPositionSegment(out, o, this.p, this.v, 0, 0, fa, fa, fa);
    else evalPositionSegment(out, o, this.p, this.v, 0, 1, fa, frames[k + 1], f > fa ? f : fa);
  }
}

/** FK of one frame of the decoded tracks, compared with the source's points (objectSpaceError's inner loop). */
class FrameErrorKernel {
  readonly offset: Float64Array;
  private readonly rotIn: Float64Array;
  private readonly rootIn = new Float64Array(3);
  private readonly world: Float64Array;
  private readonly rot: Float64Array;
  private readonly axis = new Float64Array(9);
  private readonly sourceAxis = new Float64Array(9);
  private readonly root: PositionCursor;
  private readonly rotations: RotationCursor[];
  private readonly offsets: PositionCursor[] | null;

  constructor(
    private readonly parents: Int32Array,
    private readonly src: Float64Array,
    private readonly shell: number,
    mt3: Pick<Mt3Motion, 'root' | 'rotations' | 'offsets'>,
  ) {
    const J = parents.length;
    this.offset = new Float64Array(J * 3);
    this.rotIn = new Float64Array(J * 4);
    this.world = new Float64Array(J * 3);
    this.rot = new Float64Array(J * 4);
    this.root = new PositionCursor(mt3.root);
    this.rotations = mt3.rotations.map((t) => new RotationCursor(t));
    this.offsets = mt3.offsets ? mt3.offsets.map((t) => new PositionCursor(t)) : null;
  }

  /**
   * errors[f * J + j] for every joint j (no offset tracks: this.offset holds the source's frame 0 offsets); frames
   * ascending from one call to the next.
   */
  frame(f: number, errors: Float64Array): void {
    const J = this.parents.length,
      src = this.src,
      shell = this.shell;
    const decWorld = this.world,
      decRot = this.rot,
      axisScratch = this.axis,
      srcAxis = this.sourceAxis;
    const offsets = this.offsets;
    if (offsets) for (let j = 0; j < J; j++) offsets[j].sample(f, this.offset, j * 3);
    for (let j = 0; j < J; j++) this.rotations[j].sample(f, this.rotIn, j * 4);
    this.root.sample(f, this.rootIn, 0);
    fkFrame(this.parents, this.rootIn, 0, this.rotIn, this.offset, decWorld, decRot);
    for (let j = 0; j < J; j++) {
      const o = (f * J + j) * SOURCE_WIDTH;
      const dx = decWorld[j * 3] - src[o],
        dy = decWorld[j * 3 + 1] - src[o + 1],
        dz = decWorld[j * 3 + 2] - src[o + 2];
      let e2 = dx * dx + dy * dy + dz * dz;
      axisOffsets(axisScratch, 0, decRot[j * 4], decRot[j * 4 + 1], decRot[j * 4 + 2], decRot[j * 4 + 3], shell);
      axisOffsets(srcAxis, 0, src[o + 3], src[o + 4], src[o + 5], src[o + 6], shell);
      for (let axis = 0; axis < 3; axis++) {
        const a = axis * 3;
        const ex = dx + axisScratch[a] - srcAxis[a],
          ey = dy + axisScratch[a + 1] - srcAxis[a + 1],
          ez = dz + axisScratch[a + 2] - srcAxis[a + 2];
        const a2 = ex * ex + ey * ey + ez * ez;
        if (a2 > e2) e2 = a2;
      }
      errors[f * J + j] = Math.sqrt(e2);
    }
  }
}

/**
 * Each joint's worst error and its earliest frame, and each frame's worst, from the S x J table. (Nothing after
 * the loop: V8 compiles this on the stack, and code after the loop that has never run would make that compiled
 * loop bail out at its end on every call.)
 */
function worstOf(
  errors: Float64Array,
  S: number,
  J: number,
  jointMax: Float64Array,
  jointMaxFrame: Int32Array,
  frameMaxError: Float64Array,
): void {
  for (let f = 0; f < S; f++) {
    let frameWorst = 0;
    for (let j = 0; j < J; j++) {
      const e = errors[f * J + j];
      if (e > jointMax[j]) {
        jointMax[j] = e;
        jointMaxFrame[j] = f;
      }
      if (e > frameWorst) frameWorst = e;
    }
    frameMaxError[f] = frameWorst;
  }
}

/** The report of a table of per-frame, per-joint errors (S x J): each joint's worst and its earliest frame, each frame's worst. */
function reportOf(errors: Float64Array, S: number, J: number, shell: number): ObjectErrorReport {
  const jointMax = new Float64Array(J);
  const jointMaxFrame = new Int32Array(J);
  const frameMaxError = new Float64Array(S);
  worstOf(errors, S, J, jointMax, jointMaxFrame, frameMaxError);
  let maxErrorJoint = 0;
  for (let j = 1; j < J; j++) if (jointMax[j] > jointMax[maxErrorJoint]) maxErrorJoint = j;
  return {
    shell,
    jointMaxError: Array.from(jointMax),
    jointMaxErrorFrame: Array.from(jointMaxFrame),
    maxError: J > 0 ? jointMax[maxErrorJoint] : 0,
    maxErrorJoint,
    maxErrorFrame: J > 0 ? jointMaxFrame[maxErrorJoint] : 0,
    frameMaxError,
  };
}
