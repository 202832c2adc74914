/**
 * Quitting waits for the writes still running (writeTurns.ts writesInFlight: a copy of unsaved work, a save, an export
 * being written off the main thread), for at most QUIT_WAIT_MS: a quit the moment a copy's write began no longer
 * cuts it off, so the next start finds the copy (docs/architecture.md#electron). Every write is atomic (a temp file
 * renamed over its target), so one cut off by a wait that ran out leaves the file it was replacing as it was, and its
 * temp file is swept later (by the next write of that file; a backup's when the store starts). A commit (a build's
 * or an export's files, put in place as one unit) still running when the wait runs out is not cut without asking.
 */
import type { CompressClient } from './compressClient';
import { stopOneShotThreads, type KeptWorkers } from './oneShotWorker';
import type { WorkerCheckers } from './project/textCheck';
import { settleWrites } from './writeTurns';

/** The longest a quit waits for writes still running: a 44 MB copy of unsaved work takes well under a second. */
const QUIT_WAIT_MS = 5000;

/**
 * How long a quit answered Wait waits for the commits before it asks again. A commit that has not ended 35 s after the
 * quit (its files on a network folder gone, a disk that stopped answering) may never end; on Windows and Linux the
 * app has no window by then and no Dock, so without the question again nothing would be left to the user but ending
 * the process.
 */
export const ASK_AGAIN_MS = 30_000;

interface QuitGateOptions {
  /** The writes still running (writesInFlight). */
  pending: ReadonlySet<Promise<unknown>>;
  /** The commits among them (writeTurns.ts commitsInFlight): not cut when the wait runs out without asking. */
  commits: ReadonlySet<Promise<unknown>>;
  /**
   * Asked when the wait ran out while `count` commits still run (main: a message box): true quits now, cutting them
   * (their files stay as they were, or are completed from the journal the next time they are written); false waits for
   * them, and asks again after ASK_AGAIN_MS while they still run. A question that fails waits. `signal` is aborted
   * once the commits have ended: the question is taken down (an aborted box answers its cancel button, Wait).
   */
  quitDuringCommits(count: number, signal: AbortSignal): Promise<boolean>;
  /** Quits again once the wait is over (Electron's app.quit). */
  quit(): void;
  /** Says what was left unfinished (the terminal: at will-quit the window is gone). */
  warn(message: string): void;
  timeoutMs?: number;
  /** How long an answer of Wait holds before the question comes again (ASK_AGAIN_MS unless given). */
  askAgainMs?: number;
}

/**
 * Waits for `pending` as a quit does (QUIT_WAIT_MS at most, unless `timeoutMs`), and says through `warn` how many
 * writes were still running when the wait ran out. Never rejects.
 *
 * `commits` (the loopback server's stop, which has a terminal and no window): the commits among them (writeTurns.ts
 * commitsInFlight) are not cut when the wait runs out; it says so through `warn`, then asks `cutNow` and waits for them
 * until they end or what it gave settles (the server's Ctrl+C after that message: createStopSignals).
 */
export async function waitForWritesBeforeQuit(
  pending: ReadonlySet<Promise<unknown>>,
  warn: (message: string) => void,
  timeoutMs = QUIT_WAIT_MS,
  commits?: { inFlight: ReadonlySet<Promise<unknown>>; cutNow: () => Promise<unknown>; howToCut: string },
): Promise<void> {
  const left = await settleWrites(pending, timeoutMs);
  if (left > 0 && commits && commits.inFlight.size > 0) {
    const count = commits.inFlight.size;
    warn(
      `still putting ${count > 1 ? `${count} sets of files` : 'files'} in place (a build, an export or a save, all ` +
        `together or none): waiting for ${count > 1 ? 'them' : 'it'}; ${commits.howToCut} to stop now, leaving the ` +
        'files on disk as they were',
    );
    // Asked once the user has been told how to cut: a cut asked before (a copy of the signal that began the stop)
    // is no answer to it (createStopSignals).
    await Promise.race([settleWrites(commits.inFlight, null), commits.cutNow()]);
  }
  sayWritesLeft(pending.size, timeoutMs, warn);
}

