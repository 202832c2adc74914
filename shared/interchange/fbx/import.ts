/**
 * FBX skeletal animation -> Motion (docs/import.md), with three.js's FBXLoader
 * for what it does well (binary and ASCII FBX 7.x, animation curves, Euler
 * orders, pre- and post-rotations) and its AnimationMixer for the pose at
 * each frame time. Hand-written around it: the container check and the
 * switching-off of meshes, materials, images and cameras before the loader
 * runs (container.ts: so no DOM is touched), the skeleton (bones in hierarchy
 * order, names kept exactly or refused), the clip choice, and the sampling.
 *
 * Every joint's pose is read from the world matrices the mixer leaves: the
 * root's world rotation and position become joint 0's rotation and the root
 * translation; every other joint gets its rotation relative to its parent
 * joint and its offset in that joint's frame. Non-bone nodes between bones
 * (and above the root) are thus folded in, animated or not, and the motion's
 * forward kinematics puts every joint where the loader puts its bone.
 */
import type { AnimationClip, Object3D } from 'three';
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
import { snapToKey, targetFrameCount } from '../resample';
import type { ImportOptions, ImportResult, InterchangeWarning } from '../types';
import { readFbxContainer, type FbxSceneSettings } from './container';

export interface FbxImportOptions extends ImportOptions {
  /** Animation clip (FBX AnimationStack) to import: its name, or its index (as a number or a digit string). Required when the file has several. */
  clip?: string | number;
}

/** A three.js object as FBXLoader builds it: `ID` is the FBX object id (absent on the group the loader adds around the scene). */
type FbxObject = Object3D & { ID?: number; isBone?: boolean };

interface LoadedFbx {
  settings: FbxSceneSettings;
  /** What FBXLoader warned about while reading (an ignored animation layer, an unused curve), for the import's warnings. */
  notes: string[];
  root: FbxObject;
  clips: AnimationClip[];
}

