import type { KeyList } from './keyList';
import { classicWith, type CompressStrategy } from './methods';
import { finishOutcome, fitAllKeys, type TrackFit, type TrackOutcome } from './track';

/**
 * The naive reference of the greedy loop: after every insertion it refits
 * every key and re-evaluates every frame. O(N x K) per channel. It exists to
 * measure the incremental loop's speed-up and to check that both choose the
 * same keys; never use it in the product.
 */
export function naiveGreedyCompress(fit: TrackFit, keys: KeyList, tolerance: number): TrackOutcome {
  const N = fit.N;
  const errors = new Float64Array(N + 1);
  let inserted = 0;
  for (;;) {
    fitAllKeys(fit, keys);
    let worst = -1;
    let worstFrame = -1;
    for (let a = 0; a !== N; a = keys.next[a]) {
      const e = fit.segmentError(a, keys.next[a], errors);
      if (e > worst) {
        worst = e;
        worstFrame = fit.argmax;
      }
    }
    if (worstFrame < 0 || !(worst > tolerance)) break;
    keys.insert(worstFrame);
    inserted++;
  }
  return finishOutcome(fit, keys, errors, inserted);
}

/** The classic method with the naive loop (tests and the bench): the same keys and bytes as classicStrategy. */
export const naiveClassicStrategy: CompressStrategy = classicWith(naiveGreedyCompress);
