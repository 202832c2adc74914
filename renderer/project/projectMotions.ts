/**
 * The project's motions: open one in the tuner with its SEV, give the tuner the project's tolerances (and store
 * the tuner's back), reorder, add, import and remove motions, and go to a build problem's motion and line.
 */
import type { BuildProblem } from '../../shared/ipc';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { suggestMotionName } from '../../shared/motionName';
import { basenameOf, dirnameOf, normalizePath, stemOf } from '../../shared/project/paths';
import { requireApi } from '../app/appApi';
import { askChoice } from '../app/dialogs';
import { openPath } from '../app/motionFiles';
import { confirmUnsaved } from '../app/unsaved';
import { sameTuning } from '../../shared/tuning/sidecar';
import { documentStore, type DocumentState, type Tolerances } from '../state/documentStore';
import { appliedTuningFile, tuningChanges, tuningOfDocument } from '../tuner/motionTuning';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from '../sev/sevStore';
import { tunerBinding, withoutFollowing } from '../sev/sevBinding';
import { loadSev } from '../sev/sevFiles';
import { editProject } from './projectHistory';
import {
  motionOfProblem,
  motionPaths,
  projectStore,
  type ProjectJson,
  type ProjectMotionJson,
  type ProjectState,
} from './projectStore';
import { notify, message } from './projectMessages';
import { closeBuildDialog } from './projectBuild';

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
  if (
    p.current === index &&
    documentStore.getState().documentId === p.currentDocumentId &&
    documentStore.getState().motion
  )
    return;
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
 * The tolerances and per-joint overrides (by joint index) a project entry gives a motion with these joints: what
 * the build uses, with the defaults where the entry leaves a value out or gives an unusable one.
 */
export function projectEntryTuning(
  m: ProjectMotionJson,
  joints: readonly { name: string }[],
): { tolerances: Tolerances; overrides: Record<number, number> } {
  const t = (m.tolerances ?? {}) as {
    position?: number;
    rotationDeg?: number;
    offset?: number;
    object?: number;
    shell?: number;
    method?: string;
  };
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
  for (const [key, deg] of Object.entries((m.rotationOverridesDeg ?? {}) as Record<string, unknown>)) {
    const j = /^[0-9]+$/.test(key) ? Number(key) : joints.findIndex((x) => x.name === key);
    if (j >= 0 && j < joints.length && typeof deg === 'number' && deg > 0) overrides[j] = deg;
  }
  return { tolerances, overrides };
}

/** Whether the tuner's tolerances and overrides are what the project entry already gives its motion. */
function tunerMatchesEntry(m: ProjectMotionJson, doc: DocumentState): boolean {
  const { tolerances: a, overrides } = projectEntryTuning(m, doc.motion?.joints ?? []);
  const b = doc.tolerances;
  const same = (x: number | undefined, y: number | undefined) => (x ?? 0) === (y ?? 0);
  if (
    a.positionTolerance !== b.positionTolerance ||
    a.rotationToleranceDeg !== b.rotationToleranceDeg ||
    a.offsetTolerance !== b.offsetTolerance ||
    (a.method === 'classic') !== (b.method === 'classic') ||
    !same(a.objectTolerance, b.objectTolerance) ||
    !same(a.objectTolerance === undefined ? undefined : a.shell, b.objectTolerance === undefined ? undefined : b.shell)
  )
    return false;
  const mine = Object.entries(doc.rotationOverridesDeg);
  return mine.length === Object.keys(overrides).length && mine.every(([j, deg]) => overrides[Number(j)] === deg);
}

/**
 * The tuner compresses an opened project motion with the project's tolerances
 * and per-joint overrides (what the build uses), so its keys and errors match
 * the project panel. Applied as the document's starting state, not as an edit.
 * In a project the entry holds them (docs/formats-tuning.md): when they replace
 * other values the motion's tuning file gave it, a notice over the motion names
 * what changed, so the file's values do not go unseen.
 */
export function applyProjectTolerances(index: number): void {
  const m = projectStore.getState().json?.motions[index];
  const doc = documentStore.getState();
  if (!m || !doc.motion || doc.past.length || doc.future.length) return;
  const { tolerances, overrides } = projectEntryTuning(m, doc.motion.joints);
  const before = tuningOfDocument(doc);
  documentStore.getState().adoptTuning(tolerances, overrides);
  const file = appliedTuningFile(doc.documentId);
  // Only while the tuner still shows the file's values: adopting the project's again says nothing twice.
  if (!file || !sameTuning(before, file.tuning)) return;
  const changes = tuningChanges(before, tuningOfDocument(documentStore.getState()), doc.motion.joints);
  if (changes.length === 0) return;
  const shown = changes.length > 4 ? [...changes.slice(0, 3), `${changes.length - 3} more`] : changes;
  sessionStore
    .getState()
    .notify(
      'info',
      `${m.name}: the project's tolerances replace those of ${basenameOf(file.path)} (${shown.join(', ')}); ` +
        'in a project its entry holds them.',
    );
}

