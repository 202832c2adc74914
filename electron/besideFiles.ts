import { closeSync, fstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { systemReason } from './fsErrors';
import { anotherUsers, openedAt, openNoFollow } from './fsutil';
import { canonicalPath, quotePath, type PathPolicy } from './pathPolicy';

/**
 * A test seam: called once a file beside an opened motion has been opened and judged, before anything reads it.
 * Tests swap the file there, as a colleague could in a shared folder, to see that what is read is what was judged.
 */
export const besideReadSeam = {
  judged: (_path: string): void => undefined,
  /** Called just before the open: tests swap a folder above the file there (round 32). */
  opening: (_path: string): void => undefined,
};

/**
 * The path a file granted beside a motion was granted as: its folder resolved (the motion's, which the user chose),
 * its name as given. A link put at the name since resolves elsewhere; this names the link itself.
 */
function besideNameOf(given: string): string {
  return join(canonicalPath(dirname(given)), basename(given));
}

/**
 * Opens a file granted only because it lies beside an opened motion (its .sev, its tuning file, a sound in `sounds/`)
 * to be read, judged on the descriptor read (docs/security.md, round 31). Such a file is read by name at a later
 * open or audition, so in a folder others may write another user may have swapped it since: it is opened never
 * through a link at its name (O_NOFOLLOW), never waiting on a FIFO, and must be a plain file owned by the user or
 * root, as recentFiles.ts openRecentFile and systemFiles.ts handedOverProblem judge. Answers the descriptor, which the
 * caller closes, or the problem in words. Another error of the open (ENOENT, EACCES) is thrown as it is.
 */
function openBesideFile(
  path: string,
  uid: number | undefined = process.getuid?.(),
): { fd: number } | { problem: string } {
  let fd: number;
  try {
    besideReadSeam.opening(path);
    fd = openNoFollow(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      return { problem: `it is a symbolic link to ${quotePath(canonicalPath(path))}; open that file itself` };
    throw e;
  }
  const st = fstatSync(fd);
  const problem = st.isDirectory()
    ? 'a folder, not a file'
    : !st.isFile()
      ? 'it is not a plain file (a pipe, socket or device)'
      : anotherUsers(st.uid, uid)
        ? `it belongs to another user (user id ${st.uid}), who may have put it there since the motion was opened; copy it to a folder of yours to use it`
        : elsewhere(fd, path);
  if (problem) {
    closeSync(fd);
    return { problem };
  }
  besideReadSeam.judged(path);
  return { fd };
}

/**
 * Why the file opened as `path` is not the one at `path` (canonical when judged): O_NOFOLLOW refuses a link at the name
 * only, so a folder above it swapped for a link between the policy's check and the open led the open to a file of the
 * same name elsewhere, the user's own, never granted (docs/security.md, round 32). Asked of the kernel where it can be.
 */
function elsewhere(fd: number, path: string): string | undefined {
  const at = openedAt(fd);
  return at === undefined || at === path
    ? undefined
    : `it is not there now: a folder on its path was swapped since it was checked, and the file opened lies at ${quotePath(at)}`;
}

/**
 * For a read of `given` that the policy allowed: the descriptor of the judged file when it is granted only beside a
 * motion (openBesideFile; the caller reads it and closes it), undefined when it is chosen otherwise (read by name as
 * before). Throws, naming the file and saying why, when the judgement refuses it or it cannot be opened.
 */
export function openIfBeside(policy: PathPolicy, given: string, canonical: string): number | undefined {
  // The file as granted: at its name when a plain file was there at the grant (a link at that name now was put there
  // since, and is refused), or where a link already there then led inside the motion's folder (linkOutOf passed it).
  const named = besideNameOf(given);
  const granted = policy.grantedBeside(named) ? named : policy.grantedBeside(canonical) ? canonical : undefined;
  if (granted === undefined) return undefined;
  let opened: { fd: number } | { problem: string };
  try {
    opened = openBesideFile(granted);
  } catch (e) {
    throw new Error(`Could not read ${granted}: ${systemReason(e)}`);
  }
  if ('problem' in opened) throw new Error(`${quotePath(granted)}: ${opened.problem}, so it was not read`);
  return opened.fd;
}
