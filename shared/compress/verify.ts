/**
 * Checking a compressed motion that came from somewhere else (a shared build
 * cache) against the motion it claims to be: the MT3 is decoded with the
 * reference decoder and every figure a build reports is computed again from
 * the decoded bytes and the source motion, never read from the claim. See
 * docs/cache.md for the rules.
 */
import { decodeH16, encodeH16 } from '../math/half';
import { normalize4, rotationErrorDeg } from '../math/quat';
import { decodeS12, encodeS12 } from '../math/s12';
import type { Motion } from '../motion/types';
import { motionNameProblem } from '../motionName';
import { mtnByteSize } from '../mtn/constants';
import {
  decodePositionTrack,
  decodeRotationTrack,
  samplePositionTrackFrames,
  sampleRotationTrackFrames,
} from '../mt3/decode';
import { readMt3 } from '../mt3/read';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack } from '../mt3/types';
import { writeMt3 } from '../mt3/write';
import type { CompressedMotion } from '../project/plan';
import { gvStrCode } from '../strcode';
import { mt3Frame, objectFloorAbove, skeletonPositionTolerances, SKELETON_ROUNDS, toleranceWarning } from './compress';
import { precisionFloor, unreachableOf } from './unreachable';
import { defaultShell, objectSpaceError } from './objectError';
import { hasKeyFrame } from './keyList';
import { squadIllConditionedFrame } from './rotationFit';
import { jointUserKeys, offsetSource, rotationSource, translationSource, translationUserKeys } from './sources';
import type { ChannelKind, CompressOptions, CompressWarning } from './types';

export type VerifyOutcome = { ok: true; value: CompressedMotion } | { ok: false; reason: string };

/** A claim that does not hold: the reason says which. */
class Mismatch extends Error {}
const fail = (reason: string): never => {
  throw new Mismatch(reason);
};

/**
 * Whether `bytes` is a correct compression of `motion` under `options`, and
 * if so the figures a build reports, recomputed. `claimed` is the rest of the
 * untrusted summary; only what cannot be recomputed is taken from it, after a
 * range check (the milliseconds the compression took; in the skeleton-aware
 * mode each rotation channel's derived tolerance and the number of rounds).
 *
 * It holds when: the bytes read as an MT3 and write back identically; its
 * name hash, flags, frame count, joint count, trace, waist joint and locks are
 * those the motion gives; every channel's track keeps the user's key frames;
 * every channel's error (decoded bytes against the source, every frame) is
 * within its tolerance, or over it only at key frames whose stored value is
 * as close as the stored precision allows; and in the skeleton-aware mode the
 * object-space error is within the object tolerance. Never throws.
 */
