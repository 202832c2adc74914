/**
 * The main-process side of issue 6 in the app: File > Import (BVH, glTF/GLB)
 * as a new unsaved motion, and File > Export glTF of the source motion or of
 * the MT3 the current settings produce, decoded. electron/handlers.ts spreads
 * these into the API, so Electron IPC and the loopback transport serve them alike.
 *
 * The renderer is untrusted: the file to import must be in the allowed set (a
 * file chosen in the dialog becomes allowed; the workspace over loopback), and
 * the external buffers of a .gltf are read only from inside that file's folder,
 * after resolving symbolic links, so a crafted .gltf cannot make main read
 * anything else. Exports are written atomically to an allowed path.
 */
import { statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FormatError } from '../../shared/errors';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { GltfClipChoiceError, listGltfClips } from '../../shared/interchange/gltf/import';
import { importMotionBytes, motionSourceKind } from '../../shared/interchange/importMotion';
import type { ImportResult } from '../../shared/interchange/types';
import type {
  CompressRequest,
  DocumentId,
  ExportGltfOutcome,
  ExportGltfRequest,
  GltfExportSource,
  ImportMotionOutcome,
  ImportMotionRequest,
} from '../../shared/ipc';
import type { Motion } from '../../shared/motion/types';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import type { CompressClient } from '../compressClient';
import type { DialogPort, FileFilter } from '../dialogPort';
import { systemReason } from '../fsErrors';
import { baseNameOf, readBytes, writeFileAtomic } from '../fsutil';
import { requireObject, requireString } from '../ipcArgs';
import { canonicalPath, type PathPolicy } from '../pathPolicy';
import type { ApiHandlersOf } from '../project/types';

/** Extensions File > Import takes (lower case, with the dot). */
export const IMPORT_EXTENSIONS = ['.bvh', '.glb', '.gltf'] as const;
/** Largest source file (and external buffer) read for an import: a long mocap take is a few tens of MiB. */
export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;
/** Highest import frame rate accepted (more only makes huge motions; MGS2 plays at 30). */
export const IMPORT_MAX_FPS = 1000;

const IMPORT_FILTERS: FileFilter[] = [
  { name: 'Motion capture / animation (.bvh, .glb, .gltf)', extensions: ['bvh', 'glb', 'gltf'] },
  { name: 'BVH (.bvh)', extensions: ['bvh'] },
  { name: 'glTF (.glb, .gltf)', extensions: ['glb', 'gltf'] },
];
const GLB_FILTERS: FileFilter[] = [{ name: 'glTF binary (.glb)', extensions: ['glb'] }];

/** A document as electron/handlers.ts keeps it: the file it saves beside and the name compress defaults to. */
export interface HandlerDocument {
  /**
   * Its file. An imported motion has none yet: this is then the path Save As
   * proposes (`<source folder>/<suggested name>.mtn`); nothing reads it.
   */
  path: string;
  name: string;
}

export interface InterchangeHandlerContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  compress: CompressClient;
  /** The open documents of createHandlers: an import adds one, so compress, save and close work on it as on any other. */
  documents: Map<DocumentId, HandlerDocument>;
  /** createHandlers' compress-request check (shape, array types, tolerances > 0), so exports refuse what compressMotion refuses. */
  checkCompressRequest(v: unknown, what: string): CompressRequest;
}

export type InterchangeHandlers = ApiHandlersOf<'importMotion' | 'importMotionDialog' | 'exportGltf' | 'exportGltfDialog'>;

