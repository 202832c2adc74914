/**
 * Motion -> GLB (glTF 2.0 binary), hand-written and deterministic: one node
 * per joint (named after it, rest transform = frame 0), a skin over all joints
 * with inverse bind matrices for the frame-0 pose, a minimal skinned mesh (one
 * octahedral "bone" per parent->child segment, so ordinary glTF viewers show
 * the skeleton), and one animation with LINEAR samplers at every frame:
 * rotation for every joint, translation for the root and, when the offsets
 * are animated, for the other joints. MTN metadata glTF has no place for
 * (mirror, part, flags, waist joint, key info) goes to the animation's
 * `extras.actguy`, which our importer reads back.
 */
import { MotionFlag, type Motion } from '../../motion/types';
import { quatNormalize, quatRotate, worldPose } from '../kinematics';
import { align4, writeGlb, type GltfJson, type GltfNode } from './glb';

export interface GltfExportOptions {
  /** Name of the glTF animation (default "motion"). */
  animationName?: string;
  /** Multiplies every position (e.g. 0.01 for centimetres -> metres). Default 1. */
  scale?: number;
  /** Add the octahedral bone mesh (default true). Without it the file is a bare skin. */
  boneMesh?: boolean;
}

/** What our exporter stores in `animations[0].extras.actguy` (version 1). */
export interface ActguyGltfExtras {
  version: 1;
  fps: number;
  flags: number;
  waistJoint: number;
  /** Per joint, in skin.joints order: mirror joint and body part. */
  joints: { mirror: number; part: number }[];
  /** Scale the exporter applied to positions (the importer divides it out). */
  scale: number;
  /** [frame, flags] for every frame with non-zero translation key info. */
  translationKeys: [number, number][];
  /** [frame, joint, flags] for every non-zero joint key info. */
  jointKeys: [number, number, number][];
}

const FLOAT = 5126,
  UNSIGNED_SHORT = 5123,
  UNSIGNED_INT = 5125,
  UNSIGNED_BYTE = 5121;
const ARRAY_BUFFER = 34962,
  ELEMENT_ARRAY_BUFFER = 34963;

