import { FormatError } from '../errors';
import { encodeH16, QuantizeError } from '../math/half';
import { MotionFlag, type Motion } from '../motion/types';
import { mtnByteSize } from '../mtn/constants';
import { validateMotion } from '../mtn/validate';
import { writeMt3 } from '../mt3/write';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack, type TraceTrack } from '../mt3/types';
import { motionNameProblem } from '../motionName';
import { gvStrCode } from '../strcode';
import { channelSignature, CompressCache, type CachedChannel } from './cache';
import { defaultShell, objectSpaceError } from './objectError';
import { methodStrategy, type CompressStrategy } from './methods';
import { PositionFit } from './positionFit';
import type { TrackOutcome } from './track';
import {
  jointUserKeys,
  lockRanges,
  offsetSource,
  rotationSource,
  traceKeyFrames,
  translationSource,
  translationUserKeys,
} from './sources';
import {
  CompressAborted,
  type ChannelKind,
  type ChannelReport,
  type CompressOptions,
  type CompressResult,
  type CompressWarning,
} from './types';

const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/**
 * Compresses a motion to MT3 (docs/compression.md): one greedy track per channel,
 * user keys forced, gaps <= 255, trace keys from TRACE flags, lock ranges from
 * LOCK flags, offset tracks only with OFFSETS. Errors are those of the stored
 * (quantised) values under the reference decoder. Throws FormatError for a
 * motion that fails validation or holds a value h16 cannot store.
 *
 * With a `cache` (one per open motion), channels whose tolerance and user keys
 * are unchanged since the previous run are reused instead of recompressed.
 * `shouldStop` is asked before every channel; when it answers true the run
 * throws CompressAborted (the app's background refinement of an edit the user
 * has already replaced stops within one channel instead of finishing).
 */
export function compressMotion(
  motion: Motion,
  options: CompressOptions,
  cache?: CompressCache,
  shouldStop?: () => boolean,
): CompressResult {
  return compressMotionWith(methodStrategy(options.method), motion, options, cache, shouldStop);
}

/**
 * compressMotion with the keys chosen by `strategy` (compressMotion passes options.method's; the tests and the
 * bench pass the naive greedy's or the DP reference's).
 */
export function compressMotionWith(
  strategy: CompressStrategy,
  motion: Motion,
  options: CompressOptions,
  cache?: CompressCache,
  shouldStop?: () => boolean,
): CompressResult {
  const t0 = now();
  // The sample checks once per motion a cache has seen (an edit changes key info, never samples).
  validateMotion(motion, { samplesChecked: cache?.samplesChecked(motion) });
  checkTolerances(options);
  const shell = options.shell ?? defaultShell(motion);
  let result: CompressResult;
  if (options.objectTolerance === undefined) {
    result = compressChannels(motion, options, strategy, cache, shouldStop);
    result.objectError =
      options.measureObjectError === false ? null : objectSpaceError(motion, result.mt3, shell, cache?.objectMemo);
  } else {
    result = compressSkeletonAware(motion, options, options.objectTolerance, shell, strategy, cache, shouldStop);
  }
  result.ms = now() - t0;
  return result;
}

/** At most this many compress-and-check rounds in the skeleton-aware mode before the guaranteed allocation. */
export const SKELETON_ROUNDS = 6;
/**
 * The skeleton-aware start is this many times the guaranteed allocation:
 * errors of a chain's joints rarely line up, so the first round usually holds
 * with looser tolerances and rounds that do not hold only tighten the chains
 * that went over.
 */
const SKELETON_OPTIMISM = 3;

/**
 * Skeleton-aware mode (docs/compression.md): per-joint rotation tolerances derived
 * from the chain so that the object-space error (FK at the joints and their
 * virtual points) stays within `objectTolerance`.
 *
 * A rotation error theta at joint j moves a point at distance r from it by at
 * most theta r, and errors along a chain add, so with reach_j (the longest
 * path from j to a descendant's virtual point) and chain_j (the most joints on
 * a root-to-leaf chain through j), theta_j = D_rot / (chain_j reach_j) bounds
 * every point by D_rot (plus the root translation and offset tolerances, which
 * take the rest of D). That bound is pessimistic, so the mode starts at
 * SKELETON_OPTIMISM times it, checks FK, and scales down the joints on the
 * chains of every joint that went over, by how much it went over, until the
 * check holds; after SKELETON_ROUNDS it falls back to the guaranteed
 * allocation.
 */
