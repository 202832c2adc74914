/** Read-only views of a motion's key info for lists and tests. */
import { KeyFlag, type Motion } from '../../shared/motion/types';

/**
 * A lock's frames as the lock list, the timeline's tooltip and the undo names all write them: "frame 5" or
 * "frames 5–12" (an en dash, one spelling wherever the user reads a range).
 */
export function framesSpanLabel(first: number, last: number): string {
  return first === last ? `frame ${first}` : `frames ${first}–${last}`;
}

/** A lock's run: consecutive LOCK frames of one joint, inclusive. */
export interface LockRange {
  readonly joint: number;
  readonly first: number;
  readonly last: number;
}

// A motion's key words are never written in place (documentStore: an edit, an undo or a redo makes new arrays), so
// the locks and trace keys read from one array stay true for it; an edit is a new array, read anew. The timeline's
// lock and trace rows repaint at every frame of playback and read every frame in view for them (docs/architecture.md,
// "Renderer review, round 6"); the lock list, the tooltip and the menus read them again.
// Each array's lists are held in a slot, read or not yet, that arrays holding the same list share: the words an edit
// left as they were and the history's copy of them. What is first read for either after the edit (or after the
// history packed the words) then holds for both, and an undo reads none of it again (docs/architecture.md, "Renderer
// review, round 10": the history kept the lists as read when it packed the words, so those read afterwards were read
// again at the undo).
interface Slot<T> {
  value: T | undefined;
}
const lockCache = new WeakMap<Uint32Array, Slot<readonly LockRange[]>>();
const traceCache = new WeakMap<Uint32Array, Slot<readonly number[]>>();

/** The entry of `words` in `cache`, made (`make`) where it has none. */
function entryOf<T>(cache: WeakMap<Uint32Array, T>, words: Uint32Array, make: () => T): T {
  let entry = cache.get(words);
  if (entry === undefined) cache.set(words, (entry = make()));
  return entry;
}

/** The slot of `words` in `slots`, made empty where it has none. */
function slotOf<T>(slots: WeakMap<Uint32Array, Slot<T>>, words: Uint32Array): Slot<T> {
  return entryOf(slots, words, () => ({ value: undefined }));
}
// The user keys, by joint (-1: the root translation, read from the translation words): the curve view's key band,
// the timeline's rows, the menus and the key edits read them (docs/architecture.md, "Renderer review, round 5").
// A key edit changes one joint's list: the new words' user keys are their own lists (the edited joint's, patched,
// and those read for them since) over the old words' (`base`), not a copy of every joint's list, which a key edit
// made (docs/architecture.md, "Renderer review, round 11"). A chain longer than USER_KEYS_DEPTH is folded into one
// map, so a look-up walks a few layers, each found list then kept in the top one.
const userKeyCache = new WeakMap<Uint32Array, UserKeys>();
const USER_KEYS_DEPTH = 32;
let walks = 0;
let userWalks = 0;
let userCopies = 0;

/** The user keys read for one array of key words. */
interface UserKeys {
  /** The lists read or patched for these words; `null`: a joint whose keys differ from `base`'s, not read yet. */
  readonly own: Map<number, readonly number[] | null>;
  /** The user keys of the words these were edited from (a KEY bit apart): theirs for each joint not in `own`. */
  readonly base: UserKeys | null;
  /** The layers below (0: no base). */
  readonly depth: number;
}

/** How many times a motion's key words were read whole for its locks or trace keys (tests). */
export function keyInfoWalks(): number {
  return walks;
}

/**
 * Lock ranges of a motion: consecutive LOCK frames of one joint (the lowest joint where two lock a frame), in frame
 * order, so that both `first` and `last` ascend. Read once for each array of key words; frozen.
 */
export function lockRangesOf(m: Motion): readonly LockRange[] {
  const words = m.jointKeyInfo;
  const slot = slotOf(lockCache, words);
  if (slot.value) return slot.value;
  walks++;
  return (slot.value = locksBetween(words, m.joints.length, 0, m.frameCount));
}

/**
 * The lock runs of frames `lo` to `hi` of the key words of `J` joints, read alone: a run is cut at both ends (the
 * callers start and end at a run's ends or at frames with no lock). Frozen.
 */
