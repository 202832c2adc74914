/**
 * The SEV editor's edits, named after what they change (events.add,
 * events.move, ...). Each is one undo step through the SEV store; a refused
 * edit (undefined SE, frame past the end) leaves the document as it was and
 * says why in the message bar.
 */
import { preferencesStore } from '../state/preferencesStore';
import {
  addEvent,
  moveEvent,
  nextFreeSeIndex,
  removeEvent,
  removeEvents,
  removeSeDefinition,
  setEventComments,
  setSeDefinition,
  shiftEvents,
} from '../../shared/sev/edit';
import { copySevEvents, pasteSevEvents, type DifferingSe, type PasteOptions } from '../../shared/sev/clipboard';
import { askChoice } from '../app/dialogs';
import { SEV_VARIANT_COUNT, type SevDocument } from '../../shared/sev/types';
import {
  detectFootContacts,
  findFootJoints,
  uncoveredContacts,
  type FootContactOptions,
  type FootSide,
} from '../../shared/sev/footsteps';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { projectStore } from '../project/projectStore';
import { sevStore } from './sevStore';
import { panelStates, projectLayoutStore } from '../project/layout';
import { sevBelongsTo } from './sevBinding';
import {
  addJointLabel,
  addJointOf,
  countLabel,
  deltaLabel,
  eventLabel,
  eventsLabel,
  framesLabel,
  labelName,
  seLabel,
  seNameLabel,
} from './sevLabels';
import { FLOOR_NAMES } from './resolve';

/** A refused SEV edit's warning goes with the next SEV edit that works (sessionStore's MessageRefusal). */
const SEV_REFUSAL = { edit: 'sev' } as const;

/**
 * The message of the last "Add event at playhead": the next add replaces it. Events added while the motion plays
 * (M, or the button, once per step heard) each stacked a two-line message over the viewport being watched, five adds
 * hiding the figure (tried cold, round 8); one message names the latest add, the undo steps name each.
 */
let lastAddMessage: number | null = null;
/** The .sev and undo depth of that add: an undo past it (or another .sev) takes its message away. */
let lastAddAt: { path: string; depth: number } | null = null;

// "Added SE_FOOT_L at frame 32 …" stayed over the viewport after Ctrl+Z took the event away, until it faded, and read
// as if the event were there (tried cold, round 20): it goes with the undo of its add.
sevStore.subscribe(({ file }) => {
  if (lastAddMessage === null || !lastAddAt) return;
  if (file && file.path === lastAddAt.path && file.past.length >= lastAddAt.depth) return;
  sessionStore.getState().dismiss(lastAddMessage);
  lastAddMessage = null;
  lastAddAt = null;
});

/**
 * Whether deleting events `removed` now deletes the event of the last add (the last event, no edit since): its
 * "Added …" message stayed over the viewport after Delete took that event away, as it did after Undo (round 21).
 */
function removesLastAdd(removed: readonly number[]): boolean {
  const file = sevStore.getState().file;
  if (lastAddMessage === null || !lastAddAt || !file?.doc) return false;
  if (file.path !== lastAddAt.path || file.past.length !== lastAddAt.depth) return false;
  return removed.includes(file.doc.events.length - 1);
}

function dismissAddMessage(): void {
  if (lastAddMessage !== null) sessionStore.getState().dismiss(lastAddMessage);
  lastAddMessage = null;
  lastAddAt = null;
}

function apply(label: string, fn: (doc: SevDocument) => SevDocument): boolean {
  const err = sevStore.getState().edit(label, fn);
  if (err) sessionStore.getState().refuse(`${label} refused: ${err}`, SEV_REFUSAL);
  return err === null;
}

/** Last frame of the open motion (events must lie in 0..N), or the SEV limit without one. */
export function lastFrame(): number {
  return documentStore.getState().motion?.frameCount ?? 65535;
}

function clampFrame(f: number): number {
  return Math.max(0, Math.min(lastFrame(), Math.round(f)));
}

/**
 * Selects an event and shows it: the playhead goes to its frame and, when it is attached to a joint
 * (and no joint is being picked), that joint is selected in the viewport, curves and timeline.
 */
