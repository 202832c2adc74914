/**
 * Time left in a build, from the work done so far. Each motion weighs its
 * frames x joints (compression time grows with both); motions taken from the
 * cache are finished before the clock starts and weigh nothing. With N jobs
 * the elapsed wall time already reflects the parallelism.
 */
export class BuildEta {
  private readonly weights: number[];
  private doneWeight = 0;
  private total: number;
  private readonly counted = new Set<number>();

  /** `weights` by archive index of the motions still to compress; `startedMs` when compression began. */
  constructor(
    weights: ReadonlyMap<number, number>,
    private readonly startedMs: number,
  ) {
    this.weights = [];
    let total = 0;
    for (const [i, w] of weights) {
      this.weights[i] = w;
      total += w;
    }
    this.total = total;
  }

  /** Takes a motion out of the estimate (found in the cache after the clock started): it weighs nothing. */
  drop(index: number): void {
    if (this.counted.has(index) || this.weights[index] === undefined) return;
    this.total -= this.weights[index];
    this.weights[index] = undefined as unknown as number;
  }

  /** Marks a motion done. */
  done(index: number): void {
    if (this.counted.has(index) || this.weights[index] === undefined) return;
    this.counted.add(index);
    this.doneWeight += this.weights[index];
  }

  /** Milliseconds left at `nowMs`, or null before anything finished (no rate to go by yet). */
  remainingMs(nowMs: number): number | null {
    if (this.doneWeight <= 0) return this.total <= 0 ? 0 : null;
    const left = this.total - this.doneWeight;
    return Math.max(0, Math.round(((nowMs - this.startedMs) * left) / this.doneWeight));
  }
}

/** `1:05`, `12 s`: a duration for a progress line. */
export function formatEta(ms: number | null): string {
  if (ms === null) return '…';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
