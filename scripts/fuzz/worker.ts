/**
 * A fuzz worker thread: runs one range of one format and publishes, in shared
 * memory, which input it is on and since when (the main thread's watchdog
 * stops it when one input runs past the time limit) and the running counts
 * (so a stopped worker's work is still counted).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { runRange, type Finding } from './harness';
import type { WorkerJob } from './protocol';
import { DEFECT_KINDS } from './targets';

async function main(): Promise<void> {
  const job = workerData as WorkerJob;
  const s = new Float64Array(job.shared);
  await runRange(job.format, {
    seed: job.seed,
    from: job.from,
    to: job.to,
    hangMs: job.hangMs,
    onStart: (i) => { s[0] = i; s[1] = performance.timeOrigin + performance.now(); },
    onPause: () => { s[1] = 0; },
    onResult: (t) => {
      s[1] = 0;
      s[2] = t.inputs; s[3] = t.accepted; s[4] = t.rejected; s[5] = t.maxMs; s[6] = t.totalMs;
      DEFECT_KINDS.forEach((k, n) => (s[7 + n] = t.defects[k]));
    },
    onFinding: (f: Finding) => parentPort!.postMessage({ type: 'finding', finding: f }),
  });
  parentPort!.postMessage({ type: 'done' });
}

void main();
