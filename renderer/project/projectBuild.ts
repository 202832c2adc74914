/**
 * Checks and builds: the dry-run check of every motion (with the unsaved project and SEV text), the build of the
 * archives with progress and cancel, and the build dialog.
 */
import type { BuildProblem, BuildStatus } from '../../shared/ipc';
import { basenameOf } from '../../shared/project/paths';
import { serializeSev } from '../../shared/sev/serialize';
import { requireApi } from '../app/appApi';
import { askChoice } from '../app/dialogs';
import { savablePart } from '../app/savableParts';
import { isSevDirty, sevStore } from '../sev/sevStore';
import { isProjectDirty, projectStore, projectText, type ProjectState } from './projectStore';
import { message, notify } from './projectMessages';
import { projectTuning } from '../tuner/motionTuning';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';

/** Unsaved SEV text for a build (the open SEV when it has edits). */
function sevTextsForBuild(): { path: string; text: string }[] {
  const f = sevStore.getState().file;
  if (!f || !isSevDirty(f)) return [];
  const text = f.doc ? serializeSev(f.doc) : f.brokenText;
  return text === null ? [] : [{ path: f.path, text }];
}

/** The project text a build uses: the edited one, listing the open SEV when it is new. */
function projectTextForBuild(): string {
  const p = projectStore.getState();
  const f = sevStore.getState().file;
  if (!p.json || !f || !isSevDirty(f)) return p.text;
  const i = p.json.motions.findIndex((m) => m.name === f.motionName && !m.sev);
  if (i < 0) return p.text;
  return projectText({ ...p.json, motions: p.json.motions.map((m, k) => (k === i ? { ...m, sev: f.path } : m)) });
}

/**
 * The files whose unsaved edits a build takes as shown (sevTextsForBuild, projectTextForBuild): the open .sev by its
 * name and "the project file". The archives then hold edits the files on disk lack until they are saved; the build
 * dialog says so and offers to save them (tried cold, round 9: nothing said which text the archives were built from).
 */
