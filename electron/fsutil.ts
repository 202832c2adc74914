/**
 * Reading and writing one file of the user's, safely: reads bounded and refusing what is not a plain file (a FIFO, a
 * device, another user's file where that matters), atomic writes (a temp beside the target, flushed, renamed over it,
 * its permissions kept; synchronous and in Node's thread pool), and folder pins (a write goes only into the folder
 * that was checked). Several files as one unit are build/commit.ts's; the count and order of the writes running,
 * writeTurns.ts's.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { close as fsClose, fsync as fsFsync, open as fsOpen, write as fsWrite } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { TEXT_MAX_BYTES } from '../shared/sev/text';
import {
  danglingOutputError,
  describeFsError,
  exportWriteFailed,
  linkedFileOutputProblem,
  lstatOrNull,
  outputFolderProblem,
  systemReason,
} from './fsErrors';
import { noteInputRead, ownFileNameProblem, ownTempName, sweepStaleTemps } from './tempFiles';
import { inTurn, trackWrite } from './writeTurns';

/** A text file larger than the decoder takes (shared/sev/text.ts) is refused before it is read. */
export const TEXT_LIMIT = { bytes: TEXT_MAX_BYTES, of: 'a text file' };

/**
 * Whether a file or folder whose owner is `owner` (a user id) belongs to another user: neither this process's user
 * nor root. What another user owns in the user's own state (a recent file's path, a verdict, a record of a build)
 * is theirs to have made and to change at any time (docs/security.md, rounds 24 and 26). False on a system without
 * user ids (Windows).
 */
export function anotherUsers(owner: number | bigint, me: number | undefined = process.getuid?.()): boolean {
  return me !== undefined && Number(owner) !== me && Number(owner) !== 0;
}

/**
 * Throws unless `st` (an fstat of a file opened without waiting) is a plain file: EISDIR for a folder, ENOTREG
 * (in words, fsErrors.ts) for a FIFO, socket or device, which a read would wait on forever or never finish.
 */
export function refuseUnlessPlain(st: Stats, path: string): void {
  if (st.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), {
      code: 'EISDIR',
      path,
    });
  if (!st.isFile())
    throw Object.assign(new Error(`ENOTREG: not a plain file (a pipe, socket or device), open '${path}'`), {
      code: 'ENOTREG',
      path,
    });
}

/**
 * Reads a whole file as bytes (a Uint8Array view, not a Buffer subclass surprise). Only a plain file is read:
 * a FIFO a project names would otherwise hang the read until something writes to it, and a device such as
 * /dev/zero never ends. The open never waits (O_NONBLOCK), and what is not a plain file is refused with code
 * ENOTREG (EISDIR for a folder), so callers word it as they word other file-system errors. With `limit`, a larger
 * file is refused (EFBIG, in words) before any of it is read. No more than the size the open file has is read.
 */
export function readBytes(path: string, limit?: { bytes: number; of: string }): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    return readBytesOf(fd, path, limit);
  } finally {
    closeSync(fd);
  }
}

/**
 * readBytes of a file already open as `fd` (left open: the caller closes it), named `path` in messages: a file judged
 * on its descriptor is read through that descriptor, never opened again by name (recentFiles.ts openRecentFile).
 */
export function readBytesOf(fd: number, path: string, limit?: { bytes: number; of: string }): Uint8Array {
  const st = fstatSync(fd);
  refuseUnlessPlain(st, path);
  noteInputRead(st);
  // A file larger than its kind can be is not read at all (a sparse 1.5 GB .sev costs an archive a few bytes).
  if (limit && st.size > limit.bytes)
    throw Object.assign(
      new Error(
        `EFBIG: it is ${st.size} bytes, more than the ${limit.bytes} ActGuy reads of ${limit.of}, read '${path}'`,
      ),
      { code: 'EFBIG', path },
    );
  // No more than the size fstat gave is read, as the header-first reader does (io/readBinary.ts): a file that says
  // 0 bytes and never ends (/proc/self/pagemap gives 256 GB of zeros, reached through a tuning file's link) was
  // read until memory ran out, past every size check above (docs/security.md, round 13).
  const out = Buffer.allocUnsafeSlow(st.size);
  let at = 0;
  while (at < out.length) {
    const n = readSync(fd, out, at, out.length - at, at);
    if (n === 0) break;
    at += n;
  }
  return new Uint8Array(out.buffer, out.byteOffset, at);
}

/**
 * The first `maxBytes` bytes of the file at `path` (links followed), or undefined when there is none. As readBytes,
 * only a plain file is read (ENOTREG, EISDIR otherwise) and the open never waits on a FIFO.
 */
