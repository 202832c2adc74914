/**
 * What the SEV editor shows beside each statement: the SE an event plays on a
 * floor attribute, each name resolved to its code (or why it has none), and
 * the document's problems against its motion. Pure, over shared/ helpers.
 */
import type { FormatError } from '../../shared/errors';
import { explainUnknownSeName, seCodeOf, type SeNameTable } from '../../shared/se-tables/table';
import { formatSeCode } from '../../shared/se-tables/types';
import { checkSevAgainstMotion } from '../../shared/sev/validate';
import type { SevDocument, SevSeDefinition } from '../../shared/sev/types';

/** Floor/wall attribute names used by the sample SEVs (index = attribute). */
export const FLOOR_NAMES = ['concrete', 'grass', 'water', 'metal', 'sand', 'snow', 'wood', 'grate'] as const;

/** One SE name resolved through the tables. */
export interface ResolvedName {
  name: string;
  /** u16 code, or null when no table defines the name. */
  code: number | null;
  /** `0x0200`, or '' when unknown. */
  codeText: string;
  /** Why the name has no code (null when it has one, or when no tables are loaded). */
  error: string | null;
}

export function resolveName(table: SeNameTable | null, name: string): ResolvedName {
  if (!table) return { name, code: null, codeText: '', error: null };
  const code = seCodeOf(table, name);
  if (code !== undefined) return { name, code, codeText: formatSeCode(code), error: null };
  return { name, code: null, codeText: '', error: explainUnknownSeName(table, name) };
}

/** The SE name a definition plays on floor attribute `floor` (its variant, else its base name). */
export function nameOnFloor(def: SevSeDefinition, floor: number): string {
  return def.variants ? def.variants[floor] : def.name;
}

/** Every SE name of the document that no table defines, with the reason, by SE index. */
export function unknownNames(
  doc: SevDocument,
  table: SeNameTable | null,
): { index: number; name: string; error: string }[] {
  if (!table) return [];
  const out: { index: number; name: string; error: string }[] = [];
  for (const def of doc.ses) {
    for (const n of [def.name, ...(def.variants ?? [])]) {
      const r = resolveName(table, n);
      if (r.error && !out.some((o) => o.index === def.index && o.name === n))
        out.push({ index: def.index, name: n, error: r.error });
    }
  }
  return out;
}

/** Frames past the end and joints the motion lacks. */
export function motionProblems(
  doc: SevDocument,
  motion: { name: string; frameCount: number; jointCount: number } | null,
): FormatError[] {
  return motion ? checkSevAgainstMotion(doc, motion) : [];
}

/** Events grouped by frame, with their stack position (so events on one frame are all visible). */
export function stackEvents(doc: SevDocument): { index: number; frame: number; stack: number }[] {
  const seen = new Map<number, number>();
  return doc.events.map((e, index) => {
    const stack = seen.get(e.frame) ?? 0;
    seen.set(e.frame, stack + 1);
    return { index, frame: e.frame, stack };
  });
}

/** An event's marker on the event row: its centre x and the top of its name's line (px). */
export interface MarkerPlace {
  index: number;
  x: number;
  top: number;
}

/**
 * The room (px) each event's name has to the right of its marker on the event row: up to the next marker whose
 * line it would cross, on any stack level (a lone event's name sits between the lines of a stacked frame, so a
 * name cut only at the next marker of its own level ran over the names of the frames after it), else to `width`.
 */
export function eventLabelRooms(
  places: readonly MarkerPlace[],
  marker: number,
  lineHeight: number,
  width: number,
): Map<number, number> {
  const sorted = [...places].sort((a, b) => a.x - b.x);
  const rooms = new Map<number, number>();
  sorted.forEach((p, k) => {
    let end = width;
    for (let j = k + 1; j < sorted.length; j++) {
      const o = sorted[j];
      if (o.x > p.x && Math.abs(o.top - p.top) < lineHeight) {
        end = o.x - marker;
        break;
      }
    }
    rooms.set(p.index, end - (p.x + marker / 2 + 3));
  });
  return rooms;
}