function compressSkeletonAware(
  motion: Motion,
  options: CompressOptions,
  objectTolerance: number,
  shell: number,
  strategy: CompressStrategy,
  cache: CompressCache | undefined,
  shouldStop: (() => boolean) | undefined,
): CompressResult {
  const J = motion.joints.length;
  const hasOffsets = (motion.flags & MotionFlag.OFFSETS) !== 0;
  const { reach, chain, depth } = chainGeometry(motion, shell);
  const maxDepth = Math.max(1, ...depth);
  const { positionTolerance, offsetTolerance } = skeletonPositionTolerances(motion, options, objectTolerance);
  const rotationBudget = objectTolerance - positionTolerance - (hasOffsets ? maxDepth * offsetTolerance : 0);
  const guaranteed = (j: number) => Math.min(180, (rotationBudget / (chain[j] * reach[j])) * (180 / Math.PI));
  const userCap = (j: number) => options.rotationToleranceOverridesDeg?.[j] ?? Infinity;
  const tolerances = Array.from({ length: J }, (_, j) => Math.min(userCap(j), SKELETON_OPTIMISM * guaranteed(j)));
  const runCache = cache ?? new CompressCache();
  let rounds = 0;
  for (;;) {
    rounds++;
    const last = rounds > SKELETON_ROUNDS;
    if (last) for (let j = 0; j < J; j++) tolerances[j] = Math.min(userCap(j), guaranteed(j));
    const overrides: Record<number, number> = {};
    tolerances.forEach((t, j) => (overrides[j] = t));
    const r = compressChannels(
      motion,
      {
        ...options,
        positionTolerance,
        offsetTolerance,
        rotationToleranceOverridesDeg: overrides,
      },
      strategy,
      runCache,
      shouldStop,
    );
    const oe = objectSpaceError(motion, r.mt3, shell, runCache.objectMemo);
    r.objectError = oe;
    r.skeleton = {
      objectTolerance,
      shell,
      rounds,
      met: oe.maxError <= objectTolerance,
      positionTolerance,
      offsetTolerance,
    };
    if (oe.maxError <= objectTolerance || last) return r;
    const scale = new Array<number>(J).fill(1);
    for (let k = 0; k < J; k++) {
      const e = oe.jointMaxError[k];
      if (!(e > objectTolerance)) continue;
      const factor = (0.9 * objectTolerance) / e;
      for (let j = k; j >= 0; j = motion.joints[j].parent) scale[j] = Math.min(scale[j], factor);
    }
    for (let j = 0; j < J; j++) tolerances[j] *= scale[j];
  }
}

/**
 * The root translation and offset tolerances of the skeleton-aware mode: the requested ones capped by the
 * object tolerance (a quarter of it for the root, and a quarter shared along the deepest chain for offsets).
 */
export function skeletonPositionTolerances(
  motion: Motion,
  options: CompressOptions,
  objectTolerance: number,
): { positionTolerance: number; offsetTolerance: number } {
  const hasOffsets = (motion.flags & MotionFlag.OFFSETS) !== 0;
  let maxDepth = 1;
  const depth = new Array<number>(motion.joints.length).fill(1);
  motion.joints.forEach((joint, j) => {
    if (joint.parent >= 0) depth[j] = depth[joint.parent] + 1;
    maxDepth = Math.max(maxDepth, depth[j]);
  });
  return {
    positionTolerance: Math.min(options.positionTolerance, objectTolerance / 4),
    offsetTolerance: hasOffsets
      ? Math.min(options.offsetTolerance, objectTolerance / (4 * maxDepth))
      : options.offsetTolerance,
  };
}

/**
 * Per joint: reach (longest offset path from the joint to a descendant, plus
 * the shell), chain (joints on the longest root-to-leaf chain through it) and
 * depth (joints from the root to it, itself included). Offset lengths are the
 * largest over frames, so the reach bounds every frame.
 */
function chainGeometry(m: Motion, shell: number): { reach: number[]; chain: number[]; depth: number[] } {
  const J = m.joints.length;
  const S = m.frameCount + 1;
  const length = new Array<number>(J).fill(0);
  for (let f = 0; f < S; f++)
    for (let j = 0; j < J; j++) {
      const i = (f * J + j) * 4;
      length[j] = Math.max(length[j], Math.hypot(m.offset[i], m.offset[i + 1], m.offset[i + 2]));
    }
  const below = new Array<number>(J).fill(0);
  const levelsBelow = new Array<number>(J).fill(0);
  for (let j = J - 1; j > 0; j--) {
    const p = m.joints[j].parent;
    below[p] = Math.max(below[p], length[j] + below[j]);
    levelsBelow[p] = Math.max(levelsBelow[p], levelsBelow[j] + 1);
  }
  const depth = new Array<number>(J).fill(1);
  for (let j = 0; j < J; j++) if (m.joints[j].parent >= 0) depth[j] = depth[m.joints[j].parent] + 1;
  return {
    reach: below.map((b) => b + shell),
    chain: depth.map((d, j) => d + levelsBelow[j]),
    depth,
  };
}

