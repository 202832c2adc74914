/**
 * A .sev is always edited against its own motion. This module pairs the SEV
 * editor with the motion in the tuner:
 *
 * - when the tuner's motion changes, the editor follows it: that motion's .sev
 *   (the project's entry, else `<motion>.sev` beside the motion file), or none
 *   ("no .sev", with a button that creates one);
 * - a .sev with unsaved edits is never dropped by a motion change: it stays
 *   open but hidden ("parked") until its motion is back, so its events are
 *   never shown against, or added for, another motion's skeleton;
 * - File › Open .sev… opens a .sev with its motion, with or without a project.
 *
 * Reading and saving a .sev is renderer/sev/sevFiles.ts; the pairing rules are renderer/sev/sevBinding.ts.
 */
import { basenameOf, dirnameOf, normalizePath, stemOf } from '../../shared/project/paths';
import { parseSev } from '../../shared/sev/parse';
import { requireApi } from '../app/appApi';
import { askChoice } from '../app/dialogs';
import { confirmUnsaved } from '../app/unsaved';
import { openPath } from '../app/motionFiles';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { applyProjectTolerances } from '../project/projectMotions';
import { loadSoundsBesideMotion } from '../project/auditionSounds';
import { motionPaths, projectStore } from '../project/projectStore';
import { loadSev, sevWasEditedSince } from './sevFiles';
import {
  isFollowingPaused,
  projectMotionOfPath,
  sevBelongsTo,
  siblingSevPath,
  tunerBinding,
  withoutFollowing,
} from './sevBinding';
import { isSevDirty, sevStore } from './sevStore';

/** The tuner's document is project motion `index`: the panel selects it and the tuner takes its tolerances. */
function adoptProjectMotion(index: number, documentId: string): void {
  const p = projectStore.getState();
  if (p.current === index && p.currentDocumentId === documentId) return;
  projectStore.getState().setCurrent(index, documentId);
  applyProjectTolerances(index);
}

/** The SEV editor follows the tuner: installed once by the editor; returns the unsubscriber. */
export function installSevFollower(): () => void {
  return documentStore.subscribe((s, prev) => {
    if (s.documentId === prev.documentId || isFollowingPaused()) return;
    void followTuner();
  });
}

/**
 * Shows the tuner motion's .sev: keeps the open one when it is that motion's (rebinding it to a reopened
 * document), keeps an unsaved one of another motion parked, else opens the motion's own .sev or none.
 */
export async function followTuner(): Promise<void> {
  const d = documentStore.getState();
  const f = sevStore.getState().file;
  if (!d.motion || !d.documentId) return;
  void loadSoundsBesideMotion(d.path);
  const p = projectStore.getState();
  if (f && sevBelongsTo(f, d)) {
    if (f.motion.documentId !== d.documentId) sevStore.getState().rebind(tunerBinding(d));
    // The motion came back (the banner's "Open <motion>"): it is its project entry again, with the project's tolerances.
    const mtn = (k: number) => motionPaths(p, k)?.mtn ?? null;
    const named =
      d.path === null
        ? -1
        : (p.json?.motions.findIndex(
            (m, k) => m.name === f.motionName && mtn(k) !== null && normalizePath(mtn(k)!) === normalizePath(d.path!),
          ) ?? -1);
    if (named >= 0) adoptProjectMotion(named, d.documentId);
    return;
  }
  // The tuner shows another file now: the project's selection no longer names the tuner's motion.
  const index = projectMotionOfPath(p, d.path);
  if (f && isSevDirty(f)) {
    if (index !== null) adoptProjectMotion(index, d.documentId);
    return;
  }
  if (index !== null && p.path && p.json) {
    const m = p.json.motions[index];
    adoptProjectMotion(index, d.documentId);
    await loadSev(motionPaths(p, index)?.sev ?? `${dirnameOf(p.path)}/${m.name}.sev`, m.name);
    return;
  }
  const sibling = siblingSevPath(d.path);
  if (sibling) {
    try {
      const r = await requireApi().readProjectText({ path: sibling });
      if (documentStore.getState().documentId !== d.documentId) return; // the tuner moved on meanwhile
      if (sevWasEditedSince(f)) return; // edits that arrived meanwhile (a restored copy) stay: loadSev's rule
      if (r.text !== null) {
        sevStore.getState().load(sibling, d.name, r.text, tunerBinding(d));
        return;
      }
    } catch (e) {
      // There, but not readable (not text, or outside what the user opened): the editor says so and why, rather
      // than "no .sev", and Create refuses over it (startSevAt).
      if (documentStore.getState().documentId === d.documentId && !sevWasEditedSince(f))
        sevStore.getState().closeUnreadable(sibling, e instanceof Error ? e.message : String(e));
      return;
    }
  }
  if (documentStore.getState().documentId === d.documentId) sevStore.getState().close();
}

