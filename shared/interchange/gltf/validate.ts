/**
 * Checks the shape of the glTF JSON parts the importer reads or hands to
 * three.js (scenes, nodes, skins, animations, accessors, buffer views,
 * buffers) before either touches them. three's GLTFLoader trusts its input:
 * a number where an object belongs, an index past the end or a sampler whose
 * output count does not match its input give TypeErrors, out-of-bounds reads
 * or an endless loop in its interpolant. Everything here is checked the way
 * the glTF 2.0 schema says, and a failure is a FormatError naming the place
 * (`nodes[3].children[1]`).
 */
import { escapeControls, FormatError } from '../../errors';
import type { GltfJson } from './glb';

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const PATH_TYPES: Record<string, string> = { translation: 'VEC3', rotation: 'VEC4', scale: 'VEC3', weights: 'SCALAR' };
const INTERPOLATIONS = ['LINEAR', 'STEP', 'CUBICSPLINE'];
/** Elements an accessor without a buffer view (all zeros) may declare: far more than any clip needs. */
const MAX_ZERO_ACCESSOR_ELEMENTS = 1 << 22;
/**
 * Elements of all such accessors together, sparse ones included (the loader fills a new array for each): a 4 MB
 * file sharing one time accessor among 100 joints' zero rotations of 1M keys had `actguy import` allocate 2 GB.
 */
const MAX_MADE_ACCESSOR_ELEMENTS = 1 << 23;

type Obj = Record<string, unknown>;

/** Deepest node tree read (levels below a root node), as deep as BVH joints may nest (docs/limits.md). */
export const GLTF_MAX_NODE_DEPTH = 256;

function fail(where: string, detail: string): never {
  throw new FormatError('GLTF', detail, { where });
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : escapeControls(s.length > 40 ? `${s.slice(0, 40)}...` : s);
};

