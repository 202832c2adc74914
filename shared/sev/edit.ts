/**
 * Pure edits of a SEV document for the editor: each returns a new document and
 * never mutates its input (the renderer's undo history keeps old ones).
 * Statements an edit changes lose their file location (it no longer describes
 * them); untouched statements keep theirs. Bad arguments throw a FormatError
 * (kind SEV) saying what is wrong, before anything changes.
 */
import { FormatError, quoteJson } from '../errors';
import {
  SEV_MAX_FRAME,
  SEV_MAX_JOINT,
  SEV_MAX_SE_INDEX,
  SEV_NAME_PATTERN,
  SEV_VARIANT_COUNT,
  type SevComments,
  type SevDocument,
  type SevEvent,
  type SevSeDefinition,
} from './types';

function fail(detail: string): never {
  throw new FormatError('SEV', detail, { where: 'edit' });
}

function checkInt(v: number, what: string, max: number): void {
  if (!Number.isInteger(v) || v < 0 || v > max) fail(`${what} must be an integer 0..${max}, got ${v}`);
}

function checkName(n: string, what: string): void {
  if (!SEV_NAME_PATTERN.test(n)) fail(`invalid ${what} ${quoteJson(n)}: names match [A-Za-z_][A-Za-z0-9_]*`);
}

function checkEvent(ev: { frame: number; se: number; joint: number | null }, doc: SevDocument): void {
  checkInt(ev.frame, 'event frame', SEV_MAX_FRAME);
  checkInt(ev.se, 'SE index', SEV_MAX_SE_INDEX);
  if (ev.joint !== null) checkInt(ev.joint, 'joint', SEV_MAX_JOINT);
  if (!doc.ses.some((d) => d.index === ev.se)) fail(`SE index ${ev.se} is not defined`);
}

function checkEventIndex(doc: SevDocument, eventIndex: number): void {
  if (!Number.isInteger(eventIndex) || eventIndex < 0 || eventIndex >= doc.events.length)
    fail(`no event ${eventIndex} (the document has ${doc.events.length})`);
}

/** Appends an event (document order decides ties between events on one frame). */
export function addEvent(
  doc: SevDocument,
  ev: { frame: number; se: number; joint: number | null; comments?: SevComments },
): SevDocument {
  checkEvent(ev, doc);
  const added: SevEvent = { frame: ev.frame, se: ev.se, joint: ev.joint, comments: ev.comments ?? { leading: [] } };
  return { ...doc, events: [...doc.events, added] };
}

/** Moves event `eventIndex` (document order) to another frame and, optionally, another joint or SE. */
export function moveEvent(
  doc: SevDocument,
  eventIndex: number,
  to: { frame?: number; joint?: number | null; se?: number },
): SevDocument {
  checkEventIndex(doc, eventIndex);
  const old = doc.events[eventIndex];
  const moved: SevEvent = {
    frame: to.frame ?? old.frame,
    se: to.se ?? old.se,
    joint: to.joint === undefined ? old.joint : to.joint,
    comments: old.comments,
  };
  checkEvent(moved, doc);
  return { ...doc, events: doc.events.map((e, k) => (k === eventIndex ? moved : e)) };
}

export function removeEvent(doc: SevDocument, eventIndex: number): SevDocument {
  checkEventIndex(doc, eventIndex);
  return { ...doc, events: doc.events.filter((_, k) => k !== eventIndex) };
}

/**
 * Defines or redefines SE `index`. Redefining keeps the statement's comments;
 * `variants` must hold exactly 8 names or be omitted (then every attribute plays `name`).
 */
