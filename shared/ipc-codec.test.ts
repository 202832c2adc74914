import { describe, expect, it } from 'vitest';
import { decodeIpcFrame, encodeIpcFrame } from './ipc-codec';

describe('ipc codec', () => {
  it('round-trips every typed array kind with exact contents and types', () => {
    const value = {
      u8: new Uint8Array([0, 1, 255]),
      i8: new Int8Array([-128, 0, 127]),
      u8c: new Uint8ClampedArray([0, 200, 255]),
      u16: new Uint16Array([0, 0x3c00, 0xffff]),
      i16: new Int16Array([-2047, 0, 2047]),
      u32: new Uint32Array([0, 7, 0xffffffff]),
      i32: new Int32Array([-5, 5]),
      f32: new Float32Array([Math.PI, -0, 1e-30]),
      f64: new Float64Array([Math.E, Number.MIN_VALUE, NaN, Infinity]),
    };
    const back = decodeIpcFrame(encodeIpcFrame(value)) as typeof value;
    for (const key of Object.keys(value) as (keyof typeof value)[]) {
      expect(back[key].constructor).toBe(value[key].constructor);
      expect(Array.from(back[key])).toEqual(Array.from(value[key]));
    }
    expect(Object.is(back.f32[1], -0)).toBe(true);
  });

  it('carries views into larger buffers without their neighbours, at any alignment', () => {
    const big = new Float32Array(100).map((_, i) => i);
    const view = big.subarray(3, 10);
    const odd = new Uint8Array([9, 8, 7]);
    const back = decodeIpcFrame(encodeIpcFrame({ odd, view, list: [new Uint16Array([1]), new Float64Array([2.5])] })) as {
      odd: Uint8Array; view: Float32Array; list: [Uint16Array, Float64Array];
    };
    expect(Array.from(back.view)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(back.view.buffer.byteLength).toBe(7 * 4);
    expect(Array.from(back.odd)).toEqual([9, 8, 7]);
    expect(back.list[1][0]).toBe(2.5);
    // A frame copied to an odd offset still decodes (the receiver's buffer may sit anywhere).
    const frame = encodeIpcFrame({ f64: new Float64Array([1.5, -2]) });
    const shifted = new Uint8Array(frame.byteLength + 1).subarray(1);
    shifted.set(frame);
    expect(Array.from((decodeIpcFrame(shifted) as { f64: Float64Array }).f64)).toEqual([1.5, -2]);
  });

  it('keeps plain data: nested objects, strings with non-ASCII text, non-finite numbers, null, and drops undefined fields', () => {
    const value = { a: 1, s: 'Größe ✓', n: null, inf: -Infinity, nan: NaN, nested: { arr: [1, 'x', { b: true }] }, gone: undefined, overrides: { 3: 1.5 } };
    const back = decodeIpcFrame(encodeIpcFrame(value)) as Record<string, unknown>;
    expect(back).toEqual({ a: 1, s: 'Größe ✓', n: null, inf: -Infinity, nan: NaN, nested: { arr: [1, 'x', { b: true }] }, overrides: { 3: 1.5 } });
    expect('gone' in back).toBe(false);
    expect(decodeIpcFrame(encodeIpcFrame(undefined))).toBe(null);
  });

  it('refuses what it cannot carry and malformed frames, with a reason', () => {
    expect(() => encodeIpcFrame({ f: () => 1 })).toThrow(/function at value\.f/);
    expect(() => encodeIpcFrame({ big: 1n })).toThrow(/bigint/);
    expect(() => decodeIpcFrame(new Uint8Array(4))).toThrow(/shorter than the 12-byte header/);
    const frame = encodeIpcFrame({ x: new Float64Array(4) });
    expect(() => decodeIpcFrame(frame.subarray(0, frame.byteLength - 8))).toThrow(/runs past the end/);
    const bad = frame.slice();
    bad[0] = 0;
    expect(() => decodeIpcFrame(bad)).toThrow(/bad magic/);
  });
});
