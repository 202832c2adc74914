/**
 * Parsing the SEV and project texts the renderer sends, off the main process.
 * A save parses the text before writing it (a text with errors is refused)
 * and a build lists the paths its project names; a large or hostile text must
 * not stall the window, so the app runs these in a worker thread
 * (textCheckWorker.ts) with a time budget, as it runs motion parsing. The
 * parsers themselves live in textCheckJob.ts, which the main bundle never loads.
 */
import { join, sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorkerBundle } from '../workerBundles';
import { isBundleRefusal } from '../../shared/errors';

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

/** What the main process posts to the text-check worker, and what comes back. */
export interface TextCheckJob {
  id: number;
  req: TextCheckRequest;
}
export type TextCheckReply =
  { id: number; ok: true; result: TextCheckResult } | { id: number; ok: false; message: string };

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
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    { req: TextCheckRequest; resolve: (r: TextCheckResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  const settle = (id: number, outcome: { result: TextCheckResult } | { why: string } | { refused: Error }): void => {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    clearTimeout(job.timer);
    if ('result' in outcome) job.resolve(outcome.result);
    else if ('refused' in outcome) job.reject(outcome.refused);
    else job.reject(new Error(`${job.req.path}: ${outcome.why}`));
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

  return (req) =>
    new Promise<TextCheckResult>((resolve, reject) => {
      const id = nextId++;
      const what = req.kind === 'sev' ? 'sound-event file' : 'project';
      const timer = setTimeout(() => {
        settle(id, { why: `reading the ${what} took longer than ${budgetMs / 1000} s and was stopped` });
        if (worker) lose(worker, `the text checker was stopped while reading another file that took too long`);
      }, budgetMs);
      pending.set(id, { req, resolve, reject, timer });
      try {
        worker ??= start();
        worker.postMessage({ id, req } satisfies TextCheckJob);
      } catch (e) {
        settle(id, { why: `the text checker did not start (${(e as Error).message})` });
      }
    });
}