export function revealEvent(index: number): void {
  sevStore.getState().selectEvent(index);
  const ev = sevStore.getState().file?.doc?.events[index];
  if (!ev) return;
  sessionStore.getState().setPlayhead(ev.frame);
  const joints = documentStore.getState().motion?.joints.length ?? 0;
  if (ev.joint !== null && ev.joint < joints && !sevStore.getState().pickingJoint)
    sessionStore.getState().select(ev.joint);
}

const count = countLabel;

/** SE `index`'s name field in the SE table takes the keyboard once drawn, its text selected (none in unit tests). */
function focusSeName(index: number): void {
  if (typeof document === 'undefined') return;
  requestAnimationFrame(() => {
    const field = document.querySelector<HTMLInputElement>(`input[aria-label="SE ${index} name"]`);
    field?.focus();
    field?.select();
  });
}

/**
 * After M or + Add event at playhead, the keyboard goes to the event row (when it was on the page or on that button),
 * so Delete, Alt+←/→ and Ctrl+C act on the event just added and selected: on the page Delete removed the curve view's
 * hidden selected keys instead, and the event stayed (tried cold, round 21). A field or another control keeps it.
 */
function keyboardToEventRow(): void {
  if (typeof document === 'undefined') return;
  const active = document.activeElement as HTMLElement | null;
  if (active && active !== document.body && active.dataset.testid !== 'sev-add-event') return;
  document.querySelector<HTMLElement>('[data-testid="sev-track"]')?.focus({ preventScroll: true });
}

/** The name of joint `joint` of the tuner's motion, for a label ("LeftFoot"; "none" for no joint). */
function jointLabel(joint: number | null): string {
  if (joint === null) return 'none';
  const j = documentStore.getState().motion?.joints[joint];
  return j ? labelName(j.name) : `joint ${joint}`;
}

/** "Move SE_FOOT_L from frame 40 to 42": event `index` of `doc` moved to frame `to`. */
function moveLabel(doc: SevDocument, index: number, to: number): string {
  const ev = doc.events[index];
  return ev ? `Move ${seLabel(doc, ev.se)} from frame ${ev.frame} to ${to}` : `Move event to frame ${to}`;
}

/** The open document (labels are built from it before an edit changes it). */
function openDoc(): SevDocument | null {
  return sevStore.getState().file?.doc ?? null;
}

/**
 * Why the open .sev cannot take an edit made against the tuner's motion (it belongs to another motion, or no
 * motion is shown), or null when it can.
 */
function notOwnMotion(): string | null {
  const f = sevStore.getState().file;
  const tuner = documentStore.getState();
  if (!f?.doc) return 'no sound-event file is open';
  if (tuner.motion && sevBelongsTo(f, tuner)) return null;
  return `${f.path.split(/[\\/]/).pop()} belongs to ${f.motionName}, and the tuner shows ${tuner.motion ? tuner.name : 'no motion'}`;
}

/** What M says where the work mode hides the Sound events panel (it added an event there unseen). */
export const SEV_HIDDEN_ADD_MESSAGE =
  'M adds an event at the playhead in the Sound events panel, which this work mode hides: ' +
  'View › Maximize Sound Events (Ctrl+2) or Show All Panels brings it back.';

