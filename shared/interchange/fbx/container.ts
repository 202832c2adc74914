/**
 * The FBX container, read before three.js's FBXLoader sees the file (see
 * docs/import.md). It checks what the loader would trip over with a bare
 * exception (the binary header, the version, every node record's bounds, the
 * ASCII braces), reads the scene settings the motion needs (unit, frame rate,
 * up axis), and returns a copy of the bytes in which everything that is not
 * skeleton or animation is switched off in place: Geometry, Material,
 * Texture, Video and LayeredTexture objects get a name the loader does not
 * know, and mesh, camera, light and curve models become plain nodes. Same
 * length, same offsets, so nothing else moves; the loader then builds no
 * geometry, loads no image and touches no DOM, and it runs in Node, a worker
 * and the renderer alike.
 */
import { unzlibSync } from 'three/examples/jsm/libs/fflate.module.js';
import { FormatError, type FormatErrorPlace } from '../../errors';
import { decodeUtf8 } from '../gltf/glb';

/** FBX versions read: 7.1 (FBX 2011) to 7.7 (FBX 2020), binary or ASCII, as Blender's importer reads them. */
export const FBX_MIN_VERSION = 7100;
export const FBX_MAX_VERSION = 7700;

const BINARY_MAGIC = 'Kaydara FBX Binary  \0';
/** Bytes before the first node record: the magic, 0x1a 0x00, the version. */
const HEADER_BYTES = 27;
/** Deepest node nesting accepted (real files nest under 10 deep; the loader recurses per level). */
const MAX_DEPTH = 64;

/** Objects the loader would turn into meshes, materials and images: renamed so it skips them. */
const SKIPPED_OBJECTS = ['Geometry', 'Material', 'Texture', 'Video', 'LayeredTexture'];
/** Model types the loader builds from geometry, or with the DOM (a camera asks the window size): read as plain nodes. */
const PLAIN_MODEL_TYPES = ['Mesh', 'Camera', 'Light', 'NurbsCurve'];

export interface FbxSceneSettings {
  format: 'binary' | 'ascii';
  /** FileVersion, e.g. 7400 for FBX 7.4. */
  version: number;
  /** Centimetres per file unit (GlobalSettings UnitScaleFactor; 1 = centimetres, 100 = metres). */
  unitScaleFactor: number;
  /** The scene's frame rate from TimeMode (and CustomFrameRate), when the file says. */
  frameRate?: number;
  /** 0 = X, 1 = Y, 2 = Z (GlobalSettings UpAxis), when the file says. */
  upAxis?: number;
}

export interface FbxContainer {
  settings: FbxSceneSettings;
  /** The file with non-animation content switched off, as FBXLoader.parse takes it. */
  forLoader: ArrayBuffer;
}

/**
 * The loader splits a rotation key step of 180 degrees or more into one key per
 * 180 degrees, so a damaged curve (a value of 1e30) would have it build keys
 * until memory runs out. The sum of key steps over every curve, in units of
 * 180, is capped well above anything animated: a full turn every frame for an
 * hour at 120 fps is under a million.
 */
const MAX_CURVE_TRAVEL = 1e6;
/** Largest key array decoded for that check (the loader reads the same array). */
const MAX_CURVE_BYTES = 64 * 1024 * 1024;

/** Frame rates of FBX's TimeMode enumeration (index = value; 14 is custom, 0 the application default). */
const TIME_MODE_RATES = [30, 120, 100, 60, 50, 48, 30, 30, 30000 / 1001, 30000 / 1001, 25, 24, 1000, 24000 / 1001, NaN, 96, 72, 60000 / 1001, 120000 / 1001];

/** True when the bytes start like a binary FBX, or like an ASCII one (a `; FBX` comment or an FBXHeaderExtension). */
export function isFbx(bytes: Uint8Array): boolean {
  if (startsWith(bytes, BINARY_MAGIC)) return true;
  const head = decodeUtf8(bytes.subarray(0, 256));
  return /^\uFEFF?\s*;\s*FBX\b/.test(head) || /^\uFEFF?\s*FBXHeaderExtension\s*:/.test(head);
}

