/**
 * Names ActGuy gives its own files beside an output (electron/tempFiles.ts, docs/safety-journal.md): a commit's lock
 * `<output>.actguy-lock` and journal `<output>.actguy-commit`, and temps `<target name>.actguy-<kind>.<host>.<pid>.<random>.tmp`.
 * A later run deletes such files as its own (a stale temp swept, a stale lock taken over), so no file a user or a
 * project names may have one: an output of that name vanished with its commit, and a project input of that name was
 * swept by the build that had just read it (docs/security.md, rounds 4 and 13). Pure: shared by validation and the
 * main process.
 */

import { foldName } from './foldedNames';

/** Temp files of ActGuy's naming: `<target name>.actguy-<kind>.<host>.<pid>.<random>.tmp`. */
export const OWN_TEMP = /^(.+)\.actguy-(new|old|journal)\.([^.]*)\.(\d+)\.([0-9a-z]+)\.tmp$/;

/**
 * Why the file name `name` (no folder) is ActGuy's own: `walk.mtn.actguy-lock is a name ActGuy keeps for the lock of
 * an output`; undefined for any other name. Letter case is ignored as a disk may ignore it: the name folded as
 * macOS and Windows fold it (foldName), so the Kelvin sign in `.actguy-loc\u212a`, one file with the lock on macOS,
 * is the lock's name too (a JavaScript `/i` never takes a non-ASCII letter for an ASCII one; round 55).
 */
export function ownFileNameOf(name: string): string | undefined {
  const folded = foldName(name);
  const own = /\.actguy-(lock|commit)$/.exec(folded);
  if (own)
    return `${name} is a name ActGuy keeps for the ${own[1] === 'lock' ? 'lock' : 'commit journal'} of an output`;
  if (OWN_TEMP.test(folded)) return `${name} is a name ActGuy keeps for its temp files`;
  return undefined;
}
