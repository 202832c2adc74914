/**
 * The open worker (worker_threads): one File > Open per worker, so that reading and decoding a motion file runs off
 * the main process and a Cancel ends it by ending the thread (electron/motionLoad.ts). workerData is a
 * MotionLoadJob; the one message back is a MotionLoadReply. Built to dist/electron/motionLoadWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerMotionLoad, type MotionLoadJob } from './motionLoad';

if (!parentPort) throw new Error('motionLoadWorker.cjs must run as a worker thread');
const port = parentPort;
void answerMotionLoad(workerData as MotionLoadJob).then((reply) => {
  // The motion's bytes move rather than being copied when they are the whole of their buffer (a small file's read
  // may sit in Node's shared pool, which is never moved).
  const bytes = reply.ok && reply.outcome.status === 'loaded' ? reply.outcome.motion.mtnBytes : undefined;
  const whole = bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  port.postMessage(reply, whole ? [bytes.buffer as ArrayBuffer] : []);
});
