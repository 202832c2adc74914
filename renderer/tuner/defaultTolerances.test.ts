import { beforeEach, describe, expect, it, vi } from 'vitest';

// The preferences store reads and writes localStorage from its creation (at import): a stand-in goes in first, one
// whose writes can be made to fail (a full or blocked storage).
const storage = vi.hoisted(() => {
  const items = new Map<string, string>();
  const s = { items, failing: false };
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (s.failing) throw new Error('QuotaExceededError: the quota has been exceeded');
      items.set(k, v);
    },
    removeItem: (k: string) => void items.delete(k),
  };
  return s;
});

import { writeMtn } from '../../shared/mtn/write';
import { readMtn } from '../../shared/mtn/read';
import { emptyMotion } from '../../shared/motion/types';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { documentStore, type Tolerances } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { latestRedoLabel, latestUndoLabel, redoLatest, resetUndoOrderForTests, undoLatest } from '../sev/undoOrder';
import { adoptAsDefaults, defaultsLabel, resetDefaultsHistoryForTests, sameTolerances } from './defaultTolerances';
import { messageTexts } from '../testing/sessionMessages';

const TUNED: Tolerances = { positionTolerance: 0.3, rotationToleranceDeg: 3, offsetTolerance: 0.5 };

/** The defaults as the next start would read them (what localStorage holds). */
function storedDefaults(): unknown {
  const raw = storage.items.get('actguy.preferences');
  return raw ? (JSON.parse(raw) as { state: { defaultTolerances: unknown } }).state.defaultTolerances : undefined;
}
const defaults = () => preferencesStore.getState().defaultTolerances;

function loadMotion(id: string): void {
  const motion = readMtn(writeMtn(emptyMotion(20, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }])));
  documentStore.getState().load({
    documentId: id,
    path: `/ws/${id}.mtn`,
    name: id,
    kind: 'mtn',
    readOnly: false,
    motion,
    tolerances: { ...TUNED },
  });
}

beforeEach(() => {
  storage.failing = false;
  documentStore.getState().close();
  resetUndoOrderForTests();
  resetDefaultsHistoryForTests();
  preferencesStore.getState().set({ defaultTolerances: { ...DEFAULT_TOLERANCES } });
  sessionStore.setState({ messages: [] });
  loadMotion('walk');
});

describe('"Use as defaults for new motions" is one named undo step', () => {
  it('sets and stores the defaults; Undo sets and stores the old ones back, Redo the new ones again', () => {
    adoptAsDefaults(documentStore.getState().tolerances);
    expect(defaults()).toEqual(TUNED);
    expect(storedDefaults()).toEqual(TUNED);
    expect(latestUndoLabel()).toBe('Use tolerances 0.3, 3°, 0.5 as defaults for new motions');

    undoLatest();
    expect(defaults()).toEqual(DEFAULT_TOLERANCES);
    expect(storedDefaults()).toEqual(DEFAULT_TOLERANCES);
    expect(latestUndoLabel()).toBeNull();
    expect(latestRedoLabel()).toBe('Use tolerances 0.3, 3°, 0.5 as defaults for new motions');

    redoLatest();
    expect(defaults()).toEqual(TUNED);
    expect(storedDefaults()).toEqual(TUNED);
    expect(messageTexts('warning')).toEqual([]);
  });

  it('takes its place in the one undo order with motion edits, and outlives opening another motion', () => {
    documentStore.getState().tolerancesActions.set({ positionTolerance: 0.7 });
    adoptAsDefaults(documentStore.getState().tolerances);
    documentStore.getState().tolerancesActions.set({ positionTolerance: 0.9 });
    expect(latestUndoLabel()).toBe('Set position tolerance to 0.9');

    undoLatest(); // the motion edit after it
    expect(documentStore.getState().tolerances.positionTolerance).toBe(0.7);
    expect(defaults().positionTolerance).toBe(0.7);
    expect(latestUndoLabel()).toBe('Use tolerances 0.7, 3°, 0.5 as defaults for new motions');
    undoLatest(); // the defaults, not the motion edit before them
    expect(defaults()).toEqual(DEFAULT_TOLERANCES);
    expect(documentStore.getState().tolerances.positionTolerance).toBe(0.7);
    redoLatest();
    expect(defaults().positionTolerance).toBe(0.7);

    // Another motion: its history starts empty, the defaults step stays undoable.
    loadMotion('run');
    expect(latestUndoLabel()).toBe('Use tolerances 0.7, 3°, 0.5 as defaults for new motions');
    undoLatest();
    expect(defaults()).toEqual(DEFAULT_TOLERANCES);
  });

  it('a new edit after an Undo ends the redo of the defaults', () => {
    adoptAsDefaults(TUNED);
    undoLatest();
    documentStore.getState().tolerancesActions.set({ positionTolerance: 0.9 });
    expect(latestRedoLabel()).toBeNull();
    redoLatest();
    expect(defaults()).toEqual(DEFAULT_TOLERANCES);
  });

  it('the defaults already: no step, and the message bar says so', () => {
    adoptAsDefaults({ ...DEFAULT_TOLERANCES, method: 'refined' });
    expect(latestUndoLabel()).toBeNull();
    expect(messageTexts('info')).toEqual(['These tolerances are the defaults for new motions already.']);
  });

  it('a write that does not reach the storage keeps the edit in this window and says it will not outlast it', () => {
    storage.failing = true;
    adoptAsDefaults(TUNED);
    expect(defaults()).toEqual(TUNED);
    expect(storedDefaults()).toEqual(DEFAULT_TOLERANCES);
    expect(messageTexts('warning')).toEqual([
      'The defaults for new motions apply in this window, but could not be stored for the next start (QuotaExceededError: the quota has been exceeded).',
    ]);
    // Undo works the same way (and is stored once the storage takes writes again).
    storage.failing = false;
    undoLatest();
    expect(defaults()).toEqual(DEFAULT_TOLERANCES);
    expect(storedDefaults()).toEqual(DEFAULT_TOLERANCES);
    expect(messageTexts('warning')).toHaveLength(1);
  });
});

describe('the step names what it sets', () => {
  it('values in the panel order, with the classic rule and the object-space bound when set', () => {
    expect(defaultsLabel({ ...TUNED, method: 'classic', objectTolerance: 1.5, shell: 2 })).toBe(
      'Use tolerances 0.3, 3°, 0.5, classic rule, object-space bound 1.5 as defaults for new motions',
    );
  });

  it('tolerances compress alike when every value is the same; no method is the refined one', () => {
    expect(sameTolerances(TUNED, { ...TUNED })).toBe(true);
    expect(sameTolerances(TUNED, { ...TUNED, method: 'refined' })).toBe(true);
    expect(sameTolerances(TUNED, { ...TUNED, method: 'classic' })).toBe(false);
    expect(sameTolerances(TUNED, { ...TUNED, offsetTolerance: 0.6 })).toBe(false);
    expect(sameTolerances(TUNED, { ...TUNED, objectTolerance: 1 })).toBe(false);
    expect(sameTolerances({ ...TUNED, objectTolerance: 1, shell: 2 }, { ...TUNED, objectTolerance: 1 })).toBe(false);
    expect(sameTolerances({ ...TUNED, shell: 2 }, TUNED)).toBe(true);
  });
});
