/**
 * `actguy import`'s worker (worker_threads), one import per thread: the CLI's own thread waits for it and so stays
 * free to handle Ctrl+C (docs/cli.md, "Exit status"). workerData is either `{ source }`, a single import
 * (importOffThread.ts, the source's bytes read by the command), or an ImportJobRequest, a file of a batch (the app's
 * import job, importJob.ts, as File > Import runs it). The one message back is the answer. Built to
 * dist/cli/importWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runImportJob, type ImportJobRequest } from '../interchange/importJob';
import { importSource, type SourceImport } from './importOffThread';

if (!parentPort) throw new Error('importWorker.cjs must run as a worker thread');
const port = parentPort;
const data = workerData as { source: SourceImport } | ImportJobRequest;
if ('source' in data)
  void importSource(data.source).then((reply) =>
    port.postMessage(reply, reply.ok ? [reply.imported.mtn.buffer as ArrayBuffer] : []),
  );
else
  void runImportJob(data).then((result) =>
    port.postMessage(result, result.status === 'imported' ? [result.mtnBytes.buffer as ArrayBuffer] : []),
  );
