/**
 * One entry point for "File > Import" and `actguy import`: bytes of a .bvh,
 * .glb, .gltf or .fbx in, a new motion and its warnings out. Pure (no file
 * system): the caller reads the bytes, and for a .gltf with external buffers
 * passes `resolveUri`. Errors are FormatErrors (kind 'BVH', 'GLTF' or 'FBX')
 * that name `fileName`; a glTF or FBX with several clips and no choice throws
 * ClipChoiceError, whose `clips` a UI can offer. The FBX importer (three.js's
 * FBXLoader) is loaded only when an FBX file is imported.
 */
import { FormatError, isBundleRefusal, type FileKind } from '../errors';
import { ClipChoiceError, type ClipInfo } from './clips';
import { isFbx } from './fbx/magic';
import { decodeUtf8, isGlb } from './gltf/glb';
import { importBvh } from './bvh/import';
import { importGltf, listGltfClips, type GltfImportOptions } from './gltf/import';
import { BVH_POSITION_READINGS, type ImportResult } from './types';

export type MotionSourceKind = 'bvh' | 'gltf' | 'fbx';

/** Extensions the importers take (lower case, with the dot). */
export const MOTION_SOURCE_EXTENSIONS = ['.bvh', '.glb', '.gltf', '.fbx'] as const;

/** Which importer a file needs, from its extension and first bytes; undefined when none fits. */
export function motionSourceKind(bytes: Uint8Array, fileName: string): MotionSourceKind | undefined {
  const ext = /\.[^./\\]*$/.exec(fileName)?.[0].toLowerCase();
  if (ext === '.glb' || ext === '.gltf' || isGlb(bytes)) return 'gltf';
  if (ext === '.fbx' || isFbx(bytes)) return 'fbx';
  if (ext === '.bvh' || /^\s*HIERARCHY/i.test(decodeUtf8(bytes.subarray(0, 64)))) return 'bvh';
  return undefined;
}

const KIND_OF: Record<MotionSourceKind, FileKind> = { bvh: 'BVH', gltf: 'GLTF', fbx: 'FBX' };

/** Imports a BVH, glTF/GLB or FBX file's bytes as a motion (see the module comment). */
export async function importMotionBytes(
  bytes: Uint8Array,
  fileName: string,
  options: GltfImportOptions = {},
): Promise<ImportResult> {
  const kind = motionSourceKind(bytes, fileName);
  // The caller's mistakes are RangeErrors, raised before the file is read.
  for (const key of ['fps', 'scale'] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isFinite(v) && v > 0))
      throw new RangeError(`${key} must be a number > 0, got ${v}`);
  }
  if (options.bvhPositions !== undefined && !BVH_POSITION_READINGS.includes(options.bvhPositions))
    throw new RangeError(
      `bvhPositions must be one of ${BVH_POSITION_READINGS.join(', ')}, got ${String(options.bvhPositions)}`,
    );
  if (kind === 'bvh' && options.clip !== undefined)
    throw new RangeError('a clip can be chosen for glTF/GLB and FBX input only');
  try {
    if (kind === 'gltf') return await importGltf(bytes, options);
    if (kind === 'fbx') return await (await import('./fbx/import')).importFbx(bytes, options);
    if (kind === 'bvh') return importBvh(decodeUtf8(bytes), options);
  } catch (e) {
    throw located(e, kind ?? 'bvh', fileName);
  }
  throw new FormatError(
    'BVH',
    'not a BVH (no HIERARCHY), glTF/GLB or FBX file; import takes .bvh, .glb, .gltf or .fbx',
    { offset: 0 },
    fileName,
  );
}

/** The clips of a glTF/GLB or FBX file (a BVH has one, unnamed: empty). Errors as importMotionBytes. */
export async function listMotionClips(
  bytes: Uint8Array,
  fileName: string,
  options: Pick<GltfImportOptions, 'resolveUri'> = {},
): Promise<ClipInfo[]> {
  const kind = motionSourceKind(bytes, fileName);
  try {
    if (kind === 'gltf') return await listGltfClips(bytes, options);
    if (kind === 'fbx') return await (await import('./fbx/import')).listFbxClips(bytes);
    return [];
  } catch (e) {
    throw located(e, kind ?? 'bvh', fileName);
  }
}

/** An importer's error naming the file; anything but a FormatError is a bug of ours, still reported with the file. */
function located(e: unknown, kind: MotionSourceKind, fileName: string): unknown {
  if (e instanceof FormatError) return e.file ? e : e.withFile(fileName);
  // three.js's chunk refused (a damaged installation): not the file's fault, nor a defect to report with it.
  if (isBundleRefusal(e)) return e;
  // The fuzz harness hunts these; the user still sees which file and why, not a bare JS message.
  const detail = e instanceof Error ? e.message : String(e);
  return new FormatError(
    KIND_OF[kind],
    `could not be imported (${detail}); this is a defect in ActGuy, please report it with the file`,
    {},
    fileName,
  );
}

export { ClipChoiceError };
