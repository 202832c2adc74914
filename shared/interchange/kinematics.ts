/**
 * Small rigid-body helpers used by the interchange code (BVH/glTF import and
 * export) and by the sample generators: quaternions as plain [x, y, z, w]
 * arrays and forward kinematics over a Motion. Pure; no three.js, so shared/
 * stays free of DOM types.
 *
 * Forward-kinematics convention (the one every importer in this folder writes):
 * joint 0's world transform is translate(root translation) * rotate(rotation of
 * joint 0); joint 0's offset is kept at zero by the importers (the root's rest
 * position is folded into the root translation). Every other joint j has
 * world(j) = world(parent) * translate(offset j) * rotate(rotation j).
 */
import type { Motion } from '../motion/types';

/** A quaternion x, y, z, w (unit length where it describes a rotation). */
export type Quat = [number, number, number, number];
/** A 3-vector x, y, z. */
export type Vec3 = [number, number, number];

/** Rotation of `angleRad` radians about the unit axis (ax, ay, az). */
export function quatFromAxisAngle(ax: number, ay: number, az: number, angleRad: number): Quat {
  const s = Math.sin(angleRad / 2);
  return [ax * s, ay * s, az * s, Math.cos(angleRad / 2)];
}

/** a * b: the rotation b applied first, then a. */
export function quatMul(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  const [ax, ay, az, aw] = [a[0], a[1], a[2], a[3]];
  const [bx, by, bz, bw] = [b[0], b[1], b[2], b[3]];
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export function quatNormalize(q: ArrayLike<number>): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (n < 1e-300) return [0, 0, 0, 1];
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Rotates vector v by the unit quaternion q. */
export function quatRotate(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  const [qx, qy, qz, qw] = [q[0], q[1], q[2], q[3]];
  const [vx, vy, vz] = [v[0], v[1], v[2]];
  // t = 2 * cross(q.xyz, v); v' = v + w t + cross(q.xyz, t)
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  return [vx + qw * tx + (qy * tz - qz * ty), vy + qw * ty + (qz * tx - qx * tz), vz + qw * tz + (qx * ty - qy * tx)];
}

/**
 * Spherical interpolation along the shorter arc (the sign of b is flipped when
 * dot < 0), for resampling source animation; the result is normalised.
 */
export function quatSlerpShortest(a: ArrayLike<number>, b: ArrayLike<number>, u: number): Quat {
  const out: Quat = [0, 0, 0, 1];
  slerpShortestInto(a, 0, b, 0, u, out, 0);
  return out;
}

/**
 * quatSlerpShortest of the quaternions at a[ai..ai+3] and b[bi..bi+3], written to out[o..o+3]: the same
 * arithmetic without an array per call (resampling runs it for every joint at every frame).
 */
export function slerpShortestInto(
  a: ArrayLike<number>,
  ai: number,
  b: ArrayLike<number>,
  bi: number,
  u: number,
  out: { [i: number]: number },
  o: number,
): void {
  const ax = a[ai],
    ay = a[ai + 1],
    az = a[ai + 2],
    aw = a[ai + 3];
  let bx = b[bi],
    by = b[bi + 1],
    bz = b[bi + 2],
    bw = b[bi + 3];
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let wa: number, wb: number;
  if (d > 1 - 1e-9) {
    wa = 1 - u;
    wb = u;
  } else {
    const th = Math.acos(Math.min(1, d));
    const s = Math.sin(th);
    wa = Math.sin((1 - u) * th) / s;
    wb = Math.sin(u * th) / s;
  }
  // quatNormalize's arithmetic.
  const x = wa * ax + wb * bx,
    y = wa * ay + wb * by,
    z = wa * az + wb * bz,
    w = wa * aw + wb * bw;
  const n = Math.hypot(x, y, z, w);
  if (n < 1e-300) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
    return;
  }
  out[o] = x / n;
  out[o + 1] = y / n;
  out[o + 2] = z / n;
  out[o + 3] = w / n;
}

/**
 * Rotation for Euler angles applied as intrinsic rotations in the given axis
 * order, as BVH channel lists mean them: "ZXY" = rotate about Z, then about
 * the new X, then the new Y, i.e. q = qZ * qX * qY. Angles in radians.
 */
export function quatFromEulerOrder(order: string, angles: ArrayLike<number>): Quat {
  let q: Quat = [0, 0, 0, 1];
  for (let i = 0; i < order.length; i++) {
    const c = order[i];
    const a = angles[i];
    const r =
      c === 'X'
        ? quatFromAxisAngle(1, 0, 0, a)
        : c === 'Y'
          ? quatFromAxisAngle(0, 1, 0, a)
          : quatFromAxisAngle(0, 0, 1, a);
    q = quatMul(q, r);
  }
  return q;
}

/**
 * Makes consecutive samples of one joint's rotation lie in the same
 * hemisphere (dot >= 0). Same rotations, but interpolation and compression see
 * no sign jumps. `stride` is the number of quaternions per frame.
 */
export function makeQuatsContinuous(rotation: Float32Array, samples: number, stride: number): void {
  for (let j = 0; j < stride; j++) {
    for (let f = 1; f < samples; f++) {
      const a = ((f - 1) * stride + j) * 4;
      const b = (f * stride + j) * 4;
      const d =
        rotation[a] * rotation[b] +
        rotation[a + 1] * rotation[b + 1] +
        rotation[a + 2] * rotation[b + 2] +
        rotation[a + 3] * rotation[b + 3];
      if (d < 0) for (let k = 0; k < 4; k++) rotation[b + k] = -rotation[b + k];
    }
  }
}

/** World transforms of every joint at one frame: positions (J x 3) and rotations (J x 4). */
export interface WorldPose {
  positions: Float64Array;
  rotations: Float64Array;
}

/**
 * Forward kinematics of `motion` at integer `frame` (0..N), in motion units,
 * with the convention documented at the top of this file. Computed in float64.
 */
export function worldPose(motion: Motion, frame: number): WorldPose {
  const J = motion.joints.length;
  const positions = new Float64Array(J * 3);
  const rotations = new Float64Array(J * 4);
  const base = frame * J * 4;
  for (let j = 0; j < J; j++) {
    const r = motion.rotation.subarray(base + j * 4, base + j * 4 + 4);
    const p = motion.joints[j].parent;
    if (p < 0) {
      const t = motion.translation.subarray(frame * 4, frame * 4 + 3);
      const o = motion.offset.subarray(base + j * 4, base + j * 4 + 3);
      positions.set([t[0] + o[0], t[1] + o[1], t[2] + o[2]], j * 3);
      rotations.set(quatNormalize(r), j * 4);
    } else {
      const pr = rotations.subarray(p * 4, p * 4 + 4);
      const o = quatRotate(pr, motion.offset.subarray(base + j * 4, base + j * 4 + 3));
      positions.set([positions[p * 3] + o[0], positions[p * 3 + 1] + o[1], positions[p * 3 + 2] + o[2]], j * 3);
      rotations.set(quatNormalize(quatMul(pr, r)), j * 4);
    }
  }
  return { positions, rotations };
}

/**
 * Height of the rest skeleton at frame 0 along Y (max - min joint Y), the
 * yardstick tests use for relative tolerances.
 */
export function skeletonHeight(motion: Motion, frame = 0): number {
  const { positions } = worldPose(motion, frame);
  let lo = Infinity,
    hi = -Infinity;
  for (let j = 0; j < motion.joints.length; j++) {
    lo = Math.min(lo, positions[j * 3 + 1]);
    hi = Math.max(hi, positions[j * 3 + 1]);
  }
  return hi - lo;
}
