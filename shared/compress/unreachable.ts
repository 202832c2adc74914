/**
 * Keys that cannot meet their tolerance, told as one summary (docs/compression.md#the-guarantee).
 *
 * Only a key frame can be over its tolerance, where h16 / s12 cannot store the source closely enough there. One
 * warning a channel is right for a tolerance a little under that floor, but a tight object-space bound (or a
 * tolerance of 0) puts every channel of a motion under it: `actguy compress` then printed one line a channel, each
 * listing hundreds of keys, and none said which bound the motion can be held to. This module gathers every key
 * over its tolerance (the report keeps the whole list), the worst few, and the motion's precision floor: the error
 * of the source rounded to h16 / s12 at every frame (every frame a key), which is the smallest tolerance every
 * channel is sure to meet, and, in the skeleton-aware mode, the object-space error of that rounding.
 */
import { decodeH16, encodeH16 } from '../math/half';
import { normalize4, rotationErrorDeg } from '../math/quat';
import { decodeS12, encodeS12 } from '../math/s12';
import { MotionFlag, type Motion } from '../motion/types';
import type { Mt3Motion, PositionTrack, RotationTrack } from '../mt3/types';
import { objectSpaceError } from './objectError';
import { offsetSource, rotationSource, translationSource } from './sources';
import type { ChannelKind, CompressResult, CompressWarning, SkeletonModeReport } from './types';

/** A channel with keys over its tolerance: every such key, ascending, with its error in the written file. */
export interface UnreachableChannel {
  kind: ChannelKind;
  joint: number;
  tolerance: number;
  frames: number[];
  errors: number[];
  /** The key with the largest error (earliest on ties) and that error. */
  worstFrame: number;
  worstError: number;
}

/**
 * The smallest tolerances the format holds this motion to: the source rounded to h16 (positions) or s12
 * (rotations) at every frame, each kind's worst over its channels and frames. A tolerance at or above it is met
 * by every channel (at worst every frame becomes a key, and a key's error is its rounding). `object`: the
 * object-space error of that rounding (every frame a key), given for the skeleton-aware mode, else null.
 */
export interface PrecisionFloor {
  position: number;
  rotationDeg: number;
  /** null when the motion has no animated offsets (no offset channels). */
  offset: number | null;
  object: number | null;
}

export interface UnreachableSummary {
  channels: UnreachableChannel[];
  /** Keys over their tolerance, all channels. */
  keys: number;
  /** Every key of the written file. */
  totalKeys: number;
  floor: PrecisionFloor;
}

/** How many of the worst channels the summary names. */
export const WORST_SHOWN = 3;

/**
 * The keys over their tolerance in a compression, from its warnings (each names every key of its channel over the
 * tolerance) and the channel's errors at those frames; undefined when there is none.
 */
export function unreachableSummary(motion: Motion, r: CompressResult): UnreachableSummary | undefined {
  if (r.warnings.length === 0) return undefined;
  return unreachableOf(
    r.warnings,
    (w) => r.channels.find((c) => c.kind === w.kind && c.joint === w.joint)?.errors,
    r.totalKeys,
    r.precisionFloor ?? precisionFloor(motion, r.skeleton ? r.skeleton.shell : undefined),
  );
}

/**
 * The summary from a compression's warnings (each with every key of its channel over the tolerance), each channel's
 * per-frame errors in the written file (`errorsOf`) and the motion's floor: what unreachableSummary gives, made where
 * the motion is not at hand (a build keeps it with each motion's result: shared/project/plan.ts) or where the errors
 * were measured again (shared/compress/verify.ts).
 */
export function unreachableOf(
  warnings: readonly Pick<CompressWarning, 'kind' | 'joint' | 'tolerance' | 'keyFrames' | 'frame' | 'error'>[],
  errorsOf: (w: Pick<CompressWarning, 'kind' | 'joint'>) => ArrayLike<number> | undefined,
  totalKeys: number,
  floor: PrecisionFloor,
): UnreachableSummary {
  const channels: UnreachableChannel[] = warnings.map((w) => {
    const errors = errorsOf(w);
    const frames = w.keyFrames.slice();
    return {
      kind: w.kind,
      joint: w.joint,
      tolerance: w.tolerance,
      frames,
      errors: frames.map((f) => (errors ? errors[f] : w.error)),
      worstFrame: w.frame,
      worstError: w.error,
    };
  });
  return { channels, keys: channels.reduce((s, c) => s + c.frames.length, 0), totalKeys, floor: { ...floor } };
}

/**
 * Whether `v` has the shape of an UnreachableSummary (a build's cache entry or record claims one; the report's lines
 * are made from it).
 */
