import { normalize4, slerpRef, type Quat } from './quat';

const tmpA = new Float64Array(4);
const tmpB = new Float64Array(4);

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
  slerpRef(tmpA, q, qa, q, qb, u);
  slerpRef(tmpB, a, aa, a, ab, u);
  slerpRef(out, tmpA, 0, tmpB, 0, 2 * u * (1 - u));
  return normalize4(out);
}