function array(json: Obj, key: string): unknown[] {
  const v = json[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(key, `${key} must be an array, found ${show(v)}`);
  return v;
}

function object(v: unknown, where: string): Obj {
  if (!isObj(v)) fail(where, `${where} must be an object, found ${show(v)}`);
  return v;
}

function index(v: unknown, where: string, count: number, what: string): number {
  if (!Number.isInteger(v) || (v as number) < 0)
    fail(where, `${where} must be an index (an integer >= 0), found ${show(v)}`);
  if ((v as number) >= count) fail(where, `${where} names ${what} ${v as number}, but the file has ${count}`);
  return v as number;
}

function optionalIndex(v: unknown, where: string, count: number, what: string): number | undefined {
  return v === undefined ? undefined : index(v, where, count, what);
}

function nonNegativeInteger(v: unknown, where: string, min = 0): number {
  if (!Number.isSafeInteger(v) || (v as number) < min)
    fail(where, `${where} must be an integer >= ${min}, found ${show(v)}`);
  return v as number;
}

function numbers(v: unknown, where: string, length: number): void {
  if (v === undefined) return;
  if (!Array.isArray(v) || v.length !== length || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    fail(where, `${where} must be an array of ${length} finite numbers, found ${show(v)}`);
}

function optionalString(v: unknown, where: string): void {
  if (v !== undefined && typeof v !== 'string') fail(where, `${where} must be a string, found ${show(v)}`);
}

/**
 * Validates the JSON tree (see the module comment) and returns it typed.
 * Also checks that the node graph is a forest (no node is its own ancestor,
 * no node has two parents) and that every animation sampler's input and
 * output accessors agree in count and type.
 */
export function validateGltfJson(json: GltfJson): GltfJson {
  const root = json as Obj;
  for (const key of ['extensionsUsed', 'extensionsRequired'])
    array(root, key).forEach((e, i) => {
      if (typeof e !== 'string') fail(`${key}[${i}]`, `${key}[${i}] must be a string, found ${show(e)}`);
    });
  // Data compressed by gltfpack -c: the bufferViews' own bytes are a placeholder, so reading them would be a wrong
  // answer (or an error about a buffer without data) rather than the file's animation.
  (root.extensionsRequired as string[] | undefined)?.forEach((e, i) => {
    if (e === 'EXT_meshopt_compression' || e === 'KHR_meshopt_compression')
      fail(
        `extensionsRequired[${i}]`,
        `the file's data is compressed with ${e}, which ActGuy does not read: export it again without compression (gltfpack without -c or -cc)`,
      );
  });

  const buffers = array(root, 'buffers').map((b, i) => {
    const w = `buffers[${i}]`;
    const o = object(b, w);
    nonNegativeInteger(o.byteLength, `${w}.byteLength`, 1);
    optionalString(o.uri, `${w}.uri`);
    return o as { byteLength: number };
  });
  const views = array(root, 'bufferViews').map((v, i) => {
    const w = `bufferViews[${i}]`;
    const o = object(v, w);
    const buffer = index(o.buffer, `${w}.buffer`, buffers.length, 'buffer');
    const byteOffset = o.byteOffset === undefined ? 0 : nonNegativeInteger(o.byteOffset, `${w}.byteOffset`);
    const byteLength = nonNegativeInteger(o.byteLength, `${w}.byteLength`, 1);
    if (o.byteStride !== undefined) {
      const s = nonNegativeInteger(o.byteStride, `${w}.byteStride`, 4);
      if (s > 252 || s % 4) fail(`${w}.byteStride`, `${w}.byteStride must be a multiple of 4 in 4..252, found ${s}`);
    }
    if (byteOffset + byteLength > buffers[buffer].byteLength)
      fail(
        w,
        `bufferView ${i} ends at byte ${byteOffset + byteLength}, past the end of buffer ${buffer} (${buffers[buffer].byteLength} bytes)`,
      );
    return { byteLength, byteStride: o.byteStride as number | undefined };
  });
  // Every accessor must be an object; the ones animations read (the only ones GLTFLoader loads once
  // meshes and skins are stripped) are checked in full where they are used, so a mesh accessor this
  // importer never reads (a Draco-compressed one, say) cannot make a motion fail to import.
  const accessorList = array(root, 'accessors');
  accessorList.forEach((a, i) => object(a, `accessors[${i}]`));
  const checked = new Map<number, { count: number; type: string; componentType: number }>();
  /** Elements of the accessors checked so far that the loader makes itself (no bufferView, or sparse). */
  let made = 0;
  const accessor = (i: number) => {
    const known = checked.get(i);
    if (known) return known;
    const w = `accessors[${i}]`;
    const o = accessorList[i] as Obj;
    const componentType = o.componentType as number;
    const componentBytes = COMPONENT_BYTES[componentType];
    if (!componentBytes)
      fail(
        `${w}.componentType`,
        `${w}.componentType must be one of 5120 5121 5122 5123 5125 5126, found ${show(o.componentType)}`,
      );
    const type = o.type as string;
    const components = typeof type === 'string' && Object.hasOwn(TYPE_COMPONENTS, type) ? TYPE_COMPONENTS[type] : 0;
    if (!components)
      fail(`${w}.type`, `${w}.type must be one of ${Object.keys(TYPE_COMPONENTS).join(' ')}, found ${show(o.type)}`);
    const count = nonNegativeInteger(o.count, `${w}.count`, 1);
    if (o.normalized !== undefined && typeof o.normalized !== 'boolean')
      fail(`${w}.normalized`, `${w}.normalized must be true or false, found ${show(o.normalized)}`);
    const elementBytes = componentBytes * components;
    const view = optionalIndex(o.bufferView, `${w}.bufferView`, views.length, 'bufferView');
    const byteOffset = o.byteOffset === undefined ? 0 : nonNegativeInteger(o.byteOffset, `${w}.byteOffset`);
    if (view === undefined) {
      if (o.byteOffset !== undefined) fail(`${w}.byteOffset`, `${w} has a byteOffset but no bufferView`);
      if (count * components > MAX_ZERO_ACCESSOR_ELEMENTS)
        fail(
          `${w}.count`,
          `${w} declares ${count} elements without data (at most ${MAX_ZERO_ACCESSOR_ELEMENTS / components} allowed)`,
        );
    } else {
      const stride = views[view].byteStride ?? elementBytes;
      if (byteOffset % componentBytes)
        fail(
          `${w}.byteOffset`,
          `${w}.byteOffset ${byteOffset} is not a multiple of its component size ${componentBytes}`,
        );
      const end = byteOffset + (count - 1) * stride + elementBytes;
      if (end > views[view].byteLength)
        fail(w, `${w} needs bytes up to ${end} of bufferView ${view}, which has ${views[view].byteLength}`);
    }
    if (view === undefined || o.sparse !== undefined) {
      made += count * components;
      if (made > MAX_MADE_ACCESSOR_ELEMENTS)
        fail(
          `${w}.count`,
          `${w} brings the elements of accessors without data of their own (no bufferView, or sparse) to ${made}, more than the ${MAX_MADE_ACCESSOR_ELEMENTS} a file may have the loader make`,
        );
    }
    if (o.sparse !== undefined) {
      const sw = `${w}.sparse`;
      const sp = object(o.sparse, sw);
      const sc = nonNegativeInteger(sp.count, `${sw}.count`, 1);
      if (sc > count) fail(`${sw}.count`, `${sw}.count ${sc} is more than the accessor's ${count} elements`);
      const ind = object(sp.indices, `${sw}.indices`);
      const indBytes = COMPONENT_BYTES[ind.componentType as number];
      if (![5121, 5123, 5125].includes(ind.componentType as number))
        fail(
          `${sw}.indices.componentType`,
          `${sw}.indices.componentType must be 5121, 5123 or 5125, found ${show(ind.componentType)}`,
        );
      const val = object(sp.values, `${sw}.values`);
      for (const [part, bytesEach] of [
        [ind, indBytes],
        [val, elementBytes],
      ] as const) {
        const pw = part === ind ? `${sw}.indices` : `${sw}.values`;
        const pv = index(part.bufferView, `${pw}.bufferView`, views.length, 'bufferView');
        const po = part.byteOffset === undefined ? 0 : nonNegativeInteger(part.byteOffset, `${pw}.byteOffset`);
        if (po % (part === ind ? indBytes : componentBytes))
          fail(`${pw}.byteOffset`, `${pw}.byteOffset ${po} is not a multiple of its component size`);
        if (po + sc * bytesEach > views[pv].byteLength)
          fail(
            pw,
            `${pw} needs bytes up to ${po + sc * bytesEach} of bufferView ${pv}, which has ${views[pv].byteLength}`,
          );
      }
    }
    const info = { count, type, componentType };
    checked.set(i, info);
    return info;
  };

  const nodes = array(root, 'nodes');
  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    const w = `nodes[${i}]`;
    const o = object(n, w);
    optionalString(o.name, `${w}.name`);
    numbers(o.translation, `${w}.translation`, 3);
    numbers(o.rotation, `${w}.rotation`, 4);
    numbers(o.scale, `${w}.scale`, 3);
    numbers(o.matrix, `${w}.matrix`, 16);
    if (o.children === undefined) return;
    if (!Array.isArray(o.children)) fail(`${w}.children`, `${w}.children must be an array, found ${show(o.children)}`);
    o.children.forEach((c, k) => {
      const child = index(c, `${w}.children[${k}]`, nodes.length, 'node');
      if (parentOf[child] >= 0)
        fail(
          `${w}.children[${k}]`,
          `node ${child} is a child of both node ${parentOf[child]} and node ${i} (the nodes must form a tree)`,
        );
      parentOf[child] = i;
    });
  });
  // One parent each: a cycle is a node that is its own ancestor.
  const state = new Uint8Array(nodes.length); // 0 unvisited, 1 on the current chain, 2 known acyclic
  for (let i = 0; i < nodes.length; i++) {
    const chain: number[] = [];
    let a = i;
    while (a >= 0 && state[a] === 0) {
      state[a] = 1;
      chain.push(a);
      a = parentOf[a];
    }
    if (a >= 0 && state[a] === 1)
      fail(`nodes[${a}]`, `node ${a} is its own ancestor (the children lists form a cycle)`);
    for (const c of chain) state[c] = 2;
  }
  // Depth, bounded as BVH nesting is: the importer and three.js walk the tree recursively (a 20,000-deep chain
  // overflowed the stack). Each node's depth is its parent's plus one, found once per node.
  const depth = new Int32Array(nodes.length).fill(-1);
  for (let i = 0; i < nodes.length; i++) {
    const chain: number[] = [];
    let a = i;
    while (a >= 0 && depth[a] < 0) {
      chain.push(a);
      a = parentOf[a];
    }
    let d = a >= 0 ? depth[a] : -1;
    for (let k = chain.length - 1; k >= 0; k--) {
      depth[chain[k]] = ++d;
      if (d > GLTF_MAX_NODE_DEPTH)
        fail(
          `nodes[${chain[k]}]`,
          `nested too deeply: node ${chain[k]} is ${d} levels below its root node (a node tree is read up to ${GLTF_MAX_NODE_DEPTH} levels)`,
        );
    }
  }

  const scenes = array(root, 'scenes');
  scenes.forEach((s, i) => {
    const o = object(s, `scenes[${i}]`);
    if (o.nodes !== undefined) {
      if (!Array.isArray(o.nodes))
        fail(`scenes[${i}].nodes`, `scenes[${i}].nodes must be an array, found ${show(o.nodes)}`);
      o.nodes.forEach((n, k) => index(n, `scenes[${i}].nodes[${k}]`, nodes.length, 'node'));
    }
  });
  optionalIndex(root.scene, 'scene', scenes.length, 'scene');

  array(root, 'skins').forEach((s, i) => {
    const w = `skins[${i}]`;
    const o = object(s, w);
    if (!Array.isArray(o.joints) || !o.joints.length)
      fail(`${w}.joints`, `${w}.joints must be a non-empty array of node indices, found ${show(o.joints)}`);
    const seen = new Set<number>();
    o.joints.forEach((j, k) => {
      const n = index(j, `${w}.joints[${k}]`, nodes.length, 'node');
      if (seen.has(n)) fail(`${w}.joints[${k}]`, `${w} lists node ${n} twice`);
      seen.add(n);
    });
    optionalIndex(o.skeleton, `${w}.skeleton`, nodes.length, 'node');
    optionalIndex(o.inverseBindMatrices, `${w}.inverseBindMatrices`, accessorList.length, 'accessor');
    optionalString(o.name, `${w}.name`);
  });

  array(root, 'animations').forEach((a, i) => {
    const w = `animations[${i}]`;
    const o = object(a, w);
    optionalString(o.name, `${w}.name`);
    if (!Array.isArray(o.samplers)) fail(`${w}.samplers`, `${w}.samplers must be an array, found ${show(o.samplers)}`);
    if (!Array.isArray(o.channels)) fail(`${w}.channels`, `${w}.channels must be an array, found ${show(o.channels)}`);
    const samplers = o.samplers.map((s, k) => {
      const sw = `${w}.samplers[${k}]`;
      const so = object(s, sw);
      const input = accessor(index(so.input, `${sw}.input`, accessorList.length, 'accessor'));
      const output = accessor(index(so.output, `${sw}.output`, accessorList.length, 'accessor'));
      const interpolation = so.interpolation === undefined ? 'LINEAR' : (so.interpolation as string);
      if (!INTERPOLATIONS.includes(interpolation))
        fail(
          `${sw}.interpolation`,
          `${sw}.interpolation must be LINEAR, STEP or CUBICSPLINE, found ${show(so.interpolation)}`,
        );
      if (input.type !== 'SCALAR' || input.componentType !== 5126)
        fail(`${sw}.input`, `${sw}.input must be a float SCALAR accessor (key times), found ${input.type}`);
      const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
      return { input, output, perKey, where: sw };
    });
    o.channels.forEach((c, k) => {
      const cw = `${w}.channels[${k}]`;
      const co = object(c, cw);
      const sampler = samplers[index(co.sampler, `${cw}.sampler`, samplers.length, 'sampler')];
      const target = object(co.target, `${cw}.target`);
      optionalIndex(target.node, `${cw}.target.node`, nodes.length, 'node');
      const path = target.path as string;
      if (typeof path !== 'string' || !Object.hasOwn(PATH_TYPES, path))
        fail(
          `${cw}.target.path`,
          `${cw}.target.path must be translation, rotation, scale or weights, found ${show(target.path)}`,
        );
      if (path === 'weights') return; // morph weights are not imported (their count depends on the mesh)
      const { input, output, perKey, where } = sampler;
      if (output.type !== PATH_TYPES[path])
        fail(
          `${where}.output`,
          `${where}.output animates ${path}, so it must be ${PATH_TYPES[path]}, found ${output.type}`,
        );
      if (output.count !== input.count * perKey)
        fail(
          `${where}.output`,
          `${where} has ${input.count} key times but ${output.count} output values (expected ${input.count * perKey})`,
        );
    });
  });
  return json;
}

/**
 * Key values of an animation track (translations, rotations, scales, read from the buffers): finite numbers. A NaN or
 * an Infinity went through three.js and the pose maths and was refused only as the motion was written, as `[MTN]
 * (rotation frame 0 joint 1): value NaN is not finite`, naming neither the file's track nor its key
 * (docs/security.md, round 35). `size` is the number of values a key holds (3 or 4, three times that for
 * CUBICSPLINE tangents).
 */
export function checkKeyValues(values: ArrayLike<number>, size: number, where: string): void {
  for (let k = 0; k < values.length; k++)
    if (!Number.isFinite(values[k]))
      fail(where, `key ${Math.floor(k / size)} holds ${values[k]} (value ${k}), not a finite number`);
}

/** Key times of an animation track: finite and strictly increasing (glTF 2.0 5.5.2.2). */
export function checkKeyTimes(times: ArrayLike<number>, where: string): void {
  for (let k = 0; k < times.length; k++) {
    if (!Number.isFinite(times[k])) fail(where, `key time ${k} is ${times[k]}, not a finite number`);
    if (k > 0 && !(times[k] > times[k - 1]))
      fail(where, `key times must increase: key ${k} at ${times[k]} s follows ${times[k - 1]} s`);
  }
}
