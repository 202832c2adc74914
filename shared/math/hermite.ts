/**
 * The reference cubic Hermite of docs/formats.md 2.7 for one component:
 * p(u) = h00 pa + h10 d va + h01 pb + h11 d vb, with d the key spacing in frames
 * and v in units per frame.
 */
export function hermite(pa: number, va: number, pb: number, vb: number, d: number, u: number): number {
  const u2 = u * u;
  const u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1;
  const h10 = u3 - 2 * u2 + u;
  const h01 = -2 * u3 + 3 * u2;
  const h11 = u3 - u2;
  return h00 * pa + h10 * d * va + h01 * pb + h11 * d * vb;
}
