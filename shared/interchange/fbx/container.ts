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
import { unzlibSync, zlibSync } from 'three/examples/jsm/libs/fflate.module.js';
import { FormatError, quoteJson, type FormatErrorPlace } from '../../errors';
import { decodeUtf8 } from '../gltf/glb';
import { modelSettings, modelTemplate, readFbxAnimation, type FbxAnimation } from './animation';
import { BINARY_MAGIC, checkVersion, isFbx, startsWith } from './magic';

export { FBX_MAX_VERSION, FBX_MIN_VERSION } from './magic';

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
  /** The takes and their curves, as ActGuy evaluates them (animation.ts). */
  animation: FbxAnimation;
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
/**
 * What the zlib-compressed arrays of a binary file may unpack to, together: 32 times the file's size, and at least
 * 128 MiB. zlib packs zeros about 1000 to 1, so without it a 1.1 MB file of 12 curves of 8,000,000 keys had the
 * loader unpack and walk 1.1 GB (3.5 minutes and 4.2 GB in `actguy import`); a real take's curves pack 2 to 5 to 1,
 * and a still bone's far better, which the floor leaves room for.
 */
const INFLATE_RATIO = 32;
const MIN_INFLATE_BUDGET = 128 * 1024 * 1024;

/** Frame rates of FBX's TimeMode enumeration (index = value; 14 is custom, 0 the application default). */
const TIME_MODE_RATES = [
  30,
  120,
  100,
  60,
  50,
  48,
  30,
  30,
  30000 / 1001,
  30000 / 1001,
  25,
  24,
  1000,
  24000 / 1001,
  NaN,
  96,
  72,
  60000 / 1001,
  120000 / 1001,
];

/** Checks and prepares an FBX file for the loader (see the module comment). Errors are FormatError kind 'FBX' with a place. */
export function readFbxContainer(bytes: Uint8Array): FbxContainer {
  if (!startsWith(bytes, BINARY_MAGIC)) {
    refuseAlteredBinaryHeader(bytes);
    return prepareAscii(bytes);
  }
  const copy = new Uint8Array(bytes);
  const { settings, animation } = prepareBinary(copy);
  return { settings, forLoader: copy.buffer, animation };
}

/**
 * A binary FBX whose header bytes were changed on the way (sent as text: its NUL replaced by a space or dropped, a
 * line end added) starts with the binary magic's words but not with its bytes. Said as such, at the first byte that
 * differs, rather than read as ASCII and refused at line 1 for not being text.
 */
function refuseAlteredBinaryHeader(bytes: Uint8Array): void {
  const words = 'Kaydara FBX Binary';
  if (!startsWith(bytes, words)) return;
  let at = words.length;
  while (at < BINARY_MAGIC.length && bytes[at] === BINARY_MAGIC.charCodeAt(at)) at++;
  const found = at < bytes.length ? `0x${bytes[at].toString(16).padStart(2, '0')}` : 'the end of the file';
  throw new FormatError(
    'FBX',
    `the file starts as a binary FBX ("${words}") but its header differs at byte ${at} (0x${BINARY_MAGIC.charCodeAt(at).toString(16).padStart(2, '0')} expected, found ${found}): it was changed on the way, as a binary file sent or unpacked as text is; copy or export it again`,
    { offset: at },
  );
}

// ---- binary ----

interface Property {
  type: string;
  value: number | string | undefined;
  at: number;
  length: number;
}
interface BinaryNode {
  name: string;
  start: number;
  end: number;
  props: Property[];
  children: BinaryNode[];
  nameAt: number;
}