function locksBetween(words: Uint32Array, J: number, lo: number, hi: number): readonly LockRange[] {
  const out: LockRange[] = [];
  let open: { joint: number; first: number; last: number } | null = null;
  for (let f = lo; f <= hi; f++) {
    let lj = -1;
    for (let j = 0; j < J; j++)
      if (words[(f * J + j) * 4] & KeyFlag.LOCK) {
        lj = j;
        break;
      }
    if (open && open.joint === lj) {
      open.last = f;
      continue;
    }
    if (open) out.push(Object.freeze(open));
    open = lj >= 0 ? { joint: lj, first: f, last: f } : null;
  }
  if (open) out.push(Object.freeze(open));
  return Object.freeze(out);
}

/** The indices [start, end) of the lock ranges (lockRangesOf) with a frame from `lo` to `hi`. O(log ranges). */
export function locksInView(ranges: readonly LockRange[], lo: number, hi: number): [number, number] {
  let a = 0;
  let b = ranges.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (ranges[mid].last < lo) a = mid + 1;
    else b = mid;
  }
  let end = a;
  while (end < ranges.length && ranges[end].first <= hi) end++;
  return [a, end];
}

/** The lock range holding `frame`, if any. O(log ranges). */
export function lockAt(m: Motion, frame: number): LockRange | undefined {
  const ranges = lockRangesOf(m);
  const [a, b] = locksInView(ranges, frame, frame);
  return a < b ? ranges[a] : undefined;
}

/** The frames with a TRACE key (frames 0 and N among them where flagged), ascending. Read once for each array; frozen. */
export function traceFramesOf(m: Motion): readonly number[] {
  const words = m.translationKeyInfo;
  const slot = slotOf(traceCache, words);
  if (slot.value) return slot.value;
  walks++;
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (words[f * 4] & KeyFlag.TRACE) out.push(f);
  return (slot.value = Object.freeze(out));
}

/** How many times userKeysOf read a motion's key words (tests: a repaint of a motion already read reads none). */
export function userKeyWalks(): number {
  return userWalks;
}

/** How many lists of user keys were copied from one map into another (tests: a key edit copies none). */
export function userKeyListCopies(): number {
  return userCopies;
}

/** The user keys read for `words`, made empty where it has none. */
function userKeysMapOf(words: Uint32Array): UserKeys {
  return entryOf(userKeyCache, words, () => ({ own: new Map(), base: null, depth: 0 }));
}

/** The joint's list in `keys`, where it or a base below holds it (kept in `keys` then); undefined where none was read. */
function userKeysFound(keys: UserKeys, joint: number): readonly number[] | undefined {
  for (let layer: UserKeys | null = keys; layer; layer = layer.base) {
    if (!layer.own.has(joint)) continue;
    const found = layer.own.get(joint);
    if (found && layer !== keys) keys.own.set(joint, found);
    return found ?? undefined;
  }
  return undefined;
}

/** A joint's user keys (-1: the root translation), ascending; read once for each array of key words. Frozen. */
export function userKeysOf(m: Motion, joint: number): readonly number[] {
  const words = joint < 0 ? m.translationKeyInfo : m.jointKeyInfo;
  const byJoint = userKeysMapOf(words);
  let keys = userKeysFound(byJoint, joint);
  if (keys) return keys;
  userWalks++;
  const out: number[] = [];
  const J = m.joints.length;
  for (let f = 0; f <= m.frameCount; f++) {
    const w = joint < 0 ? words[f * 4] : words[(f * J + joint) * 4];
    if (w & KeyFlag.KEY) out.push(f);
  }
  keys = Object.freeze(out);
  byJoint.own.set(joint, keys);
  return keys;
}

/**
 * What the caches hold for an array of key words. The undo history keeps it beside the words' packed copy, and an
 * undo or a redo hands it to the words unpacked from that copy, the same words in a new array (documentStore): an
 * undo or a redo read the motion again for its locks, its trace keys and each joint row's user keys in view, the
 * undo of a lock drag frames x joints words (docs/architecture.md, "Renderer review, round 9").
 */
export interface KeyInfoViews {
  readonly locks: Slot<readonly LockRange[]>;
  readonly trace: Slot<readonly number[]>;
  readonly userKeys: UserKeys;
}

/**
 * The views of `words`, shared, not copied: what is read for `words` (or for an array sharing them) after this call
 * holds for the array that adopts them too (round 10).
 */
export function keyInfoViewsOf(words: Uint32Array): KeyInfoViews {
  return { locks: slotOf(lockCache, words), trace: slotOf(traceCache, words), userKeys: userKeysMapOf(words) };
}

/** `words` are the very words whose views are `views` (keyInfoViewsOf), in a new array: the views are theirs. */
export function keyInfoViewsAdopted(words: Uint32Array, views: KeyInfoViews): void {
  lockCache.set(words, views.locks);
  traceCache.set(words, views.trace);
  userKeyCache.set(words, views.userKeys);
}

