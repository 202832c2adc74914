/**
 * glTF 2.0 / GLB skinned animation -> Motion, using three.js's GLTFLoader for
 * what a library does well (accessor decoding incl. sparse / normalized data,
 * node TRS and matrix decomposition, animation tracks, STEP / LINEAR /
 * CUBICSPLINE interpolants with slerp). Hand-written around it: the container
 * and buffer preparation (so no DOM is ever touched: meshes, materials and
 * images are stripped before GLTFLoader sees the file, and external or data-URI
 * buffers are merged into one GLB BIN chunk), the skin's joint hierarchy
 * (parents first, static non-joint nodes folded in), per-frame resampling, and
 * the clip choice.
 *
 * three.js is reached through loadThreeLoaders() only (types aside), so it is
 * loaded when a glTF is imported and never by a run that does not import one.
 * It type-checks in shared/'s no-DOM configuration and runs in Node, a worker
 * and the renderer.
 */
import type { AnimationClip, Interpolant, KeyframeTrack, Object3D } from 'three';
import type { GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { FormatError, quoteJson } from '../../errors';
import { ClipChoiceError, chooseClip, type ClipInfo } from '../clips';
import { MotionFlag, copyJoints, emptyMotion, type Motion } from '../../motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../mtn/constants';
import { validateMotion } from '../../mtn/validate';
import { makeQuatsContinuous, quatMul, quatNormalize, quatRotate, type Quat, type Vec3 } from '../kinematics';
import { guessBodyParts, guessMirrorPairs } from '../mirror';
import { sanitizeJointNames } from '../names';
import { importedSizeProblem, snapToKey, targetFrameCount } from '../resample';
import { loadThreeLoaders } from '../loadThreeLoaders';
import type { ImportOptions, ImportResult, InterchangeWarning } from '../types';
import type { ActguyGltfExtras } from './export';
import { align4, decodeDataUri, readGltfContainer, writeGlb, type GltfJson } from './glb';
import { checkKeyTimes, checkKeyValues, validateGltfJson } from './validate';

export interface GltfImportOptions extends ImportOptions {
  /** Animation clip to import: its name, or its index (as a number or a digit string). Required when the file has several. */
  clip?: string | number;
  /** Bytes of an external buffer of a .gltf, given the file name its URI names (already %-decoded, once). The app and the CLI read it beside the file. */
  resolveUri?: (uri: string) => Uint8Array;
}

/** One animation clip of a glTF file (the clip list shared with FBX). */
export type GltfClipInfo = ClipInfo;
/** Thrown when a glTF holds several clips and none was chosen; `clips` lists them. */
export { ClipChoiceError as GltfClipChoiceError };

/** Lists the animation clips of a glTF/GLB (empty when it has none). */
export async function listGltfClips(
  bytes: Uint8Array,
  options: Pick<GltfImportOptions, 'resolveUri'> = {},
): Promise<GltfClipInfo[]> {
  const loaded = await loadWithThree(bytes, options.resolveUri);
  return clipInfos(loaded.json, loaded.clips);
}

/**
 * Imports one skinned animation clip as a motion at `options.fps` (default 30).
 * Errors: FormatError kind 'GLTF' (no skins, no animations, unknown clip, bad
 * container or buffers); GltfClipChoiceError when several clips exist and no
 * `clip` was given (its message lists them).
 */
export async function importGltf(bytes: Uint8Array, options: GltfImportOptions = {}): Promise<ImportResult> {
  const fps = options.fps ?? 30;
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a number > 0, got ${fps}`);
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`scale must be a number > 0, got ${scale}`);
  const { json, clips, nodeObjects } = await loadWithThree(bytes, options.resolveUri);
  const warnings: InterchangeWarning[] = [];
  const nodes = json.nodes ?? [];
  const infos = clipInfos(json, clips);
  if (!json.skins?.length && !infos.length)
    throw new FormatError(
      'GLTF',
      'the file has no skins and no animations: only skeletal animation, or an animation that moves nodes, can become a motion',
      { where: 'skins' },
    );
  if (!infos.length) throw new FormatError('GLTF', 'the file has no animations', { where: 'animations' });
  const clipIndex = chooseClip(infos, options.clip, 'GLTF', 'animations');
  const clip = clips[clipIndex];
  const extras = actguyExtras(json, clipIndex);

  // Which node each track animates.
  const nodeByTarget = new Map<string, number>();
  nodeObjects.forEach((o, i) => nodeByTarget.set(o.name ? o.name : o.uuid, i));
  const tracksByNode = new Map<number, { translation?: KeyframeTrack; rotation?: KeyframeTrack }>();
  let scaleTracks = 0;
  let otherTracks = 0;
  for (const track of clip.tracks) {
    const dot = track.name.lastIndexOf('.');
    const node = nodeByTarget.get(track.name.slice(0, dot));
    const prop = track.name.slice(dot + 1);
    if (node === undefined) {
      otherTracks++;
      continue;
    }
    const entry = tracksByNode.get(node) ?? {};
    if (prop === 'position') entry.translation = track;
    else if (prop === 'quaternion') entry.rotation = track;
    else if (prop === 'scale') {
      // Blender samples every bone's scale, all ones: only a track that leaves the rest scale loses anything.
      if (scaleTrackMoves(track, nodeObjects[node].scale)) scaleTracks++;
      continue;
    } else {
      otherTracks++;
      continue;
    }
    tracksByNode.set(node, entry);
  }

  // The skin: the one whose joints the clip animates most. A file without skins whose clip moves nodes (a rigid rig:
  // a machine, a prop, a character whose parts are separate meshes) gets the nodes the clip moves as its joints.
  const skinIndex = json.skins?.length ? chooseSkin(json, tracksByNode) : -1;
  const skin = skinIndex >= 0 ? json.skins![skinIndex] : { joints: [...tracksByNode.keys()].sort((a, b) => a - b) };
  const skinWords = skinIndex >= 0 ? `skin ${skinIndex}` : `the nodes clip ${quoteJson(infos[clipIndex].name)} moves`;
  const skinPlace = skinIndex >= 0 ? `skins[${skinIndex}]` : `animations[${clipIndex}]`;
  if (skinIndex < 0) {
    if (!skin.joints.length)
      throw new FormatError(
        'GLTF',
        `the file has no skins, and clip ${quoteJson(infos[clipIndex].name)} moves no node (it animates ${scaleTracks ? 'only scale' : 'only morph weights or nothing'}): only skeletal animation, or an animation that moves nodes, can become a motion`,
        { where: `animations[${clipIndex}]` },
      );
    warnings.push({
      code: 'nodes-as-joints',
      message: `the file has no skin: the ${skin.joints.length} node(s) clip ${quoteJson(infos[clipIndex].name)} moves become the joints (nodes it leaves still are folded into them)`,
    });
  }
  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => (parentOf[c] = i)));
  const inSkin = new Set(skin.joints);
  for (const j of skin.joints)
    if (j < 0 || j >= nodes.length)
      throw new FormatError('GLTF', `${skinWords} names node ${j}, which does not exist`, {
        where: `${skinPlace}.joints`,
      });
  const jointAncestor = (n: number) => {
    for (let a = parentOf[n]; a >= 0; a = parentOf[a]) if (inSkin.has(a)) return a;
    return -1;
  };
  let roots = skin.joints.filter((j) => jointAncestor(j) < 0);
  if (roots.length > 1) {
    // Several top joints: their lowest common ancestor node becomes the root joint.
    const chain = (n: number) => {
      const c: number[] = [];
      for (let a = parentOf[n]; a >= 0; a = parentOf[a]) c.push(a);
      return c;
    };
    const common = chain(roots[0]).find((a) => roots.every((r) => chain(r).includes(a)));
    if (common === undefined)
      throw new FormatError(
        'GLTF',
        `${skinWords} ${skinIndex >= 0 ? 'has' : 'have'} ${roots.length} unconnected root joints (${roots.map((r) => quoteJson(nodes[r].name ?? `node ${r}`)).join(', ')}) with no common parent node${skinIndex >= 0 ? '' : ': a motion has one root; parent them under one node in your animation tool and export again'}`,
        { where: skinPlace },
      );
    warnings.push({
      code: 'root-added',
      message: `${skinWords} ${skinIndex >= 0 ? 'has' : 'have'} ${roots.length} root joints; their common parent node ${quoteJson(nodes[common].name ?? `node ${common}`)} becomes the root joint`,
    });
    inSkin.add(common);
    roots = [common];
  }
  // Parents first: depth-first over the node tree from the root, keeping skin joints.
  const order: number[] = [];
  const visit = (n: number) => {
    if (inSkin.has(n)) order.push(n);
    for (const c of nodes[n].children ?? []) visit(c);
  };
  visit(roots[0]);
  const J = order.length;
  if (J > MTN_MAX_JOINTS)
    throw new FormatError(
      'GLTF',
      `${skinIndex >= 0 ? 'the skin has' : `${skinWords} are`} ${J} joints; a motion holds at most ${MTN_MAX_JOINTS}`,
      { where: skinPlace },
    );
  const jointOfNode = new Map(order.map((n, j) => [n, j]));
  const parents = order.map((n) => (n === roots[0] ? -1 : (jointOfNode.get(jointAncestor(n)) as number)));

  // Transform from each joint's parent-joint frame (the world for the root)
  // down to the joint node's parent node: non-joint nodes in between (an
  // "Armature" above the root, helper, camera or mesh nodes between bones)
  // are folded in, at each frame when the clip animates them (Blender writes
  // an armature object's own motion on the armature node).
  const restOf = new Map<number, Rigid>();
  const rest = (n: number): Rigid => {
    let r = restOf.get(n);
    if (!r) {
      const o = nodeObjects[n];
      r = {
        t: [o.position.x, o.position.y, o.position.z],
        // Normalised as a key is (localAt): glTF asks for unit quaternions, and three.js draws a zero one as no
        // turn, which a motion cannot store (an MTN quaternion needs a length of at least 1e-6).
        q: quatNormalize([o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w]),
        s: uniformScale(o, n, warnings),
      };
      restOf.set(n, r);
    }
    return r;
  };
  const chains: number[][] = order.map((n, j) => {
    const stop = parents[j] < 0 ? -1 : order[parents[j]];
    const chain: number[] = [];
    for (let a = parentOf[n]; a !== stop && a >= 0; a = parentOf[a]) chain.push(a);
    return chain;
  });
  const prefix: Rigid[] = chains.map((chain) => chain.reduce((m, a) => compose(rest(a), m), identity()));
  // Uniform world scale of every joint's own frame (ancestors, folded nodes and its rest scale).
  const worldScale = new Float64Array(J);
  const parentScale = (j: number) => (parents[j] < 0 ? 1 : worldScale[parents[j]]);
  for (let j = 0; j < J; j++) worldScale[j] = parentScale(j) * prefix[j].s * rest(order[j]).s;
  // A still node scaled to zero (a prop's bone hidden so) puts every joint below it where it is, as the file
  // describes; the motion cannot show it hidden, only collapsed: said, naming it (docs/security.md, round 36).
  const zeroNodes: string[] = [];
  for (let j = 0; j < J; j++) {
    if (worldScale[j] !== 0 || parentScale(j) === 0) continue;
    const own = rest(order[j]).s === 0;
    const node = own ? order[j] : (chains[j].find((a) => rest(a).s === 0) ?? order[j]);
    const below: number[] = own ? [] : [j];
    for (let k = j + 1; k < J; k++)
      for (let a = parents[k]; a >= 0; a = parents[a]) if (a === j && below.push(k)) break;
    if (below.length === 0) continue;
    const listed = below.slice(0, 6).map((k) => quoteJson(nodes[order[k]].name ?? `node ${order[k]}`));
    zeroNodes.push(
      `node ${quoteJson(nodes[node].name ?? `node ${node}`)} has a rest scale of 0: the ${below.length} joint(s) below it (${listed.join(', ')}${below.length > 6 ? ', ...' : ''}) lie where it is at every frame, as the file describes (motions carry no scale); if it was hidden this way, the motion shows them collapsed`,
    );
  }
  for (const message of zeroNodes.slice(0, 6)) warnings.push({ code: 'scale-unsupported', message });
  if (zeroNodes.length > 6)
    warnings.push({
      code: 'scale-unsupported',
      message: `${zeroNodes.length - 6} more node(s) have a rest scale of 0, each with joints below it collapsed onto it`,
    });
  if (scaleTracks)
    warnings.push({
      code: 'scale-unsupported',
      message: `clip ${quoteJson(infos[clipIndex].name)} has ${scaleTracks} scale track(s) that move away from the rest scale; motions carry no scale, so they are ignored (rest scale used)`,
    });
  if (otherTracks)
    warnings.push({
      code: 'unanimated',
      message: `clip ${quoteJson(infos[clipIndex].name)} has ${otherTracks} track(s) on nodes or properties other than joint translation/rotation (morph weights, meshes); ignored`,
    });
  const animatedJoints = order.filter((n) => tracksByNode.has(n)).length;
  if (animatedJoints === 0)
    warnings.push({
      code: 'unanimated',
      message: `clip ${quoteJson(infos[clipIndex].name)} animates none of the skin's joints; the motion holds the rest pose`,
    });

  // Timing.
  let t0 = Infinity,
    t1 = -Infinity;
  for (const { translation, rotation } of tracksByNode.values())
    for (const tr of [translation, rotation])
      if (tr && tr.times.length) {
        t0 = Math.min(t0, tr.times[0]);
        t1 = Math.max(t1, tr.times[tr.times.length - 1]);
      }
  if (!Number.isFinite(t0)) {
    t0 = 0;
    t1 = 0;
  }
  const N = targetFrameCount(t1 - t0, fps);
  if (N > MTN_MAX_FRAMES)
    throw new FormatError(
      'GLTF',
      `${(t1 - t0).toFixed(2)} s at ${fps} fps is ${N} frames; a motion holds at most ${MTN_MAX_FRAMES} (lower --fps)`,
      { where: `animations[${clipIndex}]` },
    );
  const tooLarge = importedSizeProblem(N, J);
  if (tooLarge)
    throw new FormatError('GLTF', `${(t1 - t0).toFixed(2)} s at ${fps} fps: ${tooLarge}`, {
      where: `animations[${clipIndex}]`,
    });

  const names = sanitizeJointNames(
    order.map((n) => nodes[n].name ?? `node${n}`),
    warnings,
  );
  const mirror = guessMirrorPairs(names);
  const parts = guessBodyParts(names, parents);
  const joints = copyJoints(
    names.map((name, j) => ({ name, parent: parents[j], mirror: mirror[j], part: parts[j], reserved: 0 })),
  );
  const m = emptyMotion(N, joints, fps);

  // KeyframeTrack.createInterpolant is installed at run time by setInterpolation
  // (GLTFLoader replaces it for CUBICSPLINE); three's typings do not declare it.
  const interpolantOf = (tr?: KeyframeTrack) =>
    tr ? (tr as KeyframeTrack & { createInterpolant(): Interpolant }).createInterpolant() : undefined;
  const interpolantsOfNode = new Map<number, { t?: Interpolant; r?: Interpolant }>();
  const interpolantsOf = (n: number) => {
    let ip = interpolantsOfNode.get(n);
    if (!ip) {
      const e = tracksByNode.get(n);
      ip = { t: interpolantOf(e?.translation), r: interpolantOf(e?.rotation) };
      interpolantsOfNode.set(n, ip);
    }
    return ip;
  };
  /** A node's translation and rotation at `time` (its rest where the clip leaves them), its rest scale. */
  const localAt = (n: number, time: number): Rigid => {
    const r0 = rest(n);
    const { t: ti, r: ri } = interpolantsOf(n);
    return {
      t: ti ? (Array.from(ti.evaluate(snapToKey(ti.parameterPositions, time, fps))) as Vec3) : r0.t,
      q: ri ? quatNormalize(ri.evaluate(snapToKey(ri.parameterPositions, time, fps))) : r0.q,
      s: r0.s,
    };
  };
  const chainAnimated = chains.map((chain) => chain.some((a) => tracksByNode.has(a)));
  let offsetsMove = false;
  for (let j = 0; j < J; j++) {
    // Offsets live in the parent joint's frame, so that frame's scale applies.
    const k = parentScale(j) * scale;
    for (let f = 0; f <= N; f++) {
      const time = t0 + f / fps;
      const { t: tl, q: ql } = localAt(order[j], time);
      const pre = chainAnimated[j]
        ? chains[j].reduce((acc, a) => compose(localAt(a, time), acc), identity())
        : prefix[j];
      // Position in the parent joint's frame: prefix applied to the node's local translation.
      const p = quatRotate(pre.q, tl);
      const pos: Vec3 = [(pre.t[0] + pre.s * p[0]) * k, (pre.t[1] + pre.s * p[1]) * k, (pre.t[2] + pre.s * p[2]) * k];
      // A motion holds 32-bit floats: past them the value became Infinity and the error said "[MTN] ... not finite".
      for (let c = 0; c < 3; c++)
        if (!Number.isFinite(Math.fround(pos[c])))
          throw new FormatError(
            'GLTF',
            `frame ${f}: joint ${quoteJson(names[j])} position ${'xyz'[c]} is ${pos[c]} (its node's translation, the nodes above it and their scales, times the scale): beyond what a motion stores (32-bit floats, magnitude below 3.4e38)`,
            { where: `nodes[${order[j]}]` },
          );
      m.rotation.set(quatMul(pre.q, ql), (f * J + j) * 4);
      if (j === 0) m.translation.set([pos[0], pos[1], pos[2], 0], f * 4);
      else {
        m.offset.set([pos[0], pos[1], pos[2], 0], (f * J + j) * 4);
        if (f > 0)
          for (let c = 0; c < 3; c++) if (m.offset[(f * J + j) * 4 + c] !== m.offset[j * 4 + c]) offsetsMove = true;
      }
    }
  }
  makeQuatsContinuous(m.rotation, N + 1, J);
  if (offsetsMove || options.offsets) m.flags |= MotionFlag.OFFSETS;
  if (extras && extras.joints.length === J) applyExtras(m, extras, warnings);
  validateMotion(m);
  return { motion: m, warnings, clip: infos[clipIndex].name };
}

