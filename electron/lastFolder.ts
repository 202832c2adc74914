/**
 * The folder of the file the user last chose through a file dialog, kept between runs in
 * `<userData>/last-folder.json` (docs/install.md#where-actguy-keeps-things), so that File > Open, Import, Open
 * Project and the other open dialogs start there (and a save with no document folder too).
 *
 * The file is read back as untrusted input (docs/security.md, round 12): bounded, strict UTF-8, never through a
 * link, a FIFO never waited on. A damaged file (unreadable, not JSON, of the wrong types, or a path the app never
 * writes: relative, too long, holding control or bidirectional characters) is set aside with a warning, as the other
 * stores do; a folder that no longer exists (an unplugged drive) is not an error: the dialog starts wherever the OS
 * puts it. The remembered folder grants nothing: it only seeds the dialog's defaultPath; what the user then picks
 * is granted by the handlers, as without it. Its owner is kept with it (a user id, where the system has them): a
 * folder another user has made at that path since (under /tmp after a restart) is not offered, so a Save As with no
 * folder of its own does not start there; a colleague's folder the user chose is (docs/security.md, round 26).
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { HIDDEN_CHARACTERS } from '../shared/errors';
import { parseJsonObject } from '../shared/project/jsonPosition';
import type { DialogPort } from './dialogPort';
import { readSmallFile, writeFileAtomic } from './fsutil';
import { MAX_PATH_LENGTH } from './pathPolicy';

export const LAST_FOLDER_FILE = 'last-folder.json';
/** The file holds one path of at most MAX_PATH_LENGTH characters; a larger file is not ours. */
const LAST_FOLDER_MAX_BYTES = 64 * 1024;

export interface LastFolderStore {
  /** The remembered folder when it is usable now (an existing folder), else undefined. */
  folder(): string | undefined;
  /** Remembers the folder of `chosenFile` (a path a dialog answered) and persists it. */
  rememberFileChosen(chosenFile: string): void;
  /** Remembers `folder` itself (a folder dialog's answer) and persists it. */
  rememberFolderChosen(folder: string): void;
}

/** Why `path` is not a folder the app would remember, or null when it is one (its existence is checked at use). */
export function lastFolderProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'the folder is not a text';
  if (path.length > MAX_PATH_LENGTH) return `the folder is longer than ${MAX_PATH_LENGTH} characters`;
  if (HIDDEN_CHARACTERS.test(path)) return 'the folder holds control or invisible characters';
  if (!isAbsolute(path)) return 'the folder is not an absolute path';
  return null;
}

/** A remembered folder: its path, and the user id that owned it when it was chosen (none where ids are not kept). */
export interface LastFolder {
  folder: string;
  owner?: number;
}

/** The folder held in `text` (the file's contents), or why it holds none. */
export function parseLastFolder(text: string): LastFolder | { problem: string } {
  const parsed = parseJsonObject(text);
  if ('problem' in parsed) return parsed;
  const { folder, owner } = parsed.object;
  const problem = lastFolderProblem(folder);
  if (problem) return { problem };
  // Files of before 2026-12-04 hold none: their folder is offered as it was.
  if (owner === undefined) return { folder: folder as string };
  if (!Number.isSafeInteger(owner) || (owner as number) < 0) return { problem: 'the owner is not a user id' };
  return { folder: folder as string, owner: owner as number };
}

/** The owner (user id) of the folder at `path` (links followed) when it is a folder now; null when it is not. */
function folderOwner(path: string): number | null {
  try {
    const st = statSync(path);
    return st.isDirectory() ? st.uid : null;
  } catch {
    return null;
  }
}

/**
 * Creates the store. With `dir` the folder lives in `<dir>/last-folder.json`; without it, in memory for this run
 * (the loopback server, tests). A file that cannot be used is warned about and replaced by the next pick.
 */
export function createLastFolderStore(
  dir: string | null,
  warn: (message: string) => void = () => undefined,
): LastFolderStore {
  const file = dir ? join(dir, LAST_FOLDER_FILE) : null;
  let remembered: LastFolder | undefined;
  const read = file ? readSmallFile(file, LAST_FOLDER_MAX_BYTES) : undefined;
  if (read && 'problem' in read)
    warn(`${file}: cannot be read (${read.problem}); file dialogs start in the system's default folder`);
  if (read && 'text' in read) {
    const parsed = parseLastFolder(read.text);
    if ('problem' in parsed)
      warn(`${file}: set aside, ${parsed.problem}; file dialogs start in the system's default folder`);
    else remembered = parsed;
  }
  /** Remembers `folder` itself and persists it. */
  const remember = (folder: string): void => {
    if (lastFolderProblem(folder)) return;
    const owner = process.getuid ? (folderOwner(folder) ?? undefined) : undefined;
    if (folder === remembered?.folder && owner === remembered.owner) return;
    remembered = owner === undefined ? { folder } : { folder, owner };
    if (!file) return;
    try {
      // Atomic: a link in its place is replaced, never written through.
      writeFileAtomic(file, `${JSON.stringify(remembered, null, 2)}\n`, { own: true });
    } catch (e) {
      // A convenience: losing it must never fail an open or a save.
      warn(`the last folder was not saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return {
    folder: () => {
      if (remembered === undefined) return undefined;
      const owner = folderOwner(remembered.folder);
      if (owner === null || (remembered.owner !== undefined && owner !== remembered.owner)) return undefined;
      return remembered.folder;
    },
    rememberFileChosen: (chosenFile) => remember(dirname(chosenFile)),
    rememberFolderChosen: remember,
  };
}

/**
 * `port` with the open dialogs started in the remembered folder when the caller gives none, a save with no folder
 * of its own (no defaultPath, or a bare name) started there too, and every pick remembered. Only the dialog's
 * starting place changes: the answers are passed on as they are.
 */
export function withLastFolder(port: DialogPort, store: LastFolderStore): DialogPort {
  const openAt = (defaultPath: string | undefined): string | undefined => defaultPath ?? store.folder();
  const saveAt = (defaultPath: string | undefined): string | undefined => {
    if (defaultPath !== undefined && isAbsolute(defaultPath)) return defaultPath;
    const folder = store.folder();
    if (!folder) return defaultPath;
    return defaultPath ? join(folder, defaultPath) : folder;
  };
  const picked = <T extends string | string[] | null>(answer: T): T => {
    const first = Array.isArray(answer) ? answer[0] : answer;
    if (typeof first === 'string' && first) store.rememberFileChosen(first);
    return answer;
  };
  const wrapped: DialogPort = {
    chooseFileToOpen: async (o) => picked(await port.chooseFileToOpen({ ...o, defaultPath: openAt(o.defaultPath) })),
    chooseFileToSave: async (o) => picked(await port.chooseFileToSave({ ...o, defaultPath: saveAt(o.defaultPath) })),
    confirm: (o) => port.confirm(o),
  };
  const folder = port.chooseFolder?.bind(port);
  // A folder chosen is remembered as the folder itself: the next dialog starts in it, not beside it.
  if (folder)
    wrapped.chooseFolder = async (o) => {
      const answer = await folder({ ...o, defaultPath: openAt(o.defaultPath) });
      if (answer) store.rememberFolderChosen(answer);
      return answer;
    };
  const many = port.chooseFilesToOpen?.bind(port);
  if (many) wrapped.chooseFilesToOpen = async (o) => picked(await many({ ...o, defaultPath: openAt(o.defaultPath) }));
  return wrapped;
}
