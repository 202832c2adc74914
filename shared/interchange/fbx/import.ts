/**
 * FBX skeletal animation -> Motion (docs/import.md), with three.js's FBXLoader
 * for the scene it builds well (binary and ASCII FBX 7.x, the node hierarchy,
 * rest poses, Euler orders, pre- and post-rotations). Hand-written around it:
 * the container check and the switching-off of meshes, materials, images and
 * cameras before the loader runs (container.ts: so no DOM is touched), the
 * takes and their curves evaluated as FBX specifies (animation.ts, curves.ts:
 * the loader's own clips interpolate every key linearly), the skeleton (bones
 * in hierarchy order, names kept exactly or refused), the clip choice, and the
 * sampling: at each frame time every animated node is posed from its curves.
 *
 * Every joint's pose is read from the world matrices the mixer leaves: the
 * root's world rotation and position become joint 0's rotation and the root
 * translation; every other joint gets its rotation relative to its parent
 * joint and its offset in that joint's frame. Non-bone nodes between bones
 * (and above the root) are thus folded in, animated or not, and the motion's
 * forward kinematics puts every joint where the loader puts its bone.
 */
import type { EulerOrder, Object3D } from 'three';
import { FormatError, quoteJson } from '../../errors';
import { formatFps, snapFrameRate } from '../../motion/frameRate';
import { MotionFlag, copyJoints, emptyMotion } from '../../motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../mtn/constants';
import { validateMotion } from '../../mtn/validate';
import { chooseClip, type ClipInfo } from '../clips';
import { loadThreeLoaders, type ThreeLoaders } from '../loadThreeLoaders';
import { makeQuatsContinuous, quatMul, quatRotate, type Quat } from '../kinematics';
import { guessBodyParts, guessMirrorPairs } from '../mirror';
import { MAX_JOINT_NAME } from '../names';
import { importedSizeProblem, targetFrameCount } from '../resample';
import type { ImportOptions, ImportResult, InterchangeWarning } from '../types';
import { ANIMATED_PROPERTIES, type FbxAnimation, type FbxTake } from './animation';
import { readFbxContainer, type FbxSceneSettings } from './container';
import { evaluateCurve, FBX_TICKS, type CurveNotes } from './curves';

export interface FbxImportOptions extends ImportOptions {
  /** Animation clip (FBX AnimationStack) to import: its name, or its index (as a number or a digit string). Required when the file has several. */
  clip?: string | number;
}

/** A three.js object as FBXLoader builds it: `ID` is the FBX object id (absent on the group the loader adds around the scene). */
type FbxObject = Object3D & { ID?: number; isBone?: boolean };

/** What the loader keeps of a model's transform (userData.transformData): degrees, file units, a three.js Euler order. */
interface TransformData {
  eulerOrder?: string;
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  preRotation?: number[];
  postRotation?: number[];
  inheritType?: number;
  rotationOffset?: number[];
  rotationPivot?: number[];
  scalingOffset?: number[];
  scalingPivot?: number[];
}

interface LoadedFbx {
  settings: FbxSceneSettings;
  /** What FBXLoader warned about while reading (an ignored animation layer, an unused curve), for the import's warnings. */
  notes: string[];
  root: FbxObject;
  animation: FbxAnimation;
}

/** Lists the animation clips (AnimationStacks) of an FBX file (empty when it has none). */
export async function listFbxClips(bytes: Uint8Array): Promise<ClipInfo[]> {
  return clipInfos(loadFbx(await loadThreeLoaders(), bytes).animation.takes);
}

/**
 * Imports one clip of an FBX file as a motion at `options.fps` (default 30).
 * Positions are converted to centimetres with the file's UnitScaleFactor, then
 * multiplied by `options.scale`. Errors: FormatError kind 'FBX' (see the
 * module comment of container.ts and docs/import.md for the list);
 * ClipChoiceError when several clips exist and none was chosen.
 */