/** A rigid transform with uniform scale: p -> t + s * q p. */
interface Rigid {
  t: Vec3;
  q: Quat;
  s: number;
}
const identity = (): Rigid => ({ t: [0, 0, 0], q: [0, 0, 0, 1], s: 1 });
/** a then b as seen from outside: compose(a, b) maps p to a(b(p)). */
function compose(a: Rigid, b: Rigid): Rigid {
  const bt = quatRotate(a.q, b.t);
  return { t: [a.t[0] + a.s * bt[0], a.t[1] + a.s * bt[1], a.t[2] + a.s * bt[2]], q: quatMul(a.q, b.q), s: a.s * b.s };
}

/** A node's rest scale as one number; non-uniform scale is averaged with a warning. */
function uniformScale(o: Object3D, n: number, warnings: InterchangeWarning[]): number {
  const { x, y, z } = o.scale;
  if (Math.abs(x - y) > 1e-6 * Math.abs(x) || Math.abs(x - z) > 1e-6 * Math.abs(x)) {
    const msg = `node ${quoteJson(o.name || `node ${n}`)} has non-uniform rest scale (${x}, ${y}, ${z}); motions carry no scale, so its mean is applied to positions`;
    if (!warnings.some((w) => w.message === msg)) warnings.push({ code: 'scale-unsupported', message: msg });
    return (Math.abs(x) + Math.abs(y) + Math.abs(z)) / 3;
  }
  return Math.abs(x);
}