/** Checks and prepares an FBX file for the loader (see the module comment). Errors are FormatError kind 'FBX' with a place. */
export function readFbxContainer(bytes: Uint8Array): FbxContainer {
  const copy = new Uint8Array(bytes);
  const settings = startsWith(bytes, BINARY_MAGIC) ? prepareBinary(copy) : prepareAscii(copy);
  return { settings, forLoader: copy.buffer };
}

function startsWith(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

function checkVersion(version: number, place: { offset?: number; line?: number; column?: number }): void {
  if (!(version >= FBX_MIN_VERSION && version <= FBX_MAX_VERSION)) {
    const shown = `${Math.floor(version / 1000)}.${Math.floor((version % 1000) / 100)} (FileVersion ${version})`;
    throw new FormatError('FBX', `FBX ${shown} is not supported; ActGuy reads FBX 7.1 to 7.7 (FileVersion ${FBX_MIN_VERSION}-${FBX_MAX_VERSION}): export again as FBX 2011 or later (FBX 7.4 is the usual choice)`, place);
  }
}

// ---- binary ----

interface Property { type: string; value: number | string | undefined; at: number; length: number }
interface BinaryNode { name: string; start: number; end: number; props: Property[]; children: BinaryNode[]; nameAt: number }

function prepareBinary(b: Uint8Array): FbxSceneSettings {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < HEADER_BYTES) throw new FormatError('FBX', `the file ends after ${b.length} bytes, inside the ${HEADER_BYTES}-byte header (truncated)`, { offset: b.length });
  const version = view.getUint32(23, true);
  checkVersion(version, { offset: 23 });
  const wide = version >= 7500;
  const headerSize = wide ? 25 : 13;
  const truncated = (at: number, what: string): never => {
    throw new FormatError('FBX', `${what} runs past the end of the file (${b.length} bytes): the file is truncated or damaged`, { offset: at });
  };
  const uint = (at: number): number => {
    if (wide) {
      if (at + 8 > b.length) truncated(at, 'a node header');
      const hi = view.getUint32(at + 4, true);
      if (hi !== 0) throw new FormatError('FBX', 'a node record claims more than 4 GiB: the file is damaged', { offset: at });
      return view.getUint32(at, true);
    }
    if (at + 4 > b.length) truncated(at, 'a node header');
    return view.getUint32(at, true);
  };

  /** Reads the node record at `at` whose parent ends at `limit`; null for a NULL record (the end of a list). */
  const readNode = (at: number, limit: number, depth: number): BinaryNode | null => {
    if (at + headerSize > limit) truncated(at, 'a node header');
    const end = uint(at);
    const count = uint(at + (wide ? 8 : 4));
    const listLength = uint(at + (wide ? 16 : 8));
    const nameLength = b[at + headerSize - 1];
    if (end === 0) {
      if (count !== 0 || listLength !== 0 || nameLength !== 0) throw new FormatError('FBX', 'a NULL record (end of a node list) has non-zero fields: the file is damaged', { offset: at });
      return null;
    }
    const nameAt = at + headerSize;
    const propsAt = nameAt + nameLength;
    if (end > limit) throw new FormatError('FBX', `a node record ends at byte ${end}, past the end of ${limit === b.length ? 'the file' : 'its parent node'} (${limit}): the file is truncated or damaged`, { offset: at });
    if (propsAt + listLength > end) throw new FormatError('FBX', `a node's properties (${listLength} bytes) run past the node's end (byte ${end}): the file is damaged`, { offset: at });
    if (depth > MAX_DEPTH) throw new FormatError('FBX', `nodes are nested more than ${MAX_DEPTH} deep: the file is damaged`, { offset: at });
    const name = String.fromCharCode(...b.subarray(nameAt, propsAt));
    const props: Property[] = [];
    let p = propsAt;
    const propsEnd = propsAt + listLength;
    for (let k = 0; k < count; k++) {
      const prop = readProperty(p, propsEnd);
      props.push(prop);
      p += prop.length;
    }
    if (p !== propsEnd) throw new FormatError('FBX', `node ${JSON.stringify(name)} declares ${listLength} bytes of properties but its ${count} properties take ${p - propsAt}: the file is damaged`, { offset: at });
    const children: BinaryNode[] = [];
    let c = propsEnd;
    if (c < end) {
      for (;;) {
        const child = readNode(c, end, depth + 1);
        if (child === null) {
          c += headerSize;
          break;
        }
        children.push(child);
        c = child.end;
        if (c >= end) throw new FormatError('FBX', `the children of node ${JSON.stringify(name)} have no NULL record before the node's end: the file is damaged`, { offset: c });
      }
      if (c !== end) throw new FormatError('FBX', `node ${JSON.stringify(name)} ends at byte ${end} but its children end at ${c}: the file is damaged`, { offset: at });
    }
    return { name, start: at, end, props, children, nameAt };
  };

  const readProperty = (at: number, limit: number): Property => {
    if (at + 1 > limit) truncated(at, 'a property');
    const type = String.fromCharCode(b[at]);
    const need = (n: number) => {
      if (at + 1 + n > limit) throw new FormatError('FBX', `a property of type ${JSON.stringify(type)} runs past its node's property list: the file is damaged`, { offset: at });
    };
    const fixed = { Y: 2, C: 1, I: 4, F: 4, D: 8, L: 8 }[type];
    if (fixed !== undefined) {
      need(fixed);
      const v = at + 1;
      const value = type === 'Y' ? view.getInt16(v, true) : type === 'C' ? b[v] : type === 'I' ? view.getInt32(v, true) : type === 'F' ? view.getFloat32(v, true) : type === 'D' ? view.getFloat64(v, true) : Number(view.getBigInt64(v, true));
      return { type, value, at, length: 1 + fixed };
    }
    if (type === 'S' || type === 'R') {
      need(4);
      const n = view.getUint32(at + 1, true);
      need(4 + n);
      const value = type === 'S' ? decodeUtf8(b.subarray(at + 5, at + 5 + n)) : undefined;
      return { type, value, at, length: 5 + n };
    }
    const element = { f: 4, d: 8, l: 8, i: 4, b: 1 }[type];
    if (element !== undefined) {
      need(12);
      const count = view.getUint32(at + 1, true);
      const encoding = view.getUint32(at + 5, true);
      const stored = view.getUint32(at + 9, true);
      if (encoding !== 0 && encoding !== 1) throw new FormatError('FBX', `an array property has encoding ${encoding} (0 = raw, 1 = zlib): the file is damaged`, { offset: at });
      if (encoding === 0 && stored !== count * element) throw new FormatError('FBX', `a raw array of ${count} values of ${element} bytes stores ${stored} bytes: the file is damaged`, { offset: at });
      need(12 + stored);
      return { type, value: undefined, at, length: 13 + stored };
    }
    throw new FormatError('FBX', `unknown property type ${JSON.stringify(type)} (byte 0x${b[at].toString(16).padStart(2, '0')}): the file is damaged`, { offset: at });
  };

  // Top-level records run to the footer (the loader's rule: within 176 bytes of the end, 16-byte aligned when the size is).
  const top: BinaryNode[] = [];
  const endOfContent = (at: number) => (b.length % 16 === 0 ? ((at + 176) & ~0xf) >= b.length : at + 176 >= b.length);
  let at = HEADER_BYTES;
  let ended = false;
  while (!endOfContent(at)) {
    const node = readNode(at, b.length, 0);
    if (node) top.push(node);
    else ended = true;
    at = node ? node.end : at + headerSize;
  }
  // A whole file ends its node list with a NULL record (read above, or just before the footer the loop stopped at).
  if (!ended && !(at + headerSize <= b.length && b.subarray(at, at + headerSize).every((x) => x === 0)))
    throw new FormatError('FBX', 'the node list has no end record and footer: the file is truncated', { offset: at });
  if (!top.some((n) => n.name === 'Objects')) throw new FormatError('FBX', 'the file has no Objects section: it is truncated, or holds no scene', { offset: at });
  const settings: FbxSceneSettings = { format: 'binary', version, unitScaleFactor: 1 };
  const byName = (list: BinaryNode[], name: string) => list.find((n) => n.name === name);
  const globals = byName(top, 'GlobalSettings');
  const p70 = globals && byName(globals.children, 'Properties70');
  for (const p of p70?.children ?? []) {
    if (p.name !== 'P' || p.props.length < 5) continue;
    readSetting(settings, String(p.props[0].value), p.props[4].value);
  }
  finishSettings(settings);

  const objects = byName(top, 'Objects');
  const travel = { sum: 0 };
  for (const o of objects?.children ?? []) {
    if (o.name !== 'AnimationCurve') continue;
    const keys = byName(o.children, 'KeyValueFloat')?.props[0];
    if (keys && 'fd'.includes(keys.type)) checkCurve(decodeArray(b, view, keys), travel, { offset: keys.at });
  }
  for (const o of objects?.children ?? []) {
    if (SKIPPED_OBJECTS.includes(o.name)) b[o.nameAt] = 'X'.charCodeAt(0);
    else if (o.name === 'Model') renameBinaryString(b, o.props[2], PLAIN_MODEL_TYPES);
    else if (o.name === 'AnimationCurveNode') renameDeformPercent(b, o.props[1]);
  }
  return settings;
}