function prepareBinary(b: Uint8Array): { settings: FbxSceneSettings; animation: FbxAnimation } {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < HEADER_BYTES)
    throw new FormatError(
      'FBX',
      `the file ends after ${b.length} bytes, inside the ${HEADER_BYTES}-byte header (truncated)`,
      { offset: b.length },
    );
  const version = view.getUint32(23, true);
  checkVersion(version, { offset: 23 });
  const wide = version >= 7500;
  const headerSize = wide ? 25 : 13;
  const truncated = (at: number, what: string): never => {
    throw new FormatError(
      'FBX',
      `${what} runs past the end of the file (${b.length} bytes): the file is truncated or damaged`,
      { offset: at },
    );
  };
  const uint = (at: number): number => {
    if (wide) {
      if (at + 8 > b.length) truncated(at, 'a node header');
      const hi = view.getUint32(at + 4, true);
      if (hi !== 0)
        throw new FormatError('FBX', 'a node record claims more than 4 GiB: the file is damaged', { offset: at });
      return view.getUint32(at, true);
    }
    if (at + 4 > b.length) truncated(at, 'a node header');
    return view.getUint32(at, true);
  };

  /** Reads the node record at `at` whose parent ends at `limit`; null for a NULL record (the end of a list). */
  const inflateBudget = Math.max(MIN_INFLATE_BUDGET, INFLATE_RATIO * b.length);
  let inflated = 0;
  const readNode = (at: number, limit: number, depth: number): BinaryNode | null => {
    if (at + headerSize > limit) truncated(at, 'a node header');
    const end = uint(at);
    const count = uint(at + (wide ? 8 : 4));
    const listLength = uint(at + (wide ? 16 : 8));
    const nameLength = b[at + headerSize - 1];
    if (end === 0) {
      if (count !== 0 || listLength !== 0 || nameLength !== 0)
        throw new FormatError('FBX', 'a NULL record (end of a node list) has non-zero fields: the file is damaged', {
          offset: at,
        });
      return null;
    }
    const nameAt = at + headerSize;
    const propsAt = nameAt + nameLength;
    if (end > limit)
      throw new FormatError(
        'FBX',
        `a node record ends at byte ${end}, past the end of ${limit === b.length ? 'the file' : 'its parent node'} (${limit}): the file is truncated or damaged`,
        { offset: at },
      );
    if (propsAt + listLength > end)
      throw new FormatError(
        'FBX',
        `a node's properties (${listLength} bytes) run past the node's end (byte ${end}): the file is damaged`,
        { offset: at },
      );
    if (depth > MAX_DEPTH)
      throw new FormatError('FBX', `nodes are nested more than ${MAX_DEPTH} deep: the file is damaged`, { offset: at });
    const name = String.fromCharCode(...b.subarray(nameAt, propsAt));
    const props: Property[] = [];
    let p = propsAt;
    const propsEnd = propsAt + listLength;
    for (let k = 0; k < count; k++) {
      const prop = readProperty(p, propsEnd);
      props.push(prop);
      p += prop.length;
    }
    if (p !== propsEnd)
      throw new FormatError(
        'FBX',
        `node ${quoteJson(name)} declares ${listLength} bytes of properties but its ${count} properties take ${p - propsAt}: the file is damaged`,
        { offset: at },
      );
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
        if (c >= end)
          throw new FormatError(
            'FBX',
            `the children of node ${quoteJson(name)} have no NULL record before the node's end: the file is damaged`,
            { offset: c },
          );
      }
      if (c !== end)
        throw new FormatError(
          'FBX',
          `node ${quoteJson(name)} ends at byte ${end} but its children end at ${c}: the file is damaged`,
          { offset: at },
        );
    }
    return { name, start: at, end, props, children, nameAt };
  };

  const readProperty = (at: number, limit: number): Property => {
    if (at + 1 > limit) truncated(at, 'a property');
    const type = String.fromCharCode(b[at]);
    const need = (n: number) => {
      if (at + 1 + n > limit)
        throw new FormatError(
          'FBX',
          `a property of type ${quoteJson(type)} runs past its node's property list: the file is damaged`,
          { offset: at },
        );
    };
    const fixed = { Y: 2, C: 1, I: 4, F: 4, D: 8, L: 8 }[type];
    if (fixed !== undefined) {
      need(fixed);
      const v = at + 1;
      const value =
        type === 'Y'
          ? view.getInt16(v, true)
          : type === 'C'
            ? b[v]
            : type === 'I'
              ? view.getInt32(v, true)
              : type === 'F'
                ? view.getFloat32(v, true)
                : type === 'D'
                  ? view.getFloat64(v, true)
                  : Number(view.getBigInt64(v, true));
      return { type, value, at, length: 1 + fixed };
    }
    if (type === 'S' || type === 'R') {
      need(4);
      const n = view.getUint32(at + 1, true);
      need(4 + n);
      const value = type === 'S' ? decodeUtf8(b.subarray(at + 5, at + 5 + n)) : undefined;
      return { type, value, at, length: 5 + n };
    }
    // 'c' is a byte array as 'b' is (the loader reads both alike): some exporters store an embedded texture's
    // ImageData so (assimp-testmodels' boxWithCompressedCTypeArray.FBX).
    const element = { f: 4, d: 8, l: 8, i: 4, b: 1, c: 1 }[type];
    if (element !== undefined) {
      need(12);
      const count = view.getUint32(at + 1, true);
      const encoding = view.getUint32(at + 5, true);
      const stored = view.getUint32(at + 9, true);
      if (encoding !== 0 && encoding !== 1)
        throw new FormatError(
          'FBX',
          `an array property has encoding ${encoding} (0 = raw, 1 = zlib): the file is damaged`,
          { offset: at },
        );
      if (encoding === 0 && stored !== count * element)
        throw new FormatError(
          'FBX',
          `a raw array of ${count} values of ${element} bytes stores ${stored} bytes: the file is damaged`,
          { offset: at },
        );
      need(12 + stored);
      if (encoding === 1) {
        inflated += count * element;
        if (inflated > inflateBudget)
          throw new FormatError(
            'FBX',
            `the compressed arrays of this file unpack to more than ${inflateBudget / 1048576} MiB (at most ${INFLATE_RATIO} times the file's size, and at least ${MIN_INFLATE_BUDGET / 1048576} MiB): it is damaged, or made to exhaust memory; export it again without compression (or as ASCII FBX)`,
            { offset: at },
          );
      }
      return { type, value: undefined, at, length: 13 + stored };
    }
    throw new FormatError(
      'FBX',
      `unknown property type ${quoteJson(type)} (byte 0x${b[at].toString(16).padStart(2, '0')}): the file is damaged`,
      { offset: at },
    );
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
  if (!top.some((n) => n.name === 'Objects'))
    throw new FormatError('FBX', 'the file has no Objects section: it is truncated, or holds no scene', { offset: at });
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
    if (keys && 'fdilb'.includes(keys.type)) checkCurve(decodeArray(b, view, keys), travel, { offset: keys.at });
  }
  // The animation and the models, as trees (only the objects animation.ts reads).
  const origin = new Map<FbxNode, BinaryNode>();
  const tree = (n: BinaryNode): FbxNode => {
    const t: FbxNode = {
      name: n.name,
      props: n.props.map((p): FbxValue => {
        if (p.type === 'L') return view.getBigInt64(p.at + 1, true);
        if ('fdilb'.includes(p.type)) return decodeArray(b, view, p);
        return p.value ?? '';
      }),
      children: n.children.map(tree),
    };
    origin.set(t, n);
    return t;
  };
  const animated = ['Model', 'AnimationStack', 'AnimationLayer', 'AnimationCurveNode', 'AnimationCurve'];
  const objectTree: FbxNode = {
    name: 'Objects',
    props: [],
    children: (objects?.children ?? []).flatMap((o) =>
      animated.includes(o.name)
        ? [tree(o)]
        : // A skin cluster's id and type only: the model tree check counts the models it makes bones (animation.ts).
          o.name === 'Deformer' && o.props[2]?.value === 'Cluster'
          ? [
              {
                name: o.name,
                props: o.props
                  .slice(0, 3)
                  .map((p) => (p.type === 'L' ? view.getBigInt64(p.at + 1, true) : (p.value ?? ''))),
                children: [],
              },
            ]
          : [],
    ),
  };
  const connections = byName(top, 'Connections');
  const definitions = byName(top, 'Definitions');
  const f32 = new Float32Array(1);
  const i32 = new Int32Array(f32.buffer);
  const animation = readFbxAnimation(
    objectTree,
    connections && tree(connections),
    definitions && tree(definitions),
    (x) => ((f32[0] = x), i32[0]),
    (n) => ({ offset: origin.get(n)?.start }),
  );
  dropInactiveRotations(objectTree, definitions && tree(definitions), (p) => {
    const name = origin.get(p)?.props[0];
    if (name?.type === 'S') b[name.at + 5] = '_'.charCodeAt(0);
  });
  for (const o of objects?.children ?? []) {
    if (SKIPPED_OBJECTS.includes(o.name)) b[o.nameAt] = 'X'.charCodeAt(0);
    else if (o.name === 'Model') renameBinaryString(b, o.props[2], PLAIN_MODEL_TYPES);
    else if (o.name === 'AnimationCurveNode') renameDeformPercent(b, o.props[1]);
  }
  return { settings, animation };
}

