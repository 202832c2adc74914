/**
 * A max-heap of segment maxima with lazy invalidation: each segment (named by
 * its first key frame) carries a version; re-evaluating a segment bumps the
 * version and pushes a fresh entry, and stale entries are skipped on pop.
 * Order: larger error first, then the earlier frame (docs/compression.md: ties go
 * to the earliest frame; segments never overlap, so frame order is total).
 */
export class SegmentHeap {
  private err: Float64Array;
  private frame: Int32Array;
  private seg: Int32Array;
  private ver: Int32Array;
  private size = 0;
  readonly version: Int32Array;

  constructor(frames: number) {
    const cap = Math.max(16, frames * 2);
    this.err = new Float64Array(cap);
    this.frame = new Int32Array(cap);
    this.seg = new Int32Array(cap);
    this.ver = new Int32Array(cap);
    this.version = new Int32Array(frames + 1);
  }

  /** Records the max error of segment `segStart` at frame `frame`, replacing older entries. */
  set(segStart: number, error: number, frame: number): void {
    const v = ++this.version[segStart];
    if (frame < 0) return; // a segment without interior frames has nothing to insert
    if (this.size === this.err.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(error, frame, this.err[p], this.frame[p])) break;
      this.move(p, i);
      i = p;
    }
    this.err[i] = error;
    this.frame[i] = frame;
    this.seg[i] = segStart;
    this.ver[i] = v;
  }

  /** Invalidates a segment (its start stopped being a segment start). */
  drop(segStart: number): void {
    this.version[segStart]++;
  }

  /**
   * Discards stale entries from the top; true when a live entry remains, whose
   * error, frame and segment start are then `topError`, `topFrame` and
   * `topSegStart` (fields, not a returned object: the greedy loop asks once per
   * inserted key and an object per call was a measurable share of its GC).
   */
  peek(): boolean {
    while (this.size > 0) {
      if (this.ver[0] === this.version[this.seg[0]]) return true;
      this.popTop();
    }
    return false;
  }

  get topError(): number {
    return this.err[0];
  }

  get topFrame(): number {
    return this.frame[0];
  }

  get topSegStart(): number {
    return this.seg[0];
  }

  /** Whether (e1, f1) goes above (e2, f2): the larger error, on a tie the earlier frame. */
  private above(e1: number, f1: number, e2: number, f2: number): boolean {
    // The frames are compared on every call, not only on a tie: a comparison that had not run when V8 compiled
    // the heap (ties are rare) was compiled without feedback, and the first tie threw the compiled heap away.
    const earlier = f1 < f2;
    return e1 > e2 || (e1 === e2 && earlier);
  }

  private move(from: number, to: number): void {
    this.err[to] = this.err[from];
    this.frame[to] = this.frame[from];
    this.seg[to] = this.seg[from];
    this.ver[to] = this.ver[from];
  }

  private popTop(): void {
    const last = --this.size;
    if (last === 0) return;
    const e = this.err[last],
      f = this.frame[last],
      s = this.seg[last],
      v = this.ver[last];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= last) break;
      const r = l + 1;
      const c = r < last && this.above(this.err[r], this.frame[r], this.err[l], this.frame[l]) ? r : l;
      if (!this.above(this.err[c], this.frame[c], e, f)) break;
      this.move(c, i);
      i = c;
    }
    this.err[i] = e;
    this.frame[i] = f;
    this.seg[i] = s;
    this.ver[i] = v;
  }

  private grow(): void {
    const cap = this.err.length * 2;
    const e = new Float64Array(cap);
    e.set(this.err);
    this.err = e;
    const f = new Int32Array(cap);
    f.set(this.frame);
    this.frame = f;
    const s = new Int32Array(cap);
    s.set(this.seg);
    this.seg = s;
    const v = new Int32Array(cap);
    v.set(this.ver);
    this.ver = v;
  }
}
