/**
 * The compress worker (worker_threads): runs compressMotion off the main
 * thread so the window never stalls while a motion recompresses. It keeps one
 * decoded Motion per open document and, for each job, writes the request's
 * key-info flag words, motion flags and waist joint into that motion before
 * compressing it. A per-document channel cache makes an edit recompress only
 * the channels it touched (a key toggle: one joint). The client runs two of
 * these (an interactive lane and a background lane) and may ask a running job
 * to stop through the shared abort word. Built to
 * dist/electron/compressWorker.cjs.
 */
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { applyCompressRequest, compressOptionsOfRequest, runCompressRequest } from './compress/apply';
import {
  mshFitsInShares,
  SHARE_MIN_MTN_BYTES,
  sharesPay,
  workerCompressor,
  type PoolCompressor,
} from './build/compressPool';
import type { MshExportOptions, MshNodeFit } from '../shared/msh/export';
import { cacheChannelShares, channelsToCompress } from '../shared/compress/compress';
import type { CompressRequest } from '../shared/compress/request';
import { writeMtn } from '../shared/mtn/write';
import { mtnByteSize } from '../shared/mtn/constants';
import type { CompressWorkerData, FromCompressWorker, ToCompressWorker } from './compress/protocol';
import { readMtn } from '../shared/mtn/read';
import type { Motion } from '../shared/motion/types';
import { FormatError } from '../shared/errors';
import type { CompressResponse } from '../shared/ipc/compress';
import type { IpcErrorPayload } from '../shared/ipc/transport';
import { deltaPossible, diffCompressResponse } from '../shared/compress/delta';
import { exportMshFiles } from '../shared/msh/files';
import { CompressCache } from '../shared/compress/cache';
import { CompressAborted } from '../shared/compress/types';
import { encodeGlbExport } from './interchange/glbExportJob';

if (!parentPort) throw new Error('compressWorker.cjs must run as a worker thread');
const port = parentPort;
const abortWord = (workerData as CompressWorkerData | undefined)?.abortWord;
const abortFlag = abortWord ? new Int32Array(abortWord) : null;
const pool = (workerData as CompressWorkerData | undefined)?.pool;
/**
 * The pool exports are compressed on, started at the first export that uses it and kept while this worker lives
 * (its idle threads do not hold the worker up; they end with it): a pool's threads compile the compressor on
 * their first motion, so a second export on a warm pool is what gains (docs/compression.md).
 */
let exportPool: PoolCompressor | undefined;
/**
 * The pool is started for an export only when the motion's MTN is at least this large (about 2,600 frames of a
 * 31-joint capture): its threads then compile the compressor (about half a CPU-second each) and a shorter motion
 * is exported sooner by this worker alone, whose compressor is compiled already. Once started, every long
 * export uses it.
 */
const COLD_POOL_MIN_MTN_BYTES = 4_000_000;
/**
 * Per open document: its motion, its channel cache, and the last answer sent for each method (classic, refined),
 * which a request's knownRevision may name so that the answer goes as a delta (shared/compress/delta.ts).
 */
const documents = new Map<
  string,
  { name: string; motion?: Motion; cache?: CompressCache; openError?: string; sent: Map<string, CompressResponse> }
>();

port.on('message', (msg: ToCompressWorker) => {
  switch (msg.type) {
    case 'open':
      try {
        documents.set(msg.documentId, {
          name: msg.name,
          motion: readMtn(msg.mtnBytes),
          cache: new CompressCache(),
          sent: new Map(),
        });
      } catch (e) {
        documents.set(msg.documentId, { name: msg.name, openError: (e as Error).message, sent: new Map() });
      }
      return;
    case 'close':
      documents.delete(msg.documentId);
      return;
    case 'compress':
      void compressJob(msg);
      return;
    case 'exportMsh':
      void exportMshJob(msg);
      return;
    case 'exportGlb':
      try {
        // Copied, not transferred (see exportMshJob).
        port.postMessage({ type: 'glb', jobId: msg.jobId, ...encodeGlbExport(msg) } satisfies FromCompressWorker);
      } catch (e) {
        port.postMessage({ type: 'error', jobId: msg.jobId, error: errorPayload(e) } satisfies FromCompressWorker);
      }
      return;
  }
});

/**
 * One compression job of the lane (the client sends the next one only after this one answered). An export of a
 * long motion whose channels this worker has mostly not compressed yet goes to the build's pool in channel shares
 * first (exportInShares); the job then finds them in the document's cache, so the bytes are those of one job.
 */
