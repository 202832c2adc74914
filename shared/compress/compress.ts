import { FormatError } from '../errors';
import { encodeH16, H16_MAX, h16Storable, QuantizeError } from '../math/half';
import { MotionFlag, type Motion } from '../motion/types';
import { mtnByteSize } from '../mtn/constants';
import { validateMotion } from '../mtn/validate';
import { MT3_MAX_LOCK_RANGES } from '../mt3/constants';
import { writeMt3 } from '../mt3/write';
import {
  Mt3Flag,
  type LockRange,
  type Mt3Motion,
  type PositionTrack,
  type RotationTrack,
  type TraceTrack,
} from '../mt3/types';
import { motionNameProblem } from '../motionName';
import { gvStrCode } from '../strcode';
import { channelSignature, CompressCache, type CachedChannel } from './cache';
import { defaultShell, objectSpaceError } from './objectError';
import { objectFloorUpperBound, precisionFloor, type PrecisionFloor } from './unreachable';
import { constantChannelFloor } from './constantChannel';
import { hasKeyFrame } from './keyList';
import { KeySlerpCache } from './innerSearch';
import { LocalKeys } from './localKeys';
import { classicStrategy, methodStrategy, type CompressStrategy } from './methods';
import { PositionFit } from './positionFit';
import { RotationFit, squadIllConditionedFrame, type TangentBound } from './rotationFit';
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
  storablePositions(motion); // before any compression, in every mode and at every tolerance
  storableLockRanges(motion); // before any compression: a motion whose locks cannot be written fails at once
  const shell = options.shell ?? defaultShell(motion);
  let result: CompressResult;
  let known: PrecisionFloor | undefined;
  let runCache = cache;
  if (options.objectTolerance === undefined) {
    result = compressChannels(motion, options, strategy, cache, shouldStop);
    result.objectError =
      options.measureObjectError === false ? null : objectSpaceError(motion, result.mt3, shell, cache?.objectMemo);
  } else {
    // One cache for the floor and the rounds, so that they share the source's FK (ObjectErrorMemo.sharingSource).
    runCache ??= new CompressCache();
    // A bound below the motion's object-space floor is held at that floor (docs/compression.md#below-the-floor).
    const asked = options.objectTolerance;
    const floor = objectFloorAbove(motion, asked, shell, runCache);
    result = compressSkeletonAware(motion, options, floor?.object ?? asked, shell, strategy, runCache, shouldStop);
    if (floor?.object !== undefined) result.skeleton!.requestedObjectTolerance = asked;
    if (floor) known = floor.floor;
  }
  if (result.warnings.length > 0) result.precisionFloor = known ?? floorOf(motion, result.skeleton?.shell, runCache);
  result.ms = now() - t0;
  return result;
}

/** objectFloorUpperBound of the motion with `shell`, its offsets' lengths from the chain geometry. */
export function objectFloorCeiling(motion: Motion, shell: number): number {
  return objectFloorUpperBound(motion, shell, chainGeometry(motion, shell).length);
}

/** The motion's precision floor (unreachable.ts), `cache`'s when it has it. */
function floorOf(motion: Motion, shell: number | undefined, cache: CompressCache | undefined): PrecisionFloor {
  if (!cache) return precisionFloor(motion, shell);
  cache.forSamples(motion);
  const key = shell === undefined ? '' : String(shell);
  let floor = cache.floors.get(key);
  if (!floor) {
    floor = precisionFloor(motion, shell, cache.objectMemo);
    cache.floors.set(key, floor);
  }
  return floor;
}

/**
 * The motion's object-space floor when the bound `asked` is below it, else undefined: the skeleton-aware mode then
 * holds the motion to that floor. Below it, a bound made the mode key nearly every frame of every channel (19,167
 * keys on cmu_01_01 at 0.005, against 7,961 at its floor of 0.2048) and end over it all the same, at the floor:
 * keys cannot bring the error under the rounding of the keys themselves. The floor is the FK error of the source
 * rounded to h16/s12 at every frame, which keying every frame reaches, so the bound it becomes can always be met.
 * It is measured only when `asked` is under objectFloorUpperBound (a bound above that is above the floor); `floor`:
 * the precision floor when it was measured.
 */
