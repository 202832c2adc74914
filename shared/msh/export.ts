/**
 * MTN -> MSH animation (docs/formats.md 7): one node per joint,
 * the root's position track carrying the root translation and the other
 * nodes' positions their joint offsets. Each node's track is fitted by the
 * same greedy max-error insertion as MT3, with this format's interpolation:
 * keys at integer frames, lerp positions and slerp rotations between them.
 * The error is measured with the MSH sampler on the values as written
 * (float32 positions, s16 quaternions), at every frame 0..N.
 */
import { FormatError } from '../errors';
import type { Motion } from '../motion/types';
import { MSH_NO_MAP, MSH_QUAT_SCALE } from './constants';
import { mshSegmentSampler, sampleMshNode } from './sample';
import type { MshAnimation, MshKey, MshNode } from './types';
import { validateMshAnimation } from './validate';
import { SegmentHeap } from '../compress/heap';

export interface MshExportOptions {
  /** Position tolerance (root translation and joint offsets), motion units, Euclidean. */
  positionTolerance: number;
  /** Rotation tolerance, degrees (2 acos |dot|). */
  rotationToleranceDeg: number;
  /** Per-joint rotation tolerance overrides in degrees, by joint index (as for MT3). */
  rotationToleranceOverridesDeg?: Record<number, number>;
}

/** What the fit achieved for one node. */
export interface MshNodeReport {
  name: string;
  keys: number;
  /** Largest error over frames 0..N of the written track. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  positionTolerance: number;
  rotationToleranceDeg: number;
  /** True when even a key on every frame cannot meet a tolerance (float32 / s16 precision). */
  unmet: boolean;
}

export interface MshExportResult {
  animation: MshAnimation;
  nodes: MshNodeReport[];
  totalKeys: number;
  /** Nodes whose tolerance the stored precision cannot meet, in words. */
  warnings: string[];
}

/** A key as written: float32 position and time, s16 quaternion (w, x, y, z). */
function writtenKey(motion: Motion, node: number, frame: number): MshKey {
  const J = motion.joints.length;
  const p =
    node === 0
      ? motion.translation.subarray(frame * 4, frame * 4 + 3)
      : motion.offset.subarray((frame * J + node) * 4, (frame * J + node) * 4 + 3);
  const q = motion.rotation.subarray((frame * J + node) * 4, (frame * J + node) * 4 + 4);
  // An MTN quaternion need not have length 1 (docs/formats.md 1): the s16 components hold the unit one. Unscaled,
  // a length of 2 clamped every component to +-1 (28.7 deg off at every key on a 40 deg swing) and a length of
  // 0.01 kept 1/100 of s16's precision.
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const s16 = (c: number) => Math.max(-MSH_QUAT_SCALE, Math.min(MSH_QUAT_SCALE, Math.round((c / n) * MSH_QUAT_SCALE)));
  return {
    position: [Math.fround(p[0]), Math.fround(p[1]), Math.fround(p[2])],
    time: frame,
    quatWXYZ: [s16(q[3]), s16(q[0]), s16(q[1]), s16(q[2])],
  };
}

/** Frame map of one canonical track over frames 0..S-1: word f = index (from `base`) of the last key with time <= f. */
function trackMap(frames: readonly number[], S: number, base: number, out: Uint16Array, at: number): void {
  let k = 0;
  for (let f = 0; f < S; f++) {
    while (k + 1 < frames.length && frames[k + 1] <= f) k++;
    out[at + f] = base + k;
  }
}

/**
 * Per-frame errors of a track (key frames sorted, ending at S-1 unless a
 * single static key) measured with sampleMshNode on a one-node animation.
 */