/**
 * Whether a scale track holds any value other than the node's rest scale (relative 1e-6). CUBICSPLINE
 * tracks (tangents stored among the values) always count.
 */
function scaleTrackMoves(track: KeyframeTrack, rest: { x: number; y: number; z: number }): boolean {
  if (track.values.length !== track.times.length * 3) return true;
  const r = [rest.x, rest.y, rest.z];
  return track.values.some((v, i) => !(Math.abs(v - r[i % 3]) <= 1e-6 * Math.max(1, Math.abs(r[i % 3]))));
}

function chooseSkin(json: GltfJson, tracksByNode: Map<number, unknown>): number {
  let best = 0,
    bestCount = -1;
  json.skins!.forEach((s, i) => {
    const count = s.joints.filter((j) => tracksByNode.has(j)).length;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  });
  return best;
}

function clipInfos(json: GltfJson, clips: AnimationClip[]): GltfClipInfo[] {
  return clips.map((c, i) => {
    let t0 = Infinity,
      t1 = -Infinity;
    for (const tr of c.tracks)
      if (tr.times.length) {
        t0 = Math.min(t0, tr.times[0]);
        t1 = Math.max(t1, tr.times[tr.times.length - 1]);
      }
    return {
      index: i,
      name: json.animations?.[i]?.name ?? `animation_${i}`,
      duration: Number.isFinite(t0) ? t1 - t0 : 0,
    };
  });
}

