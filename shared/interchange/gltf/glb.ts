/**
 * The GLB container (glTF 2.0 binary): a 12-byte header, a JSON chunk and an
 * optional BIN chunk, each 4-byte aligned. Hand-written: it is a few lines,
 * and shared/ cannot use three's GLTFExporter (it needs Blob/FileReader).
 */
import { encodeUtf8 } from '../../utf8';
import type { HeadVerdict, ImpliedSize } from '../../binarySize';
import { FormatError } from '../../errors';
import { findExcessiveNesting, nestedTooDeeply } from '../../json/nesting';

export const GLB_MAGIC = 0x46546c67; // "glTF"
export const GLB_VERSION = 2;
export const CHUNK_JSON = 0x4e4f534a; // "JSON"
export const CHUNK_BIN = 0x004e4942; // "BIN\0"

/** A parsed glTF document: the JSON tree and the GLB's BIN chunk when there is one. */
export interface GltfContainer {
  /** The glTF JSON (untyped: glTF has many optional parts; readers check what they use). */
  json: GltfJson;
  /** Bytes of the GLB BIN chunk (buffer 0 without a uri), if any. */
  bin?: Uint8Array;
}

// The parts of the glTF JSON schema this project reads or writes.
export interface GltfNode {
  name?: string;
  children?: number[];
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  matrix?: number[];
  mesh?: number;
  skin?: number;
  camera?: number;
  extensions?: Record<string, unknown>;
  extras?: unknown;
}
export interface GltfSkin {
  name?: string;
  joints: number[];
  skeleton?: number;
  inverseBindMatrices?: number;
}
export interface GltfAnimation {
  name?: string;
  channels: { sampler: number; target: { node?: number; path: string } }[];
  samplers: { input: number; output: number; interpolation?: string }[];
  extras?: unknown;
}
export interface GltfJson {
  asset?: { version?: string; generator?: string };
  scene?: number;
  scenes?: { nodes?: number[]; name?: string }[];
  nodes?: GltfNode[];
  skins?: GltfSkin[];
  animations?: GltfAnimation[];
  meshes?: unknown[];
  materials?: unknown[];
  textures?: unknown[];
  images?: unknown[];
  samplers?: unknown[];
  cameras?: unknown[];
  accessors?: {
    bufferView?: number;
    byteOffset?: number;
    componentType: number;
    count: number;
    type: string;
    normalized?: boolean;
    min?: number[];
    max?: number[];
    sparse?: unknown;
  }[];
  bufferViews?: {
    buffer: number;
    byteOffset?: number;
    byteLength: number;
    byteStride?: number;
    target?: number;
    extensions?: Record<string, unknown>;
  }[];
  buffers?: { uri?: string; byteLength: number }[];
  extensionsUsed?: string[];
  extensionsRequired?: string[];
  [key: string]: unknown;
}

/** True when the bytes start with the GLB magic. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/**
 * The GLB header check (shared/binarySize.ts): the magic, the version and the length the 12-byte header declares,
 * which is the file's size. readGltfContainer makes the same checks with the same messages; the main process runs
 * this one before it reads the rest of a GLB it imports.
 */
export function glbSizeFromHead(head: Uint8Array, fileSize: number): HeadVerdict {
  const fail = (offset: number, detail: string): never => {
    throw new FormatError('GLTF', detail, { offset, where: 'GLB' });
  };
  if (fileSize < 20) fail(0, `GLB is ${fileSize} bytes, shorter than its 12-byte header and first chunk header`);
  if (head.byteLength < 12) return { needHead: 12 };
  if (!isGlb(head)) fail(0, 'not a GLB: it does not start with "glTF"');
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = dv.getUint32(4, true);
  if (version !== GLB_VERSION) fail(4, `GLB version ${version} is not supported (expected 2)`);
  const length = dv.getUint32(8, true);
  return {
    size: length,
    disagree: (actual) =>
      new FormatError('GLTF', `GLB header says ${length} bytes but the file has ${actual} (truncated or padded)`, {
        offset: 8,
        where: 'GLB',
      }),
  };
}

/**
 * Reads a GLB or a .gltf (JSON text). Every length is checked against the
 * file size; errors are FormatError kind 'GLTF' with the byte offset.
 */