export async function importFbx(bytes: Uint8Array, options: FbxImportOptions = {}): Promise<ImportResult> {
  // three.js comes through the lazy chunk (loadThreeLoaders.ts), so a run that imports no FBX never loads it.
  const three = await loadThreeLoaders();
  const { Euler, Matrix4, Quaternion, Vector3 } = three;
  const fps = options.fps ?? 30;
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a number > 0, got ${fps}`);
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`scale must be a number > 0, got ${scale}`);
  const { settings, root, animation, notes } = loadFbx(three, bytes);
  restoreFlatRestPoses(root, three);
  const warnings: InterchangeWarning[] = notes.map((message) => ({ code: 'loader', message }));

  // The skeleton: every bone, parents first. The loader duplicates a bone shared by several skins as its own child (same ID): skipped.
  const bones: FbxObject[] = [];
  root.traverse((o: FbxObject) => {
    if (o.isBone && !((o.parent as FbxObject | null)?.isBone && (o.parent as FbxObject).ID === o.ID)) bones.push(o);
  });
  if (!bones.length)
    throw new FormatError(
      'FBX',
      'the file has no skeleton (no LimbNode bones): only skeletal animation can become a motion',
      { where: 'Objects' },
    );
  const isJoint = new Set<Object3D>(bones);
  const jointAncestor = (o: Object3D): Object3D | null => {
    for (let a = o.parent; a; a = a.parent) if (isJoint.has(a)) return a;
    return null;
  };
  let rootJoint: FbxObject;
  const roots = bones.filter((b) => jointAncestor(b) === null);
  if (roots.length === 1) rootJoint = roots[0];
  else {
    // Several top bones: their lowest common ancestor node in the file becomes the root joint (as an armature is).
    const chain = (o: Object3D) => {
      const c: FbxObject[] = [];
      for (let a = o.parent as FbxObject | null; a; a = a.parent as FbxObject | null) c.push(a);
      return c;
    };
    const common = chain(roots[0]).find((a) => a.ID !== undefined && roots.every((r) => chain(r).includes(a)));
    const shown =
      roots
        .slice(0, 8)
        .map((r) => quoteJson(nameOf(r)))
        .join(', ') + (roots.length > 8 ? ', ...' : '');
    if (!common)
      throw new FormatError(
        'FBX',
        `the file has ${roots.length} separate skeletons (root bones ${shown}) with no common parent node; export one character per file`,
        { where: 'Objects' },
      );
    warnings.push({
      code: 'root-added',
      message: `the skeleton has ${roots.length} root bones (${shown}); their common parent node ${quoteJson(nameOf(common))} becomes the root joint`,
    });
    isJoint.add(common);
    rootJoint = common;
  }
  const order: FbxObject[] = [];
  rootJoint.traverse((o: FbxObject) => {
    if (isJoint.has(o)) order.push(o);
  });
  const J = order.length;
  if (J > MTN_MAX_JOINTS)
    throw new FormatError('FBX', `the skeleton has ${J} joints; a motion holds at most ${MTN_MAX_JOINTS}`, {
      where: 'Objects',
    });
  const jointIndex = new Map<Object3D, number>(order.map((o, j) => [o, j]));
  const parents = order.map((o, j) => (j === 0 ? -1 : (jointIndex.get(jointAncestor(o) as Object3D) as number)));
  const names = order.map(nameOf);
  checkJointNames(names);

  // The clip.
  const infos = clipInfos(animation.takes);
  if (!infos.length)
    throw new FormatError(
      'FBX',
      'the file has no animation (no AnimationStack with curves): there is no clip to import',
      { where: 'AnimationStack' },
    );
  const clipIndex = chooseClip(infos, options.clip, 'FBX', 'AnimationStack');
  const take = animation.takes[clipIndex];
  const clipName = infos[clipIndex].name;
  // The loader's node of every model (a bone shared by several skins is duplicated as its own child: the first).
  const nodeOf = new Map<number, FbxObject>();
  root.traverse((o: FbxObject) => {
    if (o.ID !== undefined && !nodeOf.has(o.ID)) nodeOf.set(o.ID, o);
  });
  const posed = posedChannels(take, nodeOf, three);
  // Which nodes the clip moves: a skeletal clip moves a joint or a node above one.
  const moved = new Set(posed.map((c) => c.node));
  const posesJoints = order.some((o) => {
    for (let a: Object3D | null = o; a; a = a.parent) if (moved.has(a)) return true;
    return false;
  });
  if (!posesJoints)
    throw new FormatError(
      'FBX',
      `clip ${quoteJson(clipName)} animates none of the skeleton's bones (nor a node above them): it is not a skeletal clip`,
      { where: `AnimationStack ${quoteJson(clipName)}` },
    );
  const pivoted = pivotedNodes(moved);

  // Timing: from the take's first key to its last, at the target rate; a frame within 1e-3 frame of a key takes it.
  const t0 = take.firstTick;
  const t1 = Math.max(t0, take.lastTick);
  const N = targetFrameCount((t1 - t0) / FBX_TICKS, fps);
  if (N > MTN_MAX_FRAMES)
    throw new FormatError(
      'FBX',
      `${((t1 - t0) / FBX_TICKS).toFixed(2)} s at ${fps} fps is ${N} frames; a motion holds at most ${MTN_MAX_FRAMES} (lower --fps)`,
      { where: `AnimationStack ${quoteJson(clipName)}` },
    );
  const tooLarge = importedSizeProblem(N, J);
  if (tooLarge)
    throw new FormatError('FBX', `${((t1 - t0) / FBX_TICKS).toFixed(2)} s at ${fps} fps: ${tooLarge}`, {
      where: `AnimationStack ${quoteJson(clipName)}`,
    });
  let sourceRate: number | undefined;
  if (settings.frameRate !== undefined) {
    const snapped = snapFrameRate(settings.frameRate);
    sourceRate = snapped.rate;
    if (snapped.snappedFrom !== undefined)
      warnings.push({
        code: 'rate-snapped',
        message: `the scene frame rate ${formatFps(snapped.snappedFrom)} fps is within 0.01% of ${sourceRate} fps: read as exactly ${sourceRate} fps`,
      });
  }

  const mirror = guessMirrorPairs(names);
  const parts = guessBodyParts(names, parents);
  const joints = copyJoints(
    names.map((name, j) => ({ name, parent: parents[j], mirror: mirror[j], part: parts[j], reserved: 0 })),
  );
  const m = emptyMotion(N, joints, fps);
  const unit = settings.unitScaleFactor * scale;

  // Every model the joints' poses depend on (the joints and the nodes above them), for the InheritType check.
  const chain = new Set<FbxObject>();
  for (const joint of order)
    for (let a: FbxObject | null = joint; a && a.ID !== undefined; a = a.parent as FbxObject | null) chain.add(a);
  const curveNotes: CurveNotes = {};
  const snap = (1e-3 * FBX_TICKS) / fps;
  const euler = new Euler();
  const worldPos = new Float64Array(J * 3);
  const worldRot = new Float64Array(J * 4);
  const worldScale = new Float64Array(J * 3);
  const firstScale = new Float64Array(J * 3);
  const p = new Vector3(),
    q = new Quaternion(),
    s = new Vector3(),
    mat = new Matrix4();
  let offsetsMove = false;
  const scaleIssues = new Set<number>();
  const value = [0, 0, 0];
  for (let f = 0; f <= N; f++) {
    const t = Math.min(t0 + (f * FBX_TICKS) / fps, t1);
    for (const c of posed) {
      for (let k = 0; k < 3; k++) {
        const axis = c.axes[k];
        value[k] = typeof axis === 'object' ? evaluateCurve(axis, t, snap, curveNotes) : (axis ?? c.rest[k]);
      }
      const pivots = pivoted.get(c.node);
      if (c.property === 'position') (pivots ? pivots.translation : c.node.position).fromArray(value);
      else if (c.property === 'scale') c.node.scale.fromArray(value);
      else {
        // As the loader composes a rotation key: pre * R(order) * post^-1, pre and post in XYZ order.
        euler.set((value[0] * Math.PI) / 180, (value[1] * Math.PI) / 180, (value[2] * Math.PI) / 180, c.order);
        c.node.quaternion.setFromEuler(euler);
        if (c.pre) c.node.quaternion.premultiply(c.pre);
        if (c.postInverse) c.node.quaternion.multiply(c.postInverse);
      }
    }
    for (const [node, pv] of pivoted) placeAboutPivots(node, pv);
    root.updateMatrixWorld(true);
    refuseInheritedScale(chain, animation, f, three);
    for (let j = 0; j < J; j++) {
      mat.copy(order[j].matrixWorld).decompose(p, q, s);
      // A bone scaled to zero (hidden, as animators do with a prop's bone), or below one, has no rotation in its
      // world matrix, which three.js decomposes as no turn and scale 1 (so every such frame read as the rest
      // pose, silently). A bone below one scaled to zero along one axis only has a world matrix of rank 2 whose
      // determinant rounds to a tiny number rather than 0, which decomposes as a wrong turn: flat too. Its rotation is then the product of its own and its ancestors' rotations, as the curves
      // give them, and its scale is reported.
      const flat = isFlat(mat.elements);
      if (flat) {
        q.identity();
        for (let a: Object3D | null = order[j]; a; a = a.parent) q.premultiply(a.quaternion);
        s.set(0, 0, 0);
      }
      worldPos.set([p.x, p.y, p.z], j * 3);
      worldRot.set([q.x, q.y, q.z, q.w], j * 4);
      worldScale.set([s.x, s.y, s.z], j * 3);
      const par = parents[j];
      const base = (f * J + j) * 4;
      if (par < 0) {
        m.rotation.set([q.x, q.y, q.z, q.w], base);
        m.translation.set([p.x * unit, p.y * unit, p.z * unit, 0], f * 4);
      } else {
        const inv: Quat = [-worldRot[par * 4], -worldRot[par * 4 + 1], -worldRot[par * 4 + 2], worldRot[par * 4 + 3]];
        m.rotation.set(quatMul(inv, [q.x, q.y, q.z, q.w]), base);
        const o = quatRotate(inv, [p.x - worldPos[par * 3], p.y - worldPos[par * 3 + 1], p.z - worldPos[par * 3 + 2]]);
        m.offset.set([o[0] * unit, o[1] * unit, o[2] * unit, 0], base);
        if (f > 0)
          for (let c = 0; c < 3; c++)
            if (Math.abs(m.offset[base + c] - m.offset[j * 4 + c]) > 1e-4 * (1 + Math.abs(m.offset[j * 4 + c])))
              offsetsMove = true;
      }
      // Motions carry no scale: a joint whose world scale is not uniform, or changes, is reported.
      const [sx, sy, sz] = [s.x, s.y, s.z];
      if (f === 0) firstScale.set([sx, sy, sz], j * 3);
      const off = (a: number, b: number) => Math.abs(a - b) > 1e-4 * Math.max(Math.abs(a), Math.abs(b));
      if (
        flat ||
        off(sx, sy) ||
        off(sx, sz) ||
        off(sx, firstScale[j * 3]) ||
        off(sy, firstScale[j * 3 + 1]) ||
        off(sz, firstScale[j * 3 + 2])
      )
        scaleIssues.add(j);
    }
  }
  if (curveNotes.auto) {
    const { label, key, seconds, curves } = curveNotes.auto;
    warnings.push({
      code: 'keys-interpolated',
      message: `${curves.size > 1 ? `${curves.size} curves with auto tangents, ${label} the first,` : `curve ${label} with auto tangents`} shape frames between keys (key ${key} at ${seconds.toFixed(3)} s): FBX derives an auto key's slope from its neighbours as a cardinal spline, which ActGuy evaluates (flat at the first and last key, and at a peak when clamped), but the FBX SDK does not document its clamping, so those frames may differ slightly from your animation tool; import at the file's frame rate with the animation baked (a key every frame) for an exact import`,
    });
  }
  makeQuatsContinuous(m.rotation, N + 1, J);
  if (offsetsMove || options.offsets) m.flags |= MotionFlag.OFFSETS;
  if (scaleIssues.size) {
    const listed =
      [...scaleIssues]
        .slice(0, 6)
        .map((j) => quoteJson(names[j]))
        .join(', ') + (scaleIssues.size > 6 ? ', ...' : '');
    warnings.push({
      code: 'scale-unsupported',
      message: `${scaleIssues.size} joint(s) (${listed}) are scaled unevenly or their scale is animated in clip ${quoteJson(clipName)}; motions carry no scale, so positions are kept and the scale is dropped`,
    });
  }
  // A damaged transform (a NaN in a rest pose, a zero scale) poses a joint nowhere: said per joint, not as a bad MTN.
  for (const [what, arr, perFrame] of [
    ['rotation', m.rotation, J],
    ['offset', m.offset, J],
    ['root translation', m.translation, 1],
  ] as const) {
    const i = arr.findIndex((v) => !Number.isFinite(v));
    if (i >= 0) {
      const f = Math.floor(i / 4 / perFrame),
        j = perFrame === 1 ? 0 : Math.floor(i / 4) % J;
      throw new FormatError(
        'FBX',
        `the ${what} of joint ${quoteJson(names[j])} at frame ${f} is not a finite number: the bone's transform in the file is damaged`,
        { where: `bone ${j} ${quoteJson(names[j])}` },
      );
    }
  }
  validateMotion(m);

  const unitWords =
    settings.unitScaleFactor === 1
      ? 'centimetres'
      : settings.unitScaleFactor === 100
        ? 'metres'
        : settings.unitScaleFactor === 2.54
          ? 'inches'
          : `${settings.unitScaleFactor} cm`;
  const summary =
    `clip ${quoteJson(clipName)} (${clipIndex + 1} of ${infos.length}), ${bones.length} bones, ${((t1 - t0) / FBX_TICKS).toFixed(2)} s${sourceRate !== undefined ? ` at ${formatFps(sourceRate)} fps` : ''}; ` +
    `file unit ${unitWords} (UnitScaleFactor ${settings.unitScaleFactor}), positions x ${Number(unit.toPrecision(6))} to centimetres${scale !== 1 ? ` (unit x --scale ${scale})` : ''}`;
  return { motion: m, warnings, summary, clip: clipName };
}

