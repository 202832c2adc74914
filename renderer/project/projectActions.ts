/**
 * Project commands: open/save the project, pick a motion (it opens in the
 * tuner with its SEV in the SEV editor), reorder/add/remove motions, load the
 * SE tables, check every motion (a dry-run build), build the archives with
 * progress and cancel, and choose the audition folder. Every API failure
 * becomes a message; nothing here throws into React.
 */
import type { BuildProblem, BuildStatus } from '../../shared/ipc';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { suggestMotionName } from '../../shared/motionName';
import { basenameOf, dirnameOf, normalizePath, stemOf } from '../../shared/project/paths';
import { parseSeDefine } from '../../shared/se-tables/define';
import { parseSls } from '../../shared/se-tables/sls';
import { mergeSeTables } from '../../shared/se-tables/table';
import type { SeTableReadResult } from '../../shared/se-tables/types';
import { serializeSev } from '../../shared/sev/serialize';
import { droppedOnSave } from '../../shared/sev/validate';
import { openPath } from '../app/controller';
import { ALL_PARTS, confirmUnsaved } from '../app/unsaved';
import { clearProjectHistory, editProject } from './projectHistory';
import { askChoice } from '../app/dialogs';
import { documentStore, type DocumentState, type Tolerances } from '../state/documentStore';
import { projectTuning } from '../app/motionTuning';
import { sessionStore } from '../state/sessionStore';
import { getApi } from '../transport';
import { isSevDirty, sevStore } from '../sev/sevStore';
import { sevBelongsTo, sevProblemLines, tunerBinding, withoutFollowing } from '../sev/sevMotion';
import { isProjectDirty, motionOfProblem, motionPaths, projectStore, projectText, type ProjectJson, type ProjectMotionJson, type ProjectState, type SeTablesState } from './projectStore';

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function notify(level: 'info' | 'warning' | 'error', text: string): void {
  // The project's messages are not about one motion: they show whichever motion the tuner shows.
  sessionStore.getState().notify(level, text, 'app');
}

// ---------------------------------------------------------------------------
// Open / save

/**
 * Asks before opening another project throws away unsaved work: the project, its open SEV and the motion in the
 * tuner (the new project opens its first motion), named together in one question. Resolves true to go on.
 */
async function confirmDiscardProject(action: string): Promise<boolean> {
  return confirmUnsaved(action, ALL_PARTS);
}

/** File > Open Project…. */
export async function openProjectDialog(): Promise<void> {
  if (!(await confirmDiscardProject('open another project'))) return;
  try {
    const r = await getApi().openProjectDialog();
    // Already asked about the motion too: its first motion opens without a second question.
    if (r.status === 'opened') await adoptProject(r.project.path, r.project.text, true);
  } catch (e) {
    notify('error', `Open project failed: ${message(e)}`);
  }
}

/** Opens a project by path (tests, recent). */
export async function openProject(path: string): Promise<void> {
  try {
    const r = await getApi().openProject({ path });
    if (r.status === 'opened') await adoptProject(r.project.path, r.project.text);
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
    const r = await getApi().openProject({ path: projectPath });
    if (r.status !== 'opened') return;
    const same = (a: string) => normalizePath(a) === normalizePath(sevPath);
    await adoptProject(r.project.path, r.project.text, true, (s) => {
      const n = s.json?.motions.length ?? 0;
      for (let i = 0; i < n; i++) if (same(motionPaths(s, i)?.sev ?? `${dirnameOf(projectPath)}/${s.json!.motions[i].name}.sev`)) return i;
      return 0;
    });
  } catch (e) {
    notify('error', `Open project failed: ${message(e)}`);
  }
}

async function adoptProject(path: string, text: string, asked = false, pickMotion: (s: ReturnType<typeof projectStore.getState>) => number = () => 0): Promise<void> {
  sevStore.getState().close();
  projectStore.getState().adopt(path, text);
  clearProjectHistory();
  const p = projectStore.getState();
  if (p.errors.length) notify('warning', `${basenameOf(path)} has ${p.errors.length} problem${p.errors.length === 1 ? '' : 's'}; see the project panel.`);
  await Promise.all([loadSeTables(), loadSounds(savedSoundFolder(path) ?? `${dirnameOf(path)}/sounds`, true)]);
  if (p.json?.motions.length) await selectMotion(pickMotion(p), false, asked);
  void checkProject();
}

