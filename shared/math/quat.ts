/**
 * Quaternion helpers in float64, (x, y, z, w) order. `Quat` is any indexable
 * 4-vector; functions write into `out` and return it so hot loops allocate nothing.
 */
export type Quat = { [i: number]: number; length: number };

export function dot4(a: Quat, ai: number, b: Quat, bi: number): number {
  return a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2] + a[ai + 3] * b[bi + 3];
}

/**
 * `l < SMALLEST_LENGTH` is `l === 0` for a length (the square root of a sum of squares: >= 0 or NaN), written so
 * that V8 compiles the test for doubles from the start. A unit quaternion's length comes out as exactly 1, which
 * V8's interpreter holds as a small integer; a `=== 0` that had seen only those (keys equal to each other, say)
 * was compiled for integers and thrown away, with the Squad kernel around it, at the first fractional length, and
 * compiled again: four times in a cold compression (docs/compression.md#cold-compression-allocations-and-recompiles).
 */
export const SMALLEST_LENGTH = Number.MIN_VALUE;

/** Normalises in place; a zero vector becomes identity. */
export function normalize4(q: Quat, i = 0): Quat {
  const x = q[i],
    y = q[i + 1],
    z = q[i + 2],
    w = q[i + 3];
  const l = Math.sqrt(x * x + y * y + z * z + w * w); // not Math.hypot: several times slower in V8
  if (l < SMALLEST_LENGTH) {
    q[i] = 0;
    q[i + 1] = 0;
    q[i + 2] = 0;
    q[i + 3] = 1;
  } else {
    q[i] /= l;
    q[i + 1] /= l;
    q[i + 2] /= l;
    q[i + 3] /= l;
  }
  return q;
}

/**
 * The reference slerp of docs/formats.md 2.7: theta = acos(clamp(dot)), normalised
 * linear blend when theta < 1e-6, else the sine formula. No sign flip.
 * Not normalised in the sine branch (the reference normalises the final squad).
 */
export function slerpRef(out: Quat, p: Quat, pi: number, q: Quat, qi: number, u: number): Quat {
  let d = dot4(p, pi, q, qi);
  d = d > 1 ? 1 : d < -1 ? -1 : d;
  const theta = Math.acos(d);
  if (theta < 1e-6) {
    const a = 1 - u;
    out[0] = a * p[pi] + u * q[qi];
    out[1] = a * p[pi + 1] + u * q[qi + 1];
    out[2] = a * p[pi + 2] + u * q[qi + 2];
    out[3] = a * p[pi + 3] + u * q[qi + 3];
    return normalize4(out);
  }
  const s = Math.sin(theta);
  const a = Math.sin((1 - u) * theta) / s;
  const b = Math.sin(u * theta) / s;
  out[0] = a * p[pi] + b * q[qi];
  out[1] = a * p[pi + 1] + b * q[qi + 1];
  out[2] = a * p[pi + 2] + b * q[qi + 2];
  out[3] = a * p[pi + 3] + b * q[qi + 3];
  return out;
}

/** Quaternion product a*b. */
export function mulQuat(out: Quat, a: Quat, b: Quat): Quat {
  const ax = a[0],
    ay = a[1],
    az = a[2],
    aw = a[3];
  const bx = b[0],
    by = b[1],
    bz = b[2],
    bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** Conjugate (inverse for unit quaternions). */
export function conjQuat(out: Quat, a: Quat): Quat {
  out[0] = -a[0];
  out[1] = -a[1];
  out[2] = -a[2];
  out[3] = a[3];
  return out;
}

/** Logarithm of a unit quaternion as a pure quaternion (w = 0). */
export function logQuat(out: Quat, a: Quat): Quat {
  const vl = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); // not Math.hypot: several times slower in V8
  const w = Math.max(-1, Math.min(1, a[3]));
  const theta = Math.atan2(vl, w);
  const k = vl < 1e-12 ? 1 : theta / vl;
  out[0] = a[0] * k;
  out[1] = a[1] * k;
  out[2] = a[2] * k;
  out[3] = 0;
  return out;
}

/** Exponential of a pure quaternion. */
export function expQuat(out: Quat, a: Quat): Quat {
  const t = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const k = t < 1e-12 ? 1 : Math.sin(t) / t;
  out[0] = a[0] * k;
  out[1] = a[1] * k;
  out[2] = a[2] * k;
  out[3] = Math.cos(t);
  return out;
}

/** Rotation error in degrees per docs/formats.md 2.8: 2*acos(min(1, |dot|)) of unit quaternions. */
export function rotationErrorDeg(a: Quat, ai: number, b: Quat, bi: number): number {
  const d = Math.min(1, Math.abs(dot4(a, ai, b, bi)));
  return (2 * Math.acos(d) * 180) / Math.PI;
}
