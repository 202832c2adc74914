import { InnerSearch } from './innerSearch';
import { type KeyList, MAX_KEY_GAP } from './keyList';
import type { RotationFit } from './rotationFit';
import { finishOutcome, type TrackOutcome } from './track';

/** Removal passes over a rotation channel (on CMU captures a second pass removes about 2 % more keys for 40 % more time). */
const REMOVAL_PASSES = 1;

/**
 * Refines a rotation channel that the greedy loop has compressed (`keys` and
 * the fit's stored values are its result, after `inserted` insertions): a removal pass drops each non-user
 * key in turn, searches its two neighbours' inner quaternions against the
 * source frames of the three segments they touch (on the s12 grid, starting
 * from their current values), and keeps the drop only while every interior
 * frame there stays within the tolerance. The tolerance, and not the greedy
 * result's max error, is the bound even when the stored precision cannot meet
 * it: that max error lies on a key frame (s12 of the source there), which no
 * inner quaternion changes, so the guarantee of docs/compression.md (every
 * frame that is not a key is within tolerance) holds after refinement exactly
 * as after the greedy loop, and the channel's key count never grows. A drop
 * the two-key search just misses is tried again with a window of four keys
 * (retryWindow). User keys, 0 and N stay; no gap grows past 255 frames.
 */
export function refineRotationChannel(
  fit: RotationFit,
  keys: KeyList,
  tolerance: number,
  inserted: number,
  userKeys: ArrayLike<number>,
): TrackOutcome {
  const N = fit.N;
  const bound = tolerance;
  const search = new InnerSearch(fit);
  const userKey = new Uint8Array(N + 1);
  userKey[0] = 1;
  userKey[N] = 1;
  for (let i = 0; i < userKeys.length; i++) userKey[userKeys[i]] = 1;
  const chain: number[] = [];
  const variable = [0, 0];
  const saved = new Int16Array(8);
  let removed = 0;
  for (let pass = 0; pass < REMOVAL_PASSES; pass++) {
    let removedThisPass = 0;
    for (let k = keys.next[0]; k !== N && k !== -1;) {
      const after = keys.next[k];
      const a = keys.prev[k];
      const b = after;
      if (userKey[k] || b - a > MAX_KEY_GAP) {
        k = after;
        continue;
      }
      saveInner(fit, a, saved, 0);
      saveInner(fit, b, saved, 4);
      keys.remove(k);
      chain.length = 0;
      if (keys.prev[a] >= 0) chain.push(keys.prev[a]);
      chain.push(a, b);
      if (keys.next[b] >= 0) chain.push(keys.next[b]);
      // Warm start: the inner quaternions as they were (on CMU captures a closed-form refit for the
      // new neighbours finds no more removals and costs a chain evaluation per attempt).
      variable[0] = a;
      variable[1] = b;
      let e = search.optimise(chain, variable, bound, WINDOW_RETRY_WITHIN);
      if (e > bound && e <= bound * WINDOW_RETRY_WITHIN) e = retryWindow(search, fit, keys, a, b, bound);
      if (e <= bound) {
        removed++;
        removedThisPass++;
      } else {
        keys.insertBetween(a, k, b);
        restoreInner(fit, a, saved, 0);
        restoreInner(fit, b, saved, 4);
      }
      k = after;
    }
    if (removedThisPass === 0) break;
  }
  const errors = new Float64Array(N + 1);
  for (let a = 0; a !== N; a = keys.next[a]) fit.segmentError(a, keys.next[a], errors);
  return finishOutcome(fit, keys, errors, inserted - removed);
}

/**
 * A removal whose two-key search came within this factor of the bound is tried again with a window of four
 * keys searched together, from the two-key search's nearest miss. At 0.5 deg the retry removes 2-3 % more
 * rotation keys than none (docs/compression.md#refinement-speed); from the nearest miss instead of the stored
 * values it needs fewer linearisations. 1.4 rather than 1.5 (compressor version 9) makes a seventh fewer retries
 * for about 0.1 % more rotation keys on the bundled captures (a retry past 1.4 succeeded one time in eight).
 */
const WINDOW_RETRY_WITHIN = 1.4;
const windowChain: number[] = [];
const windowVars: number[] = [];
const windowSaved = new Int16Array(16);

/**
 * A failed removal tried again with the inner quaternions of four keys searched together (the key before a,
 * a, b and the key after b), starting from the nearest miss of the two-key search just made: the window of a
 * joint re-optimisation. Restores them when it fails too.
 */
function retryWindow(
  search: InnerSearch,
  fit: RotationFit,
  keys: KeyList,
  a: number,
  b: number,
  bound: number,
): number {
  windowVars.length = 0;
  windowChain.length = 0;
  const pa = keys.prev[a],
    nb = keys.next[b];
  if (pa >= 0) windowVars.push(pa);
  windowVars.push(a, b);
  if (nb >= 0) windowVars.push(nb);
  if (windowVars.length < 3) return Infinity;
  if (pa >= 0 && keys.prev[pa] >= 0) windowChain.push(keys.prev[pa]);
  for (let i = 0; i < windowVars.length; i++) windowChain.push(windowVars[i]);
  if (nb >= 0 && keys.next[nb] >= 0) windowChain.push(keys.next[nb]);
  for (let i = 0; i < windowVars.length; i++) saveInner(fit, windowVars[i], windowSaved, i * 4);
  search.storeNearestMiss();
  const e = search.optimise(windowChain, windowVars, bound);
  if (e > bound) for (let i = 0; i < windowVars.length; i++) restoreInner(fit, windowVars[i], windowSaved, i * 4);
  return e;
}

function saveInner(fit: RotationFit, f: number, into: Int16Array, o: number): void {
  for (let c = 0; c < 4; c++) into[o + c] = fit.aInt[f * 4 + c];
}

function restoreInner(fit: RotationFit, f: number, from: Int16Array, o: number): void {
  fit.setInner(f, from[o], from[o + 1], from[o + 2], from[o + 3]);
}
