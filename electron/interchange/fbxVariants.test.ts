/**
 * assimp-testmodels' animation_with_skeleton.fbx (Blender's FBX 7.4 binary: an "Armature" node above two bone
 * chains, 16 bones, 24 fps) rewritten the way other exporters write FBX, then imported and compressed
 * (docs/interchange.md#tests-what-they-compare):
 * - ASCII, and binary 7.5 (64-bit records) with zlib-compressed arrays;
 * - Mixamo: every bone named "mixamorig:<name>", the armature node carrying the 0.01 scale and a 90 degree turn;
 * - Maya / MotionBuilder: joint orients (PreRotation), PostRotation, and a rotation order other than XYZ on every
 *   bone (all six orders used), RotationActive set as Maya writes it;
 * - UnitScaleFactor 100 (metres) and 2.54 (inches);
 * - the armature node moved, turned and scaled (uniformly);
 * - a take whose keys and time span start at frame 1000, not 0;
 * - pivots and offsets on the armature node made still, on an animated bone, and on every node (all read);
 * - three hand keys per rotation curve turning up to 120 degrees, linear and as cubic user tangents with slopes (each
 *   Euler angle along its curve at every frame between the keys), pre-rotations with RotationActive 0 (not applied).
 * Each imports to the world position and axes of every joint as this test evaluates the file itself, from the
 * transform formula the FBX SDK documents (FbxNode: T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S *
 * Sp^-1, Euler order eEulerXYZ meaning X applied first, pre- and post-rotations always XYZ and only when
 * RotationActive is 1, linear and cubic Hermite keys, positions times UnitScaleFactor to centimetres) and a binary reader written here, sharing nothing with three.js or the importer,
 * within 1e-5 of the skeleton's reach at every frame (frames are taken at the file's 24 fps; the hand keys leave frames
 * between keys). Then it compresses at the default tolerances and at the floor, keeping the
 * guarantee by an independent decode of the bytes. Skipped, with the reason printed, when the Debian package is
 * absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { FormatError } from '../../shared/errors';
import type { FbxNode, FbxValue } from '../../shared/interchange/fbx/container';
import { importFbx } from '../../shared/interchange/fbx/import';
import { writeFbxAscii, writeFbxBinary } from '../../shared/interchange/fbx/testFixtures';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { motionPoints, pointMismatch } from '../../shared/testing/independentFk';

const FILE = '/usr/share/assimp/models/FBX/animation_with_skeleton.fbx';
const present = existsSync(FILE);
if (!present) console.log(`fbxVariants.test: skipping: assimp-testmodels' ${FILE} is missing`);
const TICKS = 46186158000;
/** animation_with_skeleton.fbx's rate, at which its variants are imported. */
const FILE_FPS = 24;
/** Key times closer than this are the same key (a thousandth of a frame at 24 fps). */
const SAME_KEY = TICKS / 24 / 1000;

// ---- a binary FBX reader (the format as Blender's and the FBX SDK's writers lay it out) ----

function readBinaryFbx(b: Uint8Array): FbxNode[] {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const wide = dv.getUint32(23, true) >= 7500;
  let at = 27;
  const uint = () => {
    const v = wide ? Number(dv.getBigUint64(at, true)) : dv.getUint32(at, true);
    at += wide ? 8 : 4;
    return v;
  };
  const latin1 = (x: Uint8Array) => String.fromCharCode(...x);
  const node = (): FbxNode | null => {
    const end = uint();
    const count = uint();
    uint();
    const nameLength = b[at++];
    const name = latin1(b.subarray(at, at + nameLength));
    at += nameLength;
    if (end === 0) return null;
    const props: FbxValue[] = [];
    let ints = false;
    for (let k = 0; k < count; k++) {
      const type = String.fromCharCode(b[at++]);
      const scalar: Record<string, [number, (o: number) => number | bigint, boolean]> = {
        Y: [2, (o) => dv.getInt16(o, true), true],
        C: [1, (o) => b[o], true],
        I: [4, (o) => dv.getInt32(o, true), true],
        F: [4, (o) => dv.getFloat32(o, true), false],
        D: [8, (o) => dv.getFloat64(o, true), false],
        L: [8, (o) => dv.getBigInt64(o, true), false],
      };
      if (type in scalar) {
        const [size, read, isInt] = scalar[type];
        props.push(read(at));
        at += size;
        ints ||= isInt;
      } else if (type === 'S' || type === 'R') {
        const n = dv.getUint32(at, true);
        // Raw bytes (embedded textures) are not what this test is about: kept as an empty string.
        props.push(type === 'S' ? latin1(b.subarray(at + 4, at + 4 + n)) : '');
        at += 4 + n;
      } else {
        const length = dv.getUint32(at, true);
        const encoding = dv.getUint32(at + 4, true);
        const stored = dv.getUint32(at + 8, true);
        let raw = b.slice(at + 12, at + 12 + stored);
        at += 12 + stored;
        if (encoding === 1) raw = new Uint8Array(inflateSync(raw));
        const buf = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
        if (type === 'd') props.push(new Float64Array(buf, 0, length));
        else if (type === 'f') props.push(new Float32Array(buf, 0, length));
        else if (type === 'l') props.push(new BigInt64Array(buf, 0, length));
        else if (type === 'i') props.push(new Int32Array(buf, 0, length));
        else if (type === 'b') props.push(Int32Array.from(new Uint8Array(buf, 0, length)));
        else throw new Error(`property type ${type} at ${at}`);
      }
    }
    const children: FbxNode[] = [];
    for (let c = at < end ? node() : null; c; c = at < end ? node() : null) children.push(c);
    at = end;
    return { name, props, children, ints };
  };
  const out: FbxNode[] = [];
  for (let n = node(); n; n = node()) out.push(n);
  return out;
}

