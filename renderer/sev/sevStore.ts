/**
 * The SEV document store: the sound events of the motion being edited, with
 * undo. It is the SEV half of the undoable document (the motion half is
 * renderer/state/documentStore.ts); ./undoOrder keeps one undo order over both.
 *
 * Every edit goes through the pure helpers of shared/sev/edit.ts, so the store
 * only keeps documents: the undo history holds the previous ones, and a drag is
 * one step (begin/commit, like the document store's transactions).
 *
 * A file that does not parse is never turned into a document (that would drop
 * its broken lines on save): it stays as text with its errors, the editor
 * shows them with line:column, and the user fixes the text in place.
 */
import { createStore } from 'zustand/vanilla';
import type { FormatError } from '../../shared/errors';
import { bidiWarnings } from '../../shared/bidiText';
import { parseSev } from '../../shared/sev/parse';
import { serializeSev } from '../../shared/sev/serialize';
import { emptySevDocument, type SevDocument } from '../../shared/sev/types';
import type { FootContact } from '../../shared/sev/footsteps';
import type { SevEventClipboard } from '../../shared/sev/clipboard';
import { dropSevSteps, recordSevStep, registerSevParticipant } from './undoOrder';

/** A parse error, placed (line and column are 1-based). */
export interface SevTextError {
  message: string;
  line: number;
  column: number;
}

interface Step {
  label: string;
  doc: SevDocument;
  /**
   * Floor variants kept aside (hiddenVariants) of SEs that going from `doc` to the other side of this step took away,
   * by SE index: a deleted SE's, or on Undo of "Define SE" the new SE's. Moving to a document drops the kept variants
   * of the SEs it does not define, so an SE that takes the index later is never offered another sound's variants;
   * stepping back over this step brings them back, so Undo then Redo give the exact state.
   */
  droppedVariants?: Record<number, string[]>;
}

/**
 * Moving the document from `from` to `to` (an edit, or the `applied` step of an Undo/Redo, whose dropped variants come
 * back): the kept variants that go on, and the step back to `from`, holding those of SEs `to` no longer defines.
 */
function stepTo(
  hidden: Record<number, string[]>,
  label: string,
  from: SevDocument,
  to: SevDocument,
  applied?: Step,
): { hiddenVariants: Record<number, string[]>; back: Step } {
  const hiddenVariants: Record<number, string[]> = {};
  let dropped: Record<number, string[]> | undefined;
  for (const [k, v] of Object.entries({ ...hidden, ...applied?.droppedVariants })) {
    if (to.ses.some((d) => d.index === Number(k))) hiddenVariants[Number(k)] = v;
    else (dropped ??= {})[Number(k)] = v;
  }
  return { hiddenVariants, back: dropped ? { label, doc: from, droppedVariants: dropped } : { label, doc: from } };
}

/** Which tuner motion a .sev is edited against. */
export interface SevMotionBinding {
  /** The tuner document (null when none was open). */
  documentId: string | null;
  /** Its file (null for an imported motion not saved yet). */
  path: string | null;
}

/** One .sev the editor has open. */
export interface SevFileState {
  /** Absolute path (as the project resolves it). */
  path: string;
  /** The motion it belongs to (project name). */
  motionName: string;
  /**
   * The motion it is edited against: the tuner document shown when it was opened (its frames and joints bound
   * every edit) and that motion's file. The editor shows and edits the events only while the tuner shows this
   * motion (renderer/sev/sevMotion.ts), so one motion's events never meet another's skeleton.
   */
  motion: SevMotionBinding;
  /** The document; null while the text has parse errors. */
  doc: SevDocument | null;
  /** The document as last opened or saved: `dirty` is `doc !== savedDoc`. */
  savedDoc: SevDocument | null;
  /** The file does not exist yet (a motion's first SEV). */
  isNew: boolean;
  /** The text being fixed when it does not parse (the file's own text at first). */
  brokenText: string | null;
  /** Errors of brokenText. */
  parseErrors: SevTextError[];
  /**
   * Warnings of the text as last read or written (the file as opened, the text as saved, or brokenText being fixed):
   * the bidirectional formatting characters (shared/bidiText.ts), placed. They never block editing or saving.
   */
  textWarnings: SevTextError[];
  /** Whether brokenText differs from the file on disk. */
  brokenTextEdited: boolean;
  past: Step[];
  future: Step[];
  /**
   * Floor variants of SEs whose "Floors" box was unticked, by SE index: ticking it again brings them back.
   * They are dropped when the file is saved with the box unticked (markSaved), and with their SE when it is deleted
   * (that step keeps them, for its Undo: Step.droppedVariants).
   */
  hiddenVariants: Record<number, string[]>;
  /**
   * The file lies outside the folder of the project that names it (links resolved, as main judged it when it was
   * read: ProjectTextFile.outsideProject): the editor says so beside its name, since a save writes there.
   */
  outsideProject?: boolean;
}

