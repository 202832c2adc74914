/**
 * Quaternion to Euler angles for the curve view: intrinsic X-Y-Z order (three.js
 * 'XYZ', the usual animator's rotate order), in degrees, unwrapped along time so a
 * curve never jumps by 360 degrees between neighbouring frames.
 */

/** Writes Euler XYZ angles in degrees of the (normalised) quaternion into out[0..2]. */
export function quatToEulerXYZDeg(x: number, y: number, z: number, w: number, out: Float64Array | number[]): void {
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n; y /= n; z /= n; w /= n;
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
 * curve. Writes into out; `current` is what quatToEulerXYZDeg returned.
 */
export function eulerFilterDeg(previous: ArrayLike<number>, current: ArrayLike<number>, out: Float64Array | number[]): void {
  const a0 = unwrapDeg(current[0], previous[0]);
  const a1 = unwrapDeg(current[1], previous[1]);
  const a2 = unwrapDeg(current[2], previous[2]);
  const b0 = unwrapDeg(current[0] + 180, previous[0]);
  const b1 = unwrapDeg(180 - current[1], previous[1]);
  const b2 = unwrapDeg(current[2] + 180, previous[2]);
  const da = Math.abs(a0 - previous[0]) + Math.abs(a1 - previous[1]) + Math.abs(a2 - previous[2]);
  const db = Math.abs(b0 - previous[0]) + Math.abs(b1 - previous[1]) + Math.abs(b2 - previous[2]);
  if (db + 1e-9 < da) {
    out[0] = b0; out[1] = b1; out[2] = b2;
  } else {
    out[0] = a0; out[1] = a1; out[2] = a2;
  }
}
