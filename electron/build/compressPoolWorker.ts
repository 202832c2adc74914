/**
 * A build's compression worker (worker_threads): answers PoolRequests, one at
 * a time, until the pool terminates it. Built to dist/cli/ and dist/electron/
 * as compressPoolWorker.cjs.
 */
import { parentPort } from 'node:worker_threads';
import { answerPoolRequest, type PoolRequest } from './compressPool';

if (!parentPort) throw new Error('compressPoolWorker.cjs must run as a worker thread');
const port = parentPort;
port.on('message', (req: PoolRequest) => {
  const reply = answerPoolRequest(req);
  // The MT3 bytes move to the pool without a copy.
  port.postMessage(reply, reply.ok ? [reply.result.bytes.buffer as ArrayBuffer] : []);
});
