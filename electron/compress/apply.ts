import type { CompressCache } from '../../shared/compress/cache';
import { compressMotion } from '../../shared/compress/compress';
import type { CompressOptions } from '../../shared/compress/types';
import type { CompressRequest, CompressResponse } from '../../shared/ipc/compress';
import type { Motion } from '../../shared/motion/types';
import { motionNameProblem } from '../../shared/motionName';

/** Hashed into preview compressions of a document whose name is not a motion name (their bytes are never returned). */
const PREVIEW_NAME = 'preview';

/**
 * Writes what an edit can change (CompressRequest) into a cached motion:
 * word 0 of every key-info vector, the motion flags and the waist joint. The
 * other key-info words and all samples stay as read from the file. Throws an
 * Error naming the mismatch when the arrays do not fit the motion. An edit that
 * breaks an MTN invariant (two locks on one frame) is refused with a
 * FormatError by compressMotion, which validates the motion it is given, so it
 * is not validated twice per recompression here.
 */
export function applyCompressRequest(motion: Motion, req: CompressRequest): void {
  const S = motion.frameCount + 1;
  const J = motion.joints.length;
  if (!(req.translationKeyFlags instanceof Uint32Array) || req.translationKeyFlags.length !== S)
    throw new Error(
      `compress: translationKeyFlags must be a Uint32Array of ${S} entries (frames 0..${S - 1}), found ${describe(req.translationKeyFlags)}`,
    );
  if (!(req.jointKeyFlags instanceof Uint32Array) || req.jointKeyFlags.length !== S * J)
    throw new Error(
      `compress: jointKeyFlags must be a Uint32Array of ${S * J} entries (${S} frames x ${J} joints), found ${describe(req.jointKeyFlags)}`,
    );
  for (let f = 0; f < S; f++) motion.translationKeyInfo[f * 4] = req.translationKeyFlags[f];
  for (let i = 0; i < S * J; i++) motion.jointKeyInfo[i * 4] = req.jointKeyFlags[i];
  motion.flags = req.motionFlags >>> 0;
  motion.waistJoint = req.waistJoint;
}

function describe(v: unknown): string {
  if (ArrayBuffer.isView(v)) return `${Object.prototype.toString.call(v).slice(8, -1)} of ${(v as Uint32Array).length}`;
  return typeof v;
}

/**
 * The compressor's options for a request. The file the user exports carries the hash of its motion name, so an
 * unhashable name stops the export (an Error); a preview returns no bytes, so it compresses under a stand-in name
 * (the name never changes sizes or errors).
 */
export function compressOptionsOfRequest(req: CompressRequest, documentName: string): CompressOptions {
  const t = req.tolerances;
  const requested = req.name ?? documentName;
  const problem = motionNameProblem(requested);
  if (problem && req.includeBytes)
    throw new Error(`cannot write the .mt3: ${problem}; rename the .mtn to a valid motion name`);
  return {
    positionTolerance: t.positionTolerance,
    rotationToleranceDeg: t.rotationToleranceDeg,
    offsetTolerance: t.offsetTolerance,
    rotationToleranceOverridesDeg: req.rotationToleranceOverridesDeg,
    name: problem ? PREVIEW_NAME : requested,
    method: t.method ?? 'refined',
    ...(t.objectTolerance !== undefined ? { objectTolerance: t.objectTolerance } : {}),
    ...(t.shell !== undefined ? { shell: t.shell } : {}),
  };
}

/**
 * Compresses a motion already updated by applyCompressRequest and shapes the
 * response; with the document's cache, unchanged channels are reused. With
 * `shouldStop`, throws CompressAborted as soon as it answers true (between channels).
 */
export function runCompressRequest(
  motion: Motion,
  req: CompressRequest,
  documentName: string,
  cache?: CompressCache,
  shouldStop?: () => boolean,
): CompressResponse {
  const result = compressMotion(motion, compressOptionsOfRequest(req, documentName), cache, shouldStop);
  const response: CompressResponse = {
    status: 'done',
    documentId: req.documentId,
    revision: req.revision,
    mt3: result.mt3,
    channels: result.channels,
    warnings: result.warnings,
    totalKeys: result.totalKeys,
    mt3Bytes: result.mt3Bytes,
    mtnBytes: result.mtnBytes,
    ratio: result.ratio,
    method: result.method,
    objectError: result.objectError,
    ...(result.skeleton ? { skeleton: result.skeleton } : {}),
    compressMs: result.ms,
  };
  if (req.includeBytes) response.bytes = result.bytes;
  return response;
}
