import type { Mt3Motion } from '../mt3/types';

/** Tolerances and naming for one compression run. */
export interface CompressOptions {
  /** Root translation tolerance, motion units (Euclidean). */
  positionTolerance: number;
  /** Joint rotation tolerance in degrees (2*acos|dot|). */
  rotationToleranceDeg: number;
  /** Joint offset tolerance, motion units (only with OFFSETS). */
  offsetTolerance: number;
  /** Per-joint rotation tolerance overrides in degrees, by joint index. */
  rotationToleranceOverridesDeg?: Record<number, number>;
  /** Motion name hashed into the header with GV_StrCode. */
  name: string;
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

/** A tolerance the stored precision cannot meet even with a key on every frame. */
export interface CompressWarning {
  kind: ChannelKind;
  joint: number;
  frame: number;
  error: number;
  tolerance: number;
  message: string;
}

export interface CompressResult {
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
}
