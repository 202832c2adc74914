/**
 * One entry point for "File > Import" and `actguy import`: bytes of a .bvh,
 * .glb or .gltf in, a new motion and its warnings out. Pure (no file system):
 * the caller reads the bytes, and for a .gltf with external buffers passes
 * `resolveUri`. Errors are FormatErrors (kind 'BVH' or 'GLTF') that name
 * `fileName`; a glTF with several clips and no choice throws
 * GltfClipChoiceError, whose `clips` a UI can offer.
 */
import { FormatError } from '../errors';
import { importBvh } from './bvh/import';
import { decodeUtf8, isGlb } from './gltf/glb';
import { importGltf, type GltfImportOptions } from './gltf/import';
import type { ImportResult } from './types';

export type MotionSourceKind = 'bvh' | 'gltf';

/** Which importer a file needs, from its extension and first bytes; undefined when neither fits. */
export function motionSourceKind(bytes: Uint8Array, fileName: string): MotionSourceKind | undefined {
  const ext = /\.[^./\\]*$/.exec(fileName)?.[0].toLowerCase();
  if (ext === '.glb' || ext === '.gltf' || isGlb(bytes)) return 'gltf';
  if (ext === '.bvh' || /^\s*HIERARCHY/i.test(decodeUtf8(bytes.subarray(0, 64)))) return 'bvh';
  return undefined;
}

/** Imports a BVH or glTF/GLB file's bytes as a motion (see the module comment). */
export async function importMotionBytes(bytes: Uint8Array, fileName: string, options: GltfImportOptions = {}): Promise<ImportResult> {
  const kind = motionSourceKind(bytes, fileName);
  // The caller's mistakes are RangeErrors, raised before the file is read.
  for (const key of ['fps', 'scale'] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new RangeError(`${key} must be a number > 0, got ${v}`);
  }
  if (kind === 'bvh' && options.clip !== undefined) throw new RangeError('a clip can be chosen for glTF/GLB input only');
  try {
    if (kind === 'gltf') return await importGltf(bytes, options);
    if (kind === 'bvh') return importBvh(decodeUtf8(bytes), options);
  } catch (e) {
    if (e instanceof FormatError) throw e.file ? e : e.withFile(fileName);
    // Anything else is a bug of ours (the fuzz harness hunts them); the user still sees which file and why, not a bare JS message.
    const detail = e instanceof Error ? e.message : String(e);
    throw new FormatError(kind === 'gltf' ? 'GLTF' : 'BVH', `could not be imported (${detail}); this is a defect in ActGuy, please report it with the file`, {}, fileName);
  }
  throw new FormatError('BVH', 'not a BVH (no HIERARCHY) nor a glTF/GLB file; import takes .bvh, .glb or .gltf', { offset: 0 }, fileName);
}
