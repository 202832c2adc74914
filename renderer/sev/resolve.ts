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

/**
 * The floor name as a narrow column shows it beside its SE's own name: "same" for an SE without floor variants (its
 * name is in the SE column beside), the part after the SE's name for a variant that starts with it
 * ("SE_FOOT_L_CONC" of SE_FOOT_L: "…_CONC", the part that differs between floors; cut from the end it read
 * "SE_FOOT…" on every floor), else the whole name.
 */
export function floorNameShort(def: SevSeDefinition, name: string): string {
  if (!def.variants && name === def.name) return 'same';
  return name.length > def.name.length + 1 && name.startsWith(def.name) ? `…${name.slice(def.name.length)}` : name;
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

/** An event's marker on the event row: its centre x and top (px), whether its frame has other events, its name's width. */
export interface MarkerPlace {
  index: number;
  x: number;
  /** Top of the marker. */
  top: number;
  /** Its frame has more events (stacked markers): the name stays on the marker's own line. */
  stacked: boolean;
  /** Width (px) of the name the label shows; null: the marker is not named (a crowded frame names its first only). */
  textWidth: number | null;
}

/** Where an event's name goes on the event row, and how wide it may be before it is cut. */
export interface LabelPlace {
  left: number;
  top: number;
  room: number;
}

/** Geometry of the event row: marker size, name line height, the row's height and width (px). */
export interface TrackGeometry {
  marker: number;
  lineHeight: number;
  height: number;
  width: number;
  /** Least room (px) a name is shown with: one with less is left out and keeps no line from the names after it. */
  minRoom?: number;
}

/**
 * Places each event's name on the event row. A name sits to the right of its marker, up to the next marker or name
 * its line would cross (on any stack level: a lone event's name sits between the lines of a stacked frame). Where
 * that cuts it and the event is alone on its frame, the name moves to the line above or below the markers (starting
 * over its marker), where it reads whole or has more room: at 1280x800 events a few frames apart read "SE..." and
 * "SE_..." side by side. Names are placed from left to right; one never runs over a marker or an earlier name.
 */
export function placeEventLabels(places: readonly MarkerPlace[], g: TrackGeometry): Map<number, LabelPlace> {
  const sorted = [...places].sort((a, b) => a.x - b.x || a.top - b.top);
  const placed: { left: number; right: number; top: number }[] = [];
  const result = new Map<number, LabelPlace>();
  const crosses = (a: number, b: number) => Math.abs(a - b) < g.lineHeight;
  const half = (g.marker * Math.SQRT2) / 2;
  const reach = half - g.marker / 2;
  /** Room from `left` on the line at `top`, or -1 where an earlier name already covers `left`. */
  const roomAt = (self: MarkerPlace, left: number, top: number): number => {
    let end = g.width;
    for (const o of sorted) {
      // Another marker's box (a square turned 45°: half its diagonal each way) against the line [top, top + lineHeight).
      if (o === self || o.top - reach >= top + g.lineHeight || top >= o.top + g.marker + reach) continue;
      if (o.x + half <= left) continue;
      if (o.x - half <= left) return -1;
      end = Math.min(end, o.x - g.marker);
    }
    for (const p of placed) {
      if (!crosses(p.top, top)) continue;
      if (p.left <= left && p.right > left) return -1;
      if (p.left > left) end = Math.min(end, p.left - 4);
    }
    return end - left;
  };
  for (const p of sorted) {
    if (p.textWidth === null) continue;
    const width = p.textWidth;
    const own = { left: p.x + g.marker / 2 + 3, top: p.top - 1 };
    const lanes = p.stacked
      ? [own]
      : [own, { left: p.x - g.marker / 2, top: 1 }, { left: p.x - g.marker / 2, top: g.height - g.lineHeight - 1 }];
    const rooms = lanes.map((l) => roomAt(p, l.left, l.top));
    let pick = rooms.findIndex((r) => r >= width);
    if (pick < 0) pick = rooms.reduce((best, r, k) => (r > rooms[best] ? k : best), 0);
    const room = rooms[pick];
    if (room < Math.max(0, g.minRoom ?? 0)) continue;
    const lane = lanes[pick];
    placed.push({ left: lane.left, right: lane.left + Math.min(room, width), top: lane.top });
    result.set(p.index, { left: lane.left, top: lane.top, room });
  }
  return result;
}
