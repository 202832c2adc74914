/**
 * Whether two paths name the same file, however they are spelled: `./` and
 * `..` segments, symbolic links, hard links and, on a case-insensitive file
 * system (Windows, macOS by default), other letter cases. An output that is
 * one of the inputs must be refused before anything is written.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { canonicalPath, quotePath } from './pathPolicy';

/** Whether the file system at `path` ignores letter case (the platform default where it cannot be probed). */
function caseInsensitiveAt(target: string): boolean {
  // Probe the nearest folder that exists: a file about to be written has none of its own yet.
  let path = target;
  for (;;) {
    try {
      statSync(path);
      break;
    } catch {
      const parent = dirname(path);
      if (parent === path) return process.platform === 'win32' || process.platform === 'darwin';
      path = parent;
    }
  }
  const flipped = path.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  if (flipped === path) return process.platform === 'win32' || process.platform === 'darwin';
  try {
    const a = statSync(path);
    const b = statSync(flipped);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** True when `a` and `b` are the same file (or would be, once written). */
export function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    // Both exist: the same inode on the same device is the same file, whatever the spelling.
    if (sa.ino !== 0 && sa.dev === sb.dev && sa.ino === sb.ino) return true;
  } catch {
    // one of them does not exist yet: compare where they would be
  }
  const ca = canonicalPath(a);
  const cb = canonicalPath(b);
  if (ca === cb) return true;
  if (ca.toLowerCase() !== cb.toLowerCase()) return false;
  // Same letters in another case: the same file only where the folder ignores case.
  return caseInsensitiveAt(ca) || caseInsensitiveAt(cb);
}

/** The first of `inputs` that `output` would overwrite, or null. */
export function inputOverwrittenBy(output: string, inputs: readonly string[]): string | null {
  for (const input of inputs) if (sameFile(output, input)) return input;
  return null;
}

/** Refuses a save or export onto a file the document was read from (its .mt3/.mar, skeleton or import source), however spelled. */
export function refuseOverwritingInput(verb: 'save' | 'export', path: string, inputs: readonly string[]): void {
  const input = inputOverwrittenBy(path, inputs);
  if (input !== null)
    throw new Error(`Could not ${verb} ${quotePath(path)}: it is ${quotePath(input)}, a file this motion was read from; choose another name (nothing was written)`);
}
