/**
 * Round 5 (docs/compression.md#round-5-2026-12-05-motions-nobody-tuned-on): seeded motions of
 * shared/testing/roundFiveMotions.ts, legal MTN that no capture looks like, compressed refined, classic and
 * skeleton-aware. Every written MT3 is decoded by the independent decoder (every frame that is not a key within its
 * tolerance, keys over it named with their real frames), each channel's tolerance is the one asked for, the motion
 * validates as the MTN reader would take it, a second run and the channel shares of 2 and 3 jobs give the same bytes,
 * and the MSH export keeps its promise. The named extremes: the most joints the format allows, a deep chain in the
 * skeleton-aware mode, and 65,535 frames. ROUND5_SEEDS=n ROUND5_FIRST=k widen the seeded part by hand; `npm run
 * fuzz -- --target round5` draws random seeds.
 */
import { describe, expect, it } from 'vitest';
import { validateMotion } from '../mtn/validate';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../mtn/constants';
import { objectBoundViolations } from '../testing/independentFk';
import { guaranteeViolations } from '../testing/hostileMotions';
import {
  deepChainMotion,
  longMotion,
  roundFiveCase,
  wideMotion,
  type RoundFiveCase,
} from '../testing/roundFiveMotions';
import { exportMshAnimation, fitMshNodes } from '../msh/export';
import { mshViolations } from '../testing/sweepMotions';
import { toleranceMismatches } from '../testing/toleranceMismatches';
import { emptyMotion, type Motion } from '../motion/types';
import { compressChannelShare, compressMotion, compressWithShares } from './compress';
import type { CompressOptions, CompressResult } from './types';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const SEEDS = Number(env.ROUND5_SEEDS ?? 12);
const FIRST = Number(env.ROUND5_FIRST ?? 0);

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** What breaks the promise on one run: the guarantee, the tolerances asked, determinism, and the jobs' shares. */
function roundFiveViolations(m: Motion, options: CompressOptions, shares = true): string[] {
  let res: CompressResult;
  try {
    res = compressMotion(m, options);
  } catch (e) {
    return [`threw ${(e as Error).message}`];
  }
  const bad = [...guaranteeViolations(m, res), ...toleranceMismatches(m, options, res)];
  if (!same(compressMotion(m, options).bytes, res.bytes)) bad.push('a second run gives other bytes');
  // The object-space bound held, by an independent FK of the independent decoder's frames.
  bad.push(...objectBoundViolations(m, res));
  if (shares && options.objectTolerance === undefined)
    for (const count of [2, 3]) {
      const parts = Array.from({ length: count }, (_, i) => compressChannelShare(m, options, i, count));
      if (!same(compressWithShares(m, options, parts).bytes, res.bytes)) bad.push(`${count} shares give other bytes`);
    }
  return bad;
}

/** Every run of a case, and the MSH export at its first run's tolerances. */
function roundFiveCaseViolations(c: RoundFiveCase): string[] {
  const bad: string[] = [];
  try {
    validateMotion(c.motion);
  } catch (e) {
    return [`seed ${c.seed} (${c.shape}): the generator made an illegal motion: ${(e as Error).message}`];
  }
  c.runs.forEach((run, k) => {
    for (const v of roundFiveViolations(c.motion, run.options, k % 2 === 0))
      bad.push(`seed ${c.seed} (${c.shape}), ${run.label}: ${v}`);
  });
  const o = c.runs[0].options;
  for (const v of mshViolations(c.motion, o.positionTolerance, o.rotationToleranceDeg, o.rotationToleranceOverridesDeg))
    bad.push(`seed ${c.seed} (${c.shape}), MSH: ${v}`);
  return bad;
}

