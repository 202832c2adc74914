import { closeSync, fstatSync, lstatSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { HIDDEN_CHARACTERS } from '../shared/errors';
import { FILE_NAME_MAX_BYTES } from '../shared/fileSystemLimits';
import { jsonSyntaxPlace } from '../shared/project/jsonPosition';
import { systemFileKindOfPath } from '../shared/systemFiles';
import type { RecentFile, RecentFileKind } from '../shared/ipc/documents';
import { anotherUsers, openNoFollow, readSmallFile, writeFileAtomic } from './fsutil';
import { motionKindOfPath } from './motionFiles';
import { canonicalPath, MAX_PATH_LENGTH, quotePath } from './pathPolicy';
import { describeFsError, systemReason } from './fsErrors';

/** How many recent files are kept. */
export const RECENT_FILES_LIMIT = 10;

/** Recently opened files, newest first, optionally persisted as JSON in a folder (Electron's userData). */
export interface RecentFilesStore {
  list(): RecentFile[];
  /** Moves (or adds) a file to the front and persists. */
  add(entry: { path: string; name: string; kind: RecentFileKind }): void;
  clear(): void;
  /**
   * What the user should be told once about the list read at start-up (it was damaged and reset, or entries were
   * dropped and the others kept), in the app's words, or null when it was read whole (or there was none). The list
   * as kept is written back at once, so the next start reads it without a word.
   */
  readonly startupProblem: string | null;
}

/** Ten entries of paths up to 4096 characters fit well within this; a larger file is not ours. */
const RECENT_FILE_MAX_BYTES = 1024 * 1024;

/** The kind a recent entry of `path` has: its motion kind, or `project` for a `*.actguy.json`; null for neither. */
export function recentKindOfPath(path: string): RecentFileKind | null {
  return motionKindOfPath(path) ?? (systemFileKindOfPath(path) === 'project' ? 'project' : null);
}

/**
 * Whether `v` is an entry the app could have written: every motion entry grants the page access at the next start,
 * and a project entry lets the page ask for what Open Project grants, so only an absolute path without NUL of a
 * motion or project whose extension is its kind (not `~/.bashrc` listed as an mtn or a project).
 */
function isRecentFile(v: unknown): v is RecentFile {
  const r = v as RecentFile;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.path === 'string' &&
    r.path.length <= MAX_PATH_LENGTH && // as the path policy accepts from the page
    !r.path.includes('\0') &&
    isAbsolute(r.path) &&
    recentKindOfPath(r.path) === r.kind &&
    typeof r.name === 'string' &&
    r.name.length <= RECENT_NAME_MAX &&
    !HIDDEN_CHARACTERS.test(r.path) &&
    !HIDDEN_CHARACTERS.test(r.name) &&
    Number.isFinite(r.openedAt) // 1e309 parses to Infinity, which JSON writes back as null
  );
}

/**
 * Why a listed file (canonical, as the list holds it) is not to be granted or opened as listed now, or undefined:
 * - it is not there: a grant of a path nobody holds goes to whoever makes the file first (docs/security.md, round 26);
 * - it now leads elsewhere through a link, the file or a folder above it (round 24);
 * - it, or its folder, is owned by a user other than this one and root: after a restart another user may have made
 *   a folder and a file at that path (`/tmp/...`), which the user never chose (after round 24). The file's owner is
 *   the one seen by the first look, so a file removed meanwhile is not passed as "cannot be seen". Not asked on a
 *   system without user ids (Windows).
 * Asked at start-up for the grants; an open from the list asks openRecentFile, which judges the file it opened.
 */
export function recentPathProblem(path: string, uid: number | undefined = process.getuid?.()): string | undefined {
  let owner: number;
  try {
    owner = lstatSync(path).uid;
  } catch (e) {
    return notThere(e);
  }
  return placeProblem(path, owner, uid);
}

const notThere = (e: unknown) => `it is not there now (${describeFsError(e)})`;

/** recentPathProblem past its look at the file: the path through a link, the file's owner, its folder's owner. */
function placeProblem(path: string, owner: number, uid: number | undefined): string | undefined {
  const now = canonicalPath(path);
  if (now !== path) return `it now leads to ${quotePath(now)} through a link`;
  if (uid === undefined) return undefined;
  const others = (id: number) => anotherUsers(id, uid);
  if (others(owner)) return `it ${ANOTHER_USERS(owner)}`;
  let folderOwner: number;
  try {
    folderOwner = lstatSync(dirname(path)).uid;
  } catch (e) {
    return `its folder cannot be seen (${describeFsError(e)})`;
  }
  return others(folderOwner) ? `its folder ${ANOTHER_USERS(folderOwner)}` : undefined;
}

/**
 * A test seam: called once a listed file has been opened and judged, before anything reads it. Tests swap the file
 * there, as a colleague could in a shared folder, to see that what is read is what was judged. A no-op otherwise.
 */
export const recentOpenSeam = { judged: (_path: string): void => undefined };

/**
 * Opens a listed file (canonical, as the list holds it) to be read from Open Recent, judged as recentPathProblem
 * judges it but on the very file opened (docs/security.md, round 29): opened once, never through a link at its
 * name (O_NOFOLLOW) and never waiting on a FIFO; its owner read from the descriptor; the path, looked at again by
 * name for a link above it and for its folder's owner, must still name that same file (device and inode). The
 * reader then reads the descriptor, so a file swapped at the path after this look (a folder a colleague may write
 * that is not sticky) is not what is read. Answers the descriptor, which the caller closes, or the problem in
 * recentPathProblem's words. What is not a plain file is left to the reader, which refuses it in its own words.
 * A file that is there and fine by name but cannot be opened (EACCES) throws the open's error, for the caller to word.
 */
