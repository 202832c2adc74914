/**
 * The document store: everything that is undoable and (mostly) saved.
 *
 * What undo means here: the editable part of the motion (user keys, locks,
 * trace keys, motion flags, waist joint) plus the compression settings
 * (tolerances, per-joint overrides). The float data of the motion is never
 * edited, so every snapshot shares it; the key-info arrays are copied on
 * write, so unchanged arrays are shared between history entries too.
 *
 * Dirty tracking compares what Save writes (the file part `writeMtn` stores,
 * and the tuning kept with the motion: tolerances and per-joint overrides, in
 * its project entry or the tuning file beside it) with the revision last saved
 * or opened, so undoing back to it clears the marker.
 *
 * Vanilla zustand: the viewport and canvases read it with getState/subscribe
 * outside React; components use the hook in ./hooks.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { KeyFlag, MotionFlag, makeMotion, type Motion } from '../../shared/motion/types';
import { DEFAULT_TOLERANCES, type CompressMethod, type CompressTolerances } from '../../shared/compress/types';
import {
  framesSpanLabel,
  keyBitsEdited,
  keyInfoViewsAdopted,
  keyInfoViewsOf,
  lockFramesEdited,
  traceBitFlipped,
  type KeyInfoViews,
} from './keyInfo';

/** The document's compression tolerances: the compressor's own type (shared/compress/types.ts). */
export type Tolerances = CompressTolerances;

/** The undoable state: one history entry is one of these. */
export interface EditableState {
  flags: number;
  waistJoint: number;
  /** (N+1) x 4 words, see Motion.translationKeyInfo. Never mutated in place. */
  translationKeyInfo: Uint32Array;
  /** (N+1) x J x 4 words, see Motion.jointKeyInfo. Never mutated in place. */
  jointKeyInfo: Uint32Array;
  tolerances: Tolerances;
  /** Per-joint rotation tolerance overrides in degrees, by joint index. */
  rotationOverridesDeg: Readonly<Record<number, number>>;
}

/**
 * Key-info words as stored in history: only the non-zero words. Key info is
 * almost all zeros (flags on a few frames), so a history step costs bytes per
 * flagged frame instead of a copy of (N+1) x J x 4 words.
 */
interface SparseWords {
  length: number;
  index: Uint32Array;
  value: Uint32Array;
  /** The words' locks, trace keys and user keys as read (state/keyInfo.ts): handed to the words unpacked, not re-read. */
  views: KeyInfoViews;
}

/** The non-zero words of an array of key words, by ascending index (a SparseWords without its length and views). */
interface Nonzero {
  readonly index: Uint32Array;
  readonly value: Uint32Array;
}

// The non-zero words of each array of key words the store holds: read whole once for the array a document opened
// with, then made for each edit's new array from its old one's with the words the edit wrote (`wordsEdited`), and
// for an undo's array from the history's. The history's packing and the comparisons of an edit (with the words before
// it and with the revision saved) read these, not the whole arrays: a key edit read the (N+1) x J x 4 words three
// times more after copying them (docs/architecture.md, "Renderer review, round 12"). Key words are never written in
// place once the store holds them.
const nonzeroCache = new WeakMap<Uint32Array, Nonzero>();
let wordsRead = 0;

/** How many key words the store has read whole for their non-zero words (tests). */
export function keyWordsRead(): number {
  return wordsRead;
}

function nonzeroOf(a: Uint32Array): Nonzero {
  const known = nonzeroCache.get(a);
  if (known) return known;
  wordsRead += a.length;
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) n++;
  const index = new Uint32Array(n);
  const value = new Uint32Array(n);
  // Stryker disable next-line EqualityOperator: the extra pass reads undefined past the end and writes index[n], past the typed array's end, which is ignored
  for (let i = 0, k = 0; i < a.length; i++) {
    if (a[i] !== 0) {
      index[k] = i;
      value[k++] = a[i];
    }
  }
  const nz = { index, value };
  nonzeroCache.set(a, nz);
  return nz;
}

/**
 * `to` is `from` with the words at `at` (ascending, no repeats) as `to` holds them, every other word the same: its
 * non-zero words are `from`'s merged with those, without reading the rest of `to`.
 */
