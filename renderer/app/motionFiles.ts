/**
 * The tuner's motion files: open (with its follow-up questions), close, save, save as and export .mt3. Unsaved
 * edits are asked about before they would be lost (renderer/app/unsaved.ts); every API failure becomes a readable
 * message and the current document stays as it was.
 */
import type { OpenMotionOutcome, OpenedMotion } from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { basenameOf } from '../../shared/project/paths';
import { documentStore, type LoadDocument } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { compressRequestOf } from '../state/compressionStore';
import { askChoice } from './dialogs';
import { saveMindingDisk } from './changedOnDisk';
import { adoptTuningFile, markTuningSaved, projectTuning, tuningTextToSave } from '../tuner/motionTuning';
import { confirmUnsaved } from './unsaved';
import { busy, connectedApi, notifyError, requireApi } from './appApi';
import { refusedWhileReplaced } from './replacingImport';

/**
 * Asks before unsaved motion edits are thrown away (opening another motion or closing it replaces only the tuner's
 * document; the SEV and the project stay open). Resolves true to go on. Flows that also replace the SEV or the
 * project ask with confirmUnsaved themselves, naming those too.
 */
export async function confirmDiscard(action: string): Promise<boolean> {
  return confirmUnsaved(action, ['motion']);
}

/**
 * The joint to select in a newly opened motion: the one with the same name as the joint selected before (skeletons
 * differ in order, so "9 RightFoot" must not become "9 LeftForeArm"); the root when the name is not there; the same
 * index when there was no motion before or its joints are unnamed.
 */
export function carryJointSelection(
  selected: number,
  before: readonly { name: string }[] | null,
  after: readonly { name: string }[],
): number {
  if (after.length === 0) return -1;
  if (selected < 0) return selected;
  const name = before?.[selected]?.name;
  if (!before || !name) return Math.min(selected, after.length - 1);
  const byName = after.findIndex((j) => j.name === name);
  return byName >= 0 ? byName : 0;
}

/** Shows a new document (opened, imported or restored) with the default tolerances unless it brings its own; main forgets the one it replaces. */
export function adoptDocument(doc: LoadDocument): void {
  const previous = documentStore.getState().documentId;
  const previousJoints = documentStore.getState().motion?.joints ?? null;
  documentStore
    .getState()
    .load({ ...doc, tolerances: doc.tolerances ?? { ...preferencesStore.getState().defaultTolerances } });
  const session = sessionStore.getState();
  session.resetForDocument(doc.motion.frameCount);
  session.select(carryJointSelection(session.selectedJoint, previousJoints, doc.motion.joints));
  session.requestFrameAll();
  if (previous && previous !== doc.documentId)
    void connectedApi()
      ?.closeDocument({ documentId: previous })
      .catch(() => undefined);
}

function adoptOpened(opened: OpenedMotion): void {
  adoptDocument({
    documentId: opened.documentId,
    path: opened.path,
    name: opened.name,
    kind: opened.kind,
    readOnly: opened.readOnly,
    motion: readMtn(opened.mtnBytes),
  });
  const session = sessionStore.getState();
  // The settings saved beside the motion (a project's own, applied after this, win for its motions).
  // A save killed mid-write was finished before the file was read: said, since the pair on disk changed.
  if (opened.recovered) session.notify('warning', opened.recovered);
  const tuningProblem = adoptTuningFile(opened, documentStore.getState().motion!);
  if (tuningProblem) session.notify('warning', tuningProblem);
  if (opened.readOnly)
    session.notify(
      'info',
      `${opened.name} is a compressed ${opened.kind.toUpperCase()} motion: shown read-only (Save As writes an editable .mtn).`,
    );
}

/**
 * Set by the status bar's Cancel while an open runs (cancelOpen): the open ends as cancelled whatever main answers,
 * so a motion whose load finished just before the cancel reached main is not shown either.
 */
let openCancelled = false;

/** The status bar's Cancel of an open in progress: main stops reading or decoding the file (cancelOpenMotion). */
export async function cancelOpen(): Promise<void> {
  openCancelled = true;
  try {
    await requireApi().cancelOpenMotion();
  } catch (err) {
    notifyError('Cancel open failed', err);
  }
}

/** Says that an open was cancelled and what stayed as it was. */
function reportCancelledOpen(path: string | null): void {
  const { after } = afterFailedOpen();
  sessionStore
    .getState()
    .notify(
      'info',
      `Open cancelled: ${path ? `${basenameOf(path)} was not opened` : 'no motion was opened'}. ${after}`,
    );
}

/**
 * Follows an open outcome through its follow-up questions (archive entry, skeleton). After a Cancel (cancelOpen) it
 * stops, says so, and shows nothing: a motion main opened meanwhile is closed there again.
 */
