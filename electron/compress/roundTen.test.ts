/**
 * Round 10 (docs/compression.md#round-10-2026-12-06-the-floor-held-out): the floor guarantee and determinism on
 * motions the bench does not tune on: the assimp-testmodels BVH captures and the hostile generator's motions, at 30
 * and 120 fps, at tolerances drawn between each motion's precision floor and twice it (the first run of each
 * exactly at it), in every mode. Every tolerance is at or above its kind's floor, so every channel meets it: by
 * the independent decoder, every frame within its channel's tolerance, no warning (per-joint modes; the
 * skeleton-aware mode's keys over its own channel tolerances are named), each channel's tolerance the one
 * asked, the same bytes on a second run and (per-joint modes) from two channel shares, as a build's jobs give; the
 * skeleton-aware bound met by an independent FK.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compressChannelShare, compressMotion, compressWithShares } from '../../shared/compress/compress';
import { defaultShell } from '../../shared/compress/objectError';
import type { CompressOptions } from '../../shared/compress/types';
import { precisionFloor } from '../../shared/compress/unreachable';
import { importBvh } from '../../shared/interchange/bvh/import';
import { resampleMotion } from '../../shared/motion/resample';
import type { Motion } from '../../shared/motion/types';
import { guaranteeViolations, hostileMotionCases } from '../../shared/testing/hostileMotions';
import { objectBoundViolations } from '../../shared/testing/independentFk';
import { seededRandom } from '../../shared/testing/random';
import { toleranceMismatches } from '../../shared/testing/toleranceMismatches';
import { listRealBvhSamples } from '../interchange/realBvhSamples';

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The runs of one motion: refined, classic, skeleton-aware refined and classic, each at its own drawn scale. */
function runsOf(m: Motion, seed: number): { label: string; options: CompressOptions }[] {
  const floor = precisionFloor(m, defaultShell(m));
  const r = seededRandom(seed);
  const scale = (first: boolean) => (first ? 1 : 1 + r());
  const modes = [
    { method: 'refined' as const },
    { method: 'classic' as const },
    { method: 'refined' as const, skeleton: true },
    { method: 'classic' as const, skeleton: true },
  ];
  return modes.map((mode, i) => {
    const k = scale(i === 0 || i === 2);
    const options: CompressOptions = {
      name: 'held',
      method: mode.method,
      positionTolerance: floor.position * k,
      rotationToleranceDeg: floor.rotationDeg * k,
      offsetTolerance: (floor.offset ?? floor.position) * k,
      ...(mode.skeleton ? { objectTolerance: floor.object! * k } : {}),
    };
    return { label: `${mode.method}${mode.skeleton ? ' skeleton-aware' : ''} x${k}`, options };
  });
}

/** What breaks the floor's promise on one run. */
function violations(m: Motion, options: CompressOptions): string[] {
  const r = compressMotion(m, options);
  const bad = [...guaranteeViolations(m, r), ...toleranceMismatches(m, options, r), ...objectBoundViolations(m, r)];
  // The skeleton-aware mode's channel tolerances are its own (a quarter of the bound for the root, under a
  // capture's root rounding at the floor): only its bound must hold there.
  if (options.objectTolerance === undefined)
    for (const w of r.warnings) bad.push(`warning at or above the floor: ${w.message}`);
  if (!same(compressMotion(m, options).bytes, r.bytes)) bad.push('a second run gives other bytes');
  if (options.objectTolerance === undefined) {
    const shares = [0, 1].map((s) => compressChannelShare(m, options, s, 2));
    if (!same(compressWithShares(m, options, shares).bytes, r.bytes)) bad.push('two channel shares give other bytes');
  }
  return bad;
}

function check(name: string, m: Motion, seed: number): void {
  const bad: string[] = [];
  for (const run of runsOf(m, seed)) for (const v of violations(m, run.options)) bad.push(`${name} ${run.label}: ${v}`);
  expect(bad).toEqual([]);
}

describe('the floor guarantee and determinism on motions nobody tuned on, between the floor and twice it', () => {
  for (const fps of [30, 120]) {
    listRealBvhSamples().forEach((s, i) =>
      it(`${s.name}.bvh at ${fps} fps`, () => {
        check(s.name, importBvh(readFileSync(s.path, 'utf8'), { fps }).motion, 1000 * fps + i);
      }, 600_000),
    );
    it(`the hostile generator's motions at ${fps} fps`, () => {
      hostileMotionCases().forEach((c, i) => check(c.name, resampleMotion(c.motion, fps), 2000 * fps + i));
    }, 300_000);
  }
  it('draws a run exactly at the floor and runs between it and twice it', () => {
    const runs = runsOf(hostileMotionCases()[0].motion, 7);
    const floor = precisionFloor(hostileMotionCases()[0].motion);
    const k = runs.map((r) => r.options.rotationToleranceDeg / floor.rotationDeg);
    expect(k[0]).toBe(1);
    for (const x of k) expect(x >= 1 && x < 2).toBe(true);
    expect(k.some((x) => x > 1)).toBe(true);
  });
});