/** Lists the animation clips (AnimationStacks) of an FBX file (empty when it has none). */
export async function listFbxClips(bytes: Uint8Array): Promise<ClipInfo[]> {
  return clipInfos(loadFbx(await loadThreeLoaders(), bytes).clips);
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
  const { AnimationMixer, LoopOnce, Matrix4, Quaternion, Vector3 } = three;
  const fps = options.fps ?? 30;
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a number > 0, got ${fps}`);
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`scale must be a number > 0, got ${scale}`);
  const { settings, root, clips, notes } = loadFbx(three, bytes);
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
  const infos = clipInfos(clips);
  if (!infos.length)
    throw new FormatError(
      'FBX',
      'the file has no animation (no AnimationStack with curves): there is no clip to import',
      { where: 'AnimationStack' },
    );
  const clipIndex = chooseClip(infos, options.clip, 'FBX', 'AnimationStack');
  const clip = clips[clipIndex];
  const clipName = infos[clipIndex].name;
  // Which nodes the clip moves: a skeletal clip moves a joint or a node above one.
  const moved = new Set(clip.tracks.map((t) => t.name.slice(0, t.name.lastIndexOf('.'))));
  const posesJoints = order.some((o) => {
    for (let a: Object3D | null = o; a; a = a.parent) if (moved.has(a.name)) return true;
    return false;
  });
  if (!posesJoints)
    throw new FormatError(
      'FBX',
      `clip ${quoteJson(clipName)} animates none of the skeleton's bones (nor a node above them): it is not a skeletal clip`,
      { where: `AnimationStack ${quoteJson(clipName)}` },
    );
  refuseAnimatedPivots(order, moved, clipName);

  // Timing: from the clip's first key to its end, at the target rate; target times within 1e-3 frame of a key land on it.
  const keyTimes = [...new Set(clip.tracks.flatMap((t) => Array.from(t.times)))].sort((a, b) => a - b);
  const t0 = keyTimes.length ? keyTimes[0] : 0;
  const t1 = Math.max(t0, clip.duration);
  const N = targetFrameCount(t1 - t0, fps);
  if (N > MTN_MAX_FRAMES)
    throw new FormatError(
      'FBX',
      `${(t1 - t0).toFixed(2)} s at ${fps} fps is ${N} frames; a motion holds at most ${MTN_MAX_FRAMES} (lower --fps)`,
      { where: `AnimationStack ${quoteJson(clipName)}` },
    );
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

  const sparse = sparseRotationKeys(clip, order, t0, fps);
  if (sparse)
    warnings.push({
      code: 'keys-interpolated',
      message: `rotation keys of ${sparse.nodes > 1 ? `${sparse.nodes} nodes, "${sparse.name}" the most,` : quoteJson(sparse.name)} turn up to ${sparse.degrees.toFixed(1)} degrees from one key to the next with frames between (at ${sparse.at.toFixed(3)} s): between keys the motion turns the shortest way, where FBX curves interpolate each Euler angle along its tangents, so those frames may differ from your animation tool; export with the animation baked (a key every frame)`,
    });

  const mirror = guessMirrorPairs(names);
  const parts = guessBodyParts(names, parents);
  const joints = copyJoints(
    names.map((name, j) => ({ name, parent: parents[j], mirror: mirror[j], part: parts[j], reserved: 0 })),
  );
  const m = emptyMotion(N, joints, fps);
  const unit = settings.unitScaleFactor * scale;

  const mixer = new AnimationMixer(root);
  const action = mixer.clipAction(clip);
  action.setLoop(LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
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
  for (let f = 0; f <= N; f++) {
    const t = Math.min(snapToKey(keyTimes, t0 + f / fps, fps), t1);
    mixer.setTime(t);
    root.updateMatrixWorld(true);
    for (let j = 0; j < J; j++) {
      mat.copy(order[j].matrixWorld).decompose(p, q, s);
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
        off(sx, sy) ||
        off(sx, sz) ||
        off(sx, firstScale[j * 3]) ||
        off(sy, firstScale[j * 3 + 1]) ||
        off(sz, firstScale[j * 3 + 2])
      )
        scaleIssues.add(j);
    }
  }
  mixer.stopAllAction();
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
    `clip ${quoteJson(clipName)} (${clipIndex + 1} of ${infos.length}), ${bones.length} bones, ${(t1 - t0).toFixed(2)} s${sourceRate !== undefined ? ` at ${formatFps(sourceRate)} fps` : ''}; ` +
    `file unit ${unitWords} (UnitScaleFactor ${settings.unitScaleFactor}), positions x ${Number(unit.toPrecision(6))} to centimetres${scale !== 1 ? ` (unit x --scale ${scale})` : ''}`;
  return { motion: m, warnings, summary, clip: clipName };
}

/** The name a node has in the file (the loader keeps it as `originalName`; its own `name` is sanitised for track binding). */
/**
 * A key step above this many degrees, with target frames between the two keys, is said (docs/import.md): the mixer
 * interpolates the loader's rotation keys as quaternions, while FBX interpolates each Euler angle curve on its own
 * (linearly or along cubic tangents). Per-frame (baked) keys turn a few degrees a step and stay within hundredths of
 * a degree of the file; three rotation keys turning 40 to 120 degrees on every axis were 3 degrees off between keys.
 */
const SPARSE_KEY_DEGREES = 10;

/** The largest rotation key step of a joint or a node above one that has target frames between its keys, when above SPARSE_KEY_DEGREES. */
function sparseRotationKeys(
  clip: AnimationClip,
  order: Object3D[],
  t0: number,
  fps: number,
): { name: string; nodes: number; degrees: number; at: number } | undefined {
  const posing = new Map<string, Object3D>();
  for (const joint of order) for (let a: Object3D | null = joint; a; a = a.parent) posing.set(a.name, a);
  let worst: { name: string; nodes: number; degrees: number; at: number } | undefined;
  let nodes = 0;
  for (const track of clip.tracks) {
    const dot = track.name.lastIndexOf('.');
    const node = posing.get(track.name.slice(0, dot));
    if (!node || track.name.slice(dot + 1) !== 'quaternion') continue;
    const { times, values } = track;
    let most = 0,
      at = 0;
    for (let k = 0; k + 1 < times.length; k++) {
      const first = Math.ceil((times[k] - t0) * fps + 1e-3);
      if (first >= (times[k + 1] - t0) * fps - 1e-3) continue;
      let d = 0;
      for (let c = 0; c < 4; c++) d += values[k * 4 + c] * values[(k + 1) * 4 + c];
      const degrees = (2 * Math.acos(Math.min(1, Math.abs(d))) * 180) / Math.PI;
      if (degrees > most) [most, at] = [degrees, times[k]];
    }
    if (!(most > SPARSE_KEY_DEGREES)) continue;
    nodes++;
    if (!worst || most > worst.degrees) worst = { name: nameOf(node), nodes: 0, degrees: most, at };
  }
  return worst && { ...worst, nodes };
}

