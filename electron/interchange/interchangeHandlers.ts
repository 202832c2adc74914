/**
 * The main-process side of motion interchange in the app: File > Import (BVH, glTF/GLB)
 * as a new unsaved motion, and File > Export glTF of the source motion or of
 * the MT3 the current settings produce, decoded. electron/handlers.ts spreads
 * these into the API, so Electron IPC and the loopback transport serve them alike.
 *
 * The renderer is untrusted: the file to import must be in the allowed set (a
 * file chosen in the dialog becomes allowed; the workspace over loopback), and
 * the external buffers of a .gltf are read only from inside that file's folder
 * (importJob.ts). The parsing runs in a worker per import (importWorker.ts), and
 * an export's reading, decoding and encoding in a worker of its own (glbExportJob.ts).
 * Exports are written atomically to an allowed path.
 */
import { dirname, extname, join } from 'node:path';
import { MOTION_SOURCE_EXTENSIONS } from '../../shared/interchange/importMotion';
import { BVH_POSITION_READINGS, type BvhPositionReading } from '../../shared/interchange/types';
import { quoteJson } from '../../shared/errors';
import {
  IMPORT_FPS_MAX,
  type ExportGltfOutcome,
  type ExportGltfRequest,
  type GltfExportSource,
  type ImportMotionOutcome,
  type ImportMotionBatchRequest,
  type ImportMotionRequest,
} from '../../shared/ipc/interchange';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { isBundleRefusal } from '../../shared/errors';
import type { Mt3Motion } from '../../shared/mt3/types';
import type { CompressClient } from '../compressClient';
import type { DocumentTable, HandlerDocument } from '../documents';
import type { DialogPort, FileFilter } from '../dialogPort';
import { baseNameOf, pinFolder, writeExportedFile } from '../fsutil';
import { offeredFileName, requireBytes, requireCompressRequest, requireObject, requirePath } from '../ipcArgs';
import { allowDialogAnswer, quotePath, withExtension, type PathPolicy } from '../pathPolicy';
import { refuseOverwritingInput } from '../pathIdentity';
import type { ApiHandlersOf } from '../project/types';
import { runBatchImport } from './batchImport';
import { encodeGlbExport, type GlbExported } from './glbExportJob';
import { withPlainFailures, workerImportRunner, type ImportRunner } from './importRunner';

/** Extensions File > Import takes (lower case, with the dot). */
const IMPORT_EXTENSIONS = MOTION_SOURCE_EXTENSIONS;
/** Most files one batch import takes (a technical animator's delivery is dozens). */
const IMPORT_BATCH_MAX = 1000;

const IMPORT_FILTERS: FileFilter[] = [
  { name: 'Motion capture / animation (.bvh, .glb, .gltf, .fbx)', extensions: ['bvh', 'glb', 'gltf', 'fbx'] },
  { name: 'BVH (.bvh)', extensions: ['bvh'] },
  { name: 'glTF (.glb, .gltf)', extensions: ['glb', 'gltf'] },
  { name: 'FBX (.fbx)', extensions: ['fbx'] },
];
const GLB_FILTERS: FileFilter[] = [{ name: 'glTF binary (.glb)', extensions: ['glb'] }];

export type { HandlerDocument } from '../documents';

interface InterchangeHandlerContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  compress: CompressClient;
  /** The open documents of createHandlers: an import adds one, so compress, save and close work on it as on any other. */
  documents: DocumentTable;
  /** How imports run; defaults to a fresh importWorker.cjs (beside the running bundle) per import. */
  runImport?: ImportRunner;
}

type InterchangeHandlers = ApiHandlersOf<
  'importMotion' | 'importMotionDialog' | 'importMotionBatch' | 'cancelImport' | 'exportGltf' | 'exportGltfDialog'
>;

