/**
 * What a message says of a file that lies outside the folder of what the user ran (docs/security.md, rounds 14 and
 * 34). A project may name any file as an input (a shared `../common/default.sls`, or `../../.ssh/id_rsa` as its
 * `seTables.seDefine`), and so may a link in a received folder. The readers quote the text they cannot use (an SE
 * table line, a `.sev` statement, a tuning key, the first bytes of an `.mtn`), so any text file read as an input
 * gave its lines to the terminal, and with it to the log of a CI job that builds received projects, which whoever
 * sent the project may read. A problem in such a file is told by its file and place (line and column, or byte
 * offset) only, everywhere: `actguy build` and `build --watch`, the app's Build, the report, `actguy info`, and
 * `actguy compress`'s tuning file.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { FormatError, type FormatErrorPlace } from '../shared/errors';
import { canonicalPath, isInside } from './pathPolicy';

/** What a message says in place of the reader's words about a file outside the folder. */
export const OUTSIDE_DETAIL =
  'a problem in a file outside the project folder; its text is not quoted, since a project may name any file on this ' +
  'machine and messages go to logs: look at this place in the file yourself, or copy the file into the project folder';

/** The same for a file beside a motion that a link leads out of the motion's folder (`actguy compress`). */
export const OUTSIDE_MOTION_DETAIL =
  "a problem in a file a link leads to outside the motion's folder; its text is not quoted: look at this place in " +
  'the file yourself, or put the file itself beside the motion';

/** A redactor: the error as it may be shown, a new one when its file lies outside the folder, else the same one. */
export type OutsideRedactor = (e: FormatError) => FormatError;

/**
 * The redactor for messages about the inputs of what lies in `folder` (a project's folder, a motion's): an error
 * naming a file outside it (links resolved, a missing file by the folder it would be in) keeps its kind, file, line,
 * column and byte offset, and says `detail` in place of its own words; its `where`, which may hold a key or name from
 * the file, goes too. An error naming no file, or a file inside, is returned as it is.
 */
export function outsideRedactor(folder: string, detail = OUTSIDE_DETAIL): OutsideRedactor {
  let root: string | undefined;
  const inside = new Map<string, boolean>();
  return (e) => {
    if (e.file === undefined) return e;
    let ok = inside.get(e.file);
    if (ok === undefined) {
      ok = liesInside(() => (root ??= canonicalPath(folder)), e.file);
      inside.set(e.file, ok);
    }
    if (ok) return e;
    const place: FormatErrorPlace = {};
    if (e.place.line !== undefined) place.line = e.place.line;
    if (e.place.column !== undefined) place.column = e.place.column;
    if (e.place.offset !== undefined) place.offset = e.place.offset;
    return new FormatError(e.kind, detail, place, e.file);
  };
}

/** The redactor for a build of `projectFile` (outsideRedactor of its folder). */
export function projectRedactor(projectFile: string): OutsideRedactor {
  return outsideRedactor(dirname(resolve(projectFile)));
}

function liesInside(root: () => string, file: string): boolean {
  try {
    return isInside(root(), canonicalPath(file));
  } catch {
    try {
      // canonicalPath refuses links in a loop: the folder holding it decides.
      return isInside(root(), join(canonicalPath(dirname(resolve(file))), basename(file)));
    } catch {
      return false; // not known to be inside
    }
  }
}
