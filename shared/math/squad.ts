import { normalize4, slerpRef, SMALLEST_LENGTH, type Quat } from './quat';

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
 * The reference Squad of docs/formats.md 2.7:
 * squad = slerp(slerp(qa, qb, u), slerp(aa, ab, u), 2u(1-u)), normalised.
 * Inputs are the decoded (normalised) stored quaternions, each a 4-vector at an index.
 */
export function squadRef(out: Quat, q: Quat, qa: number, qb: number, a: Quat, aa: number, ab: number, u: number): Quat {
  return shared.set(q, qa, qb, a, aa, ab).eval(out, u);
}

/** acos of a dot product clamped to [-1, 1] (as SquadSegment and slerpRef clamp it). */
function clampedAcos(v: number): number {
  return Math.acos(v > 1 ? 1 : v < -1 ? -1 : v);
}

/** Largest inner-slerp angle (radians) that ScalarSquad.atWithKeySlerpNear takes by series. */
const NEAR_MAX_INNER_ANGLE = 0.5;
/** Largest sin(theta / 2)^2 of the outer slerp's angle that it takes by series (theta about 0.2 rad). */
const NEAR_MAX_HALF_CHORD_SQ = 0.01;

/** theta^2 = (2 asin(sqrt q))^2 of an angle whose sin(theta / 2)^2 is q <= NEAR_MAX_HALF_CHORD_SQ (error under 1e-12 relative). */
function angleSqFromHalfChordSq(q: number): number {
  return 4 * q * (1 + q * (1 / 3 + q * (8 / 45 + q * (4 / 35 + q * (128 / 1575)))));
}

/** sin(x) / x as a series in x^2 (x^2 <= 0.25: error under 3e-14). */
function sincSeries(x2: number): number {
  return 1 - x2 * (1 / 6 - x2 * (1 / 120 - x2 * (1 / 5040 - x2 * (1 / 362880 - x2 / 39916800))));
}

/**
 * SquadSegment for the compressor's hot loops: keys loaded from their arrays
 * and each sample computed on scalars into `out`, with the same operations in
 * the same order (so the same bits as squadRef; rotationFit.test.ts holds them
 * equal). Nothing but small integers crosses a call, so evaluating a segment
 * frame by frame allocates nothing (a double passed to a call that is not
 * inlined is boxed: that was most of a build's garbage).
 */
export class ScalarSquad {
  /** The normalised Squad sample of the last `at` (x, y, z, w). */
  readonly out = new Float64Array(4);
  /**
   * Keys (0-7), inner quaternions (8-15), the keys' angle and its sine (16, 17), the inner quaternions' angle and
   * its sine (18, 19), that angle squared (20), and 1 when 18 and 19 are loaded (21; setInnerNear leaves them);
   * the series' 1 / sinc of the inner angle (22) and of the keys' angle (23), NaN until a series sample of the
   * segment needs it (the same value at every frame, so computed once per segment).
   */
  private readonly k = new Float64Array(24);
  private readonly s1 = new Float64Array(4);

  /** Loads keys a (q[ia], A[ja]) and b (q[ib], A[jb]); `sign` -1 negates key b's two quaternions. */
  set(q: ArrayLike<number>, ia: number, ib: number, A: ArrayLike<number>, ja: number, jb: number, sign: number): void {
    this.setKeys(q, ia, ib, sign);
    this.setInner(A, ja, jb, sign);
  }

  /** Loads only the key rotations (as `set` does): keySlerpAt needs nothing else. */
  setKeys(q: ArrayLike<number>, ia: number, ib: number, sign: number): void {
    const k = this.k;
    for (let c = 0; c < 4; c++) {
      k[c] = q[ia + c];
      k[4 + c] = sign * q[ib + c];
    }
    k[16] = clampedAcos(k[0] * k[4] + k[1] * k[5] + k[2] * k[6] + k[3] * k[7]);
    k[17] = Math.sin(k[16]);
    k[23] = NaN;
  }

  /**
   * Loads only the inner quaternions (as `set` does): all that atWithKeySlerp reads besides the key slerp, so a
   * search that varies the inner quaternions of fixed keys reloads only them.
   */
  setInner(A: ArrayLike<number>, ja: number, jb: number, sign: number): void {
    const k = this.k;
    for (let c = 0; c < 4; c++) {
      k[8 + c] = A[ja + c];
      k[12 + c] = sign * A[jb + c];
    }
    this.exactInnerAngle();
  }

  /**
   * setInner for atWithKeySlerpNear alone: the inner quaternions' squared angle from their chord as a series when
   * it is small (no acos or sine; atReference and the fallbacks load the angle itself when they need it).
   */
  setInnerNear(A: ArrayLike<number>, ja: number, jb: number, sign: number): void {
    const k = this.k;
    for (let c = 0; c < 4; c++) {
      k[8 + c] = A[ja + c];
      k[12 + c] = sign * A[jb + c];
    }
    const cx = k[8] - k[12],
      cy = k[9] - k[13],
      cz = k[10] - k[14],
      cw = k[11] - k[15];
    const q = (cx * cx + cy * cy + cz * cz + cw * cw) / 4;
    if (q > NEAR_MAX_HALF_CHORD_SQ) {
      this.exactInnerAngle();
      return;
    }
    k[20] = angleSqFromHalfChordSq(q);
    k[21] = 0;
    k[22] = NaN;
  }