function actguyExtras(json: GltfJson, clip: number): ActguyGltfExtras | undefined {
  const x = (json.animations?.[clip]?.extras as { actguy?: unknown } | undefined)?.actguy as
    Partial<ActguyGltfExtras> | undefined;
  if (!x || typeof x !== 'object' || x.version !== 1 || !Array.isArray(x.joints)) return undefined;
  // Written by our exporter, but the file may have been edited: every field is checked before use.
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  const rows = (v: unknown, n: number): number[][] =>
    Array.isArray(v)
      ? v.filter((r): r is number[] => Array.isArray(r) && r.length === n && r.every((c) => typeof c === 'number'))
      : [];
  return {
    version: 1,
    fps: typeof x.fps === 'number' ? x.fps : 0,
    flags: typeof x.flags === 'number' ? x.flags : 0,
    waistJoint: typeof x.waistJoint === 'number' ? x.waistJoint : -1,
    joints: x.joints.map((j) =>
      isObj(j) ? { mirror: j.mirror as number, part: j.part as number } : { mirror: NaN, part: NaN },
    ),
    scale: typeof x.scale === 'number' && Number.isFinite(x.scale) && x.scale > 0 ? x.scale : 1,
    translationKeys: rows(x.translationKeys, 2) as [number, number][],
    jointKeys: rows(x.jointKeys, 3) as [number, number, number][],
  };
}

