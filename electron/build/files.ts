import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { readBytes } from '../fsutil';

/** Says why a file could not be read or written, in words (ENOENT -> "no such file or directory"). */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory, not a file';
    case 'ENOTDIR': return 'a component of the path is not a directory';
    case 'ENOSPC': return 'no space left on the device';
    case 'EROFS': return 'read-only file system';
    default: return err?.message ?? String(e);
  }
}

/** Reads a whole file for the pure build core; failures become an Error with a readable message. */
export function readInputFile(path: string): Uint8Array {
  try {
    return readBytes(path);
  } catch (e) {
    throw new Error(describeFsError(e));
  }
}

/**
 * Writes several files as one step, as far as a file system allows: every
 * file goes to a temp file beside its target first; only when all temps are
 * written are they renamed over the targets. A failure while writing temps
 * removes them and leaves every target untouched.
 */
export function writeFilesAtomically(files: readonly { path: string; bytes: Uint8Array }[]): void {
  const stamp = `${process.pid}.${Date.now().toString(36)}`;
  const temps: { tmp: string; path: string }[] = [];
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path) || '.', { recursive: true });
      const tmp = `${f.path}.${stamp}.tmp`;
      temps.push({ tmp, path: f.path });
      writeFileSync(tmp, f.bytes);
    }
  } catch (e) {
    for (const t of temps) {
      try { unlinkSync(t.tmp); } catch { /* the temp may not exist yet */ }
    }
    const err = e as NodeJS.ErrnoException;
    throw new Error(`cannot write ${err.path ?? 'output'}: ${describeFsError(e)}; nothing was written`);
  }
  for (const t of temps) renameSync(t.tmp, t.path);
}
