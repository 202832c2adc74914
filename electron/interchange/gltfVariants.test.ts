/**
 * The bundled CMU capture (assets/cmu_01_01.mtn) written as glTF the way other exporters write it, then imported
 * and compressed (docs/interchange.md#tests-what-they-compare):
 * - Blender's glTF exporter: an "Armature" node above the root joint with a rotation and a 0.01 scale (a Mixamo
 *   FBX brought into Blender), bones whose own axes differ from the skeleton's (bone roll), inverse bind matrices,
 *   a skinned mesh beside the root joint, translation, rotation and (all ones) scale sampled on every frame; the
 *   armature itself animated (object-level root motion);
 * - three.js's GLTFExporter: a .gltf with a base64 data URI buffer, rest poses as node matrices, one key-time
 *   accessor per channel;
 * - sparse accessors (on a base of the first key, and with no bufferView at all), STEP and CUBICSPLINE samplers,
 *   channels over different time ranges (none starting at 0), a skin whose joints are listed children first with
 *   no skeleton root, rotations stored as normalized 16- and 8-bit integers (KHR_mesh_quantization files), and
 *   camera and mesh nodes between joints.
 * Each imports to the world position and axes of every joint as this test evaluates the file itself (accessors,
 * samplers and node matrices written from the glTF 2.0 specification, sharing nothing with three.js or the
 * importer) within 1e-5 of the skeleton's reach, at every motion frame; then compresses at the default tolerances
 * and at the floor, keeping the guarantee by an independent decode of the bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { writeGlb, type GltfJson } from '../../shared/interchange/gltf/glb';
import { importGltf } from '../../shared/interchange/gltf/import';
import { readMtn } from '../../shared/mtn/read';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { motionPoints, pointMismatch } from '../../shared/testing/independentFk';
import { seededRandom } from '../../shared/testing/random';

type Vec = number[];
type Mat4 = number[]; // column-major, as glTF stores matrices

// ---- quaternion and matrix arithmetic (x, y, z, w) ----
const qMul = (a: Vec, b: Vec): Vec => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const qConj = (q: Vec): Vec => [-q[0], -q[1], -q[2], q[3]];
const qNorm = (q: Vec): Vec => {
  const l = Math.hypot(...q);
  return q.map((x) => x / l);
};
const qRot = (q: Vec, v: Vec): Vec => qMul(qMul(q, [...v, 0]), qConj(q)).slice(0, 3);
const qAxis = (axis: Vec, rad: number): Vec => [...axis.map((x) => x * Math.sin(rad / 2)), Math.cos(rad / 2)];

function trs(t: Vec, q: Vec, s: Vec): Mat4 {
  const [x, y, z, w] = q;
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ]; // r[c] is column c
  return [...r[0].map((v) => v * s[0]), 0, ...r[1].map((v) => v * s[1]), 0, ...r[2].map((v) => v * s[2]), 0, ...t, 1];
}
function mul(a: Mat4, b: Mat4): Mat4 {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return o;
}
/** Inverse of a rotation, uniform scale and translation. */
function rigidInverse(m: Mat4): Mat4 {
  const s2 = m[0] ** 2 + m[1] ** 2 + m[2] ** 2;
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) o[c * 4 + r] = m[r * 4 + c] / s2;
  for (let r = 0; r < 3; r++) o[12 + r] = -(o[r] * m[12] + o[4 + r] * m[13] + o[8 + r] * m[14]);
  o[15] = 1;
  return o;
}

// ---- the source: the bundled capture as per-joint local translation and rotation ----
interface Source {
  names: string[];
  parents: number[];
  /** [f][j] local translation and rotation of joint j at frame f. */
  t: Vec[][];
  r: Vec[][];
}
function bundled(frames: number): Source {
  const m = readMtn(new Uint8Array(readFileSync(new URL('../../assets/cmu_01_01.mtn', import.meta.url))));
  const J = m.joints.length;
  const t: Vec[][] = [],
    r: Vec[][] = [];
  for (let f = 0; f < frames; f++) {
    t.push(
      m.joints.map((_, j) =>
        Array.from(j === 0 ? m.translation.subarray(f * 4, f * 4 + 3) : m.offset.subarray(j * 4, j * 4 + 3)),
      ),
    );
    r.push(m.joints.map((_, j) => Array.from(m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4))));
  }
  return { names: m.joints.map((j) => j.name), parents: m.joints.map((j) => j.parent), t, r };
}

