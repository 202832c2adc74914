import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * Which files the renderer may make the main process touch. The renderer is
 * untrusted: it can only name files the user chose in a dialog, files it
 * opened before (recent files), files an opened project lists, the bundled
 * sample, and (loopback mode) anything under the workspace root.
 *
 * Paths are compared after resolving symbolic links, so a link inside the
 * workspace that points outside it is refused too.
 */
export interface PathPolicy {
  /** Allows one file (chosen in a dialog, listed by a project, the sample, a recent file). */
  allowFile(path: string): void;
  /** Allows every file under a directory (the loopback workspace root). */
  allowTree(root: string): void;
  /**
   * Returns the canonical absolute path when `path` is allowed, else throws
   * PathNotAllowedError. For writes the file may not exist yet: its directory
   * must, and the file itself must be allowed or under an allowed tree.
   */
  check(path: string, purpose: 'read' | 'write'): string;
  /** Whether `path` is allowed (check without throwing). */
  isAllowed(path: string): boolean;
  /** The allowed trees (canonical), for listing the workspace. */
  trees(): string[];
}

/** A path outside the allowed set. The message says what to do instead. */
export class PathNotAllowedError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`ActGuy refused to access ${path}: ${reason}`);
    this.name = 'PathNotAllowedError';
    this.path = path;
  }
}

/** Resolves symbolic links of the longest existing prefix, so a not-yet-written file still gets a canonical path. */
export function canonicalPath(path: string): string {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync.native(abs);
  const parent = dirname(abs);
  if (parent === abs) return abs;
  return join(canonicalPath(parent), basename(abs));
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export function createPathPolicy(): PathPolicy {
  const files = new Set<string>();
  const roots: string[] = [];
  const allowedCanonical = (canon: string): boolean => files.has(canon) || roots.some((r) => isInside(r, canon));
  const policy: PathPolicy = {
    allowFile(path) {
      files.add(canonicalPath(path));
    },
    allowTree(root) {
      const canon = canonicalPath(root);
      if (!roots.includes(canon)) roots.push(canon);
    },
    check(path, purpose) {
      if (typeof path !== 'string' || path.length === 0) throw new PathNotAllowedError(String(path), 'no path given');
      if (path.includes('\0')) throw new PathNotAllowedError(JSON.stringify(path), 'the path contains a NUL character');
      if (!isAbsolute(path)) throw new PathNotAllowedError(path, 'only absolute paths are accepted');
      const canon = canonicalPath(path);
      if (!allowedCanonical(canon)) {
        throw new PathNotAllowedError(
          path,
          'it is not a file you chose, a recent file, a project file, the bundled sample or inside the workspace; choose it with Open or Save As',
        );
      }
      if (purpose === 'write' && !existsSync(dirname(canon))) {
        throw new PathNotAllowedError(path, `its folder ${dirname(canon)} does not exist`);
      }
      return canon;
    },
    isAllowed(path) {
      try {
        policy.check(path, 'read');
        return true;
      } catch {
        return false;
      }
    },
    trees: () => [...roots],
  };
  return policy;
}
