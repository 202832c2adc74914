/**
 * A fuzz worker thread: runs one range of one format and publishes, in shared
 * memory, which input it is on and the process CPU time when it started (the
 * main thread's watchdog stops it when one input uses more CPU time than the
 * limit) and the running counts (so a stopped worker's work is still counted).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runRange, type Finding } from './harness';
import { SLOT, cpuMs, type WorkerJob } from './protocol';
import { DEFECT_KINDS } from './targets';

async function main(): Promise<void> {
  const job = workerData as WorkerJob;
  const s = new Float64Array(job.shared);
  await runRange(job.format, {
    seed: job.seed,
    from: job.from,
    to: job.to,
    hangMs: job.hangMs,
    onStart: (i) => {
      s[SLOT.index] = i;
      s[SLOT.cpuStart] = cpuMs();
    },
    onPause: () => {
      s[SLOT.cpuStart] = 0;
    },
    onResult: (t) => {
      s[SLOT.cpuStart] = 0;
      s[SLOT.inputs] = t.inputs;
      s[SLOT.accepted] = t.accepted;
      s[SLOT.rejected] = t.rejected;
      s[SLOT.maxCpuMs] = t.maxCpuMs;
      s[SLOT.totalMs] = t.totalMs;
      DEFECT_KINDS.forEach((k, n) => (s[SLOT.defects + n] = t.defects[k]));
    },
    onFinding: (f: Finding) => parentPort!.postMessage({ type: 'finding', finding: f }),
  });
  parentPort!.postMessage({ type: 'done' });
}

void main();