/** Saves the project file (when changed) and the open SEV (when changed). Resolves true when both are on disk. */
export async function saveProjectAndSev(): Promise<boolean> {
  const okSev = await saveSev();
  if (!okSev) return false;
  return saveProject();
}

/** Saves the project file when it changed. Resolves true when it is on disk. */
export async function saveProject(): Promise<boolean> {
  const p = projectStore.getState();
  if (!p.path) return true;
  if (!isProjectDirty(p)) return true;
  try {
    const text = p.text;
    const saved = await getApi().saveProject({ path: p.path, text });
    projectStore.getState().markSaved(text);
    notify('info', `Saved ${saved.path}.`);
    void checkProject();
    return true;
  } catch (e) {
    notify('error', `Save project failed: ${message(e)}`);
    return false;
  }
}

/** Writes the open SEV (atomic). A motion's first SEV is created beside the project and recorded in it. */
export async function saveSev(): Promise<boolean> {
  const f = sevStore.getState().file;
  if (!f || !isSevDirty(f)) return true;
  if (!f.doc) {
    notify('error', `${basenameOf(f.path)} still has ${f.parseErrors.length} error${f.parseErrors.length === 1 ? '' : 's'}; fix them before saving (the file on disk is unchanged).`);
    return false;
  }
  const doc = f.doc;
  // Never drop authored data without the user naming it: floor variants hidden by "Floors" go only when confirmed.
  const dropped = droppedOnSave(f.savedDoc, doc);
  if (dropped.length) {
    const pick = await askChoice({
      title: `Save ${basenameOf(f.path)}?`,
      text: `Save will remove ${dropped.join(', and ')} from ${basenameOf(f.path)}. To keep them, choose Cancel and give the SE its floors again (its variants come back as they were).`,
      buttons: [{ id: 'cancel', label: 'Cancel (keep them)', primary: true }, { id: 'save', label: 'Remove them and save' }],
    });
    if (pick !== 'save') return false;
  }
  // Say exactly what the build would refuse before writing it (checked against its motion when the tuner shows it).
  const d = documentStore.getState();
  const motion = d.motion && sevBelongsTo(f, d) ? { name: f.motionName, frameCount: d.motion.frameCount, jointCount: d.motion.joints.length } : null;
  const problems = sevProblemLines(doc, motion);
  if (problems.length) {
    const shown = problems.slice(0, 8).map((l) => `• ${l}`).join('\n') + (problems.length > 8 ? `\n… and ${problems.length - 8} more` : '');
    const pick = await askChoice({
      title: `Save ${basenameOf(f.path)}?`,
      text: `${basenameOf(f.path)} has ${problems.length} problem${problems.length === 1 ? '' : 's'} the build will refuse:\n${shown}`,
      buttons: [{ id: 'cancel', label: 'Cancel (fix first)', primary: true }, { id: 'save', label: 'Save anyway' }],
    });
    if (pick !== 'save') return false;
  }
  try {
    await getApi().saveSev({ path: f.path, text: serializeSev(doc) });
    sevStore.getState().markSaved(doc);
    ensureSevListed(f.path, f.motionName);
    notify('info', `Saved ${f.path}.`);
    void checkProject();
    return true;
  } catch (e) {
    notify('error', `Save ${basenameOf(f.path)} failed: ${message(e)}`);
    return false;
  }
}

/** Records a motion's new .sev in the project (relative to the project file). */
function ensureSevListed(sevPath: string, motionName: string): void {
  const p = projectStore.getState();
  if (!p.json || !p.path) return;
  const i = p.json.motions.findIndex((m) => m.name === motionName);
  if (i < 0 || p.json.motions[i].sev) return;
  const rel = dirnameOf(sevPath) === dirnameOf(p.path) ? basenameOf(sevPath) : sevPath;
  editProject(`List ${basenameOf(sevPath)} in the project`, (json) => ({ ...json, motions: json.motions.map((m, k) => (k === i ? { ...m, sev: rel } : m)) }));
}