// ---- writing a file ----
interface NodeSpec {
  name?: string;
  children?: number[];
  translation?: Vec;
  rotation?: Vec;
  scale?: Vec;
  matrix?: Mat4;
  mesh?: number;
  camera?: number;
  skin?: number;
}
type Encoding = 'float' | 'int16' | 'int8' | 'sparse' | 'sparse-no-view';
interface ChannelSpec {
  node: number;
  path: 'translation' | 'rotation' | 'scale';
  times: number[];
  /** One value per key (three CUBICSPLINE values per key: in-tangent, value, out-tangent). */
  values: Vec[];
  interpolation?: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  encoding?: Encoding;
}
interface FileSpec {
  nodes: NodeSpec[];
  sceneNodes: number[];
  joints: number[];
  skeleton?: number;
  channels: ChannelSpec[];
  animationName: string;
  extensionsUsed?: string[];
  /** Share one key-time accessor between channels with equal times (Blender), or one each (three.js). */
  shareInputs?: boolean;
}

class BinWriter {
  bytes: number[] = [];
  views: { buffer: number; byteOffset: number; byteLength: number }[] = [];
  accessors: Record<string, unknown>[] = [];
  private view(data: ArrayBufferView): number {
    while (this.bytes.length % 4) this.bytes.push(0);
    const u8 = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.views.push({ buffer: 0, byteOffset: this.bytes.length, byteLength: u8.length });
    for (const b of u8) this.bytes.push(b);
    return this.views.length - 1;
  }
  accessor(values: Vec[], type: string, encoding: Encoding = 'float', extra: Record<string, unknown> = {}): number {
    const n = values[0].length;
    const flat = values.flat();
    const a: Record<string, unknown> = { count: values.length, type, ...extra };
    if (encoding === 'int16' || encoding === 'int8') {
      const [Arr, max, ct] = encoding === 'int16' ? [Int16Array, 32767, 5122] : [Int8Array, 127, 5120];
      // Each element padded to 4 bytes, as the specification asks of vertex data and three reads with a stride.
      const data = new Arr(flat.map((x) => Math.round(x * max)));
      Object.assign(a, { bufferView: this.view(data), componentType: ct, normalized: true });
    } else if (encoding === 'sparse' || encoding === 'sparse-no-view') {
      const base = encoding === 'sparse' ? values[0] : new Array<number>(n).fill(0);
      const changed = values.map((v, i) => (v.some((x, k) => Math.fround(x) !== Math.fround(base[k])) ? i : -1));
      const indices = changed.filter((i) => i >= 0);
      Object.assign(a, { componentType: 5126 });
      if (encoding === 'sparse') a.bufferView = this.view(new Float32Array(values.map(() => base).flat()));
      if (indices.length)
        a.sparse = {
          count: indices.length,
          indices: { bufferView: this.view(new Uint16Array(indices)), componentType: 5123 },
          values: { bufferView: this.view(new Float32Array(indices.flatMap((i) => values[i]))) },
        };
      else if (encoding === 'sparse-no-view') a.bufferView = this.view(new Float32Array(flat));
    } else Object.assign(a, { bufferView: this.view(new Float32Array(flat)), componentType: 5126 });
    this.accessors.push(a);
    return this.accessors.length - 1;
  }
}

