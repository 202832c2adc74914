/**
 * One File > Import as a job: read the source (and a .gltf's external buffers,
 * only from its own folder), run the importer, and return the new motion as
 * MTN bytes, or the clip list when a glTF or FBX holds several clips and none
 * was chosen. Runs in the import worker (importWorker.ts) so parsing a large mocap
 * take or a crafted glTF never stalls the main process; tests run it in-process.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { FormatError, quoteJson, type FileKind } from '../../shared/errors';
import { plainFileProblem, type PlainFileProblem } from '../../shared/fileProblem';
import { ClipChoiceError } from '../../shared/interchange/clips';
import { importMotionBytes, motionSourceKind, type MotionSourceKind } from '../../shared/interchange/importMotion';
import type { BvhPositionReading, InterchangeWarning } from '../../shared/interchange/types';
import type { ImportClipSummary } from '../../shared/ipc/interchange';
import { writeMtn } from '../../shared/mtn/write';
import { systemReason } from '../fsErrors';
import { BINARY_MAGIC, FBX_HEADER_BYTES, fbxSizeFromHead, startsWith } from '../../shared/interchange/fbx/magic';
import { glbSizeFromHead, isGlb } from '../../shared/interchange/gltf/glb';
import { readBytes } from '../fsutil';
import { readHeaderFirst, readHeaderFirstAsync, type HeaderFirstRead } from '../io/readBinary';
import { canonicalPath } from '../pathPolicy';

/** Largest source file (and external buffer) an import reads: a long mocap take is a few tens of MiB. */
export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;

/** What the handler asks (the path already passed the path policy; options already checked). */
export interface ImportJobRequest {
  /** Canonical absolute path of the .bvh/.glb/.gltf/.fbx. */
  path: string;
  fps: number;
  scale: number;
  /** A clip index or name, for a glTF or FBX with several clips. */
  clip?: number | string;
  /** Set the OFFSETS flag even when the offsets are constant (`actguy import --offsets`). */
  offsets?: boolean;
  /** How a BVH's position channels are read (`actguy import --bvh-positions`, File > Import); default auto. */
  bvhPositions?: BvhPositionReading;
}

export type ImportJobResult =
  | {
      status: 'imported';
      sourceKind: MotionSourceKind;
      mtnBytes: Uint8Array;
      warnings: InterchangeWarning[];
      clipName: string | null;
      summary: string | null;
      /** The real paths of the external buffers a .gltf read: inputs too, which no output may replace. */
      buffers: string[];
    }
  | { status: 'chooseClip'; clips: ImportClipSummary[] }
  /** Stopped by cancelImport before it finished. */
  | { status: 'cancelled' }
  /** A failure, as the transports carry it: the message names the file (and the place for a FormatError). */
  | { status: 'failed'; message: string; formatKind?: FileKind; plain?: PlainFileProblem };

