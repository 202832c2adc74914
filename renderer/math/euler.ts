/**
 * Quaternion to Euler angles for the curve view: intrinsic X-Y-Z order (three.js
 * 'XYZ', the usual animator's rotate order), in degrees, unwrapped along time so a
 * curve never jumps by 360 degrees between neighbouring frames. Other rotate orders are
 * available for joints whose XYZ angles pass near gimbal lock (bestEulerOrder).
 */

/** Writes Euler XYZ angles in degrees of the (normalised) quaternion into out[0..2]. */
export function quatToEulerXYZDeg(x: number, y: number, z: number, w: number, out: Float64Array | number[]): void {
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n;
  y /= n;
  z /= n;
  w /= n;
  // Rotation matrix elements (column-major naming as in three.js Matrix4.makeRotationFromQuaternion).
  const m11 = 1 - 2 * (y * y + z * z);
  const m12 = 2 * (x * y - w * z);
  const m13 = 2 * (x * z + w * y);
  const m22 = 1 - 2 * (x * x + z * z);
  const m23 = 2 * (y * z - w * x);
  const m32 = 2 * (y * z + w * x);
  const m33 = 1 - 2 * (x * x + y * y);
  const sy = Math.max(-1, Math.min(1, m13));
  const ey = Math.asin(sy);
  let ex: number, ez: number;
  if (Math.abs(m13) < 0.9999999) {
    ex = Math.atan2(-m23, m33);
    ez = Math.atan2(-m12, m11);
  } else {
    ex = Math.atan2(m32, m22);
    ez = 0;
  }
  const k = 180 / Math.PI;
  out[0] = ex * k;
  out[1] = ey * k;
  out[2] = ez * k;
}

/** Shifts `value` by multiples of 360 to lie within 180 of `previous`. */
export function unwrapDeg(value: number, previous: number): number {
  let v = value;
  while (v - previous > 180) v -= 360;
  while (v - previous < -180) v += 360;
  return v;
}

/**
 * Euler filter (as animators know it from Maya's): among the two XYZ triples that
 * describe the same rotation, (x, y, z) and (x + 180, 180 - y, z + 180), each
 * unwrapped by multiples of 360, picks the one closest to the previous frame's
 * angles, so a turn through the Y = ±90 degree branch point draws as one smooth
 * curve. Writes into out; `current` is what quatToEulerDeg returned. `middle` is the
 * index (0 X, 1 Y, 2 Z) of the rotate order's middle axis: 1 for XYZ.
 */
export function eulerFilterDeg(
  previous: ArrayLike<number>,
  current: ArrayLike<number>,
  out: Float64Array | number[],
  middle = 1,
): void {
  let da = 0;
  let db = 0;
  const a = [0, 0, 0];
  const b = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    a[c] = unwrapDeg(current[c], previous[c]);
    // The other triple: the middle axis of the order mirrored (180 - b), the outer two turned by 180.
    b[c] = unwrapDeg(c === middle ? 180 - current[c] : current[c] + 180, previous[c]);
    da += Math.abs(a[c] - previous[c]);
    db += Math.abs(b[c] - previous[c]);
  }
  const pick = db + 1e-9 < da ? b : a;
  out[0] = pick[0];
  out[1] = pick[1];
  out[2] = pick[2];
}

/** Rotate orders the curve view can show (intrinsic, as three.js names them: 'YXZ' is R = Ry · Rx · Rz). */
export const EULER_ORDERS = ['XYZ', 'YXZ', 'ZXY', 'ZYX', 'YZX', 'XZY'] as const;
export type EulerOrder = (typeof EULER_ORDERS)[number];

const AXIS = { X: 0, Y: 1, Z: 2 } as const;

/**
 * Euler angles in degrees of the quaternion for any intrinsic Tait-Bryan order, written per axis into
 * out[0..2] (out[0] is always the X angle, whatever the order). The middle axis of the order is the
 * one limited to ±90 degrees; near it the other two are degenerate (gimbal lock).
 */
export function quatToEulerDeg(
  order: EulerOrder,
  x: number,
  y: number,
  z: number,
  w: number,
  out: Float64Array | number[],
): void {
  if (order === 'XYZ') {
    quatToEulerXYZDeg(x, y, z, w, out);
    return;
  }
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n;
  y /= n;
  z /= n;
  w /= n;
  // Rotation matrix r[row][col].
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  // R = R_i(a) R_j(b) R_k(c) with (i, j, k) the order's axes: sin b = ±r[i][k], and the sign depends
  // on whether (i, j, k) is a cyclic (even) permutation of (X, Y, Z).
  const i = AXIS[order[0] as 'X'],
    j = AXIS[order[1] as 'X'],
    k = AXIS[order[2] as 'X'];
  const s = (j - i + 3) % 3 === 1 ? 1 : -1;
  const sb = Math.max(-1, Math.min(1, s * r[i][k]));
  const b = Math.asin(sb);
  let a: number, c: number;
  if (Math.abs(sb) < 0.9999999) {
    a = Math.atan2(-s * r[j][k], r[k][k]);
    c = Math.atan2(-s * r[i][j], r[i][i]);
  } else {
    a = Math.atan2(s * r[k][j], r[j][j]);
    c = 0;
  }
  const deg = 180 / Math.PI;
  out[i] = a * deg;
  out[j] = b * deg;
  out[k] = c * deg;
}

/**
 * The rotate order that keeps a joint's curves readable: the one whose middle angle stays farthest from
 * ±90 degrees (gimbal lock) over all frames. A hips joint that turns around the vertical axis passes near
 * Y = ±90 in XYZ, where X and Z swing by 180 degrees within a few frames although the pose hardly changes
 * (CMU 01_01's Hips at frames 274 and 504); with the turn on the outer axis (YXZ) the curves stay smooth.
 * XYZ (what animators expect) is kept while its middle angle stays within ±60 degrees on every frame.
 * `rotation` holds xyzw quaternions, `stride` floats apart, starting at `offset`.
 */
export function bestEulerOrder(rotation: ArrayLike<number>, offset: number, stride: number, count: number): EulerOrder {
  const e = new Float64Array(3);
  let best: EulerOrder = 'XYZ';
  let bestMiddle = Infinity;
  for (const order of EULER_ORDERS) {
    const mid = AXIS[order[1] as 'X'];
    let worst = 0;
    for (let f = 0; f < count && worst < bestMiddle; f++) {
      const o = offset + f * stride;
      quatToEulerDeg(order, rotation[o], rotation[o + 1], rotation[o + 2], rotation[o + 3], e);
      worst = Math.max(worst, Math.abs(e[mid]));
    }
    if (worst < bestMiddle) {
      best = order;
      bestMiddle = worst;
    }
    if (order === 'XYZ' && worst <= 60) return 'XYZ';
  }
  return best;
}
