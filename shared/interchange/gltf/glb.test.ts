import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import { decodeDataUri, decodeUtf8, encodeUtf8, readGltfContainer, writeGlb } from './glb';

describe('GLB container and text helpers', () => {
  const text = 'Hüfte ジョイント 🦴 end';

  it('UTF-8 round trip, with and without TextDecoder', () => {
    expect(decodeUtf8(encodeUtf8(text))).toBe(text);
    const g = globalThis as { TextDecoder?: unknown };
    const saved = g.TextDecoder;
    try {
      delete g.TextDecoder;
      expect(decodeUtf8(encodeUtf8(text))).toBe(text);
      expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('A');
      const long = 'x'.repeat(10000) + text;
      expect(decodeUtf8(encodeUtf8(long))).toBe(long);
    } finally {
      g.TextDecoder = saved;
    }
  });

  it('decodes base64 data URIs', () => {
    expect(Array.from(decodeDataUri('data:application/octet-stream;base64,AAECAwT/')!)).toEqual([0, 1, 2, 3, 4, 255]);
    expect(decodeDataUri('data:text/plain,hello')).toBeUndefined();
  });

  it('writes 4-byte aligned chunks and reads them back', () => {
    const json = { asset: { version: '2.0' }, extra: 'ab' };
    const bin = new Uint8Array([1, 2, 3, 4, 5]);
    const glb = writeGlb(json, bin);
    expect(glb.byteLength % 4).toBe(0);
    const back = readGltfContainer(glb);
    expect(back.json).toEqual(json);
    expect(Array.from(back.bin!.subarray(0, 5))).toEqual([1, 2, 3, 4, 5]);
  });

  it('rejects bad containers with the offset', () => {
    const glb = writeGlb({ asset: { version: '2.0' } }, new Uint8Array(8));
    const bad = glb.slice();
    new DataView(bad.buffer).setUint32(4, 1, true);
    expect(() => readGltfContainer(bad)).toThrow(/GLB version 1 is not supported/);
    const overflow = glb.slice();
    new DataView(overflow.buffer).setUint32(12, 4000, true);
    try {
      readGltfContainer(overflow);
      expect.fail('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).place.offset).toBe(12);
    }
    expect(() => readGltfContainer(encodeUtf8('{"asset":{"version":"1.0"}}'))).toThrow(/glTF 2.0 expected/);
  });
});