function sayWritesLeft(left: number, timeoutMs: number, warn: (message: string) => void): void {
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
 * after the wait goes ahead whatever still runs. Not held for good without the user's word: when the wait runs out
 * while a commit runs, `quitDuringCommits` asks, and the answer Wait holds the quit until the commits have ended,
 * asking again every ASK_AGAIN_MS while they run (and at once on a will-quit meanwhile).
 */
export function createQuitGate(options: QuitGateOptions): (event: { preventDefault(): void }) => boolean {
  let state: 'open' | 'waiting' | 'waited' = 'open';
  const timeoutMs = options.timeoutMs ?? QUIT_WAIT_MS;
  const askAgainMs = options.askAgainMs ?? ASK_AGAIN_MS;
  /** Set while the quit waits for commits: a quit asked again asks now. */
  let askAgain: (() => void) | undefined;
  /**
   * Waits for the commits, asking first whether to quit now. Answered Wait, it waits, however long, and asks again
   * after askAgainMs while they still run, or at once when a quit is asked again meanwhile (a second Cmd+Q, the Dock's
   * Quit: the app has no window by then); one question at a time, and Quit now ends the wait. A question that fails to
   * show waits, as Wait does. Once the commits have ended the question on screen is taken down (not on macOS, where
   * a box with no window cannot be: it stays until answered, and either answer quits).
   */
  const waitForCommits = async (): Promise<void> => {
    let cut = (): void => undefined;
    const cutNow = new Promise<void>((resolve) => (cut = resolve));
    const ended = settleWrites(options.commits, null);
    /** Aborted once the wait is over (the commits ended, or Quit now): takes down the question on screen. */
    const over = new AbortController();
    let asking = false;
    let timer: NodeJS.Timeout | undefined;
    const ask = (): void => {
      clearTimeout(timer);
      if (asking) return;
      asking = true;
      void options
        .quitDuringCommits(options.commits.size, over.signal)
        .catch((e: unknown) => {
          options.warn(
            `the question about the files being written could not be shown (${String(e)}): waiting for them`,
          );
          return false;
        })
        .then((now) => {
          asking = false;
          if (now) cut();
          else if (!over.signal.aborted) timer = setTimeout(ask, askAgainMs);
        });
    };
    askAgain = ask;
    ask();
    try {
      await Promise.race([ended, cutNow]);
    } finally {
      askAgain = undefined;
      over.abort();
      clearTimeout(timer);
    }
  };
  /**
   * As waitForWritesBeforeQuit, except that a commit still running when the wait ran out is not cut without asking. A
   * commit is the one write whose cut loses work: the build or the export whose files it puts in place (minutes of
   * compression) ends with it, and the user, whose window is gone, would not know.
   */
  const waitThenQuit = async (): Promise<void> => {
    const left = await settleWrites(options.pending, timeoutMs);
    if (left > 0 && options.commits.size > 0) await waitForCommits();
    sayWritesLeft(options.pending.size, timeoutMs, options.warn);
  };
  return (event) => {
    if (state === 'waited' || (state === 'open' && options.pending.size === 0)) return true;
    event.preventDefault();
    if (state === 'waiting') {
      askAgain?.();
      return false;
    }
    state = 'waiting';
    waitThenQuit()
      .finally(() => {
        state = 'waited';
        options.quit();
      })
      .catch((e: unknown) => options.warn(`the quit after waiting for writes failed: ${String(e)}`));
    return false;
  };
}

/**
 * The longest a quit waits for the worker threads to stop (compression, the kept build thread, the text checker). An
 * idle thread, or one running JavaScript, stops in milliseconds: `terminate()` interrupts it. One held in native code
 * (a read of a network folder that stopped answering) does not stop until that call returns, and the process's own
 * end waits for every thread (Node joins them, at `process.exit` too): without a bound the quit would hang with no
 * window and no way out but ending the process by hand.
 */
export const WORKERS_STOP_MS = 5000;

/** One worker (or set of workers) that the quit stops: `stop` settles once its threads have ended. */
export interface WorkerStop {
  /** What it is, in a record and in the terminal: `the compression workers`. */
  name: string;
  stop(): Promise<unknown>;
}

/**
 * What the app's quit and the web server's stop (loopback/serve.ts) stop, the same threads in both: each waits for
 * every thread of its own, those of jobs ended or cancelled a moment before too (round 17): an MSH or glTF export's
 * (the compression client's), a build's or an Export All's (the build bundle's threads), a File › Open's or an
 * import's (the one-shot threads), and the text checker's.
 */
export function appWorkerStops(workers: {
  compress: Pick<CompressClient, 'dispose'>;
  buildWorkers: Pick<KeptWorkers, 'dispose'>;
  checkers: Pick<WorkerCheckers, 'dispose'> | null;
}): WorkerStop[] {
  const { compress, buildWorkers, checkers } = workers;
  return [
    { name: 'the compression workers', stop: () => compress.dispose() },
    { name: 'the build and Export All threads', stop: () => buildWorkers.dispose() },
    ...(checkers ? [{ name: 'the text checker', stop: () => checkers.dispose() }] : []),
    { name: 'the open and import threads', stop: stopOneShotThreads },
  ];
}

/**
 * Asks every stop and waits for them, `timeoutMs` (WORKERS_STOP_MS) at most: settles with the names of those still
 * running then, none once all have stopped. A stop that fails (rejects, or throws as it is asked) is said through
 * `warn` and counts as ended. Never rejects.
 */
export function stopWorkers(
  stops: readonly WorkerStop[],
  warn: (message: string) => void,
  timeoutMs = WORKERS_STOP_MS,
): Promise<string[]> {
  const running = new Set<string>();
  const ends = stops.map(({ name, stop }) => {
    running.add(name);
    let stopping: Promise<unknown>;
    try {
      stopping = stop();
    } catch (e) {
      stopping = Promise.reject(e);
    }
    return stopping
      .catch((e: unknown) => warn(`${name} did not stop cleanly: ${String(e)}`))
      .finally(() => running.delete(name));
  });
  return new Promise((settle) => {
    const timer = setTimeout(() => settle([...running]), timeoutMs);
    void Promise.all(ends).then(() => {
      clearTimeout(timer);
      settle([]);
    });
  });
}

interface WorkersStopOptions {
  /** The stops, asked at the first will-quit past the quit gate. */
  stops(): readonly WorkerStop[];
  /** Quits again once every stop has settled (Electron's app.quit). */
  quit(): void;
  /** Those that had not stopped when the wait ran out, by name: main records it and ends the process. */
  stuck(names: string[]): void;
  /** Says a stop that failed (the terminal); a failed stop counts as ended. */
  warn(message: string): void;
  timeoutMs?: number;
}

/**
 * The app's will-quit step after the quit gate: true when this will-quit goes ahead. The first will-quit is prevented
 * while the workers stop (stopWorkers), and the quit comes again once they all have; a will-quit meanwhile is
 * prevented too. Past WORKERS_STOP_MS with one still running, `stuck` is told which, once, and the quit is not asked
 * again: the process's own end would wait for that thread, so main ends it (main.ts).
 */
export function createWorkersStop(options: WorkersStopOptions): (event: { preventDefault(): void }) => boolean {
  let state: 'open' | 'stopping' | 'stopped' | 'stuck' = 'open';
  return (event) => {
    if (state === 'stopped') return true;
    event.preventDefault();
    if (state !== 'open') return false;
    state = 'stopping';
    void stopWorkers(options.stops(), options.warn, options.timeoutMs).then((stuck) => {
      if (stuck.length > 0) {
        state = 'stuck';
        options.stuck(stuck);
        return;
      }
      state = 'stopped';
      options.quit();
    });
    return false;
  };
}

/**
 * The web server's signals (SIGINT, SIGTERM; loopback/serve.ts): the first stops it; one that comes once the stop has
 * said how to cut the wait for the commits ("press Ctrl+C again": waitForWritesBeforeQuit asks `cutNow` then) cuts
 * that wait; any other does nothing. One Ctrl+C in a terminal reaches the server more than once: the terminal sends it
 * to the whole process group (the server, scripts/web.mjs, npm), and npm and web.mjs each pass theirs on to their
 * child, so the server got three at once; counted as a second, the copies cut the commits' wait before it began,
 * which a stop must not do unasked.
 */
export function createStopSignals(stop: () => void): {
  /** A signal: the stop, or the cut once asked for, or nothing. */
  signal(): void;
  /** The stop, once (stdin's end and close with --exit-with-stdin): never a cut. */
  stop(): void;
  /** For waitForWritesBeforeQuit: settles at the first signal after it is asked. */
  cutNow(): Promise<void>;
} {
  let stopping = false;
  let cut: (() => void) | undefined;
  const once = (): boolean => {
    if (stopping) return false;
    stopping = true;
    stop();
    return true;
  };
  return {
    signal: () => {
      if (!once()) cut?.();
    },
    stop: () => void once(),
    cutNow: () => new Promise<void>((resolve) => (cut = resolve)),
  };
}
