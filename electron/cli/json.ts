/**
 * `--json` (compress, build, info): one JSON document on stdout, nothing else there (docs/cli.md, "--json"). Results
 * are the command's own; an error is `{"error": {"file", "place", "message"}}` with the exit status the command has
 * without the flag. Warnings, notes and errors still go to stderr as lines too, for a person watching the run.
 */
import { escapeControlsKeepingLines, FormatError } from '../../shared/errors';
import { UsageError } from './args';

/** A problem as the JSON documents give it: the file it is in, the place in that file, and the message as printed. */
export interface JsonProblem {
  file: string | null;
  place: Record<string, unknown> | null;
  message: string;
}

/** Whether argv asks for --json (before a `--`, as --help is looked for). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** A FormatError (or any error) as a JsonProblem: the file and place it names, if any. */
export function jsonProblem(e: unknown, file: string | null = null): JsonProblem {
  if (e instanceof FormatError) {
    const place = Object.keys(e.place).length ? { ...e.place } : null;
    return { file: e.file ?? file, place, message: e.message };
  }
  return { file, place: null, message: e instanceof Error ? e.message : String(e) };
}

/**
 * Prints the one document (stdout). JSON escapes C0 controls only: a name from a file (an MSH node's in a received
 * `.nodes.json`) holding a C1 control (U+009B, a terminal's CSI) or a bidi override reached the terminal raw. Every
 * hidden character (escapeControls) is written as its `\uXXXX` escape, which a JSON reader reads as the same
 * character; the document's own line breaks stay (its strings hold none raw). docs/security.md, round 52.
 */
export function printJson(doc: unknown): void {
  process.stdout.write(`${escapeControlsKeepingLines(JSON.stringify(doc, null, 2))}\n`);
}

/**
 * The error document: the problem, plus the usage line for a usage error. `printed` is the line stderr shows
 * (runCommand's commandError, `actguy NAME: ` first): its message, so that a system error reads as words there too.
 */
export function errorDocument(e: unknown, usage: string, printed: string): Record<string, unknown> {
  const problem = jsonProblem(e);
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof FormatError)) {
    problem.message = printed.split('\n')[0].replace(/^actguy [a-z-]+: /, '');
    if (typeof err?.path === 'string') problem.file = err.path;
  }
  return { error: problem, ...(e instanceof UsageError ? { usage: `actguy ${usage}` } : {}) };
}

/** --json with an option that prints lines on stdout is refused: the document would not be alone there. */
export function refuseJsonWith(
  json: boolean,
  options: ReadonlyMap<string, unknown>,
  printing: readonly string[],
): void {
  if (!json) return;
  for (const name of printing)
    if (options.has(name))
      throw new UsageError(
        `--json prints one JSON document on stdout and --${name} prints lines there too; leave one of them out`,
      );
}
