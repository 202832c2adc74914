import type { KeyList } from './keyList';

/**
 * What every method's key choice returns for one channel (the greedy loop, the
 * refinement, the DP, the naive reference): the errors of the stored track as
 * the reference decoder reads it.
 */
export interface TrackOutcome {
  /** Error of the final stored track at every frame 0..N. */
  errors: Float64Array;
  maxError: number;
  maxErrorFrame: number;
  /**
   * Keys the method chose beyond the required ones: the greedy loop's insertions (less the refinement's
   * removals, so it may be negative); the DP counts every key but 0 and N.
   */
  inserted: number;
}

/**
 * What the greedy loop needs from a track type (position or rotation): fit the
 * stored values of a key from its neighbours, and measure errors of the
 * quantised, decoded track exactly as the reference decoder would.
 */
export interface TrackFit {
  /** N: frames 0..N. */
  readonly N: number;
  /**
   * How many keys on each side of an inserted key must be refit: 0 when a
   * key's stored values depend only on its own frame (Hermite positions with
   * source velocities), 1 when they depend on the neighbouring keys (Squad).
   */
  readonly fitRadius: 0 | 1;
  /** (Re)computes and quantises the stored values of key f; prev/next are its neighbour keys or -1. */
  fitKey(f: number, prev: number, next: number): void;
  /** Error at key frame f: the decoder returns the stored key value there. */
  keyError(f: number): number;
  /**
   * Decodes frames a+1..b-1 of the segment between consecutive keys a < b,
   * writes each error into `errors`, and returns the max; `argmax` receives
   * the earliest frame of that max (-1 when the segment has no interior frame).
   */
  segmentError(a: number, b: number, errors: Float64Array): number;
  argmax: number;
  /**
   * Optional fast feasibility test: whether every interior frame of (a, b) is
   * within tolerance, with the very error values segmentError would compute
   * (it may stop at the first frame over).
   */
  segmentWithin?(a: number, b: number, tolerance: number): boolean;
  /**
   * Optional, for a greedy pass whose errors are measured again afterwards: the worst interior error of (a, b)
   * and its frame (argmax), possibly off by rounding except that it is over `tolerance` exactly when
   * segmentError's is; writes no errors.
   */
  segmentMaxNear?(a: number, b: number, tolerance: number): number;
  /**
   * Optional, for a greedy start whose keys are refined afterwards: an interior error of (a, b) over `tolerance`
   * and its frame (argmax) when some frame is over it, not necessarily the worst; otherwise segmentMaxNear's
   * result.
   */
  segmentOverNear?(a: number, b: number, tolerance: number): number;
}

/** Fits every key of the list (used at start and by the naive reference). */
export function fitAllKeys(fit: TrackFit, keys: KeyList): void {
  for (let f = 0; f !== -1; f = keys.next[f]) fit.fitKey(f, keys.prev[f], keys.next[f]);
}

/**
 * Completes a channel's outcome: writes the key-frame errors (the stored key
 * values themselves) and finds the largest error over 0..N (earliest frame on ties).
 */
export function finishOutcome(fit: TrackFit, keys: KeyList, errors: Float64Array, inserted: number): TrackOutcome {
  let maxError = -1;
  let maxErrorFrame = 0;
  for (let f = 0; f !== -1; f = keys.next[f]) errors[f] = fit.keyError(f);
  for (let t = 0; t <= fit.N; t++) {
    if (errors[t] > maxError) {
      maxError = errors[t];
      maxErrorFrame = t;
    }
  }
  return { errors, maxError, maxErrorFrame, inserted };
}
