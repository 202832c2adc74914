import { describe, it, expect } from 'vitest';
import { createDocumentStore, HISTORY_LIMIT } from './documentStore';
import { emptyMotion, KeyFlag, MotionFlag, jointFlagsAt, translationFlagsAt, lockedJointAt } from '../../shared/motion/types';

function sample() {
  const joints = [
    { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
    { parent: 0, mirror: 2, part: 0, reserved: 0, name: 'footL' },
    { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'footR' },
  ];
  const store = createDocumentStore();
  store.getState().load({ documentId: 'd1', kind: 'mtn', readOnly: false, name: 'walk', path: 'walk.mtn', motion: emptyMotion(20, joints) });
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
    const keysOf = (j: number) => Array.from({ length: 21 }, (_, f) => f).filter((f) => jointFlagsAt(s.getState().motion!, f, j) & KeyFlag.KEY);
    const steps = s.getState().past.length;
    // Frame 7 holds no key of joint 1: it is ignored. 8 + 20 is past N = 20: the delta is clamped to 12.
    expect(s.getState().keys.move(1, [5, 7, 8], 20)).toEqual([17, 20]);
    expect(keysOf(1)).toEqual([17, 20]);
    expect(keysOf(2)).toEqual([8]);
    expect(s.getState().past).toHaveLength(steps + 1);
    expect(s.getState().past.at(-1)!.label).toBe('Move 2 keys');
    s.getState().history.undo();
    expect(keysOf(1)).toEqual([5, 8]);
    expect(s.getState().keys.move(1, [5], -9)).toEqual([0]);
    s.getState().keys.remove(1, [0, 8]);
    expect(keysOf(1)).toEqual([]);
    expect(s.getState().past.at(-1)!.label).toBe('Delete 2 keys');
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

  it('tolerance changes are undoable but do not make the file dirty', () => {
    const s = sample();
    s.getState().tolerancesActions.set({ rotationToleranceDeg: 2 });
    expect(s.getState().tolerances.rotationToleranceDeg).toBe(2);
    expect(s.getState().dirty).toBe(false);
    s.getState().history.undo();
    expect(s.getState().tolerances.rotationToleranceDeg).not.toBe(2);
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

  it('an empty or cancelled transaction leaves no step', () => {
    const s = sample();
    s.getState().history.begin('nothing');
    s.getState().history.commit();
    expect(s.getState().past).toHaveLength(0);
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
    const entry = s.getState().past[0].state as unknown as { jointKeyInfo: { index: Uint32Array } };
    expect(entry.jointKeyInfo.index.length).toBeLessThan(10);
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
