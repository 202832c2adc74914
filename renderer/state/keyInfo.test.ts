import { describe, it, expect } from 'vitest';
import { createDocumentStore } from './documentStore';
import { keyInfoWalks, lockAt, lockRangesOf, locksInView, traceFramesOf } from './keyInfo';
import { emptyMotion } from '../../shared/motion/types';

/** A document store holding a motion of three joints and `frames` frames, no key info set. */
function storeWithMotion(frames: number) {
  const joints = ['a', 'b', 'c'].map((name, i) => ({ parent: i - 1, mirror: i, part: 0, reserved: 0, name }));
  const s = createDocumentStore();
  s.getState().load({
    documentId: 'd',
    kind: 'mtn',
    readOnly: false,
    name: 'm',
    path: 'm.mtn',
    motion: emptyMotion(frames, joints),
  });
  return s;
}

describe('key info views', () => {
  it('lists lock ranges per joint run and trace frames as edited', () => {
    const s = storeWithMotion(30);
    s.getState().locks.setRange(1, 3, 6);
    s.getState().locks.setRange(2, 7, 9);
    s.getState().locks.setRange(1, 20, 20);
    s.getState().trace.toggle(12);
    s.getState().trace.toggle(4);
    const m = s.getState().motion!;
    expect(lockRangesOf(m)).toEqual([
      { joint: 1, first: 3, last: 6 },
      { joint: 2, first: 7, last: 9 },
      { joint: 1, first: 20, last: 20 },
    ]);
    expect(traceFramesOf(m)).toEqual([4, 12]);
  });
});

describe('the lock ranges and trace keys of a motion', () => {
  it('are read once for each array of key words, anew after an edit, and found in view by binary search', () => {
    const s = storeWithMotion(200);
    for (let f = 10; f < 190; f += 20) s.getState().locks.setRange(1 + ((f / 10) % 2), f, f + 4);
    s.getState().trace.toggle(50);
    const m = s.getState().motion!;
    const walks = keyInfoWalks();
    const ranges = lockRangesOf(m);
    expect(lockRangesOf(m)).toBe(ranges);
    expect(traceFramesOf(m)).toBe(traceFramesOf(m));
    expect(keyInfoWalks() - walks).toBe(2);
    expect(Object.isFrozen(ranges) && Object.isFrozen(ranges[0])).toBe(true);
    for (let lo = -2; lo < 205; lo += 3)
      for (const span of [0, 1, 5, 17, 300]) {
        const [a, b] = locksInView(ranges, lo, lo + span);
        const want = ranges.filter((r) => r.last >= lo && r.first <= lo + span);
        expect(ranges.slice(a, b)).toEqual(want);
      }
    expect(lockAt(m, 12)).toEqual({ joint: 2, first: 10, last: 14 });
    expect(lockAt(m, 15)).toBeUndefined();
    // An edit: new words, read anew; the old motion's locks stay its own.
    s.getState().locks.clearRange(2, 10, 14);
    s.getState().trace.toggle(70);
    const edited = s.getState().motion!;
    expect(lockAt(edited, 12)).toBeUndefined();
    expect(traceFramesOf(edited)).toContain(70);
    expect(lockAt(m, 12)?.joint).toBe(2);
    expect(traceFramesOf(m)).not.toContain(70);
  });
});
