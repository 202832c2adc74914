import { FormatError } from '../errors';
import { explainUnknownSeName, seCodeOf, type SeNameTable } from '../se-tables/table';
import type { SevDocument } from '../sev/types';
import { SAR_NO_CODE, SAR_NO_JOINT, SAR_VARIANTS } from './constants';
import type { SarEntry } from './types';

/**
 * Compiles one SEV into its SAR entry (docs/formats.md 6): SE names become codes
 * through the merged table (variants per floor attribute, else the base code
 * 8 times; undefined indices 0xFFFF x 8), events sorted by frame then file
 * order, `-` joints as 0xFF. Every unknown name is an error at its SEV token.
 */
export function compileSevEntry(
  doc: SevDocument,
  table: SeNameTable,
  name: number,
  file?: string,
): { entry: SarEntry; errors: FormatError[] } {
  const errors: FormatError[] = [];
  const S = doc.ses.reduce((m, d) => Math.max(m, d.index + 1), 0);
  const seCodes = new Uint16Array(S * SAR_VARIANTS).fill(SAR_NO_CODE);
  for (const def of doc.ses) {
    const resolve = (n: string, token: number): number => {
      const code = seCodeOf(table, n);
      if (code === undefined) {
        const place = def.loc
          ? { line: def.loc.line, column: def.loc.columns[token] ?? def.loc.columns[0] }
          : { where: `se ${def.index}` };
        errors.push(new FormatError('SEV', explainUnknownSeName(table, n), place, file));
        return SAR_NO_CODE;
      }
      return code;
    };
    const base = resolve(def.name, 2);
    for (let a = 0; a < SAR_VARIANTS; a++) {
      // tokens: se <index> <name> variants <v0> ... <v7>
      seCodes[def.index * SAR_VARIANTS + a] = def.variants ? resolve(def.variants[a], 4 + a) : base;
    }
  }
  const events = doc.events
    .map((ev, k) => ({ ev, k }))
    .sort((a, b) => a.ev.frame - b.ev.frame || a.k - b.k)
    .map(({ ev }) => ({ frame: ev.frame, se: ev.se, joint: ev.joint === null ? SAR_NO_JOINT : ev.joint }));
  return { entry: { name, seCodes, events }, errors };
}