// ---------------------------------------------------------------------------
// Motions

/**
 * Opens motion `index` in the tuner and its SEV in the editor. Unsaved edits of the motion and of the SEV (both
 * replaced) are named in one question first, unless the caller `asked` already.
 */
export async function selectMotion(index: number, reopen = false, asked = false): Promise<void> {
  // This opens the motion and its .sev itself: the SEV editor does not also follow the tuner meanwhile.
  return withoutFollowing(() => selectMotionNow(index, reopen, asked));
}

async function selectMotionNow(index: number, reopen: boolean, asked: boolean): Promise<void> {
  const p = projectStore.getState();
  const paths = motionPaths(p, index);
  const m = p.json?.motions[index];
  if (!paths || !m) return;
  if (p.current === index && documentStore.getState().documentId === p.currentDocumentId && documentStore.getState().motion) return;
  if (reopen && p.current === index) {
    // Only the tuner changed: bring the motion back, keep the SEV (and its unsaved edits) as they are.
    const before = documentStore.getState().documentId;
    await openPath(paths.mtn, true);
    const after = documentStore.getState().documentId;
    if (after !== before) {
      projectStore.getState().setCurrent(index, after);
      applyProjectTolerances(index);
      if (sevStore.getState().file?.motionName === m.name) sevStore.getState().rebind(tunerBinding());
    }
    return;
  }
  if (!asked && !(await confirmUnsaved('open another motion', ['motion', 'sev']))) return;
  const before = documentStore.getState().documentId;
  await openPath(paths.mtn, false);
  const after = documentStore.getState().documentId;
  if (after === before) return; // nothing opened: the user kept the open motion, or the open failed (its message is shown)
  projectStore.getState().setCurrent(index, after);
  applyProjectTolerances(index);
  await loadSev(paths.sev ?? `${dirnameOf(p.path!)}/${m.name}.sev`, m.name);
}

/**
 * The tuner compresses an opened project motion with the project's tolerances
 * and per-joint overrides (what the build uses), so its keys and errors match
 * the project panel. Applied as the document's starting state, not as an edit.
 */
export function applyProjectTolerances(index: number): void {
  const m = projectStore.getState().json?.motions[index];
  const doc = documentStore.getState();
  if (!m || !doc.motion || doc.past.length || doc.future.length) return;
  const t = (m.tolerances ?? {}) as { position?: number; rotationDeg?: number; offset?: number; object?: number; shell?: number; method?: string };
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : d);
  const tolerances: Tolerances = {
    positionTolerance: num(t.position, DEFAULT_TOLERANCES.positionTolerance),
    rotationToleranceDeg: num(t.rotationDeg, DEFAULT_TOLERANCES.rotationToleranceDeg),
    offsetTolerance: num(t.offset, DEFAULT_TOLERANCES.offsetTolerance),
  };
  if (t.method === 'classic') tolerances.method = 'classic';
  const object = num(t.object, 0);
  if (object > 0) {
    tolerances.objectTolerance = object;
    const shell = num(t.shell, 0);
    if (shell > 0) tolerances.shell = shell;
  }
  const overrides: Record<number, number> = {};
  const joints = doc.motion.joints;
  for (const [key, deg] of Object.entries((m.rotationOverridesDeg ?? {}) as Record<string, unknown>)) {
    const j = /^[0-9]+$/.test(key) ? Number(key) : joints.findIndex((x) => x.name === key);
    if (j >= 0 && j < joints.length && typeof deg === 'number' && deg > 0) overrides[j] = deg;
  }
  documentStore.getState().adoptTuning(tolerances, overrides);
}

/**
 * The project motion (archive index) the tuner shows: the one opened from the panel (or followed to) and still in
 * the tuner. Null when the tuner shows another file: project actions then have no motion to act on.
 */