export const events = {
  /** Adds an event for the selected SE at the playhead, on that SE's last joint or else the selected one (addJointOf). */
  addAtPlayhead(): void {
    const s = sevStore.getState();
    if (!s.file?.doc) return;
    // In a work mode that hides the Sound events panel (Tuning) M added an event no one could see: it says why, as
    // K does in Sound events mode (tried cold, round 8).
    if (panelStates(projectLayoutStore.getState()).sev === 'hidden') {
      const session = sessionStore.getState();
      if (!session.messages.some((m) => m.text === SEV_HIDDEN_ADD_MESSAGE))
        session.notify('info', SEV_HIDDEN_ADD_MESSAGE);
      return;
    }
    events.addAt(s.selectedSe, clampFrame(sessionStore.getState().playhead));
  },
  /**
   * Adds an event for SE `se` at `frame` (M at the playhead, or an SE dropped from the SE table on the event row), on
   * that SE's last joint or else the selected one (addJointOf): one undo step that names the SE, frame and joint.
   */
  addAt(se: number, frame: number): void {
    const s = sevStore.getState();
    const doc = s.file?.doc;
    if (!doc) return;
    const tuner = documentStore.getState();
    if (!tuner.motion || !sevBelongsTo(s.file, tuner)) {
      sessionStore
        .getState()
        .notify(
          'warning',
          `Not added: ${s.file!.path.split(/[\\/]/).pop()} belongs to ${s.file!.motionName}, and the tuner shows ${tuner.motion ? tuner.name : 'no motion'}.`,
        );
      return;
    }
    if (!doc.ses.some((d) => d.index === se)) {
      sessionStore
        .getState()
        .notify('warning', 'Define an SE first (SE definitions › Add SE), then add events for it.');
      return;
    }
    // The SE's own last joint, else the selection elsewhere (often Hips, selected in the curves): named in the toolbar,
    // the undo step and the message, so adding never silently puts the event on a joint the user did not look at.
    const { joint } = addJointOf(doc, se, sessionStore.getState().selectedJoint, tuner.motion.joints.length);
    const on = addJointLabel(joint, joint === null ? undefined : tuner.motion.joints[joint]?.name);
    const label = `Add ${seLabel(doc, se)} at frame ${frame} ${on}`;
    if (apply(label, (d) => addEvent(d, { frame, se, joint }))) {
      sevStore.getState().selectEvent(sevStore.getState().file!.doc!.events.length - 1);
      const session = sessionStore.getState();
      if (lastAddMessage !== null) session.dismiss(lastAddMessage);
      // One short line: at 1280x800 the viewport is 360 px wide side by side, and the four-line message with the
      // why of the joint covered the figure (tried cold, round 10). The why is in the Add button's tooltip; the new
      // row, selected in the event list, shows the joint in its Joint column.
      lastAddMessage = session.notify('info', `Added ${seLabel(doc, se)} at frame ${frame} ${on}.`);
      keyboardToEventRow();
      const file = sevStore.getState().file!;
      lastAddAt = { path: file.path, depth: file.past.length };
    }
  },
  remove(index: number): void {
    const doc = openDoc();
    if (!doc) return;
    const addGoes = removesLastAdd([index]);
    if (apply(`Delete ${eventLabel(doc, index)}`, (d) => removeEvent(d, index))) {
      sevStore.getState().selectEvent(null);
      if (addGoes) dismissAddMessage();
    }
  },
  setFrame(index: number, frame: number): void {
    const doc = openDoc();
    const to = clampFrame(frame);
    if (!doc || doc.events[index]?.frame === to) return;
    apply(moveLabel(doc, index, to), (d) => moveEvent(d, index, { frame: to }));
  },
  setSe(index: number, se: number): void {
    const doc = openDoc();
    if (!doc || doc.events[index]?.se === se) return;
    apply(`Change ${eventLabel(doc, index)} to ${seLabel(doc, se)}`, (d) => moveEvent(d, index, { se }));
  },
  setJoint(index: number, joint: number | null): void {
    const doc = openDoc();
    if (!doc || doc.events[index]?.joint === joint) return;
    apply(`Change joint of ${eventLabel(doc, index)} to ${jointLabel(joint)}`, (d) => moveEvent(d, index, { joint }));
  },
  /** Sets the comment at the end of the event's line (empty text removes it); the lines above it stay. */
  setNote(index: number, note: string): void {
    const ev = sevStore.getState().file?.doc?.events[index];
    if (!ev) return;
    const text = note.replace(/[\r\n]+/g, ' ').trim();
    if ((ev.comments.trailing ?? '').trim() === text) return;
    const what = `note of ${eventLabel(sevStore.getState().file!.doc!, index)}`;
    apply(`${text ? 'Edit' : 'Remove'} ${what}`, (d) =>
      setEventComments(d, index, { leading: ev.comments.leading, trailing: text ? ` ${text}` : undefined }),
    );
  },
  /** Ctrl+C: copies the selected events (with their SEs and joint names) to paste here or into another motion's .sev. */
  copySelected(): boolean {
    const s = sevStore.getState();
    const doc = s.file?.doc;
    const m = documentStore.getState().motion;
    if (!doc || !s.selectedEvents.length) return false;
    const why = notOwnMotion();
    if (why || !m) {
      sessionStore.getState().refuse(`Copy refused: ${why}.`, SEV_REFUSAL);
      return false;
    }
    const clip = copySevEvents(doc, s.selectedEvents, {
      name: s.file!.motionName,
      jointNames: m.joints.map((j) => j.name),
    });
    s.setClipboard(clip);
    const span = clip.events[clip.events.length - 1].offset;
    sessionStore
      .getState()
      .notify(
        'info',
        `Copied ${count(clip.events.length)} of ${clip.sourceMotion}${span ? ` (spanning ${span} frames)` : ''}: Ctrl+V pastes them at the playhead, here or in another motion's .sev.`,
      );
    return true;
  },
  /** Ctrl+X: copies the selected events, then deletes them (one undo step). */
  cutSelected(): void {
    const s = sevStore.getState();
    const what = s.file?.doc ? eventsLabel(s.file.doc, s.selectedEvents) : count(s.selectedEvents.length);
    if (events.copySelected()) events.removeSelected(`Cut ${what}`);
  },
  /**
   * Ctrl+V: pastes the copied events with the earliest at the playhead, keeping their spacing; in another
   * motion their joints are found by name. All or nothing: when one cannot land (no joint of that name, a frame
   * past the end) nothing is pasted and the message lists each such event. The pasted events become the selection.
   */
  pasteAtPlayhead(sameName?: PasteOptions['sameName']): void | Promise<void> {
    const s = sevStore.getState();
    const clip = s.clipboard;
    const doc = s.file?.doc;
    if (!clip || !doc) return;
    const why = notOwnMotion();
    const d = documentStore.getState();
    if (why || !d.motion) return void sessionStore.getState().refuse(`Paste refused: ${why}.`, SEV_REFUSAL);
    const at = clampFrame(sessionStore.getState().playhead);
    const r = pasteSevEvents(
      doc,
      clip,
      at,
      { name: d.name, frameCount: d.motion.frameCount, jointNames: d.motion.joints.map((j) => j.name) },
      sameName === undefined ? {} : { sameName },
    );
    if (!r.ok && 'differing' in r) return askSameNamePaste(r.differing, d.name);
    if (!r.ok) {
      sessionStore
        .getState()
        .refuse(
          `Paste refused, nothing pasted: ${count(clip.events.length)} copied from ${clip.sourceMotion} at frame ${at}:\n${r.problems.map((p) => `• ${p}`).join('\n')}`,
          SEV_REFUSAL,
        );
      return;
    }
    const what =
      clip.events.length === 1 ? eventLabel(r.doc, r.added[0]) : `${count(clip.events.length)} at frame ${at}`;
    if (!apply(`Paste ${what}`, () => r.doc)) return;
    sevStore.getState().selectEvents(r.added, r.added[0]);
    sessionStore.getState().setPlayhead(at);
    if (r.definedSes.length)
      sessionStore
        .getState()
        .notify(
          'info',
          `Pasted ${count(clip.events.length)} from ${clip.sourceMotion}; defined ${r.definedSes.map((x) => `SE ${x.index} ${x.name}`).join(', ')} (not in this .sev before).`,
        );
  },
  /** Delete: removes every selected event as one undo step. */
  removeSelected(label?: string): void {
    const sel = sevStore.getState().selectedEvents;
    const doc = openDoc();
    if (!sel.length || !doc) return;
    const addGoes = removesLastAdd(sel);
    if (apply(label ?? `Delete ${eventsLabel(doc, sel)}`, (d) => removeEvents(d, sel))) {
      sevStore.getState().selectEvent(null);
      if (addGoes) dismissAddMessage();
    }
  },
  /** Alt+Left / Alt+Right: moves the selected events by `delta` frames together; refused if one would leave 0..N. */
  nudgeSelected(delta: number): void {
    const sel = sevStore.getState().selectedEvents;
    if (!sel.length) return;
    const why = notOwnMotion();
    if (why) return void sessionStore.getState().refuse(`Nudge refused: ${why}.`, SEV_REFUSAL);
    const doc = openDoc()!;
    const one = sel.length === 1 ? doc.events[sel[0]] : undefined;
    const what = one
      ? `${seLabel(doc, one.se)} from frame ${one.frame} to ${one.frame + delta}`
      : `${count(sel.length)} ${deltaLabel(delta)}`;
    if (apply(`Nudge ${what}`, (d) => shiftEvents(d, sel, delta, lastFrame()))) {
      const f = sevStore.getState().file?.doc?.events[sevStore.getState().selectedEvent ?? sel[0]]?.frame;
      if (f !== undefined) sessionStore.getState().setPlayhead(f);
    }
  },
  /** Ctrl+A in the event list or row: selects every event. */
  selectAll(): void {
    const n = sevStore.getState().file?.doc?.events.length ?? 0;
    sevStore.getState().selectEvents(
      Array.from({ length: n }, (_, k) => k),
      sevStore.getState().selectedEvent,
    );
  },
  /** During a group drag (inside begin/commit): moves the selected events by `delta` frames from where the drag began, clamped to 0..N. */
  dragSelectionBy(delta: number): void {
    const s = sevStore.getState();
    const before = s.transaction?.before;
    const sel = s.selectedEvents;
    if (!before || !sel.length) return;
    const frames = sel.map((k) => before.events[k]?.frame ?? 0);
    const d = Math.max(-Math.min(...frames), Math.min(lastFrame() - Math.max(...frames), Math.round(delta)));
    const now = s.file?.doc?.events[sel[0]]?.frame;
    if (now === frames[0] + d) return;
    // The drag's undo step says where it ends: each move renames it.
    const label = `Move ${count(sel.length)} ${deltaLabel(d)}`;
    if (!s.edit(label, () => shiftEvents(before, sel, d, lastFrame()))) s.renameTransaction(label);
  },
  /** During a drag (inside begin/commit): moves without a message per step. */
  dragTo(index: number, frame: number): void {
    const s = sevStore.getState();
    const before = s.transaction?.before;
    const doc = before ?? s.file?.doc;
    if (!doc) return;
    const to = clampFrame(frame);
    const label = moveLabel(doc, index, to);
    // Back where the drag began: the document it began with, so the drag makes no (empty) undo step.
    const move = (d: SevDocument) =>
      d.events[index]?.frame === to
        ? d
        : before?.events[index]?.frame === to
          ? before
          : moveEvent(d, index, { frame: to });
    if (!s.edit(label, move)) s.renameTransaction(label);
  },
};

