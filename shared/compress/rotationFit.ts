import { decodeS12, encodeS12 } from '../math/s12';
import { conjQuat, logQuat, mulQuat, normalize4, rotationErrorDeg } from '../math/quat';
import { ScalarSquad, SquadSegment } from '../math/squad';
import { halfAngleDeg, REFERENCE_BAND } from './innerSearch';
import type { TrackFit } from './track';

const tq = new Float64Array(4);
const tl = new Float64Array(4);
const tr = new Float64Array(4);
const ohi = new Float64Array(4);
const tout = new Float64Array(4);
const segment = new SquadSegment();
const ominv = new Float64Array(4);
const orel = new Float64Array(4);

/**
 * With the 'ends' tangents (TangentBound), the largest |t| (a half-angle, radians) of an end key's inner quaternion
 * a = q exp(t).
 * An interior key's t is a weighted mean of two logs of at most pi/2 (neighbouring stored keys have a
 * non-negative dot product), so |t| <= pi/4 there; an end key's t extrapolates the source's angular velocity over
 * its whole segment and has no bound: a 60-frame segment spinning 179 deg per frame wraps exp(t) round to
 * a = -q at both keys, the Squad's two slerps are then exactly opposite, its outer slerp divides rounding noise
 * by sin(pi), and the decoded rotation is whatever the rounding gives (identity in shared/mt3/decode.ts, NaN in
 * another decoder of docs/formats.md 2.7). Held to pi/4, an inner quaternion is within 45 degrees (4-D) of its
 * key, as every interior one is. The bound is applied only to a channel whose written track would otherwise be
 * ill-conditioned (squadIllConditionedFrame; compress.ts): the unbounded end tangent is what the bundled
 * captures' keys were chosen with.
 */
export const END_TANGENT_MAX = Math.PI / 4;

/**
 * How a RotationFit bounds its keys' tangents t (a = q exp(t)), from the fit the bundled captures' keys were chosen
 * with to one that cannot be ill-conditioned (compress.ts tries them in this order):
 * - 'free': none (the spacing-corrected control points, end keys matching the source's angular velocity);
 * - 'ends': end keys' |t| held to END_TANGENT_MAX;
 * - 'zero': every t = 0, each inner quaternion its key's rotation, so the Squad is the slerp between the two keys.
 *   Pi/4 at every key is not enough: two keys a half turn apart (4-D angle pi/2) with their tangents pi/4 each
 *   pointing away from each other give exactly opposite inner quaternions, and the inner slerp divides by
 *   sin(pi) (the adversarial harness found it: docs/compression.md#adversarial-harness-2026-12-03). With t = 0
 *   the inner slerp is the key slerp, at most pi/2, and the two slerps coincide.
 */
export type TangentBound = 'free' | 'ends' | 'zero';

/**
 * Segments longer than this many frames are first sampled at COARSE_SAMPLES frames by the refined greedy start
 * (segmentOverNear).
 */
const COARSE_SPAN = 8;
/** How many evenly spaced frames that coarse pass samples (about). */
const COARSE_SAMPLES = 4;

/**
 * Squad rotation track fit. A key stores s12(source rotation) and an inner
 * quaternion a_i = q_i exp(t_i) computed from the neighbouring keys' quantised
 * rotations, itself stored as s12. With tl = log(q_i^-1 q_i-1),
 * tr = log(q_i^-1 q_i+1) and key spacings dl, dr:
 *
 *   t_i = -(dr tl + dl tr) / (2 (dl + dr))
 *
 * which is the textbook Squad control point -(tl + tr) / 4 when the keys are
 * evenly spaced, corrected for uneven spacing so that a rotation at constant
 * angular velocity is reproduced exactly whatever the spacing (the textbook
 * point needs about four times the keys on such motion, because greedy
 * insertion makes spacing uneven). At the first and last key the Squad
 * tangent is matched to the source's angular velocity there.
 * The inner quaternion depends on the neighbours, so an insertion refits the
 * keys on either side (fitRadius 1).
 *
 * Signs: each key is kept in the sign of its source sample; segments are
 * evaluated with the far key (rotation and inner together) negated when the
 * two stored rotations have a negative dot product, which is exactly what the
 * written file holds after `alignSigns` (negating a key's two quaternions
 * leaves the decoded rotation unchanged), so errors measured here are the
 * errors of the written bytes.
 */