/** Builds the GLB bytes for a motion (source MTN or a decoded MT3 with its skeleton). */
export function motionToGlb(motion: Motion, options: GltfExportOptions = {}): Uint8Array {
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`scale must be a number > 0, got ${scale}`);
  const J = motion.joints.length;
  const S = motion.frameCount + 1;
  const json: GltfJson = {
    asset: { version: '2.0', generator: 'ActGuy motion exporter' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [],
    accessors: [],
    bufferViews: [],
    buffers: [],
  };
  const chunks: Uint8Array[] = [];
  let binLength = 0;
  /** Appends typed data as its own bufferView + accessor; returns the accessor index. */
  const addAccessor = (
    data: Float32Array | Uint16Array | Uint32Array | Uint8Array,
    componentType: number,
    type: string,
    count: number,
    extra: { min?: number[]; max?: number[]; target?: number } = {},
  ): number => {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const view = json.bufferViews!.length;
    json.bufferViews!.push({
      buffer: 0,
      byteOffset: binLength,
      byteLength: bytes.byteLength,
      ...(extra.target ? { target: extra.target } : {}),
    });
    chunks.push(bytes);
    const padded = align4(bytes.byteLength);
    if (padded > bytes.byteLength) chunks.push(new Uint8Array(padded - bytes.byteLength));
    binLength += padded;
    json.accessors!.push({
      bufferView: view,
      componentType,
      count,
      type,
      ...(extra.min ? { min: extra.min, max: extra.max } : {}),
    });
    return json.accessors!.length - 1;
  };

  // Rest pose and bind pose: frame 0.
  const rest = worldPose(motion, 0);
  const children: number[][] = motion.joints.map(() => []);
  motion.joints.forEach((jt, j) => jt.parent >= 0 && children[jt.parent].push(j));
  const rootPos = (f: number) =>
    [0, 1, 2].map((k) => (motion.translation[f * 4 + k] + motion.offset[f * J * 4 + k]) * scale);
  const offsetOf = (f: number, j: number) => [0, 1, 2].map((k) => motion.offset[(f * J + j) * 4 + k] * scale);
  const rotOf = (f: number, j: number) => quatNormalize(motion.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4));
  motion.joints.forEach((jt, j) => {
    const node: GltfNode = { name: jt.name, translation: j === 0 ? rootPos(0) : offsetOf(0, j), rotation: rotOf(0, j) };
    if (children[j].length) node.children = children[j];
    json.nodes!.push(node);
  });

  // Skin: inverse of each joint's rigid frame-0 world transform (column-major).
  const ibm = new Float32Array(J * 16);
  for (let j = 0; j < J; j++) {
    const q = rest.rotations.subarray(j * 4, j * 4 + 4);
    const inv: [number, number, number, number] = [-q[0], -q[1], -q[2], q[3]];
    const cols = [quatRotate(inv, [1, 0, 0]), quatRotate(inv, [0, 1, 0]), quatRotate(inv, [0, 0, 1])];
    const t = quatRotate(inv, [
      -rest.positions[j * 3] * scale,
      -rest.positions[j * 3 + 1] * scale,
      -rest.positions[j * 3 + 2] * scale,
    ]);
    ibm.set([...cols[0], 0, ...cols[1], 0, ...cols[2], 0, ...t, 1], j * 16);
  }
  json.skins = [
    { joints: motion.joints.map((_, j) => j), skeleton: 0, inverseBindMatrices: addAccessor(ibm, FLOAT, 'MAT4', J) },
  ];

  if (options.boneMesh ?? true) addBoneMesh(json, motion, rest.positions, scale, addAccessor);

  // Animation: key times f / fps, LINEAR, every frame.
  const times = new Float32Array(S);
  for (let f = 0; f < S; f++) times[f] = f / motion.fps;
  const input = addAccessor(times, FLOAT, 'SCALAR', S, { min: [times[0]], max: [times[S - 1]] });
  const animation = {
    name: options.animationName ?? 'motion',
    channels: [] as { sampler: number; target: { node: number; path: string } }[],
    samplers: [] as { input: number; output: number; interpolation: string }[],
    extras: {} as Record<string, unknown>,
  };
  const addChannel = (node: number, path: 'rotation' | 'translation', values: Float32Array, type: string) => {
    animation.samplers.push({ input, output: addAccessor(values, FLOAT, type, S), interpolation: 'LINEAR' });
    animation.channels.push({ sampler: animation.samplers.length - 1, target: { node, path } });
  };
  const offsetsAnimated = (motion.flags & MotionFlag.OFFSETS) !== 0 || offsetsVary(motion);
  for (let j = 0; j < J; j++) {
    const rot = new Float32Array(S * 4);
    for (let f = 0; f < S; f++) rot.set(rotOf(f, j), f * 4);
    addChannel(j, 'rotation', rot, 'VEC4');
    if (j === 0 || offsetsAnimated) {
      const pos = new Float32Array(S * 3);
      for (let f = 0; f < S; f++) pos.set(j === 0 ? rootPos(f) : offsetOf(f, j), f * 3);
      addChannel(j, 'translation', pos, 'VEC3');
    }
  }
  const extras: ActguyGltfExtras = {
    version: 1,
    fps: motion.fps,
    flags: motion.flags,
    waistJoint: motion.waistJoint,
    joints: motion.joints.map((jt) => ({ mirror: jt.mirror, part: jt.part })),
    scale,
    translationKeys: [],
    jointKeys: [],
  };
  for (let f = 0; f < S; f++) {
    const tf = motion.translationKeyInfo[f * 4];
    if (tf) extras.translationKeys.push([f, tf]);
    for (let j = 0; j < J; j++) {
      const jf = motion.jointKeyInfo[(f * J + j) * 4];
      if (jf) extras.jointKeys.push([f, j, jf]);
    }
  }
  animation.extras = { actguy: extras };
  json.animations = [animation];

  const bin = new Uint8Array(binLength);
  let at = 0;
  for (const c of chunks) {
    bin.set(c, at);
    at += c.byteLength;
  }
  json.buffers = [{ byteLength: binLength }];
  return writeGlb(json, bin);
}