export function tunerProjectMotion(p: ProjectState = projectStore.getState(), d: Pick<DocumentState, 'documentId' | 'motion'> = documentStore.getState()): number | null {
  if (p.current === null || !p.json?.motions[p.current] || !d.motion || d.documentId === null) return null;
  return p.currentDocumentId === d.documentId ? p.current : null;
}

/** Why the project actions on "the motion" are off, or null when the tuner shows a project motion. */
export function tunerNotInProjectReason(p: ProjectState = projectStore.getState(), d: Pick<DocumentState, 'documentId' | 'motion' | 'name'> = documentStore.getState()): string | null {
  if (tunerProjectMotion(p, d) !== null) return null;
  if (!d.motion) return 'No motion is open: select one in the list.';
  return `The tuner shows ${d.name}, not opened from this project: select a motion in the list to act on it.`;
}

/** A project entry with the tuner's tolerances and overrides (joint names where the skeleton has them). */
function entryWithTunerTolerances(m: ProjectMotionJson, doc: DocumentState): ProjectMotionJson {
  const t = doc.tolerances;
  const overrides: Record<string, number> = {};
  for (const [j, deg] of Object.entries(doc.rotationOverridesDeg)) overrides[doc.motion?.joints[Number(j)]?.name || j] = deg;
  const tolerances: Record<string, number | string> = { position: t.positionTolerance, rotationDeg: t.rotationToleranceDeg, offset: t.offsetTolerance };
  if (t.method === 'classic') tolerances.method = 'classic';
  if (t.objectTolerance !== undefined) tolerances.object = t.objectTolerance;
  if (t.shell !== undefined) tolerances.shell = t.shell;
  const next: ProjectMotionJson = { ...m, tolerances };
  if (Object.keys(overrides).length) next.rotationOverridesDeg = overrides;
  else delete next.rotationOverridesDeg;
  return next;
}

/**
 * Writes the tuner's tolerances and overrides into the project entry of the motion the tuner shows; does nothing
 * (and says why) when the tuner shows a file the project did not open. Returns whether the project changed.
 */
export function storeTunerTolerances(): boolean {
  const p = projectStore.getState();
  const doc = documentStore.getState();
  const index = tunerProjectMotion(p, doc);
  if (index === null || !p.json) {
    const why = tunerNotInProjectReason(p, doc);
    if (why) notify('warning', why);
    return false;
  }
  const name = p.json.motions[index].name;
  const next = entryWithTunerTolerances(p.json.motions[index], doc);
  if (JSON.stringify(next) === JSON.stringify(p.json.motions[index])) return false;
  editProject(`Tolerances → project (${name})`, (json) => ({ ...json, motions: json.motions.map((m, k) => (k === index ? entryWithTunerTolerances(m, documentStore.getState()) : m)) }));
  notify('info', `${name}: the tuner's tolerances are now the project's (save the project to keep them).`);
  return true;
}

// Save (Ctrl+S) of a project motion keeps the tuner's settings in the project (docs/formats-tuning.md).
projectTuning.covers = (d) => tunerProjectMotion(projectStore.getState(), d) !== null;
projectTuning.store = async () => {
  storeTunerTolerances();
  return saveProject();
};

/** Reads a SEV into the editor (a missing file starts an empty one). */
export async function loadSev(path: string, motionName: string): Promise<void> {
  try {
    const r = await getApi().readProjectText({ path });
    // A missing file starts as an empty SEV that names its motion (so a renamed file still pairs with it).
    const before = sevStore.getState().file;
    // Edited against the motion the tuner shows now (selectMotion opened it just before).
    sevStore.getState().load(path, motionName, r.text, tunerBinding());
    // The panel's problems come from the last check: a file that changed on disk since (now broken, or fixed) is checked again.
    const now = sevStore.getState().file;
    const problems = projectStore.getState().problems.some((p) => p.file === path);
    if (now && (now.parseErrors.length > 0) !== problems && before?.path !== path) void checkProject();
  } catch (e) {
    sevStore.getState().close();
    notify('error', `Could not open ${basenameOf(path)}: ${message(e)}`);
  }
}