/** Restores what our exporter stored in extras (flags, mirror/part, key info) when it fits this motion. */
function applyExtras(m: Motion, x: ActguyGltfExtras, warnings: InterchangeWarning[]): void {
  const J = m.joints.length;
  if (x.scale && x.scale !== 1) {
    // Undo the export scale so an export/import round trip is the identity on positions.
    for (let i = 0; i < m.translation.length; i++) m.translation[i] /= x.scale;
    for (let i = 0; i < m.offset.length; i++) m.offset[i] /= x.scale;
  }
  m.flags = x.flags >>> 0;
  m.waistJoint = Number.isInteger(x.waistJoint) && x.waistJoint >= -1 && x.waistJoint < J ? x.waistJoint : -1;
  if (m.flags & MotionFlag.DIRECTION && m.waistJoint < 0) m.flags &= ~MotionFlag.DIRECTION;
  x.joints.forEach((jx, j) => {
    if (Number.isInteger(jx.mirror) && jx.mirror >= 0 && jx.mirror < J) m.joints[j].mirror = jx.mirror;
    if (Number.isInteger(jx.part)) m.joints[j].part = jx.part >>> 0;
  });
  let dropped = 0;
  for (const [f, flags] of x.translationKeys ?? []) {
    if (Number.isInteger(f) && f >= 0 && f <= m.frameCount) m.translationKeyInfo[f * 4] = flags >>> 0;
    else dropped++;
  }
  for (const [f, j, flags] of x.jointKeys ?? []) {
    if (Number.isInteger(f) && f >= 0 && f <= m.frameCount && Number.isInteger(j) && j >= 0 && j < J)
      m.jointKeyInfo[(f * J + j) * 4] = flags >>> 0;
    else dropped++;
  }
  if (dropped)
    warnings.push({
      code: 'clip-trimmed',
      message: `${dropped} key-info entries stored by ActGuy lie outside the imported frames or joints; dropped`,
    });
}

