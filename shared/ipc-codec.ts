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
 */

// shared/ has no DOM or Node types; both runtimes provide these globals.
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };
declare const TextDecoder: { new (label?: string, options?: { fatal?: boolean }): { decode(bytes: Uint8Array): string } };

const FRAME_MAGIC = 0x31464741; // "AGF1" read as a little-endian u32
const TYPED_ARRAY_TAG = '\u0000ta';
const SPARSE_TAG = '\u0000sp';
/** Arrays below this many bytes always go whole. */
const SPARSE_MIN_BYTES = 1024;
const NUMBER_TAG = '\u0000n';

type TypedArray =
  | Uint8Array | Int8Array | Uint8ClampedArray | Uint16Array | Int16Array
  | Uint32Array | Int32Array | Float32Array | Float64Array;

type TypedArrayCtor = { new (buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray; BYTES_PER_ELEMENT: number };

/** Every typed array the codec carries, by the name written into the frame. */
const TYPED_ARRAYS: Record<string, TypedArrayCtor> = {
  Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array,
};

function typedArrayName(value: object): string | null {
  if (!ArrayBuffer.isView(value) || value instanceof DataView) return null;
  const name = Object.prototype.toString.call(value).slice(8, -1);
  return name in TYPED_ARRAYS ? name : null;
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** A sparse array never claims more than this (the largest frame the loopback server takes is 64 MiB). */
const MAX_SPARSE_BYTES = 256 * 1024 * 1024;

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

/** Encodes a value of plain data (see shared/ipc.ts) into one frame. Throws TypeError for functions, symbols and bigints. */
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
  const jsonText = JSON.stringify(toJsonable(value, 'value') ?? null);
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

/** Decodes a frame made by encodeIpcFrame. Throws an Error naming the problem for a malformed frame. */
export function decodeIpcFrame(frame: Uint8Array): unknown {
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
  const jsonText = new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(headerSize, headerSize + jsonLength));
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch (e) {
    fail(`JSON text: ${(e as Error).message}`);
  }
  const revive = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(revive);
    if (v === null || typeof v !== 'object') return v;
    const obj = v as Record<string, unknown>;
    const ta = obj[TYPED_ARRAY_TAG];
    if (ta !== undefined) {
      const [name, index] = ta as [string, number];
      const ctor = TYPED_ARRAYS[name];
      const blob = blobs[index];
      if (!ctor || !blob) return fail(`typed array ${String(name)} refers to missing blob ${String(index)}`);
      if (blob.byteLength % ctor.BYTES_PER_ELEMENT !== 0) fail(`${name} blob of ${blob.byteLength} bytes is not a whole number of elements`);
      // Copy into a fresh, aligned buffer: the frame may sit at any offset.
      const copy = blob.slice();
      return new ctor(copy.buffer as ArrayBuffer, 0, blob.byteLength / ctor.BYTES_PER_ELEMENT);
    }
    const sp = obj[SPARSE_TAG];
    if (sp !== undefined) {
      const [name, index, byteLength] = sp as [string, number, number];
      const ctor = TYPED_ARRAYS[name];
      const blob = blobs[index];
      if (!ctor || !blob) return fail(`sparse ${String(name)} refers to missing blob ${String(index)}`);
      if (ctor.BYTES_PER_ELEMENT < 4 || !Number.isInteger(byteLength) || byteLength < 0 || byteLength % ctor.BYTES_PER_ELEMENT !== 0 || byteLength > MAX_SPARSE_BYTES)
        return fail(`sparse ${name} of ${String(byteLength)} bytes`);
      if (blob.byteLength % 8 !== 0) return fail(`sparse ${name} blob of ${blob.byteLength} bytes is not whole (index, word) pairs`);
      const words = new Uint32Array(byteLength / 4);
      const pairs = new Uint32Array(blob.slice().buffer);
      for (let k = 0; k < pairs.length; k += 2) {
        if (pairs[k] >= words.length) return fail(`sparse ${name}: word ${pairs[k]} is outside its ${words.length} words`);
        words[pairs[k]] = pairs[k + 1];
      }
      return new ctor(words.buffer as ArrayBuffer, 0, byteLength / ctor.BYTES_PER_ELEMENT);
    }
    const num = obj[NUMBER_TAG];
    if (num !== undefined) return Number(num);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) out[key] = revive(obj[key]);
    return out;
  };
  return revive(parsed);
}
