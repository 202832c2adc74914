import { escapeControls } from '../../shared/errors';
/**
 * Interchange: File > Import (BVH, glTF/GLB, FBX; one file or several into the project), File > Export glTF and
 * File > Export MSH. An imported motion becomes an unsaved document in the tuner.
 */
import type {
  ImportBatchItem,
  ImportMotionOutcome,
  ImportedMotion,
  GltfExportSource,
  ImportMotionBatchOutcome,
} from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { basenameOf } from '../../shared/project/paths';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { compressRequestOf } from '../state/compressionStore';
import { askChoice } from './dialogs';
import { askImportOptions, type ImportOptions } from '../interchange/importOptions';
import { askMshExportOptions } from '../interchange/mshExportOptions';
import { projectStore } from '../project/projectStore';
import { addImportedMotions, projectMotionNames } from '../project/projectMotions';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { busy, failureText, notifyError, requireApi } from './appApi';
import { adoptDocument, confirmDiscard } from './motionFiles';
import { beginReplacingImport, endReplacingImport, refusedWhileReplaced } from './replacingImport';
import { warningGroup } from './warningGroup';
import type { InterchangeWarning } from '../../shared/interchange/types';

/** An imported motion becomes an editable document with no file: modified until saved (Save asks for a path). */
function adoptImported(imported: ImportedMotion): void {
  const motion = readMtn(imported.mtnBytes);
  adoptDocument({
    documentId: imported.documentId,
    path: null,
    name: imported.name,
    kind: 'mtn',
    readOnly: false,
    motion,
    unsaved: true,
  });
  const session = sessionStore.getState();
  const source = basenameOf(imported.sourcePath);
  // A snapped source rate (BVH Frame Time .0083333 -> 120 fps) is how the frames were read, not a problem: part of the summary.
  const snap = imported.warnings.find((w) => w.code === 'rate-snapped');
  session.notify(
    'info',
    `Imported ${source}${imported.clip ? ` (clip "${imported.clip}")` : ''}: ${motion.joints.length} joints, frames 0..${motion.frameCount} at ${motion.fps} fps${snap ? ` (${snap.message})` : ''}${imported.summary ? `; ${imported.summary}` : ''}. Not saved yet: Save writes it as an .mtn.`,
  );
  // Importer warnings (truncated names, ignored scale tracks, ...) stay until dismissed: one message, however many.
  const warnings = imported.warnings.filter((w) => w !== snap);
  const group = warningGroup(
    source,
    warnings.map((w) => w.message),
    warnings.map((w) => w.code),
  );
  if (group) session.notifyGroup('warning', group);
}

/**
 * Set by the status bar's Cancel while an import runs (cancelImport): the import ends as cancelled whatever main
 * answers, so a motion whose import finished just before the cancel reached main is not shown either.
 */
let importCancelled = false;

/** Says that an import was cancelled and what stayed as it was. */
function reportCancelledImport(): void {
  const shown = documentStore.getState().motion ? documentStore.getState().name : null;
  sessionStore
    .getState()
    .notify('info', `Import cancelled: nothing was imported${shown ? `; ${shown} stays open` : ''}.`);
}

