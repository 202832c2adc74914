import { describe, expect, it } from 'vitest';
import { encodeUtf8, encodeUtf8Plain } from './utf8';

// shared/'s typings lack TextEncoder; the test runs in Node, which has it (the reference the two are held to).
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };

describe('encodeUtf8', () => {
  it("gives TextEncoder's bytes, with and without TextEncoder, for every width and a lone surrogate", () => {
    const text = 'walk 歩 é \u{1F600} \ud800 end';
    const expected = Array.from(new TextEncoder().encode(text));
    expect(Array.from(encodeUtf8(text))).toEqual(expected);
    expect(Array.from(encodeUtf8Plain(text))).toEqual(expected);
    expect(Array.from(encodeUtf8Plain('a\u007f\u0080\u07ff\u0800\uffff'))).toEqual(
      Array.from(new TextEncoder().encode('a\u007f\u0080\u07ff\u0800\uffff')),
    );
  });
});