/**
 * FBX counts a model's PreRotation, PostRotation and RotationOrder only when its RotationActive is 1 (its own, or the
 * Model template's): an inactive model turns in the order XYZ with no pre- or post-rotation. The loader always applies
 * them, so those of an inactive model are renamed out of its sight (docs/import.md#fbx).
 */
const INACTIVE_UNLESS_ROTATION_ACTIVE = ['PreRotation', 'PostRotation', 'RotationOrder'];

function dropInactiveRotations(objects: FbxNode, definitions: FbxNode | undefined, rename: (p: FbxNode) => void): void {
  const template = modelTemplate(definitions);
  for (const o of objects.children) {
    if (o.name !== 'Model' || modelSettings(o, template).rotationActive) continue;
    for (const p of o.children.find((c) => c.name === 'Properties70')?.children ?? [])
      if (p.name === 'P' && INACTIVE_UNLESS_ROTATION_ACTIVE.includes(p.props[0] as string)) rename(p);
  }
}

/** The numbers of an 'f' or 'd' array property (raw or zlib). */
function decodeArray(b: Uint8Array, view: DataView, prop: Property): Float64Array {
  const count = view.getUint32(prop.at + 1, true);
  const encoding = view.getUint32(prop.at + 5, true);
  const stored = view.getUint32(prop.at + 9, true);
  const size = { f: 4, d: 8, i: 4, l: 8, b: 1 }[prop.type as 'f'] ?? 8;
  if (count * size > MAX_CURVE_BYTES)
    throw new FormatError(
      'FBX',
      `an animation curve has ${count} keys, more than ActGuy reads (${MAX_CURVE_BYTES / size} at most)`,
      { offset: prop.at },
    );
  let data = b.subarray(prop.at + 13, prop.at + 13 + stored);
  if (encoding === 1) {
    try {
      data = unzlibSync(data, { out: new Uint8Array(count * size) });
    } catch (e) {
      throw new FormatError(
        'FBX',
        `a compressed key array does not decompress (${e instanceof Error ? e.message : String(e)}): the file is damaged`,
        { offset: prop.at },
      );
    }
    if (data.length !== count * size)
      throw new FormatError(
        'FBX',
        `a compressed key array holds ${data.length} bytes, not the ${count * size} its ${count} keys need: the file is damaged`,
        { offset: prop.at },
      );
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = new Float64Array(count);
  // As the loader reads each type: floats, doubles, 32- and 64-bit integers, bytes.
  for (let i = 0; i < count; i++)
    out[i] =
      prop.type === 'f'
        ? dv.getFloat32(i * 4, true)
        : prop.type === 'd'
          ? dv.getFloat64(i * 8, true)
          : prop.type === 'i'
            ? dv.getInt32(i * 4, true)
            : prop.type === 'l'
              ? Number(dv.getBigInt64(i * 8, true))
              : dv.getUint8(i);
  return out;
}

/** Refuses a curve with a value that is not finite, and the file whose curves together travel past MAX_CURVE_TRAVEL (see there). */
function checkCurve(values: ArrayLike<number>, travel: { sum: number }, place: FormatErrorPlace): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue; // the loader skips NaN keys
    if (!Number.isFinite(v))
      throw new FormatError(
        'FBX',
        `an animation curve has the key value ${v} (key ${i}): key values must be finite numbers`,
        place,
      );
    if (i > 0 && Number.isFinite(values[i - 1])) travel.sum += Math.abs(v - values[i - 1]) / 180;
  }
  if (travel.sum > MAX_CURVE_TRAVEL) {
    // A loop, not Math.max(...values): spread as arguments, a curve of a few hundred thousand keys overflows the stack.
    let largest = 0;
    for (let i = 0; i < values.length; i++) if (Math.abs(values[i]) > largest) largest = Math.abs(values[i]);
    throw new FormatError(
      'FBX',
      `the animation curves jump by more than ${MAX_CURVE_TRAVEL * 180} in all (values like ${largest.toExponential(2)}): the file is damaged`,
      place,
    );
  }
}

