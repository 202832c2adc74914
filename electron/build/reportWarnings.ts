/**
 * What a build's report keeps of the warnings about its inputs (docs/security.md, rounds 14 and 34). The SE-table
 * readers skip a line they cannot use with a warning quoting up to 40 characters of it, so any text file reads as a
 * table with warnings: a received project naming `../../.aws/credentials` (or a link in its folder to it) as its
 * `seTables.seDefine` built, and its report, an output inside the received folder that goes back to whoever sent
 * it, held the start of every line of that file. A warning about a file that lies outside the project's folder
 * (links resolved) is kept by its file and place only (outsideQuotes.ts); since round 34 the terminal and the app
 * say no more of it either.
 */
import type { FormatError } from '../../shared/errors';
import { shownWarnings } from '../shownWarnings';
import { projectRedactor } from '../outsideQuotes';

/**
 * The report's text for each warning of a build of `projectFile` (assembleBuild's `reportWarning`): the warning's
 * message when its file lies inside the project's folder (or it names none), else its file and place only.
 */
export function reportWarningFor(projectFile: string): (w: FormatError) => string {
  const redact = projectRedactor(projectFile);
  return (w) => redact(w).message;
}

/**
 * The warnings of a build that succeeded as the terminal and the app's Build dialog show them (shownWarnings): a
 * project of 1,000 motions that all need resampling (or all miss a tolerance) printed a thousand lines on every
 * build, and as many again on every build that was up to date.
 */
export function shownBuildWarnings(warnings: readonly string[], reportPath: string): string[] {
  return shownWarnings(warnings, `the report ${reportPath} keeps them all`);
}
