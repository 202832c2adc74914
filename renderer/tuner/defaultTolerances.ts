/**
 * "Use as defaults for new motions" (the tuning panel's button): the tuner's tolerances become the ones a newly
 * opened motion starts with, as one named undo step ("Use tolerances 0.3, 3°, 0.5 as defaults for new motions") in
 * the window's one undo order (renderer/sev/undoOrder.ts), beside motion, SEV and project edits. The defaults are a
 * preference (renderer/state/preferencesStore.ts, kept in localStorage), so Undo and Redo set the preference back and
 * forth and each value is stored as it is set. A write that does not reach localStorage keeps the value in memory
 * (the edit is not lost, and the window goes on with it) and says so: the next start would use the stored one.
 * Settings steps belong to the app: opening another motion or project keeps them (docs/tuner.md).
 */
import type { Tolerances } from '../state/documentStore';
import { preferencesStore, preferencesWriteError } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { recordSettingsStep, registerSettingsParticipant } from '../sev/undoOrder';

interface DefaultsStep {
  label: string;
  before: Tolerances;
  after: Tolerances;
}

/** Settings steps kept; the oldest goes first (and from the window's undo order with it). */
export const DEFAULTS_HISTORY_LIMIT = 200;
let past: DefaultsStep[] = [];
let future: DefaultsStep[] = [];

/** Whether two tolerance sets compress alike (no method is the refined compressor). */
export function sameTolerances(a: Tolerances, b: Tolerances): boolean {
  return (
    a.positionTolerance === b.positionTolerance &&
    a.rotationToleranceDeg === b.rotationToleranceDeg &&
    a.offsetTolerance === b.offsetTolerance &&
    (a.method ?? 'refined') === (b.method ?? 'refined') &&
    a.objectTolerance === b.objectTolerance &&
    (a.objectTolerance === undefined || a.shell === b.shell)
  );
}

/**
 * The step's name, with the values in the panel's order (position, rotation, offset) and units as the tuner's own
 * steps write them ("Set rotation tolerance to 3°"); the classic rule and the object-space bound when set.
 */
export function defaultsLabel(t: Tolerances): string {
  const extra = [
    ...(t.method === 'classic' ? ['classic rule'] : []),
    ...(t.objectTolerance !== undefined ? [`object-space bound ${t.objectTolerance}`] : []),
  ];
  const values = [`${t.positionTolerance}`, `${t.rotationToleranceDeg}°`, `${t.offsetTolerance}`, ...extra];
  return `Use tolerances ${values.join(', ')} as defaults for new motions`;
}

/** Sets the defaults and says so when they could not be stored for the next start. */
function store(t: Tolerances): void {
  preferencesStore.getState().set({ defaultTolerances: { ...t } });
  const why = preferencesWriteError();
  if (why)
    sessionStore
      .getState()
      .notify(
        'warning',
        `The defaults for new motions apply in this window, but could not be stored for the next start (${why}).`,
        'app',
      );
}

/**
 * Makes `tolerances` the defaults for new motions, as one undo step. Nothing changes (and no step is made) when they
 * are the defaults already; the message bar says so.
 */
export function adoptAsDefaults(tolerances: Tolerances): void {
  const before = preferencesStore.getState().defaultTolerances;
  if (sameTolerances(before, tolerances)) {
    sessionStore.getState().notify('info', 'These tolerances are the defaults for new motions already.', 'app');
    return;
  }
  const step: DefaultsStep = { label: defaultsLabel(tolerances), before: { ...before }, after: { ...tolerances } };
  store(step.after);
  past.push(step);
  const full = past.length > DEFAULTS_HISTORY_LIMIT;
  if (full) past.shift();
  future = [];
  recordSettingsStep(step.label, full);
}

registerSettingsParticipant({
  undo() {
    const step = past.pop();
    if (!step) return;
    store(step.before);
    future.push(step);
  },
  redo() {
    const step = future.pop();
    if (!step) return;
    store(step.after);
    past.push(step);
  },
});

/** For tests: forget every step. */
export function resetDefaultsHistoryForTests(): void {
  past = [];
  future = [];
}