/** Overwrites an S property's first byte when its value is one of `values` (the loader then takes the default branch). */
function renameBinaryString(b: Uint8Array, prop: Property | undefined, values: readonly string[]): void {
  if (prop?.type === 'S' && typeof prop.value === 'string' && values.includes(prop.value))
    b[prop.at + 5] = '_'.charCodeAt(0);
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
  if (!(s.unitScaleFactor > 0))
    throw new FormatError(
      'FBX',
      `GlobalSettings UnitScaleFactor is ${s.unitScaleFactor}; it must be a number > 0 (centimetres per unit)`,
      { where: 'GlobalSettings' },
    );
}

// ---- ASCII ----

/** A node of an FBX tree (the ASCII reader's, written to binary for the loader). Integers are bigints, arrays typed. */
export type FbxValue =
  | string
  | number
  | bigint
  | Float64Array
  | Float32Array
  | BigInt64Array
  | Int32Array
  /** A byte array ('c'), written only (the readers keep none: no object the importer reads holds one). */
  | Uint8Array;
export interface FbxNode {
  name: string;
  props: FbxValue[];
  children: FbxNode[];
  /** Write numbers as 32-bit integers ('I') rather than doubles ('D'). */
  ints?: boolean;
}

/**
 * ASCII FBX is read here, strictly as the FBX SDK writes it, and handed to the
 * loader as binary: its own text reader goes by tab counts and joins lines, so
 * a damaged file could be read as another tree than the one checked (a fuzzed
 * brace once turned key times into rotation values). Meshes, materials and
 * images are dropped rather than renamed.
 */