/** The file's JSON and its one buffer. */
function writeFile(spec: FileSpec, ibm: Mat4[]): { json: GltfJson; bin: Uint8Array } {
  const w = new BinWriter();
  const ibmAccessor = w.accessor(ibm, 'MAT4');
  const inputs = new Map<string, number>();
  const samplers: Record<string, unknown>[] = [];
  const channels = spec.channels.map((c) => {
    const key = c.times.join();
    let input = spec.shareInputs ? inputs.get(key) : undefined;
    if (input === undefined) {
      const lo = Math.fround(Math.min(...c.times)),
        hi = Math.fround(Math.max(...c.times));
      input = w.accessor(
        c.times.map((x) => [x]),
        'SCALAR',
        'float',
        { min: [lo], max: [hi] },
      );
      inputs.set(key, input);
    }
    const output = w.accessor(c.values, c.path === 'rotation' ? 'VEC4' : 'VEC3', c.encoding);
    samplers.push({ input, output, interpolation: c.interpolation ?? 'LINEAR' });
    return { sampler: samplers.length - 1, target: { node: c.node, path: c.path } };
  });
  // A one-triangle mesh for the skinned "Body" and for mesh nodes between joints.
  const position = w.accessor(
    [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
    ],
    'VEC3',
    'float',
    { min: [0, 0, 0], max: [1, 1, 0] },
  );
  const json: GltfJson = {
    asset: { version: '2.0', generator: 'gltfVariants.test' },
    scene: 0,
    scenes: [{ nodes: spec.sceneNodes }],
    nodes: spec.nodes as GltfJson['nodes'],
    meshes: [{ primitives: [{ attributes: { POSITION: position } }] }],
    cameras: [{ type: 'perspective', perspective: { yfov: 0.8, znear: 0.1 } }],
    skins: [
      {
        joints: spec.joints,
        inverseBindMatrices: ibmAccessor,
        ...(spec.skeleton !== undefined && { skeleton: spec.skeleton }),
      },
    ],
    animations: [{ name: spec.animationName, samplers, channels }],
    accessors: w.accessors,
    bufferViews: w.views,
    buffers: [{ byteLength: w.bytes.length }],
  } as GltfJson;
  if (spec.extensionsUsed) json.extensionsUsed = spec.extensionsUsed;
  return { json, bin: new Uint8Array(w.bytes) };
}

// ---- evaluating a file, from the glTF 2.0 specification ----
const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const READERS: Record<number, [number, (d: DataView, o: number) => number, number]> = {
  5120: [1, (d, o) => d.getInt8(o), 127],
  5121: [1, (d, o) => d.getUint8(o), 255],
  5122: [2, (d, o) => d.getInt16(o, true), 32767],
  5123: [2, (d, o) => d.getUint16(o, true), 65535],
  5125: [4, (d, o) => d.getUint32(o, true), 0],
  5126: [4, (d, o) => d.getFloat32(o, true), 0],
};
const accessorCache = new WeakMap<GltfJson, Map<number, Vec[]>>();
/** An accessor's elements (byteStride, sparse substitution, normalized integers as the specification decodes them). */
function readAccessor(json: GltfJson, bin: Uint8Array, index: number): Vec[] {
  let cache = accessorCache.get(json);
  if (!cache) accessorCache.set(json, (cache = new Map()));
  let elements = cache.get(index);
  if (!elements) cache.set(index, (elements = decodeAccessor(json, bin, index)));
  return elements;
}
function decodeAccessor(json: GltfJson, bin: Uint8Array, index: number): Vec[] {
  const a = json.accessors![index] as Record<string, unknown> & { count: number; type: string; componentType: number };
  const n = COMPONENTS[a.type];
  const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const max = READERS[a.componentType][2];
  const element = (viewIndex: number, offset: number, i: number, k: number) => {
    const view = json.bufferViews![viewIndex];
    const [sz, g] = READERS[a.componentType];
    const stride = view.byteStride ?? sz * n;
    return g(dv, (view.byteOffset ?? 0) + offset + i * stride + k * sz);
  };
  const out: Vec[] = [];
  for (let i = 0; i < a.count; i++)
    out.push(
      Array.from({ length: n }, (_, k) =>
        a.bufferView === undefined ? 0 : element(a.bufferView as number, (a.byteOffset as number) ?? 0, i, k),
      ),
    );
  const sparse = a.sparse as
    | {
        count: number;
        indices: { bufferView: number; byteOffset?: number; componentType: number };
        values: { bufferView: number; byteOffset?: number };
      }
    | undefined;
  if (sparse)
    for (let s = 0; s < sparse.count; s++) {
      const iv = json.bufferViews![sparse.indices.bufferView];
      const [isz, iget] = READERS[sparse.indices.componentType];
      const i = iget(dv, (iv.byteOffset ?? 0) + (sparse.indices.byteOffset ?? 0) + s * isz);
      out[i] = Array.from({ length: n }, (_, k) =>
        element(sparse.values.bufferView, sparse.values.byteOffset ?? 0, s, k),
      );
    }
  if (a.normalized) return out.map((e) => e.map((c) => Math.max(c / max, -1)));
  return out;
}