export function readFileHead(path: string, maxBytes: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const st = fstatSync(fd);
    // As readBytes: the message starts with its code, so a folder reads `FOLDER: is a directory, not a file`, not the raw text.
    refuseUnlessPlain(st, path);
    noteInputRead(st);
    const buf = Buffer.alloc(maxBytes);
    let n = 0;
    for (let got = 1; got > 0 && n < maxBytes; n += got) got = readSync(fd, buf, n, maxBytes - n, null);
    return new Uint8Array(buf.buffer, buf.byteOffset, n);
  } finally {
    closeSync(fd);
  }
}

/** A small file read without trusting it; `undefined` when it does not exist. */
export type SmallFile = { text: string; ctimeMs: number } | { problem: string };

/**
 * Opens a file to be read, never through a symbolic link at its name (O_NOFOLLOW: ELOOP instead) and never waiting on
 * a FIFO (O_NONBLOCK), so what the caller then judges on the descriptor (fstat) is what it reads. Throws the open's
 * error as it is.
 */
export function openNoFollow(path: string): number {
  return openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
}

/**
 * Where the open file `fd` really lies, as the kernel says (Linux's /proc/self/fd), or undefined where it cannot be
 * asked (another system, /proc not mounted).
 */
export function openedAt(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return realpathSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Reads a file that may be hostile: only a plain file (not a link, a FIFO or a
 * device), at most `maxBytes`, UTF-8. What is wrong comes back as a problem in
 * words, so the caller names the file.
 */
export function readSmallFile(path: string, maxBytes: number): SmallFile | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: describeFsError(e) };
  }
  const kind = notPlainFile(st);
  if (kind) return { problem: kind };
  if (st.size > maxBytes) return { problem: `it is ${st.size} bytes, more than the ${maxBytes} it could be` };
  let fd: number;
  try {
    // No link may be followed and no FIFO may block the open, even if the file changed since the lstat.
    fd = openNoFollow(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { problem: code === 'ELOOP' ? 'it is a symbolic link' : describeFsError(e) };
  }
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) return { problem: 'it is not a plain file' };
    noteInputRead(fst);
    // As large as the file (and one byte more, to see it grow), not as the limit: a backup's limit is 44 MB.
    const buf = Buffer.alloc(Math.min(maxBytes, fst.size) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > maxBytes) return { problem: `it is more than the ${maxBytes} bytes it could be` };
      if (n === buf.length) return { problem: 'it grew while it was read' };
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, n));
    } catch {
      return { problem: 'it is not UTF-8 text' };
    }
    return { text, ctimeMs: fst.ctimeMs };
  } catch (e) {
    return { problem: describeFsError(e) };
  } finally {
    closeSync(fd);
  }
}

/** Why an lstat result is not a plain file, or undefined when it is one. */
export function notPlainFile(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  if (st.isDirectory()) return 'it is a folder';
  if (!st.isFile()) return 'it is not a plain file';
  return undefined;
}

/**
 * Why an output may not replace what is at `path`, or undefined when it may (nothing there, a regular file, a folder,
 * which the callers refuse in their own words, or a link that leads to one of those or nowhere). A write renames its
 * temp over the name, so a device, a pipe or a socket there was replaced by a regular file: `actguy import -o
 * /dev/null` run as root replaced the machine's /dev/null, and every program that wrote to it then wrote to a file
 * (docs/security.md, round 38). A link to one (`/dev/stdout`, `/proc/self/fd/1`) is refused too: replacing the link
 * is never what was asked. `st` is what is at `path` (lstatOrNull), where the caller looked already.
 */
export function notReplaceableProblem(path: string, st = lstatOrNull(path)): string | undefined {
  if (!st) return undefined;
  if (st.isFile() || st.isDirectory()) return undefined;
  const why = 'a device, pipe or socket, not a regular file (an output replaces only a regular file)';
  if (!st.isSymbolicLink()) return `it is ${why}`;
  let to: Stats;
  try {
    to = statSync(path);
  } catch {
    return undefined; // a link that leads nowhere: the callers refuse it in their words (danglingOutputProblem)
  }
  return to.isFile() || to.isDirectory() ? undefined : `it is a link to ${why}`;
}

/**
 * `cannot write <shown>: <why>` when an output may not replace what is at `path` (notReplaceableProblem), else
 * undefined: the one wording of that refusal, for the app's saves (startAtomicWrite) and the build's commit and its
 * check before the build (build/commit.ts). `shown` is the name the message gives (default `path`).
 */
export function notReplaceableMessage(path: string, shown = path, at = lstatOrNull(path)): string | undefined {
  const special = notReplaceableProblem(path, at);
  return special && `cannot write ${shown}: ${special}`;
}

