import type { FormatError } from '../errors';

/** SE codes are u16; 0xFFFF marks "no SE" in a SAR, so a table may not assign it. */
export const SE_CODE_MAX = 0xfffe;
export const SE_CODE_NONE = 0xffff;

/** Where a table entry was defined: file name and 1-based line/column. */
export interface SeTablePlace {
  file: string;
  line: number;
  column: number;
}

/** One SE name -> code entry from default.sls or se_define.h. */
export interface SeTableEntry {
  name: string;
  /** u16 code, 0..0xFFFE. */
  code: number;
  place: SeTablePlace;
}

/**
 * A name a table mentions that is not an SE code (for example a define whose value
 * is not a u16). Kept so "unknown SE name" messages can say why.
 */
export interface SeTableRejection {
  name: string;
  place: SeTablePlace;
  reason: string;
}

/** What reading one table file gives: entries in file order, errors and warnings (all at once). */
export interface SeTableReadResult {
  file: string;
  entries: SeTableEntry[];
  rejected: SeTableRejection[];
  errors: FormatError[];
  /** Things skipped on purpose (non-integer defines, function-like macros, ...), with their line. */
  warnings: FormatError[];
}

export function formatSeCode(code: number): string {
  return `0x${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
