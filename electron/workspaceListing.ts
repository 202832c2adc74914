/**
 * The workspace listing behind `listWorkspace` (the loopback picker's source): the files under the workspace root,
 * bounded so a huge folder cannot stall the main process.
 */
import { lstatSync, mkdirSync, opendirSync, statSync, type Dir, type Dirent } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { MadeWorkspaceFolder, WorkspaceFile } from '../shared/ipc/documents';
import { FILE_NAME_MAX_BYTES } from '../shared/fileSystemLimits';
import { escapeControls, HIDDEN_CHARACTERS } from '../shared/errors';
import { openPinnedFolders, pinFolder } from './fsutil';
import { canonicalPath, isInside } from './pathPolicy';

/**
 * Limits of the workspace listing, so a huge folder cannot stall the main process: the files listed, the folder
 * depth, and every name looked at (a workspace of a million files the picker does not want, a home folder, took
 * the main process seconds before 2026-12-03). What the listing leaves out is said in the picker.
 */
export const WORKSPACE_MAX_FILES = 5000;
const WORKSPACE_MAX_DEPTH = 8;
export const WORKSPACE_MAX_ENTRIES = 50_000;
/**
 * The files under `root` (of the extensions wanted), folders in name order, within the limits above; `incomplete`
 * says which limit left files out. `folders`: the folders walked ('/'-separated, relative to `root`), the save
 * picker's to go into; a link to a folder is not one (its files are listed, and a new folder is never made in one).
 */
export function listFiles(
  root: string,
  extensions: string[] | null,
): { files: WorkspaceFile[]; folders: string[]; incomplete?: string } {
  const files: WorkspaceFile[] = [];
  const folders: string[] = [];
  let entries = 0;
  let tooDeep = false;
  let stopped: 'files' | 'entries' | null = null;
  // Each folder is walked once, by its identity: links back into the workspace (`loop -> .`) were walked again under
  // each link's name down to the depth bound, so three such links listed one file 5,000 times (fuzz round 3,
  // docs/testing.md). Links to folders are walked after the folders themselves, so a file is listed at its own path.
  const walked = new Set<string>();
  const firstWalk = (st: { dev: number; ino: number }) => {
    const id = `${st.dev}:${st.ino}`;
    if (walked.has(id)) return false;
    walked.add(id);
    return true;
  };
  const linked: { dir: string; depth: number; st: { dev: number; ino: number } }[] = [];
  const walk = (dir: string, depth: number, viaLink: boolean): void => {
    if (depth > WORKSPACE_MAX_DEPTH) {
      tooDeep = true;
      return;
    }
    // Names read one at a time and counted as read: a folder of a million names costs the budget, not a million.
    const names: Dirent[] = [];
    let handle: Dir | undefined;
    try {
      handle = opendirSync(dir);
      for (let d = handle.readSync(); d !== null; d = handle.readSync()) {
        if (++entries > WORKSPACE_MAX_ENTRIES) {
          stopped = 'entries';
          break;
        }
        if (!d.name.startsWith('.') && d.name !== 'node_modules') names.push(d);
      }
    } catch {
      // an unreadable folder is left out, not fatal (what was read of it is listed)
    } finally {
      try {
        handle?.closeSync();
      } catch {
        // closed already
      }
    }
    names.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const d of names) {
      const name = d.name;
      const extension = extname(name).slice(1).toLowerCase();
      // A plain file of another kind needs no stat.
      if (d.isFile() && extensions && !extensions.includes(extension)) continue;
      const full = join(dir, name);
      let st;
      try {
        st = lstatSync(full);
        if (st.isSymbolicLink()) {
          // A link is listed only when it resolves inside the workspace (a link out would be refused on open anyway).
          if (!isInside(root, canonicalPath(full))) continue;
          st = statSync(full);
        }
      } catch {
        continue; // vanished, unreadable or a link loop: left out
      }
      if (st.isDirectory()) {
        if (!viaLink && !d.isSymbolicLink() && depth < WORKSPACE_MAX_DEPTH)
          folders.push(relative(root, full).split(sep).join('/'));
        if (d.isSymbolicLink()) linked.push({ dir: full, depth: depth + 1, st });
        else if (!stopped && firstWalk(st)) walk(full, depth + 1, viaLink);
      } else if (st.isFile()) {
        if (extensions && !extensions.includes(extension)) continue;
        if (files.length === WORKSPACE_MAX_FILES) {
          stopped = 'files';
          return;
        }
        files.push({
          path: full,
          relativePath: relative(root, full).split(sep).join('/'),
          byteLength: st.size,
          extension,
        });
      }
      if (stopped === 'files') return;
    }
  };
  try {
    firstWalk(statSync(root));
  } catch {
    // unreadable: the walk lists nothing
  }
  walk(root, 0, false);
  // The links met while walking them join the list as it is walked (an array's iterator takes what is pushed).
  for (const { dir, depth, st } of linked) {
    if (stopped) break;
    if (firstWalk(st)) walk(dir, depth, true);
  }
  const smaller = 'to see the others, serve a smaller workspace (npm run web -- --workspace FOLDER)';
  const incomplete =
    stopped === 'files'
      ? `Only the first ${WORKSPACE_MAX_FILES.toLocaleString('en-US')} files are listed (folders in name order): ${smaller}.`
      : stopped === 'entries'
        ? `The workspace holds more than ${WORKSPACE_MAX_ENTRIES.toLocaleString('en-US')} files and folders: the listing stopped there (folders in name order), so some files are not listed; ${smaller}.`
        : tooDeep
          ? `Folders more than ${WORKSPACE_MAX_DEPTH} levels below the workspace are not listed.`
          : undefined;
  return incomplete ? { files, folders, incomplete } : { files, folders };
}