// ---- tree access ----

const child = (n: FbxNode, name: string) => n.children.find((c) => c.name === name);
const top = (tree: FbxNode[], name: string) => tree.find((n) => n.name === name)!;
const objectName = (n: FbxNode) => String(n.props[1]).split('\0\x01')[0];
const models = (tree: FbxNode[]) => top(tree, 'Objects').children.filter((n) => n.name === 'Model');
const props70 = (n: FbxNode) => {
  let p = child(n, 'Properties70');
  if (!p) n.children.push((p = { name: 'Properties70', props: [], children: [] }));
  return p;
};
const getP = (n: FbxNode, name: string) => child(n, 'Properties70')?.children.find((p) => p.props[0] === name);
/** Sets (or adds) a Properties70 entry, as Maya writes it. */
function setP(n: FbxNode, name: string, type: string, ...values: number[]) {
  const p70 = props70(n);
  const ints = type === 'enum' || type === 'bool' || type === 'int';
  const flags = type.startsWith('Lcl') ? 'A' : '';
  const entry: FbxNode = { name: 'P', props: [name, type, '', flags, ...values], children: [], ints };
  const i = p70.children.findIndex((p) => p.props[0] === name);
  if (i >= 0) p70.children[i] = entry;
  else p70.children.push(entry);
}
const vec = (n: FbxNode | undefined, name: string, dflt: number[]) => {
  const p = n && getP(n, name);
  return p ? (p.props.slice(4, 7) as number[]).map(Number) : dflt;
};

// ---- the transform formula (4x4, column vectors, row-major storage) ----

