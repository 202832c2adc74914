/**
 * Parsing the SEV and project texts the renderer sends, off the main process.
 * A save parses the text before writing it (a text with errors is refused)
 * and a build lists the paths its project names; a large or hostile text must
 * not stall the window, so the app runs these in a worker thread
 * (textCheckWorker.ts) with a time budget, as it runs motion parsing. The
 * parsers themselves live in textCheckJob.ts, which the main bundle never loads.
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorkerBundle } from '../workerBundles';
import { isBundleRefusal } from '../../shared/errors';
import type { MotionChecker, MotionCheckRequest, MotionCheckResult } from '../motionCheckJob';

/** A text to check: a .sev or a project (`*.actguy.json`), with the path its messages name. */
export interface TextCheckRequest {
  kind: 'sev' | 'project';
  path: string;
  text: string;
}

/** The parse errors as readable messages (file:line:column: ...), and for a project every path it names. */
export interface TextCheckResult {
  errors: string[];
  /** `report`: the build report's path, when the project is valid (only a build report is replaced there). */
  named: { inputs: string[]; outputs: string[]; report?: string };
}

/** Runs one check; rejects with a readable Error when the checker fails or runs past its budget. */
export type TextChecker = (req: TextCheckRequest) => Promise<TextCheckResult>;

/** How long one check may take before the worker is stopped and the save or build refused. */
export const TEXT_CHECK_BUDGET_MS = 20_000;

/** dist/electron/textCheckWorker.cjs beside the running bundle (unpacked beside app.asar in a packaged app). */
export function defaultTextCheckWorkerPath(): string {
  return join(__dirname, 'textCheckWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** What the main process posts to the text-check worker (a text, or a motion to be saved), and what comes back. */
export interface TextCheckJob {
  id: number;
  req: TextCheckRequest | MotionCheckRequest;
}
export type TextCheckReply =
  { id: number; ok: true; result: TextCheckResult | MotionCheckResult } | { id: number; ok: false; message: string };

/** The checks the text-check worker runs: texts (SEV, project) and motions to be saved (motionCheckJob.ts). */
export interface WorkerCheckers {
  text: TextChecker;
  motion: MotionChecker;
  /**
   * Stops the worker (the app's quit): settles once its thread has ended. A check running or asked after it is
   * refused (`the text checker was shut down`); no worker starts again.
   */
  dispose(): Promise<void>;
}

/** The app's checkers (main.ts, the loopback server): the worker's, when its bundle lies beside this one; else none. */
export function besideBundleCheckers(): WorkerCheckers | null {
  return existsSync(defaultTextCheckWorkerPath()) ? workerCheckers() : null;
}

/**
 * Checks in one long-lived worker thread (started on first use, so a save
 * costs a message, not a thread start). A check that runs past `budgetMs`
 * stops the worker (a hostile text cannot hold it) and is refused with a
 * message naming the file; the next check starts a fresh worker.
 */
export function workerTextChecker(
  workerPath: string = defaultTextCheckWorkerPath(),
  budgetMs = TEXT_CHECK_BUDGET_MS,
): TextChecker {
  return workerCheckers(workerPath, budgetMs).text;
}

/**
 * The text and motion checks sharing one worker (workerTextChecker's): the checks of one window run one at a time,
 * in the order asked. A motion's check that fails or runs past the budget rejects with `the motion check …`; the
 * save that asked words it.
 */
export function workerCheckers(
  workerPath: string = defaultTextCheckWorkerPath(),
  budgetMs = TEXT_CHECK_BUDGET_MS,
): WorkerCheckers {
  let worker: Worker | null = null;
  let disposed = false;
  let nextId = 1;
  const pending = new Map<
    number,
    {
      name: string;
      resolve: (r: TextCheckResult | MotionCheckResult) => void;
      reject: (e: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();

  const settle = (
    id: number,
    outcome: { result: TextCheckResult | MotionCheckResult } | { why: string } | { refused: Error },
  ): void => {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    clearTimeout(job.timer);
    if ('result' in outcome) job.resolve(outcome.result);
    else if ('refused' in outcome) job.reject(outcome.refused);
    else job.reject(new Error(`${job.name}: ${outcome.why}`));
  };

  const lose = (w: Worker, why: string, refused?: Error): void => {
    if (worker !== w) return;
    worker = null;
    void w.terminate();
    for (const id of [...pending.keys()]) settle(id, refused ? { refused } : { why });
  };

  const start = (): Worker => {
    const w = startWorkerBundle(workerPath);
    w.on('message', (m: TextCheckReply) => settle(m.id, m.ok ? { result: m.result } : { why: m.message }));
    // A refused bundle is a damaged installation, said as it is: not a problem of the file being checked (round 25).
    w.on('error', (e) => lose(w, `the text checker stopped (${e.message})`, isBundleRefusal(e) ? e : undefined));
    w.on('exit', (code) => lose(w, `the text checker stopped (exit code ${code})`));
    // After the listeners (a 'message' listener refs the port again): an idle checker never keeps the process alive.
    w.unref();
    return w;
  };

  const run = <R extends TextCheckResult | MotionCheckResult>(
    req: TextCheckRequest | MotionCheckRequest,
    name: string,
    what: string,
  ): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        settle(id, { why: `${what} took longer than ${budgetMs / 1000} s and was stopped` });
        if (worker) lose(worker, `the text checker was stopped while reading another file that took too long`);
      }, budgetMs);
      pending.set(id, { name, resolve: resolve as (r: TextCheckResult | MotionCheckResult) => void, reject, timer });
      if (disposed) {
        settle(id, { why: 'the text checker was shut down' });
        return;
      }
      try {
        worker ??= start();
        // The motion's bytes are copied, not moved: the save writes them once they are found good.
        worker.postMessage({ id, req } satisfies TextCheckJob);
      } catch (e) {
        settle(id, { why: `the text checker did not start (${(e as Error).message})` });
      }
    });

  return {
    text: (req) =>
      run<TextCheckResult>(req, req.path, `reading the ${req.kind === 'sev' ? 'sound-event file' : 'project'}`),
    motion: (req) => run<MotionCheckResult>(req, 'the motion check', 'reading the motion'),
    dispose: async () => {
      disposed = true;
      const w = worker;
      worker = null;
      for (const id of [...pending.keys()]) settle(id, { why: 'the text checker was shut down' });
      if (w) await w.terminate();
    },
  };
}
