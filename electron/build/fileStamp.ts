/** What stat says of a file, as the build cache and its local verdicts compare it (docs/cache.md). */
import type * as fs from 'node:fs';

/** A record made for a file is trusted only while all of these are unchanged. */
export interface FileStamp {
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  dev: string;
}

export function stampOf(st: fs.BigIntStats): FileStamp {
  return {
    size: Number(st.size),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
    ino: String(st.ino),
    dev: String(st.dev),
  };
}

/**
 * A stamp as a record stores it (size, mtime, ctime, inode, device: a whole byte count and four strings of digits),
 * when it is exactly of that shape, else undefined: the local verdicts and the record of the last build read theirs
 * back with it.
 */
export function stampFromFields(
  size: unknown,
  mtimeNs: unknown,
  ctimeNs: unknown,
  ino: unknown,
  dev: unknown,
): FileStamp | undefined {
  if (!(Number.isSafeInteger(size) && (size as number) >= 0)) return undefined;
  const digits = (v: unknown): v is string => typeof v === 'string' && /^[0-9]{1,30}$/.test(v);
  if (!(digits(mtimeNs) && digits(ctimeNs) && digits(ino) && digits(dev))) return undefined;
  return { size: size as number, mtimeNs, ctimeNs, ino, dev };
}

export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.dev === b.dev;
