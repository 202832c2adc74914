import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorkerBundle } from './workerBundles';
import { isBundleRefusal } from '../shared/errors';
import type { CompressOutcome, CompressRequest } from '../shared/ipc/compress';
import type { DocumentId } from '../shared/ipc/documents';
import { ActGuyApiError } from '../shared/ipc/transport';
import type { MshExportOptions } from '../shared/msh/export';
import type { MshExportFiles } from '../shared/msh/files';
import type { CompressWorkerData, FromCompressWorker, ToCompressWorker } from './compress/protocol';
import type { GlbExported, GlbExportJob } from './interchange/glbExportJob';

/**
 * The main-thread side of the compress workers. Two workers stay alive, one
 * per lane: the interactive lane runs classic (greedy) requests, which answer
 * an edit in milliseconds, and the background lane runs refined requests
 * (hundreds of milliseconds), so a key toggle is never queued behind the
 * refinement of the previous edit. In each lane jobs run one at a time in
 * arrival order. While a job runs, a newer request for the same document
 * replaces any older one still waiting (the older resolves `superseded`), and
 * the running one is asked to stop between channels (it resolves
 * `superseded` too, unless it finished first), so a burst of edits costs at
 * most one compression per lane after the last one.
 * Nothing here blocks: every call posts a message and returns.
 */
export interface CompressClient {
  /** Caches a motion (MTN bytes) in the worker under a document id (a new id when none is given); replaces an existing one. */
  open(doc: { documentId?: DocumentId; name: string; mtnBytes: Uint8Array }): DocumentId;
  /** Forgets a document (pending requests for it still run and fail with "not open"). */
  close(documentId: DocumentId): void;
  /**
   * Queues a compression. With `coalesce` (default true) it may be superseded
   * by a newer revision of the same document; exports pass false so they always run.
   */
  compress(req: CompressRequest, options?: { coalesce?: boolean }): Promise<CompressOutcome>;
  /**
   * Exports an open document's motion as MSH animation (the three files'
   * contents; nothing is written). It runs in a worker of its own, started from
   * the same bundle and ended with the job: an export resamples every node's
   * track per key it adds and takes seconds on a long capture, which must not
   * hold up the recompression of edits.
   */
  exportMsh(req: {
    documentId: DocumentId;
    options: MshExportOptions;
    names: { source: string; baseName: string };
  }): Promise<MshExportFiles>;
  /**
   * File › Export glTF's encoding (encodeGlbExport: the page's motion read, a compressed one decoded onto it, the
   * GLB made), in a worker of its own as exportMsh: most of a second on a long capture, which the main thread must
   * not spend. Optional for the tests' stand-in clients, which the handler then encodes for in its own thread.
   */
  exportGlb?(job: GlbExportJob): Promise<GlbExported>;
  /**
   * Stops the workers; queued and running requests reject, an export in flight too. Settles once every thread of the
   * client has exited: the two lanes' and each export's, also one whose job ended before (its thread is ended with
   * the job, not waited for there).
   */
  dispose(): Promise<void>;
}

export interface CompressClientOptions {
  /** The built worker bundle; defaults to compressWorker.cjs beside the running bundle (dist/electron). */
  workerPath?: string;
  /**
   * The build's compression pool an export of a long motion is compressed on, in channel shares (docs/compression.md):
   * its worker bundle (default compressPoolWorker.cjs beside the running bundle) and jobs (default: the cores).
   */
  pool?: { workerPath?: string; jobs?: number };
}

interface Job {
  request: CompressRequest;
  coalesce: boolean;
  resolve: (outcome: CompressOutcome) => void;
  reject: (error: Error) => void;
}

let documentCounter = 0;
/** A document id unique within this process. */
export function newDocumentId(): DocumentId {
  documentCounter += 1;
  return `doc-${process.pid.toString(36)}-${Date.now().toString(36)}-${documentCounter}`;
}

/** Which lane runs a request: classic answers interactively, everything else (refined) in the background. */
export function laneOf(request: CompressRequest): 'interactive' | 'background' {
  return request.tolerances.method === 'classic' ? 'interactive' : 'background';
}

interface Lane {
  name: 'interactive' | 'background';
  worker: Worker | null;
  waiting: Job[];
  running: { jobId: number; job: Job; supersededBy?: number } | null;
  /** Int32 word shared with the lane's worker: the id of the running job to stop. */
  abortWord: SharedArrayBuffer;
}

