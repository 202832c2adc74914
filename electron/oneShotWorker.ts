/**
 * One job in a fresh worker thread that ends with it (File > Import, File > Open): the thread is terminated once the
 * job has an end, whatever the end was, so a cancel or a time budget stops the work wherever it is, and a crash of
 * the code in the thread ends only that thread.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerBundle } from './workerBundles';
import { isBundleRefusal } from '../shared/errors';

/** How a one-shot job ended; never an exception, so each caller words its own messages. */
export type OneShotEnd<T> =
  | { end: 'answer'; value: T }
  | { end: 'cancelled' }
  | { end: 'overBudget' }
  /**
   * The thread did not start (`started` false) or stopped without answering: `detail` says how (the error's message,
   * or `exit code N`); `exitCode` is there when it exited rather than threw (a `process.exit` in it, or killed), so
   * that a caller can word the two apart.
   */
  | { end: 'failed'; started: boolean; detail: string; exitCode?: number }
  /** The worker's bundle, or a file it requires, was refused (workerBundles.ts): `message` is all there is to say. */
  | { end: 'refused'; message: string };

interface OneShotOptions {
  /** Ends the job as `cancelled` (also before the thread starts, if it is already aborted). */
  signal?: AbortSignal;
  /** Ends the job as `overBudget` after this many milliseconds. */
  budgetMs?: number;
  /** Sees the thread once it is created (a test seam). */
  onWorker?: (worker: Worker) => void;
  /** Buffers of `workerData` handed to the thread rather than copied (`actguy import`'s source, `compress`'s motion). */
  transferList?: ArrayBuffer[];
  /**
   * Told each message first: one it takes (returns true for) is a step along the way (Export All's entry), and the
   * job goes on; the first one it does not take is the answer. Without it, the first message is.
   */
  progress?: (message: unknown) => boolean;
}

/** Runs `workerPath` with `workerData` and resolves with its first message, or with how it ended otherwise. */
export async function runOneShotWorker<T>(
  workerPath: string,
  workerData: unknown,
  options: OneShotOptions = {},
): Promise<OneShotEnd<T>> {
  const { progress, ...rest } = options;
  const talk = startWorkerTalk(workerPath, workerData, rest);
  try {
    return await talk.next<T>(progress);
  } finally {
    talk.close();
  }
}

/**
 * A job in a fresh worker thread that takes turns with main (Export All: the thread plans, main decides from the plan
 * what it may read and write and tells it, the thread works): each `next` is the thread's next answer, `send` main's
 * turn. The thread ends at `close`, at a cancel or the time budget, or when it fails, whatever turn it is in.
 */
export interface WorkerTalk {
  /**
   * The thread's next answer: the first message from here on that `progress` does not take (see OneShotOptions), or
   * how the thread ended; once it ended, every call resolves with that end.
   */
  next<T>(progress?: (message: unknown) => boolean): Promise<OneShotEnd<T>>;
  /** Posts `message` to the thread (nothing once it ended). */
  send(message: unknown): void;
  /** Terminates the thread (a `next` still waiting resolves as cancelled). */
  close(): void;
  /**
   * A kept worker's talk (keptWorkerTalks): hands the thread back to be kept for the next job rather than terminated,
   * once its job ended on its own; after it the talk is over (as after close). Absent on a one-shot thread.
   */
  release?(): void;
}

/**
 * The fresh threads of this process's one-shot jobs (File › Open's read, an import) that have not exited: a job's end
 * terminates its thread without waiting for it, and one held in native code (a read of a network folder that stopped
 * answering) would hold the process's end (maintainer's read, round 17).
 */
const oneShotThreads = liveThreads();

/**
 * Ends every one-shot thread still there (the app's quit, main.ts): settles once each has exited. A job still running
 * ends as its thread's exit ends it (`failed`).
 */
export function stopOneShotThreads(): Promise<void> {
  return oneShotThreads.stop();
}