async function followOpen(outcome: OpenMotionOutcome, path: string | null = null): Promise<void> {
  const a = requireApi();
  for (;;) {
    if (openCancelled) {
      if (outcome.status === 'opened')
        void a.closeDocument({ documentId: outcome.motion.documentId }).catch(() => undefined);
      reportCancelledOpen(
        outcome.status === 'cancelled' ? path : outcome.status === 'opened' ? outcome.motion.path : outcome.path,
      );
      return;
    }
    switch (outcome.status) {
      case 'cancelled':
        return;
      case 'opened':
        adoptOpened(outcome.motion);
        return;
      case 'chooseMarEntry': {
        const pick = await askChoice({
          title: 'Open motion from archive',
          text: `${outcome.path} holds ${outcome.entries.length} motion${outcome.entries.length === 1 ? '' : 's'}. Which one?`,
          list: 'motions',
          buttons: [
            ...outcome.entries.map((e) => ({
              id: String(e.index),
              label: `#${e.index} ${e.nameText}  (${e.frameCount + 1} frames, ${e.jointCount} joints)`,
            })),
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        outcome = await a.openMotion({ path: outcome.path, marEntry: Number(pick) });
        break;
      }
      case 'needsSkeleton': {
        const pick = await askChoice({
          title: 'Skeleton needed',
          text: `No skeleton .mtn was found beside ${outcome.path}. Choose one for joint names and hierarchy, or open without one.`,
          buttons: [
            { id: 'choose', label: 'Choose skeleton…', primary: true },
            { id: 'without', label: 'Open without skeleton' },
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        const marEntry = outcome.marEntry ?? undefined;
        if (pick === 'without') {
          outcome = await a.openMotion({ path: outcome.path, marEntry, withoutSkeleton: true });
        } else {
          const sk = await a.chooseSkeletonDialog();
          if (sk.status === 'cancelled') return;
          outcome = await a.openMotion({ path: outcome.path, marEntry, skeletonPath: sk.path });
        }
        break;
      }
    }
  }
}

/** What a failed open leaves and what to do next: the message said only what was wrong with the file. */
function afterFailedOpen(): { after: string; next: string } {
  const shown = documentStore.getState().motion ? documentStore.getState().name : null;
  return {
    after: `Nothing was changed${shown ? `; ${shown} stays open` : ''}.`,
    next: 'Choose another file with File › Open… (Ctrl+O).',
  };
}

/**
 * File > Open: asks for a file (native or in-app dialog) and opens it. While main reads it the status bar shows
 * "Open…" with a Cancel (cancelOpen).
 */
export async function openDialog(): Promise<void> {
  if (!(await confirmDiscard('open another motion'))) return;
  await cancellableOpen(async () => followOpen(await requireApi().openMotionDialog()));
}

/** Opens a file by path (start-up, recent files, a file the OS handed over); cancellable as openDialog. */
export async function openPath(path: string, askDiscard = true): Promise<void> {
  if (askDiscard && !(await confirmDiscard('open another motion'))) return;
  await cancellableOpen(async () => followOpen(await requireApi().openMotion({ path }), path));
}

/** Runs an open as busy "Open" (the status bar's Cancel is cancelOpen); a Cancel counts for this open only. */
async function cancellableOpen(open: () => Promise<void>): Promise<void> {
  openCancelled = false;
  try {
    await busy('Open', open, afterFailedOpen);
  } finally {
    openCancelled = false;
  }
}

/** File > Close: asks about unsaved edits, then drops the document here and in main. */
export async function closeDocument(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion) return;
  if (!(await confirmDiscard('close it'))) return;
  const id = documentStore.getState().documentId;
  documentStore.getState().close();
  sessionStore.getState().setPlaying(false);
  if (id)
    void connectedApi()
      ?.closeDocument({ documentId: id })
      .catch(() => undefined);
}

/** File > Save. Resolves true when the document is on disk afterwards. */
export async function save(): Promise<boolean> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return false;
  // The motion an import replaces is refused, saying why (renderer/app/replacingImport.ts).
  if (refusedWhileReplaced('save', doc.documentId, doc.name)) return false;
  if (doc.readOnly || doc.kind !== 'mtn' || !doc.path) return saveAs();
  const documentId = doc.documentId;
  const motion = doc.motion;
  // The tuner's settings go with the motion: into the project when it holds this motion, else beside the .mtn.
  const inProject = projectTuning.covers(doc);
  const tuningText = inProject ? undefined : tuningTextToSave(doc);
  const path = doc.path;
  let reload = false;
  /** Where a Reload from disk kept the edits it drops (main wrote them beside the motion first). */
  let kept: string | null = null;
  const ok = await busy(
    'Save',
    async () => {
      const mtnBytes = writeMtn(motion);
      // A .mtn or tuning file changed on disk since it was opened is not replaced without asking
      // (renderer/app/changedOnDisk.ts); a reload opens the file again, once this save is over, after the edits it
      // drops are kept in a new file beside the motion (a failure to keep them stops the reload, and says why).
      const outcome = await saveMindingDisk(
        (overwriteChanged) =>
          requireApi().saveMotion({
            documentId,
            path,
            mtnBytes,
            ...(tuningText !== undefined ? { tuningText } : {}),
            ...(overwriteChanged && { overwriteChanged: true }),
          }),
        async () => {
          // The edits as they are now (the question may have stood while the page changed).
          const now = documentStore.getState();
          const current = now.documentId === documentId && now.motion ? now : null;
          const copy = await requireApi().keepMotionCopy({
            documentId,
            mtnBytes: current && current.motion !== motion ? writeMtn(current.motion!) : mtnBytes,
            ...(tuningText !== undefined ? { tuningText: current ? tuningTextToSave(current) : tuningText } : {}),
          });
          kept = copy.path;
          reload = true;
        },
        { replacesEdits: true },
      );
      if (outcome.status !== 'saved') return false;
      const r = outcome.value;
      if (r.status === 'cancelled') return false;
      if (tuningText !== undefined) markTuningSaved(documentId);
      // Only the revision that was written counts as saved; edits made meanwhile stay dirty.
      if (documentStore.getState().motion === motion) documentStore.getState().markSaved(r.file.path, r.file.name);
      sessionStore
        .getState()
        .notify(
          'info',
          `Saved ${r.file.path} (${r.file.byteLength} bytes${tuningText !== undefined ? ', with its tuning' : ''}).`,
        );
      return true;
    },
    undefined,
    (id) => dismissOnceSaveSettles(id, documentId),
  );
  if (reload && documentStore.getState().documentId === documentId) {
    await openPath(path, false);
    if (kept !== null)
      sessionStore
        .getState()
        .notify(
          'info',
          `Reloaded ${basenameOf(path)} from disk. Your edits were kept in ${kept} (listed under File › Open Recent): open it to get them back.`,
        );
    return false;
  }
  if (ok === true && inProject) return projectTuning.store();
  return ok === true;
}

/**
 * A failed save's message ("… your edits are kept. Save them … with Save As …") goes once those edits are saved after
 * all or are no longer open (discarded, closed, another motion opened): it stayed over the file reopened from disk,
 * saying the edits were kept when they were gone (docs/user-guide.md, "Tried cold", sixth round).
 */
function dismissOnceSaveSettles(messageId: number, documentId: string): void {
  const off = documentStore.subscribe((d) => {
    if (d.documentId === documentId && d.dirty) return;
    off();
    sessionStore.getState().dismiss(messageId);
  });
}

/** File > Save As: a new .mtn; read-only documents are converted and reopened as editable. */
export async function saveAs(): Promise<boolean> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return false;
  // The motion an import replaces is refused, saying why (renderer/app/replacingImport.ts).
  if (refusedWhileReplaced('save', doc.documentId, doc.name)) return false;
  const motion = doc.motion;
  const ok = await busy(
    'Save As',
    async () => {
      const a = requireApi();
      const tuningText = doc.readOnly ? undefined : tuningTextToSave(doc);
      const r = await a.saveMotionAsDialog({
        documentId: doc.documentId!,
        mtnBytes: writeMtn(motion),
        defaultName: `${doc.name.replace(/[:/\\]/g, '_')}.mtn`,
        ...(tuningText !== undefined ? { tuningText } : {}),
      });
      if (r.status === 'cancelled') return false;
      if (tuningText !== undefined) markTuningSaved(doc.documentId!);
      sessionStore.getState().notify('info', `Saved ${r.file.path} (${r.file.byteLength} bytes).`);
      if (doc.readOnly) {
        await followOpen(await a.openMotion({ path: r.file.path }));
      } else if (documentStore.getState().motion === motion) {
        documentStore.getState().markSaved(r.file.path, r.file.name);
      }
      return true;
    },
    undefined,
    (id) => dismissOnceSaveSettles(id, doc.documentId!),
  );
  return ok === true;
}

/** File > Export .mt3: compresses the current state in main and writes the .mt3. */
export async function exportMt3(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  if (refusedWhileReplaced('export', doc.documentId, doc.name)) return;
  if (doc.readOnly) {
    sessionStore.getState().notify('warning', 'This motion is already compressed; open an .mtn to export an .mt3.');
    return;
  }
  await busy('Export', async () => {
    const r = await requireApi().exportMt3Dialog({
      compress: compressRequestOf(doc, doc.editId),
      defaultName: `${doc.name}.mt3`,
    });
    if (r.status === 'cancelled') return;
    sessionStore
      .getState()
      .notify(
        'info',
        `Exported ${r.file.path}: ${r.file.byteLength} bytes, ${r.file.totalKeys} keys, ratio ${r.file.ratio.toFixed(2)}.`,
      );
  });
}
