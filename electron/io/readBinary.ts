/**
 * Reads a binary input header first (docs/limits.md, "Binary inputs"). A `.mtn`, `.mt3`, `.mar` or `.sar` is
 * opened without waiting (a FIFO never blocks the open), refused unless it is a plain file, then its header is read
 * in a few small reads and checked by the format's own check (`…SizeFromHead`, shared/binarySize.ts): a bad magic,
 * version or count, a size other than the one the header implies (cut short or longer), or a size past
 * BINARY_MAX_BYTES is refused with a message naming the file and the place before the rest is read. Only then is
 * the rest read, in chunks, into one buffer of the file's size. A sparse 1.5 GB `walk.mtn` with a bad magic took
 * 15 s to refuse when files were read whole first.
 */
import { closeSync, constants, fstat, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { open as openAsync, type FileHandle } from 'node:fs/promises';
import {
  BINARY_MAX_BYTES,
  binaryKindOfMagic,
  binaryKindOfName,
  overLimit,
  sizeDisagreement,
  type BinaryKind,
  type SizeFromHead,
} from '../../shared/binarySize';
import { FormatError, type FileKind } from '../../shared/errors';
import { refuseUnlessPlain } from '../fsutil';
import { noteInputRead } from '../tempFiles';
import { marSizeFromHead } from '../../shared/mar/read';
import { mt3SizeFromHead } from '../../shared/mt3/read';
import { mtnSizeFromHead } from '../../shared/mtn/read';
import { sarSizeFromHead } from '../../shared/sar/read';

/** The file-system calls a read makes: tests spy on them (what was read, and how much). */
export const binaryReadIo = {
  openSync,
  fstatSync,
  readSync,
  closeSync,
  /** readHeaderFirstAsync's open and reads. */
  open: (path: string, flags: number): Promise<FileHandle> => openAsync(path, flags),
  read: async (fh: FileHandle, out: Uint8Array, offset: number, length: number, position: number): Promise<number> =>
    (await fh.read(out, offset, length, position)).bytesRead,
};

/** A format's header check, its kind for messages, and what a file of it is called in them. */
interface HeaderCheck {
  kind: FileKind;
  of: string;
  sizeFromHead: SizeFromHead;
}

/** Each binary kind's header check. */
export const HEADER_CHECKS: Record<BinaryKind, HeaderCheck> = {
  MTN: { kind: 'MTN', of: 'an .mtn', sizeFromHead: mtnSizeFromHead },
  MT3: { kind: 'MT3', of: 'an .mt3', sizeFromHead: mt3SizeFromHead },
  MAR: { kind: 'MAR', of: 'a .mar', sizeFromHead: marSizeFromHead },
  SAR: { kind: 'SAR', of: 'a .sar', sizeFromHead: sarSizeFromHead },
};

/** The size of each read past the header: a read of a large file is many calls, not one of its whole size. */
export const READ_CHUNK_BYTES = 16 * 1024 * 1024;

interface BinaryReadOptions {
  /** Largest file read (default BINARY_MAX_BYTES). */
  limit?: number;
  /** Checked before each read: an aborted one stops the read (readHeaderFirst). */
  signal?: AbortSignal;
  /** The file already open (readBinaryFileAsync): read through this descriptor, left open, never opened by name. */
  fd?: number;
}

/** How to read a file: its header check (chosen from its first `sniff` bytes, undefined: none), and its limit. */
export interface HeaderFirstRead {
  /** How many bytes the choice looks at (0: it needs none). */
  sniff: number;
  check: (head: Uint8Array) => HeaderCheck | undefined;
  limit: number;
  /** Without a header check: the file is read whole if it is at most `bytes`. */
  plain?: { bytes: number; of: string };
}

/**
 * The bytes of the `kind` file at `path` (or the kind its first 4 bytes give), its header checked before the rest
 * is read. Throws a FormatError naming
 * the file for a bad header or size, ENOTREG/EISDIR (as fsutil.ts readBytes) for what is not a plain file, and the
 * file system's own errors (ENOENT...) as they come: callers word them as they word readBytes'.
 */
export function readBinaryFile(
  path: string,
  kind: BinaryKind | ((head: Uint8Array) => BinaryKind),
  options: BinaryReadOptions = {},
): Uint8Array {
  return readHeaderFirst(path, {
    sniff: typeof kind === 'function' ? 4 : 0,
    check: (head) => HEADER_CHECKS[typeof kind === 'function' ? kind(head) : kind],
    limit: options.limit ?? BINARY_MAX_BYTES,
    signal: options.signal,
  });
}

/**
 * readBinaryFile with its reads awaited one at a time (readHeaderFirstAsync): `options.signal` stops the read of a
 * large file between two reads with an AbortError naming the file. The app's File > Open (electron/motionFiles.ts)
 * reads this way, so its Cancel really stops the read.
 */
export function readBinaryFileAsync(
  path: string,
  kind: BinaryKind,
  options: BinaryReadOptions = {},
): Promise<Uint8Array> {
  return readHeaderFirstAsync(path, {
    sniff: 0,
    check: () => HEADER_CHECKS[kind],
    limit: options.limit ?? BINARY_MAX_BYTES,
    signal: options.signal,
    fd: options.fd,
  });
}

/**
 * A build input of any kind (electron/build/files.ts): a `.mtn`, `.mt3`, `.mar` or `.sar` by its extension, or a
 * file of another name that starts with the magic of one (a project may name an MTN `walk.motion`), is read header
 * first; anything else is read whole if it is at most BINARY_MAX_BYTES. Text inputs are read with their own limit
 * (fsutil.ts readBytes, TEXT_LIMIT). With `fd`, the file already open as `path` is read through it, never opened by name.
 */
export function readInput(path: string, fd?: number): Uint8Array {
  const byName = binaryKindOfName(path);
  return readHeaderFirst(path, {
    sniff: byName ? 0 : 4,
    check: (head) => {
      const kind = byName ?? binaryKindOfMagic(head);
      return kind && HEADER_CHECKS[kind];
    },
    limit: BINARY_MAX_BYTES,
    fd,
  });
}

/** One read the header-first walk asks for: `length` bytes at `position` of the file, into `out` at `offset`. */
interface ReadOp {
  out: Uint8Array;
  offset: number;
  length: number;
  position: number;
}

/** The walk of a header-first read, as the reads it asks for: one walk, read by the sync and the async reader. */
type ReadWalk = Generator<ReadOp, Uint8Array, number>;

/**
 * The core of every header-first read (see the module comment); import sources (electron/interchange/importJob.ts)
 * call it with the GLB and binary FBX checks. `signal` is checked before each read (and before the open): an aborted
 * one stops the read with an AbortError naming the file. A synchronous read gives nothing else a turn, so a signal
 * can be aborted during it only from its own thread; readHeaderFirstAsync lets an abort land between its reads.
 */
export function readHeaderFirst(
  path: string,
  how: HeaderFirstRead & { signal?: AbortSignal; fd?: number },
): Uint8Array {
  const io = binaryReadIo;
  throwIfAborted(how.signal, path);
  // A file already open (and judged on its descriptor: build/files.ts readInputFile) is read through it, left open.
  const fd = how.fd ?? io.openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = io.fstatSync(fd);
    refuseUnlessPlain(st, path);
    noteInputRead(st);
    const walk = headerFirstWalk(path, st.size, how);
    for (let step = walk.next(); ;) {
      if (step.done) return step.value;
      throwIfAborted(how.signal, path);
      const op = step.value;
      step = walk.next(io.readSync(fd, op.out, op.offset, op.length, op.position));
    }
  } finally {
    if (how.fd === undefined) io.closeSync(fd);
  }
}