export class RotationFit implements TrackFit {
  readonly fitRadius: 0 | 1 = 1;
  readonly N: number;
  /** s12 integers per frame, 4 each (x, y, z, w). */
  readonly qInt: Int16Array;
  readonly aInt: Int16Array;
  /** Decoded, normalised stored quaternions per frame. */
  readonly q: Float64Array;
  readonly a: Float64Array;
  private readonly qReady: Uint8Array;
  argmax = -1;
  private readonly squad = new ScalarSquad();
  private readonly keySlerp = new Float64Array(4);
  /**
   * segmentMaxNear's key slerps (ScalarSquad.keySlerpAtNear) by frame, 4 each, and the segment (a, b) each was
   * computed for, 2 each (b = 0: none yet): they depend only on the segment's two key rotations, so a segment
   * measured again after its inner quaternions changed (every greedy insertion measures two such) reuses them.
   * Allocated on first use.
   */
  private nearKeySlerp = new Float64Array(0);
  private nearKeySlerpOf = new Int32Array(0);
  /** segmentMaxNear's tolerance and its reference band (squared half-angle sines), computed once per tolerance. */
  private nearTolerance = NaN;
  private nearLo = 0;
  private nearHi = 0;

  /**
   * @param source (N+1) x 4 unit quaternions, sign-continuous, float64.
   * @param tangents how the keys' tangents are bounded (TangentBound).
   * @param holds the classic method's fit (docs/compression.md#round-20-2026-12-07-classic-holds): an interior key
   *   whose source holds its rotation exactly up to a neighbouring key (holdsBetween) takes t = 0, so the segment
   *   between them decodes their stored rotation on every frame. The control point from the moving neighbour
   *   bulges the segment into the hold, and the greedy loop then keys the hold frame by frame (simple_skin.gltf at
   *   30 fps: 45 keys, 15 of them inside its holds; 15 keys with this). The refined mode searches its inner
   *   quaternions and keeps the control point as its start.
   */
  constructor(
    readonly source: Float64Array,
    N: number,
    readonly tangents: TangentBound = 'free',
    readonly holds = false,
  ) {
    this.N = N;
    this.qInt = new Int16Array((N + 1) * 4);
    this.aInt = new Int16Array((N + 1) * 4);
    this.q = new Float64Array((N + 1) * 4);
    this.a = new Float64Array((N + 1) * 4);
    this.qReady = new Uint8Array(N + 1);
  }

  /** Quantises the key rotation at f (independent of neighbours; done once). */
  private ensureQ(f: number): void {
    if (this.qReady[f]) return;
    const i = f * 4;
    for (let c = 0; c < 4; c++) {
      this.qInt[i + c] = encodeS12(this.source[i + c]);
      this.q[i + c] = decodeS12(this.qInt[i + c]);
    }
    normalize4(this.q, i);
    this.qReady[f] = 1;
  }

  /** The stored dot product of two keys' rotations (exact on the integers), to take its sign. */
  private intDot(f: number, g: number): number {
    const a = f * 4,
      b = g * 4,
      q = this.qInt;
    // `| 0` changes no value (s12 products sum to well under 2^31) but tells V8 a -0 (0 times a negative
    // component) cannot matter; without it the first -0 deoptimises every function this is inlined into.
    return (q[a] * q[b] + q[a + 1] * q[b + 1] + q[a + 2] * q[b + 2] + q[a + 3] * q[b + 3]) | 0;
  }

  /**
   * When set, every key's inner quaternion, as s12 integers (x, y, z, w), in place of the fitted one: a constant
   * channel's pull toward its source (constantRotationInner, docs/compression.md round 11).
   */
  fixedInner: Int16Array | null = null;