interface Loaded {
  json: GltfJson;
  clips: AnimationClip[];
  /** The three.js object GLTFLoader built for every node, by node index. */
  nodeObjects: Object3D[];
}

/**
 * Runs GLTFLoader on a copy of the file reduced to nodes, skins and
 * animations, with all buffers merged into one BIN chunk. Returns the
 * original JSON (for names, skins, extras) with the clips and node objects.
 */
async function loadWithThree(bytes: Uint8Array, resolveUri?: (uri: string) => Uint8Array): Promise<Loaded> {
  const { json, bin } = readGltfContainer(bytes);
  validateGltfJson(json);
  const reduced = reducedForThree(json);

  // One BIN chunk: every buffer appended, 4-byte aligned, bufferViews rebased.
  const buffers = json.buffers ?? [];
  const parts: Uint8Array[] = [];
  const bases: number[] = [];
  let total = 0;
  buffers.forEach((b, i) => {
    let data: Uint8Array | undefined;
    if (b.uri === undefined) {
      if (i !== 0 || !bin)
        throw new FormatError('GLTF', `buffer ${i} has no uri and there is no GLB BIN chunk for it`, {
          where: `buffers[${i}]`,
        });
      data = bin;
    } else if (b.uri.startsWith('data:')) {
      data = decodeDataUri(b.uri);
      if (!data)
        throw new FormatError('GLTF', `buffer ${i} has a data URI that is not base64`, { where: `buffers[${i}]` });
    } else {
      if (!resolveUri)
        throw new FormatError(
          'GLTF',
          `buffer ${i} is an external file ${quoteJson(b.uri)} that cannot be read here (use a .glb, or open the .gltf from disk)`,
          { where: `buffers[${i}]` },
        );
      // Decoded here, once: the resolver gets the file name, not the URI.
      let name: string;
      try {
        name = decodeURIComponent(b.uri);
      } catch {
        throw new FormatError('GLTF', `buffer ${i} has the URI ${quoteJson(b.uri)}, whose % escapes are not valid`, {
          where: `buffers[${i}].uri`,
        });
      }
      data = resolveUri(name);
    }
    if (data.byteLength < b.byteLength)
      throw new FormatError(
        'GLTF',
        `buffer ${i} declares ${b.byteLength} bytes but has ${data.byteLength} (truncated)`,
        { where: `buffers[${i}]` },
      );
    bases.push(total);
    parts.push(data.subarray(0, b.byteLength));
    total = align4(total + b.byteLength);
  });
  const merged = new Uint8Array(total);
  parts.forEach((p, i) => merged.set(p, bases[i]));
  for (const view of reduced.bufferViews ?? []) {
    view.byteOffset = (view.byteOffset ?? 0) + bases[view.buffer];
    view.buffer = 0;
  }
  if (total) reduced.buffers = [{ byteLength: total }];
  const glb = writeGlb(reduced, total ? merged : undefined);

  const { GLTFLoader } = await loadThreeLoaders();
  const loader = new GLTFLoader();
  const gltf = await new Promise<GLTF>((resolve, reject) =>
    loader.parse(
      glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer,
      '',
      resolve,
      (e: unknown) =>
        reject(
          new FormatError('GLTF', `three.js GLTFLoader: ${(e as Error)?.message ?? String(e)}`, {
            where: 'GLTFLoader',
          }),
        ),
    ),
  );
  const nodeObjects = await Promise.all(
    (json.nodes ?? []).map((_, i) => gltf.parser.getDependency('node', i) as Promise<Object3D>),
  );
  // Key times and values are read only now (they live in the buffers); three's interpolants assume the times sorted
  // and finite, and a value that is not a number would reach the motion as one.
  gltf.animations.forEach((clip, i) =>
    clip.tracks.forEach((t) => {
      checkKeyTimes(t.times, `animations[${i}] track ${t.name}`);
      checkKeyValues(
        t.values,
        Math.max(1, t.values.length / Math.max(1, t.times.length)),
        `animations[${i}] track ${t.name}`,
      );
    }),
  );
  return { json, clips: gltf.animations, nodeObjects };
}

