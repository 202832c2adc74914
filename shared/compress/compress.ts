import { FormatError } from '../errors';
import { encodeH16, QuantizeError } from '../math/half';
import { MotionFlag, type Motion } from '../motion/types';
import { mtnByteSize } from '../mtn/constants';
import { validateMotion } from '../mtn/validate';
import { writeMt3 } from '../mt3/write';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack, type TraceTrack } from '../mt3/types';
import { motionNameProblem } from '../motionName';
import { gvStrCode } from '../strcode';
import { greedyCompress, type GreedyOutcome } from './greedy';
import { channelSignature, type CompressCache } from './cache';
import { initialKeys, type KeyList } from './keyList';
import { PositionFit } from './positionFit';
import { RotationFit } from './rotationFit';
import {
  jointUserKeys, lockRanges, offsetSource, rotationSource, traceKeyFrames, translationSource, translationUserKeys,
} from './sources';
import type { ChannelKind, ChannelReport, CompressOptions, CompressResult, CompressWarning } from './types';

/** The greedy loop to use; the naive reference (naive.ts) plugs in here for benchmarks and tests. */
export type ChannelSolver = (fit: PositionFit | RotationFit, keys: KeyList, tolerance: number) => GreedyOutcome;

const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/**
 * Compresses a motion to MT3 (COMPRESSION.md): one greedy track per channel,
 * user keys forced, gaps <= 255, trace keys from TRACE flags, lock ranges from
 * LOCK flags, offset tracks only with OFFSETS. Errors are those of the stored
 * (quantised) values under the reference decoder. Throws FormatError for a
 * motion that fails validation or holds a value h16 cannot store.
 *
 * With a `cache` (one per open motion), channels whose tolerance and user keys
 * are unchanged since the previous run are reused instead of recompressed.
 */
export function compressMotion(
  motion: Motion,
  options: CompressOptions,
  solver: ChannelSolver = greedyCompress,
  cache?: CompressCache,
): CompressResult {
  const t0 = now();
  validateMotion(motion);
  checkTolerances(options);
  const N = motion.frameCount;
  const J = motion.joints.length;
  const channels: ChannelReport[] = [];
  const warnings: CompressWarning[] = [];

  cache?.begin(motion);
  /** Compresses one channel, or reuses it from the cache when its inputs are unchanged. */
  const runChannel = <T extends PositionTrack | RotationTrack>(
    kind: ChannelKind, joint: number, userKeys: number[], tolerance: number,
    compress: () => { keyFrames: number[]; outcome: GreedyOutcome; track: T },
  ): T => {
    const id = `${kind}:${joint}`;
    const signature = channelSignature(tolerance, userKeys);
    let entry = cache?.get<T>(id, signature);
    if (!entry) {
      entry = { signature, ...compress() };
      cache?.set(id, entry);
    }
    channels.push(report(kind, joint, entry.keyFrames, userKeys, tolerance, entry.outcome, warnings));
    return entry.track;
  };
  const runPosition = (kind: ChannelKind, joint: number, source: () => Float64Array, userKeys: number[], tolerance: number, where: string) =>
    runChannel(kind, joint, userKeys, tolerance, () => {
      const fit = new PositionFit(source(), N, where);
      const keys = initialKeys(N, userKeys);
      const outcome = solver(fit, keys, tolerance);
      const keyFrames = keys.frames();
      return { keyFrames, outcome, track: positionTrack(fit, keyFrames) };
    });

  const root = runPosition('translation', -1, () => translationSource(motion), translationUserKeys(motion), options.positionTolerance, 'translation');

  const rotations: RotationTrack[] = [];
  for (let j = 0; j < J; j++) {
    const tolerance = options.rotationToleranceOverridesDeg?.[j] ?? options.rotationToleranceDeg;
    const userKeys = jointUserKeys(motion, j);
    rotations.push(runChannel('rotation', j, userKeys, tolerance, () => {
      const fit = new RotationFit(rotationSource(motion, j), N);
      const keys = initialKeys(N, userKeys);
      const outcome = solver(fit, keys, tolerance);
      const keyFrames = keys.frames();
      const stored = fit.storedKeys(keyFrames);
      return { keyFrames, outcome, track: { frames: Uint16Array.from(keyFrames), rotation: stored.rotation, inner: stored.inner } };
    }));
  }

  let offsets: PositionTrack[] | null = null;
  if (motion.flags & MotionFlag.OFFSETS) {
    offsets = [];
    for (let j = 0; j < J; j++)
      offsets.push(runPosition('offset', j, () => offsetSource(motion, j), jointUserKeys(motion, j), options.offsetTolerance, `offset joint ${j}`));
  }

  const move = traceTrack(motion);
  const locks = lockRanges(motion);
  const direction = (motion.flags & MotionFlag.DIRECTION) !== 0;

  let flags = Mt3Flag.MOVE;
  if (offsets) flags |= Mt3Flag.ROOT;
  if (direction) flags |= Mt3Flag.TURN;
  if (locks.length > 0) flags |= Mt3Flag.FIX;
  if (motion.flags & MotionFlag.MIRROR_UPPER) flags |= Mt3Flag.MIRROR_UPPER;
  if (motion.flags & MotionFlag.MIRROR_LOWER) flags |= Mt3Flag.MIRROR_LOWER;

  const mt3: Mt3Motion = {
    name: motionNameHash(options.name),
    flags,
    baseTick: 0,
    numFrames: N,
    root,
    rotations,
    offsets,
    move,
    turn: direction ? motion.waistJoint : null,
    fix: locks.length > 0 ? locks : null,
  };
  const bytes = writeMt3(mt3);
  const totalKeys = channels.reduce((s, c) => s + c.keyFrames.length, 0);
  const mtnBytes = mtnByteSize(N, J);
  return {
    mt3,
    bytes,
    channels,
    warnings,
    totalKeys,
    mt3Bytes: bytes.length,
    mtnBytes,
    ratio: mtnBytes / bytes.length,
    ms: now() - t0,
  };
}