export function objectFloorAbove(
  motion: Motion,
  asked: number,
  shell: number,
  cache?: CompressCache,
): { object?: number; floor: PrecisionFloor } | undefined {
  if (asked >= objectFloorCeiling(motion, shell)) return undefined;
  const floor = floorOf(motion, shell, cache);
  return asked < floor.object! ? { object: floor.object!, floor } : { floor };
}

/**
 * At most this many compress-and-check rounds in the skeleton-aware mode before the guaranteed allocation. Each
 * round recompresses only the channels that took new keys (a key reshapes its channel's keys nearby, so a few
 * new peaks can go over; fewer each round); on the bundled captures the mode holds within 4-15 rounds.
 */
export const SKELETON_ROUNDS = 24;
/**
 * From this round on, every frame over the bound (not only a peak) takes keys, in as many channels as it takes
 * for their contributions to reach twice the excess: the last few peaks then go in fewer rounds (CMU 01_01 at
 * 120 fps: 20 rounds -> 15 for 0.02 % more bytes).
 */
const SKELETON_ENDGAME = 8;
/**
 * The skeleton-aware start: each joint's rotation tolerance is this fraction of the object tolerance over the
 * joint's reach (in radians), so a rotation error at that tolerance alone moves the farthest point below it by
 * this fraction of the bound. Errors of a chain's joints rarely line up at one frame; where they do, a key goes
 * there instead of a tighter tolerance for the whole motion. Chosen on cmu_01_01 at 30 fps (0.5 and 0.7 give
 * more bytes there); docs/compression.md has the figures on the other captures.
 */
const SKELETON_START = 0.6;

/**
 * Skeleton-aware mode (docs/compression.md): per-joint rotation tolerances derived from the chain so that the
 * object-space error (FK at the joints and their virtual points) stays within `objectTolerance`.
 *
 * A rotation error theta at joint j moves a point at distance r from it by at most theta r, and errors along a
 * chain add. Each joint starts at SKELETON_START objectTolerance / reach_j (reach_j: the longest path from j to
 * a descendant's virtual point, its lever arm), and the root translation and offsets at their capped
 * tolerances. After each round the mode measures FK, and at each frame where a joint's error peaks over the
 * bound it keys the channel that contributes most there (its error at that frame times its lever arm to the
 * joint: the root translation and the offsets move every point below them one for one), then recompresses the
 * channels that took keys. A key there costs one key; a tighter tolerance would cost keys all along the motion.
 * When no over frame can take another key, or after SKELETON_ROUNDS, it falls back to the guaranteed
 * allocation theta_j = D_rot / (chain_j reach_j) (chain_j: the most joints on a root-to-leaf chain through j),
 * which bounds every point by the object tolerance however the errors line up (keys placed so far stay: they
 * only lower errors). compressMotion holds a bound below the motion's floor at the floor first, so through it the
 * fallback is a safety net; exported for the test that drives it below the floor (skeleton.test.ts).
 */