/** One animated property of a node, with what posing it needs beyond the curves. */
interface PosedChannel {
  node: FbxObject;
  property: 'position' | 'rotation' | 'scale';
  axes: FbxTake['channels'][number]['axes'];
  /** The model's own value of the property, for an axis with neither curve nor curve node value. */
  rest: number[];
  order: EulerOrder;
  pre?: InstanceType<ThreeLoaders['Quaternion']>;
  postInverse?: InstanceType<ThreeLoaders['Quaternion']>;
}

/** The take's channels on nodes the loader built (a curve on a model it skipped poses nothing, as in the loader). */
function posedChannels(take: FbxTake, nodeOf: Map<number, FbxObject>, three: ThreeLoaders): PosedChannel[] {
  const { Euler, Quaternion } = three;
  const xyz = (deg: number[]) => {
    const [x, y, z] = deg.map((d) => (d * Math.PI) / 180);
    return new Quaternion().setFromEuler(new Euler(x, y, z, 'ZYX'));
  };
  const out: PosedChannel[] = [];
  for (const c of take.channels) {
    const node = nodeOf.get(c.model);
    if (!node) continue;
    const data = (node.userData as { transformData?: TransformData }).transformData ?? {};
    const property = ANIMATED_PROPERTIES[c.property];
    const rest =
      property === 'position'
        ? (data.translation ?? [0, 0, 0])
        : property === 'scale'
          ? (data.scale ?? [1, 1, 1])
          : (data.rotation ?? [0, 0, 0]);
    out.push({
      node,
      property,
      axes: c.axes,
      rest: rest.map(Number),
      order: (data.eulerOrder ?? 'ZYX') as EulerOrder,
      pre: data.preRotation && xyz(data.preRotation),
      postInverse: data.postRotation && xyz(data.postRotation).invert(),
    });
  }
  return out;
}

