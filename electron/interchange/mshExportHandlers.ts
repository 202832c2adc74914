/**
 * File > Export MSH in the app: the open motion as MSH
 * animation, `PREFIX.res8`, `PREFIX.res19` and `PREFIX.nodes.json`, the same
 * bytes `actguy export-msh` writes (shared/msh/files.ts). electron/handlers.ts
 * spreads these into the API, so Electron IPC and the loopback transport serve
 * them alike.
 *
 * The renderer is untrusted: it names only the .res8; the other two paths are
 * derived here, and each of the three must pass the PathPolicy for writing (a
 * prefix picked in the save dialog grants all three) and must not be a file
 * the motion was read from. The export runs in a worker (CompressClient.exportMsh);
 * the three files are then committed as one unit (build/commit.ts): all three
 * new ones or, on any failure, the old trio as it was and no temp file.
 */
import { basename, dirname, extname, join } from 'node:path';
import { quoteJson } from '../../shared/errors';
import type { ExportMshDialogRequest, ExportMshOutcome, ExportMshRequest } from '../../shared/ipc/interchange';
import type { MshExportOptions } from '../../shared/msh/export';
import { mshFilesOf, mshPrefixOf, type MshFilePaths } from '../../shared/msh/files';
import { commitOutputsAsync, type CommitOptions } from '../build/commit';
import { markMshOutputs } from '../build/mshOutputKinds';
import type { CompressClient } from '../compressClient';
import type { DialogPort, FileFilter } from '../dialogPort';
import type { DocumentTable, HandlerDocument } from '../documents';
import { baseNameOf, pinFolder } from '../fsutil';
import { offeredFileName, requireObject, requirePath, requireRotationOverrides } from '../ipcArgs';
import { findOutputClashes, refuseOverwritingInput } from '../pathIdentity';
import { allowDialogAnswer, quotePath, type PathPolicy } from '../pathPolicy';
import type { ApiHandlersOf } from '../project/types';

const MSH_FILTERS: FileFilter[] = [
  { name: 'MSH animation key pool (.res8; the .res19 and .nodes.json are written beside it)', extensions: ['res8'] },
];

interface MshExportHandlerContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  compress: CompressClient;
  /** The open documents of createHandlers. */
  documents: DocumentTable;
  /** How the three files are committed; a test seam (a failing file-system call), the real file system by default. */
  commit?: CommitOptions;
}

type MshExportHandlers = ApiHandlersOf<'exportMsh' | 'exportMshDialog'>;