export function readGltfContainer(bytes: Uint8Array): GltfContainer {
  if (!isGlb(bytes)) return { json: parseJson(decodeUtf8(bytes), 'the file (neither GLB nor glTF JSON)') };
  const fail = (offset: number, detail: string): never => {
    throw new FormatError('GLTF', detail, { offset, where: 'GLB' });
  };
  const implied = glbSizeFromHead(bytes, bytes.byteLength) as ImpliedSize;
  if (implied.size !== bytes.byteLength) throw implied.disagree(bytes.byteLength);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = implied.size;
  let json: GltfJson | undefined;
  let bin: Uint8Array | undefined;
  for (let off = 12; off < length;) {
    if (off + 8 > length) fail(off, 'chunk header runs past the end of the file');
    const chunkLength = dv.getUint32(off, true);
    const type = dv.getUint32(off + 4, true);
    if (off + 8 + chunkLength > length)
      fail(off, `chunk of ${chunkLength} bytes runs past the end of the file (${length} bytes)`);
    const data = bytes.subarray(off + 8, off + 8 + chunkLength);
    if (off === 12 && type !== CHUNK_JSON) fail(off + 4, 'the first GLB chunk must be JSON');
    if (type === CHUNK_JSON) json = parseJson(decodeUtf8(data), 'the JSON chunk', off + 8);
    else if (type === CHUNK_BIN && bin === undefined) bin = data;
    off += 8 + chunkLength;
  }
  return { json: json as GltfJson, bin };
}

/** Parses the JSON text of a .gltf (`chunkOffset` undefined: places are line:column) or of a GLB's JSON chunk. */
function parseJson(text: string, what: string, chunkOffset?: number): GltfJson {
  const offset = chunkOffset ?? 0;
  const deep = findExcessiveNesting(text);
  if (deep)
    throw new FormatError(
      'GLTF',
      `${what} is ${nestedTooDeeply()}`,
      chunkOffset === undefined
        ? { line: deep.line, column: deep.column }
        : { offset: chunkOffset, where: 'JSON chunk' },
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new FormatError('GLTF', `${what} is not valid JSON: ${(e as Error).message}`, { offset });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new FormatError('GLTF', `${what} is not a glTF JSON object`, { offset });
  const asset = (json as GltfJson).asset;
  if (!asset || typeof asset.version !== 'string' || !asset.version.startsWith('2'))
    throw new FormatError(
      'GLTF',
      `missing or unsupported asset.version ${JSON.stringify(asset?.version)} (glTF 2.0 expected)`,
      { where: 'asset' },
    );
  return json as GltfJson;
}

/** Writes a GLB: JSON chunk padded with spaces, BIN chunk padded with zeros (spec 4.4.3). */
export function writeGlb(json: GltfJson, bin?: Uint8Array): Uint8Array {
  const jsonBytes = encodeUtf8(JSON.stringify(json));
  const jsonPadded = align4(jsonBytes.byteLength);
  const binPadded = bin ? align4(bin.byteLength) : 0;
  const total = 12 + 8 + jsonPadded + (bin ? 8 + binPadded : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, GLB_MAGIC, true);
  dv.setUint32(4, GLB_VERSION, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonPadded, true);
  dv.setUint32(16, CHUNK_JSON, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.byteLength, 20 + jsonPadded);
  if (bin) {
    const at = 20 + jsonPadded;
    dv.setUint32(at, binPadded, true);
    dv.setUint32(at + 4, CHUNK_BIN, true);
    out.set(bin, at + 8);
  }
  return out;
}

export const align4 = (n: number) => (n + 3) & ~3;

/** UTF-8 encode (shared/utf8.ts; re-exported here for the glTF writers). */
export { encodeUtf8 };

/** UTF-8 decode (lenient: bad sequences become U+FFFD), a BOM is skipped. */
export function decodeUtf8(b: Uint8Array): string {
  // TextDecoder exists in Node, browsers and workers but not in shared/'s ES2022 lib typings.
  const TD = (globalThis as { TextDecoder?: new (label: string) => { decode(bytes: Uint8Array): string } }).TextDecoder;
  if (TD) return new TD('utf-8').decode(b);
  const units: number[] = [];
  const parts: string[] = [];
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length) {
    const c = b[i];
    let cp: number;
    let n: number;
    if (c < 0x80) {
      cp = c;
      n = 1;
    } else if (c >= 0xc0 && c < 0xe0) {
      cp = ((c & 31) << 6) | (b[i + 1] & 63);
      n = 2;
    } else if (c >= 0xe0 && c < 0xf0) {
      cp = ((c & 15) << 12) | ((b[i + 1] & 63) << 6) | (b[i + 2] & 63);
      n = 3;
    } else if (c >= 0xf0 && c < 0xf8) {
      cp = ((c & 7) << 18) | ((b[i + 1] & 63) << 12) | ((b[i + 2] & 63) << 6) | (b[i + 3] & 63);
      n = 4;
    } else {
      cp = 0xfffd;
      n = 1;
    }
    if (cp >= 0x10000) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 1023));
    else units.push(cp);
    i += n;
    if (units.length >= 4096) parts.push(String.fromCharCode(...units.splice(0)));
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

/** Decodes a `data:...;base64,` URI; undefined when the URI is not a base64 data URI. */
export function decodeDataUri(uri: string): Uint8Array | undefined {
  const m = /^data:[^,]*;base64,(.*)$/s.exec(uri);
  if (!m) return undefined;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const text = m[1].replace(/[\s=]/g, '');
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0,
    acc = 0,
    o = 0;
  for (const ch of text) {
    const v = alphabet.indexOf(ch);
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out.subarray(0, o);
}
