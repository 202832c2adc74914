/**
 * Fuzz target `compress`: the compressor's promise (docs/compression.md#the-guarantee) on motions no capture
 * has. An input is a recipe of a few bytes (recipeMotion in shared/testing/sweepMotions.ts: shape, frames,
 * joints, seed, mode, tolerances from 0 to 1e4, user keys, locks, trace keys, offsets, sign flips, spin rate);
 * mutations change its bytes.
 *
 * Judged: the compressor refusing the options (a tolerance that is negative, NaN or infinite) with a
 * FormatError is a rejection, any other throw a crash; an accepted result must keep the guarantee decoded by
 * the independent decoder (guaranteeViolations), write no ill-conditioned Squad, give the same bytes again, and
 * the motion's MSH export must keep its own promise read back from its payloads (mshViolations).
 */
import { compressMotion } from '../../shared/compress/compress';
import { squadIllConditionedFrame } from '../../shared/compress/rotationFit';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { mshViolations, recipeMotion } from '../../shared/testing/sweepMotions';
import { equalBytes, judge, must, type FuzzTarget } from './judge';
import { mutateRecipe } from './mutate';

export const compressTarget: FuzzTarget = {
  name: 'compress',
  ext: 'recipe',
  seeds: () =>
    [
      [0, 40, 2, 1, 0, 7, 7, 0, 0, 0], // random walk, classic, 1e-3
      [2, 60, 1, 2, 1, 9, 9, 0, 0, 233], // spin near 180 deg per frame, refined, 0.1
      [3, 20, 2, 3, 2, 8, 8, 0, 63, 0], // half-turn flips, skeleton-aware, every flag
      [4, 30, 0, 4, 1, 14, 14, 0, 9, 0], // random rotations and a root out to 6.5e4, tolerance 1e4
      [1, 63, 2, 5, 0, 0, 0, 0, 6, 0], // the smooth chain at tolerance 0, user keys and locks
    ].map((r) => Uint8Array.from(r)),
  mutate: mutateRecipe(16),
  run: (input) => {
    const { motion, options } = recipeMotion(input);
    return judge(
      () => compressMotion(motion, options),
      (r) => {
        const bad = guaranteeViolations(motion, r);
        must(bad.length === 0, `the guarantee does not hold: ${bad.slice(0, 3).join('; ')}`);
        r.mt3.rotations.forEach((t, j) => {
          const f = squadIllConditionedFrame(t.frames, t.rotation, t.inner);
          must(f < 0, `joint ${j}: ill-conditioned Squad at frame ${f}`);
        });
        must(equalBytes(compressMotion(motion, options).bytes, r.bytes), 'a second run gives other bytes');
        const msh = mshViolations(motion, options.positionTolerance, options.rotationToleranceDeg);
        must(msh.length === 0, `the MSH export: ${msh.slice(0, 3).join('; ')}`);
      },
    );
  },
};