export function createInterchangeHandlers(ctx: InterchangeHandlerContext): InterchangeHandlers {
  const { policy, dialogs, compress, documents } = ctx;

  const requireDocument = (id: unknown): HandlerDocument => {
    const doc = typeof id === 'string' ? documents.get(id) : undefined;
    if (!doc) throw new Error(`document ${String(id)} is not open (open or import a motion first)`);
    return doc;
  };

  const importMotion = async (raw: ImportMotionRequest): Promise<ImportMotionOutcome> => {
    const req = requireObject<ImportMotionRequest>(raw, 'importMotion');
    const given = requireString(req.path, 'importMotion: path');
    if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extname(given).toLowerCase()))
      throw new Error(`Could not import ${given}: File > Import takes .bvh, .glb or .gltf files`);
    const path = policy.check(given, 'read');
    const { fps, scale } = importOptions(req, 'importMotion');
    const clip = req.clip;
    if (clip !== undefined && !(typeof clip === 'string' ? clip.length > 0 : Number.isInteger(clip) && clip >= 0))
      throw new Error('importMotion: clip must be a clip index (an integer >= 0) or a clip name');

    const bytes = readLimited(path, `Could not import ${path}`);
    const sourceKind = motionSourceKind(bytes, path);
    if (!sourceKind) throw new FormatError('BVH', 'not a BVH (no HIERARCHY) nor a glTF/GLB file; import takes .bvh, .glb or .gltf', { offset: 0 }, path);
    if (sourceKind === 'bvh' && clip !== undefined) throw new Error(`Could not import ${path}: a clip can be chosen for glTF/GLB files only`);
    const resolveUri = externalBufferReader(path);

    let result: ImportResult;
    try {
      result = await importMotionBytes(bytes, path, { fps, scale, clip, resolveUri });
    } catch (e) {
      // Several clips and none chosen: the renderer shows them and asks again with `clip`.
      if (e instanceof GltfClipChoiceError && clip === undefined)
        return { status: 'chooseClip', path, clips: e.clips.map((c) => ({ index: c.index, name: c.name, duration: c.duration })) };
      throw e;
    }

    // The clip's name, when one was chosen among several (an index names it only through the list).
    let clipName: string | null = null;
    if (sourceKind === 'gltf' && clip !== undefined) {
      const clips = await listGltfClips(bytes, { resolveUri });
      clipName = (clips.find((c) => c.name === String(clip)) ?? clips.find((c) => c.index === Number(clip)))?.name ?? String(clip);
    }
    const name = suggestedName(baseNameOf(path), clipName);
    const mtnBytes = writeMtn(result.motion);
    const documentId = compress.open({ name, mtnBytes });
    documents.set(documentId, { path: join(dirname(path), `${name}.mtn`), name });
    return {
      status: 'imported',
      motion: { documentId, name, sourcePath: path, sourceKind, clip: clipName, mtnBytes, warnings: result.warnings },
    };
  };

  const exportGltf = async (raw: ExportGltfRequest): Promise<ExportGltfOutcome> => {
    const req = requireObject<ExportGltfRequest>(raw, 'exportGltf');
    const doc = requireDocument(req.documentId);
    const source = requireSource(req.source, 'exportGltf: source');
    const given = requireString(req.path, 'exportGltf: path');
    if (extname(given).toLowerCase() !== '.glb') throw new Error(`Could not export ${given}: the file name must end in .glb`);
    const path = policy.check(given, 'write');
    const scale = req.scale === undefined ? 1 : req.scale;
    if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0)) throw new Error(`exportGltf: scale must be a number > 0, found ${String(req.scale)}`);
    if (!(req.mtnBytes instanceof Uint8Array)) throw new Error('exportGltf: mtnBytes must be a Uint8Array');
    let motion: Motion;
    try {
      motion = readMtn(req.mtnBytes);
    } catch (e) {
      throw new Error(`Could not export ${path}: the motion is not a valid MTN file (${(e as Error).message}); nothing was written`);
    }

    let exported = motion;
    let totalKeys: number | null = null;
    if (source === 'compressed') {
      const compressReq = ctx.checkCompressRequest(req.compress, 'exportGltf: compress');
      if (compressReq.documentId !== req.documentId) throw new Error('exportGltf: compress.documentId must be the exported document');
      const outcome = await compress.compress({ ...compressReq, includeBytes: false }, { coalesce: false });
      if (outcome.status !== 'done') throw new Error(`Could not export ${path}: the compressor returned no motion`);
      // Decoded exactly as the game would play it, named and shaped by the edited source motion.
      exported = decodeMt3ToMotion(outcome.mt3, motion);
      totalKeys = outcome.totalKeys;
    }
    const glb = motionToGlb(exported, { animationName: source === 'compressed' ? `${doc.name}_compressed` : doc.name, scale });
    try {
      writeFileAtomic(path, glb);
    } catch (e) {
      throw new Error(`Could not export ${path}: ${systemReason(e)}; the file on disk is unchanged`);
    }
    policy.allowFile(path);
    return {
      status: 'exported',
      file: {
        path, name: baseNameOf(path), byteLength: glb.byteLength, source,
        jointCount: exported.joints.length, frameCount: exported.frameCount, fps: exported.fps, totalKeys,
      },
    };
  };

  return {
    importMotion,

    importMotionDialog: async (raw) => {
      const options = raw === undefined || raw === null ? {} : importOptions(requireObject<ImportMotionRequest>(raw, 'importMotionDialog'), 'importMotionDialog');
      const chosen = await dialogs.chooseFileToOpen({ title: 'Import motion (BVH, glTF)', filters: IMPORT_FILTERS });
      if (!chosen) return { status: 'cancelled' };
      policy.allowFile(chosen);
      return importMotion({ path: chosen, ...options });
    },

    exportGltf,

    exportGltfDialog: async (raw) => {
      const req = requireObject<InterchangeDialogRequest>(raw, 'exportGltfDialog');
      const doc = requireDocument(req.documentId);
      const source = requireSource(req.source, 'exportGltfDialog: source');
      const fallback = `${baseNameOf(doc.path)}${source === 'compressed' ? '_compressed' : ''}.glb`;
      const name = typeof req.defaultName === 'string' && req.defaultName && !/[\\/]/.test(req.defaultName) ? req.defaultName : fallback;
      const chosen = await dialogs.chooseFileToSave({
        title: source === 'compressed' ? 'Export glTF of the compressed motion' : 'Export glTF of the source motion',
        filters: GLB_FILTERS,
        defaultPath: join(dirname(doc.path), name),
      });
      if (!chosen) return { status: 'cancelled' };
      const path = extname(chosen).toLowerCase() === '.glb' ? chosen : `${chosen}.glb`;
      policy.allowFile(path);
      return exportGltf({ documentId: req.documentId, source, mtnBytes: req.mtnBytes, compress: req.compress, scale: req.scale, path });
    },
  };
}

