import {
  decodePositionTrack,
  decodeRotationTrack,
  samplePositionTrackFrames,
  sampleRotationTrackFrames,
} from '../mt3/decode';
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
 * - the source's FK (each joint and its three virtual points at every frame),
 *   computed once per motion and shell;
 * - each stored track's per-frame samples, by track object: a channel the
 *   compression cache reused is the same object, so it is not decoded again;
 * - the previous run's per-frame, per-joint errors: only frames where some
 *   track's samples differ from the previous run's get their FK redone.
 * The report is exactly what a run without a memo returns (the same
 * arithmetic on the same numbers, reduced in the same order).
 */
export class ObjectErrorMemo {
  private samples: readonly unknown[] = [];
  private shell = NaN;
  /** Source joint (3) and virtual points (3 x 3) per frame and joint: S x J x 12. */
  private sourcePoints: Float64Array = new Float64Array(0);
  private readonly sampled = new WeakMap<object, Float64Array>();
  /** The samples the previous run used, channel by channel (root, J rotations, J offsets or none). */
  private previous: (Float64Array | null)[] | null = null;
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
      this.sourcePoints = sourcePoints(source, shell);
      this.previous = null;
    }
    return this.sourcePoints;
  }

  /** Per-frame samples of a stored rotation track, decoded once per track object. */
  rotationFrames(t: RotationTrack): Float64Array {
    let out = this.sampled.get(t);
    if (!out) this.sampled.set(t, (out = sampleRotationTrackFrames(decodeRotationTrack(t))));
    return out;
  }

  /** Per-frame samples of a stored position track, decoded once per track object. */
  positionFrames(t: PositionTrack): Float64Array {
    let out = this.sampled.get(t);
    if (!out) this.sampled.set(t, (out = samplePositionTrackFrames(decodePositionTrack(t))));
    return out;
  }

  /** Each frame's error at each joint (S x J, frame-major) as the last run left it: read it before the next run. */
  lastErrors(): Float64Array {
    return this.errors;
  }

  /**
   * Marks the frames where `channels` differ from the previous run's (every
   * frame when there is none), remembers them for the next run, and returns
   * the error table to update.
   */
  dirtyFrames(channels: (Float64Array | null)[], S: number, J: number, dirty: Uint8Array): Float64Array {
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
        const width = a.length / S;
        for (let f = 0; f < S; f++) {
          if (dirty[f]) continue;
          for (let k = f * width; k < (f + 1) * width; k++)
            if (a[k] !== b[k]) {
              dirty[f] = 1;
              break;
            }
        }
      }
    }
    this.previous = channels;
    return this.errors;
  }
}

/** FK of the source at every frame: each joint's position and its three virtual points (S x J x 12). */
function sourcePoints(source: Motion, shell: number): Float64Array {
  const J = source.joints.length;
  const S = source.frameCount + 1;
  const out = new Float64Array(S * J * 12);
  const world = new Float64Array(J * 3),
    rot = new Float64Array(J * 4);
  const parents = parentsOf(source);
  const frame = new SourceFrame(J);
  for (let f = 0; f < S; f++) {
    frame.load(source, f);
    fkFrame(parents, frame.translation, 0, frame.rotation, frame.offset, world, rot);
    for (let j = 0; j < J; j++) {
      const o = (f * J + j) * 12;
      out[o] = world[j * 3];
      out[o + 1] = world[j * 3 + 1];
      out[o + 2] = world[j * 3 + 2];
      axisOffsets(out, o + 3, rot[j * 4], rot[j * 4 + 1], rot[j * 4 + 2], rot[j * 4 + 3], shell);
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
  const root = memo.positionFrames(mt3.root);
  const rotations = mt3.rotations.map((t) => memo.rotationFrames(t));
  const offsets = mt3.offsets ? mt3.offsets.map((t) => memo.positionFrames(t)) : null;
  const dirty = new Uint8Array(S);
  const errors = memo.dirtyFrames([root, ...rotations, ...(offsets ?? [null])], S, J, dirty);
  const k = new FrameErrorKernel(parentsOf(source), src, shell);
  if (!offsets) for (let j = 0; j < J; j++) for (let c = 0; c < 3; c++) k.offset[j * 3 + c] = source.offset[j * 4 + c];
  let recomputed = 0;
  // One call per frame, not one loop over all frames here: V8 then optimises the small per-frame kernel once
  // instead of compiling this whole function on the stack (OSR) and again when the loop below first runs.
  for (let f = 0; f < S; f++) {
    if (!dirty[f]) continue;
    recomputed++;
    k.frame(f, root, rotations, offsets, errors);
  }
  memo.recomputedFrames = recomputed;
  return reportOf(errors, S, J, shell);
}

/** FK of one frame of the decoded samples, compared with the source's points (objectSpaceError's inner loop). */
class FrameErrorKernel {
  readonly offset: Float64Array;
  private readonly rotIn: Float64Array;
  private readonly world: Float64Array;
  private readonly rot: Float64Array;
  private readonly axis = new Float64Array(9);

  constructor(
    private readonly parents: Int32Array,
    private readonly src: Float64Array,
    private readonly shell: number,
  ) {
    const J = parents.length;
    this.offset = new Float64Array(J * 3);
    this.rotIn = new Float64Array(J * 4);
    this.world = new Float64Array(J * 3);
    this.rot = new Float64Array(J * 4);
  }

  /** errors[f * J + j] for every joint j (offsets null: this.offset holds the source's frame 0 offsets). */
  frame(
    f: number,
    root: Float64Array,
    rotations: Float64Array[],
    offsets: Float64Array[] | null,
    errors: Float64Array,
  ): void {
    const J = this.parents.length,
      src = this.src,
      shell = this.shell;
    const decWorld = this.world,
      decRot = this.rot,
      axisScratch = this.axis;
    if (offsets) for (let j = 0; j < J; j++) for (let c = 0; c < 3; c++) this.offset[j * 3 + c] = offsets[j][f * 3 + c];
    for (let j = 0; j < J; j++) for (let c = 0; c < 4; c++) this.rotIn[j * 4 + c] = rotations[j][f * 4 + c];
    fkFrame(this.parents, root, f * 3, this.rotIn, this.offset, decWorld, decRot);
    for (let j = 0; j < J; j++) {
      const o = (f * J + j) * 12;
      const dx = decWorld[j * 3] - src[o],
        dy = decWorld[j * 3 + 1] - src[o + 1],
        dz = decWorld[j * 3 + 2] - src[o + 2];
      let e2 = dx * dx + dy * dy + dz * dz;
      axisOffsets(axisScratch, 0, decRot[j * 4], decRot[j * 4 + 1], decRot[j * 4 + 2], decRot[j * 4 + 3], shell);
      for (let axis = 0; axis < 3; axis++) {
        const v = o + 3 + axis * 3,
          a = axis * 3;
        const ex = dx + axisScratch[a] - src[v],
          ey = dy + axisScratch[a + 1] - src[v + 1],
          ez = dz + axisScratch[a + 2] - src[v + 2];
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