/**
 * The error for a temp that could not be made beside `path` (its folder holds no new files: /proc, a read-only disk,
 * a folder of another user's): says so, and names the output, where the system's error named only the temp's path
 * (`/proc/x.mtn: no such file or directory`). Keeps the system error's code. Other errors are given back as they are.
 */
function tempNotMadeError(e: unknown, path: string): unknown {
  const code = (e as NodeJS.ErrnoException)?.code;
  // Other failures (a full disk, too many open files, a test's stand-in) go on as they were, the temp's path replaced.
  if (!code || !['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR'].includes(code)) return e;
  return Object.assign(
    new Error(
      `cannot write ${path}: cannot create a temporary file beside it in ${dirname(path) || '.'} (${describeFsError(e)}); ` +
        'an output is written to a temporary file in its folder and then renamed over its name; nothing was written',
    ),
    { code, path },
  );
}

/**
 * The permission bits a new file replacing `path` keeps: those of the plain file there now (a file the user made
 * private, 0600, stays private; a temp file renamed over it had 0666 less the umask, so a save made it readable
 * by every user of the machine), or undefined when there is none. Set-id and sticky bits are not carried over. `at` is
 * what is at `path` (lstatOrNull), where the caller looked already.
 */
export function modeToKeep(path: string, at = lstatOrNull(path)): number | undefined {
  return at?.isFile() ? at.mode & 0o777 : undefined;
}

/**
 * Gives the open temp file `fd` the permission bits of the file it replaces (modeToKeep). It was created with
 * them already (less the umask), so it was never more open than the old file; this restores bits the umask took.
 * A disk that keeps no permissions (FAT, some network shares) refuses, and the save goes on.
 */
export function keepMode(fd: number, mode: number | undefined): void {
  if (mode === undefined) return;
  try {
    fchmodSync(fd, mode);
  } catch {
    /* a file system without permission bits */
  }
}

/**
 * The file-system calls writeFileAtomic makes, as a seam: tests replace one
 * to make a write fail halfway the way a full disk does, which works as root
 * (CI runs as root, where a read-only folder does not stop a write). Never
 * replaced outside tests.
 */
export const atomicWriteIo = { openSync, writeSync, fsyncSync, closeSync, renameSync, unlinkSync };

/**
 * What writeFileAtomic and writeFileAtomicAsync do before they write: refuse a name of the tool's own files, make
 * the folder, refuse a folder at the name (and a pinned folder moved since), sweep stale temps; gives the temp name,
 * the bytes and the mode to keep.
 */
function startAtomicWrite(
  path: string,
  data: Uint8Array | string,
  folder?: FolderPin,
  own?: boolean,
): { tmp: string; bytes: Uint8Array; mode: number | undefined } {
  const reserved = ownFileNameProblem(path, 'single');
  if (reserved) throw Object.assign(new Error(`${reserved}; choose another name`), { code: 'ERESERVED', path });
  // Stryker disable next-line StringLiteral: node's dirname never returns '' (it gives '.'), so the fallback's value is never used
  const dir = dirname(path) || '.';
  try {
    makeFolders(dir);
  } catch (e) {
    // What is in the way, named: `ex` a FIFO was "a file is in the way" (docs/security.md, round 48).
    const problem = outputFolderProblem(resolve(path), path);
    if (problem) throw Object.assign(new Error(problem), { code: (e as NodeJS.ErrnoException).code, path });
    throw userPathError(e, path, `cannot create the folder ${dir} for ${path}`);
  }
  // Stryker disable next-line StringLiteral: the inner message is never shown (systemReason words EISDIR by its code)
  if (isFolder(path))
    throw userPathError(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }), path, `cannot write ${path}`);
  // One look at what is at the name (not where a link leads) serves the three checks below and the mode kept, so that each
  // judges the same thing: two looks could each see another thing, were the name replaced between them.
  const at = lstatOrNull(path);
  const special = own ? undefined : notReplaceableMessage(path, path, at);
  if (special) throw Object.assign(new Error(`${special}; nothing was written`), { code: 'ENOTREG', path });
  // A link to nothing at the name was replaced by the file, the link lost, where a build refuses it (round 48): the
  // same refusal, in the same words (docs/security.md, round 49). ActGuy's own files (`own`) replace it, as anything.
  const dangling = own ? undefined : danglingOutputError(path, at);
  if (dangling) throw dangling;
  // A link to a file there was replaced by the output, the file it leads to untouched (docs/security.md, round 50).
  const linked = own ? undefined : linkedFileOutputProblem(path, path, at);
  if (linked) throw Object.assign(new Error(`${linked}; nothing was written`), { code: 'ELINKED', path });
  if (folder) refuseMovedFolder(folder, path);
  sweepStaleTemps([path]);
  return {
    tmp: ownTempName(path, 'new'),
    // Stryker disable next-line ConditionalExpression,StringLiteral: Buffer.from copies a Uint8Array whatever the encoding, and '' means utf8 too
    bytes: typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
    mode: modeToKeep(path, at),
  };
}