export function isUnreachableSummary(v: unknown): v is UnreachableSummary {
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  const nums = (x: unknown) => Array.isArray(x) && x.every(num);
  if (v === null || typeof v !== 'object') return false;
  const s = v as Record<string, unknown>;
  const f = s.floor as Record<string, unknown> | null | undefined;
  return (
    num(s.keys) &&
    num(s.totalKeys) &&
    f !== null &&
    typeof f === 'object' &&
    num(f.position) &&
    num(f.rotationDeg) &&
    (f.offset === null || num(f.offset)) &&
    (f.object === null || num(f.object)) &&
    Array.isArray(s.channels) &&
    s.channels.every((c: unknown) => {
      const k = c as Record<string, unknown> | null;
      return (
        k !== null &&
        typeof k === 'object' &&
        (k.kind === 'translation' || k.kind === 'rotation' || k.kind === 'offset') &&
        Number.isInteger(k.joint) &&
        num(k.tolerance) &&
        nums(k.frames) &&
        nums(k.errors) &&
        (k.frames as number[]).length === (k.errors as number[]).length &&
        num(k.worstFrame) &&
        num(k.worstError)
      );
    })
  );
}

/**
 * An upper bound of the motion's object-space floor (PrecisionFloor.object) that costs no FK: the root translation's
 * and the offsets' rounding, plus s12's largest rotation error (2 asin(1/2047): each component off by at most half
 * a step) times the lever arms of a chain, as the skeleton-aware mode's guaranteed allocation bounds them
 * (chain_j reach_j, `levers`), with 1 % to spare for the second-order terms. An object-space bound at or above it is
 * surely at or above the floor.
 */
export function objectFloorUpperBound(motion: Motion, levers: number): number {
  const N = motion.frameCount;
  let bound = roundedPositions(translationSource(motion), N).error;
  if ((motion.flags & MotionFlag.OFFSETS) !== 0) {
    let offsets = 0;
    for (let j = 0; j < motion.joints.length; j++)
      offsets = Math.max(offsets, roundedPositions(offsetSource(motion, j), N).error);
    // Every joint of the deepest chain moves a point below it by its offset's error.
    bound += offsets * motion.joints.length;
  }
  return 1.01 * (bound + 2 * Math.asin(1 / 2047) * levers);
}

/** The motion's precision floor (PrecisionFloor); with `shell`, its object-space error too. */
export function precisionFloor(motion: Motion, shell?: number): PrecisionFloor {
  const N = motion.frameCount;
  const J = motion.joints.length;
  const offsets = (motion.flags & MotionFlag.OFFSETS) !== 0;
  const root = roundedPositions(translationSource(motion), N);
  let rotationDeg = 0;
  let offset = offsets ? 0 : null;
  const rotations: RotationTrack[] = [];
  const offsetTracks: PositionTrack[] = [];
  const stored = new Float64Array(4);
  for (let j = 0; j < J; j++) {
    const src = rotationSource(motion, j);
    const ints = new Int16Array((N + 1) * 4);
    for (let f = 0; f <= N; f++) {
      for (let c = 0; c < 4; c++) {
        ints[f * 4 + c] = encodeS12(src[f * 4 + c]);
        stored[c] = decodeS12(ints[f * 4 + c]);
      }
      normalize4(stored, 0);
      rotationDeg = Math.max(rotationDeg, rotationErrorDeg(stored, 0, src, f * 4));
    }
    rotations.push({ frames: everyFrame(N), rotation: ints, inner: ints.slice() });
    if (offsets) {
      const o = roundedPositions(offsetSource(motion, j), N);
      offset = Math.max(offset!, o.error);
      offsetTracks.push(o.track);
    }
  }
  let object: number | null = null;
  if (shell !== undefined) {
    const keyed = { root: root.track, rotations, offsets: offsets ? offsetTracks : null } as Pick<
      Mt3Motion,
      'root' | 'rotations' | 'offsets'
    >;
    object = objectSpaceError(motion, keyed as Mt3Motion, shell).maxError;
  }
  return { position: root.error, rotationDeg, offset, object };
}

function everyFrame(N: number): Uint16Array {
  return Uint16Array.from({ length: N + 1 }, (_, f) => f);
}

/** A position track keyed on every frame with the source rounded to h16, and the worst distance of that rounding. */
function roundedPositions(source: Float64Array, N: number): { track: PositionTrack; error: number } {
  const position = new Uint16Array((N + 1) * 3);
  let error = 0;
  for (let f = 0; f <= N; f++) {
    let e2 = 0;
    for (let c = 0; c < 3; c++) {
      const bits = encodeH16(source[f * 3 + c]);
      position[f * 3 + c] = bits;
      const d = decodeH16(bits) - source[f * 3 + c];
      e2 += d * d;
    }
    error = Math.max(error, Math.sqrt(e2));
  }
  return {
    track: { origin: position.slice(0, 3), frames: everyFrame(N), position, velocity: new Uint16Array((N + 1) * 3) },
    error,
  };
}

