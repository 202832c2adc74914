import { describe, expect, it } from 'vitest';
import { decodeH16, encodeH16, H16_LIMIT, H16_MAX, h16Storable, QuantizeError, quantizeH16 } from './half';

/** binary16 bits -> number via float32 bit construction (independent of half.ts). */
function halfViaF32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, ((bits & 0x8000) << 16) | ((e - 15 + 127) << 23) | (m << 13));
  return dv.getFloat32(0);
}

const isFiniteBits = (b: number) => ((b >> 10) & 0x1f) !== 0x1f;

describe('h16 codec (docs/formats.md 2.2: half(v/128), RNE)', () => {
  it('round-trips every finite bit pattern exactly and decodes to half*128', () => {
    let n = 0;
    for (let b = 0; b < 0x10000; b++) {
      if (!isFiniteBits(b)) continue;
      const v = decodeH16(b);
      expect(Object.is(v, halfViaF32(b) * 128) || v === halfViaF32(b) * 128).toBe(true);
      if (encodeH16(v) !== b) throw new Error(`bits 0x${b.toString(16)} -> ${v} -> 0x${encodeH16(v).toString(16)}`);
      n++;
    }
    expect(n).toBe(65536 - 2 * 1024);
  });

  it('keeps the sign of zero', () => {
    expect(encodeH16(0)).toBe(0x0000);
    expect(encodeH16(-0)).toBe(0x8000);
    expect(Object.is(decodeH16(0x8000), -0)).toBe(true);
  });

  it('rounds ties to even', () => {
    // Between 1 (m=0) and 1+2^-10 (m=1): the tie goes to m=0.
    expect(encodeH16((1 + 2 ** -11) * 128)).toBe(0x3c00);
    // Between m=1 and m=2: the tie goes to m=2.
    expect(encodeH16((1 + 3 * 2 ** -11) * 128)).toBe(0x3c02);
    // Just above a tie rounds up, just below rounds down.
    expect(encodeH16((1 + 2 ** -11 + 2 ** -30) * 128)).toBe(0x3c01);
    expect(encodeH16((1 + 3 * 2 ** -11 - 2 ** -30) * 128)).toBe(0x3c01);
    // A tie below 2 carries into the exponent: 2 - 2^-11 -> 2.0.
    expect(encodeH16((2 - 2 ** -11) * 128)).toBe(0x4000);
    // Negative ties mirror positive ones.
    expect(encodeH16(-(1 + 2 ** -11) * 128)).toBe(0xbc00);
  });

  it('handles subnormals, including ties and the carry into the smallest normal', () => {
    const unit = 2 ** -24 * 128; // value of the smallest subnormal
    expect(decodeH16(0x0001)).toBe(unit);
    expect(encodeH16(unit)).toBe(0x0001);
    expect(encodeH16(0.5 * unit)).toBe(0x0000); // tie -> even (0)
    expect(encodeH16(1.5 * unit)).toBe(0x0002); // tie -> even (2)
    expect(encodeH16(2.5 * unit)).toBe(0x0002);
    expect(encodeH16(0.49 * unit)).toBe(0x0000);
    expect(encodeH16(-unit)).toBe(0x8001);
    expect(decodeH16(0x03ff)).toBe(1023 * unit);
    expect(encodeH16(1023.5 * unit)).toBe(0x0400); // tie carries into the smallest normal (even mantissa 0)
    expect(encodeH16(2 ** -14 * 128)).toBe(0x0400);
  });

  it('rounds to the nearest representable value', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20000; i++) {
      const v = (rnd() * 2 - 1) * 10 ** (rnd() * 12 - 6);
      const b = encodeH16(v);
      const err = Math.abs(decodeH16(b) - v);
      for (const nb of [b - 1, b + 1]) {
        if ((nb & 0x7fff) === 0x7fff || nb < 0 || !isFiniteBits(nb) || (nb ^ b) & 0x8000) continue;
        expect(err).toBeLessThanOrEqual(Math.abs(decodeH16(nb) - v));
      }
    }
  });

  it('stores the largest magnitude and refuses larger values with a clear error', () => {
    expect(encodeH16(H16_MAX)).toBe(0x7bff);
    expect(encodeH16(-H16_MAX)).toBe(0xfbff);
    // Below the tie with infinity (65520 * 128) still rounds down to 65504.
    expect(encodeH16(65519 * 128)).toBe(0x7bff);
    expect(() => encodeH16(65520 * 128)).toThrow(QuantizeError); // the tie rounds to 65536: too large
    expect(() => encodeH16(H16_MAX * 2)).toThrow(/too large for h16/);
    expect(() => encodeH16(-1e30)).toThrow(QuantizeError);
    expect(() => encodeH16(NaN)).toThrow(/not finite/);
    expect(() => encodeH16(Infinity)).toThrow(QuantizeError);
  });

  it('h16Storable says exactly which values encodeH16 stores, at the edge of the range', () => {
    const stores = (v: number) => {
      try {
        encodeH16(v);
        return true;
      } catch {
        return false;
      }
    };
    const edge = [H16_MAX, H16_MAX + 2047, H16_MAX + 2048, H16_LIMIT, 2 * H16_MAX, 1e30, 0, -0, 1e-45];
    for (const v of edge.flatMap((x) => [x, -x, x * (1 - 2 ** -52), x * (1 + 2 ** -52)]))
      expect([v, h16Storable(v)]).toEqual([v, stores(v)]);
    expect(h16Storable(H16_MAX + 2047)).toBe(true);
    expect(h16Storable(H16_LIMIT)).toBe(false);
  });

  it('quantizeH16 is decode(encode(v))', () => {
    expect(quantizeH16(1.2345)).toBe(decodeH16(encodeH16(1.2345)));
    expect(quantizeH16(100)).toBe(100);
  });
});

describe('h16 special values', () => {
  it('decodes the all-ones exponent as infinities (zero mantissa) and NaN (any other)', () => {
    expect(decodeH16(0x7c00)).toBe(Infinity);
    expect(decodeH16(0xfc00)).toBe(-Infinity);
    expect(decodeH16(0x7c01)).toBeNaN();
    expect(decodeH16(0xfe00)).toBeNaN();
    expect(decodeH16(0x7bff)).toBe(H16_MAX);
  });

  it('refuses what it cannot store with a QuantizeError that says so', () => {
    let error: unknown;
    try {
      encodeH16(NaN);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuantizeError);
    expect(error).toMatchObject({ name: 'QuantizeError', message: 'value NaN cannot be stored as h16 (not finite)' });
  });
});
