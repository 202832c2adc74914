import { normalize4, slerpRef, type Quat } from './quat';

/**
 * One Squad segment with the two outer slerps' angles computed once, so a
 * segment evaluated at many u costs one acos per sample instead of three.
 * `squadRef` is built on it, so prepared and one-off evaluation give
 * identical bits.
 */
export class SquadSegment {
  private readonly qa = new Float64Array(4);
  private readonly qb = new Float64Array(4);
  private readonly aa = new Float64Array(4);
  private readonly ab = new Float64Array(4);
  private thQ = 0;
  private sinQ = 0;
  private thA = 0;
  private sinA = 0;
  private readonly s1 = new Float64Array(4);
  private readonly s2 = new Float64Array(4);

  /** Loads keys a (q[qa], a[aa]) and b (q[qb], a[ab]); `sign` -1 negates key b's two quaternions. */
  set(q: Quat, qa: number, qb: number, a: Quat, aa: number, ab: number, sign = 1): this {
    for (let c = 0; c < 4; c++) {
      this.qa[c] = q[qa + c];
      this.qb[c] = sign * q[qb + c];
      this.aa[c] = a[aa + c];
      this.ab[c] = sign * a[ab + c];
    }
    this.thQ = angle(this.qa, this.qb);
    this.sinQ = Math.sin(this.thQ);
    this.thA = angle(this.aa, this.ab);
    this.sinA = Math.sin(this.thA);
    return this;
  }

  /** The reference Squad at u, normalised, into out. */
  eval(out: Quat, u: number): Quat {
    blend(this.s1, this.qa, this.qb, this.thQ, this.sinQ, u);
    blend(this.s2, this.aa, this.ab, this.thA, this.sinA, u);
    slerpRef(out, this.s1, 0, this.s2, 0, 2 * u * (1 - u));
    return normalize4(out);
  }
}

/** acos of the clamped dot product (no tuple: this runs once per segment evaluated). */
function angle(p: Float64Array, q: Float64Array): number {
  let d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
  d = d > 1 ? 1 : d < -1 ? -1 : d;
  return Math.acos(d);
}

/** slerpRef with theta and sin(theta) precomputed (same operations, same order). */
function blend(out: Float64Array, p: Float64Array, q: Float64Array, theta: number, s: number, u: number): void {
  if (theta < 1e-6) {
    const a = 1 - u;
    out[0] = a * p[0] + u * q[0];
    out[1] = a * p[1] + u * q[1];
    out[2] = a * p[2] + u * q[2];
    out[3] = a * p[3] + u * q[3];
    normalize4(out);
    return;
  }
  const a = Math.sin((1 - u) * theta) / s;
  const b = Math.sin(u * theta) / s;
  out[0] = a * p[0] + b * q[0];
  out[1] = a * p[1] + b * q[1];
  out[2] = a * p[2] + b * q[2];
  out[3] = a * p[3] + b * q[3];
}

const shared = new SquadSegment();

/**
 * The reference Squad of FORMATS.md 2.7:
 * squad = slerp(slerp(qa, qb, u), slerp(aa, ab, u), 2u(1-u)), normalised.
 * Inputs are the decoded (normalised) stored quaternions, each a 4-vector at an index.
 */
export function squadRef(
  out: Quat,
  q: Quat, qa: number, qb: number,
  a: Quat, aa: number, ab: number,
  u: number,
): Quat {
  return shared.set(q, qa, qb, a, aa, ab).eval(out, u);
}