/** Runs an import job; never throws (failures come back as `failed`, so they cross a worker boundary intact). */
export async function runImportJob(req: ImportJobRequest, signal?: AbortSignal): Promise<ImportJobResult> {
  try {
    return await importFile(req, signal);
  } catch (e) {
    // Cancelled while its source was read (readHeaderFirstAsync checks the signal between reads), or just after.
    if (signal?.aborted) return { status: 'cancelled' };
    if (e instanceof FormatError)
      return {
        status: 'failed',
        message: e.message,
        formatKind: e.kind,
        plain: plainFileProblem(e.kind, e.detail, e.place, e.file ?? req.path, 'import'),
      };
    return { status: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The bytes of a file to import: a regular file of at most IMPORT_MAX_BYTES (errors name the path). A GLB or a
 * binary FBX has its header checked first (electron/io/readBinary.ts): a bad version, or a GLB whose declared length
 * is not the file's, is refused before the rest is read. The read runs in the import worker, which a cancel stops.
 */
export function readImportSource(path: string): Uint8Array {
  try {
    return readHeaderFirst(path, IMPORT_SOURCE_READ);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new Error(`Could not import ${path}: ${sourceProblem(e, path)}`);
  }
}

/**
 * readImportSource with its reads awaited one at a time and `signal` checked between them (readHeaderFirstAsync):
 * a cancelled import stops reading its source (up to 512 MiB) at the next read. An aborted read rejects with the
 * AbortError as it is; the job answers `cancelled`.
 */
export async function readImportSourceAsync(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  try {
    return await readHeaderFirstAsync(path, { ...IMPORT_SOURCE_READ, signal });
  } catch (e) {
    if (e instanceof FormatError || (e as Error)?.name === 'AbortError') throw e;
    throw new Error(`Could not import ${path}: ${sourceProblem(e, path)}`);
  }
}

/** How an import source is read: a GLB or a binary FBX header first, anything else whole, up to IMPORT_MAX_BYTES. */
const IMPORT_SOURCE_READ: HeaderFirstRead = {
  sniff: FBX_HEADER_BYTES,
  check: (head) =>
    isGlb(head)
      ? { kind: 'GLTF', of: 'an import source', sizeFromHead: glbSizeFromHead }
      : startsWith(head, BINARY_MAGIC)
        ? { kind: 'FBX', of: 'an import source', sizeFromHead: fbxSizeFromHead }
        : undefined,
  limit: IMPORT_MAX_BYTES,
  plain: { bytes: IMPORT_MAX_BYTES, of: 'an import source' },
};

/** Why a source could not be read, in the words the app's import dialog knows (shared/fileProblem.ts). */
function sourceProblem(e: unknown, path: string): string {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'the file does not exist';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ENOTREG':
      return 'it is not a regular file (a device, pipe or socket)';
    case 'EFBIG':
      return `${(statSync(path).size / 1048576).toFixed(0)} MiB is more than the ${IMPORT_MAX_BYTES / 1048576} MiB an import reads`;
    default:
      return systemReason(e);
  }
}

async function importFile(
  { path, fps, scale, clip, offsets, bvhPositions }: ImportJobRequest,
  signal?: AbortSignal,
): Promise<ImportJobResult> {
  const bytes = await readImportSourceAsync(path, signal);
  const sourceKind = motionSourceKind(bytes, path);
  if (!sourceKind)
    throw new FormatError(
      'BVH',
      'not a BVH (no HIERARCHY), glTF/GLB or FBX file; import takes .bvh, .glb, .gltf or .fbx',
      { offset: 0 },
      path,
    );
  if (sourceKind === 'bvh' && clip !== undefined)
    throw new Error(`Could not import ${path}: a clip can be chosen for glTF/GLB and FBX files only`);
  const buffers: string[] = [];
  const resolveUri = externalBufferReader(path, (p) => buffers.push(p));
  let result;
  try {
    result = await importMotionBytes(bytes, path, { fps, scale, clip, offsets, bvhPositions, resolveUri });
  } catch (e) {
    // Several clips and none chosen: the renderer shows them and asks again with `clip`.
    if (e instanceof ClipChoiceError && clip === undefined)
      return {
        status: 'chooseClip',
        clips: e.clips.map((c) => ({ index: c.index, name: c.name, duration: c.duration })),
      };
    throw e;
  }
  // The clip's name when one was chosen among several (an index names it only through the importer).
  const clipName = clip !== undefined ? (result.clip ?? String(clip)) : null;
  return {
    status: 'imported',
    sourceKind,
    mtnBytes: writeMtn(result.motion),
    warnings: result.warnings,
    clipName,
    summary: result.summary ?? null,
    buffers,
  };
}

/**
 * Reads the external buffers a .gltf names, only from inside its own folder
 * (sub-folders included): no absolute paths, no URL schemes, no `..` or
 * symbolic link that leads out of it, only regular files (not a device such
 * as /dev/zero, not a folder) and at most IMPORT_MAX_BYTES. The app's import
 * worker and `actguy import` both use it. It takes the file name the importer
 * decoded from the URI (decoded once there: `%2525` names `%25`, not `%`).
 */
export function externalBufferReader(
  gltfPath: string,
  /** Told the real path of each buffer read (outputs are kept off them). */
  onRead?: (path: string) => void,
): (relativeName: string) => Uint8Array {
  const folder = canonicalPath(dirname(gltfPath));
  return (relativeName) => {
    const refuse = (why: string): never => {
      throw new FormatError('GLTF', `external buffer ${quoteJson(relativeName)} ${why}`, { where: 'buffers' });
    };
    if (/^[a-z][a-z0-9+.-]*:/i.test(relativeName) || isAbsolute(relativeName) || relativeName.startsWith('\\'))
      refuse("is not a file beside the .gltf; ActGuy reads external buffers only from the file's folder");
    const target = canonicalPath(resolve(folder, relativeName));
    const rel = relative(folder, target);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      refuse(`lies outside the folder of the .gltf (${folder}); ActGuy reads external buffers only from there`);
    try {
      const bytes = readLimited(target, 'the buffer');
      onRead?.(target);
      return bytes;
    } catch (e) {
      return refuse(`cannot be read: ${(e as Error).message}`);
    }
  };
}

function readLimited(path: string, what: string): Uint8Array {
  try {
    const stat = statSync(path);
    if (!stat.isFile())
      throw new Error(
        stat.isDirectory() ? 'it is a folder, not a file' : 'it is not a regular file (a device, pipe or socket)',
      );
    const size = stat.size;
    if (size > IMPORT_MAX_BYTES)
      throw new Error(
        `${(size / 1048576).toFixed(0)} MiB is more than the ${IMPORT_MAX_BYTES / 1048576} MiB an import reads`,
      );
    // The limit holds for the file opened too: one swapped in after the stat was read whole (docs/security.md, round 14).
    return readBytes(path, { bytes: IMPORT_MAX_BYTES, of: 'an import source' });
  } catch (e) {
    throw new Error(
      `${what}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : systemReason(e)}`,
    );
  }
}
