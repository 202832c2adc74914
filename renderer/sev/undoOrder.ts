/**
 * One undo order for motion, SEV, project and settings edits. The motion's history lives
 * in the document store (renderer/state/documentStore.ts), the SEV's in the
 * SEV store, the project's in renderer/project/projectHistory.ts, the settings'
 * (the defaults for new motions) in renderer/tuner/defaultTolerances.ts; this journal
 * records which of them made each step, so Ctrl+Z undoes the newest edit
 * whichever it was, and Ctrl+Y redoes in order.
 *
 * Motion steps are learned by watching the document store (a new history
 * entry is a motion edit; undo/redo made elsewhere move the matching step),
 * so the document store needs no knowledge of SEVs. SEV steps are pushed by
 * the SEV store, which owns their content.
 */
import { documentStore, redoLabel, undoLabel, type DocumentState } from '../state/documentStore';

/** Who owns a step's content. */
export type UndoOwner =
  | { kind: 'motion' }
  | { kind: 'sev'; label: string }
  | { kind: 'project'; label: string }
  | { kind: 'settings'; label: string };

/** Undo/redo of one owner's newest step (the SEV store registers itself). */
export interface UndoParticipant {
  undo(): void;
  redo(): void;
  /** A drag of this owner is open (begin without commit): its undo and redo refuse until it ends. */
  busy?(): boolean;
}

let past: UndoOwner[] = [];
let future: UndoOwner[] = [];
let applying = false;
let sevParticipant: UndoParticipant | null = null;
let projectParticipant: UndoParticipant | null = null;
let settingsParticipant: UndoParticipant | null = null;
const listeners = new Set<() => void>();

function changed(): void {
  for (const l of listeners) l();
}

/** The SEV store registers its undo/redo here. */
export function registerSevParticipant(p: UndoParticipant): void {
  sevParticipant = p;
}

/**
 * Records a step of `owner` (clears the redo side, as any new edit does). `droppedOldest`: the owner's history was
 * full and let its oldest step go to make room, so the journal lets go of that step too; else the journal would keep
 * an entry whose Undo does nothing (and, for the motion, has no name, which greys Undo over older steps of the others).
 */
function record(owner: UndoOwner, droppedOldest: boolean): void {
  if (droppedOldest) removeFirst(past, owner.kind);
  past.push(owner);
  future = [];
  changed();
}

/** Records a new SEV step; `droppedOldest` when the .sev's history let its oldest step go (see record). */
export function recordSevStep(label: string, droppedOldest = false): void {
  record({ kind: 'sev', label }, droppedOldest);
}

/** The project history registers its undo/redo here. */
export function registerProjectParticipant(p: UndoParticipant): void {
  projectParticipant = p;
}

/** Records a new project step (reorder, add, remove, tolerances); clears the redo side. */
export function recordProjectStep(label: string, droppedOldest = false): void {
  record({ kind: 'project', label }, droppedOldest);
}

/** The settings history (the defaults for new motions) registers its undo/redo here. */
export function registerSettingsParticipant(p: UndoParticipant): void {
  settingsParticipant = p;
}

/**
 * Records a new settings step ("Use … as defaults for new motions"); clears the redo side. Settings belong to the
 * app, not to a motion or project: opening another motion or project keeps their steps.
 */
export function recordSettingsStep(label: string, droppedOldest = false): void {
  record({ kind: 'settings', label }, droppedOldest);
}

/** Drops every project step (another project was opened, or it was closed). */
export function dropProjectSteps(): void {
  past = past.filter((s) => s.kind !== 'project');
  future = future.filter((s) => s.kind !== 'project');
  changed();
}

/** Drops every SEV step (the SEV histories were cleared, e.g. another motion was opened). */
export function dropSevSteps(): void {
  past = past.filter((s) => s.kind !== 'sev');
  future = future.filter((s) => s.kind !== 'sev');
  changed();
}

function removeLast(list: UndoOwner[], kind: UndoOwner['kind']): void {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].kind === kind) return void list.splice(i, 1);
}