  fitKey(f: number, prev: number, next: number): void {
    const fixed = this.fixedInner;
    if (fixed) {
      this.ensureQ(f);
      this.setInner(f, fixed[0], fixed[1], fixed[2], fixed[3]);
      return;
    }
    // On scalars, with the operations of conjQuat / mulQuat / logQuat / expQuat in their order (so
    // the stored integers are those of the quaternion helpers): fitKey runs three times per inserted key.
    this.ensureQ(f);
    if (prev >= 0) this.ensureQ(prev);
    if (next >= 0) this.ensureQ(next);
    const q = this.q;
    const i = f * 4;
    const kx = q[i],
      ky = q[i + 1],
      kz = q[i + 2],
      kw = q[i + 3];
    const dl = prev >= 0 ? f - prev : 0;
    const dr = next >= 0 ? next - f : 0;
    if (prev >= 0) this.relLog(tl, prev, f, kx, ky, kz, kw);
    if (next >= 0) this.relLog(tr, next, f, kx, ky, kz, kw);
    let tx: number, ty: number, tz: number;
    if (this.tangents === 'zero') {
      tx = 0;
      ty = 0;
      tz = 0;
    } else if (prev < 0 || next < 0) {
      // End key: match the source angular velocity on the one segment there is.
      this.sourceOmega(tq, f);
      if (next >= 0) {
        tx = (dr * tq[0] - tr[0]) / 2;
        ty = (dr * tq[1] - tr[1]) / 2;
        tz = (dr * tq[2] - tr[2]) / 2;
      } else {
        tx = (-tl[0] - dl * tq[0]) / 2;
        ty = (-tl[1] - dl * tq[1]) / 2;
        tz = (-tl[2] - dl * tq[2]) / 2;
      }
      // Held to the interior control points' bound where asked (see END_TANGENT_MAX).
      const n = Math.sqrt(tx * tx + ty * ty + tz * tz);
      if (this.tangents === 'ends' && n > END_TANGENT_MAX) {
        const k = END_TANGENT_MAX / n;
        tx *= k;
        ty *= k;
        tz *= k;
      }
    } else if (this.holds && (this.holdsBetween(f, prev) || this.holdsBetween(f, next))) {
      // Beside a held run of the source: the Squad holds still there (see the constructor's `holds`).
      tx = 0;
      ty = 0;
      tz = 0;
    } else {
      // Spacing-corrected control point; equals the textbook -(tl + tr) / 4 when dl = dr.
      const den = 2 * (dl + dr);
      tx = (-dr * tl[0] - dl * tr[0]) / den;
      ty = (-dr * tl[1] - dl * tr[1]) / den;
      tz = (-dr * tl[2] - dl * tr[2]) / den;
    }
    // exp of the pure quaternion t, then key * exp(t).
    const th = Math.sqrt(tx * tx + ty * ty + tz * tz);
    const k = th < 1e-12 ? 1 : Math.sin(th) / th;
    const ex = tx * k,
      ey = ty * k,
      ez = tz * k,
      ew = Math.cos(th);
    const ax = kw * ex + kx * ew + ky * ez - kz * ey;
    const ay = kw * ey - kx * ez + ky * ew + kz * ex;
    const az = kw * ez + kx * ey - ky * ex + kz * ew;
    const aw = kw * ew - kx * ex - ky * ey - kz * ez;
    const aInt = this.aInt,
      a = this.a;
    aInt[i] = encodeS12(ax);
    aInt[i + 1] = encodeS12(ay);
    aInt[i + 2] = encodeS12(az);
    aInt[i + 3] = encodeS12(aw);
    for (let c = 0; c < 4; c++) a[i + c] = decodeS12(aInt[i + c]);
    normalize4(a, i);
  }