/** Re-reads the open SEV from disk (after fixing it in another editor). */
export async function reloadSev(): Promise<void> {
  const f = sevStore.getState().file;
  if (f) await loadSev(f.path, f.motionName);
}

/** A change of the motion list as one undo step (renderer/project/projectHistory.ts); `keepName` stays selected. */
function editMotions(label: string, fn: (motions: ProjectJson['motions']) => ProjectJson['motions'], keepName: string | null): void {
  editProject(label, (json) => ({ ...json, motions: fn(json.motions.slice()) }), keepName);
}

function currentName(): string | null {
  const p = projectStore.getState();
  return p.current === null ? null : (p.json?.motions[p.current]?.name ?? null);
}

/**
 * Appends imported motions (File > Import of several files) to the open
 * project in the order given, as one undo step; `mtn` relative to the
 * project's folder when inside it. False when no project is open.
 */
export function addImportedMotions(items: readonly { name: string; mtnPath: string }[]): boolean {
  const p = projectStore.getState();
  if (!p.json || !p.path || items.length === 0) return false;
  const folder = normalizePath(dirnameOf(p.path));
  const rel = (path: string) => {
    const n = normalizePath(path);
    return n.startsWith(`${folder}/`) ? n.slice(folder.length + 1) : path;
  };
  editMotions(`Import ${items.length} motion${items.length === 1 ? '' : 's'}`, (ms) => [...ms, ...items.map((i) => ({ name: i.name, mtn: rel(i.mtnPath) }))], currentName());
  return true;
}

/** Names of the open project's motions and aliases (an import must not take one); empty when none is open. */
export function projectMotionNames(): string[] {
  const j = projectStore.getState().json;
  if (!j) return [];
  const aliases: unknown[] = Array.isArray(j.aliases) ? j.aliases : [];
  return [...j.motions.map((m) => m.name), ...aliases.map((a) => String((a as { name?: unknown })?.name))];
}

/** Moves motion `from` to archive index `to`. */
export function moveMotion(from: number, to: number): void {
  const n = projectStore.getState().json?.motions.length ?? 0;
  if (from === to || from < 0 || to < 0 || from >= n || to >= n) return;
  const name = projectStore.getState().json!.motions[from].name;
  editMotions(`Move ${name} to index ${to}`, (ms) => {
    const [m] = ms.splice(from, 1);
    ms.splice(to, 0, m);
    return ms;
  }, currentName());
}

/** Adds a motion chosen in a dialog, named after its file (made unique). */
export async function addMotion(): Promise<void> {
  const p = projectStore.getState();
  if (!p.json || !p.path) return;
  try {
    const r = await getApi().chooseProjectFileDialog({ purpose: 'mtn' });
    if (r.status !== 'chosen') return;
    const taken = new Set(p.json.motions.map((m) => m.name));
    const name = suggestMotionName(stemOf(r.path), taken);
    const rel = dirnameOf(r.path) === dirnameOf(p.path) ? basenameOf(r.path) : r.path;
    editMotions(`Add motion ${name}`, (ms) => [...ms, { name, mtn: rel }], currentName());
    notify('info', `Added motion ${name} (${rel}) at index ${projectStore.getState().json!.motions.length - 1}.`);
  } catch (e) {
    notify('error', `Add motion failed: ${message(e)}`);
  }
}

/** Removes motion `index` from the project (its files stay on disk). */
export async function removeMotion(index: number): Promise<void> {
  const p = projectStore.getState();
  const m = p.json?.motions[index];
  if (!m) return;
  const choice = await askChoice({
    title: 'Remove motion',
    text: `Remove ${m.name} from the project? Its files stay on disk; the archives lose entry ${index} and later entries move up.`,
    buttons: [{ id: 'remove', label: 'Remove', primary: true }, { id: 'cancel', label: 'Cancel' }],
  });
  if (choice !== 'remove') return;
  const wasCurrent = p.current === index;
  editMotions(`Remove motion ${m.name}`, (ms) => ms.filter((_, k) => k !== index), wasCurrent ? null : currentName());
  if (wasCurrent) {
    projectStore.getState().setCurrent(null);
    sevStore.getState().close();
  }
}