export function openRecentFile(
  path: string,
  uid: number | undefined = process.getuid?.(),
): { fd: number } | { problem: string } {
  let fd: number;
  try {
    fd = openNoFollow(path);
  } catch (e) {
    // A link at the name (ELOOP), a file gone: said as the look by name says it.
    const problem = recentPathProblem(path, uid);
    if (problem) return { problem };
    throw e;
  }
  try {
    const opened = fstatSync(fd);
    let named;
    try {
      named = lstatSync(path);
    } catch (e) {
      closeSync(fd);
      return { problem: notThere(e) };
    }
    const problem =
      named.dev !== opened.dev || named.ino !== opened.ino
        ? 'it is not there now (another file took its place)'
        : placeProblem(path, opened.uid, uid);
    if (problem) {
      closeSync(fd);
      return { problem };
    }
    recentOpenSeam.judged(path);
    return { fd };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/**
 * openRecentFile for an open from the list (a motion or a project): the judged file's descriptor, which the caller
 * closes, or an error that says why it was not opened and where else the user can open it (`openWith`).
 */
export function openRecentFileOrRefuse(path: string, openWith: string): number {
  let opened: { fd: number } | { problem: string };
  try {
    opened = openRecentFile(path);
  } catch (e) {
    throw new Error(`Could not read ${path}: ${systemReason(e)}`);
  }
  if ('problem' in opened)
    throw new Error(`${quotePath(path)}: ${opened.problem}, so it was not opened (open it with ${openWith})`);
  return opened.fd;
}

const ANOTHER_USERS = (owner: number) =>
  `belongs to another user (user id ${owner}), who may have made it there since it was listed`;

/**
 * The longest name an entry may have: the app writes a motion's or a file's name there. The Open Recent menu shows
 * `name — path` as its label, so a planted 1 MB name made a 1 MB menu item, and a path or name holding a line break,
 * a bidirectional override or a zero-width character (HIDDEN_CHARACTERS) showed a label that reads as another file
 * than the one the item opens and the start-up grants (docs/security.md, round 11). Such entries are dropped.
 */
const RECENT_NAME_MAX = FILE_NAME_MAX_BYTES;

/**
 * Creates the store. With `dir` the list lives in `<dir>/recent-files.json`
 * (a damaged file is ignored, not fatal: recent files are a convenience);
 * without it the list lives in memory for this run.
 */
export function createRecentFilesStore(
  dir: string | null,
  now: () => number = Date.now,
  warn: (message: string) => void = () => undefined,
): RecentFilesStore {
  const file = dir ? join(dir, 'recent-files.json') : null;
  let entries: RecentFile[] = [];
  // A FIFO in its place must not hold the start-up, nor a huge file fill memory, nor a link be followed
  // (readSmallFile refuses all three). A list that cannot be used is said (docs/security.md, round 12): the menu
  // starts empty, and the next open replaces the file.
  const read = file ? readSmallFile(file, RECENT_FILE_MAX_BYTES) : undefined;
  let startupProblem: string | null = null;
  const unusable = (why: string, place = '') => {
    warn(`${file}: not used (${why}${place}); Open Recent starts empty`);
    startupProblem = `The list of recent files could not be used (${why}), so it was reset: File › Open Recent starts empty. File: ${file}`;
  };
  if (read && 'problem' in read) unusable(read.problem);
  if (read && 'text' in read) {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (!Array.isArray(parsed)) unusable('not a list');
      else {
        // The first RECENT_FILES_LIMIT valid entries, each path once: one pass, however long a planted list is.
        const seen = new Set<string>();
        let dropped = 0;
        const droppedAt: number[] = [];
        for (const [i, e] of (parsed as unknown[]).entries()) {
          if (entries.length === RECENT_FILES_LIMIT) break;
          if (!isRecentFile(e)) {
            if (++dropped <= 5) droppedAt.push(i);
          } else if (!seen.has(e.path)) {
            seen.add(e.path);
            entries.push(e);
          }
        }
        if (dropped > 0) {
          warn(
            `${file}: ${dropped} entries dropped (not a motion or project path ActGuy writes: entries ${droppedAt.join(', ')}${dropped > droppedAt.length ? ', …' : ''}, counting from 0); ${entries.length} kept`,
          );
          startupProblem = `${dropped} ${dropped === 1 ? 'entry' : 'entries'} of the list of recent files could not be used (not the path of a motion or project ActGuy would list) and ${dropped === 1 ? 'was' : 'were'} dropped; ${entries.length === 0 ? 'none was left, so File › Open Recent starts empty' : `the other ${entries.length === 1 ? 'one was' : `${entries.length} were`} kept`}. File: ${file}`;
        }
      }
    } catch {
      entries = [];
      // The place goes to the log; the user is told the list was reset.
      unusable('not JSON', ` ${jsonSyntaxPlace(read.text)}`);
    }
  }
  const persist = (): void => {
    if (!file) return;
    try {
      writeFileAtomic(file, `${JSON.stringify(entries, null, 2)}\n`, { own: true });
    } catch {
      // Losing the recent list must never fail an open or a save.
    }
  };
  // Said once: the list as kept replaces the damaged file now (a link is replaced, never written through).
  if (startupProblem) persist();
  return {
    startupProblem,
    list: () => entries.map((e) => ({ ...e })),
    add({ path, name, kind }) {
      entries = [{ path, name, kind, openedAt: now() }, ...entries.filter((e) => e.path !== path)].slice(
        0,
        RECENT_FILES_LIMIT,
      );
      persist();
    },
    clear() {
      entries = [];
      persist();
    },
  };
}
