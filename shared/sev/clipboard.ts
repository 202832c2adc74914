/**
 * Copy and paste of sound events, also between motions: what a copy keeps
 * (each event's offset from the earliest copied frame, its SE by definition,
 * its joint by name, its note) and how a paste lands in another document
 * (at a frame, joints mapped by name, SEs matched by name and variants).
 *
 * A paste is all or nothing: events copied together (a heel strike and its
 * cloth rustle) keep their timing, so when one of them cannot land (its joint
 * is not in the target motion, or its frame would fall past the end) nothing
 * is pasted and the refusal lists every such event and why. Pure.
 */
import { FormatError } from '../errors';
import { addEvent, nextFreeSeIndex, setSeDefinition } from './edit';
import type { SevComments, SevDocument, SevSeDefinition } from './types';

/** One copied event. */
export interface CopiedSevEvent {
  /** Frames after the earliest copied event (0 for it). */
  offset: number;
  /** The SE it plays, as defined where it was copied (index, name, floor variants). */
  se: { index: number; name: string; variants?: string[] };
  /** Its joint (index and name in the source motion), or null for `-`. `name` is null when the source motion lacks that joint. */
  joint: { index: number; name: string | null } | null;
  /** The note at the end of its line. */
  trailing?: string;
}

/** What Copy keeps: the events in frame order (document order on one frame). */
export interface SevEventClipboard {
  /** The motion they were copied from (for messages). */
  sourceMotion: string;
  events: CopiedSevEvent[];
}

/** The motion a paste lands in. */
export interface PasteTarget {
  name: string;
  /** Last frame N: events lie in 0..N. */
  frameCount: number;
  /** Joint names by index. */
  jointNames: readonly string[];
}

export type PasteResult =
  | {
      ok: true;
      doc: SevDocument;
      /** Indices of the pasted events in `doc.events`, in clipboard order. */
      added: number[];
      /** SEs the paste had to define (the target had none with that name and those variants). */
      definedSes: { index: number; name: string }[];
    }
  | {
      ok: false;
      /** One line per event that cannot land, and why; plus what to do. */
      problems: string[];
    }
  | {
      ok: false;
      /** Nothing pasted yet: the target defines these SE names with other floor variants; paste again with `sameName`. */
      differing: DifferingSe[];
      problems: string[];
    };

/** An SE the target already defines under the copied name, with other floor variants than the copied one. */
export interface DifferingSe {
  name: string;
  /** The target's definition (its index and variants). */
  target: { index: number; variants?: string[] };
  /** The copied definition's variants. */
  copied?: string[];
}

export interface PasteOptions {
  /**
   * When the target defines a copied SE name with other floor variants: 'reuse' plays the pasted events through
   * the target's definition, 'define' adds a definition with the copied variants. Unset: the paste asks (returns
   * `differing`). A name defined alike is always reused, so a paste never adds a second SE of one name silently.
   */
  sameName?: 'reuse' | 'define';
}

/** Copies the events at `eventIndices` of `doc`, whose motion names its joints `jointNames`. */
export function copySevEvents(
  doc: SevDocument,
  eventIndices: readonly number[],
  source: { name: string; jointNames: readonly string[] },
): SevEventClipboard {
  const picked = [...new Set(eventIndices)]
    .filter((k) => k >= 0 && k < doc.events.length)
    .sort((a, b) => doc.events[a].frame - doc.events[b].frame || a - b);
  const first = picked.length ? doc.events[picked[0]].frame : 0;
  const events = picked.map((k): CopiedSevEvent => {
    const ev = doc.events[k];
    const def = doc.ses.find((d) => d.index === ev.se);
    if (!def)
      throw new FormatError('SEV', `event ${k} (frame ${ev.frame}) uses SE index ${ev.se}, which is not defined`, {
        where: 'copy',
      });
    return {
      offset: ev.frame - first,
      se: { index: def.index, name: def.name, ...(def.variants ? { variants: def.variants.slice() } : {}) },
      joint: ev.joint === null ? null : { index: ev.joint, name: source.jointNames[ev.joint] ?? null },
      ...(ev.comments.trailing !== undefined ? { trailing: ev.comments.trailing } : {}),
    };
  });
  return { sourceMotion: source.name, events };
}

function sameSe(def: SevSeDefinition, se: CopiedSevEvent['se']): boolean {
  if (def.name !== se.name || !!def.variants !== !!se.variants) return false;
  return !def.variants || def.variants.every((v, k) => v === se.variants![k]);
}

