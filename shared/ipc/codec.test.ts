import { describe, expect, it } from 'vitest';
import {
  decodeIpcFrame,
  decodeIpcFrameSized,
  encodeIpcFrame,
  IpcFrameTooLargeError,
  JSON_CONTAINER_BYTES,
  JSON_VALUE_BYTES,
  jsonStructureBytes,
  MAX_FRAME_DEPTH,
} from './codec';
import { rawIpcFrame, sparseBombFrame } from '../testing/rawIpcFrame';

// shared/'s typings lack these; the tests run in Node, which has both.
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };
declare const TextDecoder: { new (): { decode(bytes: Uint8Array): string } };

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
    const back = decodeIpcFrame(
      encodeIpcFrame({ odd, view, list: [new Uint16Array([1]), new Float64Array([2.5])] }),
    ) as {
      odd: Uint8Array;
      view: Float32Array;
      list: [Uint16Array, Float64Array];
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
    const value = {
      a: 1,
      s: 'Größe ✓',
      n: null,
      inf: -Infinity,
      nan: NaN,
      nested: { arr: [1, 'x', { b: true }] },
      gone: undefined,
      overrides: { 3: 1.5 },
    };
    const back = decodeIpcFrame(encodeIpcFrame(value)) as Record<string, unknown>;
    expect(back).toEqual({
      a: 1,
      s: 'Größe ✓',
      n: null,
      inf: -Infinity,
      nan: NaN,
      nested: { arr: [1, 'x', { b: true }] },
      overrides: { 3: 1.5 },
    });
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

  it('sends a large, mostly zero array as its non-zero words and brings back the exact bytes', () => {
    // A CMU motion's joint key flags: 689 frames x 31 joints, a few user keys and locks.
    const flags = new Uint32Array(689 * 31);
    flags[5 * 31 + 2] = 1;
    flags[300 * 31 + 30] = 3;
    flags[flags.length - 1] = 0xffffffff;
    const floats = new Float64Array(600);
    floats[7] = -0;
    floats[8] = NaN;
    floats[599] = 1.5e300;
    const frame = encodeIpcFrame({ flags, floats, small: new Uint32Array(16) });
    // Far smaller than the 85 KB of flags alone.
    expect(frame.byteLength).toBeLessThan(1000);
    const back = decodeIpcFrame(frame) as { flags: Uint32Array; floats: Float64Array; small: Uint32Array };
    expect(back.flags).toBeInstanceOf(Uint32Array);
    expect(Array.from(back.flags)).toEqual(Array.from(flags));
    expect(back.floats).toBeInstanceOf(Float64Array);
    expect(Array.from(new Uint8Array(back.floats.buffer))).toEqual(Array.from(new Uint8Array(floats.buffer)));
    expect(Object.is(back.floats[7], -0)).toBe(true);
    expect(back.small).toEqual(new Uint32Array(16));
    // A view into a larger buffer: its own words only.
    const big = new Uint32Array(4096);
    big[1000] = 9;
    big[3000] = 7;
    const view = big.subarray(1024, 4096);
    expect(Array.from(decodeIpcFrame(encodeIpcFrame(view)) as Uint32Array)).toEqual(Array.from(view));
  });

  it('sends a dense or a byte array whole', () => {
    const dense = new Float64Array(2000).map((_, i) => i + 0.5);
    expect(encodeIpcFrame(dense).byteLength).toBeGreaterThan(dense.byteLength);
    const bytes = new Uint8Array(5000);
    expect(encodeIpcFrame(bytes).byteLength).toBeGreaterThan(bytes.byteLength);
    // Just over a quarter of the words set: whole.
    const quarter = new Uint32Array(1024);
    for (let i = 0; i < 1024; i += 3) quarter[i] = 1;
    expect(encodeIpcFrame(quarter).byteLength).toBeGreaterThan(quarter.byteLength);
    expect(Array.from(decodeIpcFrame(encodeIpcFrame(quarter)) as Uint32Array)).toEqual(Array.from(quarter));
  });

  it('refuses a sparse array that points outside itself or claims an impossible size', () => {
    const sparse = new Uint32Array(1024);
    sparse[3] = 1;
    const frame = encodeIpcFrame({ s: sparse });
    const text = new TextDecoder().decode(frame);
    expect(text).toContain('\\u0000sp');
    const edit = (from: string, to: string) => {
      const at = text.indexOf(from);
      const out = frame.slice();
      out.set(new TextEncoder().encode(to), at);
      return out;
    };
    // The word index of the one pair, in the blob after the JSON: point it past the end.
    const blobAt = frame.byteLength - 8;
    const outside = frame.slice();
    new DataView(outside.buffer).setUint32(blobAt, 5000, true);
    expect(() => decodeIpcFrame(outside)).toThrow(/word 5000 is outside its 1024 words/);
    expect(() => decodeIpcFrame(edit('"Uint32Array",0,4096', '"Uint32Array",0,4097'))).toThrow(
      /sparse Uint32Array of 4097 bytes/,
    );
    // A byte array cannot be sparse (the same JSON length: a space pads it).
    expect(() => decodeIpcFrame(edit('"Uint32Array",0,4096', '"Uint8Array", 0,4096'))).toThrow(
      /sparse Uint8Array of 4096 bytes/,
    );
  });

  describe('the decoded size is bounded, not only the frame size', () => {
    const MiB = 1024 * 1024;

    it('refuses a 300-byte frame whose two sparse arrays claim 256 MiB each, before allocating them', () => {
      const bomb = sparseBombFrame(2, 256 * MiB);
      expect(bomb.byteLength).toBeLessThan(320);
      let thrown: unknown;
      try {
        decodeIpcFrame(bomb, { maxDecodedBytes: 64 * MiB });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(IpcFrameTooLargeError);
      // The first array alone crosses the bound: it is refused at its own size, nothing of it allocated.
      expect((thrown as IpcFrameTooLargeError).decodedBytes).toBeLessThan(257 * MiB);
      expect((thrown as Error).message).toMatch(/decodes to more than 67108864 bytes/);
      // With no bound named, the default still refuses the pair (512 MiB).
      expect(() => decodeIpcFrame(bomb)).toThrow(IpcFrameTooLargeError);
    });

    it('counts a blob once per typed array that names it', () => {
      const blob = new Uint8Array(1024);
      const refs = Array.from({ length: 100 }, () => '{"\\u0000ta":["Uint8Array",0]}').join(',');
      const frame = rawIpcFrame(`[${refs}]`, [blob]);
      expect(() => decodeIpcFrame(frame, { maxDecodedBytes: 50 * 1024 })).toThrow(IpcFrameTooLargeError);
      const { value, decodedBytes } = decodeIpcFrameSized(frame, { maxDecodedBytes: 200 * 1024 });
      expect((value as Uint8Array[]).length).toBe(100);
      const json = new TextEncoder().encode(`[${refs}]`);
      expect(decodedBytes).toBe(100 * 1024 + json.byteLength + jsonStructureBytes(json));
    });

    it('counts what the JSON text parses to, before parsing it: a megabyte of `{},` is refused, not made into 350,000 objects', () => {
      // Three bytes of `{},` parse to an object of a hundred bytes and more, and are copied again when revived: 60 MiB
      // of them held 2.6 GB and kept the loopback server's thread 97 s (round 39). The text's length alone bounded nothing.
      const n = 350_000;
      const bomb = rawIpcFrame(`[${'{},'.repeat(n)}0]`);
      expect(bomb.byteLength).toBeLessThan(1.1 * MiB);
      let thrown: unknown;
      try {
        decodeIpcFrame(bomb, { maxDecodedBytes: 32 * MiB });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(IpcFrameTooLargeError);
      expect((thrown as IpcFrameTooLargeError).decodedBytes).toBeGreaterThanOrEqual(
        n * (JSON_CONTAINER_BYTES + JSON_VALUE_BYTES),
      );
      // Arrays and numbers count too.
      expect(() => decodeIpcFrame(rawIpcFrame(`[${'[],'.repeat(n)}0]`), { maxDecodedBytes: 32 * MiB })).toThrow(
        IpcFrameTooLargeError,
      );
      expect(() => decodeIpcFrame(rawIpcFrame(`[${'0,'.repeat(3 * n)}0]`), { maxDecodedBytes: 16 * MiB })).toThrow(
        IpcFrameTooLargeError,
      );
      // Brackets, commas and colons inside strings (escaped quotes and backslashes among them) are text, not values.
      const obj = { k: '{[,:\\"{[,:', e: '\\' };
      const text = JSON.stringify(obj);
      expect(text).toContain('\\\\\\"');
      expect(JSON.parse(text)).toEqual(obj);
      expect(jsonStructureBytes(new TextEncoder().encode(text))).toBe(JSON_CONTAINER_BYTES + 3 * JSON_VALUE_BYTES);
      const long = rawIpcFrame(JSON.stringify({ s: '{},'.repeat(n) }));
      expect((decodeIpcFrame(long, { maxDecodedBytes: 32 * MiB }) as { s: string }).s.length).toBe(3 * n);
    });

    it('passes a frame exactly at the bound and says what it decoded to', () => {
      const frame = encodeIpcFrame({ f: new Float64Array(1000).fill(1) });
      const { decodedBytes } = decodeIpcFrameSized(frame);
      expect(decodedBytes).toBeGreaterThan(8000);
      expect(() => decodeIpcFrame(frame, { maxDecodedBytes: decodedBytes })).not.toThrow();
      expect(() => decodeIpcFrame(frame, { maxDecodedBytes: decodedBytes - 1 })).toThrow(IpcFrameTooLargeError);
    });

    it('refuses values nested too deep, tags that name no type or blob, and keeps "__proto__" a plain key', () => {
      const deep = `${'['.repeat(MAX_FRAME_DEPTH + 2)}${']'.repeat(MAX_FRAME_DEPTH + 2)}`;
      expect(() => decodeIpcFrame(rawIpcFrame(deep))).toThrow(/nested deeper than 64 levels/);
      expect(() => decodeIpcFrame(rawIpcFrame('{"\\u0000ta":5}'))).toThrow(
        /malformed frame: typed array 5 refers to no typed array type/,
      );
      expect(() => decodeIpcFrame(rawIpcFrame('{"\\u0000ta":["constructor",0]}', [new Uint8Array(8)]))).toThrow(
        /malformed frame/,
      );
      expect(() =>
        decodeIpcFrame(rawIpcFrame('{"\\u0000sp":["Uint32Array","length",8]}', [new Uint8Array(8)])),
      ).toThrow(/malformed frame/);
      const polluted = decodeIpcFrame(rawIpcFrame('{"__proto__":{"isAdmin":true}}')) as Record<string, unknown>;
      expect(Object.getPrototypeOf(polluted)).toBe(Object.prototype);
      expect((polluted as { isAdmin?: boolean }).isAdmin).toBeUndefined();
      expect(Object.keys(polluted)).toEqual(['__proto__']);
    });
  });
});
