/**
 * The build worker (worker_threads): runs one archive build off the main
 * thread, so the window stays responsive while every motion compresses and a
 * Cancel takes effect at once (main terminates the worker). One worker per
 * build; it reads the inputs, posts progress per motion and the outputs in
 * memory, and exits. Built to dist/electron/buildWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { compressorFor, defaultJobs } from '../build/compressPool';
import { readBuildInput } from '../build/files';
import { runBuildJob, type BuildJobMessage, type BuildJobRequest } from './buildJob';

if (!parentPort) throw new Error('buildWorker.cjs must run as a worker thread');
const port = parentPort;
const req = workerData as BuildJobRequest;
// The same pool as `actguy build`: one compression thread per core (nested worker threads), and the cache main chose.
const compressor = compressorFor(defaultJobs(), join(__dirname, 'compressPoolWorker.cjs'));
void runBuildJob(
  req,
  readBuildInput,
  (m: BuildJobMessage) => {
    // The archive bytes move to main without a copy.
    if (m.type === 'done')
      port.postMessage(
        m,
        m.outputs.map((o) => o.bytes.buffer as ArrayBuffer),
      );
    else port.postMessage(m);
  },
  { compressor },
).finally(() => compressor.close());