const INHERIT_NAMES = ['RrSs', 'RSrs', 'Rrs'];

/**
 * Three.js (like the motion's own kinematics) applies a parent's whole matrix to its children: FBX's InheritType 1
 * (RSrs). FBX's default RrSs (0) applies the parent's scale after the child's rotation, and Rrs (2) leaves the
 * parent's own scale out of the child's; both give the same pose as RSrs while every parent's scale is even and, for
 * Rrs, the parent's own scale is 1. Otherwise the node's pose would be another than the file's: refused, naming it.
 */
function refuseInheritedScale(
  chain: Set<FbxObject>,
  animation: FbxAnimation,
  frame: number,
  three: ThreeLoaders,
): void {
  const { Matrix4, Quaternion, Vector3 } = three;
  const p = new Vector3(),
    q = new Quaternion(),
    s = new Vector3();
  const off = (a: number, b: number) => Math.abs(a - b) > 1e-4 * Math.max(Math.abs(a), Math.abs(b));
  for (const node of chain) {
    const parent = node.parent as FbxObject | null;
    if (!parent || parent.ID === undefined) continue;
    const inherit = animation.models.get(node.ID!)?.inheritType ?? 0;
    const loaderInherit = (node.userData as { transformData?: TransformData }).transformData?.inheritType ?? 0;
    if (inherit === 1 && loaderInherit === 1) continue;
    new Matrix4().copy(parent.matrixWorld).decompose(p, q, s);
    const uneven = off(s.x, s.y) || off(s.x, s.z);
    const own = parent.scale;
    const scaled = (inherit === 2 || loaderInherit === 2) && [own.x, own.y, own.z].some((v) => off(v, 1));
    if (!uneven && !scaled) continue;
    const v = (x: Object3D['scale']) => [x.x, x.y, x.z].map((n) => Number(n.toPrecision(4))).join(', ');
    throw new FormatError(
      'FBX',
      `node ${quoteJson(nameOf(node))} inherits its parent's scale as ${INHERIT_NAMES[inherit] ?? '?'} (InheritType ${inherit}) and its parent ${quoteJson(nameOf(parent))} is ${uneven ? `scaled unevenly in the scene (${v(s)})` : `scaled (${v(own)})`} at frame ${frame}: ActGuy poses every node as RSrs (InheritType 1), which places this one otherwise; remove that scale (or set the node's InheritType to RSrs) and export again`,
      { where: `Model ${quoteJson(nameOf(node))} InheritType` },
    );
  }
}