/** A sampler's value at time t (the specification's LINEAR with slerp for rotations, STEP, CUBICSPLINE). */
function sampleAt(
  json: GltfJson,
  bin: Uint8Array,
  sampler: { input: number; output: number; interpolation?: string },
  rotation: boolean,
  t: number,
  fps: number,
): Vec {
  const times = readAccessor(json, bin, sampler.input).map((e) => e[0]);
  const out = readAccessor(json, bin, sampler.output);
  const cubic = sampler.interpolation === 'CUBICSPLINE';
  const value = (k: number) => (cubic ? out[3 * k + 1] : out[k]);
  const finish = (v: Vec) => (rotation ? qNorm(v) : v);
  // A motion frame within 1/1000 frame of a key takes that key (float32 key times; docs/interchange.md#conventions).
  for (const k of times.keys()) if (Math.abs(times[k] - t) * fps < 1e-3) t = times[k];
  if (t <= times[0]) return finish(value(0));
  const last = times.length - 1;
  if (t >= times[last]) return finish(value(last));
  let k = 0;
  while (times[k + 1] <= t) k++;
  if (sampler.interpolation === 'STEP') return finish(value(k));
  const td = times[k + 1] - times[k];
  const u = (t - times[k]) / td;
  if (cubic) {
    const [u2, u3] = [u * u, u * u * u];
    const v0 = out[3 * k + 1],
      b0 = out[3 * k + 2],
      a1 = out[3 * k + 3],
      v1 = out[3 * k + 4];
    return finish(
      v0.map(
        (_, c) =>
          (2 * u3 - 3 * u2 + 1) * v0[c] +
          td * (u3 - 2 * u2 + u) * b0[c] +
          (-2 * u3 + 3 * u2) * v1[c] +
          td * (u3 - u2) * a1[c],
      ),
    );
  }
  const a = value(k),
    b = value(k + 1);
  if (!rotation) return a.map((x, c) => x + (b[c] - x) * u);
  const d = a.reduce((s, x, c) => s + x * b[c], 0);
  const sign = d < 0 ? -1 : 1;
  const angle = Math.acos(Math.min(1, Math.abs(d)));
  if (angle < 1e-9) return qNorm(a.map((x, c) => x + (sign * b[c] - x) * u));
  const [sa, sb] = [Math.sin((1 - u) * angle) / Math.sin(angle), (sign * Math.sin(u * angle)) / Math.sin(angle)];
  return qNorm(a.map((x, c) => sa * x + sb * b[c]));
}

/** World matrices of every node at time t. */
function worldMatrices(json: GltfJson, bin: Uint8Array, t: number, fps: number): Mat4[] {
  const nodes = json.nodes!;
  const anim = json.animations![0];
  const animated = nodes.map(() => ({}) as Partial<Record<'translation' | 'rotation' | 'scale', Vec>>);
  for (const ch of anim.channels) {
    const path = ch.target.path as 'translation' | 'rotation' | 'scale';
    animated[ch.target.node!][path] = sampleAt(json, bin, anim.samplers[ch.sampler], path === 'rotation', t, fps);
  }
  const parentOf = new Map<number, number>();
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => parentOf.set(c, i)));
  const world: Mat4[] = [];
  const get = (i: number): Mat4 => {
    if (world[i]) return world[i];
    const n = nodes[i];
    const a = animated[i];
    const local =
      n.matrix && !a.translation && !a.rotation && !a.scale
        ? n.matrix
        : trs(
            a.translation ?? n.translation ?? [0, 0, 0],
            a.rotation ?? n.rotation ?? [0, 0, 0, 1],
            a.scale ?? n.scale ?? [1, 1, 1],
          );
    const p = parentOf.get(i);
    return (world[i] = p === undefined ? local : mul(get(p), local));
  };
  nodes.forEach((_, i) => get(i));
  return world;
}

