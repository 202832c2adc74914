import { readBytes } from '../fsutil';

/** Says why a file could not be read or written, in words (ENOENT -> "no such file or directory"). */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'ENOTDIR':
      return 'a component of the path is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'read-only file system';
    case 'EEXIST':
      return 'it already exists';
    case 'EXDEV':
      return 'it is on another disk';
    case 'ENOTREG': // readBytes (electron/fsutil.ts)
      return 'it is not a plain file (a pipe, socket or device)';
    case 'EFBIG': // readBytes' limit says how large, in words ("EFBIG: it is N bytes, more than ...")
      return (err.message ?? '').replace(/^EFBIG: /, '').replace(/, \w+ '[^']*'$/, '');
    // Node appends the path it worked on (`, open '/x/.stage.mar.actguy-new…'`): the caller names the user's path instead.
    default:
      return (err?.message ?? String(e)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, '');
  }
}

/** Reads a whole file for the pure build core; failures become an Error with a readable message. */
export function readInputFile(path: string, limit?: { bytes: number; of: string }): Uint8Array {
  try {
    return readBytes(path, limit);
  } catch (e) {
    throw new Error(describeFsError(e));
  }
}