function removeFirst(list: UndoOwner[], kind: UndoOwner['kind']): void {
  const i = list.findIndex((x) => x.kind === kind);
  if (i >= 0) list.splice(i, 1);
}

/** Keeps the journal in step with the document store's own history. */
function onDocument(s: DocumentState, prev: DocumentState): void {
  if (s.past === prev.past && s.future === prev.future) return;
  if (applying) return;
  const lastNow = s.past[s.past.length - 1];
  const lastBefore = prev.past[prev.past.length - 1];
  if (s.past.length === 0 && s.future.length === 0) {
    // load/close: the motion's history is gone, and the SEV shown with it changes too; the project stays open,
    // so its steps stay (a project motion switch must not forget a reorder), and so do the app's settings steps
    past = past.filter((x) => x.kind === 'project' || x.kind === 'settings');
    future = future.filter((x) => x.kind === 'project' || x.kind === 'settings');
  } else if (s.future.length === prev.future.length - 1 && s.past.length === prev.past.length + 1) {
    // a redo made without the journal
    const i = future.findIndex((x) => x.kind === 'motion');
    if (i >= 0) future.splice(i, 1);
    past.push({ kind: 'motion' });
  } else if (s.past.length < prev.past.length && s.future.length > prev.future.length) {
    // an undo made without the journal
    removeLast(past, 'motion');
    future.push({ kind: 'motion' });
  } else if (lastNow && lastNow !== lastBefore) {
    // a new motion edit; like any new edit it ends every redo. A history as long as before: the document store's was
    // full and let its oldest step go (HISTORY_LIMIT), so the journal lets go of its oldest motion step too.
    record({ kind: 'motion' }, s.past.length === prev.past.length);
    return;
  }
  changed();
}

documentStore.subscribe(onDocument);

/**
 * Whether a drag is open (the motion's or a .sev's): Undo and Redo wait for it to end, as the stores' own undo does.
 * Moving the journal meanwhile would record a step as undone that its owner kept (a Ctrl+Z while the mouse still
 * held an event or a slider), and the next Redo would then redo the wrong step.
 */
function dragOpen(): boolean {
  return documentStore.getState().transaction !== null || sevParticipant?.busy?.() === true;
}

/** Undoes the newest step, whichever kind it is (nothing while a drag is open). */
export function undoLatest(): void {
  const step = past[past.length - 1];
  if (!step || dragOpen()) return;
  applying = true;
  try {
    if (step.kind === 'motion') documentStore.getState().history.undo();
    else if (step.kind === 'project') projectParticipant?.undo();
    else if (step.kind === 'settings') settingsParticipant?.undo();
    else sevParticipant?.undo();
  } finally {
    applying = false;
  }
  past.pop();
  future.push(step);
  changed();
}

/** Redoes the step undone last (nothing while a drag is open). */
export function redoLatest(): void {
  const step = future[future.length - 1];
  if (!step || dragOpen()) return;
  applying = true;
  try {
    if (step.kind === 'motion') documentStore.getState().history.redo();
    else if (step.kind === 'project') projectParticipant?.redo();
    else if (step.kind === 'settings') settingsParticipant?.redo();
    else sevParticipant?.redo();
  } finally {
    applying = false;
  }
  future.pop();
  past.push(step);
  changed();
}

/** What Undo would revert ("Move event"), or null. */
export function latestUndoLabel(): string | null {
  const step = past[past.length - 1];
  if (!step) return null;
  return step.kind === 'motion' ? undoLabel(documentStore.getState()) : step.label;
}

export function latestRedoLabel(): string | null {
  const step = future[future.length - 1];
  if (!step) return null;
  return step.kind === 'motion' ? redoLabel(documentStore.getState()) : step.label;
}

/** Re-renders on any journal change (the Edit menu's labels). */
export function subscribeUndoOrder(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For tests: forget everything. */
export function resetUndoOrderForTests(): void {
  past = [];
  future = [];
  changed();
}