function trackErrors(
  motion: Motion,
  node: number,
  frames: readonly number[],
  S: number,
): { pos: Float64Array; rot: Float64Array } {
  const keys = frames.map((f) => writtenKey(motion, node, f));
  const animated = frames.length > 1;
  const mapWords = new Uint16Array(animated ? S : 0);
  if (animated) trackMap(frames, S, 0, mapWords, 0);
  const mini: MshAnimation = {
    keys,
    mapWords,
    frameCount: S,
    nodes: [{ name: '', parent: -1, animMapStart: animated ? 0 : MSH_NO_MAP, fallbackKey: keys.length - 1 }],
  };
  const J = motion.joints.length;
  const pos = new Float64Array(S);
  const rot = new Float64Array(S);
  for (let f = 0; f < S; f++) {
    const s = sampleMshNode(mini, 0, f);
    const src =
      node === 0
        ? motion.translation.subarray(f * 4, f * 4 + 3)
        : motion.offset.subarray((f * J + node) * 4, (f * J + node) * 4 + 3);
    pos[f] = Math.hypot(s.position[0] - src[0], s.position[1] - src[1], s.position[2] - src[2]);
    rot[f] = rotationDistanceDeg(s.rotation, motion.rotation.subarray((f * J + node) * 4, (f * J + node) * 4 + 4));
  }
  return { pos, rot };
}

/** 2 acos(|dot|) of the normalised quaternions, in degrees. */
export function rotationDistanceDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = Math.hypot(a[0], a[1], a[2], a[3]) || 1;
  const nb = Math.hypot(b[0], b[1], b[2], b[3]) || 1;
  const d = Math.abs((a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (na * nb));
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

/** Largest value of an array (a loop: spreading 65,536 values into Math.max is near the engine's argument limit). */
function maxOf(a: Float64Array): number {
  let m = 0;
  for (const v of a) m = Math.max(m, v);
  return m;
}

/**
 * Greedy max-error insertion for one node: returns its key frames and the errors they leave. A key at frame k
 * changes only the errors of the frames between its neighbours (sampleMshSegment), so only those are measured
 * again, and each segment's worst frame waits in a heap: measuring and scanning the whole track after each key made
 * a node of K keys cost K x N samples (a fast 2,000-frame swing with 1,714 keys took 24 s for one node). The keys
 * and errors are those of the whole-track measure.
 */
function fitTrack(
  motion: Motion,
  node: number,
  posTol: number,
  rotTol: number,
): { frames: number[]; maxPos: number; maxRot: number; unmet: boolean } {
  const S = motion.frameCount + 1;
  const ratio = (e: { pos: Float64Array; rot: Float64Array }, f: number) =>
    Math.max(
      posTol > 0 ? e.pos[f] / posTol : e.pos[f] > 0 ? Infinity : 0,
      rotTol > 0 ? e.rot[f] / rotTol : e.rot[f] > 0 ? Infinity : 0,
    );
  const worst = (e: { pos: Float64Array; rot: Float64Array }) => ({ maxPos: maxOf(e.pos), maxRot: maxOf(e.rot) });
  // A static node: one key at time 0 that meets both tolerances everywhere.
  const still = trackErrors(motion, node, [0], S);
  if (still.pos.every((_, f) => ratio(still, f) <= 1)) return { frames: [0], ...worst(still), unmet: false };
  const J = motion.joints.length;
  const e = { pos: new Float64Array(S), rot: new Float64Array(S) };
  // Each segment's worst frame over the tolerance, by ratio to it; the earlier frame on a tie (as a scan from frame
  // 0 taking only a strictly larger ratio).
  const heap = new SegmentHeap(S);
  /** Errors of frames a..b (keys at both), as the MSH sampler reads them between those two keys. */
  const measure = (a: number, b: number) => {
    const sample = mshSegmentSampler(writtenKey(motion, node, a), writtenKey(motion, node, b));
    for (let f = a; f <= b; f++) {
      const s = sample(f);
      const src =
        node === 0
          ? motion.translation.subarray(f * 4, f * 4 + 3)
          : motion.offset.subarray((f * J + node) * 4, (f * J + node) * 4 + 3);
      e.pos[f] = Math.hypot(s.position[0] - src[0], s.position[1] - src[1], s.position[2] - src[2]);
      e.rot[f] = rotationDistanceDeg(s.rotation, motion.rotation.subarray((f * J + node) * 4, (f * J + node) * 4 + 4));
    }
    let at = -1;
    let worstRatio = 1;
    for (let f = a + 1; f < b; f++) {
      const r = ratio(e, f);
      if (r > worstRatio) {
        worstRatio = r;
        at = f;
      }
    }
    heap.set(a, worstRatio, at);
  };
  const frames = [0, S - 1];
  measure(0, S - 1);
  while (heap.peek()) {
    const at = heap.topFrame;
    let lo = 0,
      hi = frames.length - 1; // frames[lo] < at < frames[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (frames[mid] < at) lo = mid;
      else hi = mid;
    }
    const i = hi;
    frames.splice(i, 0, at);
    measure(frames[i - 1], at);
    measure(at, frames[i + 1]);
  }
  // A key sits here and still misses: float32 / s16 precision.
  const unmet = frames.some((f) => !(ratio(e, f) <= 1));
  return { frames, ...worst(e), unmet };
}

