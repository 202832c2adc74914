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
import { objectSpaceError, type ObjectErrorMemo } from './objectError';
import { offsetSource, rotationSource, translationSource } from './sources';
import type { ChannelKind, CompressResult, CompressWarning } from './types';

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
 * and the offsets' rounding, plus, for each joint k, the rounding error of every rotation on its chain times that
 * rotation's lever arm to k's virtual points, the largest over k, with 1 % to spare. A rotation error theta at joint
 * a turns every world rotation below it by at most theta more (angles add under composition), and a vector of
 * length r turned by phi moves by at most phi r, so a point of k moves by at most the sum over a of theta_a times
 * (`shell` plus the offsets from a down to k: `length`, each joint's longest offset). theta_a is the largest
 * angle over frames between joint a's source and its s12 rounding, from their chord (4 asin(|q - q'| / 2), exact
 * at small angles where 2 acos|q.q'| loses half its digits). An object-space bound at or above it is surely at or
 * above the floor. Until round 8 (docs/compression.md) every joint took s12's largest error, 2 asin(1/2047), times
 * the longest lever of a chain: 2.5-3 times this bound on the bundled captures, and above the bounds the bench asks
 * for, so the floor was measured (one FK of every frame) for nothing on each of them.
 */
export function objectFloorUpperBound(motion: Motion, shell: number, length: readonly number[]): number {
  const N = motion.frameCount;
  const J = motion.joints.length;
  let bound = roundedPositions(translationSource(motion), N).error;
  if ((motion.flags & MotionFlag.OFFSETS) !== 0) {
    let offsets = 0;
    for (let j = 0; j < J; j++) offsets = Math.max(offsets, roundedPositions(offsetSource(motion, j), N).error);
    // Every joint of the deepest chain moves a point below it by its offset's error.
    bound += offsets * J;
  } else {
    // Without OFFSETS the MT3 has no offsets: the decoder takes frame 0's (docs/formats.md 2.7), so an offset that
    // moves in the source is off by its drift from frame 0 on every frame, rounding or not. Before round 9
    // (docs/compression.md#round-9-the-seams) the bound left that out and could fall under the floor: a bound asked
    // between the two was kept, and the skeleton-aware mode could not meet it.
    const o = motion.offset;
    let drift = 0;
    for (let i = J * 4; i < o.length; i += 4) {
      const z = i % (J * 4);
      drift = Math.max(drift, Math.hypot(o[i] - o[z], o[i + 1] - o[z + 1], o[i + 2] - o[z + 2]));
    }
    bound += drift * J;
  }
  const theta = new Float64Array(J);
  const stored = new Float64Array(4);
  for (let j = 0; j < J; j++) {
    const src = rotationSource(motion, j);
    let worst = 0;
    for (let f = 0; f <= N; f++) {
      for (let c = 0; c < 4; c++) stored[c] = decodeS12(encodeS12(src[f * 4 + c]));
      normalize4(stored, 0);
      let chordSq = 0;
      for (let c = 0; c < 4; c++) chordSq += (stored[c] - src[f * 4 + c]) ** 2;
      worst = Math.max(worst, chordSq);
    }
    theta[j] = 4 * Math.asin(Math.min(1, Math.sqrt(worst) / 2));
  }
  let rotations = 0;
  for (let k = 0; k < J; k++) {
    let sum = 0;
    let lever = shell;
    for (let a = k; a >= 0; a = motion.joints[a].parent) {
      sum += theta[a] * lever;
      lever += length[a];
    }
    rotations = Math.max(rotations, sum);
  }
  return 1.01 * (bound + rotations);
}

/**
 * The motion's precision floor (PrecisionFloor); with `shell`, its object-space error too (with `memo`, measured
 * with the source points it holds or computes for this motion and shell, which it keeps for the next run).
 */
export function precisionFloor(motion: Motion, shell?: number, memo?: ObjectErrorMemo): PrecisionFloor {
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
    object = objectSpaceError(motion, keyed as Mt3Motion, shell, memo?.sharingSource(motion, shell)).maxError;
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

export { channelName, objectBoundLine, unreachableLines, worstChannels, WORST_SHOWN } from './unreachableText';