/**
 * readHeaderFirst with its reads awaited one at a time, so that `signal` (checked before each read, 16 MiB at most
 * past the header) stops a read of a large file between two of them: an import the user cancels, or one a
 * batch stops, no longer reads the rest of a 512 MiB source first (docs/security.md, round 12).
 */
export async function readHeaderFirstAsync(
  path: string,
  how: HeaderFirstRead & { signal?: AbortSignal; fd?: number },
): Promise<Uint8Array> {
  const io = binaryReadIo;
  throwIfAborted(how.signal, path);
  const fh =
    how.fd === undefined ? await io.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)) : handleOf(how.fd);
  try {
    const st = await fh.stat();
    refuseUnlessPlain(st, path);
    noteInputRead(st);
    const walk = headerFirstWalk(path, st.size, how);
    for (let step = walk.next(); ;) {
      if (step.done) return step.value;
      throwIfAborted(how.signal, path);
      const op = step.value;
      const got = await io.read(fh, op.out, op.offset, op.length, op.position);
      throwIfAborted(how.signal, path);
      step = walk.next(got);
    }
  } finally {
    await fh.close();
  }
}

/**
 * A descriptor the caller opened, as the part of a FileHandle readHeaderFirstAsync uses; its close leaves it open
 * (the caller closes it).
 */
