/**
 * What the app does when its page crashes or hangs: a local crash record the
 * user can attach to a bug report, and the question that offers a reload.
 *
 * Records are JSON files in `<userData>/Crash Records/` (docs/install.md#where-actguy-keeps-things),
 * one per event, written atomically; nothing is uploaded. Electron's own
 * crashReporter (uploads off) writes minidumps of native crashes to
 * app.getPath('crashDumps') beside them.
 *
 * The unsaved edits live in the page, and main holds a copy of each
 * (electron/unsavedBackups.ts, sent half a second after an edit): after a
 * crash the reloaded page restores those copies, and the question says so
 * when main holds any; otherwise it names what was lost (from the last state
 * the page reported). For a hung page the default is to wait, which keeps
 * every edit.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fsutil';
import { isSymbolicLink, lstatExists } from './pathPolicy';

export const CRASH_RECORDS_FOLDER = 'Crash Records';
/** Older records beyond this many are removed when a new one is written. */
export const MAX_CRASH_RECORDS = 20;

/** One crash or hang, as written to its record. */
export interface CrashRecord {
  /**
   * 'render-process-gone' (the page crashed or was killed), 'unresponsive' (the page hangs), or 'child-process-gone'
   * (another of Chromium's processes, the GPU's or a utility's, died: Chromium starts it again and the page goes on, so
   * only the record is kept, no question is asked), or 'main-process-error' (a promise in the main process failed and
   * nothing caught it: recorded instead of Electron's error box with a stack trace; the app goes on), or
   * 'workers-did-not-stop' (at the quit, worker threads that had not stopped in time: the process was ended).
   */
  event: 'render-process-gone' | 'unresponsive' | 'child-process-gone' | 'main-process-error' | 'workers-did-not-stop';
  /** For 'workers-did-not-stop': which, by name (`the compression workers`, ...). */
  workers?: string[];
  /** For 'main-process-error': the error's stack, or its message (mainProcessErrorText). */
  error?: string;
  /** For 'child-process-gone': Electron's process type ('GPU', 'Utility', ...) and its name, when it has one. */
  process?: string;
  processName?: string;
  /** ISO 8601 time. */
  time: string;
  /** Electron's reason ('crashed', 'oom', 'killed', ...) for a gone page. */
  reason?: string;
  exitCode?: number;
  appVersion: string;
  versions: { electron?: string; chrome?: string; node?: string };
  platform: string;
  arch: string;
  /** The motion shown and what was unsaved, as the page last reported them. */
  documentName: string | null;
  unsaved: string[];
}

/** The folder of the minidumps of native crashes, in the profile (docs/install.md#where-actguy-keeps-things). */
export const CRASH_DUMPS_FOLDER = 'Crashpad';

/**
 * Where Electron's crash reporter is to keep its minidumps: `<userData>/Crashpad`, set explicitly (Electron's default
 * for `crashDumps` differs by platform and version, and the docs name this folder), or a problem when that folder is
 * a symbolic link: the reporter's handler would write every dump (a process's memory) where the link leads, so it is
 * not started then (docs/security.md, round 12).
 */
export function crashDumpsFolder(userData: string): { path: string } | { problem: string } {
  const path = join(userData, CRASH_DUMPS_FOLDER);
  if (isSymbolicLink(path))
    return { problem: `${path} is a symbolic link, not a folder: native crashes leave no minidump this run` };
  return { path };
}

/** Writes `record` to a new file in `<userData>/Crash Records` and returns its path; older records past the cap go. */
export function writeCrashRecord(userData: string, record: CrashRecord): string {
  const dir = join(userData, CRASH_RECORDS_FOLDER);
  // A `Crash Records` that is a symbolic link leads elsewhere: no record is written (nor an old one pruned) through
  // it (docs/security.md, round 12). The caller says the record was not written.
  if (isSymbolicLink(dir)) throw new Error(`${dir} is a symbolic link, not a folder: no record is written through it`);
  // Named by the time to the millisecond; two events in one millisecond (a GPU and a utility process that die
  // together) are two records: the second is `…-2.json`, never a rename over the first.
  const stamp = `${record.time.replace(/[:.]/g, '-')}-${record.event}`;
  let file = join(dir, `${stamp}.json`);
  for (let n = 2; n <= MAX_CRASH_RECORDS && lstatExists(file); n++) file = join(dir, `${stamp}-${n}.json`);
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, { own: true });
  pruneCrashRecords(dir, file);
  return file;
}

