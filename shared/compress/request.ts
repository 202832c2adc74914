import type { CompressRequest, CompressTolerances } from '../ipc/compress';
import type { DocumentId } from '../ipc/documents';
import type { Motion } from '../motion/types';
import { DEFAULT_TOLERANCES } from './types';

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
  m: Motion, documentId: DocumentId, revision: number, tolerances: CompressTolerances = DEFAULT_TOLERANCES,
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
