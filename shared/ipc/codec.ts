/**
 * The loopback transport's wire format: one binary frame per message that
 * carries plain data as JSON and every typed array as raw bytes beside it, so a
 * CompressResponse (thousands of per-frame errors, MT3 stored values) crosses
 * HTTP without turning each number into text.
 *
 * Frame layout (all integers little-endian u32):
 *   0  magic "AGF1"
 *   4  byte length of the JSON text (UTF-8)
 *   8  blob count B
 *   12 B x byte length of each blob
 *   .. JSON text, then zero padding to a multiple of 8
 *   .. each blob, each followed by zero padding to a multiple of 8
 *
 * In the JSON a typed array becomes `{"\u0000ta": [type, blobIndex]}`, or, when
 * it is a large array of 4- or 8-byte elements that is mostly zero words (a
 * motion's key-flag words), `{"\u0000sp": [type, blobIndex, byteLength]}` whose
 * blob lists (word index, word) u32 pairs of its non-zero 32-bit words, and a
 * non-finite number becomes `{"\u0000n": "NaN" | "Infinity" | "-Infinity"}`
 * (JSON has neither). Blob bytes are in the platform's byte order; both ends
 * of a loopback link are the same machine. Decoded typed arrays are fresh
 * copies, never views into the frame.
 *
 * Decoding is bounded by what it allocates, not by the frame's size: a sparse
 * array of a few bytes may claim 256 MiB, and one blob may be named by many
 * typed arrays. Every typed array's bytes (and the JSON text) count toward
 * `maxDecodedBytes`, checked before each allocation (docs/limits.md).
 */

// shared/ has no DOM or Node types; both runtimes provide these globals.
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };
declare const TextDecoder: {
  new (label?: string, options?: { fatal?: boolean }): { decode(bytes: Uint8Array): string };
};

const FRAME_MAGIC = 0x31464741; // "AGF1" read as a little-endian u32
const TYPED_ARRAY_TAG = '\u0000ta';
const SPARSE_TAG = '\u0000sp';
/** Arrays below this many bytes always go whole. */
const SPARSE_MIN_BYTES = 1024;
const NUMBER_TAG = '\u0000n';

type TypedArray =
  | Uint8Array
  | Int8Array
  | Uint8ClampedArray
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

type TypedArrayCtor = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray;
  BYTES_PER_ELEMENT: number;
};

/** Every typed array the codec carries, by the name written into the frame. */
const TYPED_ARRAYS: Record<string, TypedArrayCtor> = {
  Uint8Array,
  Int8Array,
  Uint8ClampedArray,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
};

function typedArrayName(value: object): string | null {
  if (!ArrayBuffer.isView(value) || value instanceof DataView) return null;
  const name = Object.prototype.toString.call(value).slice(8, -1);
  return name in TYPED_ARRAYS ? name : null;
}

const pad8 = (n: number): number => (n + 7) & ~7;

/**
 * A piece of the frame for an error message: JSON of at most 64 characters, one level deep (the frame may hold
 * megabytes, nested thousands deep).
 */
function clipQuote(v: unknown): string {
  const shallow = (x: unknown): string =>
    x !== null && typeof x === 'object' ? (Array.isArray(x) ? '[…]' : '{…}') : String(JSON.stringify(x));
  const text = Array.isArray(v) ? `[${v.slice(0, 4).map(shallow).join(',')}${v.length > 4 ? ',…' : ''}]` : shallow(v);
  return text.length <= 64 ? text : `${text.slice(0, 64)}…`;
}

/** What one frame may decode to when the caller names no bound (the loopback server passes its own, smaller one). */
export const DEFAULT_MAX_DECODED_BYTES = 256 * 1024 * 1024;
/** Nesting of arrays and objects a frame may hold (the API's values are a few levels deep). */
export const MAX_FRAME_DEPTH = 64;