export function setSeDefinition(
  doc: SevDocument,
  def: { index: number; name: string; variants?: string[] },
): SevDocument {
  checkInt(def.index, 'SE index', SEV_MAX_SE_INDEX);
  checkName(def.name, 'SE name');
  if (def.variants !== undefined) {
    if (def.variants.length !== SEV_VARIANT_COUNT)
      fail(`variants need exactly ${SEV_VARIANT_COUNT} names, got ${def.variants.length}`);
    def.variants.forEach((v) => checkName(v, 'variant SE name'));
  }
  const old = doc.ses.find((d) => d.index === def.index);
  const next: SevSeDefinition = { index: def.index, name: def.name, comments: old?.comments ?? { leading: [] } };
  if (def.variants) next.variants = def.variants.slice();
  const ses = old ? doc.ses.map((d) => (d === old ? next : d)) : [...doc.ses, next];
  return { ...doc, ses };
}

/**
 * Removes SE `index`. Refuses while events use it unless `removeEvents` is set,
 * in which case those events go too (an event must name a defined SE).
 */
export function removeSeDefinition(
  doc: SevDocument,
  index: number,
  options: { removeEvents?: boolean } = {},
): SevDocument {
  if (!doc.ses.some((d) => d.index === index)) fail(`SE index ${index} is not defined`);
  const users = doc.events.filter((e) => e.se === index).length;
  if (users && !options.removeEvents) fail(`SE index ${index} is used by ${users} event${users === 1 ? '' : 's'}`);
  return { ...doc, ses: doc.ses.filter((d) => d.index !== index), events: doc.events.filter((e) => e.se !== index) };
}

/** Sets (or, with undefined, removes) the `motion` statement. */
export function setMotionName(doc: SevDocument, name: string | undefined): SevDocument {
  if (name === undefined) return { ...doc, motion: undefined };
  checkName(name, 'motion name');
  return { ...doc, motion: { name, comments: doc.motion?.comments ?? { leading: [] } } };
}

/** Replaces the comments of event `eventIndex` (what the editor's note field edits). */
export function setEventComments(doc: SevDocument, eventIndex: number, comments: SevComments): SevDocument {
  checkEventIndex(doc, eventIndex);
  const ev = doc.events[eventIndex];
  return {
    ...doc,
    events: doc.events.map((e, k) =>
      k === eventIndex ? { ...ev, comments: { ...comments, leading: comments.leading.slice() } } : e,
    ),
  };
}

/** The smallest SE index not yet defined (for "add SE" in the editor), or -1 when all 256 are used. */
export function nextFreeSeIndex(doc: SevDocument): number {
  const used = new Set(doc.ses.map((d) => d.index));
  for (let i = 0; i <= SEV_MAX_SE_INDEX; i++) if (!used.has(i)) return i;
  return -1;
}

/** Removes the events at `eventIndices` (document order; duplicates ignored), as one edit. */
export function removeEvents(doc: SevDocument, eventIndices: readonly number[]): SevDocument {
  eventIndices.forEach((k) => checkEventIndex(doc, k));
  const gone = new Set(eventIndices);
  return { ...doc, events: doc.events.filter((_, k) => !gone.has(k)) };
}

/**
 * Moves the events at `eventIndices` by `delta` frames together (a nudge, a group drag). Refused, with the first
 * event that would leave them, when any would land outside frames 0..`lastFrame`: the group keeps its spacing.
 */
export function shiftEvents(
  doc: SevDocument,
  eventIndices: readonly number[],
  delta: number,
  lastFrame: number,
): SevDocument {
  eventIndices.forEach((k) => checkEventIndex(doc, k));
  if (!Number.isInteger(delta)) fail(`a shift is a whole number of frames, got ${delta}`);
  const moving = new Set(eventIndices);
  for (const k of [...moving].sort((a, b) => doc.events[a].frame - doc.events[b].frame)) {
    const to = doc.events[k].frame + delta;
    if (to < 0 || to > lastFrame)
      fail(`the event at frame ${doc.events[k].frame} would move to frame ${to}, outside 0..${lastFrame}`);
  }
  if (delta === 0 || !moving.size) return doc;
  return {
    ...doc,
    events: doc.events.map((e, k) =>
      moving.has(k) ? { frame: e.frame + delta, se: e.se, joint: e.joint, comments: e.comments } : e,
    ),
  };
}
