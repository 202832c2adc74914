import { KeyList, MAX_KEY_GAP } from './keyList';
import { finishOutcome, type TrackFit, type TrackOutcome } from './track';

/**
 * The fewest keys for a fit whose stored values at a key depend only on that
 * key's frame (fitRadius 0, e.g. the Hermite position fit): every segment's
 * error is then independent of the other keys, so a dynamic programme over
 * frames finds an exact optimum. Required keys (0, N, user keys) are kept and
 * no gap exceeds 255 frames. Ties go to the key set whose last segment starts
 * latest. A segment (a, a+1) has no interior frame, so a solution always exists.
 */
export function dpOptimalKeys(
  fit: TrackFit,
  userKeys: ArrayLike<number>,
  tolerance: number,
): { keys: KeyList; outcome: TrackOutcome } {
  if (fit.fitRadius !== 0) throw new Error('dpOptimalKeys needs a segment-independent fit (fitRadius 0)');
  const N = fit.N;
  const required = new Uint8Array(N + 1);
  required[0] = 1;
  required[N] = 1;
  for (let i = 0; i < userKeys.length; i++) if (userKeys[i] >= 0 && userKeys[i] <= N) required[userKeys[i]] = 1;
  for (let f = 0; f <= N; f++) fit.fitKey(f, -1, -1);
  const from = previousKeys(fit, required, tolerance);
  const frames: number[] = [];
  for (let f = N; f !== -1; f = from[f]) frames.push(f);
  frames.reverse();
  const keys = KeyList.fromFrames(N, frames);
  const errors = new Float64Array(N + 1);
  for (let a = 0; a !== N; a = keys.next[a]) fit.segmentError(a, keys.next[a], errors);
  return { keys, outcome: finishOutcome(fit, keys, errors, frames.length - 2) };
}

/**
 * The dynamic programme of dpOptimalKeys: for each frame b, the key before it on a fewest-keys path from 0 to b.
 * (Its own function: V8 compiles this loop on the stack, and code after the loop that has never run would make
 * that compiled loop bail out at its end on every call.)
 */
function previousKeys(fit: TrackFit, required: Uint8Array, tolerance: number): Int32Array {
  const N = fit.N;
  const best = new Int32Array(N + 1).fill(0x7fffffff);
  const from = new Int32Array(N + 1).fill(-1);
  // below[a]: the latest frame before a with fewer keys on its best path (-1: none). The scan of the a before b
  // (latest first) needs only the a with best[a] + 1 < best[b]; following below from a frame that has at least
  // that many keys reaches the next one without visiting the frames in between, which have at least as many
  // too: the same a are tried, in the same order, as by visiting every frame.
  const below = new Int32Array(N + 1);
  best[0] = 1;
  below[0] = -1;
  const scratch = new Float64Array(N + 1);
  let lastRequired = 0;
  for (let b = 1; b <= N; b++) {
    const lo = Math.max(lastRequired, b - MAX_KEY_GAP);
    for (let a = b - 1; a >= lo;) {
      if (best[a] + 1 >= best[b]) {
        a = below[a];
        continue;
      }
      if (b - a > 1 && !segmentWithin(fit, a, b, tolerance, scratch)) {
        a--;
        continue;
      }
      best[b] = best[a] + 1;
      from[b] = a;
      a = below[a];
    }
    let j = b - 1;
    while (j >= 0 && best[j] >= best[b]) j = below[j];
    below[b] = j;
    if (required[b]) lastRequired = b;
  }
  return from;
}

/** Whether every interior frame of segment (a, b) is within tolerance (the reference error, early exit). */
function segmentWithin(fit: TrackFit, a: number, b: number, tolerance: number, scratch: Float64Array): boolean {
  if (fit.segmentWithin) return fit.segmentWithin(a, b, tolerance);
  return !(fit.segmentError(a, b, scratch) > tolerance);
}