/** The FBX node properties that move a node's rotation and scaling centre (docs/import.md). */
const PIVOT_PROPERTIES = [
  ['rotationOffset', 'RotationOffset'],
  ['rotationPivot', 'RotationPivot'],
  ['scalingOffset', 'ScalingOffset'],
  ['scalingPivot', 'ScalingPivot'],
] as const;

/**
 * FBX places a node at T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1. The loader honours the
 * pivots and offsets in a node's rest transform, but the tracks it builds set the position to the translation
 * curve and turn the node about its origin, so an animated node with a pivot or offset (3ds Max, Maya "Preserve
 * pivots") would be placed wrongly on every frame, its bones away from where the authoring tool shows them.
 * Refused, naming the node and the property, rather than imported wrong.
 */
function refuseAnimatedPivots(order: Object3D[], moved: Set<string>, clipName: string): void {
  const seen = new Set<Object3D>();
  for (const joint of order)
    for (let a: Object3D | null = joint; a && !seen.has(a); a = a.parent) {
      seen.add(a);
      if (!moved.has(a.name)) continue;
      const data = (a.userData as { transformData?: Record<string, unknown> }).transformData ?? {};
      for (const [key, property] of PIVOT_PROPERTIES) {
        const v = data[key];
        if (!Array.isArray(v) || v.every((x) => x === 0)) continue;
        throw new FormatError(
          'FBX',
          `node ${quoteJson(nameOf(a))} is animated by clip ${quoteJson(clipName)} and has a ${property} of (${v.join(', ')}): animated nodes with pivots or offsets are not read; reset the pivots (or bake the animation without "Preserve pivots") and export again`,
          { where: `Model ${quoteJson(nameOf(a))} ${property}` },
        );
      }
    }
}

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

function clipInfos(clips: AnimationClip[]): ClipInfo[] {
  return clips.map((c, i) => {
    let t0 = Infinity;
    for (const tr of c.tracks) if (tr.times.length) t0 = Math.min(t0, tr.times[0]);
    return { index: i, name: c.name, duration: Number.isFinite(t0) ? Math.max(0, c.duration - t0) : 0 };
  });
}

/** Checks and prepares the container, then runs FBXLoader; anything the loader throws is a FormatError naming it. */
function loadFbx({ FBXLoader }: ThreeLoaders, bytes: Uint8Array): LoadedFbx {
  const { settings, forLoader } = readFbxContainer(bytes);
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
  // Key times must be finite and sorted for the mixer's interpolants, and key values finite.
  for (const clip of root.animations)
    for (const t of clip.tracks) {
      const where = { where: `AnimationStack ${quoteJson(clip.name)}` };
      for (let k = 0; k < t.times.length; k++)
        if (!Number.isFinite(t.times[k]) || (k > 0 && t.times[k] < t.times[k - 1]))
          throw new FormatError(
            'FBX',
            `clip ${quoteJson(clip.name)} track ${t.name} has key time ${t.times[k]}${k > 0 ? ` after ${t.times[k - 1]}` : ''}: key times must be finite and increasing`,
            where,
          );
      const bad = Array.prototype.findIndex.call(t.values, (v: number) => !Number.isFinite(v));
      if (bad >= 0)
        throw new FormatError(
          'FBX',
          `clip ${quoteJson(clip.name)} track ${t.name} has the key value ${t.values[bad]}: key values must be finite numbers`,
          where,
        );
    }
  return { settings, root, clips: root.animations, notes };
}
