import { FormatError, type FileKind } from '../errors';
import { decodeUtf8Runtime } from '../utf8';

/**
 * The largest text file read (a .sev, an SE table, a project, a tuning file): real ones are kilobytes, and a
 * project of 4096 entries about a megabyte. Past it the file is refused before it is decoded (docs/limits.md).
 */
export const TEXT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Decodes a UTF-8 text file strictly (the SEV and SE-table formats are UTF-8):
 * a malformed byte sequence is a FormatError at the line:column where it sits,
 * not a silent U+FFFD that later shows up as an "invalid name" somewhere else.
 * A leading byte-order mark is dropped. Pure: the runtime's TextDecoder only where there is one (decodeUtf8Runtime,
 * shared/utf8.ts; decodeUtf8ByHand else).
 */
export function decodeUtf8Text(bytes: Uint8Array, kind: FileKind, file?: string): string {
  if (bytes.length > TEXT_MAX_BYTES)
    throw new FormatError(
      kind,
      `the file is ${bytes.length} bytes; ActGuy reads a text file of up to ${TEXT_MAX_BYTES} bytes (64 MiB)`,
      { line: 1, column: 1 },
      file,
    );
  // The platform's strict decoder, where there is one, accepts exactly the UTF-8 the loop below accepts (WHATWG's
  // decoder refuses the same lead bytes, overlong forms, surrogates and code points past U+10FFFF, and drops a leading
  // byte-order mark alike) and decodes it to the same text, several times faster (a 140 KB project took about 10 ms
  // the other way, before every motion of a rebuild). What it refuses goes through the loop, which says where.
  const decoded = decodeUtf8Runtime(bytes);
  if (decoded !== undefined) return decoded;
  return decodeUtf8ByHand(bytes, kind, file);
}

/** decodeUtf8Text's own decoder (below the size check), exported for the test that holds the two to one another. */
export function decodeUtf8ByHand(bytes: Uint8Array, kind: FileKind, file?: string): string {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let i = start;
  const parts: string[] = [];
  let chunk: number[] = [];
  const fail = (what: string): never => {
    // The line and column (in characters) of byte i, worked out only for the error: the bytes before it are valid
    // UTF-8, so each one that is not a continuation byte starts a character.
    let line = 1;
    let column = 1;
    for (let k = start; k < i; k++) {
      const b = bytes[k];
      if (b === 0x0a) {
        line++;
        column = 1;
      } else if ((b & 0xc0) !== 0x80) column++;
    }
    throw new FormatError(kind, `invalid UTF-8: ${what} at byte offset ${i}`, { line, column }, file);
  };
  const flush = () => {
    if (chunk.length) parts.push(String.fromCodePoint(...chunk));
    chunk = [];
  };
  while (i < bytes.length) {
    const b0 = bytes[i];
    let cp: number;
    let len: number;
    if (b0 < 0x80) {
      // A run of ASCII (most of a project, SEV or SE table file) is made a string at once, not a character at a time
      // (a 140 KB project took 11 ms the other way).
      let end = i + 1;
      const stop = Math.min(bytes.length, i + ASCII_RUN);
      while (end < stop && bytes[end] < 0x80) end++;
      flush();
      parts.push(String.fromCharCode(...bytes.subarray(i, end)));
      i = end;
      continue;
    }
    let min: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      len = 2;
      cp = b0 & 0x1f;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      len = 3;
      cp = b0 & 0x0f;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      len = 4;
      cp = b0 & 0x07;
      min = 0x10000;
    } else return fail(`byte 0x${b0.toString(16).padStart(2, '0')} cannot start a character`);
    if (i + len > bytes.length) fail('the file ends inside a multi-byte character');
    for (let k = 1; k < len; k++) {
      const b = bytes[i + k];
      if ((b & 0xc0) !== 0x80) fail(`byte 0x${b.toString(16).padStart(2, '0')} is not a continuation byte`);
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min) fail('overlong encoding');
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      fail(`code point U+${cp.toString(16).toUpperCase()} is not a character`);
    chunk.push(cp);
    // Stryker disable next-line EqualityOperator: `>` and `<` only change where chunks are cut (every chunk stays far below the spread-argument limit); the joined text is the same
    if (chunk.length >= 4096) flush();
    i += len;
  }
  flush();
  return parts.join('');
}

/** The longest run of ASCII bytes made a string at once (a spread's arguments stay far below the engine's limit). */
const ASCII_RUN = 4096;

/** One source line: its text without the line break, and its 1-based number. */
export interface SourceLine {
  text: string;
  line: number;
}

/**
 * Splits text into lines on LF, CRLF or a lone CR, after dropping a leading
 * BOM, so Windows-edited files give the same line numbers as Unix ones.
 */
export function splitLines(text: string): SourceLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const raw = body.split(/\r\n|\n|\r/);
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  return raw.map((t, k) => ({ text: t, line: k + 1 }));
}

/**
 * `text` without trailing spaces and tabs. A loop, not `/[ \t]+$/`: that
 * regex retries from every blank of a long blank run that is followed by
 * something else, which is quadratic (100 KB of spaces took seconds).
 */
export function trimEndBlanks(text: string): string {
  let end = text.length;
  while (end > 0) {
    const c = text.charCodeAt(end - 1);
    if (c !== 0x20 && c !== 0x09) break;
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}
