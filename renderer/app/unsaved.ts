/**
 * What the user has not saved yet, across the three things the window edits: the motion in the tuner, the SEV in
 * the sound-event editor and the open project. One question names everything an action would throw away
 * ("walk.mtn, walk.sev and the project have unsaved changes."), its Save saves all of them, and main is told the
 * combined state so closing the window asks about all of them too.
 */
import type { ActGuyApi, DocumentStateReport } from '../../shared/ipc';
import { escapeControls } from '../../shared/errors';
import { EVENTS_MENU_COMMANDS } from '../../shared/eventsMenu';
import { joinNames, unsavedSentence } from '../../shared/unsaved';
import { documentStore } from '../state/documentStore';
import { sevStore } from '../sev/sevStore';
import { projectStore } from '../project/projectStore';
import { askChoice } from './dialogs';
import { connectedApi, requireApi } from './appApi';
import { disabledCommandsAmong } from './commandRegistry';
import { savablePart, type UnsavedPart } from './savableParts';

export type { UnsavedPart } from './savableParts';
/** Every part, in the order they are named and saved: motion, SEV, project. */
export const ALL_PARTS: readonly UnsavedPart[] = ['motion', 'sev', 'project'];

/** The registered parts among `parts`, in the order motion, SEV, project. */
function partsAmong(parts: readonly UnsavedPart[]) {
  return ALL_PARTS.filter((p) => parts.includes(p)).flatMap((p) => savablePart(p) ?? []);
}

/** Display names of the unsaved parts among `parts`, in the order motion, SEV, project. */
export function unsavedNames(parts: readonly UnsavedPart[] = ALL_PARTS): string[] {
  return partsAmong(parts).flatMap((p) => (p.isDirty() ? [p.name()] : []));
}

/**
 * Saves the unsaved parts among `parts` in the order motion, SEV, project (a new .sev is listed in the project
 * before the project is written); stops at the first that is not on disk. True when all of them are.
 */
async function saveParts(parts: readonly UnsavedPart[]): Promise<boolean> {
  // Asked one at a time: saving a new .sev lists it in the project, which is unsaved only from then on.
  for (const part of partsAmong(parts)) if (part.isDirty() && !(await part.save())) return false;
  return true;
}

/**
 * Asks before `action` throws away unsaved work among `parts` (only what that action would lose). Resolves true
 * to go on: nothing unsaved, "Discard changes", or "Save" and every save succeeded.
 */
export async function confirmUnsaved(action: string, parts: readonly UnsavedPart[]): Promise<boolean> {
  const names = unsavedNames(parts);
  if (!names.length) return true;
  // What this action leaves open is said too: "walk.mtn has unsaved changes" alone, while walk.sev had some as well,
  // left the user unsure whether Discard or Save touched them (tried cold, round 6).
  const kept = unsavedNames(ALL_PARTS.filter((p) => !parts.includes(p)));
  const keptNote = kept.length
    ? ` (${joinNames(kept)} ${kept.length > 1 ? 'keep their' : 'keeps its'} unsaved changes: ${kept.length > 1 ? 'they stay' : 'it stays'} open, and this question neither saves nor discards ${kept.length > 1 ? 'them' : 'it'}.)`
    : '';
  const choice = await askChoice({
    title: 'Unsaved changes',
    text: `${unsavedSentence(names)} Save ${names.length > 1 ? 'them' : 'it'} before you ${action}?${keptNote}`,
    buttons: [
      { id: 'save', label: names.length > 1 ? 'Save all' : 'Save', primary: true },
      { id: 'discard', label: 'Discard changes' },
      { id: 'cancel', label: 'Cancel' },
    ],
  });
  if (choice === 'cancel') return false;
  if (choice === 'save') return saveParts(parts);
  return true;
}

/**
 * The Save of the native close question (Electron): saves every unsaved part; when all are on disk, tells main
 * the window is clean (awaited, so main's close check sees it) and closes the window. A save that fails or a
 * Save As the user cancels keeps the window open, with the error shown as for any save, and tells main so
 * (`keptOpen`): the close, and a Cmd+Q that asked for it, is over, and the user goes on working. Resolves whether it
 * closed.
 */
export async function saveAllAndClose(
  api: Pick<ActGuyApi, 'reportDocumentState'>,
  closeWindow: () => void,
): Promise<boolean> {
  if (!(await saveParts(ALL_PARTS)) || anyUnsaved()) {
    await api.reportDocumentState({ ...currentReport(), keptOpen: true });
    return false;
  }
  await api.reportDocumentState(currentReport());
  closeWindow();
  return true;
}

/** What main is told: the document, every unsaved name, and the Events commands that cannot run now. */
function currentReport(): DocumentStateReport {
  const doc = documentStore.getState();
  const unsaved = unsavedNames();
  return {
    documentId: doc.documentId,
    documentName: doc.motion ? doc.name : null,
    dirty: unsaved.length > 0,
    unsaved,
    disabledCommands: disabledCommandsAmong(EVENTS_MENU_COMMANDS),
  };
}

/** True when anything in the window is unsaved (browser tab close guard). */
export function anyUnsaved(): boolean {
  return unsavedNames().length > 0;
}

/**
 * Keeps main informed of the combined dirty state (its close confirmation names every unsaved part) and of the
 * Events menu commands that cannot run now (the native menu greys them out), and the window title marked while
 * anything is unsaved. Returns the unsubscriber.
 */
export function reportUnsavedStateOnChange(api: Pick<ActGuyApi, 'reportDocumentState'>): () => void {
  let last = '';
  const report = () => {
    const doc = documentStore.getState();
    const r = currentReport();
    const key = JSON.stringify([r.documentId, r.documentName, r.unsaved, r.disabledCommands]);
    if (key === last) return;
    last = key;
    if (typeof document !== 'undefined')
      // The motion's name is its file's (a received folder's `walk\u202Eves.mtn`): hidden characters as \uXXXX, as
      // main's window title shows them (docs/security.md, round 52).
      document.title = doc.motion
        ? `${r.dirty ? '● ' : ''}${escapeControls(doc.name)} — ActGuy`
        : `${r.dirty ? '● ' : ''}ActGuy`;
    void api.reportDocumentState(r).catch(() => undefined);
  };
  const offs = [documentStore.subscribe(report), sevStore.subscribe(report), projectStore.subscribe(report)];
  report();
  return () => offs.forEach((off) => off());
}

/**
 * Keeps main informed of the dirty state (close confirmation, window title): the motion, the SEV and the project
 * together, so closing the window never drops unsaved SEV or project edits silently.
 */
export function reportDocumentStateOnChange(): () => void {
  return reportUnsavedStateOnChange({
    reportDocumentState: (r) => connectedApi()?.reportDocumentState(r) ?? Promise.resolve(),
  });
}

/** The Save of Electron's native close question: everything saved, then the window closes. */
export function saveAllAndCloseWindow(): Promise<boolean> {
  return saveAllAndClose({ reportDocumentState: (r) => requireApi().reportDocumentState(r) }, () => window.close());
}