type M4 = number[];
const I4 = (): M4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
function mul(a: M4, b: M4): M4 {
  const o = new Array<number>(16).fill(0);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) o[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
  return o;
}
const T = (v: number[]): M4 => [1, 0, 0, v[0], 0, 1, 0, v[1], 0, 0, 1, v[2], 0, 0, 0, 1];
const S = (v: number[]): M4 => [v[0], 0, 0, 0, 0, v[1], 0, 0, 0, 0, v[2], 0, 0, 0, 0, 1];
function axisRot(axis: number, deg: number): M4 {
  const a = (deg * Math.PI) / 180,
    c = Math.cos(a),
    s = Math.sin(a);
  if (axis === 0) return [1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1];
  if (axis === 1) return [c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1];
  return [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}
/** FBX EFbxRotationOrder: 0 eEulerXYZ ... 5 eEulerZYX; the first letter is applied first (XYZ: Rz * Ry * Rx). */
const ORDERS = ['XYZ', 'XZY', 'YZX', 'YXZ', 'ZXY', 'ZYX'];
function euler(deg: number[], order = 0): M4 {
  const axes = Array.from(ORDERS[order], (c) => 'XYZ'.indexOf(c));
  return axes.reduce((m, axis) => mul(axisRot(axis, deg[axis]), m), I4());
}
const transpose3 = (m: M4): M4 => [m[0], m[4], m[8], 0, m[1], m[5], m[9], 0, m[2], m[6], m[10], 0, 0, 0, 0, 1];
const neg = (v: number[]) => v.map((x) => -x);

interface Evaluator {
  /** World matrix of the named model at a time in FBX ticks. */
  world(name: string, ticks: number): M4;
  /** Every key time of the first take, in ticks, sorted. */
  keyTicks: number[];
  unit: number;
}

function evaluator(tree: FbxNode[]): Evaluator {
  const unit = Number(getP(top(tree, 'GlobalSettings'), 'UnitScaleFactor')?.props[4] ?? 1);
  const objects = new Map(top(tree, 'Objects').children.map((n) => [n.props[0] as bigint, n]));
  const parentOf = new Map<bigint, bigint>();
  const curvesOf = new Map<bigint, { prop: string; node: bigint }[]>();
  const curveOfNode = new Map<bigint, Map<string, bigint>>();
  const layersOf = new Map<bigint, bigint[]>();
  for (const c of top(tree, 'Connections').children) {
    const [kind, from, to, prop] = c.props as [string, bigint, bigint, string?];
    const fromNode = objects.get(from),
      toNode = objects.get(to);
    if (kind === 'OO' && fromNode?.name === 'Model' && (to === 0n || toNode?.name === 'Model')) parentOf.set(from, to);
    if (kind === 'OO' && fromNode?.name === 'AnimationLayer' && toNode?.name === 'AnimationStack')
      layersOf.set(to, [...(layersOf.get(to) ?? []), from]);
    if (kind === 'OP' && fromNode?.name === 'AnimationCurveNode' && toNode?.name === 'Model')
      curvesOf.set(to, [...(curvesOf.get(to) ?? []), { prop: prop!, node: from }]);
    if (kind === 'OP' && fromNode?.name === 'AnimationCurve' && toNode?.name === 'AnimationCurveNode') {
      if (!curveOfNode.has(to)) curveOfNode.set(to, new Map());
      curveOfNode.get(to)!.set(prop!, from);
    }
  }
  const stack = top(tree, 'Objects').children.find((n) => n.name === 'AnimationStack')!;
  const layer = layersOf.get(stack.props[0] as bigint)![0];
  const inLayer = new Set<bigint>();
  for (const c of top(tree, 'Connections').children)
    if (c.props[0] === 'OO' && c.props[2] === layer) inLayer.add(c.props[1] as bigint);
  const keyTicks = new Set<number>();
  for (const [, m] of curveOfNode)
    for (const [, id] of m)
      for (const t of child(objects.get(id)!, 'KeyTime')!.props[0] as BigInt64Array) keyTicks.add(Number(t));
  const curveAt = (id: bigint, ticks: number) => {
    const c = objects.get(id)!;
    const times = Array.from(child(c, 'KeyTime')!.props[0] as BigInt64Array, Number);
    const values = child(c, 'KeyValueFloat')!.props[0] as Float32Array;
    const k = times.findIndex((t) => Math.abs(t - ticks) < SAME_KEY);
    if (k >= 0) return values[k];
    if (ticks <= times[0]) return values[0];
    if (ticks >= times[times.length - 1]) return values[values.length - 1];
    // KeyAttrFlags run by run (KeyAttrRefCount keys each): interpolation bits 0x0e (0x04 linear, 0x08 cubic with the
    // stored slopes when the tangent is user, 0x400); anything else is not what these variants write.
    const runFlags = child(c, 'KeyAttrFlags')!.props[0] as Int32Array;
    const runData = child(c, 'KeyAttrDataFloat')!.props[0] as Float32Array;
    const counts = child(c, 'KeyAttrRefCount')!.props[0] as Int32Array;
    const k1 = times.findIndex((t) => t > ticks);
    let run = 0;
    for (let covered = counts[0]; covered <= k1 - 1; covered += counts[run]) run++;
    const flags = runFlags[run];
    const a = (ticks - times[k1 - 1]) / (times[k1] - times[k1 - 1]);
    const [v0, v1] = [values[k1 - 1], values[k1]];
    if ((flags & 0x0e) === 0x04) return v0 + a * (v1 - v0);
    if ((flags & 0x0e) !== 0x08 || (flags & 0xf00) !== 0x400)
      throw new Error(`curve ${String(c.props[0])}: interpolation flags ${flags} are neither linear nor cubic user`);
    const h = (times[k1] - times[k1 - 1]) / TICKS;
    const [d0, d1] = [runData[run * 4], runData[run * 4 + 1]];
    return (
      (2 * a ** 3 - 3 * a ** 2 + 1) * v0 +
      (a ** 3 - 2 * a ** 2 + a) * h * d0 +
      (-2 * a ** 3 + 3 * a ** 2) * v1 +
      (a ** 3 - a ** 2) * h * d1
    );
  };
  const byName = new Map<string, bigint>();
  for (const m of models(tree)) byName.set(objectName(m), m.props[0] as bigint);
  const local = (id: bigint, ticks: number): M4 => {
    const m = objects.get(id)!;
    const animated = (prop: string, dflt: number[]) => {
      const v = vec(m, prop, dflt);
      for (const c of curvesOf.get(id) ?? []) {
        if (c.prop !== prop || !inLayer.has(c.node)) continue;
        const curves = curveOfNode.get(c.node);
        ['d|X', 'd|Y', 'd|Z'].forEach((ch, k) => {
          const cid = curves?.get(ch);
          if (cid !== undefined) v[k] = curveAt(cid, ticks);
        });
      }
      return v;
    };
    const order = Number(getP(m, 'RotationOrder')?.props[4] ?? 0);
    const active = Number(getP(m, 'RotationActive')?.props[4] ?? 0) === 1;
    const rp = vec(m, 'RotationPivot', [0, 0, 0]),
      sp = vec(m, 'ScalingPivot', [0, 0, 0]);
    const chain = [
      T(animated('Lcl Translation', [0, 0, 0])),
      T(vec(m, 'RotationOffset', [0, 0, 0])),
      T(rp),
      euler(active ? vec(m, 'PreRotation', [0, 0, 0]) : [0, 0, 0]),
      euler(animated('Lcl Rotation', [0, 0, 0]), order),
      transpose3(euler(active ? vec(m, 'PostRotation', [0, 0, 0]) : [0, 0, 0])),
      T(neg(rp)),
      T(vec(m, 'ScalingOffset', [0, 0, 0])),
      T(sp),
      S(animated('Lcl Scaling', [1, 1, 1])),
      T(neg(sp)),
    ];
    return chain.reduce(mul, I4());
  };
  const world = (id: bigint, ticks: number): M4 => {
    const p = parentOf.get(id);
    const l = local(id, ticks);
    return p === undefined || p === 0n ? l : mul(world(p, ticks), l);
  };
  return {
    world: (name, ticks) => world(byName.get(name)!, ticks),
    keyTicks: [...keyTicks].sort((a, b) => a - b),
    unit,
  };
}

// ---- the variants ----

const bones = (tree: FbxNode[]) => models(tree).filter((m) => m.props[2] === 'LimbNode');
const armature = (tree: FbxNode[]) => models(tree).find((m) => objectName(m) === 'Armature')!;
const setUnit = (tree: FbxNode[], unit: number) => setP(top(tree, 'GlobalSettings'), 'UnitScaleFactor', 'double', unit);

interface Variant {
  name: string;
  /** Another file of the same package than animation_with_skeleton.fbx, and the rate to import it at. */
  file?: string;
  fps?: number;
  /** The import is refused with a message matching this. */
  refused?: RegExp;
  edit?: (tree: FbxNode[]) => void;
  write?: (tree: FbxNode[]) => Uint8Array;
}

/** Three hand keys 10 frames apart on every rotation curve, turning up to 120 degrees (frames between keys). */
function handKeys(t: FbxNode[], cubic: boolean) {
  let n = 0;
  const rotationNodes = new Set(
    top(t, 'Objects')
      .children.filter((o) => o.name === 'AnimationCurveNode' && objectName(o) === 'R')
      .map((o) => o.props[0]),
  );
  const rotationCurves = new Set(
    top(t, 'Connections')
      .children.filter((c) => rotationNodes.has(c.props[2]))
      .map((c) => c.props[1]),
  );
  for (const o of top(t, 'Objects').children)
    if (rotationCurves.has(o.props[0])) {
      const times = child(o, 'KeyTime')!.props[0] as BigInt64Array;
      const step = BigInt(Math.round(10 * (TICKS / FILE_FPS)));
      child(o, 'KeyTime')!.props[0] = BigInt64Array.from([times[0], times[0] + step, times[0] + 2n * step]);
      const v0 = (child(o, 'KeyValueFloat')!.props[0] as Float32Array)[0];
      n++;
      child(o, 'KeyValueFloat')!.props[0] = Float32Array.from([v0, v0 + 40 + (n % 5) * 20, v0 - 30]);
      if (!cubic) child(o, 'KeyAttrRefCount')!.props[0] = Int32Array.from([3]);
      else {
        // Cubic user tangents, one run per key: right slope, next key's left slope (degrees per second).
        child(o, 'KeyAttrFlags')!.props[0] = Int32Array.from([0x408, 0x408, 0x408]);
        child(o, 'KeyAttrDataFloat')!.props[0] = Float32Array.from(
          [0, 1, 2].flatMap((k) => [90 * Math.sin(n + k), -120 * Math.cos(n * 2 + k), floatBits(0x0d050d05), 0]),
        );
        child(o, 'KeyAttrRefCount')!.props[0] = Int32Array.from([1, 1, 1]);
      }
    }
}
const floatBits = (bits: number) => new Float32Array(Int32Array.from([bits]).buffer)[0];

const variants: Variant[] = [
  { name: 'binary 7.4 as assimp ships it' },
  {
    name: 'huesitos.fbx (Blender) at 30 fps: its axes keyed at different times, every frame between keys',
    file: 'huesitos.fbx',
    fps: 30,
  },
  { name: 'ASCII 7.4', write: (t) => writeFbxAscii(t) },
  { name: 'binary 7.5, arrays zlib-compressed', write: (t) => writeFbxBinary(t, 7500, true) },
  {
    name: 'Mixamo: "mixamorig:" bone names, armature scaled 0.01 and turned',
    edit: (t) => {
      for (const b of bones(t)) b.props[1] = `mixamorig:${String(b.props[1])}`;
      setP(armature(t), 'Lcl Scaling', 'Lcl Scaling', 0.01, 0.01, 0.01);
      setP(armature(t), 'Lcl Rotation', 'Lcl Rotation', -90, 0, 0);
    },
  },
  {
    name: 'Maya: joint orients, post-rotations, all six rotation orders',
    edit: (t) =>
      bones(t).forEach((b, i) => {
        setP(b, 'RotationActive', 'bool', 1);
        setP(b, 'RotationOrder', 'enum', i % 6);
        setP(b, 'PreRotation', 'Vector3D', 10 + 7 * i, -25 + 3 * i, 40 - 11 * i);
        if (i % 3 === 1) setP(b, 'PostRotation', 'Vector3D', -15, 5 * i, 30);
      }),
  },
  { name: 'UnitScaleFactor 100 (metres)', edit: (t) => setUnit(t, 100) },
  { name: 'UnitScaleFactor 2.54 (inches)', edit: (t) => setUnit(t, 2.54) },
  {
    name: 'the armature node moved, turned and scaled',
    edit: (t) => {
      setP(armature(t), 'Lcl Translation', 'Lcl Translation', 30, -12, 7);
      setP(armature(t), 'Lcl Rotation', 'Lcl Rotation', 20, 35, -50);
      setP(armature(t), 'Lcl Scaling', 'Lcl Scaling', 2.5, 2.5, 2.5);
    },
  },
  {
    name: 'hand keys: three linear rotation keys 10 frames apart turning up to 120 degrees on every axis, every frame',
    edit: (t) => handKeys(t, false),
  },
  {
    name: 'hand keys as cubic user tangents with slopes (Maya): each Euler angle along its Hermite at every frame',
    edit: (t) => handKeys(t, true),
  },
  {
    name: 'pre- and post-rotations with RotationActive 0 are not applied (FBX counts them only when it is 1)',
    edit: (t) =>
      bones(t).forEach((b, i) => {
        setP(b, 'RotationActive', 'bool', i % 2);
        setP(b, 'PreRotation', 'Vector3D', 10 + 7 * i, -25 + 3 * i, 40 - 11 * i);
        setP(b, 'PostRotation', 'Vector3D', -15, 5 * i, 30);
      }),
  },
  {
    name: '3ds Max: a rotation pivot on an animated bone turns it about the pivot (the loader alone turns it about its origin)',
    // Bone.005, the bone that turns most (38 degrees).
    edit: (t) => setP(bones(t)[5], 'RotationPivot', 'Vector3D', 50, -30, 20),
  },
  {
    name: '3ds Max: a scaling offset on an animated bone',
    edit: (t) => setP(bones(t)[5], 'ScalingOffset', 'Vector3D', 0, 0.25, 0),
  },
  {
    name: 'Maya "Preserve pivots": all four pivots and offsets on every bone and the animated armature, a pre-rotation and a scale',
    edit: (t) =>
      [armature(t), ...bones(t)].forEach((b, i) => {
        setP(b, 'RotationPivot', 'Vector3D', 0.1 * i, -0.2, 0.05 * i);
        setP(b, 'RotationOffset', 'Vector3D', 0.3, 0.02 * i, -0.1);
        setP(b, 'ScalingPivot', 'Vector3D', -0.05 * i, 0.1, 0.2);
        setP(b, 'ScalingOffset', 'Vector3D', 0.04, -0.03 * i, 0.1);
        setP(b, 'RotationActive', 'bool', 1);
        setP(b, 'PreRotation', 'Vector3D', 5 * i, -10, 15);
        if (i === 0) setP(b, 'Lcl Scaling', 'Lcl Scaling', 1.5, 1.5, 1.5);
      }),
  },
  {
    name: 'pivots and offsets on the armature node, made still, are read',
    edit: (t) => {
      const id = armature(t).props[0];
      const c = top(t, 'Connections');
      c.children = c.children.filter((x) => !(x.props[0] === 'OP' && x.props[2] === id));
      setP(armature(t), 'RotationPivot', 'Vector3D', 3, -2, 1);
      setP(armature(t), 'RotationOffset', 'Vector3D', 0.5, 0.5, -1);
      setP(armature(t), 'ScalingPivot', 'Vector3D', 1, 2, 3);
      setP(armature(t), 'ScalingOffset', 'Vector3D', -2, 0, 4);
    },
  },
  {
    name: 'a take starting at frame 1000',
    edit: (t) => {
      const shift = BigInt(Math.round(1000 * (TICKS / FILE_FPS)));
      for (const o of top(t, 'Objects').children) {
        if (o.name === 'AnimationCurve') {
          const times = child(o, 'KeyTime')!.props[0] as BigInt64Array;
          child(o, 'KeyTime')!.props[0] = times.map((x) => x + shift);
        }
        if (o.name === 'AnimationStack')
          for (const p of child(o, 'Properties70')?.children ?? [])
            if (typeof p.props[4] === 'bigint') p.props[4] += shift;
      }
    },
  },
];

describe.skipIf(!present)(
  'FBX as other exporters write it: import reproduces the file, compression keeps the guarantee',
  () => {
    for (const v of variants)
      it(v.name, async () => {
        const tree = readBinaryFbx(new Uint8Array(readFileSync(v.file ? `${dirname(FILE)}/${v.file}` : FILE)));
        const FPS = v.fps ?? FILE_FPS;
        v.edit?.(tree);
        const bytes = (v.write ?? ((t) => writeFbxBinary(t)))(tree);
        const ev = evaluator(v.write ? tree : readBinaryFbx(bytes));
        if (v.refused) {
          const e = await importFbx(bytes, { fps: FPS }).then(
            () => undefined,
            (err: unknown) => err,
          );
          expect(e).toBeInstanceOf(FormatError);
          expect((e as FormatError).message).toMatch(v.refused);
          return;
        }
        const { motion: m, warnings } = await importFbx(bytes, { fps: FPS });
        expect(warnings.filter((w) => w.code === 'keys-interpolated')).toEqual([]);
        const t0 = ev.keyTicks[0];
        expect(m.frameCount).toBe(Math.floor(((ev.keyTicks[ev.keyTicks.length - 1] - t0) / TICKS) * FPS + 1e-3));
        const shell = 10;
        let reach = 0;
        const want = [] as number[][][][];
        for (let f = 0; f <= m.frameCount; f++) {
          const ticks = t0 + (f * TICKS) / FPS;
          want.push(
            m.joints.map((jt) => {
              const w = ev.world(jt.name, ticks);
              const p = [w[3], w[7], w[11]].map((x) => x * ev.unit);
              for (const x of p) reach = Math.max(reach, Math.abs(x));
              return [
                p,
                ...[0, 1, 2].map((c) => {
                  const col = [w[c], w[4 + c], w[8 + c]];
                  const l = Math.hypot(...col);
                  return col.map((x, k) => p[k] + (shell * x) / l);
                }),
              ];
            }),
          );
        }
        for (let f = 0; f <= m.frameCount; f++) {
          const mismatch = pointMismatch(m, f, want[f], motionPoints(m, f, shell), 1e-5 * Math.max(1, reach));
          if (mismatch) expect.fail(mismatch);
        }
        for (const [method, tol] of [
          ['refined', 0.5],
          ['classic', 0.005],
        ] as const) {
          const r = compressMotion(m, {
            name: 'fbx_variant',
            method,
            positionTolerance: tol,
            offsetTolerance: tol,
            rotationToleranceDeg: tol === 0.005 ? 0.05 : 0.5,
          });
          expect(guaranteeViolations(m, r), `${method} at ${tol}`).toEqual([]);
        }
      });
  },
);
