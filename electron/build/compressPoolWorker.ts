/**
 * A build's compression worker (worker_threads): answers PoolRequests, one at a time, until the pool terminates it;
 * or, started with one request as its workerData (compressOffThread, `actguy compress`), answers that one, once; or,
 * started with a `merge` request (a long motion's merge, mergeOffThread), prepares it and answers once the shares come.
 * Built to dist/cli/ and dist/electron/ as compressPoolWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerPoolRequest, serveMerge, servePoolRequests, type OneRequest } from './compressPool';

if (!parentPort) throw new Error('compressPoolWorker.cjs must run as a worker thread');
const one = workerData as OneRequest | undefined;
if (one?.request?.merge) serveMerge(one.request, parentPort);
else if (one?.request) parentPort.postMessage(answerPoolRequest(one.request));
else servePoolRequests(parentPort);
