/**
 * `actguy build --watch` (docs/cli.md#watch): build once, then build again
 * whenever one of the project's inputs changes, in the same process, so that a
 * rebuild after one edited `.mtn` or `.sev` costs neither Node's start nor a
 * cold compressor (the pool's workers stay up between builds).
 *
 * What is kept between builds is only what carries no data: the worker threads
 * and, here, the stamps of the watched files. Every build reads the project,
 * its inputs, the cache, the local verdicts and the record of the last build
 * again, exactly as a build in a new process does (build.ts), so a watched
 * build trusts nothing a one-shot build would not.
 *
 * A change is seen two ways: fs.watch on each folder that holds an input (the
 * quick way; an editor's save by rename is an event of the folder), and a poll
 * of every input's stamp (size, times, inode) that catches what the events
 * miss (a folder replaced, network file systems, more folders than are
 * watched). A build starts only when a stamp differs from the one taken before
 * the last build began, so an event of another file in the folder, or the
 * build's own outputs, starts nothing.
 *
 * A build that failed for a reason outside the inputs (another run holds the
 * outputs' lock, the disk is full, the output folder is read-only, a commit
 * journal was refused) is tried again by itself, sooner at first and then at
 * most every 30 s, since what fixes it changes no input the watch could see.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { clipDetail, escapeControls } from '../../shared/errors';
import { normalizePath } from '../../shared/project/paths';
import { parseProject } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { TEXT_LIMIT } from '../fsutil';
import { projectInputFiles } from './build';
import { readInputFile } from './files';
import { stampOf, sameStamp, type FileStamp } from './fileStamp';

export interface WatchOptions {
  /** The project file, as given on the command line. */
  projectFile: string;
  /**
   * One build; `changed` names the inputs whose stamps changed (empty for the first and for a retry). Resolves when
   * it is over: 'retry' when it failed for a reason outside the inputs (a lock, a full disk, a refused journal), so
   * that no change of an input may come to build again.
   */
  build: (changed: readonly string[]) => Promise<WatchBuildEnd>;
  /** A line for the user (stdout). */
  print: (line: string) => void;
  /** Ends the watch: at once when idle, else after the build in progress. */
  signal: AbortSignal;
  /** Quiet time after the last event before a build starts (an editor's save is several events). */
  settleMs?: number;
  /** The longest a change waits for quiet before it is built anyway (a file rewritten without a pause). */
  maxWaitMs?: number;
  /** The least time between two polls of every input's stamp (the poll also waits 20x its own duration). */
  pollMs?: number;
  /** The wait before the first retry of a build that ended 'retry'; it doubles with each retry, up to retryMaxMs. */
  retryMs?: number;
  /** The longest wait between two retries. */
  retryMaxMs?: number;
  /** Folders watched with fs.watch at most; the inputs of any others are polled only. */
  maxFolders?: number;
  /** fs.watch of one folder (tests replace it); null when it cannot be watched (then polled only). */
  watchFolder?: (dir: string, onEvent: (name: string | null) => void) => { close(): void } | null;
  /** A file's stamp, undefined when it cannot be had (tests replace it). */
  stamp?: (path: string) => FileStamp | undefined;
  /** The project's inputs (tests replace it); default: the project file's, parsed again before each build. */
  inputsOf?: (projectFile: string) => string[] | undefined;
}

/** How a watched build ended: 'retry' asks for the same build again later, with no input changed (WatchOptions.build). */
export type WatchBuildEnd = 'done' | 'retry';

interface WatchedFolder {
  watcher: { close(): void } | null;
  names: Set<string>;
  /** `dev:ino` of the folder when its watch began; undefined when it could not be had. */
  id: string | undefined;
}

/** Watched folders at most (inotify's default limit is 8192 watches for all of a user's programs). */
const WATCH_MAX_FOLDERS = 64;
/** The changed files a build's first line names; the rest are counted. */
const NAMED_CHANGES = 3;

/**
 * Builds the project, then again after every change of its inputs, until `signal` aborts. Resolves when the watch
 * has ended: the watchers closed, no build running.
 */
