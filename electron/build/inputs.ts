/** Loading SE tables and SEV files from disk for the CLI commands, collecting every error. */
import { FormatError, MAX_LISTED_PROBLEMS, notListed, type FileKind } from '../../shared/errors';
import { parseSeDefine } from '../../shared/se-tables/define';
import { parseSls } from '../../shared/se-tables/sls';
import { mergeSeTables, type SeNameTable } from '../../shared/se-tables/table';
import type { SeTableReadResult } from '../../shared/se-tables/types';
import { stemOf } from '../../shared/project/paths';
import type { SevSource } from '../../shared/sar/pack';
import { parseSev } from '../../shared/sev/parse';
import { decodeUtf8Text } from '../../shared/sev/text';
import { TEXT_LIMIT } from '../fsutil';
import { readInputFile } from './files';

/** Reads a UTF-8 text file; a read or decode failure becomes a FormatError naming the file. */
export function readTextFile(path: string, kind: FileKind): { text?: string; error?: FormatError } {
  try {
    return { text: decodeUtf8Text(readInputFile(path, TEXT_LIMIT), kind, path) };
  } catch (e) {
    if (e instanceof FormatError) return { error: e };
    return { error: new FormatError(kind, `cannot read: ${(e as Error).message}`, {}, path) };
  }
}

interface LoadedSeTables {
  table: SeNameTable;
  errors: FormatError[];
  warnings: FormatError[];
}

/** Reads and merges default.sls and se_define.h (either may be omitted). */
export function loadSeTables(slsPath?: string, seDefinePath?: string): LoadedSeTables {
  const sources: SeTableReadResult[] = [];
  const errors: FormatError[] = [];
  const load = (
    path: string | undefined,
    kind: 'SLS' | 'SE_DEFINE',
    parse: (t: string, f: string) => SeTableReadResult,
  ) => {
    if (path === undefined) return;
    const r = readTextFile(path, kind);
    if (r.error) errors.push(r.error);
    else sources.push(parse(r.text!, path));
  };
  load(slsPath, 'SLS', parseSls);
  load(seDefinePath, 'SE_DEFINE', parseSeDefine);
  const merged = mergeSeTables(sources);
  return { table: merged.table, errors: [...errors, ...merged.errors], warnings: merged.warnings };
}

/**
 * Reads and parses a SEV. The source holds every statement that parsed, even
 * when others had errors, so callers can still check frames, joints and SE
 * names and report everything wrong with the file in one run.
 */
export function loadSev(path: string): { source?: SevSource; errors: FormatError[]; warnings: FormatError[] } {
  const r = readTextFile(path, 'SEV');
  if (r.error) return { errors: [r.error], warnings: [] };
  const parsed = parseSev(r.text!, path);
  return {
    source: { file: path, baseName: stemOf(path), doc: parsed.doc },
    errors: parsed.errors,
    warnings: parsed.warnings,
  };
}

/**
 * Orders diagnostics the way a reader scans them: files in the order they
 * first appear, then by line and column; errors without a line keep their place
 * at the head of their file's group. Stable.
 */
export function sortDiagnostics(list: readonly FormatError[]): FormatError[] {
  const fileRank = new Map<string, number>();
  for (const e of list) if (!fileRank.has(e.file ?? '')) fileRank.set(e.file ?? '', fileRank.size);
  return list
    .map((e, k) => ({ e, k }))
    .sort(
      (a, b) =>
        fileRank.get(a.e.file ?? '')! - fileRank.get(b.e.file ?? '')! ||
        (a.e.place.line ?? 0) - (b.e.place.line ?? 0) ||
        (a.e.place.column ?? 0) - (b.e.place.column ?? 0) ||
        a.k - b.k,
    )
    .map(({ e }) => e);
}

/**
 * `list` sorted (sortDiagnostics), with at most MAX_LISTED_PROBLEMS of each file listed and the rest counted in one
 * more line at the place of the last one, as the text readers list a file's own problems (docs/limits.md, "What
 * messages quote"). A reader bounds what it finds in its file, but a build finds problems of its own about the files a
 * project names, and names the project file in each: a project of 1,000 motions whose files were missing listed 2,000
 * `cannot read` lines of the one project file. A file's reader's own 101 lines (100 and its count) are left whole.
 */
export function listedProblems(list: readonly FormatError[]): FormatError[] {
  const sorted = sortDiagnostics(list);
  const out: FormatError[] = [];
  for (let at = 0; at < sorted.length;) {
    const file = sorted[at].file;
    let end = at + 1;
    while (end < sorted.length && sorted[end].file === file) end++;
    if (end - at <= MAX_LISTED_PROBLEMS + 1) out.push(...sorted.slice(at, end));
    else {
      out.push(...sorted.slice(at, at + MAX_LISTED_PROBLEMS));
      const last = sorted[end - 1];
      const unlisted = end - at - MAX_LISTED_PROBLEMS;
      out.push(new FormatError(last.kind, notListed(unlisted, 'problems'), last.place, file));
    }
    at = end;
  }
  return out;
}

/** Prints warnings, then errors (one per line, sorted by file and place) to stderr, the way compilers do. */
export function printDiagnostics(errors: readonly FormatError[], warnings: readonly FormatError[] = []): void {
  for (const line of diagnosticLines(errors, warnings)) console.error(line);
}

/** The lines printDiagnostics prints (listedProblems of each list), for a caller that writes them at once. */
export function diagnosticLines(errors: readonly FormatError[], warnings: readonly FormatError[] = []): string[] {
  return [
    ...listedProblems(warnings).map((w) => `warning: ${w.message}`),
    ...listedProblems(errors).map((e) => e.message),
  ];
}
