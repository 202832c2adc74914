import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ActGuyApiError, type CompressOutcome, type CompressRequest, type DocumentId } from '../shared/ipc';
import type { MshExportOptions } from '../shared/msh/export';
import type { MshExportFiles } from '../shared/msh/files';
import type { FromCompressWorker, ToCompressWorker } from './compress/protocol';

/**
 * The main-thread side of the compress worker. One worker stays alive; jobs
 * run one at a time in arrival order. While a job runs, a newer request for
 * the same document replaces any older one still waiting (the older resolves
 * `superseded`), so a burst of key toggles costs at most two compressions.
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
  exportMsh(req: { documentId: DocumentId; options: MshExportOptions; names: { source: string; baseName: string } }): Promise<MshExportFiles>;
  /** Stops the worker; queued and running requests reject. */
  dispose(): Promise<void>;
}

export interface CompressClientOptions {
  /** The built worker bundle; defaults to compressWorker.cjs beside the running bundle (dist/electron). */
  workerPath?: string;
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

export function createCompressClient(options: CompressClientOptions = {}): CompressClient {
  const workerPath = options.workerPath ?? join(__dirname, 'compressWorker.cjs');
  const documents = new Map<DocumentId, { name: string; mtnBytes: Uint8Array }>();
  const waiting: Job[] = [];
  let running: { jobId: number; job: Job } | null = null;
  let worker: Worker | null = null;
  let nextJobId = 1;
  let disposed = false;
  /** MSH export workers in flight, each with how to fail its job when the client is disposed. */
  const exports = new Map<Worker, (error: Error) => void>();

  const post = (msg: ToCompressWorker): void => {
    worker?.postMessage(msg);
  };

  const failRunning = (error: Error): void => {
    const r = running;
    running = null;
    r?.job.reject(error);
  };

  const startWorker = (): Worker => {
    const w = new Worker(workerPath);
    w.on('message', (msg: FromCompressWorker) => {
      if (!running || msg.jobId !== running.jobId) return;
      const { job } = running;
      running = null;
      if (msg.type === 'result') job.resolve(msg.response);
      else if (msg.type === 'error') job.reject(new ActGuyApiError(msg.error));
      else job.reject(new Error(`the compressor answered a compression with ${msg.type}`));
      pump();
    });
    const lost = (why: string): void => {
      if (worker !== w) return;
      worker = null;
      failRunning(new Error(`the compressor stopped (${why}); the next edit restarts it`));
      if (!disposed) pump();
    };
    w.on('error', (e) => lost(e.message));
    w.on('exit', (code) => lost(`exit code ${code}`));
    worker = w;
    // A fresh worker knows no documents: replay the open ones.
    for (const [documentId, d] of documents) post({ type: 'open', documentId, name: d.name, mtnBytes: d.mtnBytes });
    return w;
  };

  const pump = (): void => {
    if (disposed || running || waiting.length === 0) return;
    if (!worker) startWorker();
    const job = waiting.shift()!;
    const jobId = nextJobId++;
    running = { jobId, job };
    post({ type: 'compress', jobId, request: job.request });
  };

  return {
    open({ documentId, name, mtnBytes }) {
      const id = documentId ?? newDocumentId();
      documents.set(id, { name, mtnBytes });
      if (worker) post({ type: 'open', documentId: id, name, mtnBytes });
      return id;
    },
    close(documentId) {
      documents.delete(documentId);
      if (worker) post({ type: 'close', documentId });
    },
    compress(request, { coalesce = true } = {}) {
      if (disposed) return Promise.reject(new Error('the compressor was shut down'));
      return new Promise<CompressOutcome>((resolve, reject) => {
        const job: Job = { request, coalesce, resolve, reject };
        if (coalesce) {
          const newer = waiting.find((w) => w.coalesce && w.request.documentId === request.documentId && w.request.revision > request.revision);
          if (newer) {
            resolve({ status: 'superseded', documentId: request.documentId, revision: request.revision, supersededBy: newer.request.revision });
            return;
          }
          for (let i = waiting.length - 1; i >= 0; i--) {
            const w = waiting[i];
            if (w.coalesce && w.request.documentId === request.documentId) {
              waiting.splice(i, 1);
              w.resolve({ status: 'superseded', documentId: w.request.documentId, revision: w.request.revision, supersededBy: request.revision });
            }
          }
        }
        waiting.push(job);
        pump();
      });
    },
    exportMsh({ documentId, options, names }) {
      if (disposed) return Promise.reject(new Error('the compressor was shut down'));
      const doc = documents.get(documentId);
      if (!doc) return Promise.reject(new Error(`export MSH: document ${documentId} is not open (open a motion first)`));
      return new Promise<MshExportFiles>((resolve, reject) => {
        let w: Worker;
        try {
          w = new Worker(workerPath);
        } catch (e) {
          reject(new Error(`the MSH export did not start (${(e as Error).message})`));
          return;
        }
        let settled = false;
        const settle = (finish: () => void): void => {
          if (settled) return;
          settled = true;
          exports.delete(w);
          void w.terminate();
          finish();
        };
        exports.set(w, (error) => settle(() => reject(error)));
        w.on('message', (msg: FromCompressWorker) => {
          if (msg.type === 'msh') settle(() => resolve(msg.files));
          else if (msg.type === 'error') settle(() => reject(new ActGuyApiError(msg.error)));
        });
        w.on('error', (e) => settle(() => reject(new Error(`the MSH export stopped (${e.message})`))));
        w.on('exit', (code) => settle(() => reject(new Error(`the MSH export stopped (exit code ${code})`))));
        const jobId = nextJobId++;
        const post = (msg: ToCompressWorker) => w.postMessage(msg);
        post({ type: 'open', documentId, name: doc.name, mtnBytes: doc.mtnBytes });
        post({ type: 'exportMsh', jobId, documentId, options, names });
      });
    },
    async dispose() {
      disposed = true;
      const error = new Error('the compressor was shut down');
      for (const job of waiting.splice(0)) job.reject(error);
      for (const fail of [...exports.values()]) fail(error);
      failRunning(error);
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
