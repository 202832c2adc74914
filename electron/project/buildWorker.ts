/**
 * The build worker (worker_threads): runs archive builds off the main thread,
 * so the window stays responsive while every motion compresses and a Cancel
 * takes effect at once (main terminates the worker). It reads the inputs,
 * posts progress per motion and the outputs in memory. Built to
 * dist/electron/buildWorker.cjs.
 *
 * Started with a request as its workerData it runs that one build and exits.
 * Started without, it runs one build per `{ type: 'job' }` message and stays
 * for the next (buildRunner.ts workerLauncher keeps it warm between Build
 * clicks): what it keeps is its compression pool's threads, never data; each
 * build reads the project, its inputs, the cache and the local state again.
 *
 * Sent `{ type: 'export', req }` (ProjectExportWorkerJob) it serves that one Export All
 * (interchange/projectExportJob.ts) in two turns: it plans the export from the
 * project text and posts the plan's outline (main checks it against its path
 * policy: main's bundle holds no project parser), then, once main answers
 * with what it may read and make, does the work from the plan it kept: a
 * message per entry, then the files made, which main commits. Main
 * terminates it at a refusal or at Cancel; after an export that ended on its
 * own, main keeps it for the next export (oneShotWorker.ts keptWorkerTalks),
 * which brings its own plan, allowed files and cache: nothing of an export
 * is kept here but the pool's threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { compressorFor, defaultJobs } from '../build/compressPool';
import { readBuildInput } from '../build/files';
import { forgetInputsRead } from '../tempFiles';
import { ownBuffers, runBuildJob, type BuildJobMessage, type BuildJobRequest } from './buildJob';
import {
  planExportJob,
  runProjectExportJob,
  type ProjectExportAllowed,
  type ProjectExportJobMessage,
  type ProjectExportRejudged,
  type ProjectExportRequest,
} from '../interchange/projectExportJob';

if (!parentPort) throw new Error('buildWorker.cjs must run as a worker thread');
const port = parentPort;
// The same pool as `actguy build`: one compression thread per core (nested worker threads), and the cache main chose.
const compressor = compressorFor(defaultJobs(), join(__dirname, 'compressPoolWorker.cjs'));
const run = (req: BuildJobRequest): Promise<void> =>
  runBuildJob(
    req,
    readBuildInput,
    (m: BuildJobMessage) => {
      // The archive bytes move to main without a copy, each that has a buffer of its own (a view into a shared one,
      // such as Node's pool of small Buffers, is copied: moving it would take the buffer from this thread's next
      // builds).
      if (m.type === 'done') port.postMessage(m, ownBuffers(m.outputs.map((o) => o.bytes)));
      else port.postMessage(m);
    },
    { compressor },
  );

/** A job for a warm worker (buildRunner.ts workerLauncher). */
export interface BuildWorkerJob {
  type: 'job';
  req: BuildJobRequest;
}

/** An Export All for this worker (projectExportHandlers.ts): its plan, then its work, in this one thread. */
export interface ProjectExportWorkerJob {
  type: 'export';
  req: ProjectExportRequest;
  /**
   * The plan alone, the job ending with it (the desktop app asks the user before any work, holding no thread
   * meanwhile: its work comes as another job, which plans again).
   */
  planOnly?: boolean;
}

/** Serves one Export All (see the file comment); resolves at its end, or never once main refused its plan. */
const serveExport = ({ req, planOnly }: ProjectExportWorkerJob): Promise<void> =>
  new Promise((done) => {
    const { answer, plan } = planExportJob(req);
    port.postMessage(answer);
    if (!plan || planOnly) return done();
    // Main's answer: what the work may read and make (a refusal terminates this thread instead).
    port.once(
      'message',
      (allowed: ProjectExportAllowed) =>
        void runProjectExportJob(plan, req, allowed, (m) => port.postMessage(m), {
          compressor,
          // Main judges again the motions replaced since it judged them, and answers with them (or none).
          rejudge: (paths) =>
            new Promise((answer) => {
              port.once('message', (m: ProjectExportRejudged) => answer(m?.reads ?? undefined));
              port.postMessage({ type: 'replaced', paths } satisfies ProjectExportJobMessage);
            }),
        }).then((end) => {
          // The files move to main without a copy, each that has a buffer of its own (as a build's outputs do).
          port.postMessage(end, end.type === 'done' ? ownBuffers(end.files.map((f) => f.bytes)) : []);
          done();
        }),
    );
  });

if (workerData) void run(workerData as BuildJobRequest).finally(() => compressor.close());
else {
  /** One build at a time, in the order they came (main sends the next only after the last one's end). */
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: BuildWorkerJob | ProjectExportWorkerJob) => {
    if (m?.type !== 'job' && m?.type !== 'export') return;
    queue = queue.then(() => {
      // The files the builds before it read are not this build's: its commit keeps only its own (round 22: a warm
      // worker handed each commit every file any earlier build read, another project's too, up to 65,536).
      forgetInputsRead();
      return (m.type === 'export' ? serveExport(m) : run(m.req)).catch((e: unknown) => {
        // A build that throws ends this worker with its error (main reports it and starts a fresh one next time), as
        // a one-build worker's uncaught error does.
        setImmediate(() => {
          throw e;
        });
      });
    });
  });
}