function prepareAscii(b: Uint8Array): FbxContainer {
  // One character per byte, so names with any bytes survive the trip to binary unchanged.
  let text = '';
  for (let i = 0; i < b.length; i += 0x8000) text += String.fromCharCode(...b.subarray(i, i + 0x8000));
  const tree = parseAsciiFbx(text);
  const header = tree.find((n) => n.name === 'FBXHeaderExtension')?.children.find((n) => n.name === 'FBXVersion');
  const version = header ? Number(header.props[0]) : NaN;
  if (!Number.isFinite(version)) {
    if (!isFbx(b))
      throw new FormatError('FBX', 'not an FBX file: no binary FBX header and no ASCII FBX header', { offset: 0 });
    throw new FormatError('FBX', 'the ASCII FBX has no FBXVersion in its header: the file is truncated or damaged', {
      line: 1,
      column: 1,
    });
  }
  checkVersion(version, lineColumn(text, text.indexOf('FBXVersion')));
  const settings: FbxSceneSettings = { format: 'ascii', version, unitScaleFactor: 1 };
  const globals = tree.find((n) => n.name === 'GlobalSettings')?.children.find((n) => n.name === 'Properties70');
  for (const p of globals?.children ?? [])
    if (p.name === 'P' && p.props.length >= 5)
      readSetting(settings, String(p.props[0]), typeof p.props[4] === 'bigint' ? Number(p.props[4]) : p.props[4]);
  finishSettings(settings);
  if (!tree.some((n) => n.name === 'Objects'))
    throw new FormatError('FBX', 'the file has no Objects section: it is truncated, or holds no scene', {
      line: 1,
      column: 1,
    });
  const objects = tree.find((n) => n.name === 'Objects')!;
  objects.children = objects.children.filter((o) => !SKIPPED_OBJECTS.includes(o.name));
  const travel = { sum: 0 };
  for (const o of objects.children) {
    if (o.name === 'Model' && typeof o.props[2] === 'string' && PLAIN_MODEL_TYPES.includes(o.props[2]))
      o.props[2] = `_${o.props[2].slice(1)}`;
    if (o.name === 'AnimationCurveNode' && typeof o.props[1] === 'string')
      o.props[1] = o.props[1].replace('DeformPercent', 'deformPercent');
    if (o.name === 'AnimationCurve') {
      const keys = o.children.find((c) => c.name === 'KeyValueFloat')?.props[0];
      if (keys instanceof Float64Array) checkCurve(keys, travel, { where: `AnimationCurve ${String(o.props[0])}` });
    }
  }
  const animation = readFbxAnimation(
    objects,
    tree.find((n) => n.name === 'Connections'),
    tree.find((n) => n.name === 'Definitions'),
    (x) => x | 0,
    (n) => ({ where: `${n.name} ${String(n.props[0])}` }),
  );
  dropInactiveRotations(
    objects,
    tree.find((n) => n.name === 'Definitions'),
    (p) => (p.props[0] = `_${String(p.props[0]).slice(1)}`),
  );
  const out = writeBinaryFbx(tree, 7400);
  return {
    settings,
    forLoader: out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer,
    animation,
  };
}