function wordsEdited(from: Uint32Array, to: Uint32Array, at: readonly number[]): void {
  const old = nonzeroOf(from);
  const index = new Uint32Array(old.index.length + at.length);
  const value = new Uint32Array(old.index.length + at.length);
  let n = 0;
  let k = 0;
  for (const w of at) {
    // The old non-zero words before w, as they were (a run copied whole).
    let e = k;
    while (e < old.index.length && old.index[e] < w) e++;
    index.set(old.index.subarray(k, e), n);
    value.set(old.value.subarray(k, e), n);
    n += e - k;
    k = e < old.index.length && old.index[e] === w ? e + 1 : e;
    if (to[w] !== 0) {
      index[n] = w;
      value[n++] = to[w];
    }
  }
  index.set(old.index.subarray(k), n);
  value.set(old.value.subarray(k), n);
  n += old.index.length - k;
  nonzeroCache.set(to, { index: index.slice(0, n), value: value.slice(0, n) });
}

function packWords(a: Uint32Array): SparseWords {
  const { index, value } = nonzeroOf(a);
  return { length: a.length, index, value, views: keyInfoViewsOf(a) };
}

function unpackWords(s: SparseWords): Uint32Array {
  const a = new Uint32Array(s.length);
  // Stryker disable next-line EqualityOperator: the extra pass writes a[undefined], a named property, never a word
  for (let k = 0; k < s.index.length; k++) a[s.index[k]] = s.value[k];
  keyInfoViewsAdopted(a, s.views);
  nonzeroCache.set(a, { index: s.index, value: s.value });
  return a;
}

/** An EditableState with its key info packed. */
interface StoredState extends Omit<EditableState, 'translationKeyInfo' | 'jointKeyInfo'> {
  translationKeyInfo: SparseWords;
  jointKeyInfo: SparseWords;
}

function pack(e: EditableState): StoredState {
  return { ...e, translationKeyInfo: packWords(e.translationKeyInfo), jointKeyInfo: packWords(e.jointKeyInfo) };
}

function unpack(s: StoredState): EditableState {
  return { ...s, translationKeyInfo: unpackWords(s.translationKeyInfo), jointKeyInfo: unpackWords(s.jointKeyInfo) };
}

interface HistoryEntry {
  /** What the step did, for the Edit menu ("Undo Add user key (LeftFoot, frame 30)"). */
  label: string;
  state: StoredState;
}

export type DocumentKind = 'mtn' | 'mt3' | 'mar';

/** Outcome of an edit that can be refused (locks). */
/** A refused edit says why; `fix`, when there is one, is the edit the user can ask for instead (a button by the message). */
export type EditOutcome = { ok: true } | { ok: false; message: string; fix?: EditFix };

/** An edit offered with a refusal: its button label and what it does (one undo step). */
export interface EditFix {
  label: string;
  run: () => void;
}

export interface DocumentState {
  /** The main process's id of the open document (compress/save requests name it); null when none. */
  documentId: string | null;
  /** Path of the open file as the API names it; null when nothing is open. */
  path: string | null;
  /** Display name (base name without extension, "<mar>:<entry>" for archive entries). */
  name: string;
  kind: DocumentKind | null;
  /** .mt3 / .mar documents (decoded keyframes) are shown, never edited; Save As .mtn converts them. */
  readOnly: boolean;
  /**
   * The motion as edited: float data from the file, key info / flags from the
   * current EditableState. A new object after every edit (identity = change).
   * For read-only documents, the motion decoded from the MT3.
   */
  motion: Motion | null;
  tolerances: Tolerances;
  rotationOverridesDeg: Readonly<Record<number, number>>;
  /** Bumps on every change of anything compression depends on. */
  editId: number;
  /** Whether the file part differs from the last saved/opened revision. */
  dirty: boolean;
  /** Undo stack (oldest first) and redo stack (next redo last). */
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** An open transaction (a drag): edits since `before` form one undo step. */
  transaction: { label: string; before: EditableState } | null;

  /** Replaces the document; clears history; the new revision counts as saved. */
  load(doc: LoadDocument): void;
  /** Closes the document. */
  close(): void;
  /** Records that the current file part is on disk at `path`. */
  markSaved(path: string, name?: string): void;
  /**
   * Makes these the document's starting settings, as if opened with them (the tuning file beside the motion,
   * or its project entry): not an undo step, and the revision dirty tracking compares with.
   */
  adoptTuning(tolerances: Tolerances, rotationOverridesDeg: Record<number, number>): void;

