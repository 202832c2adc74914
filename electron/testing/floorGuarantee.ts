/**
 * The floor test's runs and check (electron/compress/floorGuarantee*.test.ts; docs/testing.md#the-floor-test): every
 * bundled capture, whole, at one rate, in the classic, refined and skeleton-aware modes from the defaults' tenth
 * down to below what h16 / s12 store, each written file decoded by the independent decoder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import type { CompressOptions, CompressResult } from '../../shared/compress/types';
import { unreachableSummary } from '../../shared/compress/unreachable';
import { importBvh } from '../../shared/interchange/bvh/import';
import { resampleMotion } from '../../shared/motion/resample';
import type { Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { independentChannel, independentErrors } from '../../shared/testing/independentDecode';
import { listRealBvhSamples, realBvhSamplesMissingReason } from '../interchange/realBvhSamples';

/** Every bundled capture: assets/*.mtn resampled, and the assimp-testmodels BVH files imported, at `fps`. */
export function floorCaptures(): [string, (fps: number) => Motion][] {
  const assetsDir = join(__dirname, '..', '..', 'assets');
  const captures: [string, (fps: number) => Motion][] = readdirSync(assetsDir)
    .filter((f) => f.endsWith('.mtn'))
    .sort()
    .map((f) => [f, (fps: number) => resampleMotion(readMtn(new Uint8Array(readFileSync(join(assetsDir, f)))), fps)]);
  for (const s of listRealBvhSamples())
    captures.push([`${s.name}.bvh`, (fps: number) => importBvh(readFileSync(s.path, 'utf8'), { fps }).motion]);
  const missing = realBvhSamplesMissingReason();
  if (missing) console.log(`floorGuarantee: BVH captures skipped: ${missing}`);
  return captures;
}

interface FloorRun {
  label: string;
  options: Omit<CompressOptions, 'name'>;
  /** Below the floor: some key of every capture is over its tolerance. */
  belowFloor?: boolean;
}

const tol = (u: number, deg: number) => ({ positionTolerance: u, rotationToleranceDeg: deg, offsetTolerance: u });

/**
 * The runs. Refined, the default, at the four levels; classic at the two tightest (its keys differ, so its
 * non-key frames are others); skeleton-aware at 0.05 u (per-joint tolerances the chain allocation derives, many at
 * the floor) and at 0.005 u (all of them below it: nearly every key over, the case the summary is for), refined
 * and classic.
 */
const FLOOR_RUNS: FloorRun[] = [
  { label: 'refined 0.05 u / 0.5 deg', options: tol(0.05, 0.5) },
  { label: 'refined 0.01 u / 0.1 deg', options: tol(0.01, 0.1) },
  { label: 'refined 0.005 u / 0.05 deg', options: tol(0.005, 0.05) },
  { label: 'refined 0.003 u / 0.03 deg', options: tol(0.003, 0.03), belowFloor: true },
  { label: 'classic 0.005 u / 0.05 deg', options: { ...tol(0.005, 0.05), method: 'classic' } },
  { label: 'classic 0.003 u / 0.03 deg', options: { ...tol(0.003, 0.03), method: 'classic' }, belowFloor: true },
  { label: 'skeleton-aware 0.05 u', options: { ...tol(0.05, 0.5), objectTolerance: 0.05 } },
  {
    label: 'skeleton-aware 0.005 u',
    options: { ...tol(0.005, 0.05), objectTolerance: 0.005 },
    belowFloor: true,
  },
  {
    label: 'skeleton-aware 0.005 u classic',
    options: { ...tol(0.005, 0.05), objectTolerance: 0.005, method: 'classic' },
    belowFloor: true,
  },
];

/**
 * Every frame that is not a key of its channel (in the written file) is within tolerance by the independent
 * decoder; every key over it is named by the channel's warning, whose frame is a key over it, and listed by the
 * summary (unreachableSummary, what `--report` writes) with its error. Returns how many keys were over tolerance.
 */
function checkGuarantee(m: Motion, r: CompressResult, label: string): number {
  const ind = independentErrors(m, r.bytes);
  const summary = unreachableSummary(m, r);
  let keysOver = 0;
  for (const ch of r.channels) {
    const { errors: errs, frames } = independentChannel(ind, ch.kind, ch.joint)!;
    const written = new Set(frames);
    const where = `${label}: ${ch.kind} ${ch.joint}`;
    const over: number[] = [];
    for (let t = 0; t <= m.frameCount; t++) {
      if (errs[t] <= ch.tolerance + 1e-9) continue;
      if (!written.has(t))
        expect.fail(`${where}: frame ${t} is not a key and has error ${errs[t]} over ${ch.tolerance}`);
      over.push(t);
    }
    const warning = r.warnings.find((w) => w.kind === ch.kind && w.joint === ch.joint);
    const listed = summary?.channels.find((c) => c.kind === ch.kind && c.joint === ch.joint);
    if (over.length === 0) {
      expect(listed, `${where}: listed with no key over tolerance`).toBeUndefined();
      continue;
    }
    keysOver += over.length;
    expect(warning, `${where}: keys ${over.join(', ')} over tolerance without a warning`).toBeDefined();
    expect(written.has(warning!.frame), `${where}: the warning's frame ${warning!.frame} is not a key`).toBe(true);
    expect(warning!.keyFrames, `${where}: the warning names every key over tolerance`).toEqual(over);
    expect(Math.abs(errs[warning!.frame] - warning!.error)).toBeLessThan(1e-6);
    expect(listed!.frames, `${where}: the summary lists every key over tolerance`).toEqual(over);
    listed!.errors.forEach((e, k) => {
      if (!(Math.abs(e - errs[over[k]]) < 1e-6))
        expect.fail(`${where}: key ${over[k]} listed at ${e}, decoded ${errs[over[k]]}`);
    });
  }
  expect(summary?.keys ?? 0).toBe(keysOver);
  return keysOver;
}

/** Each run on the motion, checked; fails unless every run marked belowFloor had keys over tolerance. */
export function checkFloor(m: Motion): void {
  for (const run of FLOOR_RUNS) {
    const r = compressMotion(m, { ...run.options, name: 'floor' });
    const keysOver = checkGuarantee(m, r, run.label);
    if (run.belowFloor) expect(keysOver, `${run.label}: below the floor, some key is over`).toBeGreaterThan(0);
  }
}
