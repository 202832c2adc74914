/**
 * Quitting waits for the writes still running (writeTurns.ts writesInFlight: a copy of unsaved work, a save, an export
 * being written off the main thread), for at most QUIT_WAIT_MS: a quit the moment a copy's write began no longer
 * cuts it off, so the next start finds the copy (docs/architecture.md#electron). Every write is atomic (a temp file
 * renamed over its target), so one cut off by a wait that ran out leaves the file it was replacing as it was, and its
 * temp file is swept later (by the next write of that file; a backup's when the store starts).
 */
import { settleWrites } from './writeTurns';

/** The longest a quit waits for writes still running: a 44 MB copy of unsaved work takes well under a second. */
const QUIT_WAIT_MS = 5000;

interface QuitGateOptions {
  /** The writes still running (writesInFlight). */
  pending: ReadonlySet<Promise<unknown>>;
  /** Quits again once the wait is over (Electron's app.quit). */
  quit(): void;
  /** Says what was left unfinished (the terminal: at will-quit the window is gone). */
  warn(message: string): void;
  timeoutMs?: number;
}

/**
 * Waits for `pending` as a quit does (QUIT_WAIT_MS at most, unless `timeoutMs`), and says through `warn` how many
 * writes were still running when the wait ran out. Never rejects.
 */
export async function waitForWritesBeforeQuit(
  pending: ReadonlySet<Promise<unknown>>,
  warn: (message: string) => void,
  timeoutMs = QUIT_WAIT_MS,
): Promise<void> {
  const left = await settleWrites(pending, timeoutMs);
  if (left > 0)
    warn(
      `quitting with ${left === 1 ? 'a write' : `${left} writes`} still running after ${timeoutMs / 1000} s: ` +
        'each goes to a temporary file first, so the file it was replacing is as it was',
    );
}

/**
 * The app's will-quit handler, as a function of the writes still running: true when this will-quit goes ahead (the
 * app tears down and exits). While writes run, the first will-quit is prevented and the quit comes again once they
 * have ended or QUIT_WAIT_MS ran out, whichever is first; a will-quit while it waits is prevented too, and the one
 * after the wait goes ahead whatever still runs (a quit is never held for good).
 */
export function createQuitGate(options: QuitGateOptions): (event: { preventDefault(): void }) => boolean {
  let state: 'open' | 'waiting' | 'waited' = 'open';
  const timeoutMs = options.timeoutMs ?? QUIT_WAIT_MS;
  return (event) => {
    if (state === 'waited' || (state === 'open' && options.pending.size === 0)) return true;
    event.preventDefault();
    if (state === 'waiting') return false;
    state = 'waiting';
    waitForWritesBeforeQuit(options.pending, options.warn, timeoutMs)
      .finally(() => {
        state = 'waited';
        options.quit();
      })
      .catch((e: unknown) => options.warn(`the quit after waiting for writes failed: ${String(e)}`));
    return false;
  };
}