/** How long the text of a main-process error may be in its record. */
export const MAIN_PROCESS_ERROR_MAX = 4000;

/** What a record says of a value a main-process promise rejected with: its stack or text, bounded; never throws. */
export function mainProcessErrorText(reason: unknown): string {
  let text: string;
  try {
    text = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : String(reason);
  } catch {
    text = 'a value that cannot be shown as text';
  }
  return text.slice(0, MAIN_PROCESS_ERROR_MAX);
}

/** The names writeCrashRecord gives its records; nothing else in the folder is ever removed. */
const RECORD_NAME =
  /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-(render-process-gone|unresponsive|child-process-gone|main-process-error)(-\d+)?\.json$/;

/**
 * Removes the oldest records (by name: their time) past the cap: only plain files of a record's name, and never
 * `keep`, the record just written, even when others are named later (written before the clock was set back).
 */
function pruneCrashRecords(dir: string, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && RECORD_NAME.test(e.name) && join(dir, e.name) !== keep)
      .map((e) => e.name)
      .sort();
  } catch {
    return;
  }
  for (const old of names.slice(0, Math.max(0, names.length + 1 - MAX_CRASH_RECORDS))) {
    try {
      rmSync(join(dir, old), { force: true });
    } catch {
      // gone meanwhile, or not removable: the cap is a courtesy, the record is written
    }
  }
}

/** The native question after a crash or a hang. */
export interface RecoveryQuestion {
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
}

/** What each button of the question does. */
export type RecoveryAction = 'reload' | 'wait' | 'quit';

/**
 * The question to ask and the action of each of its buttons. A crashed page
 * can only be reloaded (or the app quit); a hung one may still answer, so
 * waiting (which keeps unsaved edits) is the default and reloading says what it drops.
 */
export function recoveryQuestion(
  event: CrashRecord['event'],
  unsaved: readonly string[],
  recordPath: string | null,
  /** Main holds copies of unsaved work: a reload (or the next start, after Quit) restores them. */
  backedUp = false,
): { question: RecoveryQuestion; actions: RecoveryAction[] } {
  const lost = unsaved.length ? `Unsaved changes to ${unsaved.join(', ')}` : null;
  const kept = backedUp
    ? 'Your unsaved changes were kept: they come back, unsaved, when the window reloads (or at the next start). '
    : null;
  const where = recordPath
    ? `A crash record was written to ${recordPath}; attach it to a bug report.`
    : 'The crash record could not be written.';
  if (event === 'render-process-gone') {
    return {
      question: {
        title: 'ActGuy stopped working',
        message: 'The ActGuy window crashed.',
        detail: `${kept ?? (lost ? `${lost} were lost with it. ` : '')}Reload the window to go on working; your files on disk are as last saved.\n\n${where}`,
        buttons: ['Reload', 'Quit'],
        defaultId: 0,
        cancelId: 1,
      },
      actions: ['reload', 'quit'],
    };
  }
  return {
    question: {
      title: 'ActGuy is not responding',
      message: 'The ActGuy window is not responding.',
      detail: `Wait for it to finish, or reload the window${lost ? (backedUp ? `: reloading restores the unsaved changes to ${unsaved.join(', ')} as last backed up (the last half second of edits may be lost)` : `: reloading discards the unsaved changes to ${unsaved.join(', ')}`) : ''}.\n\n${where}`,
      buttons: ['Wait', 'Reload'],
      defaultId: 0,
      cancelId: 0,
    },
    actions: ['wait', 'reload'],
  };
}