// ---- the variants ----
interface Variant {
  name: string;
  bytes: Uint8Array;
  json: GltfJson;
  bin: Uint8Array;
  scale?: number;
  warnings?: string[];
  /** Warning codes the file must not give (a Blender file's all-ones scale tracks lose nothing). */
  noWarnings?: string[];
}

const FPS = 30;
const keyTime = (f: number) => Math.fround(f / FPS);

/**
 * The capture as glTF nodes: joint j is node `first + j`; each bone has its own axes (rest rotation B_j, so node
 * rotation = B_parent^-1 R_j B_j, translation B_parent^-1 offset_j), as Blender's bones with their roll do.
 */
function jointNodes(src: Source, first: number, roll: boolean): { nodes: NodeSpec[]; t: Vec[][]; r: Vec[][] } {
  const rand = seededRandom(7);
  const B = src.names.map(() =>
    roll ? qNorm([rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5]) : [0, 0, 0, 1],
  );
  const t = src.t.map((fr) => fr.map((v, j) => (src.parents[j] < 0 ? v : qRot(qConj(B[src.parents[j]]), v))));
  const r = src.r.map((fr) => fr.map((q, j) => qMul(src.parents[j] < 0 ? q : qMul(qConj(B[src.parents[j]]), q), B[j])));
  const nodes: NodeSpec[] = src.names.map((name, j) => ({
    name,
    children: src.parents.flatMap((p, c) => (p === j ? [first + c] : [])),
    translation: t[0][j],
    rotation: r[0][j],
  }));
  return { nodes, t, r };
}

/** Inverse bind matrices: the inverse of each joint's rest world matrix (rest = the node's own TRS). */
function bindMatrices(nodes: NodeSpec[], joints: number[]): Mat4[] {
  const json = { nodes, animations: [{ channels: [], samplers: [] }] } as unknown as GltfJson;
  const world = worldMatrices(json, new Uint8Array(0), 0, FPS);
  return joints.map((n) => rigidInverse(world[n]));
}

function finish(name: string, spec: FileSpec, extra: Partial<Variant> = {}, asGltf = false): Variant {
  const { json, bin } = writeFile(spec, bindMatrices(spec.nodes, spec.joints));
  let bytes: Uint8Array;
  if (asGltf) {
    const text = JSON.stringify({
      ...json,
      buffers: [
        { byteLength: bin.length, uri: `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}` },
      ],
    });
    bytes = new TextEncoder().encode(text);
  } else bytes = writeGlb(json, bin);
  return { name, bytes, json, bin, ...extra };
}

