/** What the fuzz CLI and its worker threads share: the job and the layout of the shared counters. */
import { DEFECT_KINDS } from './targets';

export interface WorkerJob {
  format: string;
  seed: number;
  from: number;
  to: number;
  hangMs: number;
  /** Float64 slots, see SLOT (defect counts follow, in DEFECT_KINDS order). */
  shared: SharedArrayBuffer;
}

/** Where each shared counter lives. `cpuStart` is 0 while no input is being timed. */
export const SLOT = {
  index: 0,
  cpuStart: 1,
  inputs: 2,
  accepted: 3,
  rejected: 4,
  maxCpuMs: 5,
  totalMs: 6,
  defects: 7,
} as const;
export const SHARED_SLOTS = SLOT.defects + DEFECT_KINDS.length;

/**
 * CPU milliseconds this process has used. A hang is judged by CPU time, not
 * wall time: on a machine shared with other work a process can sit
 * descheduled for seconds. The fuzz CLI's main thread only sleeps and polls,
 * so the process's CPU time is the worker's.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
