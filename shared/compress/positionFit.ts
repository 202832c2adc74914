import { FormatError } from '../errors';
import { decodeH16, encodeH16, H16_MAX, QuantizeError } from '../math/half';
import { hermite } from '../math/hermite';
import type { TrackFit } from './track';

/**
 * Hermite position track fit (root translation or a joint's offsets).
 * A key stores h16(source position) and h16(velocity), where the velocity is
 * the central difference of the source at the key frame (one-sided at 0 and N),
 * in units per frame, held within what h16 stores (a one-sided difference between two storable positions can
 * be up to twice that). Both depend only on the key's own frame (fitRadius 0),
 * so an insertion only changes the two segments around the new key.
 */
export class PositionFit implements TrackFit {
  readonly fitRadius = 0 as const;
  readonly N: number;
  /** Stored bits per frame (only key frames are meaningful). */
  readonly pBits: Uint16Array;
  readonly vBits: Uint16Array;
  /** Decoded stored values per frame, float64. */
  readonly p: Float64Array;
  readonly v: Float64Array;
  argmax = -1;

  /**
   * @param source (N+1) x 3 positions in motion units, float64.
   * @param where channel name for error messages ("translation", "offset joint 3").
   */
  constructor(
    readonly source: Float64Array,
    N: number,
    private readonly where: string,
  ) {
    this.N = N;
    this.pBits = new Uint16Array((N + 1) * 3);
    this.vBits = new Uint16Array((N + 1) * 3);
    this.p = new Float64Array((N + 1) * 3);
    this.v = new Float64Array((N + 1) * 3);
  }

  fitKey(f: number): void {
    const s = this.source;
    const N = this.N;
    const lo = f > 0 ? f - 1 : 0;
    const hi = f < N ? f + 1 : N;
    const span = hi - lo;
    for (let c = 0; c < 3; c++) {
      const i = f * 3 + c;
      const vel = Math.min(H16_MAX, Math.max(-H16_MAX, (s[hi * 3 + c] - s[lo * 3 + c]) / span));
      this.pBits[i] = this.quantize(s[i], f, 'position');
      this.vBits[i] = this.quantize(vel, f, 'velocity');
      this.p[i] = decodeH16(this.pBits[i]);
      this.v[i] = decodeH16(this.vBits[i]);
    }
  }

  keyError(f: number): number {
    const i = f * 3;
    const dx = this.p[i] - this.source[i];
    const dy = this.p[i + 1] - this.source[i + 1];
    const dz = this.p[i + 2] - this.source[i + 2];
    return Math.sqrt(dx * dx + dy * dy + dz * dz);
  }

  segmentError(a: number, b: number, errors: Float64Array): number {
    const d = b - a;
    const p = this.p,
      v = this.v,
      s = this.source;
    const ia = a * 3,
      ib = b * 3;
    const pax = p[ia],
      pay = p[ia + 1],
      paz = p[ia + 2];
    const vax = v[ia],
      vay = v[ia + 1],
      vaz = v[ia + 2];
    const pbx = p[ib],
      pby = p[ib + 1],
      pbz = p[ib + 2];
    const vbx = v[ib],
      vby = v[ib + 1],
      vbz = v[ib + 2];
    let max = -1;
    let arg = -1;
    for (let t = a + 1; t < b; t++) {
      const u = (t - a) / d;
      const it = t * 3;
      const dx = hermite(pax, vax, pbx, vbx, d, u) - s[it];
      const dy = hermite(pay, vay, pby, vby, d, u) - s[it + 1];
      const dz = hermite(paz, vaz, pbz, vbz, d, u) - s[it + 2];
      const e = Math.sqrt(dx * dx + dy * dy + dz * dz);
      errors[t] = e;
      if (e > max) {
        max = e;
        arg = t;
      }
    }
    this.argmax = arg;
    return max;
  }

  segmentWithin(a: number, b: number, tolerance: number): boolean {
    // The middle first: a segment over tolerance usually shows it there.
    if (this.frameError(a, b, (a + b) >> 1) > tolerance) return false;
    for (let t = a + 1; t < b; t++) if (this.frameError(a, b, t) > tolerance) return false;
    return true;
  }

  /** Error at interior frame t of segment (a, b): the same operations as segmentError. */
  private frameError(a: number, b: number, t: number): number {
    const d = b - a;
    const p = this.p,
      v = this.v,
      s = this.source;
    const ia = a * 3,
      ib = b * 3,
      it = t * 3;
    const u = (t - a) / d;
    const dx = hermite(p[ia], v[ia], p[ib], v[ib], d, u) - s[it];
    const dy = hermite(p[ia + 1], v[ia + 1], p[ib + 1], v[ib + 1], d, u) - s[it + 1];
    const dz = hermite(p[ia + 2], v[ia + 2], p[ib + 2], v[ib + 2], d, u) - s[it + 2];
    return Math.sqrt(dx * dx + dy * dy + dz * dz);
  }

  private quantize(value: number, frame: number, what: string): number {
    try {
      return encodeH16(value);
    } catch (e) {
      if (e instanceof QuantizeError)
        throw new FormatError('MTN', `${what} cannot be stored: ${e.message}`, {
          where: `${this.where} frame ${frame}`,
        });
      throw e;
    }
  }
}