/** How writeFileAtomic and writeFileAtomicAsync write. */
interface AtomicWriteOptions {
  /** false: no flush (a cache a later run can work out again, checked when read). */
  durable?: boolean;
  /** The folder as pinned before the work: the write is refused if it moved since. */
  folder?: FolderPin;
  /**
   * A file of ActGuy's own in its state or cache folder (a record, the code cache, a copy of unsaved work): whatever
   * is at its name is replaced, a FIFO or a device there included, which heals that folder. Never for the user's
   * files, where such a name is refused (notReplaceableProblem).
   */
  own?: boolean;
}

/**
 * Writes a file atomically: a temp file beside it, flushed, then renamed over
 * the target, so a crash or a full disk never leaves a half-written file
 * where a good one was. A failure removes the temp file and throws an error
 * that names `path` (never the temp file) and keeps the system error's code.
 * Temps of this target that a killed run left behind are swept first
 * (tempFiles.ts names them after their writer). `durable: false` leaves out the
 * flush, for a file that is only a cache of something a later run can work out
 * again and that is checked when read (a power cut may then leave it empty).
 */
export function writeFileAtomic(path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): void {
  const { tmp, bytes, mode } = startAtomicWrite(path, data, options.folder, options.own);
  const io = atomicWriteIo;
  const { made, pinned } = tempHome(options.folder, tmp, path);
  let fd: number | null = null;
  try {
    try {
      fd = io.openSync(made, 'wx', mode ?? 0o666);
    } catch (e) {
      throw tempNotMadeError(e, path);
    }
    keepMode(fd, mode);
    for (let at = 0; at < bytes.byteLength;) at += io.writeSync(fd, bytes, at, bytes.byteLength - at);
    if (options.durable !== false) io.fsyncSync(fd);
    io.closeSync(fd);
    fd = null;
    // Checked again last, and renamed through the folder the temp was made in (PinnedFolders.rename): a swap after
    // the check moves nothing, and none of the seconds of a compression before it.
    if (options.folder) refuseMovedFolder(options.folder, path);
    pinned.rename(tmp, path);
  } catch (e) {
    // Stryker disable next-line ConditionalExpression: true only adds closeSync(null), which throws into the empty catch
    if (fd !== null)
      try {
        io.closeSync(fd);
      } catch {
        /* already failing */
      }
    try {
      io.unlinkSync(made);
    } catch {
      /* temp file may not exist */
    }
    throw withoutTempPath(e, [made, tmp], path);
  } finally {
    pinned.close();
  }
}

/**
 * Where a write makes its temp `tmp`, and the folder it is renamed through: its pinned folder, opened now
 * (openPinnedFolders) and kept open to the rename, so that a folder on the path swapped for a link while the temp is
 * made, written or installed gets none of it (docs/security.md, rounds 41 and 42), as a commit keeps its folders;
 * by name without a pin, or where the folder cannot be opened so. `pinned` is the caller's to close.
 */
function tempHome(folder: FolderPin | undefined, tmp: string, path: string): { made: string; pinned: PinnedFolders } {
  const pinned = openPinnedFolders(folder ? [folder] : [], path);
  return { made: pinned.at(tmp), pinned };
}

/**
 * The asynchronous calls writeFileAtomicAsync makes (Node's thread pool), as a seam as atomicWriteIo is: tests hold a
 * write back or make it fail halfway (a full disk). Never replaced outside tests.
 */
export const asyncWriteIo = {
  open: (path: string, flags: string, mode: number): Promise<number> =>
    new Promise((resolve, reject) => fsOpen(path, flags, mode, (e, fd) => (e ? reject(e) : resolve(fd)))),
  write: (fd: number, bytes: Uint8Array, offset: number, length: number): Promise<number> =>
    new Promise((resolve, reject) => fsWrite(fd, bytes, offset, length, null, (e, n) => (e ? reject(e) : resolve(n)))),
  fsync: (fd: number): Promise<void> =>
    new Promise((resolve, reject) => fsFsync(fd, (e) => (e ? reject(e) : resolve()))),
  close: (fd: number): Promise<void> =>
    new Promise((resolve, reject) => fsClose(fd, (e) => (e ? reject(e) : resolve()))),
};

/**
 * Writes `pieces` whole at `fd`'s position, in order, through asyncWriteIo: a write may take fewer bytes than asked,
 * so a short one goes on from where it stopped (writeFileAtomicAsync, build/commit.ts's temps written off the main
 * thread).
 */