export async function watchBuilds(options: WatchOptions): Promise<void> {
  const settleMs = options.settleMs ?? 60;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const pollMs = options.pollMs ?? 2000;
  const retryMs = options.retryMs ?? 1000;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const maxFolders = options.maxFolders ?? WATCH_MAX_FOLDERS;
  const watchFolder = options.watchFolder ?? watchWithFs;
  const stamp = options.stamp ?? statStamp;
  const inputsOf = options.inputsOf ?? projectInputs;
  const { signal } = options;

  /** The files watched, as the project names them, and their stamps when the last build began. */
  let watched: string[] = [];
  let stamps = new Map<string, FileStamp | undefined>();
  /**
   * The fs.watch of each folder, by absolute folder, with the base names of the inputs in it and the folder's identity
   * (device and inode) when the watch began.
   */
  const folders = new Map<string, WatchedFolder>();
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let building = false;
  /** A change was seen while a build ran: check again when it ends. */
  let again = false;
  let wake: (() => void) | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The retry timer went off: build again even though no input changed. */
  let retryDue = false;
  /** Retries in a row of the build that last ended 'retry' (0: the last build did not). */
  let retries = 0;

  /** The folder the watch began in, by its path: a relative path of the project names a file there. */
  const startDir = process.cwd();
  /**
   * A working folder removed and made again (`rm -r` and an unzip of the project) leaves this process in the removed
   * one, where every relative path is missing for good, so the watch saw no save again: it moves into the folder now
   * at that path, where a new `actguy build` would start.
   */
  const followStartDir = () => {
    const there = stamp(startDir);
    const here = stamp('.');
    if (!there || (here && here.dev === there.dev && here.ino === there.ino)) return;
    try {
      process.chdir(startDir);
    } catch {
      // Gone again: the next check tries again.
    }
  };

  const folderId = (dir: string): string | undefined => {
    const s = stamp(dir);
    return s && `${s.dev}:${s.ino}`;
  };

  /** The watched files whose stamps differ from those taken before the last build began, with their stamps now. */
  const changedFiles = (): [string, FileStamp | undefined][] =>
    watched
      .map((f): [string, FileStamp | undefined] => [f, stamp(f)])
      .filter(([f, now]) => {
        const before = stamps.get(f);
        return before === undefined || now === undefined ? before !== now : !sameStamp(before, now);
      });

  /** Re-points the folder watchers at the folders of `files` (closing those no longer needed). */
  const arm = (files: readonly string[]) => {
    const wanted = new Map<string, Set<string>>();
    for (const f of files) {
      const dir = dirname(resolve(f));
      let names = wanted.get(dir);
      if (!names) {
        if (wanted.size >= maxFolders) continue; // polled only
        wanted.set(dir, (names = new Set()));
      }
      names.add(basename(f));
    }
    for (const [dir, entry] of folders)
      if (!wanted.has(dir)) {
        entry.watcher?.close();
        folders.delete(dir);
      }
    for (const [dir, names] of wanted) {
      const id = folderId(dir);
      const entry = folders.get(dir);
      // A folder removed, or replaced by another (`rm -r` and a copy, a sync tool), leaves its watcher on nothing or
      // on the old folder, wherever it went: it is watched again, or its inputs would be polled only from then on.
      if (entry?.watcher && entry.id === id) {
        entry.names = names;
        continue;
      }
      entry?.watcher?.close();
      const fresh: WatchedFolder = { watcher: null, names, id };
      const self = basename(dir);
      fresh.watcher = watchFolder(dir, (name) => {
        // An event without a name (some platforms) may be any of the folder's files; one with the folder's own name
        // is the folder itself removed or moved away (Linux), which no event of its files says.
        if (name === null || name === self || fresh.names.has(name)) soon(settleMs);
      });
      folders.set(dir, fresh);
    }
  };

  const disarm = () => {
    for (const entry of folders.values()) entry.watcher?.close();
    folders.clear();
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    settleTimer = pollTimer = retryTimer = undefined;
  };

  /** When the first change not yet checked was seen (the settle never puts a check off past maxWaitMs from it). */
  let pendingSince: number | undefined;
  /**
   * A check of the stamps after `ms` of quiet: each new event, or a poll that sees the file still changing, puts it
   * off again, so a build does not read a file half written; but never more than maxWaitMs after the first, so a
   * file rewritten without a pause is built all the same.
   */
  const soon = (ms: number) => {
    if (signal.aborted) return;
    if (building) {
      again = true;
      return;
    }
    const now = performance.now();
    pendingSince ??= now;
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = setTimeout(
      () => {
        settleTimer = undefined;
        pendingSince = undefined;
        wake?.();
      },
      Math.max(0, Math.min(ms, pendingSince + maxWaitMs - now)),
    );
  };

  /** The stamps of the changed files as the last poll found them. */
  let polled: string | undefined;
  const poll = () => {
    pollTimer = undefined;
    if (signal.aborted) return;
    const t0 = performance.now();
    followStartDir();
    const changed = building ? [] : changedFiles();
    const now = changed.length ? JSON.stringify(changed) : undefined;
    const took = performance.now() - t0;
    // Checked again after the settle time, so that a save the poll met halfway is read once it is over; put off
    // again only by a poll that finds the files changed since the last one (still being written).
    if (now !== undefined && now !== polled) soon(settleMs);
    polled = now;
    pollTimer = setTimeout(poll, Math.max(pollMs, took * 20));
  };

  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    let changed: string[] = [];
    let first = true;
    while (!signal.aborted) {
      if (!first) {
        // Wait for an event, a poll that saw a change, or the end.
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
        if (signal.aborted) break;
        followStartDir();
        changed = changedFiles().map(([f]) => f);
        const retry = retryDue && !changed.length;
        retryDue = false;
        // An event of no input's content (another file, the build's own outputs) builds nothing.
        if (!changed.length && !retry) continue;
        if (retryTimer !== undefined) clearTimeout(retryTimer);
        retryTimer = undefined;
        if (retry) options.print(`[${clock()}] trying the build again (retry ${retries})`);
        else retries = 0; // a change of an input is a new build, whatever the last one's end
      }
      first = false;
      const names = inputsOf(options.projectFile);
      // A project that does not parse is watched with the inputs it had, so that fixing any of them builds again.
      watched = [...new Set([normalizePath(options.projectFile), ...(names ?? watched)])];
      stamps = new Map(watched.map((f) => [f, stamp(f)]));
      arm(watched);
      if (changed.length) {
        // The names are the project's: escaped, and cut as any message's detail (three paths of 4 KB, each control
        // character six once escaped, made a line of 70,000 characters for every rebuild).
        const named = clipDetail(
          changed
            .slice(0, NAMED_CHANGES)
            .map((f) => escapeControls(f))
            .join(', '),
        );
        const more = changed.length > NAMED_CHANGES ? ` and ${changed.length - NAMED_CHANGES} more` : '';
        options.print(`[${clock()}] ${named}${more} changed: building again`);
      }
      building = true;
      again = false;
      let end: WatchBuildEnd;
      try {
        end = await options.build(changed);
      } finally {
        building = false;
      }
      if (signal.aborted) break;
      let retryNote = '';
      if (end === 'retry') {
        const wait = Math.min(retryMaxMs, retryMs * 2 ** Math.min(retries, 30));
        retries++;
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          retryDue = true;
          wake?.();
        }, wait);
        retryNote = `; trying the build again in ${formatWait(wait)}`;
      } else retries = 0;
      options.print(
        `[${clock()}] watching ${watched.length} file${watched.length === 1 ? '' : 's'} for changes (Ctrl+C stops)${retryNote}`,
      );
      if (pollTimer === undefined) pollTimer = setTimeout(poll, pollMs);
      // What changed while the build ran is built now (its stamps differ from those taken before it began).
      if (again) soon(0);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    disarm();
  }
}

