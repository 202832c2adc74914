/** Minimal argv parsing for the actguy CLI: positionals plus `--flag value` / `--switch`. */
import { BIDI_CONTROL, quoteJson } from '../../shared/errors';

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

/**
 * Parses argv. `valued` lists the options that take a value (`--out x` or `-o x`
 * or `--out=x`); every other `--name` is a switch. Unknown options are refused
 * so a typo never silently changes a build.
 */
export function parseArgs(
  argv: string[],
  valued: string[],
  switches: string[] = [],
  aliases: Record<string, string> = {},
): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      let value: string | undefined;
      const eq = a.indexOf('=');
      if (a.startsWith('--') && eq > 0) {
        value = a.slice(eq + 1);
        a = a.slice(0, eq);
      }
      let name = a.startsWith('--') ? a.slice(2) : a.slice(1);
      name = aliases[name] ?? name;
      if (valued.includes(name)) {
        if (value === undefined) {
          if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`);
          value = argv[++i];
        }
        options.set(name, value);
      } else if (switches.includes(name)) {
        if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
        options.set(name, true);
      } else {
        throw new UsageError(`unknown option ${quoteJson(a)}`);
      }
    } else {
      positionals.push(a);
    }
  }
  refuseHiddenCharacters([...positionals, ...[...options.values()].filter((v) => typeof v === 'string')]);
  return { positionals, options };
}

/** The current folder, or undefined where it was removed (`process.cwd()` throws; absolute paths still work). */
function currentFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

// Every control character but the tab (whitespace that forges nothing).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/**
 * Refuses a path, name or number given on the command line, or a current folder, holding a control character (C0, DEL, C1) or a bidirectional formatting
 * character (docs/security.md, round 11). No name, number or path the CLI takes needs one, and every message prints
 * the paths it was given, or paths beside them, as they are: a received folder `x<ESC>]0;…<BEL>` or a project file
 * named with a line break that a shell's completion typed drove the terminal, or forged a line of `actguy build`'s
 * output (`built 9 motions: …`); a U+202E made a path display as another.
 */
export function refuseHiddenCharacters(argv: readonly string[], cwd: string | undefined = currentFolder()): void {
  const bad = (text: string) => CONTROL.test(text) || BIDI_CONTROL.test(text);
  const what =
    'a control character (a line break, a terminal escape) or a bidirectional formatting character, which messages would show as another text';
  for (const a of argv)
    if (bad(a)) throw new UsageError(`argument ${quoteJson(a, 300)} holds ${what}; rename the file or folder`);
  if (cwd !== undefined && bad(cwd))
    throw new UsageError(`the current folder ${quoteJson(cwd, 300)} holds ${what}; run actguy from another folder`);
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** A decimal number as written on a command line: sign, digits with an optional point, an optional exponent. */
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function numberOption(args: ParsedArgs, name: string, fallback: number): number {
  const v = stringOption(args, name);
  if (v === undefined) return fallback;
  // A decimal number only: Number() reads '' and ' ' as 0 (`--pos-tol "$UNSET"` asked for tolerance 0) and '0x10' as 16.
  const n = DECIMAL.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`option --${name} needs a number, got ${quoteJson(v)}`);
  return n;
}

/** The single positional argument of a command; `what` names it in the usage error ("expected exactly one <what>"). */
export function singlePositional(args: ParsedArgs, what: string): string {
  if (args.positionals.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  return args.positionals[0];
}

/** A valued option the command cannot run without; the usage error shows it with its placeholder ("missing -o OUT.mt3"). */
export function requiredOption(args: ParsedArgs, name: string, placeholder: string): string {
  const v = stringOption(args, name);
  if (!v) throw new UsageError(`missing ${name.length === 1 ? '-' : '--'}${name} ${placeholder}`);
  return v;
}

/** A number option that must be > 0 (a scale, a frame rate). */
export function positiveNumberOption(args: ParsedArgs, name: string, fallback: number): number {
  const v = numberOption(args, name, fallback);
  if (!(v > 0)) throw new UsageError(`--${name} must be > 0, got ${v}`);
  return v;
}

/** `--jobs N`: a whole number of jobs from 1 to 256, or undefined when not given (the caller's default: the cores). */
export function jobsOption(args: ParsedArgs): number | undefined {
  const text = stringOption(args, 'jobs');
  if (text === undefined) return undefined;
  const jobs = Number(text);
  if (!(Number.isInteger(jobs) && jobs >= 1 && jobs <= 256))
    throw new UsageError(`--jobs needs a whole number from 1 to 256, got ${quoteJson(text)}`);
  return jobs;
}
