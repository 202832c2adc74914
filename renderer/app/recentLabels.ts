import type { RecentFile } from '../../shared/ipc';
import { escapeControls } from '../../shared/errors';

/** How the File menu shows one recent file: its label, and the whole path as its tooltip. */
export interface RecentLabel {
  label: string;
  /** The file's whole path (control and bidi characters escaped), for the entry's tooltip. */
  title: string;
}

/** The folders a path lies in, outermost first (POSIX and Windows separators alike). */
function foldersOf(path: string): string[] {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return parts.slice(0, -1);
}

/**
 * The File menu's labels of the recent files: `walk.mtn` (a project: its name), and where two entries would read
 * the same, each followed by the fewest of its last folders that tell them apart ("walk.mtn — ws", "walk.mtn —
 * assets"), as editors label tabs of files with one name. Tried cold: two "walk.mtn" entries, from two folders, with
 * nothing to say which was which.
 */
export function recentLabels(recent: readonly RecentFile[]): RecentLabel[] {
  const base = recent.map((r) => escapeControls(r.kind === 'project' ? r.name : `${r.name}.${r.kind}`));
  return recent.map((r, i) => {
    const title = escapeControls(r.path);
    const same = recent.map((_, j) => j).filter((j) => base[j] === base[i]);
    if (same.length === 1) return { label: base[i], title };
    const mine = foldersOf(r.path);
    const others = same.filter((j) => j !== i).map((j) => foldersOf(recent[j].path));
    // The fewest last folders that no other entry of the same label ends with.
    for (let n = 1; n <= mine.length; n++) {
      const tail = mine.slice(-n).join('/');
      if (others.every((o) => o.slice(-n).join('/') !== tail))
        return { label: `${base[i]} — ${escapeControls(tail)}`, title };
    }
    // No run of last folders tells them apart: names that differ only in the case of their extension (`walk.mtn`,
    // `walk.MTN`: both kind mtn, name walk) or a POSIX folder named `a\b` beside `a/b`. The whole path then, so that no
    // two entries ever read the same (docs/security.md, round 27).
    return { label: `${base[i]} — ${title}`, title };
  });
}