// ---------------------------------------------------------------------------
// SE tables

/** Reads and merges the project's default.sls and se_define.h. */
export async function loadSeTables(): Promise<void> {
  const p = projectStore.getState();
  if (!p.path || !p.json) return;
  const t = p.json.seTables ?? {};
  const sources: SeTableReadResult[] = [];
  const errors: string[] = [];
  const read = async (rel: string | undefined, parse: (text: string, file: string) => SeTableReadResult) => {
    if (typeof rel !== 'string' || !rel) return;
    const path = rel.startsWith('/') || /^[A-Za-z]:/.test(rel) ? rel : `${dirnameOf(p.path!)}/${rel}`;
    try {
      const r = await getApi().readProjectText({ path });
      if (r.text !== null) sources.push(parse(r.text, path));
    } catch (e) {
      errors.push(message(e));
    }
  };
  await read(t.sls, parseSls);
  await read(t.seDefine, parseSeDefine);
  const merged = mergeSeTables(sources);
  const tables: SeTablesState = {
    table: merged.table,
    names: [...merged.table.byName.keys()].sort(),
    errors: [...errors, ...merged.errors.map((e) => e.message)],
    warnings: merged.warnings.map((w) => w.message),
  };
  projectStore.getState().setTables(tables);
}

// ---------------------------------------------------------------------------
// Checks and builds

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poll(status: BuildStatus, onUpdate: (s: BuildStatus) => void): Promise<BuildStatus> {
  let s = status;
  onUpdate(s);
  while (s.state === 'checking' || s.state === 'compressing' || s.state === 'writing') {
    await sleep(80);
    s = await getApi().getBuildStatus({ buildId: s.buildId });
    onUpdate(s);
  }
  return s;
}

let checkSerial = 0;

/** Dry-run build: keys, bytes, max error and events of every motion, and every problem. */
export async function checkProject(): Promise<void> {
  const p = projectStore.getState();
  if (!p.path) return;
  const serial = ++checkSerial;
  p.setStatus({ checking: true });
  try {
    const start = await getApi().startBuild({ projectPath: p.path, projectText: projectTextForBuild(), sevTexts: sevTextsForBuild(), dryRun: true });
    const done = await poll(start, () => undefined);
    if (serial !== checkSerial) return;
    const status = Object.fromEntries(done.motions.map((m) => [m.name, m]));
    projectStore.getState().setStatus({ status, problems: done.errors, warnings: done.warnings, checking: false, checkedAt: Date.now() });
  } catch (e) {
    if (serial === checkSerial) projectStore.getState().setStatus({ checking: false, problems: [{ message: message(e) }], checkedAt: Date.now() });
  }
}

/**
 * Cancel pressed while the build was still starting (main checks the project
 * text in a worker before the build has an id): honoured as soon as it has one.
 */
let cancelWhenStarted = false;