/**
 * The project motion (archive index) the tuner shows: the one opened from the panel (or followed to) and still in
 * the tuner. Null when the tuner shows another file: project actions then have no motion to act on.
 */
export function tunerProjectMotion(
  p: ProjectState = projectStore.getState(),
  d: Pick<DocumentState, 'documentId' | 'motion'> = documentStore.getState(),
): number | null {
  if (p.current === null || !p.json?.motions[p.current] || !d.motion || d.documentId === null) return null;
  return p.currentDocumentId === d.documentId ? p.current : null;
}

/** Why the project actions on "the motion" are off, or null when the tuner shows a project motion. */
export function tunerNotInProjectReason(
  p: ProjectState = projectStore.getState(),
  d: Pick<DocumentState, 'documentId' | 'motion' | 'name'> = documentStore.getState(),
): string | null {
  if (tunerProjectMotion(p, d) !== null) return null;
  if (!d.motion) return 'No motion is open: select one in the list.';
  return `The tuner shows ${d.name}, not opened from this project: select a motion in the list to act on it.`;
}

/** A project entry with the tuner's tolerances and overrides (joint names where the skeleton has them). */
function entryWithTunerTolerances(m: ProjectMotionJson, doc: DocumentState): ProjectMotionJson {
  const t = doc.tolerances;
  const overrides: Record<string, number> = {};
  for (const [j, deg] of Object.entries(doc.rotationOverridesDeg))
    overrides[doc.motion?.joints[Number(j)]?.name || j] = deg;
  const tolerances: Record<string, number | string> = {
    position: t.positionTolerance,
    rotationDeg: t.rotationToleranceDeg,
    offset: t.offsetTolerance,
  };
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
 * An entry that already gives the motion the tuner's values is left as it is (no edit, no undo step): a Save of a
 * motion whose tuning did not change leaves the project file byte for byte. `from` "save" (the tuner's Save, which
 * saves the project next) says nothing when nothing changed and does not ask for a project save.
 */
export function storeTunerTolerances(from: 'button' | 'save' = 'button'): boolean {
  const p = projectStore.getState();
  const doc = documentStore.getState();
  const index = tunerProjectMotion(p, doc);
  if (index === null || !p.json) {
    const why = tunerNotInProjectReason(p, doc);
    if (why) notify('warning', why);
    return false;
  }
  const name = p.json.motions[index].name;
  if (tunerMatchesEntry(p.json.motions[index], doc)) {
    if (from === 'button') notify('info', `${name}: the project already has the tuner's tolerances; nothing changed.`);
    return false;
  }
  editProject(`Tolerances → project (${name})`, (json) => ({
    ...json,
    motions: json.motions.map((m, k) => (k === index ? entryWithTunerTolerances(m, documentStore.getState()) : m)),
  }));
  notify(
    'info',
    from === 'save'
      ? `${name}: the tuner's tolerances are now the project's.`
      : `${name}: the tuner's tolerances are now the project's (save the project to keep them).`,
  );
  return true;
}

/** A change of the motion list as one undo step (renderer/project/projectHistory.ts); `keepName` stays selected. */
function editMotions(
  label: string,
  fn: (motions: ProjectJson['motions']) => ProjectJson['motions'],
  keepName: string | null,
): void {
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
  editMotions(
    `Import ${items.length} motion${items.length === 1 ? '' : 's'}`,
    (ms) => [...ms, ...items.map((i) => ({ name: i.name, mtn: rel(i.mtnPath) }))],
    currentName(),
  );
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
  editMotions(
    `Move ${name} to index ${to}`,
    (ms) => {
      const [m] = ms.splice(from, 1);
      ms.splice(to, 0, m);
      return ms;
    },
    currentName(),
  );
}

/** Adds a motion chosen in a dialog, named after its file (made unique). */
export async function addMotion(): Promise<void> {
  const p = projectStore.getState();
  if (!p.json || !p.path) return;
  try {
    const r = await requireApi().chooseProjectFileDialog({ purpose: 'mtn' });
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
    buttons: [
      { id: 'remove', label: 'Remove', primary: true },
      { id: 'cancel', label: 'Cancel' },
    ],
  });
  if (choice !== 'remove') return;
  const wasCurrent = p.current === index;
  // Removing the selected motion closes the .sev open beside it, which no undo step brings back: its unsaved edits
  // are asked about first (Save, Discard changes, Cancel), as opening another motion asks.
  if (wasCurrent && !(await confirmUnsaved(`remove ${m.name} from the project`, ['sev']))) return;
  editMotions(`Remove motion ${m.name}`, (ms) => ms.filter((_, k) => k !== index), wasCurrent ? null : currentName());
  if (wasCurrent) {
    projectStore.getState().setCurrent(null);
    sevStore.getState().close();
  }
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
  window.dispatchEvent(
    new CustomEvent('actguy:reveal-sev-line', { detail: { file: problem.file, line: problem.line } }),
  );
}