/** The loader's names of the FBX node properties that move a node's rotation and scaling centre (docs/import.md). */
const PIVOT_PROPERTIES = ['rotationOffset', 'rotationPivot', 'scalingOffset', 'scalingPivot'] as const;

/** A node's pivots and offsets (zero where the file has none), and its translation at the frame being posed. */
interface Pivots {
  rotationOffset: Vec3Like;
  rotationPivot: Vec3Like;
  scalingOffset: Vec3Like;
  scalingPivot: Vec3Like;
  translation: Vec3Like;
}
type Vec3Like = InstanceType<ThreeLoaders['Vector3']>;

/**
 * The animated nodes with a pivot or an offset (3ds Max, Maya "Preserve pivots"). The loader honours them in a
 * node's rest transform only: its tracks set the position to the translation curve and turn the node about its
 * origin. Such a node is posed here instead (placeAboutPivots), its translation kept apart from its position.
 */
function pivotedNodes(moved: Set<FbxObject>): Map<FbxObject, Pivots> {
  const out = new Map<FbxObject, Pivots>();
  for (const node of moved) {
    const data = (node.userData as { transformData?: TransformData }).transformData ?? {};
    if (PIVOT_PROPERTIES.every((key) => !data[key] || data[key].every((x) => Number(x) === 0))) continue;
    const v = (a: number[] | undefined) => node.position.clone().fromArray((a ?? [0, 0, 0]).map(Number));
    out.set(node, {
      rotationOffset: v(data.rotationOffset),
      rotationPivot: v(data.rotationPivot),
      scalingOffset: v(data.scalingOffset),
      scalingPivot: v(data.scalingPivot),
      translation: v(data.translation),
    });
  }
  return out;
}