  keys: {
    /** Toggles a user KEY at `frame`: joint -1 is the root translation channel. */
    toggle(joint: number, frame: number): void;
    /** Sets or clears a user KEY (idempotent). */
    set(joint: number, frame: number, on: boolean): void;
    /**
     * Moves the user KEYs at `frames` of one channel by `delta` frames, as one undo step. The delta is
     * clamped so every key stays inside 0..N; a key landing on another user key merges with it.
     * Returns the frames the keys now sit on (empty when nothing moved).
     */
    move(joint: number, frames: readonly number[], delta: number): number[];
    /** Removes the user KEYs at `frames` of one channel, as one undo step. */
    remove(joint: number, frames: readonly number[]): void;
  };
  locks: {
    /**
     * Pins `joint` on frames first..last (inclusive, any order). Refused when
     * another joint holds a lock on a frame of the range (one joint per frame).
     */
    setRange(joint: number, first: number, last: number): EditOutcome;
    /** Locks `joint` on frames first..last, taking the lock off any other joint there (one frame holds one lock): one undo step. */
    moveRange(joint: number, first: number, last: number): void;
    /** Removes `joint`'s lock on frames first..last. */
    clearRange(joint: number, first: number, last: number): void;
  };
  trace: {
    /** Toggles a trajectory TRACE key at `frame`. */
    toggle(frame: number): void;
  };
  tolerancesActions: {
    set(patch: Partial<Tolerances>): void;
    /** Classic (the original greedy rule) or refined key selection. */
    setMethod(method: CompressMethod): void;
    /** The skeleton-aware bound (null: off) and its shell (null: the default); a bad value is ignored. */
    setSkeleton(objectTolerance: number | null, shell: number | null): void;
    /** Sets (deg) or removes (null) a joint's rotation tolerance override. */
    setOverride(joint: number, deg: number | null): void;
  };
  motionFlags: {
    /** Sets or clears MotionFlag bits. */
    set(bits: number, on: boolean): void;
    setWaistJoint(joint: number): void;
  };
  history: {
    undo(): void;
    redo(): void;
    /** Starts a transaction: edits until commit are one undo step. */
    begin(label: string): void;
    /** Ends the transaction as one undo step, named `label` when given (what a drag ended at) else begin's label. */
    commit(label?: string): void;
    /** Drops the transaction's edits. */
    cancel(): void;
  };
}

/** What `load` accepts. */
export interface LoadDocument {
  documentId: string;
  /** The file; null for a motion that has none yet (an import). */
  path: string | null;
  name: string;
  kind: DocumentKind;
  readOnly: boolean;
  motion: Motion;
  /** Starting tolerances (the preferences' defaults); the current ones when omitted. */
  tolerances?: Tolerances;
  /** A new motion that was never saved (File > Import): dirty until markSaved, even after undoing every edit. */
  unsaved?: boolean;
  /** Starting per-joint rotation tolerance overrides (a restored backup's); none when omitted. */
  rotationOverridesDeg?: Readonly<Record<number, number>>;
}

/** Undo steps kept per document; the oldest step is dropped first. */
export const HISTORY_LIMIT = 500;

function editableOf(s: Pick<DocumentState, 'motion' | 'tolerances' | 'rotationOverridesDeg'>): EditableState {
  const m = s.motion!;
  return {
    flags: m.flags,
    waistJoint: m.waistJoint,
    translationKeyInfo: m.translationKeyInfo,
    jointKeyInfo: m.jointKeyInfo,
    tolerances: s.tolerances,
    rotationOverridesDeg: s.rotationOverridesDeg,
  };
}

/** The flag words of frames a..b of `joint` (null: every joint of the J), ascending: those a lock edit writes. */
function lockWords(J: number, joint: number | null, a: number, b: number): number[] {
  const at: number[] = [];
  for (let f = a; f <= b; f++)
    if (joint === null) for (let j = 0; j < J; j++) at.push((f * J + j) * 4);
    else at.push((f * J + joint) * 4);
  return at;
}