export interface SevState {
  file: SevFileState | null;
  /**
   * The event the editor is on (index in doc.events), or null: its note is edited, its joint picked, and it is
   * the anchor of a Shift-click range. Always one of `selectedEvents` when set.
   */
  selectedEvent: number | null;
  /** Every selected event (indices in doc.events, ascending): what copy, cut, delete and nudge act on. */
  selectedEvents: number[];
  /** Copied events (Ctrl+C); kept when another motion's .sev opens, so they can be pasted there. */
  clipboard: SevEventClipboard | null;
  /** The SE index "add event" uses. */
  selectedSe: number;
  /** Floor/wall attribute 0..7 whose SE variants the editor shows. */
  floor: number;
  /** While set, the next joint picked in the viewport / joint list becomes the selected event's joint. */
  pickingJoint: boolean;
  /** An open drag: edits since `before` are one undo step. */
  transaction: { label: string; before: SevDocument } | null;
  /** Suggested footsteps under review (ghost markers on the event row), each with whether it will be added; null when closed. */
  footsteps: {
    contacts: FootContact[];
    accepted: boolean[];
    /** Contacts left out: they have their footstep already. */ covered?: number;
  } | null;
  /** Bumps on every document change (subscribers that only need "something changed"). */
  revision: number;
  /**
   * The tuner's motion has a .sev beside it that could not be read (not UTF-8 text, say), with the reason: the
   * editor says so instead of "no .sev" (docs/sound-events.md). Cleared by load and close.
   */
  unreadable: { path: string; reason: string } | null;

  /** Shows a SEV: its text (null when the file does not exist yet). Clears the history. */
  load(
    path: string,
    motionName: string,
    text: string | null,
    motion?: SevMotionBinding,
    options?: { outsideProject?: boolean },
  ): void;
  /** The tuner reopened the SEV's own motion (a new document of the same file): edits go on against it. */
  rebind(motion: SevMotionBinding): void;
  close(): void;
  /** Closes the editor and says that the .sev at `path` is there but could not be read, and why. */
  closeUnreadable(path: string, reason: string): void;
  /** Marks the document as not on disk (a restored backup): dirty until saved, even after undoing every edit. */
  markUnsaved(): void;
  /** Records that `doc` is on disk (after a save); variants hidden from SEs saved without them are dropped. */
  markSaved(doc: SevDocument): void;
  /**
   * Replaces the document with the text on disk as one undo step named `label` (the file is then saved as it is on
   * disk, and Undo brings the edits back, unsaved). Returns why it could not (the text has errors), or null.
   */
  reloadAsStep(label: string, text: string): string | null;
  /** Keeps (or, with null, forgets) the floor variants an unticked "Floors" box hid. */
  setHiddenVariants(index: number, variants: string[] | null): void;
  /** Edits the text of a file that does not parse; adopts it as the document once it parses. */
  setBrokenText(text: string): void;

  /** Applies a pure edit as one undo step (or into the open transaction). Returns the error message when the edit is refused. */
  edit(label: string, fn: (doc: SevDocument) => SevDocument): string | null;
  begin(label: string): void;
  /** Renames the open transaction's step (a drag's step says where the drag ended); nothing without one. */
  renameTransaction(label: string): void;
  commit(): void;
  cancel(): void;
  undo(): void;
  redo(): void;

  /** Selects one event (or none). */
  selectEvent(index: number | null): void;
  /** Selects `indices`; `current` (default: the first) becomes the event the editor is on. */
  selectEvents(indices: readonly number[], current?: number | null): void;
  /** Ctrl-click: adds the event to the selection (and goes to it), or takes it out. */
  toggleEventSelected(index: number): void;
  /** Shift-click: selects the events from the current one to `index` in `order` (the order they are shown in); the current one stays the anchor. */
  selectEventRange(index: number, order: readonly number[]): void;
  setClipboard(clip: SevEventClipboard | null): void;
  selectSe(index: number): void;
  setFloor(attribute: number): void;
  setPickingJoint(on: boolean): void;
  setFootsteps(f: SevState['footsteps']): void;
}