/**
 * Places a node as FBX does, at T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1: its rotation
 * (pre * R * post^-1, as posed) and scale stay; its position becomes T + Roff + Rp + Rrot (Soff + Sp - Rp - S Sp).
 */
function placeAboutPivots(node: FbxObject, pv: Pivots): void {
  const inner = node.position
    .copy(pv.scalingPivot)
    .multiply(node.scale)
    .negate()
    .add(pv.scalingOffset)
    .add(pv.scalingPivot)
    .sub(pv.rotationPivot)
    .applyQuaternion(node.quaternion);
  inner.add(pv.translation).add(pv.rotationOffset).add(pv.rotationPivot);
}

/**
 * Whether a world matrix (column-major, affine) has no volume: its determinant is 0, or below 1e-9 of the product of
 * its column lengths (a rank-2 matrix's determinant rounds to about 1e-17 of it; the least even scale keeps 1).
 */
function isFlat(e: ArrayLike<number>): boolean {
  const det =
    e[0] * (e[5] * e[10] - e[6] * e[9]) - e[4] * (e[1] * e[10] - e[2] * e[9]) + e[8] * (e[1] * e[6] - e[2] * e[5]);
  const size = Math.hypot(e[0], e[1], e[2]) * Math.hypot(e[4], e[5], e[6]) * Math.hypot(e[8], e[9], e[10]);
  return det === 0 || Math.abs(det) <= 1e-9 * size;
}

