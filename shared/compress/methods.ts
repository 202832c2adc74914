import { constantChannelStart, constantRotationInner } from './constantChannel';
import { dpOptimalKeys } from './dp';
import { greedyCompress, greedyInsert } from './greedy';
import { initialKeys, type KeyList } from './keyList';
import type { PositionFit } from './positionFit';
import { refineRotationChannel } from './refine';
import { RotationFit, type TangentBound } from './rotationFit';
import type { TrackFit, TrackOutcome } from './track';
import type { CompressMethod, CompressResult } from './types';

/** A channel's chosen keys and the errors of its stored track. */
export interface ChannelKeys {
  keys: KeyList;
  outcome: TrackOutcome;
}

/**
 * How one compression method chooses a channel's keys (docs/compression.md): compressMotion asks it for every
 * channel and writes the fit's stored values at the keys it returns. The product's methods are `classic` and
 * `refined` (CompressOptions.method picks one: methodStrategy); the naive greedy (naive.ts) and the DP reference
 * (referenceFit.ts) are strategies too, for tests and the bench.
 */
export interface CompressStrategy {
  /** Reported as CompressResult.method; the app's channel cache keeps each method's channels apart by it. */
  readonly method: CompressResult['method'];
  /** Keys of a position channel (root translation or offset) whose fit is given. */
  positionKeys(fit: PositionFit, userKeys: number[], tolerance: number): ChannelKeys;
  /**
   * The fit and keys of a rotation channel of `source` (frames 0..N); `tangents` as RotationFit's (the retries
   * of a channel whose written Squad would be ill-conditioned).
   */
  rotationKeys(
    source: Float64Array,
    N: number,
    userKeys: number[],
    tolerance: number,
    tangents?: TangentBound,
  ): ChannelKeys & { fit: RotationFit };
}

/**
 * The classic rule with a given greedy loop (the incremental one, or the naive reference of naive.ts), from the
 * evenly spread start, or a constant channel's where that start leaves a frame over the tolerance (a rotation's
 * inner quaternion pulled toward its source, constantRotationInner; failing that, constantChannelStart).
 */
export function classicWith(loop: (fit: TrackFit, keys: KeyList, tolerance: number) => TrackOutcome): CompressStrategy {
  return {
    method: 'classic',
    positionKeys(fit, userKeys, tolerance) {
      const keys = constantChannelStart(fit, fit.source, 3, userKeys, tolerance) ?? initialKeys(fit.N, userKeys);
      return { keys, outcome: loop(fit, keys, tolerance) };
    },
    rotationKeys(source, N, userKeys, tolerance, tangents) {
      // Held runs of the stored track decode still (RotationFit's `holds`).
      const fit = new RotationFit(source, N, tangents, true);
      // A constant channel keeps the even start with an inner quaternion pulled toward its source where one does
      // (the bounded tangents' retries keep theirs).
      if (fit.tangents === 'free') fit.fixedInner = constantRotationInner(source, N, userKeys, tolerance);
      const keys =
        (fit.fixedInner ? null : constantChannelStart(fit, source, 4, userKeys, tolerance)) ?? initialKeys(N, userKeys);
      return { fit, keys, outcome: loop(fit, keys, tolerance) };
    },
  };
}

/** The classic rule: the greedy loop on every channel. */
export const classicStrategy: CompressStrategy = classicWith(greedyCompress);

/** The default: the fewest keys of the Hermite fit for positions, the greedy loop then a removal pass for rotations. */
export const refinedStrategy: CompressStrategy = {
  method: 'refined',
  positionKeys: (fit, userKeys, tolerance) => dpOptimalKeys(fit, userKeys, tolerance),
  rotationKeys(source, N, userKeys, tolerance, tangents) {
    const fit = new RotationFit(source, N, tangents);
    if (fit.tangents === 'free') fit.fixedInner = constantRotationInner(source, N, userKeys, tolerance);
    const keys = initialKeys(N, userKeys);
    // The removal pass measures every segment again, so the greedy start needs only which side of the tolerance
    // each segment's worst frame is on (RotationFit.segmentMaxNear).
    const inserted = greedyInsert(fit, keys, tolerance);
    return { fit, keys, outcome: refineRotationChannel(fit, keys, tolerance, inserted, userKeys) };
  },
};

/** The strategy of a CompressOptions.method (refined when unset). */
export function methodStrategy(method: CompressMethod | undefined): CompressStrategy {
  return method === 'classic' ? classicStrategy : refinedStrategy;
}
