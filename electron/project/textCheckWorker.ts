/**
 * The text-check worker (worker_threads): parses one SEV or project text the
 * renderer sent (electron/project/textCheck.ts), so the main process never
 * runs a text parser on renderer input. Built to dist/electron/textCheckWorker.cjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TextCheckRequest } from './textCheck';
import { checkText } from './textCheckJob';

if (!parentPort) throw new Error('textCheckWorker.cjs must run as a worker thread');
try {
  parentPort.postMessage({ ok: true, result: checkText(workerData as TextCheckRequest) });
} catch (e) {
  // An unexpected exception (a parser bug): the message only; textCheck.ts puts the file in front.
  parentPort.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
