import { describe, it, expect } from 'vitest';
import {
  createDocumentStore,
  HISTORY_LIMIT,
  keyWordsRead,
  redoLabel,
  sameFileContent,
  toleranceLabel,
  undoLabel,
} from './documentStore';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import {
  emptyMotion,
  KeyFlag,
  MotionFlag,
  jointFlagsAt,
  translationFlagsAt,
  lockedJointAt,
} from '../../shared/motion/types';

function sample() {
  const joints = [
    { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
    { parent: 0, mirror: 2, part: 0, reserved: 0, name: 'footL' },
    { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'footR' },
  ];
  const store = createDocumentStore();
  store.getState().load({
    documentId: 'd1',
    kind: 'mtn',
    readOnly: false,
    name: 'walk',
    path: 'walk.mtn',
    motion: emptyMotion(20, joints),
  });
  return store;
}

describe('document store', () => {
  it('toggles user keys on joints and on the root translation, one undo step each', () => {
    const s = sample();
    s.getState().keys.toggle(1, 5);
    s.getState().keys.toggle(-1, 7);
    const m = s.getState().motion!;
    expect(jointFlagsAt(m, 5, 1) & KeyFlag.KEY).toBeTruthy();
    expect(translationFlagsAt(m, 7) & KeyFlag.KEY).toBeTruthy();
    expect(s.getState().past).toHaveLength(2);
    s.getState().history.undo();
    expect(translationFlagsAt(s.getState().motion!, 7) & KeyFlag.KEY).toBe(0);
    expect(jointFlagsAt(s.getState().motion!, 5, 1) & KeyFlag.KEY).toBeTruthy();
    s.getState().history.redo();
    expect(translationFlagsAt(s.getState().motion!, 7) & KeyFlag.KEY).toBeTruthy();
  });

  it('moves user keys by whole frames as one undo step, clamped to the motion, and deletes them as one step', () => {
    const s = sample();
    s.getState().keys.toggle(1, 5);
    s.getState().keys.toggle(1, 8);
    s.getState().keys.toggle(2, 8);
    const keysOf = (j: number) =>
      Array.from({ length: 21 }, (_, f) => f).filter((f) => jointFlagsAt(s.getState().motion!, f, j) & KeyFlag.KEY);
    const steps = s.getState().past.length;
    // Frame 7 holds no key of joint 1: it is ignored. 8 + 20 is past N = 20: the delta is clamped to 12.
    expect(s.getState().keys.move(1, [5, 7, 8], 20)).toEqual([17, 20]);
    expect(keysOf(1)).toEqual([17, 20]);
    expect(keysOf(2)).toEqual([8]);
    expect(s.getState().past).toHaveLength(steps + 1);
    expect(s.getState().past.at(-1)!.label).toBe('Move 2 keys (footL, +12 frames)');
    s.getState().history.undo();
    expect(keysOf(1)).toEqual([5, 8]);
    expect(s.getState().keys.move(1, [5], -9)).toEqual([0]);
    s.getState().keys.remove(1, [0, 8]);
    expect(keysOf(1)).toEqual([]);
    expect(s.getState().past.at(-1)!.label).toBe('Delete 2 keys (footL)');
    s.getState().history.undo();
    expect(keysOf(1)).toEqual([0, 8]);
    // Root translation keys move the same way.
    s.getState().keys.toggle(-1, 3);
    expect(s.getState().keys.move(-1, [3], 2)).toEqual([5]);
    expect(translationFlagsAt(s.getState().motion!, 5) & KeyFlag.KEY).toBeTruthy();
    expect(translationFlagsAt(s.getState().motion!, 3) & KeyFlag.KEY).toBe(0);
  });

  it('never mutates the key-info arrays of an earlier revision', () => {
    const s = sample();
    const before = s.getState().motion!.jointKeyInfo;
    s.getState().keys.toggle(2, 3);
    expect(before.every((w) => w === 0)).toBe(true);
    expect(s.getState().motion!.jointKeyInfo).not.toBe(before);
  });

  it('tracks dirty against the saved revision, including undo back to it', () => {
    const s = sample();
    expect(s.getState().dirty).toBe(false);
    s.getState().keys.toggle(1, 4);
    expect(s.getState().dirty).toBe(true);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(false);
    s.getState().history.redo();
    expect(s.getState().dirty).toBe(true);
    s.getState().markSaved('walk.mtn');
    expect(s.getState().dirty).toBe(false);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(true);
  });

  it('tolerance and override changes are undoable and mark the motion modified (Save keeps its tuning); undo back clears it', () => {
    const s = sample();
    s.getState().tolerancesActions.set({ rotationToleranceDeg: 2 });
    expect(s.getState().tolerances.rotationToleranceDeg).toBe(2);
    expect(s.getState().dirty).toBe(true);
    s.getState().history.undo();
    expect(s.getState().tolerances.rotationToleranceDeg).not.toBe(2);
    expect(s.getState().dirty).toBe(false);
    s.getState().tolerancesActions.setOverride(1, 0.25);
    expect(s.getState().dirty).toBe(true);
    s.getState().markSaved('/m/walk.mtn');
    expect(s.getState().dirty).toBe(false);
  });

  it('adopted tuning (a tuning file, a project entry) is the starting revision: not modified, not an undo step', () => {
    const s = sample();
    s.getState().adoptTuning({ positionTolerance: 0.1, rotationToleranceDeg: 0.75, offsetTolerance: 0.1 }, { 2: 0.25 });
    expect(s.getState().tolerances.rotationToleranceDeg).toBe(0.75);
    expect(s.getState().rotationOverridesDeg).toEqual({ 2: 0.25 });
    expect(s.getState().dirty).toBe(false);
    expect(s.getState().past).toHaveLength(0);
    s.getState().keys.toggle(0, 3);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(false);
  });

  it('groups a drag (begin..commit) into one undo step', () => {
    const s = sample();
    const start = s.getState().tolerances.positionTolerance;
    s.getState().history.begin('Drag tolerance');
    for (const v of [0.6, 0.7, 0.8, 0.9]) s.getState().tolerancesActions.set({ positionTolerance: v });
    s.getState().history.commit();
    expect(s.getState().past).toHaveLength(1);
    expect(s.getState().past[0].label).toBe('Drag tolerance');
    expect(s.getState().tolerances.positionTolerance).toBe(0.9);
    s.getState().history.undo();
    expect(s.getState().tolerances.positionTolerance).toBe(start);
    s.getState().history.redo();
    expect(s.getState().tolerances.positionTolerance).toBe(0.9);
  });

  it('a drag committed with a final label is named by it (the value it ended at)', () => {
    const s = sample();
    s.getState().history.begin('Drag rotation');
    for (const v of [0.6, 1.2]) s.getState().tolerancesActions.set({ rotationToleranceDeg: v });
    s.getState().history.commit(toleranceLabel({ rotationToleranceDeg: s.getState().tolerances.rotationToleranceDeg }));
    expect(s.getState().past).toHaveLength(1);
    expect(s.getState().past[0].label).toBe('Set rotation tolerance to 1.2°');
  });

  it('an empty or cancelled transaction leaves no step', () => {
    const s = sample();
    s.getState().history.begin('nothing');
    s.getState().history.commit();
    expect(s.getState().past).toHaveLength(0);
    expect(s.getState().transaction).toBeNull();
    s.getState().history.begin('drag');
    s.getState().keys.toggle(0, 3);
    s.getState().history.cancel();
    expect(s.getState().past).toHaveLength(0);
    expect(jointFlagsAt(s.getState().motion!, 3, 0)).toBe(0);
    expect(s.getState().dirty).toBe(false);
  });

  it('a new edit clears the redo stack', () => {
    const s = sample();
    s.getState().keys.toggle(0, 1);
    s.getState().history.undo();
    expect(s.getState().future).toHaveLength(1);
    s.getState().keys.toggle(0, 2);
    expect(s.getState().future).toHaveLength(0);
  });

  it('sets a lock range and refuses an overlapping range on another joint, naming frame and joint', () => {
    const s = sample();
    expect(s.getState().locks.setRange(1, 8, 4)).toEqual({ ok: true });
    for (let f = 4; f <= 8; f++) expect(lockedJointAt(s.getState().motion!, f)).toBe(1);
    const refused = s.getState().locks.setRange(2, 0, 5);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/frame 4 .*joint 1 "footL"/);
    expect(lockedJointAt(s.getState().motion!, 2)).toBe(-1);
    expect(s.getState().past).toHaveLength(1);
    // Extending the same joint's range is fine; clearing frees the frames for others.
    expect(s.getState().locks.setRange(1, 8, 10).ok).toBe(true);
    s.getState().locks.clearRange(1, 0, 20);
    expect(s.getState().locks.setRange(2, 0, 5).ok).toBe(true);
  });

  it('toggles trace keys and motion flags', () => {
    const s = sample();
    s.getState().trace.toggle(10);
    expect(translationFlagsAt(s.getState().motion!, 10) & KeyFlag.TRACE).toBeTruthy();
    s.getState().motionFlags.set(MotionFlag.MIRROR_UPPER | MotionFlag.OFFSETS, true);
    expect(s.getState().motion!.flags).toBe(MotionFlag.MIRROR_UPPER | MotionFlag.OFFSETS);
    s.getState().motionFlags.setWaistJoint(0);
    expect(s.getState().motion!.waistJoint).toBe(0);
    expect(s.getState().dirty).toBe(true);
    s.getState().history.undo();
    s.getState().history.undo();
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(false);
  });

  it('bumps editId on every change that compression depends on', () => {
    const s = sample();
    const e0 = s.getState().editId;
    s.getState().tolerancesActions.setOverride(1, 3);
    expect(s.getState().editId).toBeGreaterThan(e0);
    expect(s.getState().rotationOverridesDeg[1]).toBe(3);
    s.getState().tolerancesActions.setOverride(1, null);
    expect(s.getState().rotationOverridesDeg[1]).toBeUndefined();
  });

  it('refuses edits on read-only documents', () => {
    const s = createDocumentStore();
    const m = emptyMotion(4, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' }]);
    s.getState().load({ documentId: 'd2', kind: 'mt3', readOnly: true, name: 'a', path: 'a.mt3', motion: m });
    s.getState().keys.toggle(0, 1);
    expect(s.getState().past).toHaveLength(0);
    expect(s.getState().locks.setRange(0, 0, 1).ok).toBe(false);
  });

  it('undo and redo restore key info word for word, unknown bits included, from compact history', () => {
    const joints = [
      { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
      { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'foot' },
    ];
    const m = emptyMotion(300, joints);
    m.jointKeyInfo[(7 * 2 + 1) * 4] = 0x100 | KeyFlag.KEY; // a bit this tool does not know
    m.translationKeyInfo[9 * 4] = KeyFlag.TRACE;
    const s = createDocumentStore();
    s.getState().load({ documentId: 'd', kind: 'mtn', readOnly: false, name: 'm', path: 'm.mtn', motion: m });
    const original = s.getState().motion!.jointKeyInfo.slice();
    s.getState().keys.toggle(1, 7); // clears KEY, keeps 0x100
    expect(jointFlagsAt(s.getState().motion!, 7, 1)).toBe(0x100);
    s.getState().locks.setRange(0, 100, 120);
    const after = s.getState().motion!.jointKeyInfo.slice();
    s.getState().history.undo();
    s.getState().history.undo();
    expect(Array.from(s.getState().motion!.jointKeyInfo)).toEqual(Array.from(original));
    expect(translationFlagsAt(s.getState().motion!, 9)).toBe(KeyFlag.TRACE);
    s.getState().history.redo();
    s.getState().history.redo();
    expect(Array.from(s.getState().motion!.jointKeyInfo)).toEqual(Array.from(after));
    // History holds only the flagged words, not copies of the whole key info.
    const entry = s.getState().past[0].state as unknown as {
      jointKeyInfo: { index: Uint32Array; value: Uint32Array };
      translationKeyInfo: { index: Uint32Array };
    };
    expect(Array.from(entry.jointKeyInfo.index)).toEqual([(7 * 2 + 1) * 4]); // the one flagged word before the toggle
    expect(Array.from(entry.jointKeyInfo.value)).toEqual([0x100 | KeyFlag.KEY]);
    expect(Array.from(entry.translationKeyInfo.index)).toEqual([9 * 4]);
  });

  it('a full history drops its oldest step, never the newest (plain edits and drag transactions)', () => {
    for (const viaTransaction of [false, true]) {
      const s = sample();
      const tolOf = () => s.getState().tolerances.rotationToleranceDeg;
      const original = tolOf();
      const valueAt = (i: number) => 1 + i / 1000;
      for (let i = 1; i <= HISTORY_LIMIT + 1; i++) {
        if (viaTransaction) s.getState().history.begin(`Drag ${i}`);
        s.getState().tolerancesActions.set({ rotationToleranceDeg: valueAt(i) });
        if (viaTransaction) s.getState().history.commit();
      }
      expect(s.getState().past).toHaveLength(HISTORY_LIMIT);
      // The newest step undoes first...
      s.getState().history.undo();
      expect(tolOf()).toBe(valueAt(HISTORY_LIMIT));
      // ...and the step that fell off is the oldest: undoing everything stops after edit 1, not at the original.
      for (let i = 1; i < HISTORY_LIMIT; i++) s.getState().history.undo();
      expect(tolOf()).toBe(valueAt(1));
      s.getState().history.undo();
      expect(tolOf()).toBe(valueAt(1));
      expect(tolOf()).not.toBe(original);
    }
  });
});

const JOINTS = [
  { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
  { parent: 0, mirror: 2, part: 0, reserved: 0, name: 'footL' },
  { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'footR' },
];
const labels = (s: ReturnType<typeof createDocumentStore>) => s.getState().past.map((p) => p.label);

describe('document store: load, close and save', () => {
  it('load takes the document fields, given tolerances or the current ones, and starts clean with no history', () => {
    const s = createDocumentStore();
    const e0 = s.getState().editId;
    const motion = emptyMotion(20, JOINTS);
    const tolerances = { positionTolerance: 2, rotationToleranceDeg: 3, offsetTolerance: 4 };
    s.getState().load({
      documentId: 'd9',
      kind: 'mt3',
      readOnly: true,
      name: 'run',
      path: '/w/run.mt3',
      motion,
      tolerances,
    });
    const st = s.getState();
    expect([st.documentId, st.kind, st.readOnly, st.name, st.path]).toEqual(['d9', 'mt3', true, 'run', '/w/run.mt3']);
    expect(st.motion).toBe(motion);
    expect(st.tolerances).toBe(tolerances);
    expect(st.editId).toBe(e0 + 1);
    expect(st.dirty).toBe(false);
    expect(st.rotationOverridesDeg).toEqual({});
    // A second load without tolerances keeps the current ones; overrides, history and drag go.
    s.getState().load({
      documentId: 'd1',
      kind: 'mtn',
      readOnly: false,
      name: 'walk',
      path: 'walk.mtn',
      motion: emptyMotion(20, JOINTS),
    });
    s.getState().tolerancesActions.setOverride(1, 3);
    s.getState().keys.toggle(1, 2);
    s.getState().history.undo();
    s.getState().history.begin('drag');
    s.getState().load({
      documentId: 'd2',
      kind: 'mtn',
      readOnly: false,
      name: 'walk2',
      path: 'walk2.mtn',
      motion: emptyMotion(20, JOINTS),
    });
    expect(s.getState().tolerances).toBe(tolerances);
    expect(s.getState().rotationOverridesDeg).toEqual({});
    expect(s.getState().past).toEqual([]);
    expect(s.getState().future).toEqual([]);
    expect(s.getState().transaction).toBeNull();
    expect(s.getState().dirty).toBe(false);
  });

  it('an unsaved import is dirty from the start and stays dirty after undoing every edit, until markSaved', () => {
    const s = createDocumentStore();
    s.getState().load({
      documentId: 'i',
      kind: 'mtn',
      readOnly: false,
      name: 'imp',
      path: null,
      motion: emptyMotion(20, JOINTS),
      unsaved: true,
    });
    expect(s.getState().dirty).toBe(true);
    s.getState().keys.toggle(1, 2);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(true);
    s.getState().markSaved('/w/imp.mtn', 'imp2');
    expect(s.getState().dirty).toBe(false);
    expect(s.getState().path).toBe('/w/imp.mtn');
    expect(s.getState().name).toBe('imp2');
    s.getState().keys.toggle(1, 2);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(false);
    // markSaved without a name keeps the name; a later load with unsaved false is clean
    s.getState().markSaved('/w/other.mtn');
    expect(s.getState().name).toBe('imp2');
    s.getState().load({
      documentId: 'i',
      kind: 'mtn',
      readOnly: false,
      name: 'x',
      path: 'x.mtn',
      motion: emptyMotion(20, JOINTS),
      unsaved: false,
    });
    s.getState().keys.toggle(1, 2);
    s.getState().history.undo();
    expect(s.getState().dirty).toBe(false);
  });

  it('close forgets the document but keeps the tolerances; markSaved without a document does nothing', () => {
    const s = sample();
    s.getState().tolerancesActions.set({ positionTolerance: 3 });
    s.getState().keys.toggle(1, 2);
    s.getState().history.begin('drag');
    const e = s.getState().editId;
    s.getState().close();
    const st = s.getState();
    expect([st.documentId, st.path, st.name, st.kind, st.readOnly, st.motion, st.dirty, st.transaction]).toEqual([
      null,
      null,
      '',
      null,
      false,
      null,
      false,
      null,
    ]);
    expect(st.past).toEqual([]);
    expect(st.future).toEqual([]);
    expect(st.rotationOverridesDeg).toEqual({});
    expect(st.tolerances.positionTolerance).toBe(3);
    expect(st.editId).toBe(e + 1);
    s.getState().markSaved('/w/x.mtn', 'x');
    expect(s.getState().path).toBeNull();
    expect(s.getState().name).toBe('');
    // edits, undo and drags without a document do nothing
    s.getState().keys.toggle(1, 2);
    s.getState().keys.remove(1, [2]);
    expect(s.getState().keys.move(1, [2], 1)).toEqual([]);
    s.getState().trace.toggle(1);
    s.getState().motionFlags.setWaistJoint(0);
    s.getState().tolerancesActions.setOverride(0, 2);
    s.getState().locks.clearRange(0, 0, 1);
    expect(s.getState().locks.setRange(0, 0, 1)).toEqual({ ok: false, message: 'No editable motion is open.' });
    s.getState().history.begin('x');
    expect(s.getState().transaction).toBeNull();
    s.getState().history.undo();
    expect(s.getState().motion).toBeNull();
    expect(s.getState().editId).toBe(e + 1);
  });

  it('a document closed after an import is not dirty, and the next one loaded is not either', () => {
    const s = createDocumentStore();
    s.getState().load({
      documentId: 'i',
      kind: 'mtn',
      readOnly: false,
      name: 'imp',
      path: null,
      motion: emptyMotion(20, JOINTS),
      unsaved: true,
    });
    s.getState().close();
    expect(s.getState().dirty).toBe(false);
  });
});

describe('document store: keys', () => {
  it('labels each key edit by what it did', () => {
    const s = sample();
    s.getState().keys.toggle(1, 5);
    s.getState().keys.toggle(-1, 5);
    s.getState().keys.set(2, 6, true);
    s.getState().keys.set(2, 6, false);
    s.getState().keys.move(1, [5], 1);
    s.getState().keys.remove(1, [6]);
    s.getState().keys.toggle(-1, 5);
    // A toggle says which way it went and where: "Undo Toggle key" left the user guessing.
    expect(labels(s)).toEqual([
      'Add user key (footL, frame 5)',
      'Add user key (root translation, frame 5)',
      'Add user key (footR, frame 6)',
      'Remove user key (footR, frame 6)',
      'Move key (footL, frame 5 → 6)',
      'Delete key (footL, frame 6)',
      'Remove user key (root translation, frame 5)',
    ]);
  });

  it('set is idempotent, toggle flips, and both keep the other bits of the word', () => {
    const s = sample();
    s.getState().locks.setRange(1, 4, 4);
    s.getState().trace.toggle(4);
    s.getState().keys.set(1, 4, true);
    s.getState().keys.set(1, 4, true);
    s.getState().keys.set(-1, 4, true);
    s.getState().keys.set(-1, 4, true);
    expect(s.getState().past).toHaveLength(4);
    expect(jointFlagsAt(s.getState().motion!, 4, 1)).toBe(KeyFlag.KEY | KeyFlag.LOCK);
    expect(translationFlagsAt(s.getState().motion!, 4)).toBe(KeyFlag.KEY | KeyFlag.TRACE);
    s.getState().keys.toggle(1, 4);
    s.getState().keys.toggle(-1, 4);
    expect(jointFlagsAt(s.getState().motion!, 4, 1)).toBe(KeyFlag.LOCK);
    expect(translationFlagsAt(s.getState().motion!, 4)).toBe(KeyFlag.TRACE);
    s.getState().keys.set(1, 4, false);
    s.getState().keys.set(-1, 4, false);
    expect(s.getState().past).toHaveLength(6);
    // other joints and frames are untouched
    expect(jointFlagsAt(s.getState().motion!, 4, 0)).toBe(0);
    expect(jointFlagsAt(s.getState().motion!, 4, 2)).toBe(0);
    expect(jointFlagsAt(s.getState().motion!, 5, 1)).toBe(0);
  });

  it('ignores keys outside the motion: frames past N, negative or fractional frames, unknown joints', () => {
    const s = sample();
    for (const [j, f] of [
      [0, 21],
      [0, -1],
      [0, 2.5],
      [3, 2],
      [-2, 2],
      [-1, 21],
    ])
      s.getState().keys.toggle(j, f);
    expect(s.getState().past).toHaveLength(0);
    s.getState().keys.toggle(2, 20); // the last frame N itself is a frame
    s.getState().keys.toggle(0, 0);
    s.getState().keys.toggle(-1, 20);
    expect(jointFlagsAt(s.getState().motion!, 20, 2)).toBe(KeyFlag.KEY);
    expect(jointFlagsAt(s.getState().motion!, 0, 0)).toBe(KeyFlag.KEY);
    expect(translationFlagsAt(s.getState().motion!, 20)).toBe(KeyFlag.KEY);
  });

  it('move does nothing without frames, without keys of that joint, with a zero delta, or on a read-only document', () => {
    const s = sample();
    s.getState().keys.toggle(1, 5);
    s.getState().keys.toggle(2, 9);
    const steps = s.getState().past.length;
    expect(s.getState().keys.move(1, [], 3)).toEqual([]);
    expect(s.getState().keys.move(1, [9], 3)).toEqual([]); // joint 2's key, not joint 1's
    expect(s.getState().keys.move(1, [30], 3)).toEqual([]);
    expect(s.getState().keys.move(1, [5], 0.4)).toEqual([]); // rounds to 0
    expect(s.getState().keys.move(3, [5], 1)).toEqual([]);
    expect(s.getState().past).toHaveLength(steps);
    // rounds the delta, and clamps a move below frame 0
    expect(s.getState().keys.move(1, [5], 1.6)).toEqual([7]);
    expect(s.getState().keys.move(1, [7], -30)).toEqual([0]);
    // a key landing on another merges with it
    s.getState().keys.toggle(1, 3);
    expect(s.getState().keys.move(1, [0, 3], 3)).toEqual([3, 6]);
    expect(
      Array.from({ length: 21 }, (_, f) => f).filter((f) => jointFlagsAt(s.getState().motion!, f, 1) & KeyFlag.KEY),
    ).toEqual([3, 6]);
    const ro = createDocumentStore();
    const m = emptyMotion(4, JOINTS);
    m.jointKeyInfo[(1 * 3 + 1) * 4] = KeyFlag.KEY;
    ro.getState().load({ documentId: 'r', kind: 'mt3', readOnly: true, name: 'a', path: 'a.mt3', motion: m });
    expect(ro.getState().keys.move(1, [1], 1)).toEqual([]);
    ro.getState().keys.remove(1, [1]);
    expect(jointFlagsAt(ro.getState().motion!, 1, 1)).toBe(KeyFlag.KEY);
  });

  it('remove with no frames is no step; removing keys that are not there is no step', () => {
    const s = sample();
    s.getState().keys.remove(1, []);
    s.getState().keys.remove(1, [4, 5]);
    expect(s.getState().past).toHaveLength(0);
  });
});

describe('document store: locks, trace and flags', () => {
  it('a refused lock offers to move the lock: one undo step that takes it off the other joint', () => {
    const s = sample();
    s.getState().locks.setRange(0, 2, 6);
    const refused = s.getState().locks.setRange(1, 5, 9);
    expect(refused.ok).toBe(false);
    if (refused.ok || !refused.fix) throw new Error('no fix offered');
    refused.fix.run();
    const m = s.getState().motion!;
    expect(Array.from({ length: 11 }, (_, f) => lockedJointAt(m, f))).toEqual([-1, -1, 0, 0, 0, 1, 1, 1, 1, 1, -1]);
    expect(labels(s).at(-1)).toBe(`Move lock to ${m.joints[1].name} (frames 5–9)`);
    s.getState().history.undo();
    expect(Array.from({ length: 11 }, (_, f) => lockedJointAt(s.getState().motion!, f))).toEqual([
      -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1,
    ]);
  });

  it('a refused lock’s fix does nothing once another document is open (its file reopened, changes discarded)', () => {
    const s = sample();
    s.getState().locks.setRange(0, 2, 6);
    const refused = s.getState().locks.setRange(1, 5, 9);
    if (refused.ok || !refused.fix) throw new Error('no fix offered');
    const joints = s.getState().motion!.joints;
    s.getState().load({
      documentId: 'd2',
      kind: 'mtn',
      readOnly: false,
      name: 'walk',
      path: 'walk.mtn',
      motion: emptyMotion(20, joints),
    });
    refused.fix.run();
    expect(Array.from({ length: 21 }, (_, f) => lockedJointAt(s.getState().motion!, f)).every((j) => j === -1)).toBe(
      true,
    );
    expect(s.getState().past).toHaveLength(0);
  });

  it('refuses a lock on the root or an unknown joint, and labels lock steps by their range', () => {
    const s = sample();
    const msg = 'Select a joint to lock (the root translation cannot be locked).';
    expect(s.getState().locks.setRange(-1, 0, 2)).toEqual({ ok: false, message: msg });
    expect(s.getState().locks.setRange(3, 0, 2)).toEqual({ ok: false, message: msg });
    expect(s.getState().locks.setRange(0, 3, 3)).toEqual({ ok: true });
    const refused = s.getState().locks.setRange(2, -5, 40);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.message).toMatch(
      /^Lock refused: frame 3 is already locked by joint 0 "hips"\. A frame pins one joint: the game moves the root to hold it still\./,
    );
    expect(refused.fix?.label).toBe(`Move lock to ${s.getState().motion!.joints[2].name}`);
    s.getState().locks.clearRange(0, 3, 3);
    // clamped to 0..N and rounded
    expect(s.getState().locks.setRange(2, 40, -5.2)).toEqual({ ok: true });
    expect(labels(s)).toEqual(['Lock hips, frame 3', 'Unlock hips, frame 3', 'Lock footR, frames 0–20']);
    for (let f = 0; f <= 20; f++) expect(lockedJointAt(s.getState().motion!, f)).toBe(2);
    expect(s.getState().locks.setRange(1, 2.4, 2.4).ok).toBe(false);
  });

  it('a lock keeps the key bits; clearing unlocks only that joint and range, and ignores bad joints', () => {
    const s = sample();
    s.getState().keys.toggle(1, 5);
    s.getState().locks.setRange(1, 4, 8);
    expect(jointFlagsAt(s.getState().motion!, 5, 1)).toBe(KeyFlag.KEY | KeyFlag.LOCK);
    const steps = s.getState().past.length;
    s.getState().locks.clearRange(-1, 0, 20);
    s.getState().locks.clearRange(3, 0, 20);
    expect(s.getState().past).toHaveLength(steps);
    s.getState().locks.clearRange(1, 7, 5);
    expect([4, 5, 6, 7, 8].map((f) => lockedJointAt(s.getState().motion!, f))).toEqual([1, -1, -1, -1, 1]);
    expect(jointFlagsAt(s.getState().motion!, 5, 1)).toBe(KeyFlag.KEY);
    expect(labels(s).at(-1)).toBe('Unlock footL, frames 5–7');
  });

  it('trace toggles only the TRACE bit of frames inside the motion', () => {
    const s = sample();
    s.getState().keys.toggle(-1, 6);
    s.getState().trace.toggle(6);
    expect(translationFlagsAt(s.getState().motion!, 6)).toBe(KeyFlag.KEY | KeyFlag.TRACE);
    s.getState().trace.toggle(6);
    expect(translationFlagsAt(s.getState().motion!, 6)).toBe(KeyFlag.KEY);
    s.getState().trace.toggle(21);
    s.getState().trace.toggle(-1);
    // The first and last frames keep their trace key whatever the flag: the step names the flag, not a key.
    const last = s.getState().motion!.frameCount;
    s.getState().trace.toggle(0);
    s.getState().trace.toggle(last);
    s.getState().trace.toggle(last);
    expect(labels(s)).toEqual([
      'Add user key (root translation, frame 6)',
      'Add trace key (frame 6)',
      'Remove trace key (frame 6)',
      'Set trace flag (frame 0, a fixed trace key)',
      `Set trace flag (frame ${last}, a fixed trace key)`,
      `Clear trace flag (frame ${last}, a fixed trace key)`,
    ]);
  });

  it('motion flags set and clear bits; the waist joint takes -1..J-1 only', () => {
    const s = sample();
    s.getState().motionFlags.set(MotionFlag.OFFSETS | MotionFlag.DIRECTION, true);
    s.getState().motionFlags.set(MotionFlag.OFFSETS, false);
    expect(s.getState().motion!.flags).toBe(MotionFlag.DIRECTION);
    s.getState().motionFlags.setWaistJoint(2);
    s.getState().motionFlags.setWaistJoint(3);
    s.getState().motionFlags.setWaistJoint(-2);
    expect(s.getState().motion!.waistJoint).toBe(2);
    s.getState().motionFlags.setWaistJoint(-1);
    expect(s.getState().motion!.waistJoint).toBe(-1);
    // Each names what it changed, as the tuning panel names it: "Undo Change motion flags" left the user guessing.
    expect(labels(s)).toEqual([
      'Turn on Animated offsets, Direction correction',
      'Turn off Animated offsets',
      'Set waist joint to footR',
      'Set waist joint to none',
    ]);
    s.getState().motionFlags.set(MotionFlag.MIRROR_UPPER | MotionFlag.MIRROR_LOWER | 0x40, true);
    expect(labels(s).at(-1)).toBe('Turn on Mirror upper body, Mirror lower body, motion flags 0x40');
  });
});

describe('document store: tolerances', () => {
  it('set keeps only finite positive values, never the method, and a change to the same value is no step', () => {
    const s = sample();
    s.getState().tolerancesActions.set({ positionTolerance: 2, rotationToleranceDeg: -1, offsetTolerance: Number.NaN });
    expect(s.getState().tolerances).toEqual({ positionTolerance: 2, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 });
    s.getState().tolerancesActions.set({ offsetTolerance: 0 });
    s.getState().tolerancesActions.set({ offsetTolerance: Number.POSITIVE_INFINITY });
    s.getState().tolerancesActions.set({ method: 'classic' } as never);
    s.getState().tolerancesActions.set({ positionTolerance: 2 });
    expect(s.getState().past).toHaveLength(1);
    expect(labels(s)).toEqual(['Set position tolerance to 2']);
    for (const k of ['rotationToleranceDeg', 'offsetTolerance', 'objectTolerance', 'shell'] as const)
      s.getState().tolerancesActions.set({ [k]: 7 });
    expect(s.getState().past).toHaveLength(5);
    s.getState().tolerancesActions.set({ positionTolerance: 0.3, offsetTolerance: 0.2 });
    // Each names the value it set: "Undo Change tolerance" did not say which.
    expect(labels(s)).toEqual([
      'Set position tolerance to 2',
      'Set rotation tolerance to 7°',
      'Set offset tolerance to 7',
      'Set object-space bound to 7',
      'Set object-space shell to 7',
      'Set position tolerance, offset tolerance',
    ]);
  });

  it('setMethod switches between the classic rule and the refined compressor (no method), each an undo step', () => {
    const s = sample();
    s.getState().tolerancesActions.setMethod('classic');
    expect(s.getState().tolerances.method).toBe('classic');
    s.getState().tolerancesActions.setMethod('classic');
    s.getState().tolerancesActions.setMethod('refined');
    expect('method' in s.getState().tolerances).toBe(false);
    expect(labels(s)).toEqual(['Use the classic rule', 'Use the refined compressor']);
    s.getState().history.undo();
    expect(s.getState().tolerances.method).toBe('classic');
  });

  it('setSkeleton sets the bound and shell, turns both off, and ignores bad values', () => {
    const s = sample();
    s.getState().tolerancesActions.setSkeleton(2, 5);
    expect(s.getState().tolerances).toMatchObject({ objectTolerance: 2, shell: 5 });
    s.getState().tolerancesActions.setSkeleton(3, null);
    expect(s.getState().tolerances.objectTolerance).toBe(3);
    expect('shell' in s.getState().tolerances).toBe(false);
    for (const [o, sh] of [
      [0, null],
      [-1, null],
      [Number.NaN, null],
      [Number.POSITIVE_INFINITY, null],
      [2, 0],
      [2, -3],
      [2, Number.NaN],
      [null, 0],
    ] as const)
      s.getState().tolerancesActions.setSkeleton(o, sh);
    expect(s.getState().tolerances.objectTolerance).toBe(3);
    s.getState().tolerancesActions.setSkeleton(null, 4); // off: the shell goes too
    expect('objectTolerance' in s.getState().tolerances).toBe(false);
    expect('shell' in s.getState().tolerances).toBe(false);
    expect(labels(s)).toEqual([
      'Set the object-space bound to 2 u, shell 5',
      'Set the object-space bound to 3 u',
      'Turn off the object-space bound',
    ]);
    expect(s.getState().dirty).toBe(false);
  });

  it('setOverride takes a positive finite degree for a joint of the motion; the same value again is no step', () => {
    const s = sample();
    for (const [j, d] of [
      [-1, 2],
      [3, 2],
      [0, 0],
      [0, -2],
      [0, Number.NaN],
      [0, Number.POSITIVE_INFINITY],
    ] as const)
      s.getState().tolerancesActions.setOverride(j, d);
    expect(s.getState().rotationOverridesDeg).toEqual({});
    s.getState().tolerancesActions.setOverride(0, 2);
    s.getState().tolerancesActions.setOverride(2, 4);
    s.getState().tolerancesActions.setOverride(2, 4);
    expect(s.getState().rotationOverridesDeg).toEqual({ 0: 2, 2: 4 });
    s.getState().tolerancesActions.setOverride(2, 5);
    s.getState().tolerancesActions.setOverride(0, null);
    expect(s.getState().rotationOverridesDeg).toEqual({ 2: 5 });
    expect(labels(s)).toEqual([
      'Set rotation override (hips) to 2°',
      'Set rotation override (footR) to 4°',
      'Set rotation override (footR) to 5°',
      'Remove rotation override (hips)',
    ]);
    s.getState().history.undo();
    expect(s.getState().rotationOverridesDeg).toEqual({ 0: 2, 2: 5 });
    // the same number of overrides on other joints is a change
    s.getState().history.begin('swap');
    s.getState().tolerancesActions.setOverride(0, null);
    s.getState().tolerancesActions.setOverride(1, 2);
    s.getState().history.commit();
    expect(labels(s).at(-1)).toBe('swap');
  });
});

describe('document store: history', () => {
  it('undo and redo move one step between the stacks under its label, and bump editId', () => {
    const s = sample();
    s.getState().keys.toggle(1, 1);
    s.getState().trace.toggle(2);
    s.getState().history.undo();
    expect(undoLabel(s.getState())).toBe('Add user key (footL, frame 1)');
    expect(redoLabel(s.getState())).toBe('Add trace key (frame 2)');
    const e = s.getState().editId;
    s.getState().history.undo();
    expect(s.getState().editId).toBe(e + 1);
    expect(undoLabel(s.getState())).toBeNull();
    expect(s.getState().future.map((f) => f.label)).toEqual([
      'Add trace key (frame 2)',
      'Add user key (footL, frame 1)',
    ]);
    s.getState().history.undo(); // nothing left
    expect(s.getState().editId).toBe(e + 1);
    s.getState().history.redo();
    expect(labels(s)).toEqual(['Add user key (footL, frame 1)']);
    expect(redoLabel(s.getState())).toBe('Add trace key (frame 2)');
    s.getState().history.redo();
    s.getState().history.redo(); // nothing left
    expect(redoLabel(s.getState())).toBeNull();
    expect(translationFlagsAt(s.getState().motion!, 2)).toBe(KeyFlag.TRACE);
  });

  it('undo and redo wait while a drag is open; edits in a drag show at once but make no step until commit', () => {
    const s = sample();
    s.getState().keys.toggle(1, 1);
    s.getState().history.undo();
    s.getState().keys.toggle(1, 2);
    s.getState().history.begin('Drag');
    expect(s.getState().transaction!.label).toBe('Drag');
    s.getState().keys.toggle(1, 3);
    expect(jointFlagsAt(s.getState().motion!, 3, 1)).toBe(KeyFlag.KEY);
    expect(s.getState().dirty).toBe(true);
    expect(labels(s)).toEqual(['Add user key (footL, frame 2)']);
    s.getState().history.undo();
    expect(jointFlagsAt(s.getState().motion!, 2, 1)).toBe(KeyFlag.KEY);
    expect(labels(s)).toEqual(['Add user key (footL, frame 2)']);
    s.getState().history.redo();
    expect(jointFlagsAt(s.getState().motion!, 3, 1)).toBe(KeyFlag.KEY);
    expect(jointFlagsAt(s.getState().motion!, 2, 1)).toBe(KeyFlag.KEY);
    expect(s.getState().future).toEqual([]);
    s.getState().history.commit();
    expect(labels(s)).toEqual(['Add user key (footL, frame 2)', 'Drag']);
    expect(s.getState().transaction).toBeNull();
    s.getState().history.commit(); // no drag: nothing
    s.getState().history.cancel();
    expect(labels(s)).toEqual(['Add user key (footL, frame 2)', 'Drag']);
    expect(jointFlagsAt(s.getState().motion!, 3, 1)).toBe(KeyFlag.KEY);
  });

  it('a committed drag clears the redo side; beginning a drag inside one commits the first', () => {
    const s = sample();
    s.getState().keys.toggle(1, 1);
    s.getState().history.undo();
    s.getState().history.begin('First');
    s.getState().keys.toggle(1, 3);
    s.getState().history.begin('Second');
    expect(labels(s)).toEqual(['First']);
    expect(s.getState().future).toEqual([]);
    s.getState().keys.toggle(1, 4);
    s.getState().history.cancel();
    expect(jointFlagsAt(s.getState().motion!, 4, 1)).toBe(0);
    expect(jointFlagsAt(s.getState().motion!, 3, 1)).toBe(KeyFlag.KEY);
    s.getState().history.undo();
    expect(jointFlagsAt(s.getState().motion!, 3, 1)).toBe(0);
  });

  it('a read-only document opens no drag', () => {
    const s = createDocumentStore();
    s.getState().load({
      documentId: 'r',
      kind: 'mar',
      readOnly: true,
      name: 'a:b',
      path: 'a.mar',
      motion: emptyMotion(4, JOINTS),
    });
    s.getState().history.begin('x');
    expect(s.getState().transaction).toBeNull();
    s.getState().tolerancesActions.set({ positionTolerance: 3 });
    expect(s.getState().past).toHaveLength(0);
  });

  it('sameFileContent compares flags, waist joint and every key-info word', () => {
    const base = {
      flags: 1,
      waistJoint: 0,
      translationKeyInfo: new Uint32Array([0, 1]),
      jointKeyInfo: new Uint32Array([2, 0]),
      tolerances: { ...DEFAULT_TOLERANCES },
      rotationOverridesDeg: {},
    };
    expect(
      sameFileContent(base, {
        ...base,
        translationKeyInfo: new Uint32Array([0, 1]),
        jointKeyInfo: new Uint32Array([2, 0]),
      }),
    ).toBe(true);
    expect(sameFileContent(base, { ...base, flags: 3 })).toBe(false);
    expect(sameFileContent(base, { ...base, waistJoint: 1 })).toBe(false);
    expect(sameFileContent(base, { ...base, translationKeyInfo: new Uint32Array([0, 2]) })).toBe(false);
    expect(sameFileContent(base, { ...base, jointKeyInfo: new Uint32Array([2, 0, 0]) })).toBe(false);
    expect(sameFileContent(base, { ...base, jointKeyInfo: new Uint32Array([3, 0]) })).toBe(false);
    expect(sameFileContent(base, { ...base, tolerances: { ...DEFAULT_TOLERANCES, positionTolerance: 9 } })).toBe(true);
  });
});

describe('document store: channels and clamps', () => {
  it('moves keys of joint 0 as joint keys (not root keys), and finds no root key where there is none', () => {
    const s = sample();
    s.getState().keys.toggle(0, 5);
    expect(s.getState().keys.move(0, [5], 2)).toEqual([7]);
    expect(jointFlagsAt(s.getState().motion!, 7, 0)).toBe(KeyFlag.KEY);
    expect(s.getState().keys.move(-1, [4], 1)).toEqual([]);
    expect(s.getState().keys.move(-1, [7], 1)).toEqual([]);
  });

  it('a joint past the skeleton has no keys to move, even where the next frame holds a key of joint 0', () => {
    const s = sample();
    s.getState().keys.toggle(0, 6);
    expect(s.getState().keys.move(3, [5], 1)).toEqual([]);
    expect(jointFlagsAt(s.getState().motion!, 6, 0)).toBe(KeyFlag.KEY);
  });

  it('a move to the left stops where the leftmost key reaches frame 0', () => {
    const s = sample();
    s.getState().keys.toggle(1, 3);
    s.getState().keys.toggle(1, 8);
    expect(s.getState().keys.move(1, [3, 8], -10)).toEqual([0, 5]);
  });

  it('clearing the locks of the root or of a joint past the skeleton touches no other joint', () => {
    const s = sample();
    s.getState().locks.setRange(2, 4, 4);
    s.getState().locks.clearRange(-1, 0, 20);
    expect(lockedJointAt(s.getState().motion!, 4)).toBe(2);
    s.getState().locks.clearRange(2, 0, 20);
    s.getState().locks.setRange(0, 6, 6);
    s.getState().locks.clearRange(3, 0, 20);
    expect(lockedJointAt(s.getState().motion!, 6)).toBe(0);
  });

  it('changing the method or the object-space bound keeps the other tolerances', () => {
    const s = sample();
    s.getState().tolerancesActions.set({ positionTolerance: 2, rotationToleranceDeg: 3, offsetTolerance: 4 });
    s.getState().tolerancesActions.setMethod('classic');
    expect(s.getState().tolerances).toEqual({
      positionTolerance: 2,
      rotationToleranceDeg: 3,
      offsetTolerance: 4,
      method: 'classic',
    });
    s.getState().tolerancesActions.setSkeleton(1, 2);
    expect(s.getState().tolerances).toEqual({
      positionTolerance: 2,
      rotationToleranceDeg: 3,
      offsetTolerance: 4,
      method: 'classic',
      objectTolerance: 1,
      shell: 2,
    });
  });
});

describe('document store: an edit of key words reads the words it writes, not all of them (renderer review, round 12)', () => {
  it('300 key, lock and trace edits, undos and redos read no key words whole after the first edit; each step as it was', () => {
    const J = 31;
    const N = 200;
    const joints = Array.from({ length: J }, (_, j) => ({
      parent: j - 1,
      mirror: j,
      part: 0,
      reserved: 0,
      name: `j${j}`,
    }));
    const m = emptyMotion(N, joints);
    for (let f = 0; f <= N; f += 3) m.jointKeyInfo[(f * J + (f % J)) * 4] |= KeyFlag.KEY;
    for (let f = 0; f <= N; f += 17) m.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
    const s = createDocumentStore();
    s.getState().load({ documentId: 'd', kind: 'mtn', readOnly: false, name: 'w', path: 'w.mtn', motion: m });
    // The words as one string of their non-zero entries (toEqual of 25,000-word arrays at each of 600 steps is slow).
    const text = (a: Uint32Array) => {
      const out: string[] = [];
      for (let i = 0; i < a.length; i++) if (a[i]) out.push(`${i}:${a[i]}`);
      return out.join(' ');
    };
    const words = () => `${text(s.getState().motion!.translationKeyInfo)} | ${text(s.getState().motion!.jointKeyInfo)}`;
    const steps = [words()];
    // The first edit reads the words the document opened with, once (they have no other source).
    s.getState().keys.toggle(0, 1);
    steps.push(words());
    const read = keyWordsRead();
    expect(read).toBeGreaterThanOrEqual((N + 1) * 4 * (J + 1));
    let seed = 7;
    // The high bits of a linear congruential generator (its low bits repeat every few draws).
    const rnd = (n: number) => Math.floor((seed = (seed * 1103515245 + 12345) % 2147483648) / 65536) % n;
    for (let i = 0; i < 300; i++) {
      const before = s.getState().past.length;
      const k = rnd(8);
      const joint = rnd(J + 1) - 1;
      const f = rnd(N + 1);
      if (k === 0) s.getState().keys.toggle(joint, f);
      else if (k === 1) s.getState().keys.set(joint, f, rnd(2) === 0);
      else if (k === 2) s.getState().keys.move(joint, [f, rnd(N + 1)], rnd(9) - 4);
      else if (k === 3) s.getState().keys.remove(joint, [f, (f + 3) % (N + 1)]);
      else if (k === 4) s.getState().locks.setRange(Math.max(0, joint), f, f + rnd(5));
      else if (k === 5) s.getState().locks.moveRange(Math.max(0, joint), f, f + rnd(5));
      else if (k === 6) s.getState().locks.clearRange(Math.max(0, joint), f - rnd(5), f);
      else s.getState().trace.toggle(f);
      if (s.getState().past.length !== before) steps.push(words());
    }
    expect(steps.length).toBeGreaterThan(150);
    const last = steps.length - 1;
    // Each undo finds its step's words; the document is dirty until the first undone to the file.
    for (let i = last - 1; i >= 0; i--) {
      s.getState().history.undo();
      expect(words(), `undo to step ${i}`).toBe(steps[i]);
      expect(s.getState().dirty).toBe(i !== 0);
    }
    for (let i = 1; i <= last; i++) {
      s.getState().history.redo();
      expect(words(), `redo to step ${i}`).toBe(steps[i]);
    }
    // A key set and cleared again: the same words as before it, so the same file (compared by their non-zero words).
    s.getState().keys.set(5, 100, !(s.getState().motion!.jointKeyInfo[(100 * J + 5) * 4] & KeyFlag.KEY));
    s.getState().history.undo();
    expect(words()).toBe(steps[last]);
    expect(keyWordsRead()).toBe(read);
  });

  it('a key set where one is already records no step and keeps the words', () => {
    const s = sample();
    s.getState().keys.set(1, 4, true);
    const w = s.getState().motion!.jointKeyInfo;
    const before = keyWordsRead();
    s.getState().keys.set(1, 4, true);
    expect(s.getState().motion!.jointKeyInfo).toBe(w);
    expect(s.getState().past).toHaveLength(1);
    expect(keyWordsRead()).toBe(before);
  });
});
