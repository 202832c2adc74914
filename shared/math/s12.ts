import { roundHalfEven } from './round';

/**
 * The MT3 `s12` quaternion component codec (docs/formats.md 2.2): 12-bit two's
 * complement, encode round(c * 2047) (ties to even) clamped to [-2047, 2047],
 * decode s / 2047. The decoded 4-vector is normalised before use.
 */
export const S12_SCALE = 2047;

export function encodeS12(c: number): number {
  const s = roundHalfEven(c * S12_SCALE);
  return s > S12_SCALE ? S12_SCALE : s < -S12_SCALE ? -S12_SCALE : s;
}

export function decodeS12(s: number): number {
  return s / S12_SCALE;
}

/** 12-bit two's complement field -> signed integer. */
export function s12FromBits(bits: number): number {
  return bits & 0x800 ? (bits & 0xfff) - 0x1000 : bits & 0xfff;
}

/** Signed integer -> 12-bit two's complement field. */
export function s12ToBits(s: number): number {
  return s & 0xfff;
}