export async function writePiecesAsync(fd: number, pieces: Iterable<Uint8Array>): Promise<void> {
  for (const piece of pieces)
    for (let at = 0; at < piece.byteLength;) at += await asyncWriteIo.write(fd, piece, at, piece.byteLength - at);
}

/** What writeFileAtomicAsync writes: bytes, text (UTF-8), or pieces made one at a time as the write asks for them. */
type AsyncWriteData = Uint8Array | string | Iterable<Uint8Array>;

/** How writeFileAtomicAsync writes: as writeFileAtomic, and what it asks right before the rename. */
interface AsyncWriteOptions extends AtomicWriteOptions {
  /** Asked right before the rename: false drops the write (the temp removed, nothing replaced). */
  stillWanted?: () => boolean;
  /**
   * Called right before the rename, after the folder's check, in the same turn of the event loop: what it throws
   * refuses the write (the temp removed, nothing replaced) and is thrown as it is (a save's check that the file on
   * disk is still the one the page loaded, electron/loadedFiles.ts).
   */
  beforeRename?: () => void;
}

/**
 * writeFileAtomic with the write and its flush off the main thread (Node's thread pool): for a file written often
 * while the user works (main's copy of unsaved work, up to 44 MB), or large (a save, an export), whose write and
 * fsync took the main thread tenths of a second. `data` given as pieces (an iterable) is made one piece at a time,
 * each written before the next is made: the work of making them (a motion copy's base64) is spread over turns of the
 * event loop, not one long stall. Only the metadata calls (the folder, the sweep, the rename) are synchronous; the
 * rename and the removal of the temp go through atomicWriteIo as writeFileAtomic's do. `folder` is checked again
 * right before the rename (FolderPin). `stillWanted` is asked right before the rename, in the same turn of the event
 * loop: when it says no (a newer copy, or the copy's removal, came meanwhile) the temp file is removed and nothing
 * replaces `path`; resolves whether it was renamed. Failures are as writeFileAtomic's: the temp removed, `path`
 * named, the previous file untouched. Without `stillWanted`, writes of one file go in the order they were asked for
 * (inTurn): this one starts once the earlier ones of `path` have ended. The write counts in writesInFlight until it
 * ends.
 */
export function writeFileAtomicAsync(
  path: string,
  data: AsyncWriteData,
  options: AsyncWriteOptions = {},
): Promise<boolean> {
  // A write that asks stillWanted keeps its own order (a stale one is dropped, a newer one need not wait for it).
  if (options.stillWanted) return trackWrite(() => writeAtomicAsync(path, data, options));
  return trackWrite(() => inTurn([path], () => writeAtomicAsync(path, data, options), true));
}

/**
 * An export's file (.mt3, glTF) written in one step through the folder the export checked (pinFolder): a failed write
 * is said with what to do next, the file on disk unchanged (fsErrors.ts exportWriteFailed).
 */
export async function writeExportedFile(path: string, bytes: Uint8Array, folder?: FolderPin): Promise<void> {
  try {
    await writeFileAtomicAsync(path, bytes, { folder });
  } catch (e) {
    throw exportWriteFailed(path, e);
  }
}

async function writeAtomicAsync(path: string, data: AsyncWriteData, options: AsyncWriteOptions): Promise<boolean> {
  const pieces = typeof data !== 'string' && !(data instanceof Uint8Array) ? data : null;
  const { tmp, bytes, mode } = startAtomicWrite(
    path,
    pieces ? '' : (data as Uint8Array | string),
    options.folder,
    options.own,
  );
  const io = asyncWriteIo;
  const { made, pinned } = tempHome(options.folder, tmp, path);
  let fd: number | null = null;
  let refusedBeforeRename = false;
  try {
    fd = await io.open(made, 'wx', mode ?? 0o666).catch((e: unknown) => {
      throw tempNotMadeError(e, path);
    });
    const written = tempMadeAs(fd);
    keepMode(fd, mode);
    await writePiecesAsync(fd, pieces ?? [bytes]);
    // `durable: false` as writeFileAtomic's: a record a later run can work out again, checked when read.
    if (options.durable !== false) await io.fsync(fd);
    const open = fd;
    fd = null;
    await io.close(open);
    if (options.stillWanted && !options.stillWanted()) {
      atomicWriteIo.unlinkSync(made);
      return false;
    }
    // Checked again last: the window left is this check and the rename, not the seconds of a check or a compression.
    if (options.folder) refuseMovedFolder(options.folder, path);
    refuseTempNotWritten(made, written, path);
    if (options.beforeRename)
      try {
        options.beforeRename();
      } catch (e) {
        refusedBeforeRename = true;
        throw e;
      }
    // The rename made through the folder the temp was made in: the comparison above reads and hashes the file (a 30 MB
    // motion: a tenth of a second), and a swap in that time no longer moves where the file lands.
    pinned.rename(tmp, path);
    return true;
  } catch (e) {
    if (fd !== null) await io.close(fd).catch(() => undefined);
    try {
      atomicWriteIo.unlinkSync(made);
    } catch {
      /* temp file may not exist */
    }
    if (refusedBeforeRename) throw e;
    throw withoutTempPath(e, [made, tmp], path);
  } finally {
    pinned.close();
  }
}