/** The numbers of an 'f' or 'd' array property (raw or zlib). */
function decodeArray(b: Uint8Array, view: DataView, prop: Property): Float64Array {
  const count = view.getUint32(prop.at + 1, true);
  const encoding = view.getUint32(prop.at + 5, true);
  const stored = view.getUint32(prop.at + 9, true);
  const size = prop.type === 'f' ? 4 : 8;
  if (count * size > MAX_CURVE_BYTES) throw new FormatError('FBX', `an animation curve has ${count} keys, more than ActGuy reads (${MAX_CURVE_BYTES / size} at most)`, { offset: prop.at });
  let data = b.subarray(prop.at + 13, prop.at + 13 + stored);
  if (encoding === 1) {
    try {
      data = unzlibSync(data, { out: new Uint8Array(count * size) });
    } catch (e) {
      throw new FormatError('FBX', `a compressed key array does not decompress (${e instanceof Error ? e.message : String(e)}): the file is damaged`, { offset: prop.at });
    }
    if (data.length !== count * size) throw new FormatError('FBX', `a compressed key array holds ${data.length} bytes, not the ${count * size} its ${count} keys need: the file is damaged`, { offset: prop.at });
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = size === 4 ? dv.getFloat32(i * 4, true) : dv.getFloat64(i * 8, true);
  return out;
}

/** Refuses a curve with a value that is not finite, and the file whose curves together travel past MAX_CURVE_TRAVEL (see there). */
function checkCurve(values: ArrayLike<number>, travel: { sum: number }, place: FormatErrorPlace): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue; // the loader skips NaN keys
    if (!Number.isFinite(v)) throw new FormatError('FBX', `an animation curve has the key value ${v} (key ${i}): key values must be finite numbers`, place);
    if (i > 0 && Number.isFinite(values[i - 1])) travel.sum += Math.abs(v - values[i - 1]) / 180;
  }
  if (travel.sum > MAX_CURVE_TRAVEL) throw new FormatError('FBX', `the animation curves jump by more than ${MAX_CURVE_TRAVEL * 180} in all (values like ${Math.max(...Array.from(values, Math.abs)).toExponential(2)}): the file is damaged`, place);
}