/** "Create <motion>.sev": a new, empty .sev for the tuner's motion (the project's entry, else beside the motion file). */
export async function createSevForTuner(): Promise<void> {
  const d = documentStore.getState();
  if (!d.motion) return;
  const p = projectStore.getState();
  const index = projectMotionOfPath(p, d.path);
  const f = sevStore.getState().file;
  if (f && isSevDirty(f) && !(await confirmUnsaved(`create a .sev for ${d.name}`, ['sev']))) return;
  if (index !== null && p.path && p.json) {
    const m = p.json.motions[index];
    projectStore.getState().setCurrent(index, d.documentId);
    const path = motionPaths(p, index)?.sev ?? `${dirnameOf(p.path)}/${m.name}.sev`;
    await startSevAt(path, m.name, d);
    return;
  }
  const sibling = siblingSevPath(d.path);
  if (!sibling) {
    sessionStore
      .getState()
      .notify(
        'warning',
        `${d.name} has no .mtn file yet: save it (File › Save As…) and its .sev is created beside it.`,
      );
    return;
  }
  await startSevAt(sibling, d.name, d);
}

/**
 * Starts the .sev at `path` for "Create": empty only where no file is. A file already there is never replaced by
 * an empty one: a readable one opens as it is, and one that cannot be read (not text, say: the editor showed
 * "no .sev" after saying why) is refused with the reason, so a Save cannot write an empty .sev over it.
 */
async function startSevAt(
  path: string,
  motionName: string,
  d: ReturnType<typeof documentStore.getState>,
): Promise<void> {
  let text: string | null;
  try {
    text = (await requireApi().readProjectText({ path })).text;
  } catch (e) {
    sessionStore
      .getState()
      .notify(
        'warning',
        `${basenameOf(path)} is already there but cannot be read, so ActGuy does not start an empty one over it ` +
          `(saving that would replace the file). Fix it in a text editor or move it aside, then choose the motion ` +
          `again.\nDetails: ${e instanceof Error ? e.message : String(e)}`,
      );
    return;
  }
  if (documentStore.getState().documentId !== d.documentId) return; // the tuner moved on meanwhile
  sevStore.getState().load(path, motionName, text, tunerBinding(d));
}

/** Brings the parked .sev's motion back into the tuner (its events show again). */
export async function openSevMotion(): Promise<void> {
  const f = sevStore.getState().file;
  if (!f) return;
  const p = projectStore.getState();
  const index = p.json?.motions.findIndex((m) => m.name === f.motionName) ?? -1;
  const path = f.motion.path ?? (index >= 0 ? (motionPaths(p, index)?.mtn ?? null) : null);
  if (!path) {
    sessionStore
      .getState()
      .notify(
        'warning',
        `${basenameOf(f.path)} belongs to ${f.motionName}, which has no file to reopen: save or discard its edits.`,
      );
    return;
  }
  await withoutFollowing(() => openPath(path, true));
  await followTuner();
}

/** File › Open .sev…: a .sev and its motion (`motion <name>` in the file, else its base name), with or without a project. */
export async function openSevDialog(): Promise<void> {
  const f = sevStore.getState().file;
  if (f && isSevDirty(f) && !(await confirmUnsaved('open another .sev', ['sev']))) return;
  try {
    const chosen = await requireApi().chooseProjectFileDialog({ purpose: 'sev' });
    if (chosen.status !== 'chosen') return;
    await openSevPath(chosen.path);
  } catch (e) {
    sessionStore.getState().notify('error', `Open .sev failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Opens a .sev with its motion: the tuner's when it is that motion, else `<motion>.mtn` beside it, else one the user picks. */
export async function openSevPath(sevPath: string): Promise<void> {
  const r = await requireApi().readProjectText({ path: sevPath });
  if (r.text === null) throw new Error(`${sevPath}: no such file`);
  const parsed = parseSev(r.text, sevPath);
  const motionName = parsed.doc?.motion?.name ?? stemOf(sevPath);
  const isItsMotion = () => {
    const d = documentStore.getState();
    return d.motion !== null && (d.name === motionName || (d.path !== null && stemOf(d.path) === motionName));
  };
  if (!isItsMotion()) {
    const beside = `${dirnameOf(sevPath)}/${motionName}.mtn`;
    const opened = await withoutFollowing(async () => {
      await openPath(beside, true);
      if (isItsMotion()) return true;
      const pick = await askChoice({
        title: 'Open .sev',
        text: `${basenameOf(sevPath)} holds the sound events of motion ${motionName}, and ${motionName}.mtn could not be opened beside it. Choose that motion: its events are edited against its frames and joints.`,
        buttons: [
          { id: 'choose', label: `Choose ${motionName}'s motion…`, primary: true },
          { id: 'cancel', label: 'Cancel' },
        ],
      });
      if (pick !== 'choose') return false;
      const m = await requireApi().chooseProjectFileDialog({ purpose: 'mtn' });
      if (m.status !== 'chosen') return false;
      const before = documentStore.getState().documentId;
      await openPath(m.path, true);
      return documentStore.getState().documentId !== before;
    });
    if (!opened) return;
  }
  const d = documentStore.getState();
  if (!d.motion) return;
  sevStore.getState().load(sevPath, motionName, r.text, tunerBinding(d));
  sessionStore.getState().notify('info', `Opened ${basenameOf(sevPath)} with motion ${d.name}.`);
}