  /** Source angular velocity at f in log space (half-angle per frame), in the source frame at f. */
  private sourceOmega(out: Float64Array, f: number): void {
    const s = this.source;
    const lo = f > 0 ? f - 1 : 0;
    const hi = f < this.N ? f + 1 : this.N;
    for (let c = 0; c < 4; c++) {
      ominv[c] = s[lo * 4 + c];
      ohi[c] = s[hi * 4 + c];
    }
    conjQuat(ominv, ominv);
    mulQuat(orel, ominv, ohi);
    logQuat(out, orel);
    for (let c = 0; c < 3; c++) out[c] /= hi - lo;
  }

  /**
   * out = log(q_f^-1 * ±q_g) with the sign making the stored dot product non-negative; (kx, ky, kz, kw)
   * is q_f. The operations of conjQuat, mulQuat and logQuat, in their order.
   */
  private relLog(out: Float64Array, g: number, f: number, kx: number, ky: number, kz: number, kw: number): void {
    const sgn = this.intDot(f, g) < 0 ? -1 : 1;
    const j = g * 4,
      q = this.q;
    const bx = sgn * q[j],
      by = sgn * q[j + 1],
      bz = sgn * q[j + 2],
      bw = sgn * q[j + 3];
    const ix = -kx,
      iy = -ky,
      iz = -kz,
      iw = kw;
    const rx = iw * bx + ix * bw + iy * bz - iz * by;
    const ry = iw * by - ix * bz + iy * bw + iz * bx;
    const rz = iw * bz + ix * by - iy * bx + iz * bw;
    const rw = iw * bw - ix * bx - iy * by - iz * bz;
    const vl = Math.sqrt(rx * rx + ry * ry + rz * rz);
    const w = Math.max(-1, Math.min(1, rw));
    const theta = Math.atan2(vl, w);
    const k = vl < 1e-12 ? 1 : theta / vl;
    out[0] = rx * k;
    out[1] = ry * k;
    out[2] = rz * k;
  }

  /**
   * Whether the source holds key f's rotation exactly on every frame from f to key g (the same four floats), so that
   * both keys store the same s12 integers and the segment between them is a hold.
   */
  private holdsBetween(f: number, g: number): boolean {
    const src = this.source;
    const lo = Math.min(f, g) * 4,
      hi = Math.max(f, g) * 4,
      k = f * 4;
    for (let i = lo; i <= hi; i += 4)
      if (src[i] !== src[k] || src[i + 1] !== src[k + 1] || src[i + 2] !== src[k + 2] || src[i + 3] !== src[k + 3])
        return false;
    return true;
  }

  /** +1 or -1: the sign the far key b takes in segment (a, b) (stored dot product >= 0). */
  segmentSign(a: number, b: number): number {
    return this.intDot(a, b) < 0 ? -1 : 1;
  }

  /** Stores the inner quaternion of key f as the given s12 integers (x, y, z, w), decoded and normalised. */
  setInner(f: number, x: number, y: number, z: number, w: number): void {
    const i = f * 4;
    this.aInt[i] = x;
    this.aInt[i + 1] = y;
    this.aInt[i + 2] = z;
    this.aInt[i + 3] = w;
    for (let c = 0; c < 4; c++) this.a[i + c] = decodeS12(this.aInt[i + c]);
    normalize4(this.a, i);
  }

  keyError(f: number): number {
    return rotationErrorDeg(this.q, f * 4, this.source, f * 4);
  }

  segmentError(a: number, b: number, errors: Float64Array): number {
    // Squad and rotationErrorDeg on scalars (ScalarSquad): the same operations in the same order (so the same
    // bits as the reference decoder), without the calls and boxed doubles that dominate the greedy loop. The
    // equality is tested against squadRef in rotationFit.test.ts.
    const d = b - a;
    const seg = this.squad;
    seg.set(this.q, a * 4, b * 4, this.a, a * 4, b * 4, this.intDot(a, b) < 0 ? -1 : 1);
    const o = seg.out,
      s = this.source;
    let max = -1;
    let arg = -1;
    for (let t = a + 1; t < b; t++) {
      seg.at(t, a, d);
      // rotationErrorDeg(out, source[t])
      const it = t * 4;
      const e =
        (2 *
          Math.acos(Math.min(1, Math.abs(o[0] * s[it] + o[1] * s[it + 1] + o[2] * s[it + 2] + o[3] * s[it + 3]))) *
          180) /
        Math.PI;
      errors[t] = e;
      if (e > max) {
        max = e;
        arg = t;
      }
    }
    this.argmax = arg;
    return max;
  }

