/**
 * How File > Open reads and decodes a motion (motionFiles.ts loadMotionFile): in a worker thread of its own in the
 * app, so that decoding a large archive never stalls the main process (its menus, its other requests, the window)
 * and a Cancel stops the decode itself, not only the stages around it (docs/architecture.md, "Threads").
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { loadMotionFile, type LoadOutcome } from './motionFiles';
import { runOneShotWorker } from './oneShotWorker';
import { errorFromWire, errorToWire, type WireError } from './wireError';
import type { OpenMotionRequest } from '../shared/ipc/documents';

/**
 * One open, as the handler hands it over once the path policy has passed `path` and `skeletonPath`: no callback, so
 * that it can cross to a worker. `readableBeside` is the `<base>.mtn` beside an .mt3/.mar when the policy lets it be
 * read (the only skeleton the load may take by itself), else null.
 */
export interface MotionLoadJob extends OpenMotionRequest {
  readableBeside: string | null;
  /**
   * The motion already open (a listed file judged on its descriptor, recentFiles.ts openRecentFile): read through
   * it, never opened again by name. Descriptors are the process's, so a worker thread reads it too; the handler
   * closes it once the load has ended.
   */
  fd?: number;
}

/**
 * Runs one open: resolves as loadMotionFile does, rejects with its error (a FormatError keeps its kind and place),
 * and with an AbortError when `signal` stops it.
 */
export type MotionLoader = (job: MotionLoadJob, signal?: AbortSignal) => Promise<LoadOutcome>;

/** What the worker answers: the outcome, or the error as it can cross the thread boundary (wireError.ts). */
type MotionLoadReply = { ok: true; outcome: LoadOutcome } | { ok: false; error: WireError };

/** Runs `job` on the calling thread; the worker runs the same. Never throws: failures are replies. */
export async function answerMotionLoad(job: MotionLoadJob, signal?: AbortSignal): Promise<MotionLoadReply> {
  try {
    return { ok: true, outcome: await loadMotionFile(asLoadRequest(job), signal) };
  } catch (e) {
    return { ok: false, error: errorToWire(e) };
  }
}

function asLoadRequest(job: MotionLoadJob) {
  const { readableBeside, ...req } = job;
  return { ...req, mayReadBeside: (path: string) => path === readableBeside };
}

/** The outcome of a reply; throws its error as the load threw it. */
export function outcomeOf(reply: MotionLoadReply): LoadOutcome {
  if (reply.ok) return reply.outcome;
  throw errorFromWire(reply.error);
}

/**
 * On the calling thread (tests, and a host without the worker bundle): `signal` is honoured between reads and
 * stages only, as loadMotionFile checks it.
 */
export const inProcessMotionLoader: MotionLoader = (job, signal) => loadMotionFile(asLoadRequest(job), signal);

/** dist/electron/motionLoadWorker.cjs beside the running bundle (unpacked beside app.asar in a packaged app). */
function defaultMotionLoadWorkerPath(): string {
  return join(__dirname, 'motionLoadWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

function abortError(path: string): Error {
  const e = new Error(`Opening ${path} was cancelled`);
  e.name = 'AbortError';
  return e;
}

/**
 * Each open in a fresh worker thread, which ends with it (oneShotWorker.ts): a Cancel terminates the thread wherever
 * the decode is (a 1 GiB archive decodes for tens of seconds), and a crash of the decoder ends only that thread.
 * `onWorker` is a test seam: it sees each thread started.
 */
export function workerMotionLoader(
  workerPath: string = defaultMotionLoadWorkerPath(),
  onWorker?: (worker: Worker) => void,
): MotionLoader {
  return async (job, signal) => {
    const ended = await runOneShotWorker<MotionLoadReply>(workerPath, job, { signal, onWorker });
    switch (ended.end) {
      case 'answer':
        return outcomeOf(ended.value);
      case 'cancelled':
      case 'overBudget':
        throw abortError(job.path);
      case 'failed':
        throw new Error(
          `Could not open ${job.path}: the reader ${ended.started ? 'stopped' : 'did not start'} (${ended.detail})`,
        );
      case 'refused':
        // A damaged installation, not the file's fault: said as it is (docs/security.md, round 25).
        throw new Error(ended.message);
    }
  };
}

/** The worker loader when its bundle lies beside this one (the app, the loopback server), else in-process. */
export function defaultMotionLoader(workerPath = defaultMotionLoadWorkerPath()): MotionLoader {
  return existsSync(workerPath) ? workerMotionLoader(workerPath) : inProcessMotionLoader;
}