/** Whether two arrays of key words hold the same words: their non-zero words compared (`nonzeroOf`). */
function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  // Stryker disable next-line ConditionalExpression: a short cut; the comparison below gives the same answer for the same array
  if (a === b) return true;
  if (a.length !== b.length) return false;
  const x = nonzeroOf(a);
  const y = nonzeroOf(b);
  if (x.index.length !== y.index.length) return false;
  // Stryker disable next-line EqualityOperator: past the end both read undefined, which compare equal
  for (let i = 0; i < x.index.length; i++) if (x.index[i] !== y.index[i] || x.value[i] !== y.value[i]) return false;
  return true;
}

/** Whether the MTN content (what saving writes) of two states is equal. */
export function sameFileContent(a: EditableState, b: EditableState): boolean {
  return (
    a.flags === b.flags &&
    a.waistJoint === b.waistJoint &&
    sameWords(a.translationKeyInfo, b.translationKeyInfo) &&
    sameWords(a.jointKeyInfo, b.jointKeyInfo)
  );
}

function sameEditable(a: EditableState, b: EditableState): boolean {
  if (!sameFileContent(a, b)) return false;
  const ta = a.tolerances;
  const tb = b.tolerances;
  if (
    ta.positionTolerance !== tb.positionTolerance ||
    ta.rotationToleranceDeg !== tb.rotationToleranceDeg ||
    ta.offsetTolerance !== tb.offsetTolerance ||
    ta.method !== tb.method ||
    ta.objectTolerance !== tb.objectTolerance ||
    ta.shell !== tb.shell
  )
    return false;
  const ka = Object.keys(a.rotationOverridesDeg);
  const kb = Object.keys(b.rotationOverridesDeg);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (a.rotationOverridesDeg[+k] !== b.rotationOverridesDeg[+k]) return false;
  return true;
}

/** The document fields with nothing open (fresh arrays each time); tolerances and editId carry over a close. */
function noDocument(): Pick<
  DocumentState,
  | 'documentId'
  | 'path'
  | 'name'
  | 'kind'
  | 'readOnly'
  | 'motion'
  | 'rotationOverridesDeg'
  | 'dirty'
  | 'past'
  | 'future'
  | 'transaction'
> {
  return {
    documentId: null,
    path: null,
    name: '',
    kind: null,
    readOnly: false,
    motion: null,
    rotationOverridesDeg: {},
    dirty: false,
    past: [],
    future: [],
    transaction: null,
  };
}