  /**
   * The worst interior error of (a, b) and its frame (argmax) for a greedy pass that needs only those (the
   * refined mode's: its removal pass measures every segment again): the Squad samples of
   * ScalarSquad.atWithKeySlerpNear, a frame's error from its residual's length (the sine of half the angle), and
   * the reference decoder's own sample and error for a frame within REFERENCE_BAND of `tolerance` (as the inner
   * search does), so the result is over `tolerance` exactly when segmentError's is. Writes no errors.
   */
  segmentMaxNear(a: number, b: number, tolerance: number): number {
    return this.sampledMax(a, b, tolerance, a + 1, 1);
  }

  /**
   * For the refined mode's greedy start (docs/compression.md#refinement-speed): an interior error of (a, b) over
   * `tolerance` and its frame (argmax) when there is one, found cheaply, else segmentMaxNear's result. A segment
   * longer than COARSE_SPAN frames is first sampled at COARSE_SAMPLES evenly spaced frames; when the worst of them
   * is over the tolerance, the result is the local worst uphill from it (each a true frame error under
   * segmentMaxNear's rules, so over the tolerance exactly as the reference's). The greedy loop then inserts its key
   * there rather than at the segment's worst frame; a segment it keeps without a new key was measured whole, so
   * the greedy start meets the tolerance as before.
   */
  segmentOverNear(a: number, b: number, tolerance: number): number {
    if (b - a > COARSE_SPAN) {
      const step = Math.floor((b - a) / COARSE_SAMPLES);
      let e = this.sampledMax(a, b, tolerance, a + step, step);
      if (e > tolerance) {
        // Uphill from the worst sampled frame, first towards a, else towards b, to the local worst (within a step).
        const start = this.argmax;
        let at = start;
        for (let dir = -1; dir <= 1 && at === start; dir += 2)
          for (let t = start + dir; t > a && t < b && Math.abs(t - start) < step; t += dir) {
            const x = this.sampledMax(a, b, tolerance, t, b - a);
            if (!(x > e)) break;
            e = x;
            at = t;
          }
        this.argmax = at;
        return e;
      }
    }
    return this.sampledMax(a, b, tolerance, a + 1, 1);
  }

