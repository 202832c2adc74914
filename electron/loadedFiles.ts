/**
 * What the page loaded of each document it may save back (a .sev, a project file), so that a save never silently
 * replaces a file that changed on disk since (a colleague's edit in a shared folder, a sync, another editor):
 * docs/security.md, "Saves and files changed on disk".
 *
 * When main reads a document for the page it remembers its size, modification time and a SHA-256 of the bytes read
 * (or that there was none). A save of that path first compares the file on disk with it, by content: a file touched
 * with its bytes unchanged is not a change (a coarse or a network file system may move the time without a write, or
 * keep it through one), a file deleted since, or replaced by a link or a folder, is. A change refuses the save with a
 * ChangedOnDiskError before anything is written, and the comparison runs again right before the rename that installs
 * the new file (`beforeRename`). What the refusal found is remembered too: a save the user confirmed ("Save anyway",
 * `overwrite`) replaces the file only while it is still what the refusal found, so a change made after the question
 * is asked about again. A save of a path never loaded (a new file, Save As) is a plain save.
 */
import { createHash } from 'node:crypto';
import { lstatSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readBytes } from './fsutil';
import { canonicalPath, quotePath } from './pathPolicy';
import type { ChangeOnDisk } from '../shared/ipc/transport';

/** A document as main read it (or found it missing), or what stood at its name when a save was refused. */
type DiskState =
  | { kind: 'file'; size: number; mtimeMs: number; sha256: string }
  | { kind: 'absent' }
  /** A link, a folder or another thing that is not a plain file: never what the page loaded. */
  | { kind: 'other'; what: 'link' | 'folder' | 'special'; mtimeMs: number }
  /**
   * A plain file main could not show the page (unreadable, too large): known by what lstat says of it, not by its
   * bytes, so it is compared by the same (its size, modification time and inode), never read. Not its ctime: the
   * commit's backup, a hard link, moves that.
   */
  | { kind: 'unread'; size: number; mtimeMs: number; ino: number };

/**
 * What main remembered of a motion's .mtn and tuning file when a copy of its unsaved edits was made
 * (electron/unsavedBackups.ts): kept with the copy, so that the Save of the copy restored after a restart compares
 * the pair on disk with what the edits were made over, as the first window's Save would have.
 */
export interface LoadedPair {
  mtn: DiskState | null;
  tuning: DiskState | null;
}

/** A DiskState as a copy's file holds it (a stranger's file: held to its shape), or throws naming what is wrong. */
function checkDiskState(v: unknown, what: string): DiskState | null {
  if (v === null) return null;
  const bad = (): never => {
    throw new Error(`backup: ${what} must be a file's remembered state or null`);
  };
  if (typeof v !== 'object' || Array.isArray(v)) return bad();
  const o = v as Record<string, unknown>;
  const count = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  const time = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  switch (o.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'file':
      if (!count(o.size) || !time(o.mtimeMs) || typeof o.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(o.sha256))
        return bad();
      return { kind: 'file', size: o.size as number, mtimeMs: o.mtimeMs as number, sha256: o.sha256 };
    case 'other':
      if ((o.what !== 'link' && o.what !== 'folder' && o.what !== 'special') || !time(o.mtimeMs)) return bad();
      return { kind: 'other', what: o.what, mtimeMs: o.mtimeMs as number };
    case 'unread':
      if (!time(o.size) || !time(o.mtimeMs) || !time(o.ino)) return bad();
      return { kind: 'unread', size: o.size as number, mtimeMs: o.mtimeMs as number, ino: o.ino as number };
    default:
      return bad();
  }
}

/** A LoadedPair as a copy's file holds it; undefined (a copy made before it was kept) is none. */
export function checkLoadedPair(v: unknown): LoadedPair | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error('backup: loaded must be an object or null');
  const o = v as Record<string, unknown>;
  return {
    mtn: checkDiskState(o.mtn ?? null, 'loaded.mtn'),
    tuning: checkDiskState(o.tuning ?? null, 'loaded.tuning'),
  };
}

/** The SHA-256 of `bytes`, in hex. */
function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The state of bytes just read or written at a path whose lstat (or fstat) is `st`. */
function stateOfBytes(bytes: Uint8Array | string, st: Pick<Stats, 'mtimeMs'> | null): DiskState {
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
  return { kind: 'file', size, mtimeMs: st?.mtimeMs ?? 0, sha256: sha256Of(bytes) };
}

/**
 * What is at `path` now, by lstat (or stat, with `follow`) alone: a plain file as `unread`. For a file remembered as
 * unread, whose bytes may be unreadable still (diskStateOf would throw) or too many to hash; diskStateOf reads and
 * hashes the plain file it finds.
 */
