/** Minimal argv parsing for the actguy CLI: positionals plus `--flag value` / `--switch`. */
import { HIDDEN_CHARACTERS, quoteJson } from '../../shared/errors';

export class UsageError extends Error {}

/** How an option is written on the command line: `-o` for a one-letter name, `--pos-tol` otherwise. */
export const flagName = (name: string): string => (name.length === 1 ? `-${name}` : `--${name}`);

/** Edit distance (insertions, deletions, substitutions, and two neighbours swapped count one each). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * The name among `names` that `typed` most likely meant, for "did you mean": letter case and `_` for `-` ignored, then
 * at most one edit (two for a name of 6 letters or more), else the only name that starts with it; undefined when none
 * is that close.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const norm = (t: string) => t.toLowerCase().replace(/_/g, '-');
  const t = norm(typed);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(t, norm(name));
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best !== undefined && bestDistance <= (best.length >= 6 ? 2 : 1)) return best;
  // A name cut short (`--cache-max` for --cache-max-mb, `export` with two commands starting so: none).
  const longer = names.filter((n) => t.length >= 3 && norm(n).startsWith(t));
  return longer.length === 1 ? longer[0] : undefined;
}

/**
 * Refuses `-` as a path or value: no command reads standard input or writes standard output (the outputs are files
 * written atomically), and taking `-` as a file's name wrote a file called `-` where `-o -` asked for stdout.
 */
function refuseDash(value: string, where: string): void {
  if (value === '-')
    throw new UsageError(
      `${where} is "-": actguy reads and writes named files, not standard input or output; name a file (./- for a file called -)`,
    );
}

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
      for (const p of argv.slice(i + 1)) refuseDash(p, 'an argument');
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
          if (i + 1 >= argv.length) throw new UsageError(`option ${flagName(name)} needs a value`);
          // `-o --quiet` (the value forgotten) took the next option as the value: it wrote a file called --quiet.
          // No value starts with `--` (a negative number has one dash); a file that does is written ./--x.
          if (argv[i + 1].startsWith('--'))
            throw new UsageError(`option ${flagName(name)} needs a value, got the option ${quoteJson(argv[i + 1])}`);
          value = argv[++i];
        }
        refuseDash(value, `the value of ${flagName(name)}`);
        options.set(name, value);
      } else if (switches.includes(name)) {
        if (value !== undefined) throw new UsageError(`option ${flagName(name)} takes no value`);
        options.set(name, true);
      } else {
        const hint = equalsHint(a, valued, switches, aliases);
        if (hint) throw new UsageError(hint);
        const known = [...valued, ...switches, ...Object.keys(aliases)].filter((n) => n.length > 1);
        const meant = a.startsWith('--') ? closestName(name, known) : undefined;
        throw new UsageError(`unknown option ${quoteJson(a)}${meant ? ` (did you mean --${meant}?)` : ''}`);
      }
    } else {
      refuseDash(a, 'an argument');
      positionals.push(a);
    }
  }
  refuseHiddenCharacters([...positionals, ...[...options.values()].filter((v) => typeof v === 'string')]);
  return { positionals, options };
}

/**
 * The hint for a value joined by `=` to an option written with one dash (`-o=out.mt3`, `-pos-tol=0.1`), which
 * parseArgs refuses: getopt reads `-o=x` as the value "=x", so it is neither guessed nor taken as a file named `=x`.
 * Names the spellings accepted (`-o out.mt3` or `--out=out.mt3`; `--pos-tol=0.1` or `--pos-tol 0.1`); undefined for
 * an argument of another shape, or whose name before the `=` is no option of the command.
 */