export function createMshExportHandlers(ctx: MshExportHandlerContext): MshExportHandlers {
  const { policy, dialogs, compress, documents } = ctx;

  const requireDocument = (id: unknown): HandlerDocument => documents.require(id);

  const exportMsh = async (raw: ExportMshRequest): Promise<ExportMshOutcome> => {
    const req = requireObject<ExportMshRequest>(raw, 'exportMsh');
    const doc = requireDocument(req.documentId);
    const options = requireMshOptions(req, 'exportMsh');
    const given = requirePath(req.path, 'exportMsh: path');
    if (extname(given).toLowerCase() !== '.res8')
      throw new Error(
        `Could not export ${quotePath(given)}: name the .res8 file (the .res19 and .nodes.json are written beside it with the same prefix)`,
      );
    const prefix = mshPrefixOf(given);
    const named = mshFilesOf(prefix);
    const files: MshFilePaths = {
      res8: policy.check(named.res8, 'write'),
      res19: policy.check(named.res19, 'write'),
      nodes: policy.check(named.nodes, 'write'),
    };
    const inputs = [...(doc.inputs ?? []), doc.path];
    for (const path of [named.res8, named.res19, named.nodes]) refuseOverwritingInput('export', path, inputs);
    // Three names, but links could make two of them one file: the second write would replace the first.
    const clashes = findOutputClashes(
      [],
      [
        { path: named.res8, role: 'the .res8' },
        { path: named.res19, role: 'the .res19' },
        { path: named.nodes, role: 'the .nodes.json' },
      ],
    );
    if (clashes.length)
      throw new Error(`Could not export ${quotePath(given)}: ${clashes.join('; ')} (nothing was written)`);

    const shown = `${quotePath(prefix)}.{res8,res19,nodes.json}`;
    // The folder as checked: the export takes seconds, and the commit goes nowhere else (docs/security.md, round 17).
    const folder = pinFolder(dirname(named.res8));
    const out = await compress.exportMsh({
      documentId: req.documentId,
      options,
      // A .mar entry's document name says which entry ("stage:walk"); a file's own name says enough otherwise.
      names: { source: doc.name.includes(':') ? doc.name : basename(doc.path), baseName: basename(prefix) },
    });
    const nodesBytes = new TextEncoder().encode(out.nodesJson);
    let note: string | undefined;
    try {
      // An existing file at a name the page did not pick (and one it did: the page is untrusted) is replaced only
      // when it is that file of an export: another tool's .res19 beside a picked prefix stays.
      // The three temps are written off the main thread (commitOutputsAsync); the journal and renames as ever.
      note = await commitOutputsAsync(
        markMshOutputs(
          [
            { path: named.res8, bytes: out.res8 },
            { path: named.res19, bytes: out.res19 },
            { path: named.nodes, bytes: nodesBytes },
          ],
          'move that file away or export under another name',
        ),
        { ...ctx.commit, folders: folder ? [folder] : [] },
      );
    } catch (e) {
      throw new Error(`Could not export ${shown}: ${(e as Error).message}`);
    }
    for (const path of Object.values(files)) policy.allowFile(path);
    return {
      status: 'exported',
      export: {
        files: named,
        byteLengths: { res8: out.res8.byteLength, res19: out.res19.byteLength, nodes: nodesBytes.byteLength },
        totalKeys: out.totalKeys,
        mapWords: out.mapWords,
        frameCount: out.frameCount,
        nodeCount: out.nodeCount,
        animatedNodes: out.animatedNodes,
        // A note (an interrupted earlier export of these files was finished first) reaches the user with the warnings.
        warnings: note ? [...out.warnings, `note: ${note}`] : out.warnings,
      },
    };
  };

  return {
    exportMsh,

    exportMshDialog: async (raw) => {
      const req = requireObject<ExportMshDialogRequest>(raw, 'exportMshDialog');
      const doc = requireDocument(req.documentId);
      // A bad request is refused before any dialog shows.
      requireMshOptions(req, 'exportMshDialog');
      const fallback = `${baseNameOf(doc.path)}.res8`;
      const name = offeredFileName(req.defaultName, fallback);
      const chosen = await dialogs.chooseFileToSave({
        title: 'Export MSH animation (.res8, .res19, .nodes.json)',
        filters: MSH_FILTERS,
        defaultPath: join(dirname(doc.path), name),
      });
      if (!chosen) return { status: 'cancelled' };
      // Whichever of the three the user named (or a bare prefix), the prefix it gives names all three: the pick grants
      // them, those beside the one named only where they really lie in its folder (a link out grants nothing).
      const files = mshFilesOf(mshPrefixOf(chosen));
      for (const path of [files.res8, files.res19, files.nodes]) allowDialogAnswer(policy, chosen, path);
      const { documentId, positionTolerance, rotationToleranceDeg, rotationToleranceOverridesDeg } = req;
      return exportMsh({
        documentId,
        positionTolerance,
        rotationToleranceDeg,
        rotationToleranceOverridesDeg,
        path: files.res8,
      });
    },
  };
}

/** The export options of a request: tolerances finite and >= 0 (as `actguy export-msh` takes them), overrides by joint index. */
function requireMshOptions(req: ExportMshDialogRequest, what: string): MshExportOptions {
  for (const key of ['positionTolerance', 'rotationToleranceDeg'] as const)
    if (!(typeof req[key] === 'number' && Number.isFinite(req[key]) && req[key] >= 0))
      throw new Error(`${what}: ${key} must be a number >= 0, found ${quoteJson(req[key])}`);
  const overrides =
    req.rotationToleranceOverridesDeg === undefined
      ? {}
      : requireRotationOverrides(req.rotationToleranceOverridesDeg, what, { zeroAllowed: true });
  return {
    positionTolerance: req.positionTolerance,
    rotationToleranceDeg: req.rotationToleranceDeg,
    rotationToleranceOverridesDeg: overrides,
  };
}