function unreadStateOf(path: string, follow = false): DiskState {
  let st: Stats;
  try {
    st = follow ? statSync(path) : lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
      return { kind: 'absent' };
    throw e;
  }
  if (st.isSymbolicLink()) return { kind: 'other', what: 'link', mtimeMs: st.mtimeMs };
  if (st.isDirectory()) return { kind: 'other', what: 'folder', mtimeMs: st.mtimeMs };
  if (!st.isFile()) return { kind: 'other', what: 'special', mtimeMs: st.mtimeMs };
  return { kind: 'unread', size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/**
 * What is at `path` now, read without following a link (with `follow`, through one). A plain file is read whole to
 * hash it only when `against` (what it is compared with) is a file of that size, hashed: one of any other size is
 * changed whatever it holds, and is left unread, so a file put at the name, a 3 GB sparse one among them, is never
 * read into main (docs/security.md, round 41). Without `against`, it is read.
 */
export function diskStateOf(path: string, follow = false, against?: DiskState): DiskState {
  const seen = unreadStateOf(path, follow);
  if (seen.kind !== 'unread') return seen;
  if (against && !(against.kind === 'file' && against.size === seen.size)) return seen;
  let bytes: Uint8Array;
  try {
    bytes = readBytes(path);
  } catch (e) {
    // Gone (or replaced by a folder) between the lstat and the read: asked again, once.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw e;
  }
  return stateOfBytes(bytes, seen);
}

/** How `now` differs from `then`, or undefined when it is the same file content (or the same absence). */
export function changeBetween(then: DiskState, now: DiskState): ChangeOnDisk | undefined {
  if (now.kind === 'absent') return then.kind === 'absent' ? undefined : 'deleted';
  if (now.kind === 'other') return then.kind === 'other' && then.what === now.what ? undefined : now.what;
  if (then.kind === 'absent') return 'created';
  // A file not read then is the same file only while lstat says the same of it (a write moves its time).
  if (then.kind === 'unread')
    return now.kind === 'unread' && now.size === then.size && now.mtimeMs === then.mtimeMs && now.ino === then.ino
      ? undefined
      : 'changed';
  if (then.kind !== 'file' || now.kind !== 'file') return 'changed';
  // Same bytes, whatever the time says: a touch, or a copy of the same text, is no change.
  return then.size === now.size && then.sha256 === now.sha256 ? undefined : 'changed';
}

/** Words for a change, after "it …". */
function changeWords(change: ChangeOnDisk): string {
  switch (change) {
    case 'changed':
      return 'changed on disk since it was opened';
    case 'deleted':
      return 'was deleted from disk since it was opened';
    case 'created':
      return 'was created on disk since the editor found none there';
    case 'link':
      return 'was replaced on disk by a symbolic link since it was opened';
    case 'folder':
      return 'was replaced on disk by a folder since it was opened';
    case 'special':
      return 'was replaced on disk by something that is not a plain file since it was opened';
  }
}

/** A save refused because the file changed on disk since the page loaded it: nothing was written. */
export class ChangedOnDiskError extends Error {
  readonly path: string;
  readonly change: ChangeOnDisk;
  constructor(path: string, change: ChangeOnDisk) {
    super(
      `Did not save ${quotePath(path)}: it ${changeWords(change)} (another program or person wrote it); nothing was ` +
        `written and your edits are kept. Reload it from disk, or save again to replace it.`,
    );
    this.name = 'ChangedOnDiskError';
    this.path = path;
    this.change = change;
  }
}

/**
 * The name a document is remembered and compared at: its folder with links resolved, and its own name as it is, not
 * through a link. A file replaced by a link since it was read is then found as a link, not as the file it leads to.
 */
function loadedNameOf(path: string): string {
  return join(canonicalPath(dirname(path)), basename(path));
}

/** Whether `a` and `b` name the same document as LoadedFiles remembers it (a Save, not a Save As elsewhere). */
export function sameLoadedName(a: string, b: string): boolean {
  return loadedNameOf(a) === loadedNameOf(b);
}

/** What main remembers of a document: the state read, and whether its name was a link then (compared through it). */
interface Loaded {
  state: DiskState;
  throughLink: boolean;
}

/** Whether the name is a symbolic link now. */
function isLinkNow(name: string): boolean {
  try {
    return lstatSync(name).isSymbolicLink();
  } catch {
    return false;
  }
}

/** How a read is named to the page (ProjectTextFile.loadedAs): the SHA-256 of its bytes, or `none`. */
function versionOf(state: DiskState): string {
  return state.kind === 'file' ? state.sha256 : 'none';
}

/** Whether `v` may name a read: a SHA-256 in lower-case hex, or `none`. */
export function isLoadedVersion(v: unknown): v is string {
  return typeof v === 'string' && (v === 'none' || /^[0-9a-f]{64}$/.test(v));
}

/** The reads of a file kept since its last save, for a page that shows an earlier one: the newest few. */
const READS_KEPT = 8;

/** The documents main loaded for the page, by their name (loadedNameOf of the path read or written). */
export class LoadedFiles {
  private readonly loaded = new Map<string, Loaded>();
  /** The reads of each name since its last save (newest last), by which a save may name what the page shows. */
  private readonly reads = new Map<string, Loaded[]>();
  /** What a refusal found at the name: a save with `overwrite` may replace exactly that. */
  private readonly refused = new Map<string, Loaded>();

  /**
   * Remembers what was just read (or written) at `given`: `bytes`, or that nothing was there (null). A name that is a
   * link now (it stood there when the user chose it: the policy writes through such a one) is compared through it.
   */
  remember(given: string, bytes: Uint8Array | string | null, asRead = false): string {
    const path = loadedNameOf(given);
    const throughLink = isLinkNow(path);
    let st: Stats | null = null;
    try {
      st = throughLink ? statSync(path) : lstatSync(path);
    } catch {
      // gone at once: the next save compares with the bytes, and finds it deleted
    }
    const entry: Loaded = { state: bytes === null ? { kind: 'absent' } : stateOfBytes(bytes, st), throughLink };
    this.loaded.set(path, entry);
    this.refused.delete(path);
    // A read joins the earlier reads a page may still show; a save (or a read not offered by name) starts afresh.
    this.reads.set(path, asRead ? [...(this.reads.get(path) ?? []), entry].slice(-READS_KEPT) : []);
    return versionOf(entry.state);
  }

  /**
   * Remembers that the file at `given` was there but not shown to the page (unreadable, too large, a link out of its
   * folder): by lstat alone, so a later save finds any change from it, as from a file read.
   */
  rememberUnread(given: string): void {
    const path = loadedNameOf(given);
    let state: DiskState;
    try {
      state = unreadStateOf(path);
    } catch {
      // Not even its lstat: nothing to compare with, so any plain file found at the save counts as changed.
      state = { kind: 'unread', size: -1, mtimeMs: -1, ino: -1 };
    }
    const entry: Loaded = { state, throughLink: false };
    this.loaded.set(path, entry);
    this.refused.delete(path);
    this.reads.set(path, []);
  }

  /**
   * Remembers `state` for `given` as if it had been read now: what a restored copy of unsaved edits was made over
   * (LoadedPair), so its Save compares with that.
   */
  rememberState(given: string, state: DiskState): void {
    const path = loadedNameOf(given);
    const entry: Loaded = { state, throughLink: isLinkNow(path) };
    this.loaded.set(path, entry);
    this.refused.delete(path);
    this.reads.set(path, []);
  }

  /** What was remembered of `path`, if anything. */
  stateOf(path: string): DiskState | undefined {
    return this.loaded.get(loadedNameOf(path))?.state;
  }

  /**
   * The check before a save of `path`: throws ChangedOnDiskError when the file on disk is not what the page loaded
   * (with `overwrite`, not what the last refusal found there). Returns the function to call again right before the
   * rename, which throws the same way. A path never loaded passes. `shown`: the read the page shows
   * (ProjectTextFile.loadedAs), when it kept edits over a later read: compared with that one while it is kept.
   */
  check(given: string, overwrite = false, shown?: string): () => void {
    const path = loadedNameOf(given);
    const confirmed = overwrite ? this.refused.get(path) : undefined;
    const checkNow = (): void => {
      // Looked up at each call: an earlier save of the same file, renamed in between (saves of a file go in turn),
      // remembered what it wrote.
      // The read the page shows, while no save of the file has landed since (then what it wrote is compared).
      const shownRead =
        shown === undefined
          ? undefined
          : [...(this.reads.get(path) ?? [])].reverse().find((r) => versionOf(r.state) === shown);
      const expected = confirmed ?? shownRead ?? this.loaded.get(path);
      if (!expected) return;
      const now =
        expected.state.kind === 'unread'
          ? unreadStateOf(path, expected.throughLink)
          : diskStateOf(path, expected.throughLink, expected.state);
      const change = changeBetween(expected.state, now);
      if (change === undefined) return;
      this.refused.set(path, { state: now, throughLink: expected.throughLink });
      throw new ChangedOnDiskError(given, change);
    };
    checkNow();
    return checkNow;
  }
}
