/** How the handlers run an import job: in the import worker (the app) or in-process (tests that need no bundle). */
import { join, sep } from 'node:path';
import { runOneShotWorker } from '../oneShotWorker';
import { runImportJob, type ImportJobRequest, type ImportJobResult } from './importJob';
import { plainImportFailure } from '../../shared/fileProblem';

/** Runs one import; `signal` cancels it (the result is then `cancelled`). */
export type ImportRunner = (req: ImportJobRequest, signal?: AbortSignal) => Promise<ImportJobResult>;

/**
 * The time one import may take before it is stopped with a message. A long
 * mocap take (tens of MiB of BVH) imports in seconds; a file that needs
 * minutes is damaged or not a motion, and must not keep a worker busy forever.
 */
export const IMPORT_TIME_BUDGET_MS = 120_000;

/** dist/electron/importWorker.cjs beside the running bundle (unpacked beside app.asar in a packaged app). */
export function defaultImportWorkerPath(): string {
  return join(__dirname, 'importWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/**
 * Runs each import in a fresh worker thread, which ends when the job does, when
 * it is cancelled, or when it runs past `budgetMs` (then it is stopped and the
 * import fails with a message naming the file and the budget). `budgetMs` null:
 * no budget (`actguy import`, which Ctrl+C stops).
 */
export function workerImportRunner(
  workerPath: string = defaultImportWorkerPath(),
  budgetMs: number | null = IMPORT_TIME_BUDGET_MS,
): ImportRunner {
  return async (req, signal) => {
    const ended = await runOneShotWorker<ImportJobResult>(workerPath, req, {
      signal,
      ...(budgetMs !== null && { budgetMs }),
    });
    switch (ended.end) {
      case 'answer':
        return ended.value;
      case 'cancelled':
        return { status: 'cancelled' };
      case 'overBudget':
        return {
          status: 'failed',
          message: `Could not import ${req.path}: stopped after ${(budgetMs ?? 0) / 1000} s, the most an import may take (the file is damaged, or far larger than a motion)`,
        };
      case 'failed':
        return {
          status: 'failed',
          message: ended.started
            ? `Could not import ${req.path}: the importer stopped (${ended.detail})`
            : `Could not import ${req.path}: the import worker did not start (${ended.detail})`,
        };
      case 'refused':
        // A damaged installation, not the file's fault: said as it is (docs/security.md, round 25).
        return { status: 'failed', message: ended.message };
    }
  };
}

/**
 * Runs imports on the calling thread (`actguy import`, unit tests). A cancelled signal is honoured before the job
 * starts and between the reads of its source (readHeaderFirstAsync); the worker runner stops its thread instead.
 */
export const inProcessImportRunner: ImportRunner = (req, signal) =>
  signal?.aborted ? Promise.resolve({ status: 'cancelled' }) : runImportJob(req, signal);

/**
 * `run` with every failure said in plain words: a bad file already is (importJob.ts); any other failure (the source
 * could not be read, the importer stopped or ran past its budget) gets plainImportFailure's words, so a single
 * import and each file of a batch read alike, their technical message as the Details.
 */
export function withPlainFailures(run: ImportRunner): ImportRunner {
  return async (req, signal) => {
    const result = await run(req, signal);
    if (result.status !== 'failed' || result.plain) return result;
    const plain = plainImportFailure(result.message, req.path);
    return plain ? { ...result, plain } : result;
  };
}