/** Overwrites an S property's first byte when its value is one of `values` (the loader then takes the default branch). */
function renameBinaryString(b: Uint8Array, prop: Property | undefined, values: readonly string[]): void {
  if (prop?.type === 'S' && typeof prop.value === 'string' && values.includes(prop.value)) b[prop.at + 5] = '_'.charCodeAt(0);
}

/**
 * Blend-shape weight curves ("DeformPercent") animate meshes, which are gone:
 * the loader would look for their morph targets. The name's first letter is
 * lowered so the loader no longer takes the curve node for an animation.
 */
function renameDeformPercent(b: Uint8Array, prop: Property | undefined): void {
  if (prop?.type !== 'S') return;
  const bytes = b.subarray(prop.at + 5, prop.at + prop.length);
  const i = indexOfAscii(bytes, 'DeformPercent');
  if (i >= 0) bytes[i] = 'd'.charCodeAt(0);
}

/** Index of an ASCII string in bytes, or -1. */
function indexOfAscii(bytes: Uint8Array, s: string): number {
  outer: for (let i = 0; i + s.length <= bytes.length; i++) {
    for (let k = 0; k < s.length; k++) if (bytes[i + k] !== s.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

function readSetting(s: FbxSceneSettings, name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) return;
  if (name === 'UnitScaleFactor') s.unitScaleFactor = value;
  else if (name === 'UpAxis') s.upAxis = value;
  else if (name === 'TimeMode') s.frameRate = value;
  else if (name === 'CustomFrameRate') (s as { custom?: number }).custom = value;
}

/** TimeMode and CustomFrameRate become one frame rate; a unit that is no positive number is refused. */
function finishSettings(s: FbxSceneSettings): void {
  const custom = (s as { custom?: number }).custom;
  delete (s as { custom?: number }).custom;
  if (s.frameRate !== undefined) {
    const mode = s.frameRate;
    const rate = mode === 14 ? custom : Number.isInteger(mode) ? TIME_MODE_RATES[mode] : undefined;
    if (rate !== undefined && Number.isFinite(rate) && rate > 0) s.frameRate = rate;
    else delete s.frameRate;
  }
  if (!(s.unitScaleFactor > 0)) throw new FormatError('FBX', `GlobalSettings UnitScaleFactor is ${s.unitScaleFactor}; it must be a number > 0 (centimetres per unit)`, { where: 'GlobalSettings' });
}

// ---- ASCII ----

function prepareAscii(b: Uint8Array): FbxSceneSettings {
  // One character per byte, so a character index is a byte offset (names may hold any bytes; the structure is ASCII).
  let text = '';
  for (let i = 0; i < b.length; i += 0x8000) text += String.fromCharCode(...b.subarray(i, i + 0x8000));
  const versionMatch = /FBXVersion:\s*(\d+)/.exec(text);
  if (!versionMatch) {
    if (!isFbx(b)) throw new FormatError('FBX', 'not an FBX file: no binary FBX header and no ASCII FBX header', { offset: 0 });
    throw new FormatError('FBX', 'the ASCII FBX has no FBXVersion in its header: the file is truncated or damaged', { line: 1, column: 1 });
  }
  const where = lineColumn(text, versionMatch.index);
  checkVersion(Number(versionMatch[1]), where);
  const settings: FbxSceneSettings = { format: 'ascii', version: Number(versionMatch[1]), unitScaleFactor: 1 };

  // One pass over the text: brace depth outside strings, and the top-level block each line is in.
  const edits: { at: number; char: string }[] = [];
  let depth = 0;
  let block = '';
  let open: { line: number; column: number } | undefined;
  let line = 1;
  let lineAt = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') { line++; lineAt = i + 1; continue; }
    if (ch === ';' && /^[ \t]*$/.test(text.slice(lineAt, i))) {
      const nl = text.indexOf('\n', i);
      i = (nl < 0 ? text.length : nl) - 1;
      continue;
    }
    if (ch === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) throw new FormatError('FBX', 'a string has no closing quote: the file is truncated or damaged', { line, column: i - lineAt + 1 });
      for (let k = i; k < close; k++) if (text[k] === '\n') { line++; lineAt = k + 1; }
      i = close;
      continue;
    }
    if (ch === '{' || ch === '}') {
      // As the FBX SDK writes them: `{` ends its line, `}` stands alone on its line. The loader reads the file line by
      // line, so anything else would be read as a different tree from the one checked here.
      const lineEnd = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
      const after = text.slice(i + 1, lineEnd).trim();
      if (after !== '' || (ch === '}' && text.slice(lineAt, i).trim() !== ''))
        throw new FormatError('FBX', `${ch === '{' ? 'an opening brace { is followed by more on its line' : 'a closing brace } shares its line'}: the file is damaged (ASCII FBX puts each brace at the end of its line, or alone)`, { line, column: i - lineAt + 1 });
    }
    if (ch === '{') {
      const array = /\*(\d+)\s*$/.exec(text.slice(lineAt, i));
      if (array) {
        const close = text.indexOf('}', i);
        const body = /^\s*a:([^]*)$/.exec(text.slice(i + 1, close < 0 ? text.length : close));
        const count = body ? body[1].split(',').filter((v) => v.trim() !== '').length : -1;
        if (count !== Number(array[1])) throw new FormatError('FBX', `an array declares ${array[1]} values but holds ${count < 0 ? 'no "a:" list' : count}: the file is damaged`, { line, column: i - lineAt + 1 });
      }
      if (depth === 0) {
        block = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*:/.exec(text.slice(lineAt, i))?.[1] ?? '';
        open = { line, column: i - lineAt + 1 };
      } else if (depth === 1 && block === 'Objects') {
        const m = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*:(.*)$/.exec(text.slice(lineAt, i));
        if (m) {
          const keyAt = lineAt + m[0].indexOf(m[1]);
          if (SKIPPED_OBJECTS.includes(m[1])) edits.push({ at: keyAt, char: 'X' });
          else if (m[1] === 'Model') {
            const type = /"([^"]*)"[ \t]*$/.exec(m[2]);
            if (type && PLAIN_MODEL_TYPES.includes(type[1])) edits.push({ at: lineAt + m[0].lastIndexOf(`"${type[1]}"`) + 1, char: '_' });
          } else if (m[1] === 'AnimationCurveNode') {
            const d = m[2].indexOf('DeformPercent');
            if (d >= 0) edits.push({ at: lineAt + m[0].indexOf(m[2]) + d, char: 'd' });
          }
        }
      }
      depth++;
      continue;
    }
    if (ch === '}') {
      if (depth === 0) throw new FormatError('FBX', 'a closing brace } has no opening brace: the file is damaged', { line, column: i - lineAt + 1 });
      depth--;
      if (depth === 0) block = '';
    }
  }
  if (depth !== 0) throw new FormatError('FBX', `the file ends inside ${depth} open block(s)${open ? ` (the last top-level one opened at line ${open.line})` : ''}: the file is truncated`, { line, column: text.length - lineAt + 1 });

  const travel = { sum: 0 };
  const keyArrays = /KeyValueFloat:\s*\*\d+\s*\{\s*a:([^}]*)\}/g;
  for (let m = keyArrays.exec(text); m; m = keyArrays.exec(text)) checkCurve(m[1].split(',').map((v) => parseFloat(v)), travel, lineColumn(text, m.index));

  const globals = /\n[ \t]*GlobalSettings[ \t]*:[^{]*\{([\s\S]*?)\n[ \t]*\}/.exec(text);
  if (globals) {
    const p = /P:\s*"([^"]*)"\s*,\s*"[^"]*"\s*,\s*"[^"]*"\s*,\s*"[^"]*"\s*,\s*([-+0-9.eE]+)/g;
    for (let m = p.exec(globals[1]); m; m = p.exec(globals[1])) readSetting(settings, m[1], Number(m[2]));
  }
  finishSettings(settings);

  // Edits keep the byte length: every one replaces an ASCII letter by an ASCII character.
  for (const e of edits) b[e.at] = e.char.charCodeAt(0);
  return settings;
}

function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1, at = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) { line++; at = i + 1; }
  return { line, column: index - at + 1 };
}