/** File > Build Archives…: opens the build dialog and starts the build. */
export async function buildArchives(): Promise<void> {
  const p = projectStore.getState();
  if (!p.path) {
    notify('warning', 'Open a project first (File › Open Project…).');
    return;
  }
  p.setBuild({ status: null, starting: true });
  cancelWhenStarted = false;
  try {
    let start = await getApi().startBuild({ projectPath: p.path, projectText: projectTextForBuild(), sevTexts: sevTextsForBuild() });
    if (cancelWhenStarted) start = await getApi().cancelBuild({ buildId: start.buildId });
    const done = await poll(start, (s) => {
      if (projectStore.getState().build) projectStore.getState().setBuild({ status: s, starting: false });
    });
    if (done.state === 'done') {
      notify('info', `Built ${done.written.map(basenameOf).join(', ')}: ${done.count} motions in ${(done.elapsedMs / 1000).toFixed(1)} s.`);
      const status = Object.fromEntries(done.motions.map((m) => [m.name, m]));
      projectStore.getState().setStatus({ status, problems: [], checkedAt: Date.now() });
    } else if (done.state === 'failed') {
      projectStore.getState().setStatus({ problems: done.errors, checkedAt: Date.now() });
    }
  } catch (e) {
    const failed: BuildProblem[] = [{ message: message(e) }];
    projectStore.getState().setBuild({
      starting: false,
      status: { buildId: '', dryRun: false, state: 'failed', done: 0, count: 0, current: null, motions: [], errors: failed, warnings: [], written: [], report: null, elapsedMs: 0 },
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
    const s = await getApi().cancelBuild({ buildId: id });
    projectStore.getState().setBuild({ status: s, starting: false });
  } catch (e) {
    notify('error', `Cancel failed: ${message(e)}`);
  }
}

export function closeBuildDialog(): void {
  projectStore.getState().setBuild(null);
}

/** Goes to a problem: opens its motion and selects the SEV statement at its line. */
export async function revealProblem(problem: BuildProblem): Promise<void> {
  const p = projectStore.getState();
  const index = motionOfProblem(p, problem);
  if (index === null) {
    notify('warning', problem.message);
    return;
  }
  closeBuildDialog();
  await selectMotion(index);
  const f = sevStore.getState().file;
  if (problem.line !== undefined && f?.doc && f.path === problem.file) {
    const k = f.doc.events.findIndex((e) => e.loc?.line === problem.line);
    if (k >= 0) {
      sevStore.getState().selectEvent(k);
      sessionStore.getState().setPlayhead(f.doc.events[k].frame);
    }
    const def = f.doc.ses.find((d) => d.loc?.line === problem.line);
    if (def) sevStore.getState().selectSe(def.index);
  }
  sessionStore.getState().setHover(null);
  window.dispatchEvent(new CustomEvent('actguy:reveal-sev-line', { detail: { file: problem.file, line: problem.line } }));
}

// ---------------------------------------------------------------------------
// Audition sounds

const SOUND_FOLDER_KEY = 'actguy.soundFolder:';

function savedSoundFolder(projectPath: string): string | null {
  try {
    return localStorage.getItem(SOUND_FOLDER_KEY + projectPath);
  } catch {
    return null;
  }
}

/** Lists the sounds of a folder (quietly when it is the default that may not exist). */
export async function loadSounds(folder: string, quiet = false, stillWanted: () => boolean = () => true): Promise<void> {
  try {
    const r = await getApi().listSounds({ folder });
    if (!stillWanted()) return;
    const sounds: Record<string, string> = {};
    for (const s of r.sounds) if (!(s.name in sounds)) sounds[s.name] = s.path;
    projectStore.getState().setSounds(r.folder, sounds);
  } catch (e) {
    if (!stillWanted()) return;
    projectStore.getState().setSounds(null, {});
    if (!quiet) notify('error', `Audition folder: ${message(e)}`);
  }
}

/**
 * Outside a project, the audition sounds are the `sounds/` folder beside the motion file (the layout of assets/),
 * when it is there; a project's own folder wins as soon as one is open.
 */
export async function loadSoundsBesideMotion(motionPath: string | null): Promise<void> {
  if (projectStore.getState().path || !motionPath) return;
  const folder = `${dirnameOf(motionPath)}/sounds`;
  if (projectStore.getState().soundFolder === folder) return;
  // A project opened meanwhile has loaded its own folder: this listing is not applied over it.
  await loadSounds(folder, true, () => !projectStore.getState().path);
}

/** Points the project at a folder of sounds named by SE name (pick any sound in it). */
export async function chooseSoundFolder(): Promise<void> {
  const p = projectStore.getState();
  try {
    const r = await getApi().chooseProjectFileDialog({ purpose: 'sound' });
    if (r.status !== 'chosen') return;
    const folder = dirnameOf(r.path);
    await loadSounds(folder);
    try {
      if (p.path) localStorage.setItem(SOUND_FOLDER_KEY + p.path, folder);
    } catch {
      // private mode: the folder is remembered for this session only
    }
  } catch (e) {
    notify('error', `Choose audition folder failed: ${message(e)}`);
  }
}
