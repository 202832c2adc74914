/**
 * Fuzz target `round5`: the compressor's promise on the legal motions nobody tuned on of round 5
 * (docs/compression.md#round-5-2026-12-05-motions-nobody-tuned-on). An input is a recipe of 6 bytes: a u32 seed of
 * roundFiveCase (shared/testing/roundFiveMotions.ts: 1-3 frames or a few hundred, 29.97 and 120 fps, deep chains,
 * sign flips every frame or every other, 179-181 deg turns, non-unit quaternions, roots near h16's range, user keys
 * on every frame, locks on the first and last frame, trace keys), which of the case's runs to make (refined, classic,
 * skeleton-aware, or the MSH export), and a tolerance byte: 0-223 keeps the case's tolerances, 224-255 makes one of
 * them negative, NaN or infinite (which the compressor must refuse with a FormatError: a rejection). Mutations draw
 * a fresh random seed, or change the recipe's bytes.
 *
 * Judged as `compress` judges: an accepted result keeps the guarantee by the independent decoder, asks for the
 * tolerances given, writes no ill-conditioned Squad, gives the same bytes in 2 channel shares (the jobs of a
 * build), and in the skeleton-aware mode holds its bound by an independent FK.
 */
import { compressChannelShare, compressMotion, compressWithShares } from '../../shared/compress/compress';
import { squadIllConditionedFrame } from '../../shared/compress/rotationFit';
import type { CompressOptions } from '../../shared/compress/types';
import { readMt3 } from '../../shared/mt3/read';
import { validateMotion } from '../../shared/mtn/validate';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { independentObjectErrors } from '../../shared/testing/independentFk';
import { roundFiveCase } from '../../shared/testing/roundFiveMotions';
import { mshViolations } from '../../shared/testing/sweepMotions';
import { toleranceMismatches } from '../../shared/testing/toleranceMismatches';
import { equalBytes, judge, must, type FuzzTarget } from './judge';
import { mutateBinary, pick } from './mutate';

const BAD_TOLERANCES = [-1, Number.NaN, Number.POSITIVE_INFINITY, -1e-300];

/** The case, run and options of a recipe (any length: missing bytes read as 0). */
export function roundFiveRecipe(input: Uint8Array): {
  label: string;
  motion: ReturnType<typeof roundFiveCase>['motion'];
  options: CompressOptions | 'msh';
} {
  const b = (i: number) => input[i] ?? 0;
  const seed = (b(0) | (b(1) << 8) | (b(2) << 16) | (b(3) << 24)) >>> 0;
  const c = roundFiveCase(seed);
  const k = b(4) % (c.runs.length + 1);
  if (k === c.runs.length) return { label: `seed ${seed} (${c.shape}), MSH`, motion: c.motion, options: 'msh' };
  const run = c.runs[k];
  const options = { ...run.options };
  const t = b(5);
  if (t >= 224) {
    const bad = BAD_TOLERANCES[t % BAD_TOLERANCES.length];
    if (t % 3 === 0) options.positionTolerance = bad;
    else if (t % 3 === 1) options.rotationToleranceDeg = bad;
    else options.offsetTolerance = bad;
  }
  return { label: `seed ${seed} (${c.shape}), ${run.label}`, motion: c.motion, options };
}

export const roundFiveTarget: FuzzTarget = {
  name: 'round5',
  ext: 'recipe',
  // A whole motion compressed, decoded and run again in shares per input (45 ms on average alone, several times
  // that on a loaded machine): CI's short pass takes 300 of them; `npm run fuzz` takes --count (2000 by default).
  ciCount: 300,
  seeds: () =>
    [
      [0, 0, 0, 0, 0, 0],
      [1, 0, 0, 0, 2, 0],
      [7, 0, 0, 0, 4, 0],
      [11, 0, 0, 0, 5, 0],
      [3, 0, 0, 0, 1, 241],
    ].map((r) => Uint8Array.from(r)),
  mutate: (rnd, seed) => {
    if (pick(rnd, 4) > 0) {
      // A fresh random seed: every input is another motion.
      return Uint8Array.from({ length: 6 }, () => pick(rnd, 256));
    }
    return mutateBinary(rnd, seed).subarray(0, 8);
  },
  run: (input) => {
    const { label, motion, options } = roundFiveRecipe(input);
    try {
      validateMotion(motion);
    } catch (e) {
      must(false, `${label}: the generator made an illegal motion: ${(e as Error).message}`);
    }
    if (options === 'msh')
      return judge(
        () => mshViolations(motion, 0.005, 0.05),
        (bad) => must(bad.length === 0, `${label}: ${bad.slice(0, 3).join('; ')}`),
      );
    return judge(
      () => compressMotion(motion, options),
      (r) => {
        const bad = [...guaranteeViolations(motion, r), ...toleranceMismatches(motion, options, r)];
        must(bad.length === 0, `${label}: ${bad.slice(0, 3).join('; ')}`);
        r.mt3.rotations.forEach((t, j) => {
          const f = squadIllConditionedFrame(t.frames, t.rotation, t.inner);
          must(f < 0, `${label}: joint ${j}: ill-conditioned Squad at frame ${f}`);
        });
        const sk = r.skeleton;
        if (sk) {
          must(equalBytes(compressMotion(motion, options).bytes, r.bytes), `${label}: a second run gives other bytes`);
          must(sk.met, `${label}: object-space bound ${sk.objectTolerance} not met`);
          const worst = Math.max(...independentObjectErrors(motion, readMt3(r.bytes), sk.shell).flat());
          must(
            worst <= sk.objectTolerance * (1 + 1e-9) + 1e-9,
            `${label}: object-space error ${worst} (independent FK)`,
          );
        } else {
          // The jobs of a build: two channel shares give the bytes of one whole run (a second run, in other words).
          const shares = [0, 1].map((i) => compressChannelShare(motion, options, i, 2));
          must(equalBytes(compressWithShares(motion, options, shares).bytes, r.bytes), `${label}: 2 shares differ`);
        }
      },
    );
  },
};
