/**
 * Undo labels of SEV edits, named by what they change, in the tuner's style ("Set rotation tolerance to 3°",
 * "Move key (LeftFoot, frame 30 → 32)"): "Move SE_FOOT_L at frame 40 to frame 42", "Change joint of SE_FOOT_L at
 * frame 12 to LeftFoot", "Move SE footstep_l at frame 3 to frame 5" (a name without SE in front gets it). The names come from files (.sev, .mtn), so each is shown on one line and clipped: a label is read in
 * Edit › Undo and in refusal messages, and one odd name must not fill the menu or break its line.
 */
import type { SevDocument } from '../../shared/sev/types';

/** Longest name a label shows, in characters, the ellipsis included. */
export const LABEL_NAME_MAX = 40;

/**
 * A name from a file as a label shows it: control, format (bidi overrides, zero-width) and line/paragraph
 * separator characters become one space, runs of spaces one, and a name longer than LABEL_NAME_MAX characters
 * (code points) is cut with an ellipsis. An empty result reads "(unnamed)".
 */
export function labelName(name: string): string {
  const clean = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return '(unnamed)';
  const chars = [...clean];
  return chars.length > LABEL_NAME_MAX ? `${chars.slice(0, LABEL_NAME_MAX - 1).join('')}…` : clean;
}

/** An SE by name: "SE_FOOT_L" as it is (it says SE already), "SE footstep_l" for a name that does not. */
export function seNameLabel(name: string): string {
  const shown = labelName(name);
  return /^SE(_|\b)/i.test(shown) ? shown : `SE ${shown}`;
}

/** SE `se` of `doc` by its definition's name (seNameLabel), or "SE 7" when the document does not define it. */
export function seLabel(doc: SevDocument, se: number): string {
  const def = doc.ses.find((d) => d.index === se);
  return def ? seNameLabel(def.name) : `SE ${se}`;
}

/**
 * An SE picker's option, name first: "SE_FOOT_L 0". A focused select finds an option by the first letters typed,
 * read from the label's start, so "0 SE_FOOT_L" could not be found by its name. The same characters as before, so
 * the pickers keep their widths (the event column is sized to its longest option).
 */
export function seOptionLabel(def: { index: number; name: string }): string {
  return `${def.name} ${def.index}`;
}

/** "SE_FOOT_L at frame 12": the event at `index` in `doc`, or "event" when there is none. */
export function eventLabel(doc: SevDocument, index: number): string {
  const ev = doc.events[index];
  return ev ? `${seLabel(doc, ev.se)} at frame ${ev.frame}` : 'event';
}

/** "1 event" / "3 events". */
export function countLabel(n: number): string {
  return `${n} event${n === 1 ? '' : 's'}`;
}

/** Where some events are: "frame 12" when all on one frame, else "frames 12–40" (lowest to highest). */
export function framesLabel(frames: readonly number[]): string {
  const lo = Math.min(...frames);
  const hi = Math.max(...frames);
  return lo === hi ? `frame ${lo}` : `frames ${lo}–${hi}`;
}

/**
 * The events at `indices` of `doc`: one reads "SE_FOOT_L at frame 12", several "3 events (frames 12–40)".
 */
export function eventsLabel(doc: SevDocument, indices: readonly number[]): string {
  if (indices.length === 1) return eventLabel(doc, indices[0]);
  const frames = indices.flatMap((k) => (doc.events[k] ? [doc.events[k].frame] : []));
  return frames.length ? `${countLabel(indices.length)} (${framesLabel(frames)})` : countLabel(indices.length);
}

/** "+3 frames" / "-1 frame". */
export function deltaLabel(delta: number): string {
  return `${delta > 0 ? '+' : ''}${delta} frame${Math.abs(delta) === 1 ? '' : 's'}`;
}

/**
 * The joint "+ Add event at playhead" (M) puts an event of SE `se` on: the joint of that SE's last event in this .sev
 * (the last in document order, where an added event goes; `-` stays no joint), so SE_FOOT_L lands on LeftFoot again
 * whatever the curves selected; an SE with no event yet, or whose last joint the motion lacks, takes the selected
 * joint (`selected` < 0: none). A sound designer pressing M while walk played got SE_FOOT_L on Hips, the joint the
 * curves had selected, and moved each one by hand (tried cold, rounds 19 and 20). `fromSe` says which rule gave it.
 */
export function addJointOf(
  doc: SevDocument,
  se: number,
  selected: number,
  jointCount: number,
): { joint: number | null; fromSe: boolean } {
  for (let i = doc.events.length - 1; i >= 0; i--) {
    const { se: its, joint } = doc.events[i];
    if (its !== se) continue;
    if (joint === null || joint < jointCount) return { joint, fromSe: true };
    break;
  }
  return { joint: selected >= 0 ? selected : null, fromSe: false };
}

/**
 * The joint an event added at the playhead takes, as the Add button's tooltip, its undo step and its message name
 * it: "on joint 0 Hips" (the joint selected in the viewport, curves or timeline), or "with no joint" when none is.
 */
export function addJointLabel(joint: number | null, name: string | undefined): string {
  if (joint === null) return 'with no joint';
  return name === undefined ? `on joint ${joint}` : `on joint ${joint} ${labelName(name)}`;
}

/**
 * Why "+ Add event at playhead" is off in a .sev that defines no SE, and what to do (its tooltip and the empty event
 * list say it): the list said "pick an SE", and the SE picker beside the button was an empty, 20 px select.
 */
export const NO_SE_DEFINED_YET =
  'This .sev defines no SE yet: “+ Add SE” (at the right) defines one, then “Add event at playhead” places it.';

/** The "+ Add event at playhead" tooltip: which SE, which frame and which joint the click will use. */
export function addEventTitle(se: string, frame: number, joint: string, fromSe = false): string {
  const why = fromSe
    ? `the joint of ${se}'s last event (change the new row's Joint for another)`
    : "the joint selected in the viewport, curves or timeline (select another first, or change the new row's Joint)";
  return `Add ${se} at frame ${frame} ${joint}: ${why}. Key: M, also while the motion plays`;
}

/**
 * The SEs an SE picker lists for the text typed in its filter box: those whose option label (seOptionLabel, name
 * then index) holds the text, ignoring case and the spaces around it; every SE for an empty filter. Order kept.
 * A .sev of a large game lists hundreds of SEs: scrolling a drop-down for one was the only way (tried cold, round 9).
 */
export function filterSeDefs<T extends { index: number; name: string }>(defs: readonly T[], text: string): T[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return defs.slice();
  return defs.filter((d) => seOptionLabel(d).toLowerCase().includes(needle));
}
