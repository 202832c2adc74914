/** Turns file-system errors into short reasons a user can act on. */
import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { escapeControls } from '../shared/errors';

/**
 * Node's words for two errors a received folder's names give (`ELOOP: too many symbolic links encountered`, a link
 * that leads to itself; `ENAMETOOLONG: name too long`), which said neither what is wrong nor where to look
 * (docs/security.md, round 46).
 */
const LINK_LOOP = 'its symbolic links form a loop (a link on the path leads back to itself)';
const NAME_TOO_LONG = 'a name in the path is longer than the file system allows (255 bytes a name)';

/**
 * A file-system error as a short reason ("permission denied", "no space left on the disk"), for a read or a write:
 * the app's handlers say it after "Could not read X:" or "Could not save X:".
 */
export function systemReason(e: unknown): string {
  // A refusal already worded (wordedError): its code's words would hide what is there (round 49).
  const worded = (e as { userReason?: unknown })?.userReason;
  if (typeof worded === 'string') return worded;
  const code = (e as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'the operation is not permitted',
    ENOSPC: 'no space left on the disk',
    EROFS: 'the disk is read-only',
    ENOENT: 'no such file or folder',
    EISDIR: 'a folder has that name',
    EBUSY: 'the file is in use',
    ENOTDIR: 'a file is in the way where a folder should be',
    EEXIST: 'a file is in the way where a folder should be',
    ENOTREG: 'it is not a plain file (a pipe, socket or device)', // readBytes (fsutil.ts)
    ELOOP: LINK_LOOP,
    ENAMETOOLONG: NAME_TOO_LONG,
  };
  // readBytes' size refusal carries its numbers in the message ("EFBIG: it is N bytes, more than ...").
  if (code === 'EFBIG' && e instanceof Error) return e.message.replace(/^EFBIG: /, '').replace(/, \w+ '[^']*'$/, '');
  return (code && known[code]) ?? (e instanceof Error ? e.message : String(e));
}

/** Says why a file could not be read or written, in words (ENOENT -> "no such file or directory"). */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'ENOTDIR':
      return 'a component of the path is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'read-only file system';
    case 'EEXIST':
      return 'it already exists';
    case 'EXDEV':
      return 'it is on another disk';
    case 'ENOTREG': // readBytes (electron/fsutil.ts)
      return 'it is not a plain file (a pipe, socket or device)';
    case 'ELOOP':
      return LINK_LOOP;
    case 'ENAMETOOLONG':
      return NAME_TOO_LONG;
    case 'EFBIG': // readBytes' limit says how large, in words ("EFBIG: it is N bytes, more than ...")
      return (err.message ?? '').replace(/^EFBIG: /, '').replace(/, \w+ '[^']*'$/, '');
    // Node appends the path it worked on (`, open '/x/.stage.mar.actguy-new…'`): the caller names the user's path instead.
    default:
      return (err?.message ?? String(e)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, '');
  }
}

/**
 * What to do after a save the file system refused (a folder of that name, permission denied, a full disk): the
 * message said only what went wrong, and a first-time user could not tell how to get the edits onto disk
 * (docs/user-guide.md, "Tried cold", sixth round). `button` is the command that saves that file again.
 */
export function saveAgainNext(button: string): string {
  return `Put that right (move the folder or file in the way, free some space, or allow writing there) and press ${button} again.`;
}

/** As saveAgainNext for a motion, which can also go to another file with Save As. */
export const SAVE_MOTION_NEXT =
  'Save them under another name or folder with File › Save As… (Ctrl+Shift+S), or put that right and press Save again.';

/** As saveAgainNext for an export (.mt3, glTF), which any name or folder may take. */
export const EXPORT_AGAIN_NEXT =
  'Export again under another name or folder, or put that right (move the folder or file in the way, free some space, or allow writing there) and export again.';

/**
 * The error of an export's write (.mt3, glTF) that failed: what went wrong, that the file on disk is unchanged (the
 * write is atomic), and what to do next. One wording for both exports, which each wrote it.
 */
export function exportWriteFailed(path: string, e: unknown): Error {
  return new Error(`Could not export ${path}: ${systemReason(e)}; the file on disk is unchanged. ${EXPORT_AGAIN_NEXT}`);
}

/**
 * For a path that is not there: where the symbolic link at its name leads, in words, when a link to nothing stands
 * there; undefined otherwise. "No such file" about a name `ls` lists sent the user looking for a file that is there,
 * and a received folder's `walk.sev` linked to nothing opened as an empty event list whose save made the file the link
 * named (docs/security.md, round 47).
 */
export function danglingLinkReason(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return `it is a symbolic link to ${escapeControls(readlinkSync(path))}, which is not there`;
  } catch {
    return undefined;
  }
}

/**
 * An error for a write refused before it started, whose `reason` already says what is there and what to do:
 * `message` for the CLI (`cannot write ex/w.mt3: ex is a named pipe (FIFO), not a folder`), `reason` for the app's
 * handlers, which say `Could not save X: <reason>` (systemReason). The app said such a refusal by its code, `a file is
 * in the way where a folder should be`, for a FIFO or a link to nothing (docs/security.md, round 49).
 */
function wordedError(message: string, reason: string, code: string | undefined, path: string): Error {
  return Object.assign(new Error(message), { code, path, userReason: reason });
}

/** What to do about a link to nothing at an output's name (danglingOutputProblem). */
const ANY_OUTPUT_INSTEAD = 'move that link away or write the output under another name';

