import { describe, expect, it } from 'vitest';
import { decodeUtf8ByHand, decodeUtf8Text, splitLines, trimEndBlanks } from './text';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const decode = (bytes: number[]) => decodeUtf8Text(new Uint8Array(bytes), 'SEV', 'w.sev');

describe('decodeUtf8Text', () => {
  it('drops a byte-order mark only when all three of its bytes lead the file', () => {
    expect(decode([0xef, 0xbb, 0xbf, ...ascii('a')])).toBe('a');
    expect(decode([0xef, 0xbb, 0xbf])).toBe('');
    // a BOM later in the file is a character (U+FEFF), not dropped
    expect(decode([...ascii('a'), 0xef, 0xbb, 0xbf])).toBe('a\uFEFF');
    // two of the three BOM bytes are no BOM: each is decoded (and fails) as UTF-8
    expect(() => decode([0xef, 0xbb])).toThrow(
      'w.sev:1:1: invalid UTF-8: the file ends inside a multi-byte character at byte offset 0',
    );
    expect(() => decode([0xef])).toThrow('the file ends inside a multi-byte character at byte offset 0');
    expect(() => decode([0x41, 0xbb, 0xbf])).toThrow(
      'w.sev:1:2: invalid UTF-8: byte 0xbb cannot start a character at byte offset 1',
    );
    expect(() => decode([0xef, 0x41, 0xbf])).toThrow(
      'w.sev:1:1: invalid UTF-8: byte 0x41 is not a continuation byte at byte offset 0',
    );
    expect(() => decode([0xef, 0xbb, 0x41])).toThrow('byte 0x41 is not a continuation byte at byte offset 0');
    expect(() => decode([0x41, 0x42, 0xbf])).toThrow(
      'w.sev:1:3: invalid UTF-8: byte 0xbf cannot start a character at byte offset 2',
    );
  });

  // Round 27: the platform decoder (decodeUtf8Runtime) drops one byte-order mark per file, as its own decoder does;
  // the random sequences of the test below almost never draw two marks. Mutation that fails: decodeUtf8Runtime
  // dropping a second leading U+FEFF too (every other test of this file passes with it).
  it('drops one byte-order mark, not a second one after it, and one per file however many files it decodes', () => {
    const BOM = [0xef, 0xbb, 0xbf];
    for (const bytes of [
      [...BOM, ...BOM, ...ascii('a')],
      [...BOM, ...BOM],
      [...BOM, 0xc3, 0xa9, ...BOM],
    ]) {
      const text = decode(bytes);
      expect(text).toBe(decodeUtf8ByHand(new Uint8Array(bytes), 'SEV', 'w.sev'));
      expect(text.startsWith('\uFEFF') || text.startsWith('é'), `${bytes}`).toBe(true);
    }
    // The decoder is made once and kept: each file's own mark is dropped.
    for (let k = 0; k < 3; k++) expect(decode([...BOM, ...ascii('se 0 X')])).toBe('se 0 X');
  });

  it('decodes long runs of ASCII between other characters in order, and places an error in characters, not bytes', () => {
    const utf8 = (t: string) =>
      Array.from(t).flatMap((c) => {
        const cp = c.codePointAt(0)!;
        if (cp < 0x80) return [cp];
        if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
        if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
        return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
      });
    const text = `${'a'.repeat(5000)}é${'b'.repeat(9000)}\n€ü${'c'.repeat(4096)}\u{1f600}d\n`;
    expect(decode(utf8(text))).toBe(text);
    // Line 2 holds €, ü and x before the bad byte (7 bytes, 3 characters): column 4.
    expect(() => decode([...utf8(`${'a'.repeat(5000)}é\n€üx`), 0xff])).toThrow(
      `w.sev:2:4: invalid UTF-8: byte 0xff cannot start a character at byte offset ${5000 + 2 + 1 + 3 + 2 + 1}`,
    );
    // A dropped byte-order mark takes no column.
    expect(() => decode([0xef, 0xbb, 0xbf, ...utf8('é'), 0xff])).toThrow('w.sev:1:2: invalid UTF-8: byte 0xff');
  });

  it.each([
    [[0x7f], '\u007f'],
    [[0xc2, 0x80], '\u0080'],
    [[0xc2, 0xa9], '\u00a9'],
    [[0xdf, 0xbf], '\u07ff'],
    [[0xe0, 0xa0, 0x80], '\u0800'],
    [[0xe2, 0x82, 0xac], '\u20ac'],
    [[0xed, 0x9f, 0xbf], '\ud7ff'],
    [[0xee, 0x80, 0x80], '\ue000'],
    [[0x41, 0xef, 0xbf, 0xbd], 'A\ufffd'],
    [[0xf0, 0x90, 0x80, 0x80], '\u{10000}'],
    [[0xf0, 0x9f, 0x98, 0x80], '\u{1f600}'],
    [[0xf4, 0x8f, 0xbf, 0xbf], '\u{10ffff}'],
  ])('decodes the boundary sequence %j', (bytes, text) => {
    expect(decode(bytes)).toBe(text);
  });

  it.each([
    [[0x80], 'byte 0x80 cannot start a character at byte offset 0'],
    [[0xc0, 0x80], 'byte 0xc0 cannot start a character'],
    [[0xc1, 0xbf], 'byte 0xc1 cannot start a character'],
    [[0xf5, 0x80, 0x80, 0x80], 'byte 0xf5 cannot start a character'],
    [[0xff], 'byte 0xff cannot start a character'],
    [[0xe0, 0x80, 0x80], 'overlong encoding at byte offset 0'],
    [[0xe0, 0x9f, 0xbf], 'overlong encoding'],
    [[0xf0, 0x8f, 0xbf, 0xbf], 'overlong encoding'],
    [[0xf4, 0x90, 0x80, 0x80], 'code point U+110000 is not a character'],
    [[0xed, 0xa0, 0x80], 'code point U+D800 is not a character'],
    [[0xed, 0xbf, 0xbf], 'code point U+DFFF is not a character'],
    [[0xe2, 0x82], 'the file ends inside a multi-byte character'],
    [[0xf0, 0x9f, 0x98], 'the file ends inside a multi-byte character'],
    [[0xc2, 0x41], 'byte 0x41 is not a continuation byte'],
  ])('refuses %j: %s', (bytes, message) => {
    expect(() => decode(bytes)).toThrow(message);
  });

  it('places an error after multi-byte characters and line breaks on its line and column', () => {
    // "é\n€x" then a stray continuation byte: line 2, column 3 (characters, not bytes), byte offset 7
    expect(() => decode([0xc3, 0xa9, 0x0a, 0xe2, 0x82, 0xac, 0x78, 0x80])).toThrow(
      'w.sev:2:3: invalid UTF-8: byte 0x80 cannot start a character at byte offset 7',
    );
  });

  it('takes the platform decoder only for what its own decoder takes, to the same text', () => {
    // Sequences near UTF-8's edges: lead bytes, continuations, the bytes that make overlong forms and surrogates.
    const edges = [0x00, 0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed];
    edges.push(0xee, 0xef, 0xbb, 0xf0, 0xf4, 0xf5, 0xff);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      const bytes = new Uint8Array(1 + (next() % 6)).map(() => edges[next() % edges.length]);
      const outcome = (f: typeof decodeUtf8Text) => {
        try {
          return f(bytes, 'SEV', 'w.sev');
        } catch (e) {
          return `refused: ${(e as Error).message}`;
        }
      };
      const byHand = outcome(decodeUtf8ByHand);
      if (byHand.startsWith('refused')) refused++;
      expect(outcome(decodeUtf8Text), `${Array.from(bytes)}`).toBe(byHand);
    }
    // Both kinds were drawn.
    expect(refused).toBeGreaterThan(1000);
    expect(refused).toBeLessThan(19_000);
  });

  it('decodes long files exactly, across its internal chunks, without exhausting the stack', () => {
    const text = `${'é'.repeat(3000)}${'x'.repeat(600_000)}\u{1f600}`;
    const bytes = [...Array(3000).fill([0xc3, 0xa9]).flat(), ...Array(600_000).fill(0x78), 0xf0, 0x9f, 0x98, 0x80];
    expect(decode(bytes)).toBe(text);
  });
});

describe('splitLines', () => {
  const texts = (s: string) => splitLines(s).map((l) => [l.text, l.line]);
  it('keeps one empty line for an empty text and drops only the empty piece after a final break', () => {
    expect(texts('')).toEqual([['', 1]]);
    expect(texts('\n')).toEqual([['', 1]]);
    expect(texts('a')).toEqual([['a', 1]]);
    expect(texts('a\n')).toEqual([['a', 1]]);
    expect(texts('a\n\n')).toEqual([
      ['a', 1],
      ['', 2],
    ]);
    expect(texts('a\r\nb\rc\n')).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(texts('\uFEFFa\nb')).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});

describe('trimEndBlanks', () => {
  it('removes trailing spaces and tabs only', () => {
    expect(trimEndBlanks('')).toBe('');
    expect(trimEndBlanks(' \t ')).toBe('');
    expect(trimEndBlanks(' a b \t')).toBe(' a b');
    expect(trimEndBlanks('a\n ')).toBe('a\n');
    expect(trimEndBlanks('a')).toBe('a');
  });
});
