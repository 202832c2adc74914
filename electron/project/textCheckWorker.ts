/**
 * The text-check worker (worker_threads): parses the SEV and project texts the
 * renderer sent (electron/project/textCheck.ts), and the motions (with their
 * tuning files) it sends to be saved (electron/motionCheckJob.ts), one job at
 * a time, so the main process never runs a parser on renderer input. Built to
 * dist/electron/textCheckWorker.cjs.
 */
import { parentPort } from 'node:worker_threads';
import type { TextCheckJob, TextCheckReply } from './textCheck';
import { checkText } from './textCheckJob';
import { checkMotion } from '../motionCheckJob';

if (!parentPort) throw new Error('textCheckWorker.cjs must run as a worker thread');
const port = parentPort;
port.on('message', ({ id, req }: TextCheckJob) => {
  let reply: TextCheckReply;
  try {
    reply = { id, ok: true, result: req.kind === 'motion' ? checkMotion(req) : checkText(req) };
  } catch (e) {
    // An unexpected exception (a parser bug): the message only; textCheck.ts puts the file in front.
    reply = { id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