export function createInterchangeHandlers(ctx: InterchangeHandlerContext): InterchangeHandlers {
  const { policy, dialogs, compress, documents } = ctx;
  // Every failure in plain words first, a bad file's or not (the single import and each file of a batch alike).
  const runImport = withPlainFailures(ctx.runImport ?? workerImportRunner());
  /** Imports in progress, so cancelImport can stop them. */
  const importsInFlight = new Set<AbortController>();

  const requireDocument = (id: unknown): HandlerDocument => documents.require(id);

  const importMotion = async (raw: ImportMotionRequest): Promise<ImportMotionOutcome> => {
    const req = requireObject<ImportMotionRequest>(raw, 'importMotion');
    const given = requirePath(req.path, 'importMotion: path');
    if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extname(given).toLowerCase()))
      throw new Error(`Could not import ${given}: File > Import takes .bvh, .glb, .gltf or .fbx files`);
    const path = policy.check(given, 'read');
    const { fps, scale, bvhPositions } = importOptions(req, 'importMotion');
    const clip = req.clip;
    if (clip !== undefined && !(typeof clip === 'string' ? clip.length > 0 : Number.isInteger(clip) && clip >= 0))
      throw new Error('importMotion: clip must be a clip index (an integer >= 0) or a clip name');

    // Parsed in the import worker: a large take or a hostile glTF never stalls the main process.
    const abort = new AbortController();
    importsInFlight.add(abort);
    let job;
    try {
      job = await runImport({ path, fps, scale, clip, bvhPositions }, abort.signal);
    } finally {
      importsInFlight.delete(abort);
    }
    if (job.status === 'cancelled') return { status: 'cancelled' };
    if (job.status === 'failed')
      throw new ActGuyApiError({
        message: job.message,
        formatKind: job.formatKind,
        ...(job.plain ? { plain: job.plain } : {}),
      });
    if (job.status === 'chooseClip') return { status: 'chooseClip', path, clips: job.clips };
    const { sourceKind, mtnBytes, warnings, clipName, summary, buffers } = job;
    const name = suggestedName(baseNameOf(path), clipName);
    const documentId = compress.open({ name, mtnBytes });
    // A .gltf's external buffers are inputs too: no save or export of this motion may replace them (as in the CLI).
    documents.set(documentId, { path: join(dirname(path), `${name}.mtn`), name, inputs: [path, ...buffers] });
    return {
      status: 'imported',
      motion: { documentId, name, sourcePath: path, sourceKind, clip: clipName, mtnBytes, warnings, summary },
    };
  };

  const exportGltf = async (raw: ExportGltfRequest): Promise<ExportGltfOutcome> => {
    const req = requireObject<ExportGltfRequest>(raw, 'exportGltf');
    const doc = requireDocument(req.documentId);
    const source = requireSource(req.source, 'exportGltf: source');
    const given = requirePath(req.path, 'exportGltf: path');
    if (extname(given).toLowerCase() !== '.glb')
      throw new Error(`Could not export ${quotePath(given)}: the file name must end in .glb`);
    const path = policy.check(given, 'write');
    refuseOverwritingInput('export', path, [...(doc.inputs ?? []), doc.path]);
    // The folder as checked: a compressed export waits on the compressor, and the write goes nowhere else (round 17).
    const folder = pinFolder(dirname(path));
    const scale = req.scale === undefined ? 1 : req.scale;
    if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0))
      throw new Error(`exportGltf: scale must be a number > 0, found ${quoteJson(req.scale)}`);
    const mtnBytes = requireBytes(req.mtnBytes, 'exportGltf: mtnBytes');
    let mt3: Mt3Motion | undefined;
    let totalKeys: number | null = null;
    if (source === 'compressed') {
      const compressReq = requireCompressRequest(req.compress, 'exportGltf: compress');
      if (compressReq.documentId !== req.documentId)
        throw new Error('exportGltf: compress.documentId must be the exported document');
      const outcome = await compress.compress({ ...compressReq, includeBytes: false }, { coalesce: false });
      if (outcome.status !== 'done') throw new Error(`Could not export ${path}: the compressor returned no motion`);
      mt3 = outcome.mt3;
      totalKeys = outcome.totalKeys;
    }
    // Read, decoded (the compressed motion, exactly as the game would play it, named and shaped by the edited source
    // motion) and encoded in a worker: on a long capture that is most of a second the window would not answer.
    const job = {
      mtnBytes,
      ...(mt3 ? { mt3 } : {}),
      animationName: source === 'compressed' ? `${doc.name}_compressed` : doc.name,
      scale,
    };
    let exported: GlbExported;
    try {
      exported = compress.exportGlb ? await compress.exportGlb(job) : encodeGlbExport(job);
    } catch (e) {
      if (isBundleRefusal(e)) throw e;
      throw new Error(`Could not export ${path}: ${(e as Error).message}; nothing was written`);
    }
    const { glb } = exported;
    await writeExportedFile(path, glb, folder);
    policy.allowFile(path);
    return {
      status: 'exported',
      file: {
        path,
        name: baseNameOf(path),
        byteLength: glb.byteLength,
        source,
        jointCount: exported.jointCount,
        frameCount: exported.frameCount,
        fps: exported.fps,
        totalKeys,
      },
    };
  };

  return {
    importMotion,
    cancelImport: async () => {
      const cancelled = importsInFlight.size;
      for (const a of importsInFlight) a.abort();
      importsInFlight.clear();
      return { cancelled };
    },

    importMotionDialog: async (raw) => {
      const options =
        raw === undefined || raw === null
          ? {}
          : importOptions(requireObject<ImportMotionRequest>(raw, 'importMotionDialog'), 'importMotionDialog');
      const ask = { title: 'Import motion (BVH, glTF, FBX; several files: one .mtn each)', filters: IMPORT_FILTERS };
      const chosen = dialogs.chooseFilesToOpen
        ? await dialogs.chooseFilesToOpen(ask)
        : await dialogs.chooseFileToOpen(ask).then((p) => (p ? [p] : null));
      if (!chosen?.length) return { status: 'cancelled' };
      for (const p of chosen) policy.allowFile(p);
      if (chosen.length > 1) return { status: 'chosenMany', paths: chosen };
      return importMotion({ path: chosen[0], ...options });
    },

    importMotionBatch: async (raw) => {
      const req = requireObject<ImportMotionBatchRequest>(raw, 'importMotionBatch');
      if (!Array.isArray(req.paths) || req.paths.length === 0 || req.paths.length > IMPORT_BATCH_MAX)
        throw new Error(`importMotionBatch: paths must list 1 to ${IMPORT_BATCH_MAX} files`);
      const paths = req.paths.map((p, i) => {
        const given = requirePath(p, `importMotionBatch: paths[${i}]`);
        if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extname(given).toLowerCase()))
          throw new Error(`Could not import ${given}: File > Import takes .bvh, .glb, .gltf or .fbx files`);
        return policy.check(given, 'read');
      });
      const { fps, scale, bvhPositions } = importOptions(req, 'importMotionBatch');
      const abort = new AbortController();
      importsInFlight.add(abort);
      try {
        // Each file in its own import worker (budget, cancellation); the .mtn files beside the first source.
        const outcome = await runBatchImport(
          paths,
          {
            fps,
            scale,
            bvhPositions,
            outDir: dirname(paths[0]),
            allOrNothing: req.allOrNothing === true,
            reservedNames: Array.isArray(req.reservedNames)
              ? req.reservedNames.filter((n): n is string => typeof n === 'string')
              : [],
            checkOutput: (out) => void policy.check(out, 'write'),
            // The folder as the imports began: they take seconds, and the .mtn files go nowhere else (round 17).
            folder: pinFolder(dirname(paths[0])),
          },
          runImport,
          undefined,
          abort.signal,
        );
        if (outcome.cancelled) return { status: 'cancelled' };
        for (const w of outcome.written) policy.allowFile(w);
        return {
          status: 'done',
          failed: outcome.failed,
          written: outcome.written,
          conclusion: outcome.conclusion,
          items: outcome.items.map((i) => ({
            sourcePath: i.input,
            clip: i.clip,
            name: i.name,
            mtnPath: i.output,
            error: i.error ?? null,
            plain: i.plain ?? null,
            shape: i.shape ?? null,
            warnings: i.warnings,
          })),
        };
      } finally {
        importsInFlight.delete(abort);
      }
    },

    exportGltf,

    exportGltfDialog: async (raw) => {
      const req = requireObject<InterchangeDialogRequest>(raw, 'exportGltfDialog');
      const doc = requireDocument(req.documentId);
      const source = requireSource(req.source, 'exportGltfDialog: source');
      const fallback = `${baseNameOf(doc.path)}${source === 'compressed' ? '_compressed' : ''}.glb`;
      const name = offeredFileName(req.defaultName, fallback);
      const chosen = await dialogs.chooseFileToSave({
        title: source === 'compressed' ? 'Export glTF of the compressed motion' : 'Export glTF of the source motion',
        filters: GLB_FILTERS,
        defaultPath: join(dirname(doc.path), name),
      });
      if (!chosen) return { status: 'cancelled' };
      const path = withExtension(chosen, 'glb');
      allowDialogAnswer(policy, chosen, path);
      return exportGltf({
        documentId: req.documentId,
        source,
        mtnBytes: req.mtnBytes,
        compress: req.compress,
        scale: req.scale,
        path,
      });
    },
  };
}

