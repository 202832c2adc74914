/** How the handlers run an import job: in the import worker (the app) or in-process (tests that need no bundle). */
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { runImportJob, type ImportJobRequest, type ImportJobResult } from './importJob';

export type ImportRunner = (req: ImportJobRequest) => Promise<ImportJobResult>;

/** dist/electron/importWorker.cjs beside the running bundle (unpacked beside app.asar in a packaged app). */
export function defaultImportWorkerPath(): string {
  return join(__dirname, 'importWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** Runs each import in a fresh worker thread, which ends when the job does. */
export function workerImportRunner(workerPath: string = defaultImportWorkerPath()): ImportRunner {
  return (req) =>
    new Promise<ImportJobResult>((resolve) => {
      let settled = false;
      const settle = (result: ImportJobResult): void => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      let worker: Worker;
      try {
        worker = new Worker(workerPath, { workerData: req });
      } catch (e) {
        settle({ status: 'failed', message: `Could not import ${req.path}: the import worker did not start (${(e as Error).message})` });
        return;
      }
      worker.on('message', (result: ImportJobResult) => {
        settle(result);
        void worker.terminate();
      });
      worker.on('error', (e) => settle({ status: 'failed', message: `Could not import ${req.path}: the importer stopped (${e.message})` }));
      worker.on('exit', (code) => settle({ status: 'failed', message: `Could not import ${req.path}: the importer stopped (exit code ${code})` }));
    });
}

/** Runs imports on the calling thread (unit tests). */
export const inProcessImportRunner: ImportRunner = runImportJob;