type InterchangeDialogRequest = Parameters<InterchangeHandlers['exportGltfDialog']>[0];

/**
 * Reads the external buffers a .gltf names, only from inside its own folder
 * (sub-folders included): no absolute paths, no URL schemes, no `..` or
 * symbolic link that leads out of it.
 */
export function externalBufferReader(gltfPath: string): (uri: string) => Uint8Array {
  const folder = canonicalPath(dirname(gltfPath));
  return (uri) => {
    const refuse = (why: string): never => {
      throw new FormatError('GLTF', `external buffer ${JSON.stringify(uri)} ${why}`, { where: 'buffers' });
    };
    let relativeName: string;
    try {
      relativeName = decodeURIComponent(uri);
    } catch {
      return refuse('is not a valid URI');
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(relativeName) || isAbsolute(relativeName) || relativeName.startsWith('\\'))
      refuse('is not a file beside the .gltf; ActGuy reads external buffers only from the file\'s folder');
    const target = canonicalPath(resolve(folder, relativeName));
    const rel = relative(folder, target);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      refuse(`lies outside the folder of the .gltf (${folder}); ActGuy reads external buffers only from there`);
    try {
      return readLimited(target, 'the buffer');
    } catch (e) {
      return refuse(`cannot be read: ${(e as Error).message}`);
    }
  };
}

/** A document name from the source's base name and the chosen clip: letters, digits, `_`, `-` only. */
export function suggestedName(base: string, clip: string | null): string {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const joined = clip ? `${clean(base) || 'motion'}_${clean(clip) || 'clip'}` : clean(base) || 'motion';
  return joined.slice(0, 64);
}

function importOptions(req: { fps?: unknown; scale?: unknown }, what: string): { fps: number; scale: number } {
  const fps = req.fps === undefined ? 30 : req.fps;
  const scale = req.scale === undefined ? 1 : req.scale;
  if (!(typeof fps === 'number' && Number.isFinite(fps) && fps > 0 && fps <= IMPORT_MAX_FPS))
    throw new Error(`${what}: fps must be a number > 0 and <= ${IMPORT_MAX_FPS}, found ${String(req.fps)}`);
  if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0)) throw new Error(`${what}: scale must be a number > 0, found ${String(req.scale)}`);
  return { fps, scale };
}

function readLimited(path: string, what: string): Uint8Array {
  try {
    const size = statSync(path).size;
    if (size > IMPORT_MAX_BYTES) throw new Error(`${(size / 1048576).toFixed(0)} MiB is more than the ${IMPORT_MAX_BYTES / 1048576} MiB an import reads`);
    return readBytes(path);
  } catch (e) {
    throw new Error(`${what}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : systemReason(e)}`);
  }
}

function requireSource(v: unknown, what: string): GltfExportSource {
  if (v !== 'source' && v !== 'compressed') throw new Error(`${what} must be 'source' or 'compressed', found ${JSON.stringify(v)}`);
  return v;
}