  /** segmentMaxNear over the interior frames first, first + step, ... of (a, b). */
  private sampledMax(a: number, b: number, tolerance: number, first: number, step: number): number {
    const d = b - a;
    const seg = this.squad;
    const sign = this.intDot(a, b) < 0 ? -1 : 1;
    seg.setInnerNear(this.a, a * 4, b * 4, sign);
    if (tolerance !== this.nearTolerance) {
      const hb = Math.sin((tolerance * Math.PI) / 360);
      this.nearTolerance = tolerance;
      this.nearLo = Math.max(0, hb - REFERENCE_BAND) ** 2;
      this.nearHi = (hb + REFERENCE_BAND) ** 2;
    }
    const lo = this.nearLo,
      hi = this.nearHi;
    if (this.nearKeySlerp.length === 0) {
      this.nearKeySlerp = new Float64Array((this.N + 1) * 4);
      this.nearKeySlerpOf = new Int32Array((this.N + 1) * 2);
    }
    const cache = this.nearKeySlerp,
      of = this.nearKeySlerpOf;
    // The keys' rotations are loaded only for a frame whose key slerp is not cached (or in the reference band).
    let keysLoaded = false;
    const o = seg.out,
      src = this.source,
      ks = this.keySlerp;
    let worst = -1,
      arg = -1,
      bandMax = -1,
      bandArg = -1;
    for (let t = first; t < b; t += step) {
      if (of[t * 2] !== a || of[t * 2 + 1] !== b) {
        if (!keysLoaded) seg.setKeys(this.q, a * 4, b * 4, sign);
        keysLoaded = true;
        seg.keySlerpAtNear(t, a, d, cache, t * 4);
        of[t * 2] = a;
        of[t * 2 + 1] = b;
      }
      seg.atWithKeySlerpNear(t, a, d, cache, t * 4);
      const j = t * 4;
      const sx = src[j],
        sy = src[j + 1],
        sz = src[j + 2],
        sw = src[j + 3];
      const dx = o[0],
        dy = o[1],
        dz = o[2],
        dw = o[3];
      // The vector part of src^-1 * decoded: its squared length is sin(error / 2)^2.
      const x = sw * dx - sx * dw - sy * dz + sz * dy;
      const y = sw * dy + sx * dz - sy * dw - sz * dx;
      const z = sw * dz - sx * dy + sy * dx - sz * dw;
      const m = x * x + y * y + z * z;
      if (m >= lo && m <= hi) {
        // The reference decoder's own sample, from its own key slerp.
        if (!keysLoaded) seg.setKeys(this.q, a * 4, b * 4, sign);
        keysLoaded = true;
        seg.keySlerpAt(t, a, d, ks, 0);
        seg.atReference(t, a, d, ks, 0);
        const e = (2 * Math.acos(Math.min(1, Math.abs(o[0] * sx + o[1] * sy + o[2] * sz + o[3] * sw))) * 180) / Math.PI;
        if (e > bandMax) {
          bandMax = e;
          bandArg = t;
        }
      }
      if (m > worst) {
        worst = m;
        arg = t;
      }
    }
    if (worst >= lo && worst <= hi) {
      this.argmax = bandArg;
      return bandMax;
    }
    this.argmax = arg;
    return arg < 0 ? -1 : halfAngleDeg(worst);
  }

  /**
   * segmentError's worst interior error of (a, b) (the same values) when it is <= `limit`; otherwise it stops
   * at the first frame over `limit` and returns that frame's error, so a result over the limit says only that.
   */
  segmentErrorUpTo(a: number, b: number, limit: number): number {
    const d = b - a;
    const seg = this.squad;
    seg.set(this.q, a * 4, b * 4, this.a, a * 4, b * 4, this.intDot(a, b) < 0 ? -1 : 1);
    const o = seg.out,
      s = this.source;
    let max = -1;
    for (let t = a + 1; t < b; t++) {
      seg.at(t, a, d);
      const it = t * 4;
      const e =
        (2 *
          Math.acos(Math.min(1, Math.abs(o[0] * s[it] + o[1] * s[it + 1] + o[2] * s[it + 2] + o[3] * s[it + 3]))) *
          180) /
        Math.PI;
      if (e > limit) return e;
      if (e > max) max = e;
    }
    return max;
  }

  segmentWithin(a: number, b: number, tolerance: number): boolean {
    const d = b - a;
    const seg = segment.set(this.q, a * 4, b * 4, this.a, a * 4, b * 4, this.intDot(a, b) < 0 ? -1 : 1);
    // The middle first: a segment over tolerance usually shows it there.
    const mid = (a + b) >> 1;
    if (mid > a && rotationErrorDeg(seg.eval(tout, (mid - a) / d), 0, this.source, mid * 4) > tolerance) return false;
    for (let t = a + 1; t < b; t++)
      if (rotationErrorDeg(seg.eval(tout, (t - a) / d), 0, this.source, t * 4) > tolerance) return false;
    return true;
  }

  /**
   * Stored values of the given keys, with signs chained from the first key so
   * that consecutive stored rotations have dot >= 0 (docs/formats.md 2.3).
   */
  storedKeys(frames: number[]): { rotation: Int16Array; inner: Int16Array } {
    const K = frames.length;
    const rotation = new Int16Array(K * 4);
    const inner = new Int16Array(K * 4);
    let sign = 1;
    for (let k = 0; k < K; k++) {
      const f = frames[k];
      if (k > 0 && this.intDot(frames[k - 1], f) < 0) sign = -sign;
      for (let c = 0; c < 4; c++) {
        rotation[k * 4 + c] = sign * this.qInt[f * 4 + c];
        inner[k * 4 + c] = sign * this.aInt[f * 4 + c];
      }
    }
    return { rotation, inner };
  }
}