/** A frame that would decode to more than the bound: refused before the allocation that would cross it. */
export class IpcFrameTooLargeError extends Error {
  constructor(
    /** Bytes the frame had decoded to, counting the allocation that was refused. */
    readonly decodedBytes: number,
    readonly maxDecodedBytes: number,
  ) {
    super(
      `ipc codec: the frame decodes to more than ${maxDecodedBytes} bytes (at least ${decodedBytes}); nothing more was allocated`,
    );
    this.name = 'IpcFrameTooLargeError';
  }
}

export interface DecodeIpcFrameOptions {
  /** Largest number of bytes the decoded typed arrays and the JSON text may take together (default DEFAULT_MAX_DECODED_BYTES). */
  maxDecodedBytes?: number;
}

/** Bytes counted for each object or array of the JSON text: what V8 holds for an empty one, parsed and revived. */
export const JSON_CONTAINER_BYTES = 128;
/** Bytes counted for each other value or key of the JSON text (a slot in the parsed value and in its revived copy). */
export const JSON_VALUE_BYTES = 16;

/**
 * What the JSON text of a frame holds once parsed and revived, counted from its bytes before it is parsed: every `{`
 * and `[` outside a string as JSON_CONTAINER_BYTES, every `,` and `:` outside a string as JSON_VALUE_BYTES. Three
 * bytes of `{},` parse to more than a hundred (docs/security.md, round 39), so the text's own length alone bounds
 * nothing: 60 MiB of them held 2.6 GB. A byte of a UTF-8 sequence is never a quote or a backslash, so bytes do.
 */
export function jsonStructureBytes(text: Uint8Array): number {
  let containers = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) containers++;
    else if (c === 0x2c || c === 0x3a) values++;
  }
  return containers * JSON_CONTAINER_BYTES + values * JSON_VALUE_BYTES;
}

/**
 * The non-zero 32-bit words of a large array of 4- or 8-byte elements as (index, word) pairs, when that is under
 * a quarter of its bytes; else null (sent whole). The bytes come back exactly (a -0 or a NaN payload is a
 * non-zero word).
 */
function sparseWords(ta: TypedArray): Uint32Array | null {
  if (ta.BYTES_PER_ELEMENT < 4 || ta.byteLength < SPARSE_MIN_BYTES) return null;
  const words = new Uint32Array(ta.buffer, ta.byteOffset, ta.byteLength / 4);
  const limit = words.length / 8; // pairs take 8 bytes: at most a quarter of the array's bytes
  let nonZero = 0;
  for (let i = 0; i < words.length; i++) if (words[i] !== 0 && ++nonZero > limit) return null;
  const pairs = new Uint32Array(nonZero * 2);
  for (let i = 0, k = 0; i < words.length; i++)
    if (words[i] !== 0) {
      pairs[k++] = i;
      pairs[k++] = words[i];
    }
  return pairs;
}

/** Encodes a value of plain data (see shared/ipc/api.ts) into one frame. Throws TypeError for functions, symbols and bigints. */
export function encodeIpcFrame(value: unknown): Uint8Array {
  const blobs: Uint8Array[] = [];
  const toJsonable = (v: unknown, where: string): unknown => {
    switch (typeof v) {
      case 'number':
        return Number.isFinite(v) ? v : { [NUMBER_TAG]: String(v) };
      case 'string':
      case 'boolean':
        return v;
      case 'undefined':
        return undefined;
      case 'object': {
        if (v === null) return null;
        const name = typedArrayName(v);
        if (name) {
          const ta = v as TypedArray;
          const sparse = sparseWords(ta);
          if (sparse) {
            blobs.push(new Uint8Array(sparse.buffer, 0, sparse.byteLength));
            return { [SPARSE_TAG]: [name, blobs.length - 1, ta.byteLength] };
          }
          blobs.push(new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength));
          return { [TYPED_ARRAY_TAG]: [name, blobs.length - 1] };
        }
        if (Array.isArray(v)) return v.map((item, i) => toJsonable(item, `${where}[${i}]`) ?? null);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(v)) {
          const item = toJsonable((v as Record<string, unknown>)[key], `${where}.${key}`);
          if (item !== undefined) out[key] = item;
        }
        return out;
      }
      default:
        throw new TypeError(`ipc codec: cannot carry a ${typeof v} at ${where}`);
    }
  };
  return packIpcFrame(JSON.stringify(toJsonable(value, 'value') ?? null), blobs);
}