export const ses = {
  /**
   * Adds an SE at the smallest free index, named after the first table name the .sev does not define yet (or SE_NEW,
   * SE_NEW_2, …), and hands the keyboard to its name, selected: typing names it. It was named after the first table
   * name each time, so a second + Add SE defined that name twice, and the keyboard stayed on the button.
   */
  add(): void {
    const doc = sevStore.getState().file?.doc;
    if (!doc) return;
    const index = nextFreeSeIndex(doc);
    if (index < 0) return void sessionStore.getState().notify('warning', 'All 256 SE indices are defined.');
    const defined = new Set(doc.ses.map((d) => d.name));
    let fresh = 'SE_NEW';
    for (let n = 2; defined.has(fresh); n++) fresh = `SE_NEW_${n}`;
    const name = projectStore.getState().tables?.names.find((n) => !defined.has(n)) ?? fresh;
    if (apply(`Define SE ${index} as ${labelName(name)}`, (d) => setSeDefinition(d, { index, name }))) {
      sevStore.getState().selectSe(index);
      focusSeName(index);
    }
  },
  rename(index: number, name: string): void {
    const def = sevStore.getState().file?.doc?.ses.find((d) => d.index === index);
    if (!def || def.name === name) return;
    apply(`Rename ${seNameLabel(def.name)} to ${labelName(name)}`, (d) =>
      setSeDefinition(d, { index, name, variants: def.variants }),
    );
  },
  setVariant(index: number, floor: number, name: string): void {
    const def = sevStore.getState().file?.doc?.ses.find((d) => d.index === index);
    if (!def?.variants || def.variants[floor] === name) return;
    const variants = def.variants.map((v, k) => (k === floor ? name : v));
    apply(`Set ${seNameLabel(def.name)} floor ${floor} (${FLOOR_NAMES[floor] ?? '?'}) to ${labelName(name)}`, (d) =>
      setSeDefinition(d, { index, name: def.name, variants }),
    );
  },
  /**
   * Turns per-floor variants off (they are kept aside, so turning them on again brings them back until the file
   * is saved without them or the SE is deleted, also after an Undo of that) or on (the kept variants, else every floor starts as the base SE).
   */
  setVariantsOn(index: number, on: boolean): void {
    const file = sevStore.getState().file;
    const def = file?.doc?.ses.find((d) => d.index === index);
    if (!file || !def || !!def.variants === on) return;
    if (!on) {
      const hidden = def.variants!;
      if (
        apply(`Remove floor variants of ${seNameLabel(def.name)}`, (d) =>
          setSeDefinition(d, { index, name: def.name, variants: undefined }),
        )
      )
        sevStore.getState().setHiddenVariants(index, hidden);
      return;
    }
    // The kept variants stay kept while shown: an Undo of this step hides them again, and ticking the box after that
    // must bring them back as this tick did, not start every floor afresh (the next untick replaces them).
    const kept = file.hiddenVariants[index];
    const variants = kept ?? Array.from({ length: SEV_VARIANT_COUNT }, () => def.name);
    apply(`${kept ? 'Restore floor variants of' : 'Add floor variants to'} ${seNameLabel(def.name)}`, (d) =>
      setSeDefinition(d, { index, name: def.name, variants }),
    );
  },
  /**
   * Deletes an SE definition. Its events go with it, so when it has any the user is asked first, told how many
   * events of which motion at which frames would go (Cancel is focused; Escape cancels); the deletion is then one
   * named undo step. Resolves true when the SE was deleted.
   */
  async remove(index: number): Promise<boolean> {
    const file = sevStore.getState().file;
    const doc = file?.doc;
    const def = doc?.ses.find((d) => d.index === index);
    if (!file || !doc || !def) return false;
    const frames = doc.events
      .filter((e) => e.se === index)
      .map((e) => e.frame)
      .sort((a, b) => a - b);
    const users = frames.length;
    const label = users ? `Delete SE and ${users} event${users === 1 ? '' : 's'}` : 'Delete SE';
    if (users) {
      const pick = await askChoice({
        title: `Delete ${def.name} and its events?`,
        text: seDeletionText(def.name, index, file.motionName, frames),
        buttons: [
          { id: 'cancel', label: 'Cancel' },
          { id: 'delete', label },
        ],
      });
      // The question names these events: if the .sev changed meanwhile, nothing is deleted.
      if (pick !== 'delete' || sevStore.getState().file?.doc !== doc) return false;
    }
    const step = `Delete ${seNameLabel(def.name)}${users ? ` and ${count(users)}` : ''}`;
    if (!apply(step, (d) => removeSeDefinition(d, index, { removeEvents: true }))) return false;
    sevStore.getState().selectEvent(null);
    return true;
  },
};