/** One channel's compression: what compressChannels writes and reports. */
interface ChannelRun {
  kind: ChannelKind;
  joint: number;
  userKeys: number[];
  tolerance: number;
  id: string;
  entry: CachedChannel<PositionTrack | RotationTrack>;
}

/**
 * Compresses the channels of a motion (or reuses them from `cache`), in the order of the MT3: the root
 * translation, each joint's rotation, then each joint's offset with OFFSETS. With `select`, only the channels
 * whose index in that order it accepts are run (a share of a long motion, compressChannelShare); it is told
 * whether `cache` holds the channel.
 */
function runChannels(
  motion: Motion,
  options: CompressOptions,
  strategy: CompressStrategy,
  cache: CompressCache | undefined,
  shouldStop: (() => boolean) | undefined,
  select?: (index: number, cached: boolean) => boolean,
): ChannelRun[] {
  const N = motion.frameCount;
  const J = motion.joints.length;
  const method = strategy.method;
  const runs: ChannelRun[] = [];
  let index = 0;
  cache?.begin(motion);
  /** Compresses one channel, or reuses it from the cache when its inputs are unchanged. */
  const runChannel = (
    kind: ChannelKind,
    joint: number,
    userKeys: number[],
    tolerance: number,
    compress: () => Omit<CachedChannel<PositionTrack | RotationTrack>, 'signature'>,
  ): void => {
    // Classic and refined entries side by side: the app asks for both after every edit.
    const id = `${method}:${kind}:${joint}`;
    const signature = channelSignature(tolerance, userKeys, method);
    let entry = cache?.get(id, signature);
    if (select && !select(index++, entry !== undefined)) return;
    if (!entry) {
      if (shouldStop?.()) throw new CompressAborted();
      entry = { signature, ...compress() };
      cache?.set(id, entry);
    }
    runs.push({ kind, joint, userKeys, tolerance, id, entry });
  };
  const runPosition = (
    kind: ChannelKind,
    joint: number,
    source: () => Float64Array,
    userKeys: number[],
    tolerance: number,
    where: string,
  ) =>
    runChannel(kind, joint, userKeys, tolerance, () => {
      const fit = new PositionFit(source(), N, where);
      const { keys, outcome } = strategy.positionKeys(fit, userKeys, tolerance);
      const keyFrames = keys.frames();
      return { keyFrames, outcome, track: positionTrack(fit, keyFrames) };
    });

  runPosition(
    'translation',
    -1,
    () => translationSource(motion),
    translationUserKeys(motion),
    options.positionTolerance,
    'translation',
  );
  for (let j = 0; j < J; j++) {
    const tolerance = options.rotationToleranceOverridesDeg?.[j] ?? options.rotationToleranceDeg;
    const userKeys = jointUserKeys(motion, j);
    runChannel('rotation', j, userKeys, tolerance, () => {
      const { fit, keys, outcome } = strategy.rotationKeys(rotationSource(motion, j), N, userKeys, tolerance);
      const keyFrames = keys.frames();
      const stored = fit.storedKeys(keyFrames);
      return {
        keyFrames,
        outcome,
        track: { frames: Uint16Array.from(keyFrames), rotation: stored.rotation, inner: stored.inner },
      };
    });
  }
  if (motion.flags & MotionFlag.OFFSETS)
    for (let j = 0; j < J; j++)
      runPosition(
        'offset',
        j,
        () => offsetSource(motion, j),
        jointUserKeys(motion, j),
        options.offsetTolerance,
        `offset joint ${j}`,
      );
  return runs;
}

/** A share of a motion's channels, compressed: each channel's cache id and entry. */
export type ChannelShare = [id: string, entry: CachedChannel<PositionTrack | RotationTrack>][];

/**
 * Share `share` of `shares` of a motion's channels (every shares-th channel in MT3 order, from the share-th),
 * compressed as compressMotion would: the build pool splits a long motion across its workers with it, and
 * compressWithShares puts the shares together into the very result of one compressMotion (channels are
 * compressed independently of each other). Not for the skeleton-aware mode, whose rounds need every channel.
 */
export function compressChannelShare(
  motion: Motion,
  options: CompressOptions,
  share: number,
  shares: number,
): ChannelShare {
  validateMotion(motion);
  checkTolerances(options);
  if (options.objectTolerance !== undefined)
    throw new Error('compressChannelShare: the skeleton-aware mode compresses a motion whole');
  return runChannels(
    motion,
    options,
    methodStrategy(options.method),
    undefined,
    undefined,
    (i) => i % shares === share,
  ).map((r) => [r.id, r.entry]);
}

