/**
 * The workspace listing behind `listWorkspace` (the loopback picker's source): the files under the workspace root,
 * bounded so a huge folder cannot stall the main process.
 */
import { lstatSync, opendirSync, statSync, type Dir, type Dirent } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { WorkspaceFile } from '../shared/ipc/documents';
import { canonicalPath, isInside } from './pathPolicy';

/**
 * Limits of the workspace listing, so a huge folder cannot stall the main process: the files listed, the folder
 * depth, and every name looked at (a workspace of a million files the picker does not want, a home folder, took
 * the main process seconds before 2026-12-03). What the listing leaves out is said in the picker.
 */
export const WORKSPACE_MAX_FILES = 5000;
const WORKSPACE_MAX_DEPTH = 8;
export const WORKSPACE_MAX_ENTRIES = 50_000;
/**
 * The files under `root` (of the extensions wanted), folders in name order, within the limits above; `incomplete`
 * says which limit left files out.
 */
export function listFiles(root: string, extensions: string[] | null): { files: WorkspaceFile[]; incomplete?: string } {
  const files: WorkspaceFile[] = [];
  let entries = 0;
  let tooDeep = false;
  let stopped: 'files' | 'entries' | null = null;
  const walk = (dir: string, depth: number): void => {
    if (depth > WORKSPACE_MAX_DEPTH) {
      tooDeep = true;
      return;
    }
    // Names read one at a time and counted as read: a folder of a million names costs the budget, not a million.
    const names: Dirent[] = [];
    let handle: Dir | undefined;
    try {
      handle = opendirSync(dir);
      for (let d = handle.readSync(); d !== null; d = handle.readSync()) {
        if (++entries > WORKSPACE_MAX_ENTRIES) {
          stopped = 'entries';
          break;
        }
        if (!d.name.startsWith('.') && d.name !== 'node_modules') names.push(d);
      }
    } catch {
      // an unreadable folder is left out, not fatal (what was read of it is listed)
    } finally {
      try {
        handle?.closeSync();
      } catch {
        // closed already
      }
    }
    names.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const d of names) {
      const name = d.name;
      const extension = extname(name).slice(1).toLowerCase();
      // A plain file of another kind needs no stat.
      if (d.isFile() && extensions && !extensions.includes(extension)) continue;
      const full = join(dir, name);
      let st;
      try {
        st = lstatSync(full);
        if (st.isSymbolicLink()) {
          // A link is listed only when it resolves inside the workspace (a link out would be refused on open anyway).
          if (!isInside(root, canonicalPath(full))) continue;
          st = statSync(full);
        }
      } catch {
        continue; // vanished, unreadable or a link loop: left out
      }
      if (st.isDirectory()) {
        if (!stopped) walk(full, depth + 1);
      } else if (st.isFile()) {
        if (extensions && !extensions.includes(extension)) continue;
        if (files.length === WORKSPACE_MAX_FILES) {
          stopped = 'files';
          return;
        }
        files.push({
          path: full,
          relativePath: relative(root, full).split(sep).join('/'),
          byteLength: st.size,
          extension,
        });
      }
      if (stopped === 'files') return;
    }
  };
  walk(root, 0);
  const smaller = 'to see the others, serve a smaller workspace (npm run web -- --workspace FOLDER)';
  const incomplete =
    stopped === 'files'
      ? `Only the first ${WORKSPACE_MAX_FILES.toLocaleString('en-US')} files are listed (folders in name order): ${smaller}.`
      : stopped === 'entries'
        ? `The workspace holds more than ${WORKSPACE_MAX_ENTRIES.toLocaleString('en-US')} files and folders: the listing stopped there (folders in name order), so some files are not listed; ${smaller}.`
        : tooDeep
          ? `Folders more than ${WORKSPACE_MAX_DEPTH} levels below the workspace are not listed.`
          : undefined;
  return incomplete ? { files, incomplete } : { files };
}

/** The extensions a workspace listing filters by (lower case, no dot): at most 64 strings of at most 16 characters. */
export function fileExtensions(v: unknown): string[] {
  if (!Array.isArray(v) || v.length > 64 || !v.every((e): e is string => typeof e === 'string' && e.length <= 16))
    throw new Error('listWorkspace: extensions must be at most 64 file extensions of at most 16 characters');
  return [...new Set(v.map((e) => e.toLowerCase().replace(/^\./, '')))];
}