function equalsHint(
  arg: string,
  valued: readonly string[],
  switches: readonly string[],
  aliases: Record<string, string>,
): string | undefined {
  const m = /^-([^-=][^=]*)=(.*)$/s.exec(arg);
  if (!m) return undefined;
  const [, typed, value] = m;
  const name = aliases[typed] ?? typed;
  const shown = quoteJson(arg);
  if (switches.includes(name)) return `option ${shown}: ${flagName(name)} is a switch and takes no value`;
  if (!valued.includes(name)) return undefined;
  const long = name.length > 1 ? name : Object.keys(aliases).find((k) => aliases[k] === name && k.length > 1);
  const v = value === '' ? 'VALUE' : /^[\w./:@+,-]+$/.test(value) ? value : quoteJson(value);
  const spellings = [`${flagName(name)} ${v}`, ...(long ? [`--${long}=${v}`] : [])];
  return `option ${shown}: ${name.length > 1 ? 'a long option is written with two dashes' : 'a one-letter option takes its value after a space'}; write ${spellings.join(' or ')}`;
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
 * output (`built 9 motions: …`); a U+202E made a path display as another. Since round 54 also a character that
 * displays as nothing or as a line break (HIDDEN_CHARACTERS), as a project's keys are refused.
 */
export function refuseHiddenCharacters(argv: readonly string[], cwd: string | undefined = currentFolder()): void {
  // Beyond the controls and bidi characters, every character a message escapes (a zero-width space or joiner, a soft
  // hyphen, U+2028): a project's keys refuse them (round 54), and a name that holds one reads as another.
  const bad = (text: string) => CONTROL.test(text) || HIDDEN_CHARACTERS.test(text.replaceAll('\t', ' '));
  const what =
    'a control character (a line break, a terminal escape), a bidirectional formatting character or one that displays as nothing (a zero-width space), which messages would show as another text';
  for (const a of argv)
    if (bad(a)) throw new UsageError(`argument ${quoteJson(a, 300)} holds ${what}; rename the file or folder`);
  if (cwd !== undefined && bad(cwd))
    throw new UsageError(`the current folder ${quoteJson(cwd, 300)} holds ${what}; run actguy from another folder`);
}

/**
 * A valued option's text, or undefined when not given. An empty one is refused: `--report "$REPORT"` with the
 * variable unset wrote no report and exited 0, `--cache ""` used the default folder, as if the option were absent.
 */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  if (v === '') throw new UsageError(`option ${flagName(name)} needs a value, got an empty one`);
  return typeof v === 'string' ? v : undefined;
}

/** A decimal number as written on a command line: sign, digits with an optional point, an optional exponent. */
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function numberOption(args: ParsedArgs, name: string, fallback: number): number {
  const v = args.options.get(name);
  if (typeof v !== 'string') return fallback;
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
  if (!v) throw new UsageError(`missing ${flagName(name)} ${placeholder}`);
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
  // Digits only, as --budget: Number() read `0x10` as 16, `1e1` as 10 and ` 2` as 2.
  const jobs = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(Number.isInteger(jobs) && jobs >= 1 && jobs <= 256))
    throw new UsageError(`--jobs needs a whole number from 1 to 256, got ${quoteJson(text)}`);
  return jobs;
}

/**
 * Whether progress may be drawn as a live line (`\r`, ESC [K): stdout is a terminal that understands them. A terminal
 * with TERM=dumb (Emacs' shell, some CI agents that give a pseudo-terminal) showed the escapes as text on every motion;
 * it gets the plain line per motion a log gets.
 */
export function liveTerminal(
  stream: { isTTY?: boolean } = process.stdout,
  env: Record<string, string | undefined> = process.env,
): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** Parses `3=0.2,7=1` into joint -> degrees. */
export function jointOverrides(text: string | undefined): Record<number, number> {
  const out: Record<number, number> = {};
  if (!text) return out;
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*=\s*([0-9.eE+-]+)\s*$/.exec(part);
    const deg = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(deg) || deg < 0)
      throw new UsageError(`--joint-rot-tol entry ${quoteJson(part)} is not JOINT=DEGREES`);
    out[Number(m[1])] = deg;
  }
  return out;
}
