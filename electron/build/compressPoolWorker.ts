/**
 * A build's compression worker (worker_threads): answers PoolRequests, one at a time, until the pool terminates it;
 * or, started with one request as its workerData (compressOffThread, `actguy compress`), answers that one, once.
 * Built to dist/cli/ and dist/electron/ as compressPoolWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerPoolRequest, servePoolRequests, type OneRequest } from './compressPool';

if (!parentPort) throw new Error('compressPoolWorker.cjs must run as a worker thread');
const one = workerData as OneRequest | undefined;
if (one?.request) parentPort.postMessage(answerPoolRequest(one.request));
else servePoolRequests(parentPort);