/** Parses ASCII FBX into nodes; anything not in the SDK's shape is a FormatError at its line and column. */
export function parseAsciiFbx(text: string): FbxNode[] {
  const lines = text.split('\n');
  const root: FbxNode[] = [];
  const stack: FbxNode[] = [];
  const add = (n: FbxNode) => (stack.length ? stack[stack.length - 1].children : root).push(n);
  const fail = (line: number, column: number, detail: string): never => {
    throw new FormatError('FBX', `${detail}: the file is damaged (ASCII FBX as the FBX SDK writes it is expected)`, {
      line: line + 1,
      column,
    });
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const line = raw.trim();
    if (line === '' || line.startsWith(';')) continue;
    const column = raw.length - raw.trimStart().length + 1;
    if (line === '}') {
      if (!stack.pop()) fail(i, column, 'a closing brace } has no opening brace');
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_|]*):(.*)$/.exec(line);
    if (!m) fail(i, column, `a line that is neither "Name: values", "Name: values {" nor "}"`);
    const [, name] = m!;
    let rest = m![2].trim();
    // A value list may go on over lines that end with a comma (long property values).
    while (rest.endsWith(',') && i + 1 < lines.length) rest += lines[++i].trim();
    if (!rest.endsWith('{')) {
      add({ name, props: parseValues(rest, (c, d) => fail(i, column + c, d)), children: [] });
      continue;
    }
    const head = rest.slice(0, -1).trim();
    const array = /^\*(\d+)$/.exec(head);
    if (array) {
      // `Name: *N {`, then `a: v,v,...` over one or more lines, then `}`.
      let body = '';
      let j = i + 1;
      for (; j < lines.length && lines[j].trim() !== '}'; j++) body += lines[j].trim();
      if (j >= lines.length) fail(i, column, `the array ${name} has no closing brace (the file is truncated)`);
      const values = /^a:(.*)$/.exec(body);
      if (!values && Number(array[1]) > 0) fail(i + 1, 1, `the array ${name} has no "a:" list`);
      const items = values && values[1].trim() !== '' ? values[1].split(',') : [];
      if (items.length !== Number(array[1]))
        fail(i, column, `the array ${name} declares ${array[1]} values but holds ${items.length}`);
      const numbers = new Float64Array(items.length);
      items.forEach((v, k) => {
        const x = v.trim();
        if (!NUMBER.test(x))
          fail(i + 1, 1, `the array ${name} has the value ${quoteJson(x.slice(0, 40))}, which is not a number`);
        numbers[k] = Number(x);
      });
      add({ name, props: [numbers], children: [] });
      i = j;
      continue;
    }
    const node: FbxNode = { name, props: parseValues(head, (c, d) => fail(i, column + c, d)), children: [] };
    // What the loader's text reader strips from an object's name ("Model::Hips" is "Hips"); binary keeps the name alone.
    if (typeof node.props[1] === 'string') node.props[1] = node.props[1].replace(/^\w+::/, '');
    add(node);
    stack.push(node);
    if (stack.length > MAX_DEPTH) fail(i, column, `nodes are nested more than ${MAX_DEPTH} deep`);
  }
  if (stack.length)
    throw new FormatError(
      'FBX',
      `the file ends inside ${stack.length} open block(s) (the innermost is ${stack[stack.length - 1].name}): the file is truncated`,
      { line: lines.length, column: 1 },
    );
  return root;
}