/** Threads started and not exited yet, each held until its 'exit', for a quit to end and wait for (round 17). */
function liveThreads() {
  const live = new Set<Worker>();
  return {
    add(worker: Worker): Worker {
      live.add(worker);
      worker.once('exit', () => live.delete(worker));
      return worker;
    },
    /** Ends every one still there; settles once each has exited. */
    async stop(): Promise<void> {
      await Promise.all([...live].map((worker) => worker.terminate()));
    },
  };
}

/** Starts `workerPath` with `workerData` for a WorkerTalk (runOneShotWorker: one turn, then close). */
export function startWorkerTalk(
  workerPath: string,
  workerData: unknown,
  options: Omit<OneShotOptions, 'progress'> = {},
): WorkerTalk {
  const { transferList } = options;
  return talkWith(
    () => oneShotThreads.add(startWorkerBundle(workerPath, { workerData, ...(transferList && { transferList }) })),
    options,
  );
}

/**
 * A WorkerTalk with the thread `start` gives (a fresh one, or a kept one), ended as startWorkerTalk's; with
 * `keep`, `release` detaches the talk from the thread and hands it to `keep` instead of terminating it.
 */
function talkWith(
  start: () => Worker,
  options: Omit<OneShotOptions, 'progress' | 'transferList'>,
  keep?: (worker: Worker) => void,
): WorkerTalk {
  const { signal, budgetMs, onWorker } = options;
  /** How the thread ended (the first end wins). */
  let ended: OneShotEnd<never> | undefined;
  /** Messages that came while no `next` waited, in order. */
  const inbox: unknown[] = [];
  let waiting: { resolve: (end: OneShotEnd<unknown>) => void; progress?: (message: unknown) => boolean } | undefined;
  let worker: Worker | undefined;
  const finish = (end: OneShotEnd<never>): void => {
    if (ended) return;
    ended = end;
    clearTimeout(budget);
    signal?.removeEventListener('abort', onAbort);
    void worker?.terminate();
    const w = waiting;
    waiting = undefined;
    w?.resolve(end);
  };
  /** Gives `message` to the waiting `next`; true once it was its answer. */
  const take = (message: unknown, w: NonNullable<typeof waiting>): boolean => {
    if (w.progress?.(message)) return false;
    waiting = undefined;
    w.resolve({ end: 'answer', value: message });
    return true;
  };
  const onAbort = () => finish({ end: 'cancelled' });
  const budget = budgetMs === undefined ? undefined : setTimeout(() => finish({ end: 'overBudget' }), budgetMs);
  if (signal?.aborted) finish({ end: 'cancelled' });
  else {
    signal?.addEventListener('abort', onAbort);
    try {
      worker = start();
    } catch (e) {
      finish({ end: 'failed', started: false, detail: (e as Error).message });
    }
  }
  const onMessage = (value: unknown) => {
    if (ended) return;
    if (waiting) take(value, waiting);
    else inbox.push(value);
  };
  const onError = (e: Error) =>
    finish(
      isBundleRefusal(e) ? { end: 'refused', message: e.message } : { end: 'failed', started: true, detail: e.message },
    );
  const onExit = (code: number) =>
    finish({ end: 'failed', started: true, detail: `exit code ${code}`, exitCode: code });
  if (worker) {
    onWorker?.(worker);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  }
  const release = () => {
    const w = worker;
    if (ended || !w || !keep) return finish({ end: 'cancelled' });
    w.off('message', onMessage);
    w.off('error', onError);
    w.off('exit', onExit);
    // Ended for this talk, not terminated: the keeper has it now.
    worker = undefined;
    finish({ end: 'cancelled' });
    keep(w);
  };
  return {
    ...(keep && { release }),
    next: <T>(progress?: (message: unknown) => boolean) =>
      new Promise<OneShotEnd<T>>((resolve) => {
        const w = { resolve: resolve as (end: OneShotEnd<unknown>) => void, progress };
        while (inbox.length) if (take(inbox.shift(), w)) return;
        if (ended) resolve(ended);
        else waiting = w;
      }),
    send: (message) => {
      if (!ended) worker?.postMessage(message);
    },
    close: () => finish({ end: 'cancelled' }),
  };
}