/**
 * A copy of the glTF with only what the motion needs, field by field from the
 * validated JSON: nodes (name, children, TRS, matrix), scenes, accessors,
 * buffer views and animations (morph-weight channels dropped: their meshes
 * are gone). No meshes, materials, images, skins, cameras, extensions or
 * extras reach GLTFLoader, so no DOM is touched and nothing unchecked is read.
 */
function reducedForThree(json: GltfJson): GltfJson {
  const pickKeys = <T extends object>(o: T, keys: readonly (keyof T)[]): T => {
    const out = {} as T;
    for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
    return out;
  };
  const reduced: GltfJson = { asset: { version: '2.0' } };
  if (json.scene !== undefined) reduced.scene = json.scene;
  if (json.scenes) reduced.scenes = json.scenes.map((s) => pickKeys(s, ['nodes']));
  if (json.nodes)
    reduced.nodes = json.nodes.map((n) =>
      pickKeys(n, ['name', 'children', 'translation', 'rotation', 'scale', 'matrix']),
    );
  if (json.accessors)
    reduced.accessors = json.accessors.map((a) =>
      pickKeys(a, ['bufferView', 'byteOffset', 'componentType', 'normalized', 'count', 'type', 'sparse']),
    );
  if (json.bufferViews)
    reduced.bufferViews = json.bufferViews.map((v) =>
      pickKeys(v, ['buffer', 'byteOffset', 'byteLength', 'byteStride']),
    );
  if (json.animations)
    reduced.animations = json.animations.map((a) => ({
      name: a.name,
      samplers: a.samplers.map((s) => pickKeys(s, ['input', 'output', 'interpolation'])),
      channels: a.channels
        .filter((c) => c.target.path !== 'weights')
        .map((c) => ({ sampler: c.sampler, target: pickKeys(c.target, ['node', 'path']) })),
    }));
  // KHR_mesh_quantization allows normalized integer key values; GLTFLoader refuses it unless declared.
  if (json.extensionsUsed?.includes('KHR_mesh_quantization')) reduced.extensionsUsed = ['KHR_mesh_quantization'];
  return reduced;
}
