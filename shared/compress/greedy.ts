import { SegmentHeap } from './heap';
import type { KeyList } from './keyList';
import { finishOutcome, fitAllKeys, type TrackFit, type TrackOutcome } from './track';

/**
 * The classic greedy loop of docs/compression.md with incremental bookkeeping:
 * a heap holds each segment's max interior error; inserting a key refits only
 * the keys within `fit.fitRadius` of it and re-evaluates only the segments
 * those keys bound. The result is identical to a full refit and full error
 * pass per insertion (see naive.ts), because fits are local.
 *
 * A key is inserted at the non-key frame with the largest error (ties: the
 * earliest) while that error exceeds the tolerance. Key frames cannot improve
 * by inserting a key, so an error left on a key frame is a precision limit
 * and is reported by the caller as a warning.
 */
export function greedyCompress(fit: TrackFit, keys: KeyList, tolerance: number): TrackOutcome {
  const errors = new Float64Array(fit.N + 1);
  const inserted = greedyInsert(fit, keys, tolerance, errors);
  return finishOutcome(fit, keys, errors, inserted);
}

/**
 * The greedy loop's insertions into `keys` (the fit's stored values are its result); returns how many it made.
 * With `errors` the segments are measured by segmentError, which writes every interior frame's error there; without,
 * by segmentOverNear where the fit has it (the refined mode's start, whose errors its removal pass measures again),
 * which leaves no errors and decides exactly as segmentError would whether a segment is over the tolerance, but
 * may put the key at a frame over it other than the worst (RotationFit.segmentOverNear), and measures the two
 * segments just outside an insertion's refitted keys lazily (below): its greedy start has other keys than the
 * classic loop's, and still meets the tolerance on every frame that is not a key.
 */
export function greedyInsert(fit: TrackFit, keys: KeyList, tolerance: number, errors?: Float64Array): number {
  const N = fit.N;
  const overNear = errors === undefined && fit.segmentOverNear !== undefined;
  const errs = errors ?? new Float64Array(overNear ? 0 : N + 1);
  const heap = new SegmentHeap(N);
  fitAllKeys(fit, keys);
  for (let a = 0; a !== N; a = keys.next[a]) {
    const e = overNear ? fit.segmentOverNear!(a, keys.next[a], tolerance) : fit.segmentError(a, keys.next[a], errs);
    heap.set(a, e, fit.argmax);
  }
  let inserted = 0;
  // The refined start (overNear) measures a segment that an insertion next to it changed only through an inner
  // quaternion (the segments just outside the refitted keys) when that can matter: when its stale entry reaches
  // the top of the heap, or once no measured segment is over the tolerance. An insertion elsewhere often changes it
  // again before then, and every segment is still measured in its final state.
  const stale = overNear ? new Uint8Array(N + 1) : null;
  let staleCount = 0;
  for (;;) {
    if (!heap.peek() || !(heap.topError > tolerance)) {
      if (staleCount === 0) break;
      for (let s = 0; s !== N; s = keys.next[s])
        if (stale![s]) {
          stale![s] = 0;
          heap.set(s, fit.segmentOverNear!(s, keys.next[s], tolerance), fit.argmax);
        }
      staleCount = 0;
      continue;
    }
    const a = heap.topSegStart;
    if (stale !== null && stale[a]) {
      stale[a] = 0;
      staleCount--;
      heap.set(a, fit.segmentOverNear!(a, keys.next[a], tolerance), fit.argmax);
      continue;
    }
    const f = heap.topFrame;
    const b = keys.next[a];
    keys.insertBetween(a, f, b);
    inserted++;
    // Refit the new key and, for neighbour-dependent fits, the keys around it.
    let lo = f;
    let hi = f;
    for (let r = 0; r < fit.fitRadius; r++) {
      if (keys.prev[lo] >= 0) lo = keys.prev[lo];
      if (keys.next[hi] >= 0) hi = keys.next[hi];
    }
    for (let k = lo; ; k = keys.next[k]) {
      fit.fitKey(k, keys.prev[k], keys.next[k]);
      if (k === hi) break;
    }
    // Every segment with a refit key at either end: starts prev(lo)..hi.
    const start = keys.prev[lo] >= 0 ? keys.prev[lo] : lo;
    for (let s = start; s !== -1 && s !== N; s = keys.next[s]) {
      if (stale !== null && ((s === start && s !== lo) || s === hi)) {
        // A segment outside (lo, hi): its keys stayed and only an inner quaternion moved. Measured later (above);
        // its entry stays in the heap meanwhile.
        if (!stale[s]) staleCount++;
        stale[s] = 1;
        if (s === hi) break;
        continue;
      }
      if (stale !== null && stale[s]) {
        stale[s] = 0;
        staleCount--;
      }
      const e = overNear ? fit.segmentOverNear!(s, keys.next[s], tolerance) : fit.segmentError(s, keys.next[s], errs);
      heap.set(s, e, fit.argmax);
      if (s === hi) break;
    }
  }
  return inserted;
}