  /** The inner quaternions' angle and its sine as setInner computes them. */
  private exactInnerAngle(): void {
    const k = this.k;
    k[18] = clampedAcos(k[8] * k[12] + k[9] * k[13] + k[10] * k[14] + k[11] * k[15]);
    k[19] = Math.sin(k[18]);
    k[20] = k[18] * k[18];
    k[21] = 1;
    k[22] = NaN;
  }

  /** atWithKeySlerp after setInner or setInnerNear: the reference decoder's very sample. */
  atReference(t: number, a: number, d: number, s1: Float64Array, o: number): void {
    if (this.k[21] === 0) this.exactInnerAngle();
    this.atWithKeySlerp(t, a, d, s1, o);
  }

  /** out = the Squad at u = (t - a) / d. */
  at(t: number, a: number, d: number): void {
    const s1 = this.s1;
    this.keySlerpAt(t, a, d, s1, 0);
    this.atWithKeySlerp(t, a, d, s1, 0);
  }

  /**
   * The first half of `at`: s1 = slerp(qa, qb, u), into s1[o..o+3]. It depends only on the keys' rotations, so a
   * search that varies the inner quaternions computes it once per frame and calls atWithKeySlerp.
   */
  keySlerpAt(t: number, a: number, d: number, out: Float64Array, o: number): void {
    const k = this.k;
    const u = (t - a) / d;
    // s1 = blend(qa, qb, u): slerpRef with the keys' angle computed once
    const thQ = k[16],
      sinQ = k[17];
    let s1x: number, s1y: number, s1z: number, s1w: number;
    if (thQ < 1e-6) {
      const w0 = 1 - u;
      s1x = w0 * k[0] + u * k[4];
      s1y = w0 * k[1] + u * k[5];
      s1z = w0 * k[2] + u * k[6];
      s1w = w0 * k[3] + u * k[7];
      const l = Math.sqrt(s1x * s1x + s1y * s1y + s1z * s1z + s1w * s1w);
      if (l < SMALLEST_LENGTH) {
        s1x = 0;
        s1y = 0;
        s1z = 0;
        s1w = 1;
      } else {
        s1x /= l;
        s1y /= l;
        s1z /= l;
        s1w /= l;
      }
    } else {
      const w0 = Math.sin((1 - u) * thQ) / sinQ;
      const w1 = Math.sin(u * thQ) / sinQ;
      s1x = w0 * k[0] + w1 * k[4];
      s1y = w0 * k[1] + w1 * k[5];
      s1z = w0 * k[2] + w1 * k[6];
      s1w = w0 * k[3] + w1 * k[7];
    }
    out[o] = s1x;
    out[o + 1] = s1y;
    out[o + 2] = s1z;
    out[o + 3] = s1w;
  }

  /**
   * atWithKeySlerp to within about 1e-14 per component, with the slerps' sines as series instead of calls (the
   * inner search samples the Squad many times per removal; its reference checks take atWithKeySlerp wherever the
   * difference could matter). Angles beyond the series' range take atWithKeySlerp itself.
   */
  atWithKeySlerpNear(t: number, a: number, d: number, s1: Float64Array, o: number): void {
    const k = this.k;
    const th2 = k[20];
    if (th2 > NEAR_MAX_INNER_ANGLE * NEAR_MAX_INNER_ANGLE) {
      this.atReference(t, a, d, s1, o);
      return;
    }
    const u = (t - a) / d;
    const s1x = s1[o],
      s1y = s1[o + 1],
      s1z = s1[o + 2],
      s1w = s1[o + 3];
    // s2 = slerp(aa, ab, u): sin(x theta) / sin(theta) = x sinc(x theta) / sinc(theta)
    let iA = k[22];
    if (Number.isNaN(iA)) iA = k[22] = 1 / sincSeries(th2);
    const a0 = (1 - u) * sincSeries((1 - u) * (1 - u) * th2) * iA,
      a1 = u * sincSeries(u * u * th2) * iA;
    const s2x = a0 * k[8] + a1 * k[12],
      s2y = a0 * k[9] + a1 * k[13],
      s2z = a0 * k[10] + a1 * k[14],
      s2w = a0 * k[11] + a1 * k[15];
    // out = normalize(slerp(s1, s2, h)): theta^2 from the chord, sin(theta / 2)^2 = |s1 - s2|^2 / 4
    const cx = s1x - s2x,
      cy = s1y - s2y,
      cz = s1z - s2z,
      cw = s1w - s2w;
    const q = (cx * cx + cy * cy + cz * cz + cw * cw) / 4;
    if (q > NEAR_MAX_HALF_CHORD_SQ) {
      this.atReference(t, a, d, s1, o);
      return;
    }
    const phi = angleSqFromHalfChordSq(q);
    const h = 2 * u * (1 - u);
    const iS = 1 / sincSeries(phi);
    const w0 = (1 - h) * sincSeries((1 - h) * (1 - h) * phi) * iS,
      w1 = h * sincSeries(h * h * phi) * iS;
    const ox = w0 * s1x + w1 * s2x,
      oy = w0 * s1y + w1 * s2y,
      oz = w0 * s1z + w1 * s2z,
      ow = w0 * s1w + w1 * s2w;
    const l = Math.sqrt(ox * ox + oy * oy + oz * oz + ow * ow);
    const out = this.out;
    out[0] = ox / l;
    out[1] = oy / l;
    out[2] = oz / l;
    out[3] = ow / l;
  }

