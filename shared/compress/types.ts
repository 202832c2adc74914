import type { PrecisionFloor } from './unreachable';
import type { Mt3Motion } from '../mt3/types';
import type { ObjectErrorReport } from './objectError';

/** Tolerances and naming for one compression run. */
export interface CompressOptions extends CompressTolerances {
  /** Per-joint rotation tolerance overrides in degrees, by joint index. */
  rotationToleranceOverridesDeg?: Record<number, number>;
  /** Motion name hashed into the header with GV_StrCode. */
  name: string;
  /**
   * false: the per-joint mode leaves `objectError` null instead of measuring it (a caller that shows none of
   * it, as `compress --quiet` without a report; the measure is a fifth of a classic run). The skeleton-aware
   * mode measures it regardless.
   */
  measureObjectError?: boolean;
}

/**
 * How keys are chosen (docs/compression.md). 'classic': the greedy max-error
 * insertion with closed-form fits, exactly ActGuy's original rule. 'refined':
 * the same greedy pass, then a removal pass with inner quaternions searched
 * against the source (rotations) and the exact DP optimum of the Hermite fit
 * (root translation and offsets). Both bound the error of the written bytes.
 */
export type CompressMethod = 'classic' | 'refined';

/**
 * The tolerances of one compression run, as the tuner edits them, a compress request carries them and the
 * tuning file and backups store them: the one declaration of them.
 */
export interface CompressTolerances {
  /** Root translation tolerance, motion units (Euclidean). */
  positionTolerance: number;
  /** Joint rotation tolerance in degrees (2*acos|dot|). */
  rotationToleranceDeg: number;
  /** Joint offset tolerance, motion units (only with OFFSETS). */
  offsetTolerance: number;
  /** Key selection: 'refined' (default, also when absent) or ActGuy's original 'classic' greedy rule. */
  method?: CompressMethod;
  /**
   * Skeleton-aware mode: bound the object-space error (FK at every joint and
   * its virtual points) to this many motion units instead of per-joint
   * degrees; per-joint rotation tolerances are derived from the chain
   * (rotationToleranceDeg is then unused; overrides still cap a joint). Off when absent.
   */
  objectTolerance?: number;
  /**
   * Distance of the virtual points from each joint along its axes, motion
   * units; default DEFAULT_SHELL_FRACTION of the skeleton size (objectError.ts).
   */
  shell?: number;
}

export const DEFAULT_TOLERANCES = {
  positionTolerance: 0.5,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.5,
} as const;

export type ChannelKind = 'translation' | 'rotation' | 'offset';

/** What the compressor reports for one channel. */
export interface ChannelReport {
  kind: ChannelKind;
  /** Joint index; -1 for the root translation. */
  joint: number;
  /** Key frames in increasing order (0 and N always included). */
  keyFrames: number[];
  /** The subset of keyFrames forced by user KEY flags. */
  userKeyFrames: number[];
  /** Tolerance used (units or degrees). */
  tolerance: number;
  /** Largest error over frames 0..N of the written bytes, and its (earliest) frame. */
  maxError: number;
  maxErrorFrame: number;
  /** Error of the written bytes at every frame 0..N (units or degrees). */
  errors: Float64Array;
  /** Whether maxError <= tolerance. */
  met: boolean;
}

/**
 * A tolerance the stored precision cannot meet: only key frames of the written
 * track can be over it (docs/compression.md#the-guarantee), where h16 / s12
 * cannot store the source value closely enough.
 */
export interface CompressWarning {
  kind: ChannelKind;
  joint: number;
  /** The key frame with the largest error (earliest on ties). */
  frame: number;
  error: number;
  tolerance: number;
  /** Every key frame of the written track over the tolerance, ascending (`frame` is one of them). */
  keyFrames: number[];
  message: string;
}

/** What the skeleton-aware mode did. */
export interface SkeletonModeReport {
  /**
   * The bound the mode held the motion to: the one asked, or the motion's object-space floor when the one asked is
   * below it (requestedObjectTolerance then says what was asked; docs/compression.md#below-the-floor).
   */
  objectTolerance: number;
  /**
   * Present when the bound asked was below what h16/s12 can hold this motion to (its object-space error with every
   * frame a key): the bound asked. objectTolerance is then that floor.
   */
  requestedObjectTolerance?: number;
  shell: number;
  /** Compress-and-check rounds run. */
  rounds: number;
  /** Whether the object-space error is within objectTolerance. */
  met: boolean;
  /** Root translation and offset tolerances used (the requested ones capped by the object tolerance). */
  positionTolerance: number;
  offsetTolerance: number;
}

export interface CompressResult {
  /** How keys were chosen ('dp-reference': dpReferenceStrategy of referenceFit.ts, tests and the bench only). */
  method: CompressMethod | 'dp-reference';
  /** Stored values (h16 bits / s12 ints) exactly as written. */
  mt3: Mt3Motion;
  /** The encoded MT3 file. */
  bytes: Uint8Array;
  /** One report per channel with per-frame errors. */
  channels: ChannelReport[];
  warnings: CompressWarning[];
  totalKeys: number;
  mt3Bytes: number;
  mtnBytes: number;
  /** mtnBytes / mt3Bytes. */
  ratio: number;
  /** Wall-clock milliseconds of the compression. */
  ms: number;
  /** Object-space error of the written bytes (FK at joints and virtual points); set by compressMotion. */
  objectError: ObjectErrorReport | null;
  /** Present in the skeleton-aware mode. */
  skeleton?: SkeletonModeReport;
  /**
   * The motion's precision floor (unreachable.ts), set by compressMotion when some key is over its tolerance (a
   * warning), for the summary of such keys that the CLI and builds give.
   */
  precisionFloor?: PrecisionFloor;
}

/**
 * Thrown by compressMotion when its `shouldStop` hook answers true (checked
 * before every channel): the caller no longer wants this result, for example
 * because a newer edit of the same motion is waiting. Nothing is half-written:
 * the channels finished before it stay valid in the cache.
 */
export class CompressAborted extends Error {
  constructor() {
    super('compression stopped: a newer request replaced it');
    this.name = 'CompressAborted';
  }
}