export function verifyCompressed(
  motion: Motion,
  options: CompressOptions,
  bytes: Uint8Array,
  claimed: unknown,
): VerifyOutcome {
  try {
    return { ok: true, value: verifyOrThrow(motion, options, bytes, claimed) };
  } catch (e) {
    if (e instanceof Mismatch) return { ok: false, reason: e.message };
    return { ok: false, reason: `it cannot be checked: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function verifyOrThrow(
  motion: Motion,
  options: CompressOptions,
  bytes: Uint8Array,
  claimed: unknown,
): CompressedMotion {
  const claim = (claimed !== null && typeof claimed === 'object' ? claimed : {}) as Record<string, unknown>;
  let mt3: Mt3Motion;
  try {
    mt3 = readMt3(bytes);
  } catch (e) {
    return fail(`its MT3 does not read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const again = writeMt3(mt3);
  if (again.byteLength !== bytes.byteLength || !again.every((b, i) => b === bytes[i]))
    fail('its MT3 is not in the form the compressor writes');
  const N = motion.frameCount;
  const J = motion.joints.length;
  if (mt3.numFrames !== N) fail(`it has frames 0..${mt3.numFrames}, the motion 0..${N}`);
  if (mt3.rotations.length !== J) fail(`it has ${mt3.rotations.length} joints, the motion ${J}`);
  if (motionNameProblem(options.name)) fail(`the motion name cannot be hashed`);
  const frame = mt3Frame(motion, gvStrCode(options.name));
  if (mt3.name !== frame.name)
    fail(`its name hash is 0x${mt3.name.toString(16)}, not 0x${frame.name.toString(16)} (${options.name})`);
  if (mt3.flags !== frame.flags)
    fail(`its flags are 0x${mt3.flags.toString(16)}, the motion's 0x${frame.flags.toString(16)}`);
  if (mt3.baseTick !== frame.baseTick || mt3.turn !== frame.turn) fail("its header differs from the motion's");
  if (JSON.stringify(mt3.fix) !== JSON.stringify(frame.fix)) fail("its joint locks are not the motion's");
  const move = mt3.move;
  if (!move || !sameArray(move.frames, frame.move!.frames) || !sameArray(move.position, frame.move!.position))
    fail("its trace is not the motion's");
  if ((mt3.offsets !== null) !== ((frame.flags & Mt3Flag.ROOT) !== 0))
    fail('its offset streams do not match the motion');

  const shell = options.shell ?? defaultShell(motion);
  // A bound below the motion's floor is held at the floor, as compressMotion does.
  const asked = options.objectTolerance;
  const clamp = asked === undefined ? undefined : objectFloorAbove(motion, asked, shell);
  const objectTolerance = clamp?.object ?? asked;
  const skeletonMode = objectTolerance !== undefined;
  const positional = skeletonMode ? skeletonPositionTolerances(motion, options, objectTolerance) : options;
  const claimedChannels = Array.isArray(claim.channels) ? claim.channels : [];
  /** The tolerance of rotation channel j: the options', or in the skeleton-aware mode the claimed one, capped by the user's override. */
  const rotationTolerance = (j: number): number => {
    const override = options.rotationToleranceOverridesDeg?.[j];
    if (!skeletonMode) return override ?? options.rotationToleranceDeg;
    const c = claimedChannels[1 + j] as { kind?: unknown; joint?: unknown; tolerance?: unknown } | undefined;
    const t = c?.tolerance;
    if (
      c?.kind !== 'rotation' ||
      c.joint !== j ||
      typeof t !== 'number' ||
      !(t >= 0 && t <= Math.min(180, override ?? 180))
    )
      return fail(`its rotation tolerance of joint ${j} is not a derived one`);
    return t;
  };

  const channels: CompressedMotion['channels'] = [];
  const warnings: CompressWarning[] = [];
  const errorsOf = new Map<string, Float64Array>();
  let totalKeys = 0;
  const check = (
    kind: ChannelKind,
    joint: number,
    frames: Uint16Array,
    userKeys: number[],
    tolerance: number,
    errors: Float64Array,
    bestAtKey: (f: number) => number,
  ) => {
    const where = kind === 'translation' ? 'root translation' : `${kind} of joint ${joint}`;
    for (const f of userKeys) if (!hasKeyFrame(frames, f)) fail(`its ${where} drops the user key at frame ${f}`);
    let maxError = -1;
    let maxErrorFrame = 0;
    for (let f = 0; f <= N; f++) {
      const e = errors[f];
      if (!(e <= tolerance) && !(hasKeyFrame(frames, f) && e <= bestAtKey(f)))
        fail(`its ${where} is off by ${e.toPrecision(4)} at frame ${f} (tolerance ${tolerance})`);
      if (e > maxError) {
        maxError = e;
        maxErrorFrame = f;
      }
    }
    const met = maxError <= tolerance;
    if (!met) {
      const over = Array.from(frames).filter((f) => errors[f] > tolerance);
      warnings.push(toleranceWarning(kind, joint, tolerance, maxError, maxErrorFrame, over));
      errorsOf.set(`${kind} ${joint}`, errors);
    }
    channels.push({ kind, joint, tolerance, maxError, maxErrorFrame, met });
    totalKeys += frames.length;
  };

  const rootSource = translationSource(motion);
  check(
    'translation',
    -1,
    mt3.root.frames,
    translationUserKeys(motion),
    positional.positionTolerance,
    positionErrors(mt3.root, rootSource, N),
    (f) => bestPositionError(rootSource, f),
  );
  mt3.rotations.forEach((track, j) => {
    const source = rotationSource(motion, j);
    // The compressor never writes a Squad that decodes to rounding noise (squadIllConditionedFrame).
    const ill = squadIllConditionedFrame(track.frames, track.rotation, track.inner);
    if (ill >= 0) fail(`its rotation track of joint ${j} has opposite Squad slerps at frame ${ill}`);
    check(
      'rotation',
      j,
      track.frames,
      jointUserKeys(motion, j),
      rotationTolerance(j),
      rotationErrors(track, source, N),
      (f) => bestRotationError(source, f),
    );
  });
  mt3.offsets?.forEach((track, j) => {
    const source = offsetSource(motion, j);
    check(
      'offset',
      j,
      track.frames,
      jointUserKeys(motion, j),
      positional.offsetTolerance,
      positionErrors(track, source, N),
      (f) => bestPositionError(source, f),
    );
  });

  const oe = objectSpaceError(motion, mt3, shell);
  let skeleton: CompressedMotion['skeleton'];
  if (skeletonMode) {
    if (!(oe.maxError <= objectTolerance))
      fail(`its object-space error ${oe.maxError.toPrecision(4)} is over the object tolerance ${objectTolerance}`);
    const rounds = (claim.skeleton as { rounds?: unknown } | undefined)?.rounds;
    if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 1 || rounds > SKELETON_ROUNDS + 1)
      fail('its skeleton-aware round count is not one the compressor gives');
    skeleton = {
      objectTolerance,
      ...(clamp?.object !== undefined ? { requestedObjectTolerance: asked } : {}),
      shell,
      rounds: rounds as number,
      met: true,
      positionTolerance: positional.positionTolerance,
      offsetTolerance: positional.offsetTolerance,
    };
  }
  const ms = typeof claim.ms === 'number' && Number.isFinite(claim.ms) && claim.ms >= 0 ? claim.ms : 0;
  const mtnBytes = mtnByteSize(N, J);
  return {
    bytes,
    totalKeys,
    mt3Bytes: bytes.byteLength,
    mtnBytes,
    ratio: mtnBytes / bytes.byteLength,
    ms,
    method: options.method ?? 'refined',
    ...(skeleton ? { skeleton } : {}),
    objectError: {
      shell: oe.shell,
      jointMaxError: oe.jointMaxError,
      jointMaxErrorFrame: oe.jointMaxErrorFrame,
      maxError: oe.maxError,
      maxErrorJoint: oe.maxErrorJoint,
      maxErrorFrame: oe.maxErrorFrame,
    },
    channels,
    warnings: warnings.map((w) => ({
      kind: w.kind,
      joint: w.joint,
      frame: w.frame,
      error: w.error,
      tolerance: w.tolerance,
      message: w.message,
    })),
    ...(warnings.length > 0
      ? {
          unreachable: unreachableOf(
            warnings,
            (w) => errorsOf.get(`${w.kind} ${w.joint}`),
            totalKeys,
            clamp?.floor ?? precisionFloor(motion, skeletonMode ? shell : undefined),
          ),
        }
      : {}),
  };
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Per frame 0..N: the distance between the decoded track and the source ((N+1) x 3), as the compressor measures it. */
function positionErrors(track: PositionTrack, source: Float64Array, N: number): Float64Array {
  const decoded = samplePositionTrackFrames(decodePositionTrack(track));
  const out = new Float64Array(N + 1);
  for (let f = 0; f <= N; f++) {
    const i = f * 3;
    const dx = decoded[i] - source[i],
      dy = decoded[i + 1] - source[i + 1],
      dz = decoded[i + 2] - source[i + 2];
    out[f] = Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  return out;
}

/** Per frame 0..N: the angle in degrees between the decoded track and the source ((N+1) x 4). */
function rotationErrors(track: RotationTrack, source: Float64Array, N: number): Float64Array {
  const decoded = sampleRotationTrackFrames(decodeRotationTrack(track));
  const out = new Float64Array(N + 1);
  for (let f = 0; f <= N; f++) out[f] = rotationErrorDeg(decoded, f * 4, source, f * 4);
  return out;
}

/** The error of the closest storable key at frame f: the source rounded to h16. */
function bestPositionError(source: Float64Array, f: number): number {
  let e2 = 0;
  for (let c = 0; c < 3; c++) {
    const d = decodeH16(encodeH16(source[f * 3 + c])) - source[f * 3 + c];
    e2 += d * d;
  }
  return Math.sqrt(e2);
}

const stored = new Float64Array(4);
/** The error of the closest storable key rotation at frame f: the source rounded to s12 and normalised. */
function bestRotationError(source: Float64Array, f: number): number {
  for (let c = 0; c < 4; c++) stored[c] = decodeS12(encodeS12(source[f * 4 + c]));
  normalize4(stored, 0);
  return rotationErrorDeg(stored, 0, source, f * 4);
}