function checkTolerances(o: CompressOptions): void {
  const bad = (name: string, v: unknown) => {
    throw new FormatError('MTN', `${name} must be a finite number >= 0, got ${String(v)}`, { where: 'compression options' });
  };
  for (const [name, v] of [['position tolerance', o.positionTolerance], ['rotation tolerance', o.rotationToleranceDeg], ['offset tolerance', o.offsetTolerance]] as const)
    if (!(Number.isFinite(v) && v >= 0)) bad(name, v);
  for (const [j, v] of Object.entries(o.rotationToleranceOverridesDeg ?? {}))
    if (!(Number.isFinite(v) && v >= 0)) bad(`rotation tolerance override of joint ${j}`, v);
}

function report(
  kind: ChannelKind, joint: number, keyFrames: number[], userKeys: number[], tolerance: number,
  outcome: GreedyOutcome, warnings: CompressWarning[],
): ChannelReport {
  const met = outcome.maxError <= tolerance;
  if (!met) {
    const name = kind === 'translation' ? 'root translation' : `${kind} of joint ${joint}`;
    const unit = kind === 'rotation' ? ' deg' : '';
    warnings.push({
      kind, joint, frame: outcome.maxErrorFrame, error: outcome.maxError, tolerance,
      message: `${name}: tolerance ${tolerance}${unit} not reachable at frame ${outcome.maxErrorFrame} (error ${outcome.maxError.toPrecision(4)}${unit} at a key: stored precision limit)`,
    });
  }
  return {
    kind, joint, keyFrames, userKeyFrames: userKeys.slice(), tolerance,
    maxError: outcome.maxError, maxErrorFrame: outcome.maxErrorFrame, errors: outcome.errors, met,
  };
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
        if (e instanceof QuantizeError) throw new FormatError('MTN', `trace position cannot be stored: ${e.message}`, { where: `translation frame ${f}` });
        throw e;
      }
    }
  });
  return { frames: Uint16Array.from(frames), position };
}

/** GV_StrCode of the motion name, or a FormatError saying why the name cannot be hashed (FORMATS.md 2.6). */
function motionNameHash(name: string): number {
  const problem = motionNameProblem(name);
  if (problem) throw new FormatError('MTN', problem, { where: 'motion name' });
  return gvStrCode(name);
}
