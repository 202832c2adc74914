import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MotionFileKind, RecentFile } from '../shared/ipc/documents';
import { writeFileAtomic } from './fsutil';

/** How many recent files are kept. */
export const RECENT_FILES_LIMIT = 10;

/** Recently opened files, newest first, optionally persisted as JSON in a folder (Electron's userData). */
export interface RecentFilesStore {
  list(): RecentFile[];
  /** Moves (or adds) a file to the front and persists. */
  add(entry: { path: string; name: string; kind: MotionFileKind }): void;
  clear(): void;
}

const KINDS: readonly string[] = ['mtn', 'mt3', 'mar'];

function isRecentFile(v: unknown): v is RecentFile {
  const r = v as RecentFile;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.path === 'string' &&
    typeof r.name === 'string' &&
    KINDS.includes(r.kind) &&
    typeof r.openedAt === 'number'
  );
}

/**
 * Creates the store. With `dir` the list lives in `<dir>/recent-files.json`
 * (a damaged file is ignored, not fatal: recent files are a convenience);
 * without it the list lives in memory for this run.
 */
export function createRecentFilesStore(dir: string | null, now: () => number = Date.now): RecentFilesStore {
  const file = dir ? join(dir, 'recent-files.json') : null;
  let entries: RecentFile[] = [];
  if (file && existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (Array.isArray(parsed)) entries = parsed.filter(isRecentFile).slice(0, RECENT_FILES_LIMIT);
    } catch {
      entries = [];
    }
  }
  const persist = (): void => {
    if (!file) return;
    try {
      writeFileAtomic(file, `${JSON.stringify(entries, null, 2)}\n`);
    } catch {
      // Losing the recent list must never fail an open or a save.
    }
  };
  return {
    list: () => entries.map((e) => ({ ...e })),
    add({ path, name, kind }) {
      entries = [{ path, name, kind, openedAt: now() }, ...entries.filter((e) => e.path !== path)].slice(
        0,
        RECENT_FILES_LIMIT,
      );
      persist();
    },
    clear() {
      entries = [];
      persist();
    },
  };
}
