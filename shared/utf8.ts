/**
 * UTF-8 for shared/ (whose ES2022 lib typings lack TextEncoder and TextDecoder): the
 * runtime's TextEncoder where there is one (Node, browsers, workers: fast on
 * megabyte reports), else a plain encoder with the same output (lone
 * surrogates become U+FFFD, as TextEncoder makes them); and the runtime's strict
 * TextDecoder where there is one (decodeUtf8Runtime; shared/sev/text.ts has the
 * decoder that says where a file is not UTF-8).
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

type StrictDecoder = { decode(bytes: Uint8Array): string };
/** `fatal`: malformed input throws instead of becoming U+FFFD. */
const strictDecoder: StrictDecoder | undefined = (() => {
  const TD = (globalThis as { TextDecoder?: new (label: string, options: { fatal: boolean }) => StrictDecoder })
    .TextDecoder;
  try {
    return TD ? new TD('utf-8', { fatal: true }) : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * `bytes` decoded by the runtime's strict UTF-8 decoder (a leading byte-order mark dropped), or undefined where the
 * runtime has none or the bytes are not UTF-8.
 */
export function decodeUtf8Runtime(bytes: Uint8Array): string | undefined {
  if (!strictDecoder) return undefined;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}