/** Text of one copied event for messages: `+12 SE_FOOT_L on LeftFoot`. */
function describe(e: CopiedSevEvent): string {
  const joint = e.joint === null ? 'no joint' : (e.joint.name ?? `joint ${e.joint.index}`);
  return `${e.se.name} on ${joint}`;
}

/**
 * Pastes `clip` into `doc` with its earliest event at frame `at`: each event keeps its offset, its joint is
 * the target's joint of the same name, and its SE the target's SE of the same name and variants (defined at
 * the copied index when that is free, else at the smallest free one). A name the target defines with other
 * variants is reused or defined again as `options.sameName` says, else the paste asks (`differing`).
 * All or nothing (see the file comment).
 */
export function pasteSevEvents(
  doc: SevDocument,
  clip: SevEventClipboard,
  at: number,
  target: PasteTarget,
  options: PasteOptions = {},
): PasteResult {
  if (!clip.events.length) return { ok: false, problems: ['nothing was copied'] };
  const problems: string[] = [];
  const span = Math.max(...clip.events.map((e) => e.offset));
  for (const e of clip.events) {
    const frame = at + e.offset;
    const why: string[] = [];
    if (frame > target.frameCount)
      why.push(`frame ${frame} is past the end of ${target.name} (0..${target.frameCount})`);
    if (e.joint !== null) {
      if (e.joint.name === null)
        why.push(
          `its joint ${e.joint.index} does not exist in ${clip.sourceMotion}, so it has no name to find in ${target.name}`,
        );
      else if (!target.jointNames.includes(e.joint.name)) why.push(`${target.name} has no joint named ${e.joint.name}`);
    }
    if (why.length) problems.push(`event at frame ${frame} (${describe(e)}): ${why.join('; ')}`);
  }
  if (problems.length) {
    if (at + span > target.frameCount)
      problems.push(
        span > target.frameCount
          ? `the copied events span ${span} frames, more than ${target.name} has (0..${target.frameCount})`
          : `with the playhead at frame ${target.frameCount - span} or earlier they all fit`,
      );
    return { ok: false, problems };
  }

  if (options.sameName === undefined) {
    const differing: DifferingSe[] = [];
    for (const e of clip.events) {
      if (doc.ses.some((d) => sameSe(d, e.se)) || differing.some((x) => x.name === e.se.name)) continue;
      const named = doc.ses.find((d) => d.name === e.se.name);
      if (named)
        differing.push({
          name: e.se.name,
          target: { index: named.index, ...(named.variants ? { variants: named.variants.slice() } : {}) },
          ...(e.se.variants ? { copied: e.se.variants.slice() } : {}),
        });
    }
    if (differing.length)
      return {
        ok: false,
        differing,
        problems: differing.map(
          (x) =>
            `${target.name} defines ${x.name} as SE ${x.target.index} with ${x.target.variants?.length ?? 'no'} floor variants; the copied events use ${x.copied?.length ?? 'no'} floor variants`,
        ),
      };
  }

  let next = doc;
  const seOf = new Map<number, number>();
  const definedSes: { index: number; name: string }[] = [];
  for (const e of clip.events) {
    if (seOf.has(e.se.index)) continue;
    const match =
      next.ses.find((d) => d.index === e.se.index && sameSe(d, e.se)) ??
      next.ses.find((d) => sameSe(d, e.se)) ??
      (options.sameName === 'reuse' ? next.ses.find((d) => d.name === e.se.name) : undefined);
    if (match) {
      seOf.set(e.se.index, match.index);
      continue;
    }
    const index = next.ses.some((d) => d.index === e.se.index) ? nextFreeSeIndex(next) : e.se.index;
    if (index < 0) return { ok: false, problems: [`${e.se.name} would need a new SE index, and all 256 are defined`] };
    next = setSeDefinition(next, { index, name: e.se.name, variants: e.se.variants });
    seOf.set(e.se.index, index);
    definedSes.push({ index, name: e.se.name });
  }
  const added: number[] = [];
  for (const e of clip.events) {
    const comments: SevComments = { leading: [], ...(e.trailing !== undefined ? { trailing: e.trailing } : {}) };
    const joint = e.joint === null ? null : target.jointNames.indexOf(e.joint.name!);
    next = addEvent(next, { frame: at + e.offset, se: seOf.get(e.se.index)!, joint, comments });
    added.push(next.events.length - 1);
  }
  return { ok: true, doc: next, added, definedSes };
}