function variants(): Variant[] {
  const src = bundled(48);
  const F = src.t.length;
  const J = src.names.length;
  const frames = Array.from({ length: F }, (_, f) => f);
  const out: Variant[] = [];
  const sampled = (
    node: (j: number) => number,
    t: Vec[][],
    r: Vec[][],
    j: number,
    opts: Partial<ChannelSpec> = {},
  ): ChannelSpec[] => [
    { node: node(j), path: 'translation', times: frames.map(keyTime), values: t.map((fr) => fr[j]), ...opts },
    { node: node(j), path: 'rotation', times: frames.map(keyTime), values: r.map((fr) => fr[j]), ...opts },
  ];

  // Blender: Armature (rotated a quarter turn about X, 0.01 scale) > [Body mesh, root joint]; bones with roll;
  // every bone's translation, rotation and scale sampled at every frame, one key-time accessor for all.
  const blender = (animateArmature: boolean): FileSpec => {
    const { nodes: jn, t, r } = jointNodes(src, 2, true);
    const armature: NodeSpec = {
      name: 'Armature',
      children: [1, 2],
      translation: [0.3, 0, -0.2],
      rotation: qAxis([1, 0, 0], Math.PI / 2),
      scale: [0.01, 0.01, 0.01],
    };
    const channels = jn.flatMap((_, j) => [
      ...sampled((k) => 2 + k, t, r, j),
      { node: 2 + j, path: 'scale' as const, times: frames.map(keyTime), values: frames.map(() => [1, 1, 1]) },
    ]);
    if (animateArmature)
      channels.push(
        {
          node: 0,
          path: 'translation',
          times: frames.map(keyTime),
          values: frames.map((f) => [0.3 + 0.02 * f, 0, -0.2]),
        },
        {
          node: 0,
          path: 'rotation',
          times: frames.map(keyTime),
          values: frames.map((f) => qMul(qAxis([0, 1, 0], 0.03 * f), armature.rotation!)),
        },
      );
    const nodes = [armature, { name: 'Body', mesh: 0, skin: 0 }, ...jn];
    // With its motion, the armature sits under a static scene node of another tool's (a Sketchfab model's root).
    if (animateArmature)
      nodes.push({ name: 'Sketchfab_model', children: [0], translation: [1, 0, 0], rotation: qAxis([0, 0, 1], 0.3) });
    return {
      nodes,
      sceneNodes: [animateArmature ? nodes.length - 1 : 0],
      joints: jn.map((_, j) => 2 + j),
      skeleton: 2,
      channels,
      animationName: 'Armature|mixamo.com|Layer0',
      shareInputs: true,
    };
  };
  out.push(
    finish('blender-armature-roll-ibm', blender(false), {
      scale: 100,
      noWarnings: ['scale-unsupported', 'unanimated'],
    }),
  );
  out.push(finish('blender-animated-armature', blender(true), { scale: 100 }));

  // three.js GLTFExporter: .gltf with a data URI, rest poses as matrices, one key-time accessor per channel.
  {
    const { nodes, t, r } = jointNodes(src, 0, false);
    const asMatrix = nodes.map((n) => ({
      name: n.name,
      children: n.children,
      matrix: trs(n.translation!, n.rotation!, [1, 1, 1]),
    }));
    out.push(
      finish(
        'threejs-exporter-gltf',
        {
          nodes: asMatrix,
          sceneNodes: [0],
          joints: nodes.map((_, j) => j),
          skeleton: 0,
          // Bones the clip leaves alone (fingers, thumbs) get no track: they hold their rest matrix.
          channels: nodes.flatMap((n, j) => (/Finger|Thumb/.test(n.name!) ? [] : sampled((k) => k, t, r, j))),
          animationName: 'Take 001',
        },
        {},
        true,
      ),
    );
  }
  // Sparse accessors: rotations on a base of their first key, translations with no bufferView (zeros) below. Names
  // as Mixamo and Blender write them ("mixamorig:Hips", "Spine.L"): three.js drops ':' and '.' from the names its
  // tracks use, so "Spine.1" and "Spine1" meet there.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    nodes.forEach((n, j) => {
      if (n.name === 'Spine') n.name = 'Spine.1';
      else if (n.name !== 'Spine1') n.name = j % 3 === 0 ? `mixamorig:${n.name}` : j % 3 === 1 ? `${n.name}.L` : n.name;
    });
    const channels = nodes.flatMap((_, j) => [
      {
        node: j,
        path: 'translation' as const,
        times: frames.map(keyTime),
        values: t.map((fr) => fr[j]),
        encoding: 'sparse-no-view' as const,
      },
      {
        node: j,
        path: 'rotation' as const,
        times: frames.map(keyTime),
        values: r.map((fr) => fr[j]),
        encoding: 'sparse' as const,
      },
    ]);
    out.push(
      finish('sparse-accessors', {
        nodes,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'sparse',
      }),
    );
  }
  // STEP: keys on every other frame, held in between.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const even = frames.filter((f) => f % 2 === 0);
    const channels = nodes.flatMap((_, j) => [
      {
        node: j,
        path: 'translation' as const,
        times: even.map(keyTime),
        values: even.map((f) => t[f][j]),
        interpolation: 'STEP' as const,
      },
      {
        node: j,
        path: 'rotation' as const,
        times: even.map(keyTime),
        values: even.map((f) => r[f][j]),
        interpolation: 'STEP' as const,
      },
    ]);
    out.push(
      finish('step-every-other-frame', {
        nodes,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'step',
      }),
    );
  }
  // CUBICSPLINE: keys on every third frame with Catmull-Rom tangents (units per second), Hermite in between.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const keys = frames.filter((f) => f % 3 === 0);
    const cubic = (vals: Vec[]): Vec[] =>
      keys.flatMap((f, i) => {
        const prev = vals[keys[Math.max(0, i - 1)]],
          next = vals[keys[Math.min(keys.length - 1, i + 1)]];
        const span = (keys[Math.min(keys.length - 1, i + 1)] - keys[Math.max(0, i - 1)]) / FPS;
        const tangent = vals[f].map((_, c) => (next[c] - prev[c]) / span);
        return [tangent, vals[f], tangent];
      });
    // Rotations made sign-continuous first, as exporters do, so tangents follow the shorter way.
    const cont = (vals: Vec[]) => {
      const o = [vals[0]];
      for (let i = 1; i < vals.length; i++) {
        const d = vals[i].reduce((s, x, c) => s + x * o[i - 1][c], 0);
        o.push(d < 0 ? vals[i].map((x) => -x) : vals[i]);
      }
      return o;
    };
    const channels = nodes.flatMap((_, j) => [
      {
        node: j,
        path: 'translation' as const,
        times: keys.map(keyTime),
        values: cubic(t.map((fr) => fr[j])),
        interpolation: 'CUBICSPLINE' as const,
      },
      {
        node: j,
        path: 'rotation' as const,
        times: keys.map(keyTime),
        values: cubic(cont(r.map((fr) => fr[j]))),
        interpolation: 'CUBICSPLINE' as const,
      },
    ]);
    out.push(
      finish('cubicspline-every-third-frame', {
        nodes,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'cubic',
      }),
    );
  }
  // Channels over different time ranges, none from 0: the clip starts at its first key (frame 5).
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const range = (a: number, b: number) => frames.filter((f) => f >= a && f <= b);
    const channels = nodes.flatMap((_, j) => {
      const [tr, rr] =
        j === 0
          ? [range(5, 40), range(5, 47)]
          : [range(10 + (j % 5), 30 + (j % 7)), range(5 + 3 * (j % 4), 47 - (j % 6))];
      return [
        { node: j, path: 'translation' as const, times: tr.map(keyTime), values: tr.map((f) => t[f][j]) },
        { node: j, path: 'rotation' as const, times: rr.map(keyTime), values: rr.map((f) => r[f][j]) },
      ];
    });
    out.push(
      finish('channels-different-ranges', {
        nodes,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'ranges',
      }),
    );
  }
  // A skin listing its joints children first, no skeleton root, nodes stored leaves first.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const at = (j: number) => J - 1 - j; // joint j is node J-1-j
    const reversed = nodes.map((_, i) => {
      const n = nodes[J - 1 - i];
      return { ...n, children: n.children!.map(at) };
    });
    const channels = nodes.flatMap((_, j) => sampled(at, t, r, j));
    out.push(
      finish('skin-unordered-no-skeleton', {
        nodes: reversed,
        sceneNodes: [at(0)],
        joints: nodes.map((_, i) => i), // node i is joint J-1-i: the leaves come first
        channels,
        animationName: 'unordered',
      }),
    );
  }
  // A skin whose top bones are the hips' children (the hips a plain node, as a rig without a deform root is
  // exported): their common parent becomes the root joint, with a warning.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const channels = nodes.flatMap((_, j) => sampled((k) => k, t, r, j));
    const joints = nodes.flatMap((_, j) => (j === 0 ? [] : [j]));
    out.push(
      finish(
        'skin-without-the-hips',
        { nodes, sceneNodes: [0], joints, channels, animationName: 'toproots' },
        { warnings: ['root-added'] },
      ),
    );
  }
  // Rotations as normalized 16-bit integers, and 8-bit on every third joint, keyed on every other frame (so frames
  // between keys interpolate the decoded unit quaternions).
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const even = frames.filter((f) => f % 2 === 0);
    const channels = nodes.flatMap((_, j) => [
      { node: j, path: 'translation' as const, times: frames.map(keyTime), values: t.map((fr) => fr[j]) },
      {
        node: j,
        path: 'rotation' as const,
        times: even.map(keyTime),
        values: even.map((f) => r[f][j]),
        encoding: (j % 3 ? 'int16' : 'int8') as Encoding,
      },
    ]);
    out.push(
      finish('quantized-rotations', {
        nodes,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'quantized',
        extensionsUsed: ['KHR_mesh_quantization'],
      }),
    );
  }
  // A camera node and a mesh node between joints (static, rotated and moved), a camera as a leaf of a joint.
  {
    const { nodes, t, r } = jointNodes(src, 0, true);
    const spine = src.names.indexOf('Spine'),
      arm = src.names.indexOf('LeftForeArm'),
      head = src.names.indexOf('Head');
    const all: NodeSpec[] = [...nodes];
    const insert = (child: number, extra: NodeSpec) => {
      const p = src.parents[child];
      all.push({ ...extra, children: [child], translation: [0.5, -0.25, 1], rotation: qAxis([0, 0, 1], 0.4) });
      all[p] = { ...all[p], children: all[p].children!.map((c) => (c === child ? all.length - 1 : c)) };
    };
    insert(spine, { name: 'SpineCamera', camera: 0 });
    insert(arm, { name: 'ArmGuard', mesh: 0 });
    all.push({ name: 'HeadCam', camera: 0, translation: [0, 5, 0] });
    all[head] = { ...all[head], children: [...all[head].children!, all.length - 1] };
    const channels = nodes.flatMap((_, j) => sampled((k) => k, t, r, j));
    // The mesh node between the arm's joints turns during the clip.
    const guard = all.findIndex((n) => n.name === 'ArmGuard');
    channels.push({
      node: guard,
      path: 'rotation',
      times: frames.map(keyTime),
      values: frames.map((f) => qAxis([0, 0, 1], 0.4 + 0.02 * f)),
    });
    out.push(
      finish('camera-and-mesh-between-joints', {
        nodes: all,
        sceneNodes: [0],
        joints: nodes.map((_, j) => j),
        channels,
        animationName: 'between',
      }),
    );
  }
  return out;
}