  /**
   * keySlerpAt to within about 1e-14 per component, its sines as series (keys more than NEAR_MAX_INNER_ANGLE
   * apart take keySlerpAt itself); for atWithKeySlerpNear, never for atReference.
   */
  keySlerpAtNear(t: number, a: number, d: number, out: Float64Array, o: number): void {
    const k = this.k;
    const th = k[16];
    if (th > NEAR_MAX_INNER_ANGLE) {
      this.keySlerpAt(t, a, d, out, o);
      return;
    }
    const u = (t - a) / d;
    const th2 = th * th;
    let iS = k[23];
    if (Number.isNaN(iS)) iS = k[23] = 1 / sincSeries(th2);
    const w0 = (1 - u) * sincSeries((1 - u) * (1 - u) * th2) * iS,
      w1 = u * sincSeries(u * u * th2) * iS;
    out[o] = w0 * k[0] + w1 * k[4];
    out[o + 1] = w0 * k[1] + w1 * k[5];
    out[o + 2] = w0 * k[2] + w1 * k[6];
    out[o + 3] = w0 * k[3] + w1 * k[7];
  }

  /** The rest of `at`, from the key slerp s1 (s1[o..o+3]) that keySlerpAt gave for the same t: out = the Squad. */
  atWithKeySlerp(t: number, a: number, d: number, s1: Float64Array, o: number): void {
    const k = this.k;
    const u = (t - a) / d;
    const s1x = s1[o],
      s1y = s1[o + 1],
      s1z = s1[o + 2],
      s1w = s1[o + 3];
    // s2 = blend(aa, ab, u)
    const thA = k[18],
      sinA = k[19];
    let s2x: number, s2y: number, s2z: number, s2w: number;
    if (thA < 1e-6) {
      const w0 = 1 - u;
      s2x = w0 * k[8] + u * k[12];
      s2y = w0 * k[9] + u * k[13];
      s2z = w0 * k[10] + u * k[14];
      s2w = w0 * k[11] + u * k[15];
      const l = Math.sqrt(s2x * s2x + s2y * s2y + s2z * s2z + s2w * s2w);
      if (l < SMALLEST_LENGTH) {
        s2x = 0;
        s2y = 0;
        s2z = 0;
        s2w = 1;
      } else {
        s2x /= l;
        s2y /= l;
        s2z /= l;
        s2w /= l;
      }
    } else {
      const w0 = Math.sin((1 - u) * thA) / sinA;
      const w1 = Math.sin(u * thA) / sinA;
      s2x = w0 * k[8] + w1 * k[12];
      s2y = w0 * k[9] + w1 * k[13];
      s2z = w0 * k[10] + w1 * k[14];
      s2w = w0 * k[11] + w1 * k[15];
    }
    // out = normalize(slerpRef(s1, s2, 2u(1-u)))
    const h = 2 * u * (1 - u);
    const th = clampedAcos(s1x * s2x + s1y * s2y + s1z * s2z + s1w * s2w);
    let ox: number, oy: number, oz: number, ow: number;
    if (th < 1e-6) {
      const w0 = 1 - h;
      ox = w0 * s1x + h * s2x;
      oy = w0 * s1y + h * s2y;
      oz = w0 * s1z + h * s2z;
      ow = w0 * s1w + h * s2w;
      const l = Math.sqrt(ox * ox + oy * oy + oz * oz + ow * ow);
      if (l < SMALLEST_LENGTH) {
        ox = 0;
        oy = 0;
        oz = 0;
        ow = 1;
      } else {
        ox /= l;
        oy /= l;
        oz /= l;
        ow /= l;
      }
    } else {
      const sn = Math.sin(th);
      const w0 = Math.sin((1 - h) * th) / sn;
      const w1 = Math.sin(h * th) / sn;
      ox = w0 * s1x + w1 * s2x;
      oy = w0 * s1y + w1 * s2y;
      oz = w0 * s1z + w1 * s2z;
      ow = w0 * s1w + w1 * s2w;
    }
    const l = Math.sqrt(ox * ox + oy * oy + oz * oz + ow * ow);
    const out = this.out;
    if (l < SMALLEST_LENGTH) {
      out[0] = 0;
      out[1] = 0;
      out[2] = 0;
      out[3] = 1;
    } else {
      out[0] = ox / l;
      out[1] = oy / l;
      out[2] = oz / l;
      out[3] = ow / l;
    }
  }
}