/**
 * A node whose rest scale (Lcl Scaling) has a zero axis composes to a flat matrix, which the loader decomposes as no
 * turn and scale 1: the zero scale and the rest rotation were lost, and every node below it lost its rest rotation and
 * translation too (its parent's flat world matrix inverts to nothing). Such nodes get their local pose from the file
 * here, as FBX composes it (RSrs, as every node is posed): rotation pre * R * post^-1, scale S, position T + Roff + Rp
 * + Rrot (Soff + Sp - Rp - S Sp). Other nodes keep the loader's pose.
 */
function restoreFlatRestPoses(root: FbxObject, { Euler, Quaternion }: ThreeLoaders): void {
  const dataOf = (o: Object3D) => (o.userData as { transformData?: TransformData }).transformData;
  const flat = (o: Object3D) => (dataOf(o)?.scale ?? [1, 1, 1]).some((x) => Number(x) === 0);
  const xyz = (deg: number[], order: string) => {
    const [x, y, z] = deg.map((d) => (Number(d) * Math.PI) / 180);
    return new Quaternion().setFromEuler(new Euler(x, y, z, order as EulerOrder));
  };
  const redo: FbxObject[] = [];
  root.traverse((node: FbxObject) => {
    if (!dataOf(node)) return;
    for (let a: Object3D | null = node; a; a = a.parent) if (flat(a)) return void redo.push(node);
  });
  for (const node of redo) {
    const data = dataOf(node)!;
    node.quaternion.copy(xyz(data.rotation ?? [0, 0, 0], data.eulerOrder ?? 'ZYX'));
    if (data.preRotation) node.quaternion.premultiply(xyz(data.preRotation, 'ZYX'));
    if (data.postRotation) node.quaternion.multiply(xyz(data.postRotation, 'ZYX').invert());
    node.scale.fromArray((data.scale ?? [1, 1, 1]).map(Number));
    const v = (a: number[] | undefined) => node.position.clone().fromArray((a ?? [0, 0, 0]).map(Number));
    placeAboutPivots(node, {
      rotationOffset: v(data.rotationOffset),
      rotationPivot: v(data.rotationPivot),
      scalingOffset: v(data.scalingOffset),
      scalingPivot: v(data.scalingPivot),
      translation: v(data.translation),
    });
  }
}