/**
 * `to` is `from` with no KEY bit changed (a lock or trace edit): its user keys are `from`'s, every joint's. The first
 * paint after a lock drag read every frame again for each joint's row in view (docs/architecture.md, "Renderer
 * review, round 9"). The two arrays share one map: what either reads holds for both.
 */
function userKeysKept(from: Uint32Array, to: Uint32Array): void {
  const byJoint = userKeyCache.get(from);
  if (byJoint) userKeyCache.set(to, byJoint);
}

/**
 * `to` is `from` with the KEY bit of `frame` of `joint` (-1: the root translation) set to `on`, no other bit changed
 * (a user key set, cleared or moved): its locks and trace keys are `from`'s, not read again (docs/architecture.md,
 * "Renderer review, round 7"), and so are its user keys but the joint's, which are patched (round 9: the first
 * paint after a key edit read every frame again for each joint's row in view, the edited joint's among them).
 */
export function keyBitsEdited(from: Uint32Array, to: Uint32Array, joint: number, frame: number, on: boolean): void {
  lockCache.set(to, slotOf(lockCache, from));
  traceCache.set(to, slotOf(traceCache, from));
  const base = userKeyCache.get(from);
  if (!base) return;
  // The joint's list patched, or marked unread (`from`'s, read later, would not be these words'); the rest `from`'s.
  const old = userKeysFound(base, joint);
  const own = new Map([[joint, old ? framesWith(old, frame, on) : null]]);
  userKeyCache.set(to, base.depth < USER_KEYS_DEPTH ? { own, base, depth: base.depth + 1 } : folded(own, base));
}

/** `own` over `base`, as one layer: each joint's nearest list copied in (once every USER_KEYS_DEPTH key edits). */
function folded(own: Map<number, readonly number[] | null>, base: UserKeys): UserKeys {
  for (let layer: UserKeys | null = base; layer; layer = layer.base)
    for (const [joint, keys] of layer.own)
      if (!own.has(joint)) {
        own.set(joint, keys);
        userCopies++;
      }
  // A joint marked unread here has no list below that holds for these words: unread, it is read when asked.
  for (const [joint, keys] of own) if (keys === null) own.delete(joint);
  return { own, base: null, depth: 0 };
}

/**
 * `frames` (ascending, frozen) with `frame` in it (`on` true), out of it (false) or flipped (undefined): the same array
 * when nothing changes, else a new frozen one. The one patch of a cached frame list after a one-bit edit.
 */
function framesWith(frames: readonly number[], frame: number, on?: boolean): readonly number[] {
  let at = 0;
  let end = frames.length;
  while (at < end) {
    const mid = (at + end) >>> 1;
    if (frames[mid] < frame) at = mid + 1;
    else end = mid;
  }
  const has = frames[at] === frame;
  if (has === (on ?? !has)) return frames;
  return Object.freeze(
    has ? [...frames.slice(0, at), ...frames.slice(at + 1)] : [...frames.slice(0, at), frame, ...frames.slice(at)],
  );
}

/** `to` is translation words `from` with the TRACE bit of `frame` flipped: its trace keys are `from`'s, patched. */
export function traceBitFlipped(from: Uint32Array, to: Uint32Array, frame: number): void {
  userKeysKept(from, to);
  const old = traceCache.get(from)?.value;
  if (old) traceCache.set(to, { value: framesWith(old, frame) });
}

/**
 * `to` is joint words `from` of `J` joints with LOCK bits changed on frames `a` to `b` alone (a lock set, moved or
 * cleared): its locks are `from`'s with the runs from the one before frame `a` to the one after frame `b` read again,
 * not the whole motion (frames x joints: docs/architecture.md, "Renderer review, round 8"). The frames read start at
 * the first run touching frame a - 1 (else at a) and end at the last touching b + 1 (else at b): the frames just
 * outside are unchanged and end no run that goes on inside (the old runs being whole), so no run crosses the cut.
 * Its user keys are `from`'s.
 */
export function lockFramesEdited(from: Uint32Array, to: Uint32Array, J: number, a: number, b: number): void {
  userKeysKept(from, to);
  const old = lockCache.get(from)?.value;
  if (!old) return;
  const [s, e] = locksInView(old, a - 1, b + 1);
  const lo = s < e ? Math.min(a, old[s].first) : a;
  const hi = s < e ? Math.max(b, old[e - 1].last) : b;
  lockCache.set(to, { value: Object.freeze([...old.slice(0, s), ...locksBetween(to, J, lo, hi), ...old.slice(e)]) });
}