describe('round 5: motions nobody tuned on', () => {
  it(`holds every promise on seeds ${FIRST}..${FIRST + SEEDS - 1}`, () => {
    const bad: string[] = [];
    for (let s = FIRST; s < FIRST + SEEDS; s++) bad.push(...roundFiveCaseViolations(roundFiveCase(s)));
    expect(bad.slice(0, 20)).toEqual([]);
  });

  it('draws what round 5 asks for across the fixed seeds', () => {
    const shapes = Array.from({ length: SEEDS }, (_, s) => roundFiveCase(FIRST + s).shape).join(' ');
    for (const w of ['N=1 ', 'N=2 ', 'N=3 ', '29.97 fps', '120 fps', 'chain', 'flip-every', 'flip-other'])
      expect(shapes).toContain(w);
    for (const w of ['turn-179-181', 'non-unit', 'constant', 'near-range', 'keys:every', 'locks:', 'trace:'])
      expect(shapes).toContain(w);
  });

  const tight: CompressOptions = {
    name: 'x',
    positionTolerance: 0.005,
    rotationToleranceDeg: 0.05,
    offsetTolerance: 0.005,
  };

  it('holds on the most joints the format allows (1024)', () => {
    const m = wideMotion(3);
    expect(m.joints.length).toBe(MTN_MAX_JOINTS);
    validateMotion(m);
    expect(roundFiveViolations(m, tight)).toEqual([]);
    expect(roundFiveViolations(m, { ...tight, method: 'classic' }, false)).toEqual([]);
    expect(roundFiveViolations(m, { ...tight, objectTolerance: 0.5 }, false)).toEqual([]);
  });

  it('holds its object-space bound on a deep chain (48 joints, 120 fps)', () => {
    const m = deepChainMotion(120, 48);
    validateMotion(m);
    for (const method of ['refined', 'classic'] as const) {
      const o = { ...tight, method, objectTolerance: 0.5 };
      expect(roundFiveViolations(m, o, false)).toEqual([]);
    }
  });

  it('refuses an MSH export past its u16 frame map as soon as the nodes fitted pass it, not after every node', () => {
    // 24 animated nodes x 4,001 frames: the 17th node's map passes 0xFFFF words (17 x 4,001 = 68,017). About 65,000
    // node-frames are fitted before any refusal can be sure: 3-14 s with other sessions' load.
    const m = deepChainMotion(4000, 24);
    expect(() => exportMshAnimation(m, { positionTolerance: 0.05, rotationToleranceDeg: 0.5 })).toThrow(
      "MSH (res19): more than 16 animated nodes at 4001 frames: their map words pass anim_map_start's u16 (below 0xFFFF); loosen the tolerances or shorten the motion",
    );
  });

  it('says the same refusal whether the nodes were fitted at once or in shares (as the pool does with --jobs 2)', () => {
    const m = deepChainMotion(4000, 24);
    const o = { positionTolerance: 0.05, rotationToleranceDeg: 0.5 };
    const refusal = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no refusal';
    };
    const whole = refusal(() => exportMshAnimation(m, o));
    // Each half alone stays under the limit (12 x 4,001 < 0xFFFF); exportMshAnimation refuses their union.
    const shares = [...fitMshNodes(m, o, (j) => j % 2 === 0), ...fitMshNodes(m, o, (j) => j % 2 === 1)];
    expect(refusal(() => exportMshAnimation(m, o, shares))).toBe(whole);
  });

  it('names the limit the nodes pass first in skeleton order, whether fitted at once or in shares', () => {
    // Round 14 (01_03.bvh at 120 fps, export-msh --jobs 1 named the map words, --jobs 2 the keys): 34 nodes of
    // 4,001 frames, the first 17 with two keys each, passing the map words at the 17th (17 x 4,001 >= 0xFFFF) with 34
    // keys, the other 17 with a key on every frame, passing 65,535 keys only on the whole (68,051). The fits as the
    // pool's two shares give them, in their order and in another.
    const N = 4000;
    const joints = Array.from({ length: 34 }, (_, j) => ({
      parent: j - 1,
      mirror: j,
      part: 0,
      reserved: 0,
      name: `n${j}`,
    }));
    const m = emptyMotion(N, joints, 120);
    for (let k = 0; k < m.rotation.length; k += 4) m.rotation[k + 3] = 1;
    const every = Array.from({ length: N + 1 }, (_, f) => f);
    const fits = joints.map((_, j) => ({
      node: j,
      frames: j < 17 ? [0, N] : every,
      maxPos: 0,
      maxRot: 0,
      unmet: false,
    }));
    const o = { positionTolerance: 0.05, rotationToleranceDeg: 0.5 };
    const words =
      "MSH (res19): more than 16 animated nodes at 4001 frames: their map words pass anim_map_start's u16 (below 0xFFFF); loosen the tolerances or shorten the motion";
    const shares = [...fits.filter((f) => f.node % 2 === 0), ...fits.filter((f) => f.node % 2 === 1)];
    expect(() => exportMshAnimation(m, o, shares)).toThrow(words);
    expect(() => exportMshAnimation(m, o, [...fits].reverse())).toThrow(words);
    // Past the keys first: the 17 full nodes before the 17 of two keys.
    const keysFirst = fits.map((f) => ({ ...f, frames: f.node < 17 ? every : [0, N] }));
    expect(() => exportMshAnimation(m, o, keysFirst)).toThrow(
      'MSH (res8): more than 65535 keys: the u16 frame map holds no more; loosen the tolerances',
    );
  });

  it('holds on 65,535 frames', () => {
    const m = longMotion(MTN_MAX_FRAMES);
    validateMotion(m);
    // Once per mode (a second run and the shares are the seeded cases' checks): 6-7 s a compression on 2 loaded cores.
    for (const o of [
      { ...tight, rotationToleranceDeg: 0.5 },
      { ...tight, method: 'classic' as const },
    ]) {
      const r = compressMotion(m, o);
      expect(r.mt3.numFrames).toBe(MTN_MAX_FRAMES);
      expect([...guaranteeViolations(m, r), ...toleranceMismatches(m, o, r)]).toEqual([]);
    }
  }, 120_000);
});
