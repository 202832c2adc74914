/**
 * Forward kinematics for drawing: world positions of every joint from local
 * rotations and offsets (the convention of shared/interchange/kinematics.ts:
 * world(0) = translate(root) * translate(offset 0) * rotate(rot 0),
 * world(j) = world(parent) * translate(offset j) * rotate(rot j)).
 * Allocation-free so the render loop can call it every frame.
 */
import type { Motion } from '../../shared/motion/types';

/** Reads a joint's local rotation (x, y, z, w) into out[0..3]. */
export type RotationSource = (joint: number, out: Float64Array) => void;
/** Reads a joint's local offset (x, y, z) into out[0..2]. */
export type OffsetSource = (joint: number, out: Float64Array) => void;

/** Scratch buffers for one skeleton. */
export interface PoseBuffers {
  /** World joint positions, J x 3. */
  positions: Float32Array;
  /** World joint rotations, J x 4 (x, y, z, w). */
  worldRot: Float64Array;
  q: Float64Array;
  o: Float64Array;
}

export function createPoseBuffers(jointCount: number): PoseBuffers {
  return {
    positions: new Float32Array(jointCount * 3),
    worldRot: new Float64Array(jointCount * 4),
    q: new Float64Array(4),
    o: new Float64Array(3),
  };
}

/** Rotates v by unit quaternion q (x, y, z, w at qi) and writes to out. */
function rotateVec(q: Float64Array, qi: number, vx: number, vy: number, vz: number, out: Float64Array): void {
  const x = q[qi],
    y = q[qi + 1],
    z = q[qi + 2],
    w = q[qi + 3];
  // t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  out[0] = vx + w * tx + (y * tz - z * ty);
  out[1] = vy + w * ty + (z * tx - x * tz);
  out[2] = vz + w * tz + (x * ty - y * tx);
}

/** Computes world positions (and rotations) for every joint. */
export function solvePose(
  parents: ArrayLike<number>,
  root: ArrayLike<number>,
  rotation: RotationSource,
  offset: OffsetSource,
  buf: PoseBuffers,
): void {
  const J = parents.length;
  const { positions: P, worldRot: R, q, o } = buf;
  const t = new Float64Array(3);
  for (let j = 0; j < J; j++) {
    rotation(j, q);
    // Decoded quaternions are normalised by the samplers; source ones are unit by file contract,
    // but normalise anyway so a slightly off file still draws rigid bones.
    const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
    const qx = q[0] / n,
      qy = q[1] / n,
      qz = q[2] / n,
      qw = q[3] / n;
    offset(j, o);
    const p = parents[j];
    if (p < 0) {
      P[j * 3] = root[0] + o[0];
      P[j * 3 + 1] = root[1] + o[1];
      P[j * 3 + 2] = root[2] + o[2];
      R[j * 4] = qx;
      R[j * 4 + 1] = qy;
      R[j * 4 + 2] = qz;
      R[j * 4 + 3] = qw;
      continue;
    }
    rotateVec(R, p * 4, o[0], o[1], o[2], t);
    P[j * 3] = P[p * 3] + t[0];
    P[j * 3 + 1] = P[p * 3 + 1] + t[1];
    P[j * 3 + 2] = P[p * 3 + 2] + t[2];
    // world = parentWorld * local
    const ax = R[p * 4],
      ay = R[p * 4 + 1],
      az = R[p * 4 + 2],
      aw = R[p * 4 + 3];
    R[j * 4] = aw * qx + ax * qw + ay * qz - az * qy;
    R[j * 4 + 1] = aw * qy - ax * qz + ay * qw + az * qx;
    R[j * 4 + 2] = aw * qz + ax * qy - ay * qx + az * qw;
    R[j * 4 + 3] = aw * qw - ax * qx - ay * qy - az * qz;
  }
}

/** Source (MTN) pose sources at an integer frame. */
export function sourceRotation(m: Motion, frame: number): RotationSource {
  const J = m.joints.length;
  return (j, out) => {
    const i = (frame * J + j) * 4;
    out[0] = m.rotation[i];
    out[1] = m.rotation[i + 1];
    out[2] = m.rotation[i + 2];
    out[3] = m.rotation[i + 3];
  };
}

export function sourceOffset(m: Motion, frame: number): OffsetSource {
  const J = m.joints.length;
  return (j, out) => {
    const i = (frame * J + j) * 4;
    out[0] = m.offset[i];
    out[1] = m.offset[i + 1];
    out[2] = m.offset[i + 2];
  };
}

export function parentsOf(m: Motion): Int32Array {
  return Int32Array.from(m.joints.map((j) => j.parent));
}
