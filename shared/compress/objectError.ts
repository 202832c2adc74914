import { decodeMt3, samplePositionTrackFrames, sampleRotationTrackFrames } from '../mt3/decode';
import type { Mt3Motion } from '../mt3/types';
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
  const world = new Float64Array(J * 3);
  const rot = new Float64Array(J * 4);
  fkFrame(m.joints, m.translation, 0, m.rotation, 0, 4, m.offset, 0, 4, world, rot);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
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
 * the root translation. Rotations are normalised.
 */
function fkFrame(
  joints: Motion['joints'], translation: ArrayLike<number>, tIndex: number,
  rotation: ArrayLike<number>, rotBase: number, rotStride: number,
  offset: ArrayLike<number>, offBase: number, offStride: number,
  world: Float64Array, rot: Float64Array,
): void {
  // Plain arrays and strides, not index callbacks: this runs twice per frame of every compression.
  for (let j = 0; j < joints.length; j++) {
    const ri = rotBase + j * rotStride, oi = offBase + j * offStride;
    let x = rotation[ri], y = rotation[ri + 1], z = rotation[ri + 2], w = rotation[ri + 3];
    const l = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
    x /= l; y /= l; z /= l; w /= l;
    const ox = offset[oi], oy = offset[oi + 1], oz = offset[oi + 2];
    const p = joints[j].parent;
    if (p < 0) {
      world[j * 3] = translation[tIndex] + ox;
      world[j * 3 + 1] = translation[tIndex + 1] + oy;
      world[j * 3 + 2] = translation[tIndex + 2] + oz;
      rot[j * 4] = x; rot[j * 4 + 1] = y; rot[j * 4 + 2] = z; rot[j * 4 + 3] = w;
      continue;
    }
    const px = rot[p * 4], py = rot[p * 4 + 1], pz = rot[p * 4 + 2], pw = rot[p * 4 + 3];
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

/** out[o..o+2] = q v q^-1 for a unit q. */
function rotateInto(out: Float64Array, o: number, qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number): void {
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

const axisScratch = new Float64Array(3);

/**
 * Object-space error of an MT3 against its source motion: FK of both at every
 * frame, compared at each joint and at its three virtual points (the joint
 * plus `shell` along its local X, Y, Z). The decoded motion is what the
 * reference decoder returns (joint offsets from the offset streams, or the
 * source's frame 0 offsets when the MT3 has none, as decompressMt3 does).
 */
export function objectSpaceError(source: Motion, mt3: Mt3Motion, shell: number): ObjectErrorReport {
  const N = source.frameCount;
  const J = source.joints.length;
  const S = N + 1;
  const d = decodeMt3(mt3, true);
  const root = samplePositionTrackFrames(d.root);
  const rotations: Float64Array[] = d.rotations.map((t) => sampleRotationTrackFrames(t));
  const offsets: Float64Array[] | null = d.offsets ? d.offsets.map((t) => samplePositionTrackFrames(t)) : null;
  const decOffset = new Float64Array(J * 3);
  const decRotIn = new Float64Array(J * 4);
  const srcWorld = new Float64Array(J * 3), srcRot = new Float64Array(J * 4);
  const decWorld = new Float64Array(J * 3), decRot = new Float64Array(J * 4);
  const jointMaxError = new Array<number>(J).fill(0);
  const jointMaxErrorFrame = new Array<number>(J).fill(0);
  const frameMaxError = new Float64Array(S);
  for (let f = 0; f < S; f++) {
    fkFrame(source.joints, source.translation, f * 4, source.rotation, f * J * 4, 4, source.offset, f * J * 4, 4, srcWorld, srcRot);
    for (let j = 0; j < J; j++)
      for (let c = 0; c < 3; c++) decOffset[j * 3 + c] = offsets ? offsets[j][f * 3 + c] : source.offset[j * 4 + c];
    for (let j = 0; j < J; j++) for (let c = 0; c < 4; c++) decRotIn[j * 4 + c] = rotations[j][f * 4 + c];
    fkFrame(source.joints, root, f * 3, decRotIn, 0, 4, decOffset, 0, 3, decWorld, decRot);
    let frameWorst = 0;
    for (let j = 0; j < J; j++) {
      const dx = decWorld[j * 3] - srcWorld[j * 3], dy = decWorld[j * 3 + 1] - srcWorld[j * 3 + 1], dz = decWorld[j * 3 + 2] - srcWorld[j * 3 + 2];
      let e2 = dx * dx + dy * dy + dz * dz;
      for (let axis = 0; axis < 3; axis++) {
        const vx = axis === 0 ? shell : 0, vy = axis === 1 ? shell : 0, vz = axis === 2 ? shell : 0;
        rotateInto(axisScratch, 0, decRot[j * 4], decRot[j * 4 + 1], decRot[j * 4 + 2], decRot[j * 4 + 3], vx, vy, vz);
        const ax = axisScratch[0], ay = axisScratch[1], az = axisScratch[2];
        rotateInto(axisScratch, 0, srcRot[j * 4], srcRot[j * 4 + 1], srcRot[j * 4 + 2], srcRot[j * 4 + 3], vx, vy, vz);
        const ex = dx + ax - axisScratch[0], ey = dy + ay - axisScratch[1], ez = dz + az - axisScratch[2];
        const a2 = ex * ex + ey * ey + ez * ez;
        if (a2 > e2) e2 = a2;
      }
      const e = Math.sqrt(e2);
      if (e > jointMaxError[j]) {
        jointMaxError[j] = e;
        jointMaxErrorFrame[j] = f;
      }
      if (e > frameWorst) frameWorst = e;
    }
    frameMaxError[f] = frameWorst;
  }
  let maxErrorJoint = 0;
  for (let j = 1; j < J; j++) if (jointMaxError[j] > jointMaxError[maxErrorJoint]) maxErrorJoint = j;
  return {
    shell,
    jointMaxError,
    jointMaxErrorFrame,
    maxError: J > 0 ? jointMaxError[maxErrorJoint] : 0,
    maxErrorJoint,
    maxErrorFrame: J > 0 ? jointMaxErrorFrame[maxErrorJoint] : 0,
    frameMaxError,
  };
}
