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
export function runOneShotWorker<T>(
  workerPath: string,
  workerData: unknown,
  options: OneShotOptions = {},
): Promise<OneShotEnd<T>> {
  const { signal, budgetMs, onWorker, transferList, progress } = options;
  return new Promise<OneShotEnd<T>>((resolve) => {
    if (signal?.aborted) {
      resolve({ end: 'cancelled' });
      return;
    }
    let settled = false;
    let worker: Worker | undefined;
    const settle = (end: OneShotEnd<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(budget);
      signal?.removeEventListener('abort', onAbort);
      void worker?.terminate();
      resolve(end);
    };
    const onAbort = () => settle({ end: 'cancelled' });
    const budget = budgetMs === undefined ? undefined : setTimeout(() => settle({ end: 'overBudget' }), budgetMs);
    signal?.addEventListener('abort', onAbort);
    try {
      worker = startWorkerBundle(workerPath, { workerData, ...(transferList && { transferList }) });
    } catch (e) {
      settle({ end: 'failed', started: false, detail: (e as Error).message });
      return;
    }
    onWorker?.(worker);
    worker.on('message', (value: T) => {
      if (!settled && progress?.(value)) return;
      settle({ end: 'answer', value });
    });
    worker.on('error', (e) =>
      settle(
        isBundleRefusal(e)
          ? { end: 'refused', message: e.message }
          : { end: 'failed', started: true, detail: e.message },
      ),
    );
    worker.on('exit', (code) => settle({ end: 'failed', started: true, detail: `exit code ${code}`, exitCode: code }));
  });
}
