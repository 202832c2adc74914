import { FormatError } from '../errors';
import type { SeNameTable } from '../se-tables/table';
import { gvStrCode, formatStrCode } from '../strcode';
import type { SevDocument } from '../sev/types';
import { checkedSevMotionName, checkSevAgainstMotion, sevMotionName } from '../sev/validate';
import { compileSevEntry } from './compile';
import { emptySarEntry, type SarEntry } from './types';
import { pushAll } from '../pushAll';

/** A parsed SEV ready to be paired: its file (for messages) and base name (the fallback motion name). */
export interface SevSource {
  file: string;
  /** File name without directory and extension. */
  baseName: string;
  doc: SevDocument;
}

/** What pairing needs from each MAR entry, in archive order. */
export interface MarMotionInfo {
  /** GV_StrCode of the motion. */
  name: number;
  /** N of the MT3: events must lie in 0..N. */
  frameCount: number;
  jointCount: number;
  /** The motion's name when known (project builds), for messages. */
  displayName?: string;
}

export interface SarPackResult {
  /** One entry per MAR motion, in MAR order (empty entries where no SEV pairs). */
  entries: SarEntry[];
  /** For each MAR index, the SEV paired with it. */
  paired: (SevSource | undefined)[];
  /** Every pairing, range and name-resolution error at once. */
  errors: FormatError[];
}

/**
 * Pairs SEVs with MAR entries by motion name hash (the SEV's `motion`
 * statement, else its base name), checks each against its motion's frame and
 * joint counts, and compiles the SAR entries in MAR order. A SEV whose motion
 * is not in the MAR, or two SEVs for one motion, is an error naming the files.
 */
export function packSarEntries(
  mar: readonly MarMotionInfo[],
  sevs: readonly SevSource[],
  table: SeNameTable,
  marFile: string,
): SarPackResult {
  const errors: FormatError[] = [];
  const indexByName = new Map<number, number>();
  mar.forEach((m, i) => {
    if (!indexByName.has(m.name)) indexByName.set(m.name, i);
  });
  const paired: (SevSource | undefined)[] = mar.map(() => undefined);
  for (const sev of sevs) {
    const checked = checkedSevMotionName(sev.doc, sev.baseName, sev.file);
    if ('error' in checked) {
      errors.push(checked.error);
      continue;
    }
    const motion = checked.name;
    const code = gvStrCode(motion);
    const place = sev.doc.motion?.loc
      ? { line: sev.doc.motion.loc.line, column: sev.doc.motion.loc.columns[1] ?? 1 }
      : { where: `motion name ${motion} from the file name` };
    const at = indexByName.get(code);
    if (at === undefined) {
      errors.push(
        new FormatError('SEV', `motion ${motion} (${formatStrCode(code)}) is not in ${marFile}`, place, sev.file),
      );
      continue;
    }
    const prev = paired[at];
    if (prev) {
      errors.push(
        new FormatError(
          'SEV',
          `${prev.file} and ${sev.file} are both for motion ${motion} (${marFile} entry ${at}); give each motion one .sev`,
          place,
          sev.file,
        ),
      );
      continue;
    }
    paired[at] = sev;
  }
  const entries = mar.map((m, i) => {
    const sev = paired[i];
    if (!sev) return emptySarEntry(m.name);
    const shape = {
      name: m.displayName ?? sevMotionName(sev.doc, sev.baseName),
      frameCount: m.frameCount,
      jointCount: m.jointCount,
    };
    pushAll(errors, checkSevAgainstMotion(sev.doc, shape, sev.file));
    const compiled = compileSevEntry(sev.doc, table, m.name, sev.file);
    pushAll(errors, compiled.errors);
    return compiled.entry;
  });
  return { entries, paired, errors };
}
