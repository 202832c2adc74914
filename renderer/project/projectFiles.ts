/**
 * The project file: open it (by dialog, by path, or on the motion of a .sev the OS handed over), adopt it (its SE
 * tables, audition sounds, first motion and a check), and save it with its open SEV.
 */
import { basenameOf, dirnameOf, normalizePath } from '../../shared/project/paths';
import type { OpenProjectOutcome } from '../../shared/ipc';
import { requireApi } from '../app/appApi';
import { ALL_PARTS, confirmUnsaved } from '../app/unsaved';
import { sevStore } from '../sev/sevStore';
import { sessionStore } from '../state/sessionStore';
import { saveSev } from '../sev/sevFiles';
import { clearProjectHistory, editProject } from './projectHistory';
import { asJson, isProjectDirty, motionPaths, projectStore } from './projectStore';
import { reloadStepLabel, saveMindingDisk } from '../app/changedOnDisk';
import { message, notify } from './projectMessages';
import { selectMotion } from './projectMotions';
import { loadSeTables } from './seTables';
import { loadSounds, savedSoundFolder } from './auditionSounds';
import { checkProject } from './projectBuild';
import { followTuner } from '../sev/sevMotion';

/**
 * Asks before opening another project throws away unsaved work: the project, its open SEV and the motion in the
 * tuner (the new project opens its first motion), named together in one question. Resolves true to go on.
 */
async function confirmDiscardProject(action: string): Promise<boolean> {
  return confirmUnsaved(action, ALL_PARTS);
}

/** File > Open Project…. */
export async function openProjectDialog(): Promise<void> {
  await openPickedProject(() => requireApi().openProjectDialog());
}

/** A project of File > Open Recent: opened as if picked in the dialog again (main checks it listed the path). */
export async function openRecentProject(path: string): Promise<void> {
  await openPickedProject(() => requireApi().openRecentProject({ path }));
}

/** Opens a project the user picks (in the dialog or from Open Recent), once unsaved work may be let go. */
async function openPickedProject(open: () => Promise<OpenProjectOutcome>): Promise<void> {
  if (!(await confirmDiscardProject('open another project'))) return;
  try {
    const r = await open();
    // Already asked about the motion too: its first motion opens without a second question.
    if (r.status === 'opened') await adoptProject(r.project.path, r.project.text, true);
  } catch (e) {
    notify('error', `Open project failed: ${message(e)}`);
  }
}

/**
 * Opens a project by path (a project the OS hands over or that is dropped, a restored backup's). `asked`: the caller
 * has asked about every unsaved part already (ALL_PARTS), so its first motion opens without asking about the tuner's
 * motion a second time (before 2026-12-04 a project dropped over an edited motion asked twice).
 */
export async function openProject(path: string, asked = false): Promise<void> {
  try {
    const r = await requireApi().openProject({ path });
    if (r.status === 'opened') await adoptProject(r.project.path, r.project.text, asked);
  } catch (e) {
    notify('error', `Open project failed: ${message(e)}`);
  }
}

/**
 * Opens a project on the motion whose SEV is `sevPath` (a .sev the OS handed
 * over: main found the project beside it). The caller has asked about unsaved edits.
 */
export async function openProjectForSev(projectPath: string, sevPath: string): Promise<void> {
  try {
    const r = await requireApi().openProject({ path: projectPath });
    if (r.status !== 'opened') return;
    const same = (a: string) => normalizePath(a) === normalizePath(sevPath);
    await adoptProject(r.project.path, r.project.text, true, (s) => {
      const n = s.json?.motions.length ?? 0;
      for (let i = 0; i < n; i++)
        if (same(motionPaths(s, i)?.sev ?? `${dirnameOf(projectPath)}/${s.json!.motions[i].name}.sev`)) return i;
      return 0;
    });
  } catch (e) {
    notify('error', `Open project failed: ${message(e)}`);
  }
}

/**
 * The message that said what was wrong with the project opened last ("stage.report.json has 88 problems; see the
 * project panel", "Could not read … as a project"): it goes when another project is opened, and stayed over the
 * sample project opened after it, naming a file no longer open (docs/user-guide.md "Tried cold", seventh round).
 */
let openedProblemsMessage: number | null = null;