/** The name a node has in the file (the loader keeps it as `originalName`; its own `name` is sanitised for track binding). */
function nameOf(o: Object3D): string {
  const original = (o.userData as { originalName?: unknown }).originalName;
  return typeof original === 'string' ? original : o.name;
}

/**
 * MTN joint names are 1-31 printable ASCII characters and, to find joints by
 * name (mirror pairs, the glTF round trip), unique. A bone name outside that
 * is refused with what to rename it to, never changed silently.
 */
function checkJointNames(names: readonly string[]): void {
  const seen = new Map<string, number>();
  names.forEach((name, j) => {
    const where = { where: `bone ${j} ${quoteJson(name)}` };
    const bad = /[^\x20-\x7e]/.exec(name);
    const fix = (suggestion: string) =>
      `rename the bone in your animation tool (for example to ${quoteJson(suggestion)}) and export again`;
    if (name === '')
      throw new FormatError('FBX', `bone ${j} has no name; MTN joints need names: ${fix(`joint${j}`)}`, where);
    if (bad) {
      const code = name.codePointAt(bad.index)!;
      const suggestion = name.replace(/[^\x20-\x7e]/g, '_').slice(0, MAX_JOINT_NAME);
      throw new FormatError(
        'FBX',
        `bone name ${quoteJson(name)} has the character ${quoteJson(String.fromCodePoint(code))} (U+${code.toString(16).toUpperCase().padStart(4, '0')}); MTN joint names are printable ASCII: ${fix(suggestion)}`,
        where,
      );
    }
    if (name.length > MAX_JOINT_NAME)
      throw new FormatError(
        'FBX',
        `bone name ${quoteJson(name)} is ${name.length} characters; MTN joint names are at most ${MAX_JOINT_NAME}: ${fix(name.slice(0, MAX_JOINT_NAME))}`,
        where,
      );
    const earlier = seen.get(name);
    if (earlier !== undefined)
      throw new FormatError(
        'FBX',
        `bones ${earlier} and ${j} are both named ${quoteJson(name)}; MTN joint names must differ: ${fix(`${name.slice(0, MAX_JOINT_NAME - 2)}_2`)}`,
        where,
      );
    seen.set(name, j);
  });
}

function clipInfos(takes: FbxTake[]): ClipInfo[] {
  return takes.map((t, i) => ({
    index: i,
    name: t.name,
    duration: Number.isFinite(t.firstTick) ? (t.lastTick - t.firstTick) / FBX_TICKS : 0,
  }));
}

/** Checks and prepares the container, then runs FBXLoader; anything the loader throws is a FormatError naming it. */
function loadFbx({ FBXLoader }: ThreeLoaders, bytes: Uint8Array): LoadedFbx {
  const { settings, forLoader, animation } = readFbxContainer(bytes);
  let root: FbxObject;
  // The loader tells what it skipped through console.warn; those lines become import warnings (the console is restored at once: parse is synchronous).
  const host = globalThis as { console?: { warn: (...a: unknown[]) => void } };
  const notes: string[] = [];
  const warn = host.console?.warn;
  if (host.console)
    host.console.warn = (...a: unknown[]) => {
      const line = `three.js FBXLoader: ${String(a[0]).replace(/^THREE\.FBXLoader:\s*/, '')}`;
      if (!notes.includes(line) && notes.length < 20) notes.push(line);
    };
  try {
    root = new FBXLoader().parse(forLoader, '');
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new FormatError(
      'FBX',
      `three.js FBXLoader could not read the file (${detail.replace(/^THREE\.FBXLoader:\s*/, '')}): it is damaged, or uses something the loader does not support`,
      { where: 'FBXLoader' },
    );
  } finally {
    if (host.console && warn) host.console.warn = warn;
  }
  return { settings, root, animation, notes };
}
