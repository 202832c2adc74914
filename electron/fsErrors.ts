/** Turns file-system errors into short reasons a user can act on. */

/** A file-system error as a short reason ("permission denied", "no space left on device"). */
export function systemReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'the operation is not permitted',
    ENOSPC: 'no space left on the disk',
    EROFS: 'the disk is read-only',
    ENOENT: 'the folder does not exist',
    EISDIR: 'a folder has that name',
    EBUSY: 'the file is in use',
    ENOTDIR: 'a file is in the way where a folder should be',
    EEXIST: 'a file is in the way where a folder should be',
    ENOTREG: 'it is not a plain file (a pipe, socket or device)', // readBytes (fsutil.ts)
  };
  // readBytes' size refusal carries its numbers in the message ("EFBIG: it is N bytes, more than ...").
  if (code === 'EFBIG' && e instanceof Error) return e.message.replace(/^EFBIG: /, '').replace(/, \w+ '[^']*'$/, '');
  return (code && known[code]) ?? (e instanceof Error ? e.message : String(e));
}
