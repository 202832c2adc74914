/**
 * UTF-8 encoding for shared/ (whose ES2022 lib typings lack TextEncoder): the
 * runtime's TextEncoder where there is one (Node, browsers, workers: fast on
 * megabyte reports), else a plain encoder with the same output (lone
 * surrogates become U+FFFD, as TextEncoder makes them).
 */
type Encoder = { encode(text: string): Uint8Array };
const TE = (globalThis as { TextEncoder?: new () => Encoder }).TextEncoder;
const encoder: Encoder | null = TE ? new TE() : null;

export function encodeUtf8(s: string): Uint8Array {
  return encoder ? encoder.encode(s) : encodeUtf8Plain(s);
}

/** The encoder without TextEncoder (exported for the test that holds the two to the same bytes). */
export function encodeUtf8Plain(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}
