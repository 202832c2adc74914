import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';

/** Reads a whole file as bytes (a Uint8Array view, not a Buffer subclass surprise). */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Writes a file atomically: a temp file beside it, then rename, so a crash or
 * a full disk never leaves a half-written file where a good one was.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  mkdirSync(dirname(path) || '.', { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* temp file may not exist */ }
    throw e;
  }
}

/** The motion name a file stands for: its base name without the extension. */
export function baseNameOf(path: string): string {
  return basename(path, extname(path));
}