/** The calls makeFolder makes to make the folder; a test replaces it to move the parent at that moment. */
interface MakeFolderIo {
  mkdirSync(path: string): unknown;
}

/**
 * Makes the folder `name` in the workspace folder `parent` ('/'-separated, relative to `root`; '' is `root`), for the
 * save picker's New Folder (tried cold, round 17: a folder for the exports could not be made from the browser build).
 * Refused, with the place named: a name that is empty, `.` or `..`, holds a separator or a control character, or is
 * taken (by a file, a folder or a link); a parent that climbs (`..`), is absolute, is missing, is not a folder or
 * goes through a link. Never made with its parents, never over anything. On Linux the folder is made through the parent
 * as checked and opened (fsutil.ts openPinnedFolders): a parent swapped for a link after its check no longer leads the
 * new folder out of the workspace (docs/security.md, round 43).
 */
export function makeFolder(
  root: string,
  parent: string,
  name: string,
  io: MakeFolderIo = { mkdirSync: (p) => mkdirSync(p) },
): MadeWorkspaceFolder {
  if (typeof parent !== 'string' || typeof name !== 'string')
    throw new Error('makeWorkspaceFolder: parent and name must be strings');
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (name.trim() === '') throw new Error('New folder: type a name for it first.');
  if (name === '.' || name === '..') throw new Error(`New folder ${shown}: "." and ".." are not folder names.`);
  if (/[/\\]/.test(name))
    throw new Error(`New folder ${shown}: a name holds no "/" or "\\"; go into the folder first, then make it there.`);
  // Every character a message escapes (HIDDEN_CHARACTERS), as a project's keys and the CLI's arguments are refused:
  // a zero-width space, a joiner or a soft hyphen made a folder that reads as another (docs/security.md, round 55).
  if (HIDDEN_CHARACTERS.test(name))
    throw new Error(
      `New folder ${escapeControls(shown)}: the name holds a control or direction character, or one that displays as nothing (a zero-width space or joiner, a soft hyphen), which would make it read as another name.`,
    );
  // Counted as the disk counts it: 200 characters of three bytes each are 600 bytes, which mkdir refused with its own
  // words and the whole path (round 43).
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > FILE_NAME_MAX_BYTES)
    throw new Error(
      `New folder: the name is ${bytes} bytes long in UTF-8 (${[...name].length} characters); at most ${FILE_NAME_MAX_BYTES} bytes.`,
    );
  const parts = parent === '' ? [] : parent.split('/');
  // A backslash separates names only on Windows: elsewhere it is a character of a name, and the listing gives such a
  // folder (`a\b`) to the picker, whose New Folder there was refused as no folder of the workspace (round 43).
  if (
    (sep === '\\' && parent.includes('\\')) ||
    parent.startsWith('/') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  )
    throw new Error(
      `New folder: ${JSON.stringify(parent)} is not a folder of the workspace (a path inside it, "/" between names).`,
    );
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      throw new Error(`New folder: the workspace has no folder ${parent} (moved or deleted since it was listed?).`);
    }
    if (st.isSymbolicLink())
      throw new Error(
        `New folder: ${parent} goes through a link (${relative(root, dir).split(sep).join('/')}); new folders are made only in the workspace's own folders.`,
      );
    if (!st.isDirectory())
      throw new Error(`New folder: ${relative(root, dir).split(sep).join('/')} is a file, not a folder.`);
  }
  const pin = pinFolder(dir);
  if (!pin || !isInside(root, pin.real)) throw new Error(`New folder: ${parent} lies outside the workspace.`);
  const full = join(dir, name);
  const relativePath = parent === '' ? name : `${parent}/${name}`;
  const taken = () => new Error(`New folder: ${relativePath} already exists; choose another name.`);
  const notMade = (e: unknown, at = full) =>
    new Error(`New folder: ${relativePath} could not be made: ${(e as Error).message.split(at).join(full)}`);
  let opened: ReturnType<typeof openPinnedFolders>;
  try {
    opened = openPinnedFolders([pin], full);
  } catch (e) {
    throw notMade(e);
  }
  try {
    const at = opened.at(full);
    let there = true;
    try {
      lstatSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw notMade(e, at);
      there = false;
    }
    if (there) throw taken();
    try {
      io.mkdirSync(at); // not recursive: made here or refused, never a parent on the way
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw taken();
      throw notMade(e, at);
    }
  } finally {
    opened.close();
  }
  return { path: full, relativePath };
}

/** The extensions a workspace listing filters by (lower case, no dot): at most 64 strings of at most 16 characters. */
export function fileExtensions(v: unknown): string[] {
  if (!Array.isArray(v) || v.length > 64 || !v.every((e): e is string => typeof e === 'string' && e.length <= 16))
    throw new Error('listWorkspace: extensions must be at most 64 file extensions of at most 16 characters');
  return [...new Set(v.map((e) => e.toLowerCase().replace(/^\./, '')))];
}