export function compressSkeletonAware(
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
  const geometry = chainGeometry(motion, shell);
  const { reach, chain, depth } = geometry;
  const maxDepth = Math.max(1, ...depth);
  const { positionTolerance, offsetTolerance } = skeletonPositionTolerances(motion, options, objectTolerance);
  const rotationBudget = objectTolerance - positionTolerance - (hasOffsets ? maxDepth * offsetTolerance : 0);
  const degrees = 180 / Math.PI;
  const guaranteed = (j: number) => Math.min(180, (rotationBudget / (chain[j] * reach[j])) * degrees);
  const userCap = (j: number) => options.rotationToleranceOverridesDeg?.[j] ?? Infinity;
  const start = (j: number) => Math.min(180, userCap(j), ((SKELETON_START * objectTolerance) / reach[j]) * degrees);
  const extraKeys: number[][] = Array.from({ length: 1 + J + (hasOffsets ? J : 0) }, () => []);
  const runCache = cache ?? new CompressCache();
  const local = new Map<number, LocalKeys>();
  const sources = new RotationSources(motion);
  const raised = constantChannels(motion, options, sources, positionTolerance, offsetTolerance);
  /** One key slerp cache for the searches of every channel that takes keys in place (KeySlerpCache). */
  let slerps: KeySlerpCache | undefined;
  const prepared = new Map<number, CachedChannel<RotationTrack>>();
  let fallback = false;
  for (let rounds = 1; ; rounds++) {
    const last = fallback || rounds > SKELETON_ROUNDS;
    if (last) prepared.clear();
    const overrides: Record<number, number> = {};
    for (let j = 0; j < J; j++)
      overrides[j] = Math.max(last ? Math.min(userCap(j), guaranteed(j)) : start(j), raised.rotation[j]);
    const r = compressChannels(
      motion,
      { ...options, positionTolerance: raised.root, offsetTolerance, rotationToleranceOverridesDeg: overrides },
      strategy,
      runCache,
      shouldStop,
      { extraKeys, prepared, rotationSource: (j) => sources.of(j), offsetTolerance: (j) => raised.offset[j] },
      false,
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
    if (oe.maxError <= objectTolerance || last) {
      // Only the round returned is written: each round before it wrote the whole MT3 (12 MB for a 24-joint chain
      // of 65,536 frames) for nothing.
      writeResult(r, runCache);
      return r;
    }
    const errors = runCache.objectMemo.lastErrors();
    const endgame = rounds >= SKELETON_ENDGAME;
    if (keyOverPeaks(motion, r, errors, objectTolerance, geometry, extraKeys, endgame, raised.constant) === 0) {
      fallback = true;
      continue;
    }
    // The rotation channels take their new keys in place (LocalKeys): only the segments around them change.
    for (let j = 0; j < J; j++) {
      const c = 1 + j;
      const { keyFrames, errors: channelErrors, maxError, maxErrorFrame } = r.channels[c];
      const fresh = extraKeys[c].filter((f) => !hasKeyFrame(keyFrames, f));
      if (fresh.length === 0) continue;
      let keyed = local.get(c);
      if (!keyed) {
        const outcome = { errors: channelErrors, maxError, maxErrorFrame, inserted: 0 };
        const entry = { signature: '', keyFrames, outcome, track: r.mt3.rotations[j] };
        const refine = strategy.method === 'refined';
        slerps ??= new KeySlerpCache(motion.frameCount + 1);
        keyed = new LocalKeys(
          sources.of(j),
          motion.frameCount,
          start(j),
          jointUserKeys(motion, j),
          entry,
          refine,
          slerps,
        );
        local.set(c, keyed);
      }
      keyed.add(fresh);
      const entry = keyed.entry('');
      const { frames, rotation, inner } = entry.track;
      if (squadIllConditionedFrame(frames, rotation, inner) < 0) prepared.set(c, entry);
      else {
        // Keys taken in place refit their neighbours without the tangent bounds of compressChannels' retries: the
        // channel is compressed again with its keys, and takes later keys in place from that.
        prepared.delete(c);
        local.delete(c);
      }
    }
  }
}

/**
 * The skeleton-aware mode's constant channels (docs/compression.md, round 10): every frame of such a channel has its
 * key's error, keyed or not (to a rounding step). So a tolerance under that error only keyed every frame (2,001 keys
 * for the root of a constant pose of 2,001 frames held to its object-space floor, whose quarter is under the root's
 * rounding): such a channel is held to its key error instead, never above what the options ask of it (the position
 * and offset tolerances, a joint's override). And a key there removes only the rounding step its frames decode off
 * the key value, so the rounds key one where the object-space error goes over only when no other channel can take
 * the key (a motion whose every channel is constant, held to its floor). `root` and `offset[j]`: the root translation's and joint j's offset's tolerance,
 * `rotation[j]`: the least rotation tolerance of joint j (0 where not constant), `constant`: the constant channels'
 * indices in MT3 order.
 */
function constantChannels(
  motion: Motion,
  options: CompressOptions,
  sources: RotationSources,
  positionTolerance: number,
  offsetTolerance: number,
): { root: number; offset: number[]; rotation: number[]; constant: Set<number> } {
  const J = motion.joints.length;
  const frames = motion.frameCount >= 1;
  const constant = new Set<number>();
  /** Channel c's key error when constant (and put in `constant`), else -Infinity. */
  const keyError = (c: number, floor: number) => {
    if (floor > -Infinity) constant.add(c);
    return floor;
  };
  const positionFloor = (c: number, source: Float64Array, where: string) =>
    frames ? keyError(c, constantChannelFloor(new PositionFit(source.subarray(0, 6), 1, where), source, 3)) : -Infinity;
  const raise = (tolerance: number, asked: number, floor: number) => Math.max(tolerance, Math.min(asked, floor));
  const hasOffsets = (motion.flags & MotionFlag.OFFSETS) !== 0;
  return {
    root: raise(
      positionTolerance,
      options.positionTolerance,
      positionFloor(0, translationSource(motion), 'translation'),
    ),
    offset: Array.from({ length: J }, (_, j) =>
      hasOffsets
        ? raise(
            offsetTolerance,
            options.offsetTolerance,
            positionFloor(1 + J + j, offsetSource(motion, j), `offset joint ${j}`),
          )
        : offsetTolerance,
    ),
    rotation: Array.from({ length: J }, (_, j) => {
      if (!frames) return 0;
      const source = sources.of(j);
      const floor = keyError(1 + j, constantChannelFloor(new RotationFit(source.subarray(0, 8), 1), source, 4));
      return Math.max(0, Math.min(options.rotationToleranceOverridesDeg?.[j] ?? Infinity, floor));
    }),
    constant,
  };
}

/**
 * Each joint's rotationSource, computed once for the skeleton-aware mode's run and shared by its rounds'
 * compressions and the channel's LocalKeys (docs/compression.md, round 8): before, a channel that took keys in
 * place held a source of its own (2 MB at 65,536 frames) besides the one the first round had made, and every
 * round that compressed the channel again (the fallback: all of them) made one more.
 */
class RotationSources {
  private readonly held = new Map<number, Float64Array>();

  constructor(private readonly motion: Motion) {}

  /** Joint j's rotationSource: the one held, else computed and held. */
  of(j: number): Float64Array {
    let source = this.held.get(j);
    if (!source) {
      source = rotationSource(this.motion, j);
      this.held.set(j, source);
    }
    return source;
  }
}

/**
 * The skeleton-aware mode's keys for one round: at every frame where a joint's object-space error peaks over
 * `bound` (`errors`: S x J, frame-major), a key in the channel that contributes most to that joint's error
 * there and is not keyed at that frame, a `constant` channel only where no other is (a key there removes only a
 * rounding step: constantChannels): the root translation (its error moves every point), an offset of the
 * joint or an ancestor (the same), or a rotation of the joint or an ancestor (its error in radians times the
 * longest path from it to the joint's virtual points). In the `endgame`, every frame over the bound, in the
 * channels of the largest contributions until they reach twice the excess. Adds them to `extraKeys` (MT3
 * channel order, ascending) and returns how many it added.
 */
function keyOverPeaks(
  motion: Motion,
  r: CompressResult,
  errors: Float64Array,
  bound: number,
  geometry: { length: number[] },
  extraKeys: number[][],
  endgame: boolean,
  constant: ReadonlySet<number>,
): number {
  const J = motion.joints.length;
  const S = motion.frameCount + 1;
  const shell = r.objectError!.shell;
  const radians = Math.PI / 180;
  const channelOf = (kind: ChannelKind, joint: number) =>
    kind === 'translation' ? 0 : kind === 'rotation' ? 1 + joint : 1 + J + joint;
  const isKey = (c: number, f: number) => hasKeyFrame(r.channels[c].keyFrames, f);
  const added = new Set<number>();
  const candidates: [channel: number, contribution: number][] = [];
  let count = 0;
  for (let k = 0; k < J; k++) {
    for (let f = 0; f < S; f++) {
      const e = errors[f * J + k];
      if (!(e > bound)) continue;
      // The peak of a run of frames over the bound (the last frame of a flat top).
      const peak = !((f > 0 && errors[(f - 1) * J + k] > e) || (f + 1 < S && errors[(f + 1) * J + k] >= e));
      if (!peak && !endgame) continue;
      candidates.length = 0;
      const consider = (c: number, contribution: number) => {
        if (contribution > 0 && !isKey(c, f)) candidates.push([c, contribution]);
      };
      consider(0, r.channels[0].errors[f]);
      let lever = shell;
      for (let a = k; a >= 0; a = motion.joints[a].parent) {
        consider(channelOf('rotation', a), r.channels[channelOf('rotation', a)].errors[f] * radians * lever);
        if (extraKeys.length > 1 + J) consider(channelOf('offset', a), r.channels[channelOf('offset', a)].errors[f]);
        lever += geometry.length[a];
      }
      // A constant channel last: a key there removes only the rounding step its frames decode off the key value.
      const last = (c: number) => (constant.has(c) ? 1 : 0);
      candidates.sort((x, y) => last(x[0]) - last(y[0]) || y[1] - x[1] || x[0] - y[0]);
      const need = endgame ? 2 * (e - bound) : 0;
      let removed = 0;
      for (const [c, contribution] of candidates) {
        if (!added.has(c * S + f)) {
          added.add(c * S + f);
          extraKeys[c].push(f);
          count++;
        }
        removed += contribution;
        if (removed >= need) break;
      }
    }
  }
  for (const keys of extraKeys) keys.sort((a, b) => a - b);
  return count;
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
 * the shell), chain (joints on the longest root-to-leaf chain through it),
 * depth (joints from the root to it, itself included) and length (its offset's
 * length). Offset lengths are the largest over frames, so the reach bounds
 * every frame.
 */
function chainGeometry(
  m: Motion,
  shell: number,
): { reach: number[]; chain: number[]; depth: number[]; length: number[] } {
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
    length,
  };
}

