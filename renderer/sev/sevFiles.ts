/**
 * SEV file I/O: read a .sev into the editor (a missing one starts empty), re-read it, and save it (atomic), saying
 * first what the save would drop and what the build would refuse. A motion's first .sev is listed in the project.
 */
import { basenameOf, dirnameOf } from '../../shared/project/paths';
import { serializeSev } from '../../shared/sev/serialize';
import { droppedOnSave } from '../../shared/sev/validate';
import { failureText, plainProblemOf, requireApi } from '../app/appApi';
import { askChoice } from '../app/dialogs';
import { reloadStepLabel, saveMindingDisk } from '../app/changedOnDisk';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { editProject } from '../project/projectHistory';
import { projectStore } from '../project/projectStore';
import { message, notify } from '../project/projectMessages';
import { checkProject } from '../project/projectBuild';
import { sevBelongsTo, sevProblemLines, tunerBinding } from './sevBinding';
import { isSevDirty, sevStore, type SevFileState } from './sevStore';

/** Writes the open SEV (atomic). A motion's first SEV is created beside the project and recorded in it. */
export async function saveSev(): Promise<boolean> {
  const f = sevStore.getState().file;
  if (!f || !isSevDirty(f)) return true;
  if (!f.doc) {
    notify(
      'error',
      `${basenameOf(f.path)} still has ${f.parseErrors.length} error${f.parseErrors.length === 1 ? '' : 's'}; fix them before saving (the file on disk is unchanged).`,
    );
    return false;
  }
  const doc = f.doc;
  // Never drop authored data without the user naming it: floor variants hidden by "Floors" go only when confirmed.
  const dropped = droppedOnSave(f.savedDoc, doc);
  if (dropped.length) {
    const pick = await askChoice({
      title: `Save ${basenameOf(f.path)}?`,
      text: `Save will remove ${dropped.join(', and ')} from ${basenameOf(f.path)}. To keep them, choose Cancel and give the SE its floors again (its variants come back as they were).`,
      buttons: [
        { id: 'cancel', label: 'Cancel (keep them)', primary: true },
        { id: 'save', label: 'Remove them and save' },
      ],
    });
    if (pick !== 'save') return false;
  }
  // Say exactly what the build would refuse before writing it (checked against its motion when the tuner shows it).
  const d = documentStore.getState();
  const motion =
    d.motion && sevBelongsTo(f, d)
      ? { name: f.motionName, frameCount: d.motion.frameCount, jointCount: d.motion.joints.length }
      : null;
  const problems = sevProblemLines(doc, motion);
  if (problems.length) {
    const shown =
      problems
        .slice(0, 8)
        .map((l) => `• ${l}`)
        .join('\n') + (problems.length > 8 ? `\n… and ${problems.length - 8} more` : '');
    const pick = await askChoice({
      title: `Save ${basenameOf(f.path)}?`,
      text: `${basenameOf(f.path)} has ${problems.length} problem${problems.length === 1 ? '' : 's'} the build will refuse:\n${shown}`,
      buttons: [
        { id: 'cancel', label: 'Cancel (fix first)', primary: true },
        { id: 'save', label: 'Save anyway' },
      ],
    });
    if (pick !== 'save') return false;
  }
  try {
    // A file changed on disk since it was read is not replaced without asking (renderer/app/changedOnDisk.ts).
    const text = serializeSev(doc);
    const loadedAs = shownRead.get(f.path);
    const outcome = await saveMindingDisk(
      (overwriteChanged) =>
        requireApi().saveSev({
          path: f.path,
          text,
          ...(overwriteChanged && { overwriteChanged: true }),
          ...(loadedAs !== undefined && { loadedAs }),
        }),
      () => reloadSevAsStep(f.path),
    );
    if (outcome.status !== 'saved') return false;
    // What was written is what main compares the next save with (its last save of the file).
    if (shownRead.get(f.path) === loadedAs) shownRead.delete(f.path);
    sevStore.getState().markSaved(doc);
    ensureSevListed(f.path, f.motionName);
    notify('info', `Saved ${f.path}.`);
    void checkProject();
    return true;
  } catch (e) {
    dismissOnceSaveSettles(notify('error', `Save ${basenameOf(f.path)} failed: ${message(e)}`), f.path);
    return false;
  }
}

/**
 * A failed save's message ("… press Save SEV again") goes once those edits are saved after all or are no longer open
 * (discarded, reloaded from disk, another .sev opened), as a motion's does (renderer/app/motionFiles.ts): it stayed
 * over the .sev read again from disk (tried cold, round 6).
 */
function dismissOnceSaveSettles(messageId: number, path: string): void {
  const off = sevStore.subscribe(({ file }) => {
    if (file?.path === path && isSevDirty(file)) return;
    off();
    sessionStore.getState().dismiss(messageId);
  });
}

/** Records a motion's new .sev in the project (relative to the project file). */
function ensureSevListed(sevPath: string, motionName: string): void {
  const p = projectStore.getState();
  if (!p.json || !p.path) return;
  const i = p.json.motions.findIndex((m) => m.name === motionName);
  if (i < 0 || p.json.motions[i].sev) return;
  const rel = dirnameOf(sevPath) === dirnameOf(p.path) ? basenameOf(sevPath) : sevPath;
  editProject(`List ${basenameOf(sevPath)} in the project`, (json) => ({
    ...json,
    motions: json.motions.map((m, k) => (k === i ? { ...m, sev: rel } : m)),
  }));
}