/**
 * Lays out one frame: magic, JSON length, blob count, each blob's length, the JSON text, then the blobs, each
 * part padded to 8 bytes. encodeIpcFrame uses it for what it has checked; tests and the fuzz harness use it
 * (shared/testing/rawIpcFrame.ts) for frames no honest encoder makes.
 */
export function packIpcFrame(jsonText: string, blobs: readonly Uint8Array[]): Uint8Array {
  const json = new TextEncoder().encode(jsonText);
  const headerSize = 12 + 4 * blobs.length;
  let size = pad8(headerSize + json.byteLength);
  for (const b of blobs) size += pad8(b.byteLength);
  const frame = new Uint8Array(size);
  const dv = new DataView(frame.buffer);
  dv.setUint32(0, FRAME_MAGIC, true);
  dv.setUint32(4, json.byteLength, true);
  dv.setUint32(8, blobs.length, true);
  blobs.forEach((b, i) => dv.setUint32(12 + 4 * i, b.byteLength, true));
  frame.set(json, headerSize);
  let at = pad8(headerSize + json.byteLength);
  for (const b of blobs) {
    frame.set(b, at);
    at += pad8(b.byteLength);
  }
  return frame;
}

/**
 * Decodes a frame made by encodeIpcFrame. Throws an Error naming the problem for a malformed frame, and an
 * IpcFrameTooLargeError before an allocation would take the decoded size past `maxDecodedBytes`.
 */
export function decodeIpcFrame(frame: Uint8Array, options: DecodeIpcFrameOptions = {}): unknown {
  return decodeIpcFrameSized(frame, options).value;
}

