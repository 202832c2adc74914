/**
 * Path arithmetic for project files, without Node's `path` (shared/ is pure):
 * enough to resolve a relative path against the project folder on POSIX and
 * Windows. Keeps the separator style of the base it resolves against.
 */

export function isAbsolutePath(p: string): boolean {
  return /^(?:[A-Za-z]:)?[\\/]/.test(p);
}

/** The folder part of a path (`.` for a bare file name). */
export function dirnameOf(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  if (i < 0) return '.';
  if (i === 0) return p[0];
  if (i === 2 && /^[A-Za-z]:/.test(p)) return p.slice(0, 3);
  return p.slice(0, i);
}

/** The last component of a path. */
export function basenameOf(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i < 0 ? p : p.slice(i + 1);
}

/** The file name without its last extension (`walk.sev` -> `walk`). */
export function stemOf(p: string): string {
  const b = basenameOf(p);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** Collapses `.` and `..` and repeated separators; `..` above a relative start is kept. */
export function normalizePath(p: string): string {
  const sep = p.includes('\\') && !p.includes('/') ? '\\' : '/';
  const m = /^(?:[A-Za-z]:)?[\\/]?/.exec(p)!;
  const root = m[0].replace(/[\\/]/g, sep);
  const out: string[] = [];
  for (const part of p.slice(m[0].length).split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (part === '..' && root) continue;
    else out.push(part);
  }
  const body = out.join(sep);
  return root + body || (root ? root : '.');
}

/** `name` inside the folder `root`, with `root`'s separator (a Windows folder keeps its backslashes). */
export function joinPath(root: string, name: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return root.endsWith(sep) ? root + name : root + sep + name;
}

/** Resolves `p` against the folder of `fromFile` unless it is absolute. */
export function resolveFrom(fromFile: string, p: string): string {
  if (isAbsolutePath(p)) return normalizePath(p);
  const dir = dirnameOf(fromFile);
  return normalizePath(dir === '.' ? p : `${dir}/${p}`);
}