/**
 * The first frame of a written rotation track (docs/formats.md 2.3) at which its Squad is ill-conditioned, or -1:
 * a frame inside a segment where one of the three slerps of 2.7 is between nearly opposite quaternions (4-D dot
 * product of the normalised pair under ILL_CONDITIONED_DOT, more than 171.9 degrees apart): the two keys, the two
 * inner quaternions, or at that frame the two inner slerps, slerp(q_a, q_b, u) and slerp(a_a, a_b, u). A slerp
 * divides by the sine of its angle, so there a decoder's rounding is magnified more than 7 times, and at the limit
 * (opposite quaternions) the decoded value is rounding noise (END_TANGENT_MAX; TangentBound for opposite inner
 * quaternions). Squads of the sweep's hostile motions come to 121 degrees at most
 * (docs/compression.md#guarantee-sweep-2026-12-03). Decoded as the reference decoder reads the track.
 */
export const ILL_CONDITIONED_DOT = -0.99;

export function squadIllConditionedFrame(frames: ArrayLike<number>, rotation: Int16Array, inner: Int16Array): number {
  const q = decodeQuats(rotation);
  const a = decodeQuats(inner);
  const s1 = illKeySlerp,
    s2 = illInnerSlerp;
  for (let k = 0; k + 1 < frames.length; k++) {
    const fa = frames[k],
      d = frames[k + 1] - fa;
    if (d > 1 && (opposite(q, k * 4, q, k * 4 + 4) || opposite(a, k * 4, a, k * 4 + 4))) return fa + 1;
    if (d < 2) continue;
    // slerpRef(q_a, q_b, u) and slerpRef(a_a, a_b, u) with each pair's angle computed once per segment, not per
    // frame (ScalarSquad.keySlerpAt: the same operations, so the same bits).
    illKeys.setKeys(q, k * 4, k * 4 + 4, 1);
    illInner.setKeys(a, k * 4, k * 4 + 4, 1);
    for (let t = 1; t < d; t++) {
      illKeys.keySlerpAt(t, 0, d, s1, 0);
      illInner.keySlerpAt(t, 0, d, s2, 0);
      const dot = s1[0] * s2[0] + s1[1] * s2[1] + s1[2] * s2[2] + s1[3] * s2[3];
      const n1 = Math.sqrt(s1[0] * s1[0] + s1[1] * s1[1] + s1[2] * s1[2] + s1[3] * s1[3]);
      const n2 = Math.sqrt(s2[0] * s2[0] + s2[1] * s2[1] + s2[2] * s2[2] + s2[3] * s2[3]);
      if (!(dot >= ILL_CONDITIONED_DOT * n1 * n2)) return fa + t;
    }
  }
  return -1;
}

/** squadIllConditionedFrame's slerps of a segment's keys and of its inner quaternions, and their samples. */
const illKeys = new ScalarSquad();
const illInner = new ScalarSquad();
const illKeySlerp = new Float64Array(4);
const illInnerSlerp = new Float64Array(4);

/** Whether the normalised quaternions v[i..i+3] and w[j..j+3] are nearly opposite (ILL_CONDITIONED_DOT). */
function opposite(v: Float64Array, i: number, w: Float64Array, j: number): boolean {
  return !(v[i] * w[j] + v[i + 1] * w[j + 1] + v[i + 2] * w[j + 2] + v[i + 3] * w[j + 3] >= ILL_CONDITIONED_DOT);
}

function decodeQuats(s: Int16Array): Float64Array {
  const out = new Float64Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = decodeS12(s[i]);
  for (let i = 0; i < s.length; i += 4) normalize4(out, i);
  return out;
}
