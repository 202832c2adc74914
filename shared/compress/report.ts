import type { Motion } from '../motion/types';
import type { ObjectErrorReport } from './objectError';
import type { CompressResult } from './types';
import { unreachableSummary, type PrecisionFloor, type UnreachableSummary } from './unreachable';

/** The JSON written by `actguy compress --report` and by project builds. */
export interface CompressReportJson {
  input: string;
  output: string;
  frames: number;
  joints: number;
  totalKeys: number;
  mt3Bytes: number;
  mtnBytes: number;
  ratio: number;
  milliseconds: number;
  /** 'classic' or 'refined'. */
  method: string;
  /** Object-space error of the written bytes (FK at each joint and its virtual points), motion units. */
  objectError: {
    shell: number;
    maxError: number;
    maxErrorJoint: number;
    maxErrorFrame: number;
    joints: { joint: number; jointName: string; maxError: number; maxErrorFrame: number }[];
  } | null;
  /** The skeleton-aware mode's bound and outcome, when it was used. */
  skeleton: {
    objectTolerance: number;
    /** The bound asked, when it was below the motion's floor and the mode held it to that floor (objectTolerance). */
    requestedObjectTolerance?: number;
    shell: number;
    met: boolean;
    rounds: number;
    positionTolerance: number;
    offsetTolerance: number;
  } | null;
  warnings: string[];
  /**
   * Every key over its tolerance (docs/compression.md#the-guarantee), by channel, with its error in the written
   * file, and the motion's precision floor; null when every key is within its tolerance.
   */
  unreachable: {
    keys: number;
    precisionFloor: PrecisionFloor;
    channels: {
      kind: string;
      joint: number;
      jointName: string | null;
      tolerance: number;
      frames: number[];
      errors: number[];
    }[];
  } | null;
  channels: {
    kind: string;
    joint: number;
    jointName: string | null;
    keyFrames: number[];
    userKeyFrames: number[];
    tolerance: number;
    maxError: number;
    maxErrorFrame: number;
    toleranceMet: boolean;
  }[];
}

/** `unreachable`: the keys over tolerance (unreachableSummary), when the caller has it already. */
export function compressReport(
  motion: Motion,
  r: CompressResult,
  input: string,
  output: string,
  unreachable: UnreachableSummary | undefined = unreachableSummary(motion, r),
): CompressReportJson {
  return {
    input,
    output,
    frames: motion.frameCount,
    joints: motion.joints.length,
    totalKeys: r.totalKeys,
    mt3Bytes: r.mt3Bytes,
    mtnBytes: r.mtnBytes,
    ratio: r.ratio,
    milliseconds: r.ms,
    method: r.method,
    objectError: objectErrorJson(motion, r.objectError),
    skeleton: r.skeleton ? { ...r.skeleton } : null,
    warnings: r.warnings.map((w) => w.message),
    unreachable: unreachableJson(motion, unreachable),
    channels: r.channels.map((c) => ({
      kind: c.kind,
      joint: c.joint,
      jointName: c.joint >= 0 ? motion.joints[c.joint].name : null,
      keyFrames: c.keyFrames,
      userKeyFrames: c.userKeyFrames,
      tolerance: c.tolerance,
      maxError: c.maxError,
      maxErrorFrame: c.maxErrorFrame,
      toleranceMet: c.met,
    })),
  };
}

/** The object-space error for a JSON report: per joint, named, without the per-frame array. */
export function objectErrorJson(
  motion: Pick<Motion, 'joints'>,
  oe: Omit<ObjectErrorReport, 'frameMaxError'> | null,
): CompressReportJson['objectError'] {
  if (!oe) return null;
  return {
    shell: oe.shell,
    maxError: oe.maxError,
    maxErrorJoint: oe.maxErrorJoint,
    maxErrorFrame: oe.maxErrorFrame,
    joints: oe.jointMaxError.map((e, j) => ({
      joint: j,
      jointName: motion.joints[j].name,
      maxError: e,
      maxErrorFrame: oe.jointMaxErrorFrame[j],
    })),
  };
}

/** The report's `unreachable` (a compression's or a build motion's) from the summary, the channels named. */
export function unreachableJson(
  motion: Pick<Motion, 'joints'>,
  s: UnreachableSummary | undefined,
): CompressReportJson['unreachable'] {
  if (!s) return null;
  return {
    keys: s.keys,
    precisionFloor: s.floor,
    channels: s.channels.map((c) => ({
      kind: c.kind,
      joint: c.joint,
      jointName: c.joint >= 0 ? motion.joints[c.joint].name : null,
      tolerance: c.tolerance,
      frames: c.frames,
      errors: c.errors,
    })),
  };
}
