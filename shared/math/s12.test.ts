import { describe, expect, it } from 'vitest';
import { decodeS12, encodeS12, s12FromBits, s12ToBits } from './s12';

describe('s12 codec (docs/formats.md 2.2: round(c*2047) clamped, s/2047)', () => {
  it('maps +-1 to +-2047 and back exactly', () => {
    expect(encodeS12(1)).toBe(2047);
    expect(encodeS12(-1)).toBe(-2047);
    expect(decodeS12(2047)).toBe(1);
    expect(decodeS12(-2047)).toBe(-1);
    expect(encodeS12(0)).toBe(0);
  });

  it('clamps values past +-1 to +-2047 (never -2048)', () => {
    expect(encodeS12(1.0004)).toBe(2047);
    expect(encodeS12(7)).toBe(2047);
    expect(encodeS12(-1.0004)).toBe(-2047);
    expect(encodeS12(-7)).toBe(-2047);
  });

  it('rounds ties to even and otherwise to nearest', () => {
    expect(encodeS12(0.5 / 2047)).toBe(0);
    expect(encodeS12(1.5 / 2047)).toBe(2);
    expect(encodeS12(-0.5 / 2047) === 0).toBe(true); // ±0: both store as 0
    expect(encodeS12(-1.5 / 2047)).toBe(-2);
    expect(encodeS12(0.51 / 2047)).toBe(1);
    expect(encodeS12(0.3)).toBe(Math.round(0.3 * 2047));
  });

  it('round-trips every s12 value through decode/encode and through 12-bit fields', () => {
    for (let s = -2047; s <= 2047; s++) {
      expect(encodeS12(decodeS12(s))).toBe(s);
      const bits = s12ToBits(s);
      expect(bits).toBeGreaterThanOrEqual(0);
      expect(bits).toBeLessThan(4096);
      expect(s12FromBits(bits)).toBe(s);
    }
    expect(s12ToBits(-1)).toBe(0xfff);
    expect(s12FromBits(0x800)).toBe(-2048);
    expect(s12FromBits(0x7ff)).toBe(2047);
  });
});