/** One node's fit: its key frames and the errors they leave (fitTrack). */
export interface MshNodeFit {
  node: number;
  frames: number[];
  maxPos: number;
  maxRot: number;
  unmet: boolean;
}

function checkMshOptions(options: MshExportOptions): void {
  for (const [name, v] of [
    ['positionTolerance', options.positionTolerance],
    ['rotationToleranceDeg', options.rotationToleranceDeg],
  ] as const)
    if (!(Number.isFinite(v) && v >= 0))
      throw new FormatError('MSH', `${name} must be a finite number >= 0, got ${v}`, { where: 'export options' });
  // As compressMotion's: a NaN override made every frame of its node fail `error <= tolerance` and none pick a key
  // (NaN > worst is false), so the node kept its two end keys and reported NaN as its tolerance.
  for (const [j, v] of Object.entries(options.rotationToleranceOverridesDeg ?? {}))
    if (!(Number.isFinite(v) && v >= 0))
      throw new FormatError('MSH', `rotation tolerance override of joint ${j} must be a finite number >= 0, got ${v}`, {
        where: 'export options',
      });
}

// The two u16 refusals name the limit, not how far the fitting got: fitMshNodes refuses as soon as the nodes fitted
// so far pass it, and the build's pool fits a long motion's nodes in shares, so a count would differ with --jobs
// (docs/compression.md, round 13) while the output (nothing) does not.
function tooManyKeys(): FormatError {
  return new FormatError('MSH', 'more than 65535 keys: the u16 frame map holds no more; loosen the tolerances', {
    where: 'res8',
  });
}

function tooManyAnimatedNodes(S: number): FormatError {
  const most = Math.floor((MSH_NO_MAP - 1) / S);
  return new FormatError(
    'MSH',
    `more than ${most} animated nodes at ${S} frames: their map words pass anim_map_start's u16 (below 0xFFFF); loosen the tolerances or shorten the motion`,
    { where: 'res19' },
  );
}

/**
 * The u16 limits after a node, with the counts of the nodes before it and its own in skeleton order: the keys first,
 * then the map words. fitMshNodes refuses so as soon as the nodes fitted pass a limit, and exportMshAnimation walks the
 * fits it is given in the same order, so a motion past both limits is refused in the same words whether its nodes
 * were fitted at once or in shares (round 14: 01_03.bvh at 120 fps passed the map words at its 15th animated node
 * and the keys only later; the shares' merge checked the keys on the whole first and named them, one job the map).
 */
function checkMshLimits(keys: number, animated: number, S: number): void {
  if (keys > 0xffff) throw tooManyKeys();
  if (animated * S >= MSH_NO_MAP) throw tooManyAnimatedNodes(S);
}