type InterchangeDialogRequest = Parameters<InterchangeHandlers['exportGltfDialog']>[0];

/** A document name from the source's base name and the chosen clip: letters, digits, `_`, `-` only. */
export function suggestedName(base: string, clip: string | null): string {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const joined = clip ? `${clean(base) || 'motion'}_${clean(clip) || 'clip'}` : clean(base) || 'motion';
  return joined.slice(0, 64);
}

function importOptions(
  req: { fps?: unknown; scale?: unknown; bvhPositions?: unknown },
  what: string,
): { fps: number; scale: number; bvhPositions?: BvhPositionReading } {
  const fps = req.fps === undefined ? 30 : req.fps;
  const scale = req.scale === undefined ? 1 : req.scale;
  if (!(typeof fps === 'number' && Number.isFinite(fps) && fps > 0 && fps <= IMPORT_FPS_MAX))
    throw new Error(`${what}: fps must be a number > 0 and <= ${IMPORT_FPS_MAX}, found ${quoteJson(req.fps)}`);
  if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0))
    throw new Error(`${what}: scale must be a number > 0, found ${quoteJson(req.scale)}`);
  if (req.bvhPositions === undefined) return { fps, scale };
  const bvhPositions = BVH_POSITION_READINGS.find((r) => r === req.bvhPositions);
  if (!bvhPositions)
    throw new Error(
      `${what}: bvhPositions must be one of ${BVH_POSITION_READINGS.join(', ')}, found ${quoteJson(String(req.bvhPositions))}`,
    );
  return { fps, scale, bvhPositions };
}

function requireSource(v: unknown, what: string): GltfExportSource {
  if (v !== 'source' && v !== 'compressed')
    throw new Error(`${what} must be 'source' or 'compressed', found ${quoteJson(v)}`);
  return v;
}