/**
 * The read of each .sev that the editor shows, as main named it (ProjectTextFile.loadedAs): a read skipped over edits
 * (loadSev) leaves the editor on an earlier one, and its save asks main to compare the file on disk with that one, so
 * a file changed on disk meanwhile is asked about (docs/security.md, "Saves of a motion compare too"). Forgotten once a
 * save of the file lands (main then compares with what it wrote).
 */
const shownRead = new Map<string, string>();

/** What the next save of the .sev at `path` names as the read the editor shows. */
export function shownReadOf(path: string): string | undefined {
  return shownRead.get(path);
}

/** Reads a SEV into the editor (a missing file starts an empty one). */
export async function loadSev(path: string, motionName: string): Promise<void> {
  const asked = sevStore.getState().file;
  try {
    // The project that names it, so that main can say whether the file lies outside its folder (a save writes there).
    const project = projectStore.getState().path;
    const r = await requireApi().readProjectText({ path, ...(project && { project }) });
    // Another project opened while the file was read: the read is the previous project's, and shown now it would
    // replace the new project's .sev in the editor, judged against the wrong folder (docs/security.md, round 48).
    if (project && projectStore.getState().path !== project) return;
    // Edits that arrived while the file was read (typed, or restored after a crash) are never replaced: they were not
    // asked about (tried cold, round 5: a restored walk.sev gave way to the tuner's cmu_01_01.sev read meanwhile).
    if (sevWasEditedSince(asked)) return;
    if (r.loadedAs !== undefined) shownRead.set(path, r.loadedAs);
    // A missing file starts as an empty SEV that names its motion (so a renamed file still pairs with it).
    const before = sevStore.getState().file;
    // Edited against the motion the tuner shows now (selectMotion opened it just before).
    sevStore.getState().load(path, motionName, r.text, tunerBinding(), { outsideProject: r.outsideProject === true });
    // The panel's problems come from the last check: a file that changed on disk since (now broken, or fixed) is checked again.
    const now = sevStore.getState().file;
    const problems = projectStore.getState().problems.some((p) => p.file === path);
    if (now && now.parseErrors.length > 0 !== problems && before?.path !== path) void checkProject();
  } catch (e) {
    // The editor then says this file is there but cannot be read (not "no .sev"), and offers no Create over it.
    sevStore.getState().closeUnreadable(path, message(e));
    notify(
      'error',
      plainProblemOf(e)
        ? failureText('Open', e, 'The file is unchanged.')
        : `Could not open ${basenameOf(path)}: ${message(e)}`,
    );
  }
}

/** Whether the editor's .sev has unsaved edits it did not have as `asked` (another file, or edited since). */
export function sevWasEditedSince(asked: SevFileState | null): boolean {
  const now = sevStore.getState().file;
  return isSevDirty(now) && (now?.path !== asked?.path || now?.doc !== asked?.doc);
}

/**
 * Shows the .sev at `path` as it is on disk now, as one undo step ("Reload walk.sev from disk"): Undo brings the edits
 * back. The file is then saved as on disk. A disk text with errors is not shown (the edits stay; Reload from disk in
 * the editor's menu shows it, asking first).
 */
export async function reloadSevAsStep(path: string): Promise<void> {
  try {
    const project = projectStore.getState().path;
    const r = await requireApi().readProjectText({ path, ...(project && { project }) });
    if (sevStore.getState().file?.path !== path) return;
    const why =
      r.text === null ? 'it is no longer on disk' : sevStore.getState().reloadAsStep(reloadStepLabel(path), r.text);
    if (!why && r.loadedAs !== undefined) shownRead.set(path, r.loadedAs);
    if (why) {
      notify('error', `Could not reload ${basenameOf(path)} from disk: ${why}. Your edits are kept, not saved.`);
      return;
    }
    notify('info', `Reloaded ${basenameOf(path)} from disk; Undo (Ctrl+Z) brings your edits back.`);
    void checkProject();
  } catch (e) {
    notify('error', `Could not reload ${basenameOf(path)} from disk: ${message(e)}. Your edits are kept, not saved.`);
  }
}

/** The question a reload asks over unsaved edits, for the file named `name`. */
export interface ReloadQuestion {
  title: string;
  text: string;
  /** The label of the button that drops the edits (Cancel, the default, keeps them). */
  drop: string;
}

/** Reload from disk (the broken-file view's button): the edits go so that the file's text comes back. */
const RELOAD_QUESTION = (name: string): ReloadQuestion => ({
  title: 'Reload from disk',
  text: `${name} has unsaved edits here. Reload it from disk and lose them?`,
  drop: 'Discard edits and reload',
});

/**
 * Re-reads the open SEV from disk (after fixing it in another editor). Text fixed here and not saved yet (a broken
 * file's edits, which no undo step holds) is lost by a reload: it asks first, Cancel the default. `question` words
 * it for the caller: the Discard of restored changes asks about discarding them, not about a reload it never named.
 */
export async function reloadSev(question: (name: string) => ReloadQuestion = RELOAD_QUESTION): Promise<void> {
  const f = sevStore.getState().file;
  if (!f) return;
  if (isSevDirty(f)) {
    const q = question(basenameOf(f.path));
    const choice = await askChoice({
      title: q.title,
      text: q.text,
      buttons: [
        { id: 'reload', label: q.drop },
        { id: 'cancel', label: 'Cancel', primary: true },
      ],
    });
    if (choice !== 'reload' || sevStore.getState().file?.path !== f.path) return;
  }
  await loadSev(f.path, f.motionName);
}
