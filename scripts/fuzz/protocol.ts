/** What the fuzz CLI and its worker threads share: the job and the layout of the shared counters. */
import { DEFECT_KINDS } from './targets';

export interface WorkerJob {
  format: string;
  seed: number;
  from: number;
  to: number;
  hangMs: number;
  /** Float64 slots: [index, startedAt (ms since time origin; 0 = not timing), inputs, accepted, rejected, maxMs, totalMs, ...defects in DEFECT_KINDS order]. */
  shared: SharedArrayBuffer;
}

export const SHARED_SLOTS = 7 + DEFECT_KINDS.length;