/** The project's input files as it names them (build.ts builds from these), or undefined when it does not parse. */
export function projectInputs(projectFile: string): string[] | undefined {
  const file = normalizePath(projectFile);
  let parsed;
  try {
    parsed = parseProject(decodeUtf8Text(readInputFile(file, TEXT_LIMIT), 'PROJECT', file), file);
  } catch {
    return undefined;
  }
  const p = parsed.resolved;
  // The project file itself is watched whatever it says (watchBuilds): here, what it names.
  return p && projectInputFiles(p).flatMap((f) => (f.path === p.projectFile ? [] : [f.path]));
}

function statStamp(path: string): FileStamp | undefined {
  try {
    return stampOf(statSync(path, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** fs.watch of one folder; null when it cannot be watched (gone, no permission, out of watches): polled only. */
function watchWithFs(dir: string, onEvent: (name: string | null) => void): { close(): void } | null {
  let w: FSWatcher;
  try {
    w = watch(dir, { persistent: true }, (_event, name) => onEvent(name === null ? null : String(name)));
  } catch {
    return null;
  }
  // A watcher that fails later (its folder removed) leaves the folder to the poll.
  w.on('error', () => w.close());
  return w;
}

/** A wait as the watch's line says it: `1 s`, `2 s`, `30 s` (whole seconds, at least one). */
function formatWait(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}
