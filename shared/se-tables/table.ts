import { FormatError } from '../errors';
import { formatSeCode, type SeTableEntry, type SeTableReadResult, type SeTableRejection } from './types';
import { pushAll } from '../pushAll';

/**
 * The merged SE name table: name -> code for compiling SEVs, code -> names for
 * showing a SAR. Built from default.sls and se_define.h (in that order).
 */
export interface SeNameTable {
  /** The files the table was built from, in order (for "in neither file" messages). */
  files: string[];
  byName: ReadonlyMap<string, SeTableEntry>;
  /** Every name with a code, in source order (aliases share a code). */
  byCode: ReadonlyMap<number, SeTableEntry[]>;
  /** Names the tables mention but could not use as SE codes, with the reason. */
  rejected: ReadonlyMap<string, SeTableRejection>;
}

/**
 * Merges table files into one name table. A name defined in two files with
 * different codes is an error naming both places; the same code twice is fine.
 * Errors already found while reading each file are passed through, so the
 * caller gets every table problem in one list.
 */
export function mergeSeTables(sources: SeTableReadResult[]): {
  table: SeNameTable;
  errors: FormatError[];
  warnings: FormatError[];
} {
  const byName = new Map<string, SeTableEntry>();
  const byCode = new Map<number, SeTableEntry[]>();
  const rejected = new Map<string, SeTableRejection>();
  const errors: FormatError[] = [];
  const warnings: FormatError[] = [];
  for (const src of sources) {
    pushAll(errors, src.errors);
    pushAll(warnings, src.warnings);
    for (const e of src.entries) {
      const prev = byName.get(e.name);
      if (prev) {
        if (prev.code !== e.code) {
          errors.push(
            new FormatError(
              src === sources[0] ? 'SLS' : 'SE_DEFINE',
              `${e.name} is ${formatSeCode(e.code)} here but ${formatSeCode(prev.code)} at ${prev.place.file}:${prev.place.line}`,
              { line: e.place.line, column: e.place.column },
              e.place.file,
            ),
          );
        }
        continue;
      }
      byName.set(e.name, e);
      const list = byCode.get(e.code);
      if (list) list.push(e);
      else byCode.set(e.code, [e]);
    }
    for (const r of src.rejected) if (!rejected.has(r.name)) rejected.set(r.name, r);
  }
  return { table: { files: sources.map((s) => s.file), byName, byCode, rejected }, errors, warnings };
}

/** The code of an SE name, or undefined when no table defines it. */
export function seCodeOf(table: SeNameTable, name: string): number | undefined {
  return table.byName.get(name)?.code;
}

/** The first name with this code (tables may alias), or undefined. */
export function seNameOf(table: SeNameTable, code: number): string | undefined {
  return table.byCode.get(code)?.[0].name;
}

/** Why a name has no code, phrased for an error at the SEV line that uses it. */
export function explainUnknownSeName(table: SeNameTable, name: string): string {
  const r = table.rejected.get(name);
  if (r) return `SE name ${name} has no code: ${r.place.file}:${r.place.line} skips it (${r.reason})`;
  const files = table.files.length ? table.files.join(' or ') : 'the SE tables (none given)';
  return `SE name ${name} is not defined in ${files}`;
}