/**
 * Idle threads of one worker bundle kept between jobs: the build bundle's, which the app's Build
 * (project/buildRunner.ts workerLauncher) and Export All (interchange/projectExportHandlers.ts) share, so that the app
 * holds one idle thread of it, not one for each, ended in one place at quit (main.ts). One thread at most is kept, for
 * `keepMs` idle; one that ends by itself (or fails) while kept is not handed out; a kept thread never keeps the
 * process from exiting. The thread keeps no job's data by its own contract (buildWorker.ts): each job brings
 * everything it may use.
 */
export interface KeptWorkers {
  /** The kept thread (taken: no longer kept), else a fresh one of the bundle, started without workerData. */
  take(): Worker;
  /** Keeps `worker`, idle, for the next `take` (a thread already kept is ended: one is enough); 0 ms: ends it. */
  keep(worker: Worker): void;
  /**
   * Ends every thread it started that has not exited (the app's quit): the kept one, those of jobs still running (a
   * build, an Export All) and those their jobs ended a moment before; settles once all have exited, so that the quit's
   * bound covers one held in native code (maintainer's read, round 17).
   */
  dispose(): Promise<void>;
  /** Threads started so far (tests: a job that found one kept started none). */
  readonly started: number;
}

export function keptWorkers(workerPath: string, keepMs: number): KeptWorkers {
  let kept: { worker: Worker; timer: ReturnType<typeof setTimeout>; gone: () => void } | undefined;
  let started = 0;
  /** Every thread started here, until it exits (a job's end terminates its thread without waiting: dispose waits). */
  const alive = liveThreads();
  const takeKept = (): Worker | undefined => {
    const k = kept;
    kept = undefined;
    if (!k) return undefined;
    clearTimeout(k.timer);
    k.worker.off('exit', k.gone);
    k.worker.off('error', k.gone);
    k.worker.ref();
    return k.worker;
  };
  return {
    take: () => {
      const worker = takeKept();
      if (worker) return worker;
      const fresh = alive.add(startWorkerBundle(workerPath));
      started++;
      return fresh;
    },
    keep: (worker) => {
      // Two jobs ended at once: one thread is enough to keep.
      const other = takeKept();
      if (other) void other.terminate();
      if (keepMs <= 0) return void worker.terminate();
      worker.unref();
      const gone = () => {
        if (kept?.worker === worker) takeKept();
      };
      const timer = setTimeout(() => {
        if (kept?.worker !== worker) return;
        takeKept();
        void worker.terminate();
      }, keepMs);
      timer.unref();
      // A kept thread that ends by itself (or fails) is not kept any longer.
      worker.once('exit', gone);
      worker.once('error', gone);
      kept = { worker, timer, gone };
    },
    dispose: async () => {
      takeKept();
      await alive.stop();
    },
    get started() {
      return started;
    },
  };
}

/**
 * Talks with threads of `workers` (Export All's): `start` posts `job` to the kept thread, or to a fresh one, and talks
 * with it as startWorkerTalk does. A talk whose job ended on its own is `release`d and its thread kept (KeptWorkers);
 * a thread that is closed (Cancel, a refusal), fails or exits is not kept.
 */
export function keptWorkerTalks(workers: KeptWorkers): {
  start(job: unknown, options?: Omit<OneShotOptions, 'progress' | 'transferList'>): WorkerTalk;
} {
  return {
    start: (job, options = {}) =>
      talkWith(
        () => {
          const worker = workers.take();
          worker.postMessage(job);
          return worker;
        },
        options,
        workers.keep,
      ),
  };
}
