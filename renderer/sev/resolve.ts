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