/**
 * What a skeleton-aware round hands runChannels besides the options: `extraKeys` (by index in MT3 channel order,
 * ascending frames) are kept like user keys but not reported as theirs: the keys the mode places where the
 * object-space error went over. `prepared` channels (by index) are taken as they are, neither compressed nor
 * cached: the channels that took keys in place (LocalKeys). `rotationSource` gives joint j's rotationSource (the
 * run's RotationSources).
 */
interface RoundInputs {
  extraKeys: readonly (readonly number[])[];
  prepared: ReadonlyMap<number, CachedChannel<RotationTrack>>;
  rotationSource: (joint: number) => Float64Array;
  /** Joint j's offset tolerance (the skeleton-aware mode's, raised where constantChannels says). */
  offsetTolerance: (joint: number) => number;
}

/** One channel's compression: what compressChannels writes and reports. */
interface ChannelRun {
  kind: ChannelKind;
  joint: number;
  /** The user's keys of the channel (the report marks them; the skeleton-aware mode's extra keys are not). */
  userKeys: number[];
  tolerance: number;
  id: string;
  entry: CachedChannel<PositionTrack | RotationTrack>;
}

/**
 * Compresses the channels of a motion (or reuses them from `cache`), in the order of the MT3: the root
 * translation, each joint's rotation, then each joint's offset with OFFSETS. With `select`, only the channels
 * whose index in that order it accepts are run (a share of a long motion, compressChannelShare); it is told
 * whether `cache` holds the channel. `round`: a skeleton-aware round's keys, channels and sources (RoundInputs).
 */