/** Frames a deletion question lists before it counts the rest. */
const LISTED_FRAMES = 12;

/** What deleting SE `index` takes with it, in words: the motion, how many events, at which frames. */
export function seDeletionText(name: string, index: number, motionName: string, frames: readonly number[]): string {
  const n = frames.length;
  const listed = frames.slice(0, LISTED_FRAMES).join(', ');
  const more = n > LISTED_FRAMES ? ` and ${n - LISTED_FRAMES} more` : '';
  return (
    `${name} (SE ${index}) plays ${n === 1 ? 'one event' : `${n} events`} of ${motionName}, ` +
    `on frame${n === 1 ? '' : 's'} ${listed}${more}. Deleting the SE deletes ${n === 1 ? 'that event' : `all ${n}`} too. ` +
    'Edit › Undo (Ctrl+Z) brings them back in one step.'
  );
}

/** The SE a footstep of `side` plays: an SE named SE_FOOT_L / SE_FOOT_R (or starting so), else null. */
function footstepSe(doc: SevDocument, side: FootSide): number | null {
  const want = `SE_FOOT_${side}`;
  const def = doc.ses.find((d) => d.name === want) ?? doc.ses.find((d) => d.name.startsWith(want));
  return def ? def.index : null;
}

export const footsteps = {
  /**
   * Detects foot contacts in the tuner's motion and shows the ones without their footstep yet as ghost markers, all
   * accepted. Without `options`: the detection settings as last used (a preference, kept across restarts).
   */
  suggest(options: Partial<FootContactOptions> = preferencesStore.getState().footContactOptions): void {
    const m = documentStore.getState().motion;
    if (!m) return;
    // Contacts that already have their footstep (same SE and joint within 2 frames) are not proposed again.
    const doc = sevStore.getState().file?.doc;
    const found = detectFootContacts(m, options);
    const contacts = doc
      ? uncoveredContacts(found, doc.events, { L: footstepSe(doc, 'L'), R: footstepSe(doc, 'R') })
      : found;
    if (!findFootJoints(m.joints).length) {
      sessionStore
        .getState()
        .notify(
          'warning',
          'Suggest footsteps: this motion has no joint named LeftFoot/RightFoot (or l_foot, foot_r, …).',
        );
      return;
    }
    sevStore
      .getState()
      .setFootsteps({ contacts, accepted: contacts.map(() => true), covered: found.length - contacts.length });
  },
  setAccepted(index: number, on: boolean): void {
    const f = sevStore.getState().footsteps;
    if (f) sevStore.getState().setFootsteps({ ...f, accepted: f.accepted.map((a, k) => (k === index ? on : a)) });
  },
  setAll(on: boolean): void {
    const f = sevStore.getState().footsteps;
    if (f) sevStore.getState().setFootsteps({ ...f, accepted: f.accepted.map(() => on) });
  },
  close(): void {
    sevStore.getState().setFootsteps(null);
  },
  /**
   * Adds the accepted footsteps as one undo step: SE_FOOT_L / SE_FOOT_R events on the foot joint (the SEs are
   * defined first when the .sev lacks them); a footstep that already has its event on that frame is skipped.
   */
  accept(): void {
    const f = sevStore.getState().footsteps;
    const doc = sevStore.getState().file?.doc;
    if (!f || !doc) return;
    const chosen = f.contacts.filter((_, k) => f.accepted[k]);
    if (!chosen.length) return;
    const where = framesLabel(chosen.map((c) => c.frame));
    const ok = apply(`Add ${chosen.length} footstep${chosen.length === 1 ? '' : 's'} (${where})`, (d) => {
      let next = d;
      const seOf: Record<FootSide, number | null> = { L: footstepSe(next, 'L'), R: footstepSe(next, 'R') };
      for (const side of ['L', 'R'] as const) {
        if (seOf[side] !== null || !chosen.some((c) => c.side === side)) continue;
        const index = nextFreeSeIndex(next);
        if (index < 0) throw new Error('all 256 SE indices are defined');
        next = setSeDefinition(next, { index, name: `SE_FOOT_${side}` });
        seOf[side] = index;
      }
      for (const c of chosen) {
        const se = seOf[c.side]!;
        if (next.events.some((e) => e.frame === c.frame && e.se === se)) continue;
        next = addEvent(next, { frame: c.frame, se, joint: c.joint });
      }
      return next;
    });
    if (ok) sevStore.getState().setFootsteps(null);
  },
};

/**
 * The target defines a copied SE name with other floor variants: asks whether the pasted events play through the
 * target's definition (one SE per sound; the usual answer) or through a second definition of the name.
 */
async function askSameNamePaste(differing: DifferingSe[], motionName: string): Promise<void> {
  const variants = (v: string[] | undefined) => (v?.length ? `${v.length} floor variants` : 'no floor variants');
  const lines = differing.map(
    (x) =>
      `• ${x.name}: SE ${x.target.index} here has ${variants(x.target.variants)}; the copied events use ${variants(x.copied)}`,
  );
  const pick = await askChoice({
    title: 'Paste sound events',
    text: `${motionName} already defines ${differing.length === 1 ? 'this SE name' : 'these SE names'} with other floor variants:\n${lines.join('\n')}`,
    buttons: [
      { id: 'reuse', label: `Use ${motionName}'s definition${differing.length === 1 ? '' : 's'}`, primary: true },
      { id: 'define', label: 'Define again with the copied variants' },
      { id: 'cancel', label: 'Cancel' },
    ],
  });
  if (pick === 'reuse' || pick === 'define') await events.pasteAtPlayhead(pick);
}
