/**
 * Parsing the SEV and project texts the renderer sends, off the main process.
 * A save parses the text before writing it (a text with errors is refused)
 * and a build lists the paths its project names; a large or hostile text must
 * not stall the window, so the app runs these in a worker thread
 * (textCheckWorker.ts) with a time budget, as it runs motion parsing. The
 * parsers themselves live in textCheckJob.ts, which the main bundle never loads.
 */
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';

/** A text to check: a .sev or a project (`*.actguy.json`), with the path its messages name. */
export interface TextCheckRequest {
  kind: 'sev' | 'project';
  path: string;
  text: string;
}

/** The parse errors as readable messages (file:line:column: ...), and for a project every path it names. */
export interface TextCheckResult {
  errors: string[];
  named: { inputs: string[]; outputs: string[] };
}

/** Runs one check; rejects with a readable Error when the checker fails or runs past its budget. */
export type TextChecker = (req: TextCheckRequest) => Promise<TextCheckResult>;

/** How long one check may take before the worker is stopped and the save or build refused. */
export const TEXT_CHECK_BUDGET_MS = 20_000;

/** dist/electron/textCheckWorker.cjs beside the running bundle (unpacked beside app.asar in a packaged app). */
export function defaultTextCheckWorkerPath(): string {
  return join(__dirname, 'textCheckWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** Runs each check in a fresh worker thread, stopped after `budgetMs`. */
export function workerTextChecker(workerPath: string = defaultTextCheckWorkerPath(), budgetMs = TEXT_CHECK_BUDGET_MS): TextChecker {
  return (req) =>
    new Promise<TextCheckResult>((resolve, reject) => {
      let settled = false;
      let worker: Worker | null = null;
      const what = req.kind === 'sev' ? 'sound-event file' : 'project';
      const timer = setTimeout(() => fail(`reading the ${what} took longer than ${budgetMs / 1000} s and was stopped`), budgetMs);
      function fail(why: string): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker?.terminate();
        reject(new Error(`${req.path}: ${why}`));
      }
      try {
        worker = new Worker(workerPath, { workerData: req });
      } catch (e) {
        fail(`the text checker did not start (${(e as Error).message})`);
        return;
      }
      worker.on('message', (m: { ok: true; result: TextCheckResult } | { ok: false; message: string }) => {
        if (settled) return;
        if (!m.ok) return fail(m.message);
        settled = true;
        clearTimeout(timer);
        resolve(m.result);
        void worker?.terminate();
      });
      worker.on('error', (e) => fail(`the text checker stopped (${e.message})`));
      worker.on('exit', (code) => fail(`the text checker stopped (exit code ${code})`));
    });
}
