/**
 * Reads a binary input header first (docs/limits.md, "Binary inputs"). A `.mtn`, `.mt3`, `.mar` or `.sar` is
 * opened without waiting (a FIFO never blocks the open), refused unless it is a plain file, then its header is read
 * in a few small reads and checked by the format's own check (`…SizeFromHead`, shared/binarySize.ts): a bad magic,
 * version or count, a size other than the one the header implies (cut short or longer), or a size past
 * BINARY_MAX_BYTES is refused with a message naming the file and the place before the rest is read. Only then is
 * the rest read, in chunks, into one buffer of the file's size. A sparse 1.5 GB `walk.mtn` with a bad magic took
 * 15 s to refuse when files were read whole first.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import {
  BINARY_MAX_BYTES,
  binaryKindOfMagic,
  binaryKindOfName,
  overLimit,
  sizeDisagreement,
  type BinaryKind,
  type SizeFromHead,
} from '../../shared/binarySize';
import { FormatError } from '../../shared/errors';
import { refuseUnlessPlain } from '../fsutil';
import { marSizeFromHead } from '../../shared/mar/read';
import { mt3SizeFromHead } from '../../shared/mt3/read';
import { mtnSizeFromHead } from '../../shared/mtn/read';
import { sarSizeFromHead } from '../../shared/sar/read';

/** The file-system calls a read makes: tests spy on them (what was read, and how much). */
export const binaryReadIo = { openSync, fstatSync, readSync, closeSync };

/** Each kind's header check. */
export const SIZE_FROM_HEAD: Record<BinaryKind, SizeFromHead> = {
  MTN: mtnSizeFromHead,
  MT3: mt3SizeFromHead,
  MAR: marSizeFromHead,
  SAR: sarSizeFromHead,
};

const KIND_WORDS: Record<BinaryKind, string> = { MTN: 'an .mtn', MT3: 'an .mt3', MAR: 'a .mar', SAR: 'a .sar' };

/** The size of each read past the header: a read of a large file is many calls, not one of its whole size. */
export const READ_CHUNK_BYTES = 16 * 1024 * 1024;

/** How much a read looks at to tell the kind of a file by its magic (readInput). */
const MAGIC_BYTES = 4;

export interface BinaryReadOptions {
  /** Largest file read (default BINARY_MAX_BYTES). */
  limit?: number;
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
  return readHeaderFirst(path, typeof kind === 'function' ? kind : () => kind, options.limit ?? BINARY_MAX_BYTES);
}

/**
 * A build input of any kind (electron/build/files.ts): a `.mtn`, `.mt3`, `.mar` or `.sar` by its extension, or a
 * file of another name that starts with the magic of one (a project may name an MTN `walk.motion`), is read header
 * first; anything else is read whole if it is at most BINARY_MAX_BYTES. Text inputs are read with their own limit
 * (fsutil.ts readBytes, TEXT_LIMIT).
 */
export function readInput(path: string): Uint8Array {
  const byName = binaryKindOfName(path);
  return readHeaderFirst(path, (head) => byName ?? binaryKindOfMagic(head), BINARY_MAX_BYTES);
}

function readHeaderFirst(
  path: string,
  kindOf: (head: Uint8Array) => BinaryKind | undefined,
  limit: number,
  plainLimit?: { bytes: number; of: string },
): Uint8Array {
  const io = binaryReadIo;
  const fd = io.openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = io.fstatSync(fd);
    refuseUnlessPlain(st, path);
    const fileSize = st.size;
    let head = readAt(fd, new Uint8Array(0), Math.min(MAGIC_BYTES, fileSize), fileSize, path);
    const kind = kindOf(head);
    if (!kind) {
      // Not a binary kind read header first (a text file, a report): read whole, within its limit.
      const max = plainLimit ?? { bytes: limit, of: 'an input file' };
      if (fileSize > max.bytes)
        throw Object.assign(
          new Error(`EFBIG: it is ${fileSize} bytes, more than the ${max.bytes} ActGuy reads of ${max.of}, read '${path}'`),
          { code: 'EFBIG', path },
        );
      return readRest(fd, head, fileSize, path);
    }
    const sizeFromHead = SIZE_FROM_HEAD[kind];
    try {
      for (let step = 0; ; step++) {
        const verdict = sizeFromHead(head, fileSize);
        if (!('needHead' in verdict)) {
          if (verdict.size > limit) throw overLimit(kind, verdict.size, limit, KIND_WORDS[kind], true);
          if (verdict.size !== fileSize) throw sizeDisagreement(verdict, fileSize);
          return readRest(fd, head, fileSize, path);
        }
        // Past its fixed header (MAR and SAR tables), no more than a file ActGuy reads is read to find the size.
        if (step > 0 && fileSize > limit) throw overLimit(kind, fileSize, limit, KIND_WORDS[kind], false);
        head = readAt(fd, head, Math.min(verdict.needHead, fileSize), fileSize, path);
      }
    } catch (e) {
      throw e instanceof FormatError ? e.withFile(path) : e;
    }
  } finally {
    io.closeSync(fd);
  }
}

/** `head` extended to `want` bytes from the start of the file. */
function readAt(fd: number, head: Uint8Array, want: number, fileSize: number, path: string): Uint8Array {
  if (want <= head.byteLength) return head;
  const out = new Uint8Array(want);
  out.set(head);
  fill(fd, out, head.byteLength, fileSize, path);
  return out;
}

/** The whole file: `head`, then the rest read in chunks. */
function readRest(fd: number, head: Uint8Array, fileSize: number, path: string): Uint8Array {
  if (head.byteLength === fileSize) return head;
  const buf = Buffer.allocUnsafeSlow(fileSize);
  const out = new Uint8Array(buf.buffer, buf.byteOffset, fileSize);
  out.set(head);
  fill(fd, out, head.byteLength, fileSize, path);
  return out;
}

/** Fills `out` from byte `from` on, reading at those positions; a file that ends early changed while it was read. */
function fill(fd: number, out: Uint8Array, from: number, fileSize: number, path: string): void {
  for (let n = from; n < out.byteLength; ) {
    const got = binaryReadIo.readSync(fd, out, n, Math.min(READ_CHUNK_BYTES, out.byteLength - n), n);
    if (got === 0)
      throw Object.assign(
        new Error(`it ended at byte ${n} while it was read, though it was ${fileSize} bytes (it changed meanwhile), read '${path}'`),
        { code: 'ECHANGED', path },
      );
    n += got;
  }
}