/**
 * Writes `data` as a new file at `path`, never over anything: created exclusively ('wx': a file, link or folder at the
 * name is neither followed nor replaced, and the call fails with EEXIST), written off the main thread and flushed. A
 * failure after the create removes the partial file, which is this call's own. Counts in writesInFlight until it ends.
 * `pinned`: the folders the caller checked and opened (openPinnedFolders), through which the file is made, so that a
 * folder swapped for a link since gets nothing (docs/security.md, round 42); an error still names `path`.
 */
export function writeNewFileAsync(path: string, data: Uint8Array, pinned?: PinnedFolders): Promise<void> {
  const at = pinned ? pinned.at(path) : path;
  return trackWrite(async () => {
    const io = asyncWriteIo;
    let fd: number;
    try {
      fd = await io.open(at, 'wx', 0o666);
    } catch (e) {
      throw withoutTempPath(e, [at], path);
    }
    try {
      await writePiecesAsync(fd, [data]);
      await io.fsync(fd);
    } catch (e) {
      await io.close(fd).catch(() => undefined);
      try {
        atomicWriteIo.unlinkSync(at);
      } catch {
        /* gone already */
      }
      throw withoutTempPath(e, [at], path);
    }
    await io.close(fd);
  });
}

/** A temp as it was made (tempMadeAs): its identity, and where the kernel made it, when that can be asked. */
export interface TempMade {
  dev: number;
  ino: number;
  /** The path the descriptor was opened at, links resolved (Linux's /proc/self/fd), else undefined. */
  at?: string;
}

/**
 * The temp open at `fd` as it was made: its identity, and on Linux the path the kernel made it at, links resolved
 * (/proc/self/fd/N), asked while it is open. A folder swapped for a link around the temp's open has it made in the
 * folder the link led to, which refuseTempNotWritten then cleans up (removeStrayTemp; docs/security.md, round 36).
 */
export function tempMadeAs(fd: number): TempMade {
  const { dev, ino } = fstatSync(fd);
  let at: string | undefined;
  try {
    at = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    /* not Linux, or no /proc: where it was made is not known */
  }
  return { dev, ino, ...(at?.startsWith('/') && { at }) };
}

/**
 * Removes the temp `made` where it was made, when that is not where the write looked for it (a folder swapped around
 * its open): only the very file made (its device and inode, looked at without following a link), so nothing else
 * at that name is removed. Before round 36 it stayed in the folder the link led to (round 35's "Left open"). A
 * failure is ignored: the write is refused either way.
 */
function removeStrayTemp(made: TempMade): void {
  if (!made.at) return;
  try {
    const st = lstatSync(made.at);
    if (st.isFile() && st.dev === made.dev && st.ino === made.ino) atomicWriteIo.unlinkSync(made.at);
  } catch {
    /* gone already, or not reachable */
  }
}

/**
 * Throws (code EFOLDERMOVED) unless the file at `tmp` now is the temp this write made (`written`: its fstat when it
 * was opened). An asynchronous write opens its temp by name in the thread pool, and whoever may write the folder
 * can swap it for a link to a folder of theirs around that open and back before the rename: the temp is made there,
 * and the rename then found none (a commit took that for a temp already installed and reported the save done with
 * nothing written), or a file they put at the temp's name meanwhile, which it installed as the user's save
 * (docs/security.md, round 35).
 */
export function refuseTempNotWritten(tmp: string, written: TempMade, path: string): void {
  let now: Stats | undefined;
  try {
    now = lstatSync(tmp);
  } catch {
    /* gone: refused below */
  }
  if (now?.isFile() && now.dev === written.dev && now.ino === written.ino) return;
  removeStrayTemp(written);
  throw Object.assign(
    new Error(
      `its folder ${dirname(path)} changed while it was written (the file written is not where it was made); nothing was written there`,
    ),
    { code: 'EFOLDERMOVED', path },
  );
}

/**
 * A folder as a write was checked there: what it resolved to then (links followed) and its identity. A write that
 * waits between its check and its write (the app's Export MT3 compresses for seconds, a save checks its text in a
 * worker) passes it to writeFileAtomic, which refuses to write once the folder resolves elsewhere or is another one:
 * a folder on the path swapped for a link in that window had the file written where the link led (docs/security.md,
 * round 17). Node has no write relative to an open folder, so this narrows the window to a check and a rename.
 */