/**
 * The fits of the nodes whose index `select` accepts (every node by default). Nodes are fitted independently, so
 * the build's pool fits a long motion's nodes in shares on its workers and exportMshAnimation puts them together.
 */
export function fitMshNodes(
  motion: Motion,
  options: MshExportOptions,
  select: (node: number) => boolean = () => true,
): MshNodeFit[] {
  checkMshOptions(options);
  const fits: MshNodeFit[] = [];
  const S = motion.frameCount + 1;
  let animated = 0,
    keys = 0;
  for (let j = 0; j < motion.joints.length; j++) {
    if (!select(j)) continue;
    const rotTol = options.rotationToleranceOverridesDeg?.[j] ?? options.rotationToleranceDeg;
    const fit = fitTrack(motion, j, options.positionTolerance, rotTol);
    fits.push({ node: j, ...fit });
    // The u16 limits exportMshAnimation checks on the whole, refused as soon as the nodes fitted so far pass them
    // (docs/compression.md#round-5-2026-12-05-motions-nobody-tuned-on: a 24-node chain of 8,001 frames fitted every
    // node, 9.6 s, before its refusal): the other nodes can only add to both counts.
    keys += fit.frames.length;
    if (fit.frames.length > 1) animated++;
    checkMshLimits(keys, animated, S);
  }
  return fits;
}

/**
 * Compresses a motion to an MSH animation in the writer canon, every node within its tolerances where precision
 * allows. With `fits` (fitMshNodes of these options, every node once, in any order), the nodes are not fitted
 * again: the result is the same.
 */
export function exportMshAnimation(motion: Motion, options: MshExportOptions, fits?: MshNodeFit[]): MshExportResult {
  checkMshOptions(options);
  const byNode = new Map((fits ?? fitMshNodes(motion, options)).map((f) => [f.node, f]));
  const S = motion.frameCount + 1;
  const keys: MshKey[] = [];
  const mapParts: { frames: number[]; base: number; node: number }[] = [];
  const nodes: MshNode[] = [];
  const reports: MshNodeReport[] = [];
  const warnings: string[] = [];
  motion.joints.forEach((joint, j) => {
    const rotTol = options.rotationToleranceOverridesDeg?.[j] ?? options.rotationToleranceDeg;
    const fit = byNode.get(j);
    if (!fit) throw new Error(`exportMshAnimation: no fit for node ${j}`);
    const base = keys.length;
    for (const f of fit.frames) keys.push(writtenKey(motion, j, f));
    const animated = fit.frames.length > 1;
    if (animated) mapParts.push({ frames: fit.frames, base, node: j });
    checkMshLimits(keys.length, mapParts.length, S);
    nodes.push({ name: joint.name, parent: joint.parent, animMapStart: MSH_NO_MAP, fallbackKey: keys.length - 1 });
    reports.push({
      name: joint.name,
      keys: fit.frames.length,
      maxPositionError: fit.maxPos,
      maxRotationErrorDeg: fit.maxRot,
      positionTolerance: options.positionTolerance,
      rotationToleranceDeg: rotTol,
      unmet: fit.unmet,
    });
    if (fit.unmet)
      warnings.push(
        `node ${j} (${joint.name}): a key on every frame still misses the tolerance (float32 / s16 precision): position ${fit.maxPos.toPrecision(3)}, rotation ${fit.maxRot.toPrecision(3)} deg`,
      );
  });
  const mapWords = new Uint16Array(mapParts.length * S);
  mapParts.forEach((part, i) => {
    trackMap(part.frames, S, part.base, mapWords, i * S);
    nodes[part.node].animMapStart = i * S;
  });
  const animation: MshAnimation = { keys, mapWords, frameCount: S, nodes };
  validateMshAnimation(animation);
  return { animation, nodes: reports, totalKeys: keys.length, warnings };
}