function unsavedForBuild(): string[] {
  const out = sevTextsForBuild().map((s) => basenameOf(s.path));
  if (isProjectDirty(projectStore.getState())) out.push('the project file');
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the build has more to say: it runs, or it was cancelled and its worker is not gone yet (BuildStatus.stopped:
 * the dialog shows when it is, and nothing of the build can appear after that).
 */
function unsettled(s: BuildStatus): boolean {
  return s.state === 'checking' || s.state === 'compressing' || s.state === 'writing' || s.stopped === false;
}

async function poll(status: BuildStatus, onUpdate: (s: BuildStatus) => void): Promise<BuildStatus> {
  let s = status;
  onUpdate(s);
  while (unsettled(s)) {
    await sleep(80);
    s = await requireApi().getBuildStatus({ buildId: s.buildId });
    onUpdate(s);
  }
  return s;
}

/**
 * A finished build's or check's figures for the project panel: each motion's result, and the tolerance scales a memory
 * budget made it apply (only those other than 1).
 */
export function figuresOf(done: Pick<BuildStatus, 'motions' | 'report'>): Pick<ProjectState, 'status' | 'scales'> {
  const status = Object.fromEntries(done.motions.map((m) => [m.name, m]));
  const scaled = (done.report?.budget?.motions ?? []).filter((m) => m.scale !== 1);
  return { status, scales: Object.fromEntries(scaled.map((m) => [m.name, m.scale])) };
}

let checkSerial = 0;

/** Dry-run build: keys, bytes, max error and events of every motion, and every problem. */
export async function checkProject(): Promise<void> {
  const p = projectStore.getState();
  if (!p.path) return;
  const serial = ++checkSerial;
  // The project as this check reads it: the list's figures are of it (ProjectPanel dims them after a later edit).
  const checkedText = p.text;
  p.setStatus({ checking: true });
  try {
    const start = await requireApi().startBuild({
      projectPath: p.path,
      projectText: projectTextForBuild(),
      sevTexts: sevTextsForBuild(),
      dryRun: true,
    });
    const done = await poll(start, () => undefined);
    if (serial !== checkSerial) return;
    projectStore.getState().setStatus({
      ...figuresOf(done),
      problems: done.errors,
      warnings: done.warnings,
      checking: false,
      checkedAt: Date.now(),
      checkedText,
    });
  } catch (e) {
    if (serial === checkSerial)
      projectStore
        .getState()
        .setStatus({ checking: false, problems: [{ message: message(e) }], checkedAt: Date.now() });
  }
}

/**
 * Cancel pressed while the build was still starting (main checks the project
 * text in a worker before the build has an id): honoured as soon as it has one.
 */
let cancelWhenStarted = false;

/**
 * The build and Export All read each motion's saved .mtn (the project and SEV text go with it unsaved; a motion's edits
 * cannot). When the tuner shows a project motion with unsaved edits, asks first: Save and build (export), Build
 * (Export) the saved file, or Cancel. Resolves false to stop, else true to go on, or the motion's name where the user
 * chose its saved file (its edits left out: the build dialog says so, tried cold, round 27). Export All asked nothing
 * and wrote the saved motion, a tuned walk's keys and locks missing from the files written (tried cold, round 20).
 */
export async function settleUnsavedMotion(job: 'build' | 'export' = 'build'): Promise<boolean | string> {
  const motion = savablePart('motion');
  // projectTuning.covers: whether the tuner shows a motion of this project (projectMotions.ts, which imports this file).
  if (!motion?.isDirty() || !projectTuning.covers(documentStore.getState())) return true;
  const name = motion.name();
  const [reader, output, verb] =
    job === 'build' ? ['The build', 'the archives', 'build'] : ['Export All', 'the files it writes', 'export'];
  const choice = await askChoice({
    title: 'Unsaved motion',
    text:
      `${name} has unsaved changes. ${reader} reads the saved ${name}, so ${output} would not have them. ` +
      `Save it before you ${verb}?`,
    buttons: [
      { id: 'save', label: `Save and ${verb}`, primary: true },
      { id: 'build', label: `${verb === 'build' ? 'Build' : 'Export'} the saved file` },
      { id: 'cancel', label: 'Cancel' },
    ],
  });
  if (choice === 'cancel') return false;
  return choice === 'build' ? name : motion.save();
}

/**
 * Build Archives with no project open says how to open one, keys included (Ctrl+B then Ctrl+Shift+O, the keyboard
 * path); the message goes once a project is open: it stayed over the viewport after the sample project opened, and
 * read as if Build still had none (tried cold, round 22).
 */
export const NO_PROJECT_TO_BUILD =
  'Build Archives needs a project: open one first (File › Open Project…, Ctrl+Shift+O). Its .mar and .sar are built ' +
  'from the motions and .sev files it lists.';
let noProjectMessage: number | null = null;

projectStore.subscribe((s) => {
  if (!s.path || noProjectMessage === null) return;
  sessionStore.getState().dismiss(noProjectMessage);
  noProjectMessage = null;
});

/** File > Build Archives…: opens the build dialog and starts the build. */
export async function buildArchives(): Promise<void> {
  if (!projectStore.getState().path) {
    // Pressed again: one message, not one more each time.
    if (noProjectMessage !== null) sessionStore.getState().dismiss(noProjectMessage);
    noProjectMessage = notify('warning', NO_PROJECT_TO_BUILD);
    return;
  }
  const settled = await settleUnsavedMotion();
  if (!settled) return;
  const p = projectStore.getState();
  if (!p.path) return;
  const builtText = p.text;
  p.setBuild({
    status: null,
    starting: true,
    unsaved: unsavedForBuild(),
    savedMotion: typeof settled === 'string' ? settled : undefined,
  });
  cancelWhenStarted = false;
  try {
    let start = await requireApi().startBuild({
      projectPath: p.path,
      projectText: projectTextForBuild(),
      sevTexts: sevTextsForBuild(),
    });
    if (cancelWhenStarted) start = await requireApi().cancelBuild({ buildId: start.buildId });
    const done = await poll(start, (s) => {
      if (projectStore.getState().build) projectStore.getState().setBuild({ status: s, starting: false });
    });
    if (done.state === 'done' && done.upToDate) {
      // No motion was compressed: the panel keeps the figures it has (a check, or the build that wrote the archives).
      notify('info', `Up to date: nothing changed since the last build (${done.count} motions); nothing was written.`);
      projectStore.getState().setStatus({ problems: [], checkedAt: Date.now() });
    } else if (done.state === 'done') {
      notify(
        'info',
        `Built ${done.written.map(basenameOf).join(', ')}: ${done.count} motions in ${(done.elapsedMs / 1000).toFixed(1)} s.`,
      );
      projectStore
        .getState()
        .setStatus({ ...figuresOf(done), problems: [], checkedAt: Date.now(), checkedText: builtText });
    } else if (done.state === 'failed') {
      projectStore.getState().setStatus({ problems: done.errors, checkedAt: Date.now() });
    }
  } catch (e) {
    const failed: BuildProblem[] = [{ message: message(e) }];
    projectStore.getState().setBuild({
      starting: false,
      status: {
        buildId: '',
        dryRun: false,
        state: 'failed',
        done: 0,
        count: 0,
        current: null,
        motions: [],
        errors: failed,
        warnings: [],
        written: [],
        report: null,
        elapsedMs: 0,
      },
    });
  }
}

/** The build dialog's Cancel: stops the build; nothing is written. */
export async function cancelBuild(): Promise<void> {
  const b = projectStore.getState().build;
  const id = b?.status?.buildId;
  if (!id) {
    if (b?.starting) cancelWhenStarted = true;
    return;
  }
  try {
    const s = await requireApi().cancelBuild({ buildId: id });
    // The build's poll goes on until its worker is gone: a later answer of it (stopped) is not taken back.
    const shown = projectStore.getState().build?.status;
    if (shown?.buildId === s.buildId && shown.state === 'cancelled' && shown.stopped) return;
    projectStore.getState().setBuild({ status: s, starting: false });
  } catch (e) {
    notify('error', `Cancel failed: ${message(e)}`);
  }
}

export function closeBuildDialog(): void {
  projectStore.getState().setBuild(null);
}
