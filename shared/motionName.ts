/**
 * The motion-name rule (docs/formats.md 2.6): 1-31 ASCII bytes from
 * `[A-Za-z0-9_.-]`, not starting with `.` or `-`. It holds wherever a name is
 * taken (an MT3's file base name or `--name`, the SEV `motion` statement,
 * project motion names and aliases, names files), because GV_StrCode is
 * defined on bytes: a name outside the rule is refused, never hashed as
 * something else.
 */
import { quoteJson } from './errors';

/** The longest motion name, in bytes (MT3/MAR/SAR keep only the hash; 31 leaves room for a NUL in fixed fields). */
export const MOTION_NAME_MAX_BYTES = 31;

/** The rule as a pattern (project.schema.json repeats it; a test keeps them equal). */
export const MOTION_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}$/;

/** The rule in words, for messages. */
export const MOTION_NAME_RULE = '1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -';

/**
 * Why `name` is not a motion name, in words, or undefined when it is one.
 * Names the first offending character (non-ASCII ones by code point) so the
 * user sees what to change.
 */
export function motionNameProblem(name: string): string | undefined {
  if (MOTION_NAME_PATTERN.test(name)) return undefined;
  const shown = quoteJson(name);
  if (name.length === 0) return 'a motion name cannot be empty';
  const bad = /[^A-Za-z0-9_.-]/.exec(name);
  if (bad) {
    const code = name.codePointAt(bad.index)!; // a whole astral character, not half a surrogate pair
    const ch = String.fromCodePoint(code);
    const what =
      code > 0x7e
        ? `the non-ASCII character ${quoteJson(ch)} (U+${code.toString(16).toUpperCase().padStart(4, '0')}); GV_StrCode hashes ASCII bytes`
        : ch === ' ' || ch === '\t'
          ? 'whitespace'
          : code < 0x20 || code === 0x7f
            ? `a control character (0x${code.toString(16).padStart(2, '0')})`
            : `the character ${quoteJson(ch)}`;
    return `motion name ${shown} has ${what} (motion names: ${MOTION_NAME_RULE})`;
  }
  if (name.length > MOTION_NAME_MAX_BYTES) {
    // Its first 32 characters, then the count once: quoteJson's own count is of the JSON text, quotes included, and
    // read "… (62 characters) is 60 characters long" (tried cold, round 5).
    const head = name.length > 32 ? `${quoteJson(name.slice(0, 32))}…` : shown;
    return `motion name ${head} is ${name.length} characters long (motion names: ${MOTION_NAME_RULE})`;
  }
  return `motion name ${shown} starts with ${quoteJson(name[0])} (motion names: ${MOTION_NAME_RULE})`;
}

/** True when `name` follows the motion-name rule. */
export function isMotionName(name: string): boolean {
  return MOTION_NAME_PATTERN.test(name);
}

/**
 * A motion name for a file, unique among `taken`: the file's base name when it
 * follows the rule (`131_01.mtn` -> `131_01`), else that name with every
 * character outside the rule replaced by `_`, a leading `.`/`-` dropped and
 * the length cut to 31; a clash gets `_2`, `_3`. (Suggestions for the app's
 * "Add motion"; the user can rename the motion afterwards.)
 */
export function suggestMotionName(fileBaseName: string, taken: ReadonlySet<string> = new Set()): string {
  let base =
    fileBaseName
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^[.-]+/, '')
      .slice(0, MOTION_NAME_MAX_BYTES) || 'motion';
  if (!isMotionName(base)) base = 'motion';
  let name = base;
  for (let k = 2; taken.has(name); k++) {
    const suffix = `_${k}`;
    name = base.slice(0, MOTION_NAME_MAX_BYTES - suffix.length) + suffix;
  }
  return name;
}