function handleOf(fd: number): FileHandle {
  const handle = {
    stat: () => promisify(fstat)(fd),
    read: (out: Uint8Array, offset: number, length: number, position: number) =>
      new Promise<{ bytesRead: number }>((resolve, reject) =>
        read(fd, out, offset, length, position, (e, bytesRead) => (e ? reject(e) : resolve({ bytesRead }))),
      ),
    close: async () => undefined,
  };
  return handle as unknown as FileHandle;
}

/** Throws an AbortError naming `path` when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, path: string): void {
  if (signal?.aborted)
    throw Object.assign(new Error(`the read of ${path} was cancelled`), {
      name: 'AbortError',
      code: 'ABORT_ERR',
      path,
    });
}

/** What readHeaderFirst does between the open and the close, as the reads it needs. */
function* headerFirstWalk(path: string, fileSize: number, how: HeaderFirstRead): ReadWalk {
  const { limit } = how;
  let head = yield* readAt(new Uint8Array(0), Math.min(how.sniff, fileSize), fileSize, path);
  const check = how.check(head);
  if (!check) {
    // Not a binary kind read header first (a text file, a report): read whole, within its limit.
    const max = how.plain ?? { bytes: limit, of: 'an input file' };
    if (fileSize > max.bytes)
      throw Object.assign(
        new Error(
          `EFBIG: it is ${fileSize} bytes, more than the ${max.bytes} ActGuy reads of ${max.of}, read '${path}'`,
        ),
        { code: 'EFBIG', path },
      );
    return yield* readRest(head, fileSize, path);
  }
  const { kind, of, sizeFromHead } = check;
  try {
    for (let step = 0; ; step++) {
      const verdict = sizeFromHead(head, fileSize);
      if ('anySize' in verdict) {
        if (fileSize > limit) throw overLimit(kind, fileSize, limit, of, false);
        return yield* readRest(head, fileSize, path);
      }
      if (!('needHead' in verdict)) {
        if (verdict.size > limit) throw overLimit(kind, verdict.size, limit, of, true);
        if (verdict.size !== fileSize) throw sizeDisagreement(verdict, fileSize);
        return yield* readRest(head, fileSize, path);
      }
      // Past its fixed header (MAR and SAR tables), no more than a file ActGuy reads is read to find the size.
      if (step > 0 && fileSize > limit) throw overLimit(kind, fileSize, limit, of, false);
      head = yield* readAt(head, Math.min(verdict.needHead, fileSize), fileSize, path);
    }
  } catch (e) {
    throw e instanceof FormatError ? e.withFile(path) : e;
  }
}

/** `head` extended to `want` bytes from the start of the file. */
function* readAt(head: Uint8Array, want: number, fileSize: number, path: string): ReadWalk {
  if (want <= head.byteLength) return head;
  const out = new Uint8Array(want);
  out.set(head);
  yield* fill(out, head.byteLength, fileSize, path);
  return out;
}

/** The whole file: `head`, then the rest read in chunks. */
function* readRest(head: Uint8Array, fileSize: number, path: string): ReadWalk {
  if (head.byteLength === fileSize) return head;
  const buf = Buffer.allocUnsafeSlow(fileSize);
  const out = new Uint8Array(buf.buffer, buf.byteOffset, fileSize);
  out.set(head);
  yield* fill(out, head.byteLength, fileSize, path);
  return out;
}

/** Fills `out` from byte `from` on, reading at those positions; a file that ends early changed while it was read. */
function* fill(out: Uint8Array, from: number, fileSize: number, path: string): Generator<ReadOp, void, number> {
  for (let n = from; n < out.byteLength;) {
    const got: number = yield { out, offset: n, length: Math.min(READ_CHUNK_BYTES, out.byteLength - n), position: n };
    if (got === 0)
      throw Object.assign(
        new Error(
          `it ended at byte ${n} while it was read, though it was ${fileSize} bytes (it changed meanwhile), read '${path}'`,
        ),
        { code: 'ECHANGED', path },
      );
    n += got;
  }
}
