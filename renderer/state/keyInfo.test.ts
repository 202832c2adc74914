import { describe, it, expect } from 'vitest';
import { createDocumentStore } from './documentStore';
import {
  keyInfoWalks,
  lockAt,
  lockFramesEdited,
  lockRangesOf,
  locksInView,
  traceFramesOf,
  userKeyListCopies,
  userKeyWalks,
  userKeysOf,
} from './keyInfo';
import { KeyFlag, emptyMotion, type Motion } from '../../shared/motion/types';

/** A document store holding a motion of `names.length` joints (a chain) and `frames` frames, no key info set. */
function storeWithMotion(frames: number, names: readonly string[] = ['a', 'b', 'c']) {
  const joints = names.map((name, i) => ({ parent: i - 1, mirror: i, part: 0, reserved: 0, name }));
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

describe('an edit of user keys or of one trace key', () => {
  /** The lists a walk of copies of the words reads: what the cached lists must equal. */
  const walked = (m: Motion) => {
    const copy = { ...m, jointKeyInfo: m.jointKeyInfo.slice(), translationKeyInfo: m.translationKeyInfo.slice() };
    return { locks: lockRangesOf(copy), trace: traceFramesOf(copy) };
  };
  /** Each joint's user keys (-1: the root translation's) as the cache holds them, and as a walk of copies reads them. */
  const JOINTS = [-1, 0, 1, 2];
  const userKeys = (m: Motion) => JOINTS.map((j) => userKeysOf(m, j));
  const userKeysWalked = (m: Motion) =>
    userKeys({ ...m, jointKeyInfo: m.jointKeyInfo.slice(), translationKeyInfo: m.translationKeyInfo.slice() });

  it("reads no user key again at a lock or trace edit, and only patches the edited joint's at a key edit", () => {
    const s = storeWithMotion(300);
    for (const [j, f] of [
      [-1, 30],
      [0, 12],
      [1, 40],
      [1, 200],
      [2, 299],
    ])
      s.getState().keys.set(j, f, true);
    const before = userKeys(s.getState().motion!);
    const walks = userKeyWalks();
    // Lock and trace edits change no KEY bit: every joint's list carries over, the same object, read from no word.
    s.getState().locks.setRange(1, 10, 20);
    s.getState().locks.moveRange(2, 15, 25);
    s.getState().locks.clearRange(2, 18, 18);
    s.getState().trace.toggle(77);
    s.getState().trace.toggle(0);
    const locked = s.getState().motion!;
    expect(userKeys(locked)).toEqual(before);
    userKeys(locked).forEach((keys, i) => expect(keys).toBe(before[i]));
    expect(userKeyWalks() - walks).toBe(0);
    // A key set, moved and removed: the other joints' lists are the same objects, the joint's patched, frozen.
    // A key moved onto another merges with it; a removal names a frame with no key too.
    s.getState().keys.set(1, 100, true);
    s.getState().keys.move(1, [40], 5);
    s.getState().keys.move(1, [100], 100);
    s.getState().keys.remove(2, [299, 150]);
    s.getState().keys.toggle(-1, 0);
    const keyed = s.getState().motion!;
    const after = userKeys(keyed);
    expect(after).toEqual([[0, 30], [12], [45, 200], []]);
    expect(after).toEqual(userKeysWalked(keyed));
    expect(after[2]).toBe(userKeys(keyed)[2]);
    expect(Object.isFrozen(after[0]) && Object.isFrozen(after[2]) && Object.isFrozen(after[3])).toBe(true);
    expect(after[1]).toBe(before[1]);
    expect(userKeyWalks() - walks).toBe(4);
    // Only the walks of the copies: none of the motion's own words.
    const walksAfter = userKeyWalks();
    s.getState().locks.setRange(0, 50, 60);
    s.getState().keys.set(0, 13, true);
    expect(userKeys(s.getState().motion!)).toEqual([[0, 30], [12, 13], [45, 200], []]);
    expect(userKeyWalks()).toBe(walksAfter);
  });

  it('reads no key word: the locks and trace keys carry over, a toggled trace key is patched in', () => {
    const s = storeWithMotion(300);
    s.getState().locks.setRange(1, 10, 20);
    s.getState().locks.setRange(2, 40, 44);
    s.getState().trace.toggle(100);
    const m0 = s.getState().motion!;
    const locks = lockRangesOf(m0);
    const trace = traceFramesOf(m0);
    const walks = keyInfoWalks();
    // User keys on a joint (in a lock, too) and on the root translation: set, moved, removed. The same lists.
    s.getState().keys.toggle(1, 15);
    s.getState().keys.toggle(-1, 30);
    s.getState().keys.move(1, [15], 3);
    s.getState().keys.remove(-1, [30]);
    const m1 = s.getState().motion!;
    expect(m1.jointKeyInfo).not.toBe(m0.jointKeyInfo);
    expect(m1.translationKeyInfo).not.toBe(m0.translationKeyInfo);
    expect(lockRangesOf(m1)).toBe(locks);
    expect(traceFramesOf(m1)).toBe(trace);
    // Trace keys added and removed (the last frame's flag among them): patched, frozen, in frame order.
    s.getState().trace.toggle(50);
    s.getState().trace.toggle(300);
    s.getState().trace.toggle(100);
    s.getState().trace.toggle(0);
    const m2 = s.getState().motion!;
    expect(traceFramesOf(m2)).toEqual([0, 50, 300]);
    expect(Object.isFrozen(traceFramesOf(m2))).toBe(true);
    expect(traceFramesOf(m1)).toEqual([100]);
    expect(keyInfoWalks() - walks).toBe(0);
    expect(walked(m2)).toEqual({ locks, trace: [0, 50, 300] });
    // A lock edit reads the frames of the runs it touches alone (round 8): no walk.
    const before = keyInfoWalks();
    s.getState().locks.clearRange(1, 10, 20);
    expect(lockRangesOf(s.getState().motion!)).toEqual([{ joint: 2, first: 40, last: 44 }]);
    expect(keyInfoWalks() - before).toBe(0);
  });

  it('patches the lock list at a lock set, moved or cleared, reading no frame outside the runs it touches', () => {
    const s = storeWithMotion(300);
    s.getState().locks.setRange(0, 10, 20);
    s.getState().locks.setRange(1, 21, 30);
    s.getState().locks.setRange(2, 200, 250);
    const m0 = s.getState().motion!;
    const far = lockRangesOf(m0)[2];
    const walks = keyInfoWalks();
    // Joint 0's lock moved onto the start of joint 1's run (which is cut) joins its own, joint 1 locks two more
    // frames further on, a frame in joint 0's lock is cleared: the run of frames 200-250 stays the same object.
    s.getState().locks.moveRange(0, 21, 22);
    s.getState().locks.moveRange(1, 40, 41);
    s.getState().locks.clearRange(0, 15, 15);
    const m1 = s.getState().motion!;
    expect(lockRangesOf(m1)).toEqual([
      { joint: 0, first: 10, last: 14 },
      { joint: 0, first: 16, last: 22 },
      { joint: 1, first: 23, last: 30 },
      { joint: 1, first: 40, last: 41 },
      { joint: 2, first: 200, last: 250 },
    ]);
    expect(lockRangesOf(m1)[4]).toBe(far);
    expect(Object.isFrozen(lockRangesOf(m1))).toBe(true);
    expect(Object.isFrozen(lockRangesOf(m1)[1])).toBe(true);
    expect(keyInfoWalks() - walks).toBe(0);
    // The words read: those of the run the edit touches and the edit's frame, not the motion's (301 frames x 3).
    const m2 = s.getState().motion!;
    const to = m2.jointKeyInfo.slice();
    to[(251 * 3 + 2) * 4] |= KeyFlag.LOCK;
    let read = 0;
    const counted = new Proxy(to, {
      get(t, k) {
        if (typeof k === 'string' && /^\d+$/.test(k)) read++;
        const v = Reflect.get(t, k, t) as unknown;
        return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(t) : v;
      },
    });
    lockFramesEdited(m2.jointKeyInfo, counted, 3, 251, 251);
    expect(read).toBe(52 * 3);
    expect(lockRangesOf({ ...m2, jointKeyInfo: counted })[4]).toEqual({ joint: 2, first: 200, last: 251 });
    expect(keyInfoWalks() - walks).toBe(0);
  });

  it('reads no key word at an undo or a redo: the history hands the words it unpacks their views', () => {
    const s = storeWithMotion(300);
    s.getState().keys.set(1, 40, true);
    s.getState().keys.set(-1, 7, true);
    s.getState().locks.setRange(2, 100, 120);
    s.getState().trace.toggle(50);
    const views = () => {
      const now = s.getState().motion!;
      return { locks: lockRangesOf(now), trace: traceFramesOf(now), user: userKeys(now) };
    };
    const first = s.getState().motion!;
    const before = views();
    s.getState().locks.moveRange(0, 110, 130);
    s.getState().keys.set(2, 200, true);
    s.getState().trace.toggle(60);
    const edited = views();
    const walks = keyInfoWalks();
    const userWalks = userKeyWalks();
    s.getState().history.undo();
    s.getState().history.undo();
    s.getState().history.undo();
    // New arrays (the history's packed words unpacked), with the lists of the words they hold: the same objects.
    expect(s.getState().motion!.jointKeyInfo).not.toBe(first.jointKeyInfo);
    const undone = views();
    expect(undone).toEqual(before);
    expect(undone.locks).toBe(before.locks);
    expect(undone.trace).toBe(before.trace);
    undone.user.forEach((keys, i) => expect(keys).toBe(before.user[i]));
    s.getState().history.redo();
    s.getState().history.redo();
    s.getState().history.redo();
    const redone = views();
    expect(redone.locks).toBe(edited.locks);
    expect(redone.trace).toBe(edited.trace);
    redone.user.forEach((keys, i) => expect(keys).toBe(edited.user[i]));
    expect(keyInfoWalks() - walks).toBe(0);
    expect(userKeyWalks() - userWalks).toBe(0);
    const now = s.getState().motion!;
    expect(redone).toEqual({ ...walked(now), user: userKeysWalked(now) });
  });

  it('reads no key word at an undo for the lists first read after the edit that packed the words', () => {
    // Nothing read before the edits (the timeline hidden, say): the history packs words whose lists no one read yet.
    const s = storeWithMotion(300);
    s.getState().keys.set(1, 40, true);
    s.getState().locks.setRange(2, 100, 120);
    s.getState().trace.toggle(50);
    const unread = s.getState().motion!;
    // A key edit (no lock or trace bit changed), a lock edit (no key bit) and a trace toggle (no key or lock bit).
    s.getState().keys.set(0, 12, true);
    s.getState().locks.setRange(0, 200, 210);
    s.getState().trace.toggle(60);
    // The first paint after them reads the lists of the words shown.
    const shown = s.getState().motion!;
    const read = { locks: lockRangesOf(shown), trace: traceFramesOf(shown), user: userKeys(shown) };
    const walks = keyInfoWalks();
    const userWalks = userKeyWalks();
    // Undo the trace toggle: the joint words as they were (the same words, unpacked): their locks and user keys are
    // the ones just read; the trace list is another (it changed).
    s.getState().history.undo();
    const m1 = s.getState().motion!;
    expect(lockRangesOf(m1)).toBe(read.locks);
    userKeys(m1)
      .slice(1)
      .forEach((keys, i) => expect(keys).toBe(read.user[i + 1]));
    // Undo the lock edit: the translation words as they were; the root's user keys and the trace list are those read.
    s.getState().history.undo();
    const m2 = s.getState().motion!;
    expect(userKeysOf(m2, -1)).toBe(read.user[0]);
    const trace2 = traceFramesOf(m2);
    // Undo the key edit: its locks and trace keys are the ones read for the lock edit's words and the trace toggle's.
    s.getState().history.undo();
    const m3 = s.getState().motion!;
    expect(traceFramesOf(m3)).toBe(trace2);
    // What was read after the edits for words no edit changed: none read again; what an edit changed read once (the
    // trace list at the toggle's undo; below, joint 0's user keys at the key edit's).
    expect(keyInfoWalks() - walks).toBe(1);
    expect(userKeysOf(m3, 0)).toEqual([]);
    expect(userKeyWalks() - userWalks).toBe(1);
    const copy = (m: Motion) => ({
      ...m,
      jointKeyInfo: m.jointKeyInfo.slice(),
      translationKeyInfo: m.translationKeyInfo.slice(),
    });
    // The locks of the lock edit's undo, read now, are those of the key edit's undo (a key edit changes no lock).
    const m2Locks = lockRangesOf(m2);
    const walksNow = keyInfoWalks();
    expect(lockRangesOf(m3)).toBe(m2Locks);
    expect(keyInfoWalks()).toBe(walksNow);
    for (const m of [m1, m2, m3]) {
      expect(lockRangesOf(m)).toEqual(lockRangesOf(copy(m)));
      expect(traceFramesOf(m)).toEqual(traceFramesOf(copy(m)));
      expect(userKeys(m)).toEqual(userKeysWalked(m));
    }
    expect(userKeys(m3)).toEqual(userKeys(unread));
  });

  it('keeps the lock list a walk reads through 300 random lock sets, moves, clears, undos and redos', () => {
    const s = storeWithMotion(80);
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      lockRangesOf(s.getState().motion!);
      const what = rand(5);
      const first = rand(81);
      const last = Math.min(80, first + rand(12));
      if (what === 0) s.getState().locks.setRange(rand(3), first, last);
      else if (what === 1) s.getState().locks.moveRange(rand(3), first, last);
      else if (what === 2) s.getState().locks.clearRange(rand(3), first, last);
      else if (what === 3) s.getState().history.undo();
      else s.getState().history.redo();
      const now = s.getState().motion!;
      expect(lockRangesOf(now)).toEqual(walked(now).locks);
    }
  });

  it('keeps the lists a walk reads (user keys too) through 200 random key, trace and lock edits, undos and redos', () => {
    const s = storeWithMotion(60);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 200; i++) {
      const m = s.getState().motion!;
      lockRangesOf(m);
      traceFramesOf(m);
      userKeys(m);
      const what = rand(6);
      if (what === 0) s.getState().keys.toggle(rand(4) - 1, rand(61));
      else if (what === 1) s.getState().trace.toggle(rand(61));
      else if (what === 2) s.getState().locks.setRange(rand(3), rand(61), rand(61));
      else if (what === 3) s.getState().history.undo();
      else if (what === 4) s.getState().history.redo();
      else s.getState().keys.move(rand(3), [rand(61)], rand(5) - 2);
      const now = s.getState().motion!;
      expect({ locks: lockRangesOf(now), trace: traceFramesOf(now) }).toEqual(walked(now));
      expect(userKeys(now)).toEqual(userKeysWalked(now));
    }
  });

  /** A document store holding a motion of `J` joints and `frames` frames, a user key on each joint at frame j. */
  function storeOfJoints(J: number, frames: number) {
    const s = storeWithMotion(
      frames,
      Array.from({ length: J }, (_, i) => `j${i}`),
    );
    for (let j = -1; j < J; j++) s.getState().keys.set(j, j + 1, true);
    return s;
  }
  const everyJoint = (m: Motion) => Array.from({ length: m.joints.length + 1 }, (_, i) => userKeysOf(m, i - 1));

  // Renderer review, round 11 (docs/architecture.md): a key edit copied the whole map of the words' user keys, every
  // joint's list read (32 for a motion of 31 joints); the new words' lists now lie over the old ones'.
  it("copies no joint's list at a key edit: the new words' lists lie over the old words'", () => {
    const s = storeOfJoints(31, 400);
    everyJoint(s.getState().motion!); // every list read
    const walks = userKeyWalks();
    // 330 key edits (a set, a clear, a move, a toggle) on joints read, each read after: the edited list patched, the
    // others the old words'. The layers are folded into one every 33 edits (a list copied for each joint): at most
    // one edit in 33 copies lists, 32 at most, where each edit copied the 32.
    const copied: number[] = [];
    const steps: { motion: Motion; lists: (readonly number[])[] }[] = [];
    for (let i = 0; i < 330; i++) {
      const joint = ((i * 7) % 32) - 1;
      const copies = userKeyListCopies();
      if (i % 4 === 0) s.getState().keys.set(joint, 200 + i, true);
      else if (i % 4 === 1) s.getState().keys.remove(joint, [joint + 1]);
      else if (i % 4 === 2) s.getState().keys.move(joint, [joint + 1], 3);
      else s.getState().keys.toggle(joint, 300 + (i % 50));
      copied.push(userKeyListCopies() - copies);
      const m = s.getState().motion!;
      expect(userKeysOf(m, joint)).toEqual(walkedJoint(m, joint));
      if (i >= 300 && m !== steps[steps.length - 1]?.motion) steps.push({ motion: m, lists: everyJoint(m) });
    }
    // The walks of the copies alone: no list of the motion's own words read again, all 32 found after edit 300.
    expect(userKeyWalks() - walks).toBe(330);
    expect(copied.filter((n) => n > 0).length).toBeLessThanOrEqual(10);
    expect(Math.max(...copied)).toBeLessThanOrEqual(32);
    const m = s.getState().motion!;
    expect(everyJoint(m)).toEqual(walkedEvery(m));
    // Undone step by step past edit 300: each step's lists, the same objects, read from no word.
    const undoWalks = userKeyWalks();
    for (let k = steps.length - 2; k >= 0; k--) {
      s.getState().history.undo();
      everyJoint(s.getState().motion!).forEach((keys, i) => expect(keys).toBe(steps[k].lists[i]));
    }
    expect(userKeyWalks()).toBe(undoWalks);
  });

  /** A joint's user keys as a walk of a copy of the words reads them. */
  const walkedJoint = (m: Motion, joint: number) =>
    userKeysOf({ ...m, jointKeyInfo: m.jointKeyInfo.slice(), translationKeyInfo: m.translationKeyInfo.slice() }, joint);
  const walkedEvery = (m: Motion) =>
    everyJoint({ ...m, jointKeyInfo: m.jointKeyInfo.slice(), translationKeyInfo: m.translationKeyInfo.slice() });

  it('keeps the user keys a walk reads through 400 random key edits, undos and redos, some joints read, some not', () => {
    const s = storeOfJoints(9, 80);
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 400; i++) {
      const m = s.getState().motion!;
      // Some joints read before the edit, so the edit patches some lists and marks others unread.
      for (let k = rand(4); k > 0; k--) userKeysOf(m, rand(10) - 1);
      const what = rand(5);
      if (what === 0) s.getState().history.undo();
      else if (what === 1) s.getState().history.redo();
      else if (what === 2) s.getState().keys.move(rand(9), [rand(81)], rand(5) - 2);
      else s.getState().keys.toggle(rand(10) - 1, rand(81));
      const now = s.getState().motion!;
      const joint = rand(10) - 1;
      expect(userKeysOf(now, joint), `edit ${i}, joint ${joint}`).toEqual(walkedJoint(now, joint));
      if (i % 50 === 49) expect(everyJoint(now)).toEqual(walkedEvery(now));
    }
  });

  it("reads a joint edited while unread anew for the new words, not the old words' list read afterwards", () => {
    const s = storeOfJoints(3, 40);
    userKeysOf(s.getState().motion!, 0);
    // Joint 1 unread; its key set, undone, read for the old words, redone: the redone words' list holds the key.
    s.getState().keys.set(1, 30, true);
    s.getState().history.undo();
    expect(userKeysOf(s.getState().motion!, 1)).toEqual([2]);
    s.getState().history.redo();
    expect(userKeysOf(s.getState().motion!, 1)).toEqual([2, 30]);
    expect(userKeysOf(s.getState().motion!, 0)).toEqual([1]);
  });
});
