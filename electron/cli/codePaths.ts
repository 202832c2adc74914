/**
 * The paths through a command that this run took, by name (for `build`: `full`, `up-to-date`, `carried`,
 * `few-changed`; commands/build.ts notes them). The commands chunk's code cache names the paths it was made on and is
 * written again when a run takes another (codeCache.ts, docs/cache.md): V8's cache holds only the functions the runs
 * that made it called.
 */
const ran = new Set<string>();

/** Notes that this run took the path `name`. */
export function noteCodePath(name: string): void {
  ran.add(name);
}

/** The paths this run took, sorted. */
export function codePathsRun(): string[] {
  return [...ran].sort();
}