/** compressMotion of a motion whose channels were compressed in shares (compressChannelShare): the same result. */
export function compressWithShares(motion: Motion, options: CompressOptions, shares: ChannelShare[]): CompressResult {
  const cache = new CompressCache();
  cacheChannelShares(cache, motion, shares);
  return compressMotion(motion, options, cache);
}

/**
 * Puts compressed shares of `motion`'s channels into `cache`, so that compressMotion(motion, options, cache) with
 * the options they were compressed with reuses them (the app's export of a long motion: the pool compresses the
 * shares, the document's own cache then holds them for the next edit).
 */
export function cacheChannelShares(cache: CompressCache, motion: Motion, shares: ChannelShare[]): void {
  cache.begin(motion);
  for (const share of shares) for (const [id, entry] of share) cache.set(id, entry);
}

/**
 * How many of `motion`'s channels compressMotion(motion, options, cache) would compress, and how many it has:
 * the others `cache` holds for these tolerances and user keys. Compresses nothing.
 */
export function channelsToCompress(
  motion: Motion,
  options: CompressOptions,
  cache: CompressCache | undefined,
): { toCompress: number; total: number } {
  let toCompress = 0;
  let total = 0;
  runChannels(motion, options, methodStrategy(options.method), cache, undefined, (_, cached) => {
    total++;
    if (!cached) toCompress++;
    return false;
  });
  return { toCompress, total };
}

/** The per-channel compression of one set of tolerances (classic or refined keys). */
function compressChannels(
  motion: Motion,
  options: CompressOptions,
  strategy: CompressStrategy,
  cache: CompressCache | undefined,
  shouldStop: (() => boolean) | undefined,
): CompressResult {
  const t0 = now();
  const N = motion.frameCount;
  const J = motion.joints.length;
  const warnings: CompressWarning[] = [];
  const runs = runChannels(motion, options, strategy, cache, shouldStop);
  const channels: ChannelReport[] = runs.map((r) =>
    report(r.kind, r.joint, r.entry.keyFrames, r.userKeys, r.tolerance, r.entry.outcome, warnings),
  );
  const root = runs[0].entry.track as PositionTrack;
  const rotations = runs.slice(1, J + 1).map((r) => r.entry.track as RotationTrack);
  const offsets =
    motion.flags & MotionFlag.OFFSETS ? runs.slice(J + 1).map((r) => r.entry.track as PositionTrack) : null;
  const method = strategy.method;
  const mt3: Mt3Motion = { ...mt3Frame(motion, motionNameHash(options.name)), root, rotations, offsets };
  const bytes = writeMt3(mt3, cache?.streams);
  const totalKeys = channels.reduce((s, c) => s + c.keyFrames.length, 0);
  const mtnBytes = mtnByteSize(N, J);
  return {
    method,
    mt3,
    bytes,
    channels,
    warnings,
    totalKeys,
    mt3Bytes: bytes.length,
    mtnBytes,
    ratio: mtnBytes / bytes.length,
    ms: now() - t0,
    objectError: null,
  };
}

/**
 * Everything of a motion's MT3 that follows from the motion alone (no key choice): the name hash, flags,
 * frame count, trace, waist joint and locks. The build cache checks an entry's header against it.
 */
export function mt3Frame(motion: Motion, nameHash: number): Omit<Mt3Motion, 'root' | 'rotations' | 'offsets'> {
  const locks = lockRanges(motion);
  const direction = (motion.flags & MotionFlag.DIRECTION) !== 0;
  let flags = Mt3Flag.MOVE;
  if (motion.flags & MotionFlag.OFFSETS) flags |= Mt3Flag.ROOT;
  if (direction) flags |= Mt3Flag.TURN;
  if (locks.length > 0) flags |= Mt3Flag.FIX;
  if (motion.flags & MotionFlag.MIRROR_UPPER) flags |= Mt3Flag.MIRROR_UPPER;
  if (motion.flags & MotionFlag.MIRROR_LOWER) flags |= Mt3Flag.MIRROR_LOWER;
  return {
    name: nameHash,
    flags,
    baseTick: 0,
    numFrames: motion.frameCount,
    move: traceTrack(motion),
    turn: direction ? motion.waistJoint : null,
    fix: locks.length > 0 ? locks : null,
  };
}

