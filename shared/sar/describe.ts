import { formatSeCode } from '../se-tables/types';
import type { SeNameTable } from '../se-tables/table';
import { formatStrCode, gvStrCode } from '../strcode';
import { SAR_NO_CODE, SAR_NO_JOINT, SAR_VARIANTS } from './constants';
import { readSar } from './read';

/** Names that turn hashes and codes back into words for display. */
export interface SarDisplayNames {
  /** Motion names (hashed to match entries) or a hash -> name map. */
  motionNames?: readonly string[] | ReadonlyMap<number, string>;
  /** The merged SE table, for code -> name. */
  seTable?: SeNameTable;
  /** Joint names by index (from the paired motion's skeleton), for event lines. */
  jointNames?: ReadonlyMap<number, readonly string[]>;
}

/**
 * A readable summary of a SAR for `actguy info`: per entry the motion (name
 * when known, else its hash), the SE slots with codes resolved to names, and
 * every event. Throws the reader's FormatError for a bad file.
 */
export function describeSar(bytes: Uint8Array, names: SarDisplayNames = {}): string {
  const sar = readSar(bytes);
  const motionByHash = new Map<number, string>();
  if (names.motionNames instanceof Map) for (const [k, v] of names.motionNames) motionByHash.set(k, v);
  else if (Array.isArray(names.motionNames)) for (const n of names.motionNames) motionByHash.set(gvStrCode(n), n);
  const code = (c: number) => {
    if (c === SAR_NO_CODE) return 'none';
    // tables may give one code several names; show them all rather than guess which one the SEV used
    const all = names.seTable?.byCode.get(c)?.map((e) => e.name) ?? [];
    if (!all.length) return formatSeCode(c);
    return `${all[0]} (${formatSeCode(c)}${all.length > 1 ? `, also ${all.slice(1).join(', ')}` : ''})`;
  };
  const totalEvents = sar.entries.reduce((s, e) => s + e.events.length, 0);
  const lines = [
    `SAR: ${sar.entries.length} entr${sar.entries.length === 1 ? 'y' : 'ies'}, ${totalEvents} events, ${bytes.byteLength} bytes (dataBase ${sar.dataBase})`,
  ];
  sar.entries.forEach((e, i) => {
    const S = e.seCodes.length / SAR_VARIANTS;
    const motion = motionByHash.get(e.name);
    const label = motion ? `${motion} (${formatStrCode(e.name)})` : formatStrCode(e.name);
    lines.push(
      `  [${i}] ${label}: ${e.events.length} event${e.events.length === 1 ? '' : 's'}, ${S} SE slot${S === 1 ? '' : 's'}`,
    );
    for (let s = 0; s < S; s++) {
      const slot = Array.from(e.seCodes.subarray(s * SAR_VARIANTS, (s + 1) * SAR_VARIANTS));
      if (slot.every((c) => c === SAR_NO_CODE)) continue;
      const same = slot.every((c) => c === slot[0]);
      lines.push(same ? `      se ${s}: ${code(slot[0])}` : `      se ${s}: variants ${slot.map(code).join(', ')}`);
    }
    const joints = names.jointNames?.get(e.name);
    for (const ev of e.events) {
      const slot = e.seCodes.subarray(ev.se * SAR_VARIANTS, (ev.se + 1) * SAR_VARIANTS);
      const varies = slot.some((c) => c !== slot[0]);
      const joint =
        ev.joint === SAR_NO_JOINT ? '-' : joints?.[ev.joint] ? `${ev.joint} (${joints[ev.joint]})` : String(ev.joint);
      lines.push(
        `      frame ${String(ev.frame).padStart(5)}  se ${ev.se} ${code(slot[0])}${varies ? ' +7 floor variants' : ''}  joint ${joint}`,
      );
    }
  });
  return lines.join('\n');
}