/** Undo steps kept per .sev; the oldest step is dropped first. */
export const HISTORY_LIMIT = 500;

export function errorsOf(list: FormatError[]): SevTextError[] {
  return list.map((e) => ({ message: e.detail, line: e.place.line ?? 1, column: e.place.column ?? 1 }));
}

export function isSevDirty(f: SevFileState | null): boolean {
  if (!f) return false;
  if (f.doc === null) return f.brokenTextEdited;
  return f.doc !== f.savedDoc;
}

/** The text saving writes: the serializer's (statements in canonical order, comments kept). */
export function sevTextToSave(f: SevFileState): string | null {
  if (f.doc) return serializeSev(f.doc);
  return null;
}

export function createSevStore() {
  const store = createStore<SevState>()((set, get) => {
    const setFile = (patch: Partial<SevFileState>) => {
      const f = get().file;
      if (!f) return;
      set({ file: { ...f, ...patch }, revision: get().revision + 1 });
      if (patch.doc) keepSelectedSeDefined(patch.doc);
    };
    /**
     * The SE to add stays one the document defines: an edit, undo or redo that takes the chosen SE away moves the
     * choice to the next defined SE (else the last). A redo of "Delete SE 4" left SE 4 chosen, so the toolbar offered
     * an SE that no longer existed and Add said "Define an SE first" beside three defined SEs (renderer review, round 7).
     */
    const keepSelectedSeDefined = (doc: SevDocument) => {
      const se = get().selectedSe;
      if (!doc.ses.length || doc.ses.some((d) => d.index === se)) return;
      const indices = doc.ses.map((d) => d.index).sort((a, b) => a - b);
      set({ selectedSe: indices.find((k) => k > se) ?? indices[indices.length - 1] });
    };
    return {
      file: null,
      selectedEvent: null,
      selectedEvents: [],
      clipboard: null,
      selectedSe: 0,
      floor: 0,
      pickingJoint: false,
      transaction: null,
      footsteps: null,
      revision: 0,
      unreadable: null,

      load(path, motionName, text, motion = { documentId: null, path: null }, options = {}) {
        let doc: SevDocument | null;
        let parseErrors: SevTextError[] = [];
        let textWarnings: SevTextError[] = [];
        let brokenText: string | null = null;
        if (text === null) doc = emptySevDocument(motionName);
        else {
          const parsed = parseSev(text, path);
          textWarnings = errorsOf(parsed.warnings);
          if (parsed.errors.length) {
            doc = null;
            brokenText = text;
            parseErrors = errorsOf(parsed.errors);
          } else doc = parsed.doc;
        }
        dropSevSteps();
        set({
          file: {
            path,
            motionName,
            motion,
            doc,
            savedDoc: doc,
            isNew: text === null,
            brokenText,
            parseErrors,
            textWarnings,
            brokenTextEdited: false,
            past: [],
            future: [],
            hiddenVariants: {},
            ...(options.outsideProject && { outsideProject: true }),
          },
          selectedEvent: null,
          selectedEvents: [],
          selectedSe: doc?.ses.slice().sort((a, b) => a.index - b.index)[0]?.index ?? 0,
          pickingJoint: false,
          transaction: null,
          footsteps: null,
          revision: get().revision + 1,
          unreadable: null,
        });
      },

      rebind(motion) {
        setFile({ motion });
      },

      close() {
        dropSevSteps();
        set({
          file: null,
          selectedEvent: null,
          selectedEvents: [],
          pickingJoint: false,
          transaction: null,
          footsteps: null,
          revision: get().revision + 1,
          unreadable: null,
        });
      },

      closeUnreadable(path, reason) {
        get().close();
        set({ unreadable: { path, reason } });
      },

      markUnsaved() {
        const f = get().file;
        if (!f) return;
        setFile(f.doc ? { savedDoc: null } : { brokenTextEdited: true });
      },

      markSaved(doc) {
        const f = get().file;
        if (!f) return;
        // Variants of an SE saved unticked (or deleted) are gone from the file now: ticking again starts afresh.
        const hiddenVariants: Record<number, string[]> = {};
        for (const [k, v] of Object.entries(f.hiddenVariants)) {
          if (doc.ses.find((d) => d.index === Number(k))?.variants) hiddenVariants[Number(k)] = v;
        }
        // The warnings now are those of the text written (serializeSev(doc), as sevFiles.saveSev writes it).
        const textWarnings = errorsOf(bidiWarnings(serializeSev(doc), 'SEV', f.path));
        setFile({ savedDoc: doc, isNew: false, brokenTextEdited: false, hiddenVariants, textWarnings });
      },

      reloadAsStep(label, text) {
        const f = get().file;
        if (!f?.doc) return 'No sound-event file is open.';
        if (get().transaction) get().commit();
        const parsed = parseSev(text, f.path);
        if (parsed.errors.length)
          return `the file on disk has ${parsed.errors.length} error${parsed.errors.length === 1 ? '' : 's'} (${parsed.errors[0].message})`;
        const { hiddenVariants, back } = stepTo(f.hiddenVariants, label, f.doc, parsed.doc);
        const past = [...f.past, back];
        setFile({
          doc: parsed.doc,
          savedDoc: parsed.doc,
          isNew: false,
          brokenTextEdited: false,
          textWarnings: errorsOf(parsed.warnings),
          past: past.slice(-HISTORY_LIMIT),
          future: [],
          hiddenVariants,
        });
        recordSevStep(label, past.length > HISTORY_LIMIT);
        clampSelection();
        return null;
      },

      setHiddenVariants(index, variants) {
        const f = get().file;
        if (!f) return;
        const hiddenVariants = { ...f.hiddenVariants };
        if (variants) hiddenVariants[index] = variants.slice();
        else delete hiddenVariants[index];
        setFile({ hiddenVariants });
      },

      setBrokenText(text) {
        const f = get().file;
        if (!f || f.doc) return;
        const parsed = parseSev(text, f.path);
        const textWarnings = errorsOf(parsed.warnings);
        if (parsed.errors.length) {
          setFile({ brokenText: text, parseErrors: errorsOf(parsed.errors), textWarnings, brokenTextEdited: true });
          return;
        }
        // Fixed: the text becomes the document, unsaved (the file on disk is still the broken one).
        dropSevSteps();
        setFile({
          doc: parsed.doc,
          savedDoc: null,
          brokenText: null,
          parseErrors: [],
          textWarnings,
          brokenTextEdited: false,
          past: [],
          future: [],
        });
      },

      edit(label, fn) {
        const s = get();
        const f = s.file;
        if (!f?.doc) return 'No sound-event file is open.';
        let next: SevDocument;
        try {
          next = fn(f.doc);
        } catch (e) {
          return e instanceof Error ? e.message.replace(/^SEV \(edit\): /, '') : String(e);
        }
        if (next === f.doc) return null;
        if (s.transaction) {
          setFile({ doc: next });
          return null;
        }
        const { hiddenVariants, back } = stepTo(f.hiddenVariants, label, f.doc, next);
        const past = [...f.past, back];
        setFile({ doc: next, past: past.slice(-HISTORY_LIMIT), future: [], hiddenVariants });
        recordSevStep(label, past.length > HISTORY_LIMIT);
        return null;
      },

      begin(label) {
        const f = get().file;
        if (!f?.doc) return;
        if (get().transaction) get().commit();
        set({ transaction: { label, before: f.doc } });
      },

      renameTransaction(label) {
        const t = get().transaction;
        if (t && t.label !== label) set({ transaction: { ...t, label } });
      },

      commit() {
        const s = get();
        const t = s.transaction;
        if (!t) return;
        set({ transaction: null });
        const f = s.file;
        // Stryker disable next-line OptionalChaining: a drag needs a document (begin), and load and close end it, so the file is never null here
        if (!f?.doc || f.doc === t.before) return;
        const { hiddenVariants, back } = stepTo(f.hiddenVariants, t.label, t.before, f.doc);
        const past = [...f.past, back];
        setFile({ past: past.slice(-HISTORY_LIMIT), future: [], hiddenVariants });
        recordSevStep(t.label, past.length > HISTORY_LIMIT);
      },

      cancel() {
        const t = get().transaction;
        if (!t) return;
        set({ transaction: null });
        setFile({ doc: t.before });
      },

      undo() {
        const f = get().file;
        if (!f?.doc || get().transaction || !f.past.length) return;
        const step = f.past[f.past.length - 1];
        const { hiddenVariants, back } = stepTo(f.hiddenVariants, step.label, f.doc, step.doc, step);
        setFile({ doc: step.doc, past: f.past.slice(0, -1), future: [...f.future, back], hiddenVariants });
        clampSelection();
      },

      redo() {
        const f = get().file;
        if (!f?.doc || get().transaction || !f.future.length) return;
        const step = f.future[f.future.length - 1];
        const { hiddenVariants, back } = stepTo(f.hiddenVariants, step.label, f.doc, step.doc, step);
        setFile({ doc: step.doc, future: f.future.slice(0, -1), past: [...f.past, back], hiddenVariants });
        clampSelection();
      },

      selectEvent(index) {
        // Selecting an event also selects its SE (the table shows its variants; "add event" reuses it).
        const se = index === null ? undefined : get().file?.doc?.events[index]?.se;
        // Picking stays armed only for the event it was armed for.
        const pickingJoint = index !== null && index === get().selectedEvent && get().pickingJoint;
        set({
          selectedEvent: index,
          selectedEvents: sameSelection(get().selectedEvents, index === null ? [] : [index]),
          pickingJoint,
          ...(se === undefined ? {} : { selectedSe: se }),
        });
      },
      selectEvents(indices, current) {
        const n = get().file?.doc?.events.length ?? 0;
        const list = [...new Set(indices)].filter((k) => Number.isInteger(k) && k >= 0 && k < n).sort((a, b) => a - b);
        const on = current !== undefined && current !== null && list.includes(current) ? current : (list[0] ?? null);
        const se = on === null ? undefined : get().file?.doc?.events[on]?.se;
        const pickingJoint = on !== null && on === get().selectedEvent && list.length === 1 && get().pickingJoint;
        set({
          selectedEvent: on,
          selectedEvents: sameSelection(get().selectedEvents, list),
          pickingJoint,
          ...(se === undefined ? {} : { selectedSe: se }),
        });
      },
      toggleEventSelected(index) {
        const s = get();
        if (s.selectedEvents.includes(index)) {
          const rest = s.selectedEvents.filter((k) => k !== index);
          s.selectEvents(rest, s.selectedEvent === index ? (rest[rest.length - 1] ?? null) : s.selectedEvent);
        } else s.selectEvents([...s.selectedEvents, index], index);
      },
      selectEventRange(index, order) {
        const s = get();
        const anchor = s.selectedEvent ?? index;
        const a = order.indexOf(anchor);
        const b = order.indexOf(index);
        if (a < 0 || b < 0) return s.selectEvents([index], index);
        s.selectEvents(order.slice(Math.min(a, b), Math.max(a, b) + 1), anchor);
      },
      setClipboard(clipboard) {
        set({ clipboard });
      },
      selectSe(index) {
        set({ selectedSe: index });
      },
      setFloor(attribute) {
        if (Number.isInteger(attribute) && attribute >= 0 && attribute <= 7) set({ floor: attribute });
      },
      setFootsteps(footsteps) {
        set({ footsteps });
      },
      setPickingJoint(on) {
        set({ pickingJoint: on && get().selectedEvent !== null && get().selectedEvents.length === 1 });
      },
    };

    /** After an undo or redo: selected events that no longer exist are dropped; if none is left, the last event is selected. */
    function clampSelection(): void {
      // Stryker disable next-line OptionalChaining: only undo and redo call this, after checking the file has a document
      const n = get().file?.doc?.events.length ?? 0;
      const s = get();
      const kept = s.selectedEvents.filter((k) => k < n);
      const sel = s.selectedEvent;
      if (kept.length === s.selectedEvents.length && (sel === null || sel < n)) return;
      // Nothing of the selection is left: the last event is selected (the selection stays inside the document), and the
      // SE to add stays the one chosen: undoing an M pressed at the wrong frame selected the last event, another SE's,
      // and the next M added that SE (tried cold, round 20).
      if (!kept.length && sel !== null && sel >= n && n) {
        const se = s.selectedSe;
        s.selectEvent(n - 1);
        if (get().file?.doc?.ses.some((d) => d.index === se)) set({ selectedSe: se });
        return;
      }
      set({ selectedEvents: kept, selectedEvent: sel !== null && sel < n ? sel : (kept[kept.length - 1] ?? null) });
    }
  });
  return store;
}

export const sevStore = createSevStore();

registerSevParticipant({
  undo: () => sevStore.getState().undo(),
  redo: () => sevStore.getState().redo(),
  busy: () => sevStore.getState().transaction !== null,
});

/**
 * The selection as it was when `next` selects the same events: a new array of the same indices rendered everything
 * that reads it (the event track at each click on the pick button, which selects its own row again; docs/
 * architecture.md, "Renderer review, round 12").
 */
function sameSelection(prev: number[], next: number[]): number[] {
  return prev.length === next.length && prev.every((k, i) => k === next[i]) ? prev : next;
}