function runChannels(
  motion: Motion,
  options: CompressOptions,
  strategy: CompressStrategy,
  cache: CompressCache | undefined,
  shouldStop: (() => boolean) | undefined,
  select?: (index: number, cached: boolean) => boolean,
  round?: RoundInputs,
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
    compress: (keptKeys: number[]) => Omit<CachedChannel<PositionTrack | RotationTrack>, 'signature'>,
  ): void => {
    const at = index++;
    const extra = round?.extraKeys[at];
    const given = round?.prepared.get(at);
    if (given) {
      runs.push({ kind, joint, userKeys, tolerance, id: `${method}:${kind}:${joint}`, entry: given });
      return;
    }
    const keptKeys = extra?.length ? withExtraKeys(userKeys, extra) : userKeys;
    // Classic and refined entries side by side: the app asks for both after every edit.
    const id = `${method}:${kind}:${joint}`;
    const signature = channelSignature(tolerance, keptKeys, method);
    let entry = cache?.get(id, signature);
    if (select && !select(at, entry !== undefined)) return;
    if (!entry) {
      if (shouldStop?.()) throw new CompressAborted();
      entry = { signature, ...compress(keptKeys) };
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
    runChannel(kind, joint, userKeys, tolerance, (keptKeys) => {
      const fit = new PositionFit(source(), N, where);
      const { keys, outcome } = strategy.positionKeys(fit, keptKeys, tolerance);
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
    runChannel('rotation', j, userKeys, tolerance, (keptKeys) => {
      const source = round ? round.rotationSource(j) : rotationSource(motion, j);
      const run = (tangents: TangentBound, chooser: CompressStrategy) => {
        const { fit, keys, outcome } = chooser.rotationKeys(source, N, keptKeys, tolerance, tangents);
        const keyFrames = keys.frames();
        const stored = fit.storedKeys(keyFrames);
        return {
          keyFrames,
          outcome,
          track: { frames: Uint16Array.from(keyFrames), rotation: stored.rotation, inner: stored.inner },
        };
      };
      const conditioned = (r: ReturnType<typeof run>) =>
        squadIllConditionedFrame(r.track.frames, r.track.rotation, r.track.inner) < 0;
      // A track whose Squad would decode to rounding noise somewhere is chosen again with the end keys' inner
      // quaternions held near their keys, and failing that (keys a half turn apart with opposite inner
      // quaternions) as slerps by the classic greedy, which no search moves off them (TangentBound); no bundled
      // capture needs either.
      const first = run('free', strategy);
      if (conditioned(first)) return first;
      const ends = run('ends', strategy);
      return conditioned(ends) ? ends : run('zero', classicStrategy);
    });
  }
  if (motion.flags & MotionFlag.OFFSETS)
    for (let j = 0; j < J; j++)
      runPosition(
        'offset',
        j,
        () => offsetSource(motion, j),
        jointUserKeys(motion, j),
        round ? round.offsetTolerance(j) : options.offsetTolerance,
        `offset joint ${j}`,
      );
  return runs;
}

/** The user keys and the extra keys of a channel, ascending, each once. */
function withExtraKeys(userKeys: readonly number[], extra: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0,
    k = 0;
  while (i < userKeys.length || k < extra.length) {
    const f = k >= extra.length || (i < userKeys.length && userKeys[i] <= extra[k]) ? userKeys[i++] : extra[k++];
    if (out[out.length - 1] !== f) out.push(f);
  }
  return out;
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
  storablePositions(motion);
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

/**
 * compressMotion of a motion whose channels were compressed in shares (compressChannelShare): the same result.
 * `cache` may come with this motion's object-space memo filled already (the build pool computes the source's points
 * while the shares are compressed: docs/compression.md, "Jobs"); its channels are those of the shares.
 */
export function compressWithShares(
  motion: Motion,
  options: CompressOptions,
  shares: ChannelShare[],
  cache = new CompressCache(),
): CompressResult {
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

/**
 * The per-channel compression of one set of tolerances (classic or refined keys). With `write` false the MT3 is not
 * written (bytes empty, mt3Bytes and ratio NaN: writeResult fills them): the skeleton-aware mode's rounds that go on.
 */
function compressChannels(
  motion: Motion,
  options: CompressOptions,
  strategy: CompressStrategy,
  cache: CompressCache | undefined,
  shouldStop: (() => boolean) | undefined,
  round?: RoundInputs,
  write = true,
): CompressResult {
  const t0 = now();
  const N = motion.frameCount;
  const J = motion.joints.length;
  const warnings: CompressWarning[] = [];
  const runs = runChannels(motion, options, strategy, cache, shouldStop, undefined, round);
  const channels: ChannelReport[] = runs.map((r) =>
    report(r.kind, r.joint, r.entry.keyFrames, r.userKeys, r.tolerance, r.entry.outcome, warnings),
  );
  const root = runs[0].entry.track as PositionTrack;
  const rotations = runs.slice(1, J + 1).map((r) => r.entry.track as RotationTrack);
  const offsets =
    motion.flags & MotionFlag.OFFSETS ? runs.slice(J + 1).map((r) => r.entry.track as PositionTrack) : null;
  const method = strategy.method;
  const mt3: Mt3Motion = { ...mt3Frame(motion, motionNameHash(options.name)), root, rotations, offsets };
  const totalKeys = channels.reduce((s, c) => s + c.keyFrames.length, 0);
  const result: CompressResult = {
    method,
    mt3,
    bytes: new Uint8Array(0),
    channels,
    warnings,
    totalKeys,
    mt3Bytes: NaN,
    mtnBytes: mtnByteSize(N, J),
    ratio: NaN,
    ms: 0,
    objectError: null,
  };
  if (write) writeResult(result, cache);
  result.ms = now() - t0;
  return result;
}

/** Writes a result's MT3: its bytes, their count and the ratio. */
function writeResult(r: CompressResult, cache: CompressCache | undefined): void {
  r.bytes = writeMt3(r.mt3, cache?.streams);
  r.mt3Bytes = r.bytes.length;
  r.ratio = r.mtnBytes / r.bytes.length;
}

/**
 * Everything of a motion's MT3 that follows from the motion alone (no key choice): the name hash, flags,
 * frame count, trace, waist joint and locks. The build cache checks an entry's header against it.
 */
export function mt3Frame(motion: Motion, nameHash: number): Omit<Mt3Motion, 'root' | 'rotations' | 'offsets'> {
  const locks = storableLockRanges(motion);
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

/**
 * The motion's lock ranges, or a FormatError naming the frame where they outgrow the fix stream's u16 count
 * (MT3_MAX_LOCK_RANGES): only a motion of the full 65,536 frames whose lock changes joint on every frame has more.
 */
function storableLockRanges(motion: Motion): LockRange[] {
  const locks = lockRanges(motion);
  if (locks.length > MT3_MAX_LOCK_RANGES)
    throw new FormatError(
      'MTN',
      `LOCK flags form ${locks.length} lock ranges (one per run of consecutive frames locking one joint); an MT3's fix stream holds at most ${MT3_MAX_LOCK_RANGES}`,
      { where: `joint key info frame ${locks[MT3_MAX_LOCK_RANGES].firstFrame}` },
    );
  return locks;
}

/**
 * A FormatError naming the first root translation value, or with OFFSETS the first offset value, that h16 cannot
 * store (docs/formats.md 2.2), whatever the tolerances: the MT3 cannot hold such a motion. Before, a value was
 * checked only where a key stored it, so one past the range on a frame no key needed (classic, a tolerance of 1e30)
 * compressed into a file holding another value there, and the skeleton-aware mode's floor refused it unlocated
 * (docs/compression.md#round-9-the-seams).
 */
function storablePositions(motion: Motion): void {
  const refuse = (v: number, where: string): never => {
    throw new FormatError(
      'MTN',
      `position cannot be stored: value ${v} is too large for h16 (largest magnitude ${H16_MAX})`,
      {
        where,
      },
    );
  };
  const t = motion.translation;
  for (let i = 0; i < t.length; i++)
    if ((i & 3) !== 3 && !h16Storable(t[i])) refuse(t[i], `translation frame ${i >> 2}`);
  if (!(motion.flags & MotionFlag.OFFSETS)) return;
  const J = motion.joints.length;
  const o = motion.offset;
  for (let i = 0; i < o.length; i++)
    if ((i & 3) !== 3 && !h16Storable(o[i]))
      refuse(o[i], `offset joint ${(i >> 2) % J} frame ${Math.floor((i >> 2) / J)}`);
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