/**
 * Why an output may not replace what is at `path` (`shown` as the message names it) when it is a link to nothing:
 * `refused to replace <shown>: it is a symbolic link to gone, which is not there; move that link away or …`; undefined
 * otherwise. A write renamed over the link and the link was lost without a word (a build's outputs, round 48; the
 * single-file writes, round 49). The reason alone, without `refused to replace <shown>: `, is `reason`. `at` is what
 * is at `path` (lstatOrNull), where the caller looked already.
 */
export function danglingOutputProblem(
  path: string,
  shown = path,
  at = lstatOrNull(path),
): { message: string; reason: string } | undefined {
  if (!at?.isSymbolicLink()) return undefined;
  // danglingLinkReason words any link at the name: one that leads to a file is not this refusal's (a build's
  // `out/s.mar` -> a file there was refused as "not there" in round 48).
  try {
    statSync(path);
    return undefined;
  } catch {
    /* nothing at the end of the link, or no link */
  }
  const dangling = danglingLinkReason(path);
  if (!dangling) return undefined;
  const reason = `${dangling}; ${ANY_OUTPUT_INSTEAD}`;
  return { message: `refused to replace ${shown}: ${reason}`, reason };
}

/**
 * What is at `path` itself (a link, not what it leads to), or null where nothing is or it cannot be looked at: one
 * look that the checks of an output's name can share (`at`), so that each judges the same thing (fsutil.ts
 * startAtomicWrite).
 */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Why an output may not be written at `path` (`shown` as the message names it) when it is a symbolic link to a file:
 * `refused to replace <shown>: it is a symbolic link to <target>; …`; undefined otherwise (no link, a link to nothing,
 * to a folder or to a device, which the callers refuse in their words). A write renamed its temp over the link: the
 * link was lost without a word and the file it leads to left as it was, while the user read the output as written
 * there. Written through instead, a received folder's link would choose which of the user's files an output replaces
 * (`out/stage.mar` -> `~/notes.txt`): refused, the CLI's single-file writes and every commit alike
 * (docs/security.md, round 50). The app's single-file saves write the file the path policy resolved and allowed.
 * `at` is what is at `path` (lstatOrNull), where the caller looked already.
 */
export function linkedFileOutputProblem(path: string, shown = path, at = lstatOrNull(path)): string | undefined {
  if (!at?.isSymbolicLink()) return undefined;
  try {
    if (!statSync(path).isFile()) return undefined;
    return `refused to replace ${shown}: it is a symbolic link to ${escapeControls(readlinkSync(path))}; an output is written neither through a link (the file it leads to was not named for it) nor over it (the link would be lost); remove the link, name the file it leads to, or write the output under another name`;
  } catch {
    return undefined;
  }
}

/**
 * The refusal of a write at `path` that is a link to nothing (danglingOutputProblem), as an error whose message ends
 * `; nothing was written` and whose reason the app's handlers say (wordedError); undefined when it is not one. The
 * app's writes resolve the chosen name through the path policy, so they ask it of the name chosen: they wrote the file
 * the link names, where the CLI replaced the link (docs/security.md, round 49).
 */
export function danglingOutputError(path: string, at = lstatOrNull(path)): Error | undefined {
  const problem = danglingOutputProblem(path, path, at);
  return problem && wordedError(`${problem.message}; nothing was written`, problem.reason, 'EDANGLING', path);
}

/**
 * Why no folder can be made for `target` (`shown` as the user spelled it), when its first existing ancestor is not a
 * folder: a file, or a link that leads nowhere (a link to a folder not made yet, or a loop of links). The commit
 * cannot make a folder where a link is (mkdir answers EEXIST), and a build reached it only after compressing: a
 * project whose `out` was a link to `build/out`, not made yet, compressed every motion and then stopped with a bare
 * `actguy build: …/out: no such file or directory` (round 18). The build asks this before its work as well.
 */
export function outputFolderProblem(
  target: string,
  shown: string,
  lstat: (path: string) => Stats = lstatSync,
): string | undefined {
  for (let probe = dirname(target) || '.'; ;) {
    let pst: Stats;
    try {
      pst = lstat(probe);
    } catch {
      const up = dirname(probe);
      if (up === probe) return undefined;
      probe = up;
      continue;
    }
    if (pst.isDirectory()) return undefined;
    const named = relativeLike(probe, target, shown);
    let st: Stats;
    try {
      st = statSync(probe);
    } catch (e) {
      return `cannot write ${shown}: ${named} is a link that leads to no folder (${describeFsError(e)}); make the folder it leads to, or name another folder for the outputs`;
    }
    return st.isDirectory() ? undefined : `cannot write ${shown}: ${named} is ${entryKind(st)}, not a folder`;
  }
}

/**
 * What a non-folder entry is, in words: a FIFO at `-o out` was said as "a file", and the user looked for a file that
 * `ls` shows as `p` (docs/security.md, round 47).
 */
export function entryKind(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a file';
}

/** `ancestor` of the absolute `target`, spelled the way the user spelled the target (`out/x` for `out/x/y.mar`). */
function relativeLike(ancestor: string, target: string, shown: string): string {
  let a = target;
  let s = shown;
  while (a !== ancestor && dirname(a) !== a && dirname(s) !== s) {
    a = dirname(a);
    s = dirname(s);
  }
  return a === ancestor ? s : ancestor;
}