export function createCompressClient(options: CompressClientOptions = {}): CompressClient {
  const workerPath = options.workerPath ?? join(__dirname, 'compressWorker.cjs');
  const pool = {
    workerPath: options.pool?.workerPath ?? join(__dirname, 'compressPoolWorker.cjs'),
    jobs: options.pool?.jobs ?? availableParallelism(),
  };
  const documents = new Map<DocumentId, { name: string; mtnBytes: Uint8Array }>();
  const lanes: Record<Lane['name'], Lane> = {
    interactive: { name: 'interactive', worker: null, waiting: [], running: null, abortWord: new SharedArrayBuffer(4) },
    background: { name: 'background', worker: null, waiting: [], running: null, abortWord: new SharedArrayBuffer(4) },
  };
  let nextJobId = 1;
  let disposed = false;
  /** Export workers in flight (MSH, glTF), each with how to fail its job when the client is disposed. */
  const exports = new Map<Worker, (error: Error) => void>();
  /**
   * The export threads asked to end (their job settled) that have not exited yet: the client's stop waits for them
   * too, so that the quit's bound covers one held in native code (maintainer's read, round 17).
   */
  const exportsEnding = new Set<Promise<number>>();

  const post = (lane: Lane, msg: ToCompressWorker): void => {
    lane.worker?.postMessage(msg);
  };
  const postAll = (msg: ToCompressWorker): void => {
    for (const lane of Object.values(lanes)) post(lane, msg);
  };

  const failRunning = (lane: Lane, error: Error): void => {
    const r = lane.running;
    lane.running = null;
    r?.job.reject(error);
  };

  const startWorker = (lane: Lane): Worker => {
    const workerData: CompressWorkerData = { abortWord: lane.abortWord, pool };
    const w = startWorkerBundle(workerPath, { workerData });
    w.on('message', (msg: FromCompressWorker) => {
      if (!lane.running || msg.jobId !== lane.running.jobId) return;
      const { job, supersededBy } = lane.running;
      lane.running = null;
      if (msg.type === 'result') job.resolve(msg.response);
      else if (msg.type === 'aborted') {
        const { documentId, revision } = job.request;
        job.resolve({ status: 'superseded', documentId, revision, supersededBy: supersededBy ?? revision });
      } else if (msg.type === 'error') job.reject(new ActGuyApiError(msg.error));
      else job.reject(new Error(`the compressor answered a compression with ${msg.type}`));
      pump(lane);
    });
    const lost = (why: string, refused?: Error): void => {
      if (lane.worker !== w) return;
      lane.worker = null;
      // A refused bundle would be refused again at the next edit: the damaged installation is said as it is.
      failRunning(lane, refused ?? new Error(`the compressor stopped (${why}); the next edit restarts it`));
      if (!disposed) pump(lane);
    };
    w.on('error', (e) => lost(e.message, isBundleRefusal(e) ? e : undefined));
    w.on('exit', (code) => lost(`exit code ${code}`));
    lane.worker = w;
    // A fresh worker knows no documents: replay the open ones.
    for (const [documentId, d] of documents)
      post(lane, { type: 'open', documentId, name: d.name, mtnBytes: d.mtnBytes });
    return w;
  };

  /**
   * Runs one job in a worker of its own, started from the same bundle and ended with the job, so that it never holds
   * up an edit's recompression (MSH and glTF exports). `what` names the job in its errors; `answer` takes the
   * worker's answer (undefined: not the answer yet). dispose() fails it.
   */
  const inWorkerOfItsOwn = <T>(
    what: string,
    messages: (jobId: number) => ToCompressWorker[],
    answer: (msg: FromCompressWorker) => T | undefined,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let w: Worker;
      try {
        const workerData: CompressWorkerData = { abortWord: new SharedArrayBuffer(4), pool };
        w = startWorkerBundle(workerPath, { workerData });
      } catch (e) {
        reject(new Error(`${what} did not start (${(e as Error).message})`));
        return;
      }
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        exports.delete(w);
        const ending = w.terminate();
        exportsEnding.add(ending);
        void ending.finally(() => exportsEnding.delete(ending));
        finish();
      };
      exports.set(w, (error) => settle(() => reject(error)));
      w.on('message', (msg: FromCompressWorker) => {
        if (msg.type === 'error') {
          settle(() => reject(new ActGuyApiError(msg.error)));
          return;
        }
        const value = answer(msg);
        if (value !== undefined) settle(() => resolve(value));
      });
      w.on('error', (e) => settle(() => reject(isBundleRefusal(e) ? e : new Error(`${what} stopped (${e.message})`))));
      w.on('exit', (code) => settle(() => reject(new Error(`${what} stopped (exit code ${code})`))));
      for (const msg of messages(nextJobId++)) w.postMessage(msg);
    });

  const pump = (lane: Lane): void => {
    if (disposed || lane.running || lane.waiting.length === 0) return;
    if (!lane.worker) startWorker(lane);
    const job = lane.waiting.shift()!;
    const jobId = nextJobId++;
    lane.running = { jobId, job };
    post(lane, { type: 'compress', jobId, request: job.request });
  };

  /** Stops every thread of the client (dispose): settles once they have ended. */
  const stopAll = async (): Promise<void> => {
    disposed = true;
    const error = new Error('the compressor was shut down');
    for (const fail of [...exports.values()]) fail(error);
    const stopping: Promise<number>[] = [];
    for (const lane of Object.values(lanes)) {
      for (const job of lane.waiting.splice(0)) job.reject(error);
      failRunning(lane, error);
      const w = lane.worker;
      lane.worker = null;
      if (w) stopping.push(w.terminate());
    }
    await Promise.all([...stopping, ...exportsEnding]);
  };
  let disposing: Promise<void> | undefined;

  return {
    open({ documentId, name, mtnBytes }) {
      const id = documentId ?? newDocumentId();
      documents.set(id, { name, mtnBytes });
      postAll({ type: 'open', documentId: id, name, mtnBytes });
      return id;
    },
    close(documentId) {
      documents.delete(documentId);
      postAll({ type: 'close', documentId });
    },
    compress(request, { coalesce = true } = {}) {
      if (disposed) return Promise.reject(new Error('the compressor was shut down'));
      const lane = lanes[laneOf(request)];
      return new Promise<CompressOutcome>((resolve, reject) => {
        const job: Job = { request, coalesce, resolve, reject };
        if (coalesce) {
          const newer = lane.waiting.find(
            (w) => w.coalesce && w.request.documentId === request.documentId && w.request.revision > request.revision,
          );
          if (newer) {
            resolve({
              status: 'superseded',
              documentId: request.documentId,
              revision: request.revision,
              supersededBy: newer.request.revision,
            });
            return;
          }
          for (let i = lane.waiting.length - 1; i >= 0; i--) {
            const w = lane.waiting[i];
            if (w.coalesce && w.request.documentId === request.documentId) {
              lane.waiting.splice(i, 1);
              w.resolve({
                status: 'superseded',
                documentId: w.request.documentId,
                revision: w.request.revision,
                supersededBy: request.revision,
              });
            }
          }
          const r = lane.running;
          if (
            r &&
            r.job.coalesce &&
            r.job.request.documentId === request.documentId &&
            r.job.request.revision < request.revision
          ) {
            r.supersededBy ??= request.revision;
            Atomics.store(new Int32Array(lane.abortWord), 0, r.jobId);
          }
        }
        lane.waiting.push(job);
        pump(lane);
      });
    },
    exportMsh({ documentId, options, names }) {
      if (disposed) return Promise.reject(new Error('the compressor was shut down'));
      const doc = documents.get(documentId);
      if (!doc)
        return Promise.reject(new Error(`export MSH: document ${documentId} is not open (open a motion first)`));
      return inWorkerOfItsOwn(
        'the MSH export',
        (jobId) => [
          { type: 'open', documentId, name: doc.name, mtnBytes: doc.mtnBytes },
          { type: 'exportMsh', jobId, documentId, options, names },
        ],
        (msg) => (msg.type === 'msh' ? msg.files : undefined),
      );
    },
    exportGlb(job) {
      if (disposed) return Promise.reject(new Error('the compressor was shut down'));
      return inWorkerOfItsOwn(
        'the glTF export',
        (jobId) => [{ type: 'exportGlb', jobId, ...job }],
        (msg) =>
          msg.type === 'glb'
            ? { glb: msg.glb, jointCount: msg.jointCount, frameCount: msg.frameCount, fps: msg.fps }
            : undefined,
      );
    },
    // Once: a second dispose (the quit's, after the last window's close began one) waits for the threads the first
    // is stopping, where it found none left to stop and answered at once (maintainer's read, round 16).
    dispose() {
      disposing ??= stopAll();
      return disposing;
    },
  };
}