export function createDocumentStore(): StoreApi<DocumentState> {
  /** File part as last saved/opened; null when nothing is open. */
  let saved: EditableState | null = null;
  /** The document has never been written (an import): it stays dirty until markSaved. */
  // Stryker disable next-line BooleanLiteral: every edit needs a motion, and load sets neverSaved before the first one
  let neverSaved = false;

  return createStore<DocumentState>()((set, get) => {
    /** Whether Save has something to write for this state: it differs from the revision opened or saved. */
    function dirtyOf(e: EditableState): boolean {
      // Stryker disable next-line BooleanLiteral: saved is null only while no motion is open, and no edit runs then
      return neverSaved || (saved ? !sameEditable(e, saved) : false);
    }

    /** Applies an editable state to the motion and recomputes derived fields. */
    function withEditable(e: EditableState): Partial<DocumentState> {
      const m = get().motion!;
      const motion = makeMotion({
        ...m,
        flags: e.flags,
        waistJoint: e.waistJoint,
        translationKeyInfo: e.translationKeyInfo,
        jointKeyInfo: e.jointKeyInfo,
      });
      return {
        motion,
        tolerances: e.tolerances,
        rotationOverridesDeg: e.rotationOverridesDeg,
        editId: get().editId + 1,
        dirty: dirtyOf(e),
      };
    }

    /** Records one edit: pushes history unless a transaction is open. */
    function edit(label: string, next: (cur: EditableState) => EditableState | null): void {
      const s = get();
      if (!s.motion || s.readOnly) return;
      const cur = editableOf(s);
      const e = next(cur);
      if (!e || sameEditable(e, cur)) return;
      if (s.transaction) {
        set(withEditable(e));
        return;
      }
      const past = [...s.past, { label, state: pack(cur) }];
      if (past.length > HISTORY_LIMIT) past.shift();
      set({ ...withEditable(e), past, future: [] });
    }

    /**
     * Undo (from 'past') and redo (from 'future') are one move in opposite
     * directions: the newest entry of `from` becomes the document, and the
     * current document goes onto the other stack under that entry's label.
     */
    function travel(from: 'past' | 'future'): void {
      const s = get();
      const source = s[from];
      if (!s.motion || s.transaction || source.length === 0) return;
      const entry = source[source.length - 1];
      const current = { label: entry.label, state: pack(editableOf(s)) };
      const rest = source.slice(0, -1);
      set({
        ...withEditable(unpack(entry.state)),
        ...(from === 'past'
          ? { past: rest, future: [...s.future, current] }
          : { future: rest, past: [...s.past, current] }),
      });
    }

    function jointWord(m: Motion, frame: number, joint: number): number {
      return (frame * m.joints.length + joint) * 4;
    }

    function inFrames(m: Motion, frame: number): boolean {
      return Number.isInteger(frame) && frame >= 0 && frame <= m.frameCount;
    }

    function setKey(cur: EditableState, joint: number, frame: number, on: boolean | 'toggle'): EditableState | null {
      const m = get().motion!;
      if (!inFrames(m, frame) || joint < -1 || joint >= m.joints.length) return null;
      const from = joint < 0 ? cur.translationKeyInfo : cur.jointKeyInfo;
      const w = joint < 0 ? frame * 4 : jointWord(m, frame, joint);
      const want = on === 'toggle' ? !(from[w] & KeyFlag.KEY) : on;
      const word = want ? from[w] | KeyFlag.KEY : from[w] & ~KeyFlag.KEY;
      // Already so: the same words, no copy (the edit compares nothing and records no step).
      if (word === from[w]) return cur;
      const arr = from.slice();
      arr[w] = word;
      wordsEdited(from, arr, [w]);
      keyBitsEdited(from, arr, joint, frame, want);
      return joint < 0 ? { ...cur, translationKeyInfo: arr } : { ...cur, jointKeyInfo: arr };
    }

    function hasKey(cur: EditableState, m: Motion, joint: number, frame: number): boolean {
      if (joint < 0) return (cur.translationKeyInfo[frame * 4] & KeyFlag.KEY) !== 0;
      return joint < m.joints.length && (cur.jointKeyInfo[jointWord(m, frame, joint)] & KeyFlag.KEY) !== 0;
    }

    /** The undo step of a user key edit names what it did and where: "Add user key (LeftFoot, frame 30)". */
    function jointName(joint: number): string {
      return joint < 0 ? 'root translation' : (get().motion?.joints[joint]?.name ?? `joint ${joint}`);
    }

    function keyLabel(adding: boolean, joint: number, frame: number): string {
      return `${adding ? 'Add' : 'Remove'} user key (${jointName(joint)}, frame ${frame})`;
    }

    function clampRange(m: Motion, first: number, last: number): [number, number] {
      const a = Math.max(0, Math.min(m.frameCount, Math.round(Math.min(first, last))));
      const b = Math.max(0, Math.min(m.frameCount, Math.round(Math.max(first, last))));
      return [a, b];
    }

    return {
      ...noDocument(),
      tolerances: { ...DEFAULT_TOLERANCES },
      editId: 0,

      load(doc) {
        set({
          documentId: doc.documentId,
          path: doc.path,
          name: doc.name,
          kind: doc.kind,
          readOnly: doc.readOnly,
          motion: doc.motion,
          tolerances: doc.tolerances ?? get().tolerances,
          rotationOverridesDeg: doc.rotationOverridesDeg ?? {},
          editId: get().editId + 1,
          dirty: doc.unsaved === true,
          past: [],
          future: [],
          transaction: null,
        });
        saved = editableOf(get());
        neverSaved = doc.unsaved === true;
      },

      close() {
        saved = null;
        // Stryker disable next-line BooleanLiteral: nothing is edited after close until load, which sets neverSaved again
        neverSaved = false;
        set({ ...noDocument(), editId: get().editId + 1 });
      },

      markSaved(path, name) {
        if (!get().motion) return;
        saved = editableOf(get());
        neverSaved = false;
        set({ path, name: name ?? get().name, dirty: false });
      },

      adoptTuning(tolerances, rotationOverridesDeg) {
        if (!get().motion) return;
        set({ tolerances, rotationOverridesDeg: { ...rotationOverridesDeg }, editId: get().editId + 1 });
        if (saved) saved = { ...saved, tolerances, rotationOverridesDeg: { ...rotationOverridesDeg } };
        set({ dirty: dirtyOf(editableOf(get())) });
      },

      keys: {
        toggle(joint, frame) {
          const m = get().motion;
          const adding = !m || !hasKey(editableOf(get()), m, joint, frame);
          edit(keyLabel(adding, joint, frame), (cur) => setKey(cur, joint, frame, 'toggle'));
        },
        set(joint, frame, on) {
          edit(keyLabel(on, joint, frame), (cur) => setKey(cur, joint, frame, on));
        },
        move(joint, frames, delta) {
          const m = get().motion;
          if (!m || get().readOnly || frames.length === 0) return [];
          const own = frames.filter((f) => inFrames(m, f) && hasKey(editableOf(get()), m, joint, f));
          if (own.length === 0) return [];
          const d = Math.max(-Math.min(...own), Math.min(m.frameCount - Math.max(...own), Math.round(delta)));
          if (d === 0) return [];
          const moved = own.map((f) => f + d);
          const where = own.length === 1 ? `frame ${own[0]} → ${moved[0]}` : `${d > 0 ? '+' : ''}${d} frames`;
          edit(`Move ${own.length === 1 ? 'key' : `${own.length} keys`} (${jointName(joint)}, ${where})`, (cur) => {
            let e: EditableState | null = cur;
            for (const f of own) e = e && setKey(e, joint, f, false);
            for (const f of moved) e = e && setKey(e, joint, f, true);
            return e;
          });
          return moved;
        },
        remove(joint, frames) {
          const m = get().motion;
          if (!m || frames.length === 0) return;
          const what =
            frames.length === 1
              ? `key (${jointName(joint)}, frame ${frames[0]})`
              : `${frames.length} keys (${jointName(joint)})`;
          edit(`Delete ${what}`, (cur) => {
            let e: EditableState | null = cur;
            for (const f of frames) e = e && setKey(e, joint, f, false);
            return e;
          });
        },
      },

      locks: {
        setRange(joint, first, last) {
          const m = get().motion;
          if (!m || get().readOnly) return { ok: false, message: 'No editable motion is open.' };
          if (joint < 0 || joint >= m.joints.length)
            return { ok: false, message: 'Select a joint to lock (the root translation cannot be locked).' };
          const [a, b] = clampRange(m, first, last);
          const J = m.joints.length;
          const info = get().motion!.jointKeyInfo;
          const refusedIn = get().documentId;
          for (let f = a; f <= b; f++) {
            for (let j = 0; j < J; j++) {
              if (j !== joint && info[(f * J + j) * 4] & KeyFlag.LOCK) {
                const frames = framesSpanLabel(a, b);
                return {
                  ok: false,
                  // Why, not only what: the format pins one joint per frame (docs/user-guide.md#locks).
                  message:
                    `Lock refused: frame ${f} is already locked by joint ${j} "${m.joints[j].name}". ` +
                    `A frame pins one joint: the game moves the root to hold it still. Move the lock to pin "${m.joints[joint].name}" on ${frames}.`,
                  // Only in the document it was refused in: a message over the same file reopened (or after
                  // Discard changes) must not move locks in a motion it never checked.
                  fix: {
                    label: `Move lock to ${m.joints[joint].name}`,
                    run: () => {
                      if (get().documentId === refusedIn) get().locks.moveRange(joint, a, b);
                    },
                  },
                };
              }
            }
          }
          edit(`Lock ${m.joints[joint].name}, ${framesSpanLabel(a, b)}`, (cur) => {
            const arr = cur.jointKeyInfo.slice();
            for (let f = a; f <= b; f++) arr[(f * J + joint) * 4] |= KeyFlag.LOCK;
            wordsEdited(cur.jointKeyInfo, arr, lockWords(J, joint, a, b));
            lockFramesEdited(cur.jointKeyInfo, arr, J, a, b);
            return { ...cur, jointKeyInfo: arr };
          });
          return { ok: true };
        },
        moveRange(joint, first, last) {
          const m = get().motion;
          if (!m || get().readOnly || joint < 0 || joint >= m.joints.length) return;
          const [a, b] = clampRange(m, first, last);
          const J = m.joints.length;
          edit(`Move lock to ${m.joints[joint].name} (${framesSpanLabel(a, b)})`, (cur) => {
            const arr = cur.jointKeyInfo.slice();
            for (let f = a; f <= b; f++)
              for (let j = 0; j < J; j++) {
                if (j === joint) arr[(f * J + j) * 4] |= KeyFlag.LOCK;
                else arr[(f * J + j) * 4] &= ~KeyFlag.LOCK;
              }
            wordsEdited(cur.jointKeyInfo, arr, lockWords(J, null, a, b));
            lockFramesEdited(cur.jointKeyInfo, arr, J, a, b);
            return { ...cur, jointKeyInfo: arr };
          });
        },
        clearRange(joint, first, last) {
          const m = get().motion;
          if (!m || joint < 0 || joint >= m.joints.length) return;
          const [a, b] = clampRange(m, first, last);
          const J = m.joints.length;
          edit(`Unlock ${m.joints[joint].name}, ${framesSpanLabel(a, b)}`, (cur) => {
            const arr = cur.jointKeyInfo.slice();
            for (let f = a; f <= b; f++) arr[(f * J + joint) * 4] &= ~KeyFlag.LOCK;
            wordsEdited(cur.jointKeyInfo, arr, lockWords(J, joint, a, b));
            lockFramesEdited(cur.jointKeyInfo, arr, J, a, b);
            return { ...cur, jointKeyInfo: arr };
          });
        },
      },

      trace: {
        toggle(frame) {
          const m = get().motion;
          if (!m || !inFrames(m, frame)) return;
          const adding = !(m.translationKeyInfo[frame * 4] & KeyFlag.TRACE);
          // The first and last frames always have a trace key (their chips read as fixed): there only the file's flag
          // changes, and the step says so rather than "Remove trace key" of a key that stays.
          const fixed = frame === 0 || frame === m.frameCount;
          const label = fixed
            ? `${adding ? 'Set' : 'Clear'} trace flag (frame ${frame}, a fixed trace key)`
            : `${adding ? 'Add' : 'Remove'} trace key (frame ${frame})`;
          edit(label, (cur) => {
            const arr = cur.translationKeyInfo.slice();
            arr[frame * 4] ^= KeyFlag.TRACE;
            wordsEdited(cur.translationKeyInfo, arr, [frame * 4]);
            traceBitFlipped(cur.translationKeyInfo, arr, frame);
            return { ...cur, translationKeyInfo: arr };
          });
        },
      },

      tolerancesActions: {
        set(patch) {
          const clean: Partial<Tolerances> = {};
          for (const [k, v] of Object.entries(patch) as [keyof Tolerances, number][]) {
            if (k === 'method') continue; // setMethod
            if (Number.isFinite(v) && v > 0) (clean as Record<string, number>)[k] = v;
          }
          edit(toleranceLabel(clean), (cur) => ({ ...cur, tolerances: { ...cur.tolerances, ...clean } }));
        },
        setMethod(method) {
          edit(method === 'classic' ? 'Use the classic rule' : 'Use the refined compressor', (cur) => {
            const t = { ...cur.tolerances };
            if (method === 'classic') t.method = 'classic';
            else delete t.method;
            return { ...cur, tolerances: t };
          });
        },
        setSkeleton(objectTolerance, shell) {
          if (objectTolerance !== null && !(Number.isFinite(objectTolerance) && objectTolerance > 0)) return;
          if (shell !== null && !(Number.isFinite(shell) && shell > 0)) return;
          // Named with its values, as the other tolerance edits are ("Set position tolerance to 0.3").
          const label =
            objectTolerance === null
              ? 'Turn off the object-space bound'
              : `Set the object-space bound to ${objectTolerance} u${shell !== null ? `, shell ${shell}` : ''}`;
          edit(label, (cur) => {
            const t = { ...cur.tolerances };
            delete t.objectTolerance;
            delete t.shell;
            if (objectTolerance !== null) {
              t.objectTolerance = objectTolerance;
              if (shell !== null) t.shell = shell;
            }
            return { ...cur, tolerances: t };
          });
        },
        setOverride(joint, deg) {
          const m = get().motion;
          if (!m || joint < 0 || joint >= m.joints.length) return;
          if (deg !== null && !(Number.isFinite(deg) && deg > 0)) return;
          const label =
            deg === null
              ? `Remove rotation override (${m.joints[joint].name})`
              : `Set rotation override (${m.joints[joint].name}) to ${deg}°`;
          edit(label, (cur) => {
            const o: Record<number, number> = { ...cur.rotationOverridesDeg };
            if (deg === null) delete o[joint];
            else o[joint] = deg;
            return { ...cur, rotationOverridesDeg: o };
          });
        },
      },

      motionFlags: {
        set(bits, on) {
          edit(`Turn ${on ? 'on' : 'off'} ${flagNames(bits)}`, (cur) => ({
            ...cur,
            flags: on ? cur.flags | bits : cur.flags & ~bits,
          }));
        },
        setWaistJoint(joint) {
          const m = get().motion;
          if (!m || joint < -1 || joint >= m.joints.length) return;
          edit(`Set waist joint to ${joint < 0 ? 'none' : m.joints[joint].name}`, (cur) => ({
            ...cur,
            waistJoint: joint,
          }));
        },
      },

      history: {
        undo() {
          travel('past');
        },
        redo() {
          travel('future');
        },
        begin(label) {
          const s = get();
          if (!s.motion || s.readOnly) return;
          if (s.transaction) get().history.commit();
          set({ transaction: { label, before: editableOf(get()) } });
        },
        commit(finalLabel) {
          const s = get();
          if (!s.transaction) return;
          const { before } = s.transaction;
          const label = finalLabel ?? s.transaction.label;
          const cur = editableOf(s);
          if (sameEditable(before, cur)) {
            set({ transaction: null });
            return;
          }
          const past = [...s.past, { label, state: pack(before) }];
          if (past.length > HISTORY_LIMIT) past.shift();
          set({ transaction: null, past, future: [] });
        },
        cancel() {
          const s = get();
          if (!s.transaction) return;
          const before = s.transaction.before;
          set({ transaction: null });
          set(withEditable(before));
        },
      },
    };
  });
}

