import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { systemReason } from './fsErrors';
import { ownTempName, sweepStaleTemps } from './tempFiles';

/** Reads a whole file as bytes (a Uint8Array view, not a Buffer subclass surprise). */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Writes a file atomically: a temp file beside it, then rename, so a crash or
 * a full disk never leaves a half-written file where a good one was. The temp
 * is removed on failure, and temps of this target that a killed run left
 * behind are swept first (tempFiles.ts).
 */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const dir = dirname(path) || '.';
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw userPathError(e, path, `cannot create the folder ${dir} for ${path}`);
  }
  if (isFolder(path)) throw userPathError(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }), path, `cannot write ${path}`);
  sweepStaleTemps([path]);
  const tmp = ownTempName(path, 'new');
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* temp file may not exist */ }
    throw userPathError(e, path, `cannot write ${path}`);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A file-system error re-thrown naming the user's path, never the temp file:
 * `cannot write out.mt3: a folder has that name`. It keeps `code` (callers map
 * it to words) and sets `path` to the user's file.
 */
function userPathError(e: unknown, path: string, what: string): NodeJS.ErrnoException {
  const code = (e as NodeJS.ErrnoException)?.code;
  return Object.assign(new Error(`${what}: ${systemReason(e)}`), { code, path });
}

/** The motion name a file stands for: its base name without the extension. */
export function baseNameOf(path: string): string {
  return basename(path, extname(path));
}
