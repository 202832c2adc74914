import { encodeS12 } from '../math/s12';
import { conjQuat, expQuat, logQuat, mulQuat } from '../math/quat';
import { dpOptimalKeys } from './dp';
import { greedyCompress } from './greedy';
import { initialKeys } from './keyList';
import type { CompressStrategy } from './methods';
import { RotationFit } from './rotationFit';

const inv = new Float64Array(4);
const key = new Float64Array(4);
const nb = new Float64Array(4);
const rel = new Float64Array(4);
const tl = new Float64Array(4);
const tr = new Float64Array(4);
const t = new Float64Array(4);
const out = new Float64Array(4);

/**
 * A segment-independent Squad fit, for the DP reference only (tests and the
 * bench; never the product): the inner quaternion of a key is the textbook
 * Squad control point computed from the source samples `span` frames on
 * either side of the key (clamped at 0 and N) instead of from the neighbouring
 * keys, so a key's stored values depend on its own frame only and the DP of
 * dp.ts finds the exact fewest keys for this fit. `span` is a fixed guess
 * of the key spacing (the bench uses the classic result's mean gap).
 */
export class FixedSpanRotationFit extends RotationFit {
  override readonly fitRadius: 0 | 1 = 0;

  constructor(
    source: Float64Array,
    N: number,
    private readonly span: number,
  ) {
    super(source, N);
  }

  override fitKey(f: number): void {
    super.fitKey(f, -1, -1); // quantises the key rotation (and a placeholder inner)
    const s = this.source,
      i = f * 4;
    for (let c = 0; c < 4; c++) key[c] = this.q[i + c];
    conjQuat(inv, key);
    const lo = Math.max(0, f - this.span),
      hi = Math.min(this.N, f + this.span);
    this.relLogTo(tl, lo, s);
    this.relLogTo(tr, hi, s);
    for (let c = 0; c < 3; c++) t[c] = -(tl[c] + tr[c]) / 4;
    t[3] = 0;
    expQuat(out, t);
    mulQuat(rel, key, out);
    this.setInner(f, encodeS12(rel[0]), encodeS12(rel[1]), encodeS12(rel[2]), encodeS12(rel[3]));
  }

  /** log(q_key^-1 s_g) with s_g taken in the key's hemisphere; inv holds q_key^-1. */
  private relLogTo(o: Float64Array, g: number, s: Float64Array): void {
    const j = g * 4;
    const sgn = key[0] * s[j] + key[1] * s[j + 1] + key[2] * s[j + 2] + key[3] * s[j + 3] < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) nb[c] = sgn * s[j + c];
    mulQuat(rel, inv, nb);
    logQuat(o, rel);
  }
}

/**
 * The DP reference (tests and the bench, never the product): the exact fewest keys of segment-independent fits,
 * the Hermite fit for positions (as refined) and FixedSpanRotationFit for rotations, whose span is the classic
 * result's mean key gap. Same guarantees on the written bytes as the product's methods.
 */
export const dpReferenceStrategy: CompressStrategy = {
  method: 'dp-reference',
  positionKeys: (fit, userKeys, tolerance) => dpOptimalKeys(fit, userKeys, tolerance),
  rotationKeys(source, N, userKeys, tolerance, tangents) {
    const keys = initialKeys(N, userKeys);
    greedyCompress(new RotationFit(source, N, tangents), keys, tolerance);
    const span = Math.max(1, Math.round(N / Math.max(1, keys.count - 1)));
    const fit = new FixedSpanRotationFit(source, N, span);
    return { fit, ...dpOptimalKeys(fit, userKeys, tolerance) };
  },
};