/** A channel as a person reads it: `rotation of joint 3 LeftLeg`, `root translation`. */
export function channelName(kind: ChannelKind, joint: number, jointName?: string): string {
  if (kind === 'translation') return 'root translation';
  return `${kind} of joint ${joint}${jointName ? ` ${jointName}` : ''}`;
}

/** A number as the summary shows it: four significant digits. */
const shown = (v: number) =>
  v
    .toPrecision(4)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/** The channels over tolerance, worst first: error over tolerance (a tolerance of 0 first), then error. */
export function worstChannels(s: UnreachableSummary): UnreachableChannel[] {
  const ratio = (c: UnreachableChannel) => (c.tolerance > 0 ? c.worstError / c.tolerance : Infinity);
  return s.channels
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ratio(b.c) - ratio(a.c) || b.c.worstError - a.c.worstError || a.i - b.i)
    .map((x) => x.c);
}

/**
 * The summary as lines for a terminal: how many keys of how many channels are over their tolerance, the worst
 * WORST_SHOWN channels with their real key frames, the precision floor, and `keptBy` (where the whole list is).
 * `objectTolerance`: the skeleton-aware mode's bound, said beside the object-space floor; `asked`: the bound asked,
 * when the mode held the motion to its floor instead (SkeletonModeReport.requestedObjectTolerance).
 */
export function unreachableLines(
  s: UnreachableSummary,
  jointNames: readonly string[],
  keptBy: string,
  objectTolerance?: number,
  asked: number | undefined = objectTolerance,
): string[] {
  const count = (kind: ChannelKind) => s.channels.filter((c) => c.kind === kind).length;
  const parts: string[] = [];
  if (count('translation')) parts.push('the root translation');
  const rot = count('rotation');
  if (rot) parts.push(`${rot} joint rotation${rot === 1 ? '' : 's'}`);
  const off = count('offset');
  if (off) parts.push(`${off} joint offset${off === 1 ? '' : 's'}`);
  const n = s.channels.length;
  const lines = [
    `tolerance not reachable at ${s.keys} of ${s.totalKeys} keys, in ${n} channel${n === 1 ? '' : 's'} (${parts.join(', ')}` +
      `${objectTolerance !== undefined ? `, at the tolerances the object-space bound ${shown(objectTolerance)} gives them` : ''}): ` +
      `h16/s12 cannot store the source that closely there (stored precision limit); every frame that is not a key is within its tolerance`,
  ];
  const unit = (kind: ChannelKind) => (kind === 'rotation' ? ' deg' : ' units');
  const worst = worstChannels(s).slice(0, WORST_SHOWN);
  lines.push(
    `worst: ` +
      worst
        .map(
          (c) =>
            `${channelName(c.kind, c.joint, jointNames[c.joint])} at frame ${c.worstFrame}, ${shown(c.worstError)}${unit(c.kind)} ` +
            `against ${shown(c.tolerance)}${unit(c.kind)}${c.frames.length > 1 ? ` (${c.frames.length} keys over it)` : ''}`,
        )
        .join('; ') +
      (n > worst.length ? `; and ${n - worst.length} more channel${n - worst.length === 1 ? '' : 's'}` : ''),
  );
  const f = s.floor;
  const floors = [`${shown(f.position)} units (root translation)`, `${shown(f.rotationDeg)} deg (rotations)`];
  if (f.offset !== null) floors.push(`${shown(f.offset)} units (offsets)`);
  const object =
    f.object !== null
      ? `; the smallest object-space bound it can be held to is about ${shown(f.object)} (its object-space error with every frame a key${
          asked !== undefined ? `; the bound asked is ${shown(asked)}` : ''
        })`
      : '';
  lines.push(
    `h16/s12 store every frame of this motion within ${floors.join(', ')}: tolerances from there are met everywhere${object}; ${keptBy}`,
  );
  return lines;
}

/**
 * The line that says the skeleton-aware mode held a motion to its floor because the bound asked was below it
 * (SkeletonModeReport.requestedObjectTolerance); undefined when it was not.
 */
export function objectBoundLine(
  skeleton: Pick<SkeletonModeReport, 'objectTolerance' | 'requestedObjectTolerance' | 'met'>,
): string | undefined {
  const asked = skeleton.requestedObjectTolerance;
  if (asked === undefined) return undefined;
  const floor = shown(skeleton.objectTolerance);
  return (
    `object-space bound ${shown(asked)} is below ${floor}, the least h16/s12 can hold this motion to (its ` +
    `object-space error with every frame a key): held to ${floor} instead` +
    (skeleton.met ? `, which every frame meets` : `, NOT met`)
  );
}
