/**
 * What a build's report keeps of the warnings about its inputs (docs/security.md, round 14). The SE-table readers
 * skip a line they cannot use with a warning quoting up to 40 characters of it, so any text file reads as a table
 * with warnings: a received project naming `../../.aws/credentials` (or a link in its folder to it) as its
 * `seTables.seDefine` built, and its report, an output inside the received folder that goes back to whoever sent
 * it, held the start of every line of that file. A warning about a file that lies outside the project's folder
 * (links resolved) is kept in the report by its place only; the terminal and the app show it whole, to the user.
 */
import { dirname, resolve } from 'node:path';
import { FormatError } from '../../shared/errors';
import { shownWarnings } from '../shownWarnings';
import { canonicalPath, isInside } from '../pathPolicy';

/** What the report says in place of a warning about a file outside the project's folder. */
export const OUTSIDE_WARNING =
  'a warning about a file outside the project folder: shown when the build ran, not copied into the report';

/**
 * The report's text for each warning of a build of `projectFile` (assembleBuild's `reportWarning`): the warning's
 * message when its file lies inside the project's folder (or it names none), else its file and place only.
 */
export function reportWarningFor(projectFile: string): (w: FormatError) => string {
  let folder: string | undefined;
  const inside = new Map<string, boolean>();
  return (w) => {
    if (w.file === undefined) return w.message;
    let ok = inside.get(w.file);
    if (ok === undefined) {
      try {
        folder ??= canonicalPath(dirname(resolve(projectFile)));
        ok = isInside(folder, canonicalPath(w.file));
      } catch {
        ok = false; // links in a loop: not known to be inside
      }
      inside.set(w.file, ok);
    }
    return ok ? w.message : new FormatError(w.kind, OUTSIDE_WARNING, w.place, w.file).message;
  };
}

/**
 * The warnings of a build that succeeded as the terminal and the app's Build dialog show them (shownWarnings): a
 * project of 1,000 motions that all need resampling (or all miss a tolerance) printed a thousand lines on every
 * build, and as many again on every build that was up to date.
 */
export function shownBuildWarnings(warnings: readonly string[], reportPath: string): string[] {
  return shownWarnings(warnings, `the report ${reportPath} keeps them all`);
}
