/**
 * Undo history of project edits (reorder, add, remove a motion, "Tolerances → project", a new .sev listed in the
 * project). Each edit is one step holding the project JSON before and after it; the steps take their place in the
 * window's single undo order (renderer/sev/undoOrder.ts) beside motion and SEV edits, so Ctrl+Z undoes the newest
 * edit whichever kind it was. The selected motion stays selected by name across undo/redo. Opening or closing a
 * project clears the history.
 */
import { dropProjectSteps, recordProjectStep, registerProjectParticipant } from '../sev/undoOrder';
import { projectStore, type ProjectJson } from './projectStore';

interface ProjectStep {
  label: string;
  before: ProjectJson;
  after: ProjectJson;
}

/** Project steps kept; the oldest goes first (and from the window's undo order with it). */
export const PROJECT_HISTORY_LIMIT = 200;
let past: ProjectStep[] = [];
let future: ProjectStep[] = [];

/** Name of the motion selected in the panel, or null. */
function currentName(): string | null {
  const p = projectStore.getState();
  return p.current === null ? null : (p.json?.motions[p.current]?.name ?? null);
}

/** Shows `json`, keeping the motion named `keep` selected (or none when it is not in the list). */
function apply(json: ProjectJson, keep: string | null): void {
  const p = projectStore.getState();
  p.setJson(json);
  if (keep !== null) {
    const i = json.motions.findIndex((m) => m.name === keep);
    projectStore.getState().setCurrent(i >= 0 ? i : null);
  }
}

/**
 * Applies an edit of the project JSON as one undo step. `fn` gets the current JSON and returns the new one (or the
 * same object for "no change": then nothing is recorded). `keep` is the motion to keep selected afterwards
 * (default: the selected one, by name). Returns the new JSON, or null when no project is open.
 */
export function editProject(
  label: string,
  fn: (json: ProjectJson) => ProjectJson,
  keep: string | null = currentName(),
): ProjectJson | null {
  const before = projectStore.getState().json;
  if (!before || !projectStore.getState().path) return null;
  const after = fn(before);
  if (after === before) return before;
  apply(after, keep);
  past.push({ label, before, after });
  const full = past.length > PROJECT_HISTORY_LIMIT;
  if (full) past.shift();
  future = [];
  recordProjectStep(label, full);
  return after;
}

registerProjectParticipant({
  undo() {
    const step = past.pop();
    if (!step) return;
    apply(step.before, currentName());
    future.push(step);
  },
  redo() {
    const step = future.pop();
    if (!step) return;
    apply(step.after, currentName());
    past.push(step);
  },
});

/** Forgets every project step (a project was opened: its history starts empty). */
export function clearProjectHistory(): void {
  past = [];
  future = [];
  dropProjectSteps();
}

// The project closed or another one opened: its steps no longer apply.
projectStore.subscribe((s, prev) => {
  if (s.path !== prev.path) clearProjectHistory();
});

/** For tests: forget every step. */
export function resetProjectHistoryForTests(): void {
  past = [];
  future = [];
}