/** decodeIpcFrame, also saying how many bytes the decoded value holds (the loopback server reserves them while it works). */
export function decodeIpcFrameSized(
  frame: Uint8Array,
  options: DecodeIpcFrameOptions = {},
): { value: unknown; decodedBytes: number } {
  const maxDecodedBytes = options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES;
  let decodedBytes = 0;
  /** Counts an allocation of `bytes` before it is made. */
  const allocate = (bytes: number): void => {
    decodedBytes += bytes;
    if (decodedBytes > maxDecodedBytes) throw new IpcFrameTooLargeError(decodedBytes, maxDecodedBytes);
  };
  const fail = (detail: string): never => {
    throw new Error(`ipc codec: malformed frame: ${detail}`);
  };
  if (frame.byteLength < 12) fail(`${frame.byteLength} bytes, shorter than the 12-byte header`);
  const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (dv.getUint32(0, true) !== FRAME_MAGIC) fail('bad magic');
  const jsonLength = dv.getUint32(4, true);
  const blobCount = dv.getUint32(8, true);
  const headerSize = 12 + 4 * blobCount;
  if (headerSize > frame.byteLength) fail(`blob count ${blobCount} does not fit in ${frame.byteLength} bytes`);
  if (headerSize + jsonLength > frame.byteLength) fail(`JSON length ${jsonLength} runs past the end`);
  const blobs: Uint8Array[] = [];
  let at = pad8(headerSize + jsonLength);
  for (let i = 0; i < blobCount; i++) {
    const len = dv.getUint32(12 + 4 * i, true);
    if (at + len > frame.byteLength) fail(`blob ${i} (${len} bytes at ${at}) runs past the end`);
    blobs.push(frame.subarray(at, at + len));
    at += pad8(len);
  }
  allocate(jsonLength);
  // The parsed value and its revived copy, counted before either is made.
  allocate(jsonStructureBytes(frame.subarray(headerSize, headerSize + jsonLength)));
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(headerSize, headerSize + jsonLength)),
    );
  } catch (e) {
    fail(`JSON text: ${(e as Error).message.slice(0, 200)}`);
  }
  const revive = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_FRAME_DEPTH) return fail(`values nested deeper than ${MAX_FRAME_DEPTH} levels`);
    if (Array.isArray(v)) return v.map((item) => revive(item, depth + 1));
    const obj = v as Record<string, unknown>;
    /** The constructor and blob a typed-array tag names, or undefined for a tag that names none. */
    const tagged = (tag: unknown[]): { name: string; ctor: TypedArrayCtor; blob: Uint8Array } | undefined => {
      const [name, index] = tag;
      if (
        typeof name !== 'string' ||
        !Object.hasOwn(TYPED_ARRAYS, name) ||
        !Number.isInteger(index) ||
        !blobs[index as number]
      )
        return undefined;
      return { name, ctor: TYPED_ARRAYS[name], blob: blobs[index as number] };
    };
    const ta = obj[TYPED_ARRAY_TAG];
    if (ta !== undefined) {
      if (!Array.isArray(ta) || !tagged(ta))
        return fail(`typed array ${clipQuote(ta)} refers to no typed array type or blob`);
      const { name, ctor, blob } = tagged(ta)!;
      if (blob.byteLength % ctor.BYTES_PER_ELEMENT !== 0)
        fail(`${name} blob of ${blob.byteLength} bytes is not a whole number of elements`);
      // Copy into a fresh, aligned buffer: the frame may sit at any offset.
      allocate(blob.byteLength);
      const copy = blob.slice();
      return new ctor(copy.buffer as ArrayBuffer, 0, blob.byteLength / ctor.BYTES_PER_ELEMENT);
    }
    const sp = obj[SPARSE_TAG];
    if (sp !== undefined) {
      if (!Array.isArray(sp) || !tagged(sp))
        return fail(`sparse array ${clipQuote(sp)} refers to no typed array type or blob`);
      const { name, ctor, blob } = tagged(sp)!;
      const byteLength = sp[2] as number;
      if (
        ctor.BYTES_PER_ELEMENT < 4 ||
        !Number.isInteger(byteLength) ||
        byteLength < 0 ||
        byteLength % ctor.BYTES_PER_ELEMENT !== 0
      )
        return fail(`sparse ${name} of ${clipQuote(byteLength)} bytes`);
      if (blob.byteLength % 8 !== 0)
        return fail(`sparse ${name} blob of ${blob.byteLength} bytes is not whole (index, word) pairs`);
      allocate(byteLength + blob.byteLength);
      const words = new Uint32Array(byteLength / 4);
      const pairs = new Uint32Array(blob.slice().buffer);
      for (let k = 0; k < pairs.length; k += 2) {
        if (pairs[k] >= words.length)
          return fail(`sparse ${name}: word ${pairs[k]} is outside its ${words.length} words`);
        words[pairs[k]] = pairs[k + 1];
      }
      return new ctor(words.buffer as ArrayBuffer, 0, byteLength / ctor.BYTES_PER_ELEMENT);
    }
    const num = obj[NUMBER_TAG];
    if (num !== undefined) {
      if (num !== 'NaN' && num !== 'Infinity' && num !== '-Infinity')
        return fail(`number tag ${clipQuote(num)} is not NaN, Infinity or -Infinity`);
      return Number(num);
    }
    const out: Record<string, unknown> = {};
    // defineProperty: a "__proto__" key in the JSON stays a plain property instead of replacing the prototype.
    for (const key of Object.keys(obj))
      Object.defineProperty(out, key, {
        value: revive(obj[key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  const value = revive(parsed, 0);
  return { value, decodedBytes };
}
