/**
 * A build's compression worker (worker_threads): answers PoolRequests, one at
 * a time, until the pool terminates it. Built to dist/cli/ and dist/electron/
 * as compressPoolWorker.cjs.
 */
import { parentPort } from 'node:worker_threads';
import { servePoolRequests } from './compressPool';

if (!parentPort) throw new Error('compressPoolWorker.cjs must run as a worker thread');
servePoolRequests(parentPort);