export interface FolderPin {
  dir: string;
  /** What `dir` resolved to (for a folder not made yet: its nearest existing folder's real path and the rest). */
  real: string;
  /** The nearest folder of `dir` that existed (`dir` itself when it did), its real path and identity. */
  anchor: string;
  anchorReal: string;
  dev: number;
  ino: number;
}

/**
 * Pins `dir` (see FolderPin), also one not made yet (a build's `out/`): its nearest existing folder is pinned, and
 * `dir` must then resolve to that folder's real path and the rest. Undefined when nothing on the path can be
 * resolved, which the write then meets and words.
 */
export function pinFolder(dir: string): FolderPin | undefined {
  const abs = resolve(dir);
  for (let anchor = abs; ; anchor = dirname(anchor)) {
    try {
      const anchorReal = realpathSync(anchor);
      const st = statSync(anchorReal);
      if (!st.isDirectory()) return undefined;
      const real = anchor === abs ? anchorReal : join(anchorReal, relative(anchor, abs));
      return { dir, real, anchor, anchorReal, dev: st.dev, ino: st.ino };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(anchor) === anchor) return undefined;
    }
  }
}

/**
 * Why `pin.dir` is no longer the folder pinned (it resolves elsewhere, another folder has its place, it is gone), in
 * words; undefined while it is. A folder not made yet at the pin may be made since, where the pin said it would be.
 */
export function movedFolderProblem(pin: FolderPin): string | undefined {
  const now = (real: string | undefined, what = 'it') =>
    `its folder ${pin.dir} changed after it was checked (${
      real === undefined
        ? `${what} is gone`
        : real === (what === 'it' ? pin.real : pin.anchorReal)
          ? `another folder is there now`
          : `${what} now leads to ${real}`
    })`;
  const above = pin.anchor === pin.dir ? 'it' : `the folder above it, ${pin.anchor},`;
  let anchorReal: string;
  try {
    anchorReal = realpathSync(pin.anchor);
    const st = statSync(anchorReal);
    if (!(anchorReal === pin.anchorReal && st.isDirectory() && st.dev === pin.dev && st.ino === pin.ino))
      return now(anchorReal, above);
  } catch {
    return now(undefined, above);
  }
  if (pin.anchor === pin.dir) return undefined;
  let real: string;
  try {
    real = realpathSync(pin.dir);
  } catch (e) {
    // Not made yet: it will be made under the folder pinned.
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : now(undefined);
  }
  return real === pin.real && isFolder(real) ? undefined : now(real);
}

/** The folders of `paths`, each pinned once (FolderPin): a build's outputs as it checked them before compressing. */
export function pinFoldersOf(paths: readonly string[]): FolderPin[] {
  const dirs = [...new Set(paths.map((p) => dirname(resolve(p))))];
  return dirs.flatMap((d) => pinFolder(d) ?? []);
}

/** Throws (code EFOLDERMOVED) unless `pin.dir` still resolves to the folder pinned. */
function refuseMovedFolder(pin: FolderPin, path: string): void {
  const problem = movedFolderProblem(pin);
  if (problem) throw Object.assign(new Error(`${problem}; nothing was written there`), { code: 'EFOLDERMOVED', path });
}

/** Linux's O_PATH (x86-64 and Arm): Node's fs.constants does not name it. */
const O_PATH_LINUX = 0o10000000;

/**
 * The folders of `pins` opened for the rename that installs a write, each checked to be the folder pinned: what
 * movedFolderProblem asks, then the folder open is the one at the pinned real path and, where it was there at the
 * pin, the very folder pinned (device and inode). On Linux a path through `/proc/self/fd/N` reaches the open folder
 * itself, whatever is at its name by then, so a folder on the path swapped for a link after this check no longer
 * moves where the file lands: the window between the last check and the rename that rounds 17 and 40 left open
 * (docs/security.md, round 41). `at(p)`: `p` through its folder's descriptor when that folder is one of `pins`, else
 * `p` (elsewhere than Linux, or without /proc: only the check, as before). Throws (code EFOLDERMOVED) as
 * refuseMovedFolder does. `close` closes the descriptors.
 */
export interface PinnedFolders {
  at(p: string): string;
  /** Renames `from` to `to` through their folders (at), by atomicWriteIo; an error names the two paths as given. */
  rename(from: string, to: string): void;
  close(): void;
}