describe('glTF as other exporters write it: import reproduces the file, compression keeps the guarantee', () => {
  it('gltfpack -c output (EXT_meshopt_compression required) is refused at its place, not read as placeholder bytes', async () => {
    for (const ext of ['EXT_meshopt_compression', 'KHR_meshopt_compression']) {
      const { json, bin } = variants()[0];
      const packed = writeGlb({ ...json, extensionsUsed: [ext], extensionsRequired: [ext] }, bin);
      await expect(importGltf(packed)).rejects.toThrow(
        new RegExp(`extensionsRequired\\[0\\].*compressed with ${ext}, which ActGuy does not read`),
      );
    }
  });
  for (const v of variants())
    it(v.name, async () => {
      const scale = v.scale ?? 1;
      const { motion: m, warnings } = await importGltf(v.bytes, { fps: FPS, scale });
      // Every channel's first key, as the importer starts the clip there.
      const anim = v.json.animations![0];
      const firsts = anim.samplers.map((s) => readAccessor(v.json, v.bin, s.input)[0][0]);
      const lasts = anim.samplers.map((s) => readAccessor(v.json, v.bin, s.input).at(-1)![0]);
      const t0 = Math.min(...firsts);
      expect(m.frameCount).toBe(Math.round((Math.max(...lasts) - t0) * FPS));
      const jointNode = new Map(v.json.nodes!.map((n, i) => [n.name, i]));
      const shell = 10;
      let reach = 0;
      const want: number[][][][] = [];
      for (let f = 0; f <= m.frameCount; f++) {
        const world = worldMatrices(v.json, v.bin, t0 + f / FPS, FPS);
        want.push(
          m.joints.map((jt) => {
            const w = world[jointNode.get(jt.name)!];
            const p = [w[12], w[13], w[14]].map((x) => x * scale);
            for (const x of p) reach = Math.max(reach, Math.abs(x));
            return [
              p,
              ...[0, 1, 2].map((c) => {
                const col = w.slice(c * 4, c * 4 + 3);
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
      for (const code of v.warnings ?? []) expect(warnings.map((w) => w.code)).toContain(code);
      for (const code of v.noWarnings ?? []) expect(warnings.map((w) => w.code)).not.toContain(code);
      for (const [method, tol] of [
        ['refined', 0.5],
        ['classic', 0.005],
      ] as const) {
        const r = compressMotion(m, {
          name: v.name.slice(0, 31),
          method,
          positionTolerance: tol,
          offsetTolerance: tol,
          rotationToleranceDeg: tol === 0.005 ? 0.05 : 0.5,
        });
        expect(guaranteeViolations(m, r), `${method} at ${tol}`).toEqual([]);
      }
    });
});
