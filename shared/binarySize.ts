/**
 * What the first bytes of a binary input say about its size (docs/limits.md, "Binary inputs"). Each format's
 * reader exports a `…SizeFromHead(head, fileSize)` next to its parser, which runs the same code for its own header
 * checks, so a file refused before it is read gets the message the parser would have given. The main process
 * (electron/io/readBinary.ts) reads a file's header first, asks here, and reads the rest only when the size the
 * header implies is the file's size and within the limit below: a sparse 1.5 GB `walk.mtn` with a bad magic, or
 * a good header over 1.5 GB of nothing, is refused after a few bytes, not after 15 s of reading.
 */
import { FormatError, type FileKind } from './errors';

/** The binary inputs read header first, by their FormatError kind. */
export type BinaryKind = 'MTN' | 'MT3' | 'MAR' | 'SAR';

/**
 * The largest `.mtn`, `.mt3`, `.mar` or `.sar` ActGuy reads: 1 GiB. An MTN of 1024 joints at this size holds
 * 21,831 frames (a 31-joint capture would hold more than the 65,535 frames a motion may have); the parsers copy
 * what they read, so a read costs twice the file in memory.
 */
export const BINARY_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Refuses to write a `kind` file of `size` bytes that ActGuy would refuse to read back (over BINARY_MAX_BYTES): an
 * import or a decompress would otherwise write an `.mtn` no command opens.
 */
export function refuseUnreadableSize(kind: BinaryKind, size: number): void {
  if (size > BINARY_MAX_BYTES)
    throw new FormatError(
      kind,
      `it would be ${size} bytes, over the ${BINARY_MAX_BYTES} bytes (1 GiB) ActGuy reads back; nothing was written (fewer frames or joints, or split the motion)`,
      { where: 'size' },
    );
}

/** The header is good, and the file must be `size` bytes; `disagree` is the parser's error when it is not. */
export interface ImpliedSize {
  size: number;
  disagree(fileSize: number): FormatError;
}

/**
 * What a header check answers: the header needs `needHead` bytes from the start, or the size it implies, or
 * `anySize` for a good header of a format that declares no size of its own (a binary FBX).
 */
export type HeadVerdict = { needHead: number } | ImpliedSize | { anySize: true };

/**
 * A format's header check: `head` is the start of a file of `fileSize` bytes (all of it, when a parser calls).
 * Throws the FormatError the parser throws for a bad header; answers `needHead` only while `head` is shorter
 * than the file.
 */
export type SizeFromHead = (head: Uint8Array, fileSize: number) => HeadVerdict;

/** The kind a file name's extension gives, letter case aside; undefined for any other name. */
export function binaryKindOfName(name: string): BinaryKind | undefined {
  const ext = /\.([^./\\]*)$/.exec(name)?.[1].toLowerCase();
  return ext === 'mtn' ? 'MTN' : ext === 'mt3' ? 'MT3' : ext === 'mar' ? 'MAR' : ext === 'sar' ? 'SAR' : undefined;
}

/** The kind the first 4 bytes name (MTN, MAR and SAR have a magic; MT3 has none); undefined otherwise. */
export function binaryKindOfMagic(head: Uint8Array): BinaryKind | undefined {
  if (head.byteLength < 4) return undefined;
  const m = String.fromCharCode(head[0], head[1], head[2], head[3]);
  return m === 'MTN\0' ? 'MTN' : m === 'MARa' ? 'MAR' : m === 'SARa' ? 'SAR' : undefined;
}

/**
 * The refusal of a file whose size is not the size its header implies, before the rest is read: the parser's own
 * message, then whether the file is cut short or longer.
 */
export function sizeDisagreement(implied: ImpliedSize, fileSize: number): FormatError {
  const e = implied.disagree(fileSize);
  const how =
    fileSize < implied.size
      ? `it is truncated at byte ${fileSize}`
      : `it is ${fileSize - implied.size} bytes longer than that`;
  return new FormatError(e.kind, `${e.detail}: ${how}; nothing past the header was read`, e.place, e.file);
}

/** The refusal of a file larger than `limit` (by its header's word, or its own size), before the rest is read. */
export function overLimit(kind: FileKind, bytes: number, limit: number, of: string, byHeader: boolean): FormatError {
  return new FormatError(
    kind,
    `${byHeader ? 'its header implies' : 'it is'} ${bytes} bytes, more than the ${limit} ActGuy reads of ${of}; nothing past the header was read`,
    { where: 'header' },
  );
}