function checkTolerances(o: CompressOptions): void {
  const bad = (name: string, v: unknown) => {
    throw new FormatError('MTN', `${name} must be a finite number >= 0, got ${String(v)}`, {
      where: 'compression options',
    });
  };
  for (const [name, v] of [
    ['position tolerance', o.positionTolerance],
    ['rotation tolerance', o.rotationToleranceDeg],
    ['offset tolerance', o.offsetTolerance],
  ] as const)
    if (!(Number.isFinite(v) && v >= 0)) bad(name, v);
  for (const [j, v] of Object.entries(o.rotationToleranceOverridesDeg ?? {}))
    if (!(Number.isFinite(v) && v >= 0)) bad(`rotation tolerance override of joint ${j}`, v);
  for (const [name, v] of [
    ['object tolerance', o.objectTolerance],
    ['shell', o.shell],
  ] as const)
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) {
      throw new FormatError('MTN', `${name} must be a finite number > 0, got ${String(v)}`, {
        where: 'compression options',
      });
    }
  if (o.method !== undefined && o.method !== 'classic' && o.method !== 'refined')
    throw new FormatError('MTN', `method must be "classic" or "refined", got ${String(o.method)}`, {
      where: 'compression options',
    });
}

function report(
  kind: ChannelKind,
  joint: number,
  keyFrames: number[],
  userKeys: number[],
  tolerance: number,
  outcome: TrackOutcome,
  warnings: CompressWarning[],
): ChannelReport {
  const met = outcome.maxError <= tolerance;
  if (!met) {
    const over = keyFrames.filter((f) => outcome.errors[f] > tolerance);
    warnings.push(toleranceWarning(kind, joint, tolerance, outcome.maxError, outcome.maxErrorFrame, over));
  }
  return {
    kind,
    joint,
    keyFrames,
    userKeyFrames: userKeys.slice(),
    tolerance,
    maxError: outcome.maxError,
    maxErrorFrame: outcome.maxErrorFrame,
    errors: outcome.errors,
    met,
  };
}

/**
 * The warning of a channel whose error at key frames is over its tolerance (the stored precision's limit);
 * `overKeys` lists every key frame of the written track over it, ascending.
 */
export function toleranceWarning(
  kind: ChannelKind,
  joint: number,
  tolerance: number,
  error: number,
  frame: number,
  overKeys: number[],
): CompressWarning {
  const name = kind === 'translation' ? 'root translation' : `${kind} of joint ${joint}`;
  const unit = kind === 'rotation' ? ' deg' : '';
  const others = overKeys.length > 1 ? `; ${overKeys.length} keys over it: ${listFrames(overKeys)}` : '';
  return {
    kind,
    joint,
    frame,
    error,
    tolerance,
    keyFrames: overKeys,
    message: `${name}: tolerance ${tolerance}${unit} not reachable at frame ${frame} (error ${error.toPrecision(4)}${unit} at a key: stored precision limit${others})`,
  };
}

/** Frames for a message: the first few, then how many more. */
function listFrames(frames: number[]): string {
  const SHOWN = 8;
  const head = frames.slice(0, SHOWN).join(', ');
  return frames.length > SHOWN ? `${head} and ${frames.length - SHOWN} more` : head;
}

function positionTrack(fit: PositionFit, frames: number[]): PositionTrack {
  const K = frames.length;
  const position = new Uint16Array(K * 3);
  const velocity = new Uint16Array(K * 3);
  frames.forEach((f, k) => {
    for (let c = 0; c < 3; c++) {
      position[k * 3 + c] = fit.pBits[f * 3 + c];
      velocity[k * 3 + c] = fit.vBits[f * 3 + c];
    }
  });
  const origin = Uint16Array.from([0, 1, 2], (c) => fit.pBits[c]);
  return { origin, frames: Uint16Array.from(frames), position, velocity };
}

function traceTrack(m: Motion): TraceTrack {
  const frames = traceKeyFrames(m);
  const position = new Uint16Array(frames.length * 3);
  frames.forEach((f, k) => {
    for (let c = 0; c < 3; c++) {
      try {
        position[k * 3 + c] = encodeH16(m.translation[f * 4 + c]);
      } catch (e) {
        if (e instanceof QuantizeError)
          throw new FormatError('MTN', `trace position cannot be stored: ${e.message}`, {
            where: `translation frame ${f}`,
          });
        throw e;
      }
    }
  });
  return { frames: Uint16Array.from(frames), position };
}

/** GV_StrCode of the motion name, or a FormatError saying why the name cannot be hashed (docs/formats.md 2.6). */
function motionNameHash(name: string): number {
  const problem = motionNameProblem(name);
  if (problem) throw new FormatError('MTN', problem, { where: 'motion name' });
  return gvStrCode(name);
}
