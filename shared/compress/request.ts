/**
 * A compress request and its answers: what a caller holding a motion sends on every recompression (the edits:
 * key flags, motion flags, tolerances) and what comes back. The app carries them between its processes
 * (shared/ipc/compress.ts); the compressor knows nothing of that transport.
 */
import type { Mt3Motion, PositionTrack, RotationTrack } from '../mt3/types';
import type { Motion } from '../motion/types';
import { DEFAULT_TOLERANCES, type ChannelReport, type CompressResult, type CompressTolerances } from './types';

/**
 * Identifies one motion the caller holds: the app's main process caches the decoded motion under this id so
 * compress requests only send what edits change. Opaque string; unique for the life of the main process.
 */
export type DocumentId = string;

/**
 * What an edit can change, sent on every recompression. The main side holds the
 * rest of the motion (sample data, skeleton) under `documentId`.
 */
export interface CompressRequest {
  documentId: DocumentId;
  /**
   * Increases with every request of a document. The worker drops queued requests
   * superseded by a newer revision, and the renderer ignores any response whose
   * revision is older than the newest it has shown.
   */
  revision: number;
  /** Word 0 (KeyFlag bits) of every translation key-info vector: N+1 entries. */
  translationKeyFlags: Uint32Array;
  /** Word 0 (KeyFlag bits) of every joint key-info vector, frame-major: (N+1) x J entries. */
  jointKeyFlags: Uint32Array;
  /** MotionFlag bits. */
  motionFlags: number;
  /** Waist joint for direction correction, -1 if none. */
  waistJoint: number;
  tolerances: CompressTolerances;
  /** Per-joint rotation tolerance overrides in degrees, by joint index. */
  rotationToleranceOverridesDeg?: Record<number, number>;
  /** Motion name hashed into the MT3 header; defaults to the document name. */
  name?: string;
  /** Also return the encoded .mt3 file bytes (off by default to keep responses small). */
  includeBytes?: boolean;
  /**
   * The revision of a complete answer of the same method (classic or refined) for this document that the caller
   * still holds. The compressor may then answer with a CompressDelta against it: what an edit left unchanged
   * (every channel but the one a key toggle touched) does not cross the process boundary again.
   */
  knownRevision?: number;
}

/**
 * A finished compression of one request: the compressor's own result
 * (CompressResult: stored values, per-channel reports, sizes) with the time
 * measured in the worker and the file bytes only when asked for.
 */
export interface CompressResponse extends Pick<
  CompressResult,
  | 'mt3'
  | 'channels'
  | 'warnings'
  | 'totalKeys'
  | 'mt3Bytes'
  | 'mtnBytes'
  | 'ratio'
  | 'method'
  | 'objectError'
  | 'skeleton'
> {
  status: 'done';
  documentId: DocumentId;
  revision: number;
  /** Milliseconds spent in compressMotion inside the worker. */
  compressMs: number;
  /** The encoded MT3 file, only when `includeBytes` was set. */
  bytes?: Uint8Array;
  /**
   * How many channel shares the compression pool compressed the motion in (an export of a long motion, put
   * together by the worker: the same bytes as one job); absent when the worker compressed it alone.
   */
  channelShares?: number;
}

/** A request that a newer revision of the same document replaced before it ran. */
export interface CompressSuperseded {
  status: 'superseded';
  documentId: DocumentId;
  revision: number;
  /** The revision that replaced it. */
  supersededBy: number;
}

/**
 * A finished compression sent as the changes from an answer the caller holds (CompressRequest.knownRevision):
 * every field of CompressResponse, except that a channel report or a stored track that is the base answer's is
 * null. shared/compress/delta.ts makes and applies it; the caller turns it back into a CompressResponse.
 */
export interface CompressDelta extends Omit<CompressResponse, 'status' | 'channels' | 'mt3'> {
  status: 'delta';
  /** The revision of the answer this delta is against. */
  baseRevision: number;
  channels: (ChannelReport | null)[];
  mt3: Omit<Mt3Motion, 'root' | 'rotations' | 'offsets'> & {
    root: PositionTrack | null;
    rotations: (RotationTrack | null)[];
    offsets: (PositionTrack | null)[] | null;
  };
}

export type CompressOutcome = CompressResponse | CompressSuperseded | CompressDelta;

/** Word 0 (the KeyFlag bits) of every 4-word key-info vector: what compression reads from key info. */
export function keyFlagWords(info: Uint32Array): Uint32Array {
  const out = new Uint32Array(info.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = info[i * 4];
  return out;
}

/**
 * The compress request that reproduces a motion as it is: its own key flags,
 * motion flags and waist joint, with the given tolerances (copied).
 */
export function compressRequestForMotion(
  m: Motion,
  documentId: DocumentId,
  revision: number,
  tolerances: CompressTolerances = DEFAULT_TOLERANCES,
): CompressRequest {
  return {
    documentId,
    revision,
    translationKeyFlags: keyFlagWords(m.translationKeyInfo),
    jointKeyFlags: keyFlagWords(m.jointKeyInfo),
    motionFlags: m.flags,
    waistJoint: m.waistJoint,
    tolerances: { ...tolerances },
  };
}
