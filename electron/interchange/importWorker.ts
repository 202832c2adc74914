/**
 * The import worker (worker_threads): one File > Import per worker, so a large
 * mocap take or a hostile glTF is parsed off the main process (its IPC and the
 * window stay responsive) and a crash ends only this worker. workerData is an
 * ImportJobRequest; the one message back is an ImportJobResult. Built to
 * dist/electron/importWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runImportJob, type ImportJobRequest } from './importJob';

if (!parentPort) throw new Error('importWorker.cjs must run as a worker thread');
const port = parentPort;
void runImportJob(workerData as ImportJobRequest).then((result) => {
  port.postMessage(result, result.status === 'imported' ? [result.mtnBytes.buffer as ArrayBuffer] : []);
});