async function compressJob(msg: Extract<ToCompressWorker, { type: 'compress' }>): Promise<void> {
  let reply: FromCompressWorker;
  try {
    const doc = documents.get(msg.request.documentId);
    if (!doc)
      throw new Error(`compress: document ${msg.request.documentId} is not open (it was closed or never opened)`);
    if (!doc.motion)
      throw new Error(`compress: document ${msg.request.documentId} could not be read: ${doc.openError}`);
    applyCompressRequest(doc.motion, msg.request);
    const jobId = msg.jobId;
    const shouldStop = abortFlag ? () => Atomics.load(abortFlag, 0) === jobId : undefined;
    const shares = msg.request.includeBytes ? await exportInShares(doc.motion, msg.request, doc.name, doc.cache!) : 0;
    const response = runCompressRequest(doc.motion, msg.request, doc.name, doc.cache, shouldStop);
    if (shares) response.channelShares = shares;
    // As changes when the caller holds the last answer of this method and it has the same channels (never with
    // the file bytes: exports; the offsets flag adds or drops channels).
    const base = doc.sent.get(response.method);
    const known = msg.request.knownRevision;
    const delta =
      known !== undefined &&
      base &&
      base.revision === known &&
      !msg.request.includeBytes &&
      deltaPossible(base, response)
        ? diffCompressResponse(base, response)
        : null;
    if (!msg.request.includeBytes) doc.sent.set(response.method, response);
    reply = { type: 'result', jobId, response: delta ?? response };
  } catch (e) {
    if (e instanceof CompressAborted) {
      port.postMessage({ type: 'aborted', jobId: msg.jobId } satisfies FromCompressWorker);
      return;
    }
    reply = { type: 'error', jobId: msg.jobId, error: errorPayload(e) };
  }
  port.postMessage(reply);
}

/**
 * Compresses the channels of an export on the build's pool, in one share per job (the same path as a long motion
 * of `actguy build`), into the document's cache; returns the number of shares, 0 when it left the motion to this
 * worker: a short motion (or one under COLD_POOL_MIN_MTN_BYTES while the pool is not started), the skeleton-aware
 * mode, one job, or a motion whose channels this worker mostly holds already (an export at the tolerances of the
 * last preview only writes the file). A share that failed leaves the
 * motion to this worker too, so that its error is the one-job error.
 */
async function exportInShares(
  motion: Motion,
  request: CompressRequest,
  name: string,
  cache: CompressCache,
): Promise<number> {
  if (!pool || pool.jobs < 2 || !existsSync(pool.workerPath)) return 0;
  const options = compressOptionsOfRequest(request, name);
  const size = mtnByteSize(motion.frameCount, motion.joints.length);
  if (!sharesPay(size, options) || (!exportPool && size < COLD_POOL_MIN_MTN_BYTES)) return 0;
  const { toCompress, total } = channelsToCompress(motion, options, cache);
  if (toCompress * 2 < total) return 0;
  let mtn: Uint8Array;
  try {
    mtn = writeMtn(motion);
  } catch {
    return 0; // an edit that breaks the format: compressMotion reports it as it does for one job
  }
  exportPool ??= workerCompressor(pool.workerPath, pool.jobs);
  const shares = await exportPool.channelShares(mtn, options);
  if (!shares) return 0;
  cacheChannelShares(cache, motion, shares);
  // Every channel is now the document's own (same tolerances, same user keys), or the job compresses what is not.
  return channelsToCompress(motion, options, cache).toCompress === 0 ? shares.length : 0;
}

/**
 * An MSH export, in a worker of its own (CompressClient.exportMsh), so it never holds up an edit's recompression.
 * A long motion's nodes are fitted on the build's pool, one share per job (the fit takes seconds on a long
 * capture and every node is fitted alone), and put together here: the files of one thread.
 */
async function exportMshJob(msg: Extract<ToCompressWorker, { type: 'exportMsh' }>): Promise<void> {
  try {
    const doc = documents.get(msg.documentId);
    if (!doc) throw new Error(`export MSH: document ${msg.documentId} is not open (it was closed or never opened)`);
    if (!doc.motion) throw new Error(`export MSH: document ${msg.documentId} could not be read: ${doc.openError}`);
    const fits = await mshFitsOnPool(doc.motion, msg.options);
    const files = exportMshFiles(doc.motion, msg.options, msg.names, fits ?? undefined);
    if (fits) files.nodeShares = pool!.jobs;
    // Copied, not transferred: a detached buffer would make V8 recompile every typed-array function of this
    // long-lived worker (see servePoolRequests).
    port.postMessage({ type: 'msh', jobId: msg.jobId, files } satisfies FromCompressWorker);
  } catch (e) {
    port.postMessage({ type: 'error', jobId: msg.jobId, error: errorPayload(e) } satisfies FromCompressWorker);
  }
}

/**
 * The node fits of an MSH export from the pool, or null to fit them here: one job, no pool bundle, or a motion
 * whose MTN is under SHARE_MIN_MTN_BYTES (this export worker is as cold as a pool's, so a long motion gains at
 * once). A share that failed leaves the export to this worker, whose error is then the one-thread error.
 */
async function mshFitsOnPool(motion: Motion, options: MshExportOptions): Promise<MshNodeFit[] | null> {
  if (!pool || pool.jobs < 2 || !existsSync(pool.workerPath)) return null;
  if (mtnByteSize(motion.frameCount, motion.joints.length) < SHARE_MIN_MTN_BYTES) return null;
  let mtn: Uint8Array;
  try {
    mtn = writeMtn(motion);
  } catch {
    return null;
  }
  const compressor = workerCompressor(pool.workerPath, pool.jobs);
  try {
    return await mshFitsInShares(compressor, mtn, options, motion.joints.length);
  } finally {
    await compressor.close();
  }
}

function errorPayload(e: unknown): IpcErrorPayload {
  return e instanceof FormatError
    ? { message: e.message, formatKind: e.kind }
    : { message: (e as Error).message ?? String(e) };
}
