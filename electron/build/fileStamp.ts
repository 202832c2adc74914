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

export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.dev === b.dev;
