import { roundHalfEven } from './round';

/**
 * The MT3 `h16` position codec (docs/formats.md 2.2): IEEE binary16 bits of v / 128,
 * round-to-nearest-even; decode is half(bits) * 128. Subnormals are kept.
 */

/** Largest magnitude an h16 can hold: 65504 * 128. */
export const H16_MAX = 65504 * 128;
/**
 * The smallest magnitude encodeH16 refuses: 65,520 x 128 is halfway between 65,504 and 65,536 (x 128), and rounding
 * to even goes up, past binary16. Below it a value rounds to at most H16_MAX.
 */
export const H16_LIMIT = 65520 * 128;

/** Whether encodeH16 stores `v` (a finite value under H16_LIMIT in magnitude). */
export function h16Storable(v: number): boolean {
  return Math.abs(v) < H16_LIMIT;
}

export class QuantizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantizeError';
  }
}

/** Encodes a value to h16 bits. Throws QuantizeError for NaN, infinities and |v| that rounds past 65504*128. */
export function encodeH16(v: number): number {
  if (!Number.isFinite(v)) throw new QuantizeError(`value ${v} cannot be stored as h16 (not finite)`);
  const x = v / 128; // exact: division by a power of two
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a < 2 ** -14) {
    // Subnormal (or zero): units of 2^-24; a carry to 1024 lands exactly on the smallest normal.
    const m = roundHalfEven(a * 2 ** 24);
    return sign | m;
  }
  let e = Math.floor(Math.log2(a));
  // Math.log2 can be off by one ulp near powers of two; correct it exactly.
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e += 1;
  }
  if (e > 15) throw new QuantizeError(`value ${v} is too large for h16 (largest magnitude ${H16_MAX})`);
  return sign | ((e + 15) << 10) | m;
}

/** Decodes h16 bits to the stored value (half * 128). */
export function decodeH16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  let h: number;
  if (e === 0) h = m * 2 ** -24;
  else if (e === 31) h = m === 0 ? Infinity : NaN;
  else h = (1 + m / 1024) * 2 ** (e - 15);
  return sign * h * 128;
}

/** Quantises a value through h16 and back (what the game will see). */
export function quantizeH16(v: number): number {
  return decodeH16(encodeH16(v));
}