/** True when some joint offset differs between frames (then offsets are exported as tracks). */
function offsetsVary(m: Motion): boolean {
  const J = m.joints.length;
  for (let f = 1; f <= m.frameCount; f++)
    for (let i = 4; i < J * 4; i++) if (m.offset[f * J * 4 + i] !== m.offset[i]) return true;
  return false;
}

/**
 * One octahedron per parent->child segment in the frame-0 pose, skinned fully
 * to the parent joint, so the exported skeleton is visible in any viewer.
 */
function addBoneMesh(
  json: GltfJson,
  motion: Motion,
  rest: Float64Array,
  scale: number,
  addAccessor: (
    data: Float32Array | Uint16Array | Uint32Array | Uint8Array,
    componentType: number,
    type: string,
    count: number,
    extra?: { min?: number[]; max?: number[]; target?: number },
  ) => number,
): void {
  const positions: number[] = [];
  const joints: number[] = [];
  const indices: number[] = [];
  motion.joints.forEach((jt, j) => {
    const p = jt.parent;
    if (p < 0) return;
    const a = [rest[p * 3] * scale, rest[p * 3 + 1] * scale, rest[p * 3 + 2] * scale];
    const b = [rest[j * 3] * scale, rest[j * 3 + 1] * scale, rest[j * 3 + 2] * scale];
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const len = Math.hypot(d[0], d[1], d[2]);
    if (len < 1e-6) return;
    const ax = d.map((v) => v / len);
    // Two unit vectors perpendicular to the bone axis.
    const helper = Math.abs(ax[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    let u = [
      ax[1] * helper[2] - ax[2] * helper[1],
      ax[2] * helper[0] - ax[0] * helper[2],
      ax[0] * helper[1] - ax[1] * helper[0],
    ];
    const ul = Math.hypot(u[0], u[1], u[2]);
    u = u.map((v) => v / ul);
    const v = [ax[1] * u[2] - ax[2] * u[1], ax[2] * u[0] - ax[0] * u[2], ax[0] * u[1] - ax[1] * u[0]];
    const r = 0.1 * len;
    const base = positions.length / 3;
    const ring = a.map((c, k) => c + d[k] * 0.2);
    positions.push(...a, ...b);
    for (const [cu, cv] of [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ])
      positions.push(...ring.map((c, k) => c + r * (cu * u[k] + cv * v[k])));
    for (let i = 0; i < 6; i++) joints.push(p, 0, 0, 0);
    for (let i = 0; i < 4; i++) {
      const r0 = base + 2 + i,
        r1 = base + 2 + ((i + 1) % 4);
      indices.push(base, r1, r0, base + 1, r0, r1);
    }
  });
  if (!positions.length) return;
  const count = positions.length / 3;
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  const pos = new Float32Array(positions);
  for (let i = 0; i < count; i++)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], pos[i * 3 + k]);
      max[k] = Math.max(max[k], pos[i * 3 + k]);
    }
  const weights = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) weights[i * 4] = 1;
  const J = motion.joints.length;
  const jointData = J <= 256 ? new Uint8Array(joints) : new Uint16Array(joints);
  const attributes = {
    POSITION: addAccessor(pos, FLOAT, 'VEC3', count, { min, max, target: ARRAY_BUFFER }),
    JOINTS_0: addAccessor(jointData, J <= 256 ? UNSIGNED_BYTE : UNSIGNED_SHORT, 'VEC4', count, {
      target: ARRAY_BUFFER,
    }),
    WEIGHTS_0: addAccessor(weights, FLOAT, 'VEC4', count, { target: ARRAY_BUFFER }),
  };
  const idx = count < 65536 ? new Uint16Array(indices) : new Uint32Array(indices);
  const indicesAccessor = addAccessor(idx, count < 65536 ? UNSIGNED_SHORT : UNSIGNED_INT, 'SCALAR', indices.length, {
    target: ELEMENT_ARRAY_BUFFER,
  });
  json.meshes = [{ name: 'bones', primitives: [{ attributes, indices: indicesAccessor, mode: 4 }] }];
  json.nodes!.push({ name: 'bones', mesh: 0, skin: 0 });
  json.scenes![0].nodes!.push(json.nodes!.length - 1);
}