export function openPinnedFolders(pins: readonly FolderPin[], path: string): PinnedFolders {
  const open = new Map<string, number>();
  const close = () => {
    for (const fd of open.values()) closeSync(fd);
    open.clear();
  };
  const moved = (pin: FolderPin, now: string) => {
    close();
    return Object.assign(
      new Error(`its folder ${pin.dir} changed after it was checked (${now}); nothing was written there`),
      { code: 'EFOLDERMOVED', path },
    );
  };
  for (const pin of pins) {
    refuseMovedFolder(pin, path);
    if (process.platform !== 'linux' || open.has(resolve(pin.dir))) continue;
    let fd: number;
    try {
      // O_PATH: the folder is only named through, never read, so a folder the user may write but not list works too.
      fd = openSync(resolve(pin.dir), O_PATH_LINUX | constants.O_DIRECTORY);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw moved(pin, 'it is gone');
      // Not to be opened so (an older kernel): the check above is all there is.
      continue;
    }
    let real: string;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // No /proc: the check above is all there is.
      closeSync(fd);
      continue;
    }
    open.set(resolve(pin.dir), fd);
    const st = fstatSync(fd);
    if (real !== pin.real) throw moved(pin, `it now leads to ${real}`);
    if (pin.anchor === pin.dir && (st.dev !== pin.dev || st.ino !== pin.ino))
      throw moved(pin, 'another folder is there now');
  }
  const at = (p: string) => {
    const fd = open.get(dirname(resolve(p)));
    return fd === undefined ? p : join(`/proc/self/fd/${fd}`, basename(p));
  };
  return {
    at,
    rename: (from, to) => {
      try {
        atomicWriteIo.renameSync(at(from), at(to));
      } catch (e) {
        if (!(e instanceof Error)) throw e;
        throw Object.assign(new Error(e.message.split(at(from)).join(from).split(at(to)).join(to)), {
          code: (e as NodeJS.ErrnoException).code,
        });
      }
    },
    close,
  };
}

/** The calls makeFolders makes; a test replaces them to meet a refusal root cannot meet (EROFS, EACCES). */
export interface FolderIo {
  /** Creates one folder whose parent exists (never recursive). */
  mkdirSync(path: string): unknown;
  statSync(path: string): { isDirectory(): boolean };
}

const nodeFolderIo: FolderIo = { mkdirSync: (p) => mkdirSync(p), statSync };

/**
 * Creates a folder and its missing ancestors one level at a time (docs/limits.md#folders). Node's recursive
 * mkdir loops forever where mkdir answers ENOENT under a folder that exists (`/proc/x`: 100 % CPU until
 * killed), and where mkdir is refused (EROFS, EACCES) it stats the folder it could not make and reports that
 * stat's ENOENT ("no such file or directory" for a read-only disk). One level at a time, the real refusal
 * comes back, with the folder it was about as `path`.
 */
export function makeFolders(dir: string, io: FolderIo = nodeFolderIo): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ;) {
    let st: { isDirectory(): boolean };
    try {
      st = io.statSync(p);
    } catch (e) {
      // ENOTDIR: a file higher up is in the way; going up finds it and names it.
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      missing.push(p);
      const up = dirname(p);
      if (up === p) break;
      p = up;
      continue;
    }
    if (!st.isDirectory())
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), { code: 'ENOTDIR', path: p });
    break;
  }
  for (const p of missing.reverse()) {
    try {
      io.mkdirSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code === 'EEXIST' && folderExists(p, io)) continue; // made by another process meanwhile
      // Its parent exists (made or found just now): ENOENT here is a file system that holds no new folders (/proc).
      if (code === 'ENOENT')
        throw Object.assign(new Error(`the file system does not allow a new folder at ${p}`), {
          code: 'ENOFOLDER',
          path: p,
        });
      throw e;
    }
  }
}

function folderExists(path: string, io: FolderIo): boolean {
  try {
    return io.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `path` is an existing folder now (links followed); false when it cannot be stat'ed. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A file-system error before any write, naming the user's path in words:
 * `cannot write out.mt3: a folder has that name`. It keeps `code` and sets
 * `path` to the user's file.
 */
function userPathError(e: unknown, path: string, what: string): NodeJS.ErrnoException {
  // Stryker disable next-line OptionalChaining: e is always an Error here (mkdirSync's, or the EISDIR one built above)
  const code = (e as NodeJS.ErrnoException)?.code;
  return Object.assign(new Error(`${what}: ${systemReason(e)}`), { code, path });
}

/** The same error with the temp file's name replaced by the user's (node's messages quote the paths of the failing call). */
function withoutTempPath(e: unknown, tmps: readonly string[], path: string): Error {
  if (!(e instanceof Error)) return new Error(String(e));
  const err = new Error(tmps.reduce((m, tmp) => m.split(tmp).join(path), e.message)) as NodeJS.ErrnoException;
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== undefined) err.code = code;
  err.path = path;
  return err;
}

/** The motion name a file stands for: its base name without the extension. */
export function baseNameOf(path: string): string {
  return basename(path, extname(path));
}