/** A number as FBX writes it; unambiguous, so a long run of digits is matched in linear time. */
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** The comma-separated values of a line: "strings", integers (as bigints: ids and times need 64 bits), numbers, and bare words (T, Y, ...). */
function parseValues(s: string, fail: (column: number, detail: string) => never): FbxValue[] {
  const out: FbxValue[] = [];
  let i = 0;
  const skip = () => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };
  skip();
  if (i >= s.length) return out;
  for (;;) {
    skip();
    if (s[i] === '"') {
      const close = s.indexOf('"', i + 1);
      if (close < 0) fail(i, 'a string has no closing quote');
      out.push(s.slice(i + 1, close));
      i = close + 1;
    } else {
      const end = s.indexOf(',', i);
      const token = s.slice(i, end < 0 ? s.length : end).trim();
      if (token === '')
        out.push(''); // `Content: ,` before a value on the next line
      else if (/^[-+]?\d+$/.test(token)) out.push(BigInt(token));
      else if (NUMBER.test(token)) out.push(Number(token));
      else if (/^[A-Za-z_*][\w*]*$/.test(token)) out.push(token);
      else fail(i, `the value ${quoteJson(token.slice(0, 40))} is neither a "string" nor a number`);
      i = end < 0 ? s.length : end;
    }
    skip();
    if (i >= s.length) return out;
    if (s[i] !== ',') fail(i, `expected a comma after a value, found ${quoteJson(s[i])}`);
    i++;
  }
}

/** A binary FBX file of the tree (version 7400, or 7500 and later with 64-bit record fields); `compress` stores arrays zlib-compressed, as the FBX SDK does. */
export function writeBinaryFbx(tree: FbxNode[], version = 7400, compress = false): Uint8Array {
  const wide = version >= 7500;
  const out: number[] = [];
  const push = (bytes: ArrayLike<number>) => {
    for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
  };
  const u32 = (v: number) => {
    const x = new Uint8Array(4);
    new DataView(x.buffer).setUint32(0, v, true);
    return x;
  };
  const uint = (v: number) => (wide ? [...u32(v), 0, 0, 0, 0] : [...u32(v)]);
  const latin1 = (s: string) => Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  push(latin1('Kaydara FBX Binary  \0\x1a\0'));
  push(u32(version));
  const prop = (v: FbxValue, ints: boolean): number[] => {
    if (typeof v === 'string') {
      const x = latin1(v);
      return [0x53, ...u32(x.length), ...x];
    }
    if (typeof v === 'bigint') {
      const x = new Uint8Array(8);
      new DataView(x.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
      return [0x4c, ...x];
    }
    if (typeof v === 'number') {
      if (ints) return [0x49, ...u32(v >>> 0)];
      const x = new Uint8Array(8);
      new DataView(x.buffer).setFloat64(0, v, true);
      return [0x44, ...x];
    }
    const code =
      v instanceof Float64Array
        ? 0x64
        : v instanceof Float32Array
          ? 0x66
          : v instanceof BigInt64Array
            ? 0x6c
            : v instanceof Uint8Array
              ? 0x63
              : 0x69;
    const raw = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    const stored = compress ? zlibSync(raw) : raw;
    return [code, ...u32(v.length), ...u32(compress ? 1 : 0), ...u32(stored.length), ...stored];
  };
  const node = (nd: FbxNode) => {
    const start = out.length;
    const props = nd.props.flatMap((v) => prop(v, nd.ints ?? false));
    push(uint(0));
    push(uint(nd.props.length));
    push(uint(props.length));
    out.push(nd.name.length);
    push(latin1(nd.name));
    push(props);
    if (nd.children.length) {
      nd.children.forEach(node);
      push(new Array(wide ? 25 : 13).fill(0));
    }
    const end = u32(out.length);
    for (let k = 0; k < 4; k++) out[start + k] = end[k];
  };
  tree.forEach(node);
  push(new Array(wide ? 25 : 13).fill(0));
  // Footer: the loader stops reading nodes within 176 bytes of the end.
  push([0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e, 0, 0, 0, 0]);
  while (out.length % 16) out.push(0);
  push(u32(version));
  push(new Array(120).fill(0));
  push([0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b]);
  return Uint8Array.from(out);
}

function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1,
    at = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    at = i + 1;
  }
  return { line, column: index - at + 1 };
}