/** The app's document. */
export const documentStore = createDocumentStore();

/** The tuning panel's names of the tolerances, for undo labels ("Set position tolerance to 0.3"). */
const TOLERANCE_NAMES: Record<string, [string, string]> = {
  positionTolerance: ['position tolerance', ''],
  rotationToleranceDeg: ['rotation tolerance', '°'],
  offsetTolerance: ['offset tolerance', ''],
  objectTolerance: ['object-space bound', ''],
  shell: ['object-space shell', ''],
};

/** What a tolerance edit sets, named: one value with its number, several by name. */
export function toleranceLabel(patch: Partial<Tolerances>): string {
  const set = Object.entries(patch) as [string, number][];
  if (set.length === 1) {
    const [name, unit] = TOLERANCE_NAMES[set[0][0]] ?? [set[0][0], ''];
    return `Set ${name} to ${set[0][1]}${unit}`;
  }
  return `Set ${set.map(([k]) => TOLERANCE_NAMES[k]?.[0] ?? k).join(', ')}`;
}

/** The tuning panel's names of the motion flags, for undo labels ("Turn on Mirror upper body"). */
const FLAG_NAMES: [number, string][] = [
  [MotionFlag.OFFSETS, 'Animated offsets'],
  [MotionFlag.DIRECTION, 'Direction correction'],
  [MotionFlag.MIRROR_UPPER, 'Mirror upper body'],
  [MotionFlag.MIRROR_LOWER, 'Mirror lower body'],
];

function flagNames(bits: number): string {
  const named = FLAG_NAMES.filter(([bit]) => bits & bit).map(([, name]) => name);
  const other = bits & ~FLAG_NAMES.reduce((all, [bit]) => all | bit, 0);
  return [...named, ...(other ? [`motion flags 0x${other.toString(16)}`] : [])].join(', ');
}

/** Label of the step Undo would revert, or null. */
export function undoLabel(s: DocumentState): string | null {
  return s.past.length ? s.past[s.past.length - 1].label : null;
}
export function redoLabel(s: DocumentState): string | null {
  return s.future.length ? s.future[s.future.length - 1].label : null;
}