async function adoptProject(
  path: string,
  text: string,
  asked = false,
  pickMotion: (s: ReturnType<typeof projectStore.getState>) => number = () => 0,
): Promise<void> {
  sevStore.getState().close();
  projectStore.getState().adopt(path, text);
  clearProjectHistory();
  const p = projectStore.getState();
  if (openedProblemsMessage !== null) sessionStore.getState().dismiss(openedProblemsMessage);
  openedProblemsMessage = null;
  const unreadable = !p.json ? p.errors.find((e) => e.plain) : undefined;
  if (unreadable?.plain)
    // Not a project at all (cut short, not JSON): say so in words first; the panel keeps the precise place.
    openedProblemsMessage = notify(
      'error',
      `Could not read ${basenameOf(path)} as a project: ${unreadable.plain.lead} The file is unchanged` +
        // Another kind of file (a tuning file, a build report) never reads as a project: no "until it reads".
        `${/, not a project\.$/.test(unreadable.plain.lead) ? '.' : '; its motions are not listed until it reads.'} ` +
        `${unreadable.plain.advice}\nDetails: ${unreadable.message}`,
    );
  else if (p.errors.length)
    openedProblemsMessage = notify(
      'warning',
      `${basenameOf(path)} has ${p.errors.length} problem${p.errors.length === 1 ? '' : 's'}; see the project panel.`,
    );
  await Promise.all([loadSeTables(), loadSounds(savedSoundFolder(path) ?? `${dirnameOf(path)}/sounds`, true)]);
  if (p.json?.motions.length) await selectMotion(pickMotion(p), false, asked);
  // No project motion opens (the project did not read, or lists none): the tuner keeps its motion, and the SEV
  // editor shows that motion's .sev again (closed above for the project), not "no .sev" beside a walk.sev.
  else await followTuner();
  void checkProject();
}

/** Saves the project file (when changed) and the open SEV (when changed). Resolves true when both are on disk. */
export async function saveProjectAndSev(): Promise<boolean> {
  const okSev = await saveSev();
  if (!okSev) return false;
  return saveProject();
}

/** The project save on its way (or the last one): the next waits for it. */
let projectSaving: Promise<unknown> = Promise.resolve();

/**
 * Saves the project file when it changed. Resolves true when it is on disk. Saves run one after another: Ctrl+S
 * reaches both the tuner's Save (which stores its tuning in the project) and the SEV editor's (which saves the
 * project after the .sev), and two writes of one file at once could leave the older text on disk while the panel
 * says saved. Each save reads the project's text when its turn comes, so a second finds nothing left to write.
 */
export function saveProject(): Promise<boolean> {
  const run = projectSaving.then(saveProjectNow, saveProjectNow);
  projectSaving = run;
  return run;
}

async function saveProjectNow(): Promise<boolean> {
  const p = projectStore.getState();
  if (!p.path) return true;
  if (!isProjectDirty(p)) return true;
  const path = p.path;
  try {
    const text = p.text;
    // A project file changed on disk since it was read is not replaced without asking (renderer/app/changedOnDisk.ts).
    const outcome = await saveMindingDisk(
      (overwriteChanged) =>
        requireApi().saveProject({ path, text, ...(overwriteChanged && { overwriteChanged: true }) }),
      () => reloadProjectAsStep(path),
    );
    if (outcome.status !== 'saved') return false;
    const saved = outcome.value;
    projectStore.getState().markSaved(text);
    notify('info', `Saved ${saved.path}.`);
    void checkProject();
    return true;
  } catch (e) {
    notify('error', `Save project failed: ${message(e)}`);
    return false;
  }
}

/**
 * Shows the project at `path` as it is on disk now, as one undo step ("Reload sample.actguy.json from disk"): Undo
 * brings the edits back. The project is then saved as on disk. A disk text that is not a project's JSON is not shown
 * (the edits stay).
 */
export async function reloadProjectAsStep(path: string): Promise<void> {
  try {
    const r = await requireApi().readProjectText({ path });
    const json = r.text === null ? null : asJson(r.text);
    if (projectStore.getState().path !== path) return;
    if (!json) {
      notify(
        'error',
        `Could not reload ${basenameOf(path)} from disk: it is not a project's JSON now. Your edits are kept, not saved.`,
      );
      return;
    }
    editProject(reloadStepLabel(path), () => json);
    projectStore.getState().markSaved(projectStore.getState().text);
    notify('info', `Reloaded ${basenameOf(path)} from disk; Undo (Ctrl+Z) brings your edits back.`);
    void checkProject();
  } catch (e) {
    notify('error', `Could not reload ${basenameOf(path)} from disk: ${message(e)}. Your edits are kept, not saved.`);
  }
}