/** Follows an import through its clip question (a glTF with several clips). */
async function followImport(outcome: ImportMotionOutcome, options: ImportOptions): Promise<void> {
  for (;;) {
    if (importCancelled) {
      if (outcome.status === 'imported')
        void requireApi()
          .closeDocument({ documentId: outcome.motion.documentId })
          .catch(() => undefined);
      if (outcome.status !== 'chosenMany') {
        reportCancelledImport();
        return;
      }
    }
    switch (outcome.status) {
      case 'cancelled':
        return;
      case 'imported':
        adoptImported(outcome.motion);
        return;
      case 'chooseClip': {
        const pick = await askChoice({
          title: 'Import animation clip',
          text: `${escapeControls(outcome.path)} holds ${outcome.clips.length} animation clips. Which one?`,
          list: 'clips',
          buttons: [
            ...outcome.clips.map((c) => ({
              id: String(c.index),
              // A clip's name comes from inside the file: a bidi override or a zero-width character in it is shown escaped.
              label: `#${c.index} ${escapeControls(c.name)}  (${c.duration.toFixed(2)} s)`,
            })),
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        outcome = await requireApi().importMotion({ path: outcome.path, clip: Number(pick), ...options });
        break;
      }
      case 'chosenMany': {
        // Several files: one .mtn each beside them; into the open project (if any) all or nothing, as one undo step.
        // The open motion stays open (a batch writes files, it shows none): it may be saved meanwhile.
        endReplacingImport();
        const project = projectStore.getState();
        const intoProject = project.json !== null && project.path !== null;
        const r = await requireApi().importMotionBatch({
          paths: outcome.paths,
          ...options,
          allOrNothing: intoProject,
          reservedNames: intoProject ? projectMotionNames() : [],
        });
        reportBatch(r, intoProject);
        return;
      }
    }
  }
}

/**
 * A batch file's failure as the error a single import throws, so both read through failureText alike: its plain
 * words (named by file and clip), or its message, led by "Could not import FILE" when it does not say so itself.
 */
function batchItemError(i: ImportBatchItem, what: string): ActGuyApiError {
  const error = i.error ?? '';
  if (i.plain) return new ActGuyApiError({ message: error, plain: { ...i.plain, file: what } });
  return new ActGuyApiError({
    message: /^could not import /i.test(error) ? error : `Could not import ${what}: ${error}`,
  });
}

/** Says what a batch import did: each file's problem, the warnings, then one line for the whole; adds the motions to the project. */
function reportBatch(r: ImportMotionBatchOutcome, intoProject: boolean): void {
  if (r.status === 'cancelled') {
    if (importCancelled) reportCancelledImport();
    return;
  }
  const session = sessionStore.getState();
  // Every file's warnings as one message (a file's name before each), so they never push the failures out.
  const warnings: { line: string; code: InterchangeWarning['code'] }[] = [];
  for (const i of r.items) {
    const what = `${basenameOf(i.sourcePath)}${i.clip !== null ? ` (clip "${i.clip}")` : ''}`;
    if (i.error !== null) session.notify('error', failureText('Import', batchItemError(i, what)));
    for (const w of i.warnings)
      if (w.code !== 'rate-snapped') warnings.push({ line: `${what}: ${w.message}`, code: w.code });
  }
  const group =
    warnings.length === 1
      ? { text: warnings[0]!.line, details: [] }
      : warningGroup(
          'Import',
          warnings.map((w) => w.line),
          warnings.map((w) => w.code),
        );
  if (group) session.notifyGroup('warning', group);
  const done = r.items.filter((i) => i.error === null && r.written.includes(i.mtnPath ?? ''));
  const added =
    intoProject && r.failed === 0 && addImportedMotions(done.map((i) => ({ name: i.name!, mtnPath: i.mtnPath! })));
  session.notify(
    r.failed ? 'error' : 'info',
    `Imported ${r.items.length} motion(s): ${r.conclusion}${added ? `; added ${done.map((i) => i.name).join(', ')} to the project (not saved yet)` : ''}.`,
  );
}

/** File > Import: frame rate and scale, a .bvh/.glb/.gltf (native or in-app dialog), the clip when there are several. */
export async function importMotion(): Promise<void> {
  if (!(await confirmDiscard('import another motion'))) return;
  const options = await askImportOptions();
  if (!options) return;
  importCancelled = false;
  beginReplacingImport(documentStore.getState().documentId);
  try {
    await busy('Import', async () => followImport(await requireApi().importMotionDialog(options), options));
  } finally {
    importCancelled = false;
    endReplacingImport();
  }
}

/**
 * Imports a file the user chose outside File > Import (dropped on the window, and granted by main as a pick): asks
 * about unsaved motion edits and the frame rate and scale as File > Import does, then imports it.
 */
export async function importPath(path: string): Promise<void> {
  if (!(await confirmDiscard('import another motion'))) return;
  const options = await askImportOptions();
  if (!options) return;
  importCancelled = false;
  beginReplacingImport(documentStore.getState().documentId);
  try {
    await busy('Import', async () => followImport(await requireApi().importMotion({ path, ...options }), options));
  } finally {
    importCancelled = false;
    endReplacingImport();
  }
}

/** Stops the import in progress (the status bar's Cancel): nothing is imported, and the message says so. */
export async function cancelImport(): Promise<void> {
  importCancelled = true;
  try {
    await requireApi().cancelImport();
  } catch (err) {
    notifyError('Cancel import failed', err);
  }
}

/**
 * Asks the units of a glTF export: Blender and most viewers read metres, while
 * ActGuy's sample motions are in centimetres. Resolves the scale, or null.
 */
async function askGltfScale(): Promise<number | null> {
  const metres = { id: 'metres', label: 'Centimetres → metres (×0.01)' };
  const asIs = { id: 'as-is', label: 'Keep motion units (×1)' };
  // The choice made last (a preference, kept across restarts) is offered first.
  const first = preferencesStore.getState().gltfExportScale === 1 ? [asIs, metres] : [metres, asIs];
  const pick = await askChoice({
    title: 'Export glTF',
    text: "Blender and most glTF viewers read metres. Scale positions by 0.01 when this motion is in centimetres (the samples are); ActGuy's import undoes the scale.",
    buttons: [{ ...first[0], primary: true }, first[1], { id: 'cancel', label: 'Cancel' }],
  });
  if (pick === 'cancel') return null;
  const scale = pick === 'metres' ? 0.01 : 1;
  preferencesStore.getState().set({ gltfExportScale: scale });
  return scale;
}

/** File > Export glTF: the source motion as edited, or the MT3 the current settings produce, decoded (what the game plays). */
export async function exportGltf(source: GltfExportSource): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  if (refusedWhileReplaced('export', doc.documentId, doc.name)) return;
  if (source === 'compressed' && doc.readOnly) {
    sessionStore
      .getState()
      .notify('warning', 'This motion is already compressed: Export glTF (source) writes it as decoded.');
    return;
  }
  const motion = doc.motion;
  const base = doc.name.replace(/[:/\\]/g, '_');
  const scale = await askGltfScale();
  if (scale === null) return;
  // The menu item is the single export's choice; Export All as glTF offers it next.
  preferencesStore.getState().set({ gltfExportSource: source });
  await busy('Export glTF', async () => {
    const r = await requireApi().exportGltfDialog({
      documentId: doc.documentId!,
      source,
      mtnBytes: writeMtn(motion),
      compress: source === 'compressed' ? compressRequestOf(doc, doc.editId) : undefined,
      scale,
      defaultName: `${base}${source === 'compressed' ? '_compressed' : ''}.glb`,
    });
    if (r.status === 'cancelled') return;
    const f = r.file;
    sessionStore
      .getState()
      .notify(
        'info',
        `Exported ${f.path}: glTF of the ${f.source} motion, ${f.jointCount} joints, frames 0..${f.frameCount}${f.totalKeys === null ? '' : `, ${f.totalKeys} keys`}, ${scale === 1 ? 'motion units' : `positions ×${scale}`}, ${f.byteLength} bytes.`,
      );
  });
}

/**
 * File > Export MSH: the motion as MSH animation (`PREFIX.res8`, `.res19`, `.nodes.json`, written by main as one
 * unit, fitted in a worker). Asks the tolerances, then the .res8 in a save dialog; the message names the files.
 */
export async function exportMsh(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  if (refusedWhileReplaced('export', doc.documentId, doc.name)) return;
  const documentId = doc.documentId;
  const overrides = { ...doc.rotationOverridesDeg };
  const options = await askMshExportOptions(Object.keys(overrides).length);
  if (!options) return;
  const base = doc.name.replace(/[:/\\]/g, '_');
  await busy('Export MSH', async () => {
    const r = await requireApi().exportMshDialog({
      documentId,
      positionTolerance: options.positionTolerance,
      rotationToleranceDeg: options.rotationToleranceDeg,
      rotationToleranceOverridesDeg: options.useJointOverrides ? overrides : undefined,
      defaultName: `${base}.res8`,
    });
    if (r.status === 'cancelled') return;
    const e = r.export;
    const session = sessionStore.getState();
    session.notify(
      'info',
      `Exported MSH animation: ${e.files.res8} (${e.totalKeys} keys), ${e.files.res19} (${e.mapWords} map words, ${e.frameCount} frames) and ${e.files.nodes} (${e.animatedNodes} of ${e.nodeCount} nodes animated).`,
    );
    const group = warningGroup('MSH export', e.warnings);
    if (group) session.notifyGroup('warning', group);
  });
}
