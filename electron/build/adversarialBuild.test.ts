/**
 * Adversarial motions (shared/testing/adversarialMotions.ts) through `actguy build`: the same .mar, .sar and report
 * with 1, 2 and 3 jobs, on the CLI's pool (this thread one of the jobs) and on a second run, a long motion going in
 * channel shares; and a budget build whose written entries keep the guarantee at the tolerances its report gives
 * (docs/compression.md#adversarial-harness-2026-12-03).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { answerPoolRequest, inProcessCompressor, SHARE_MIN_MTN_BYTES, workerCompressor } from './compressPool';
import { readMar } from '../../shared/mar/read';
import { MAX_BUDGET_SCALE } from '../../shared/project/budget';
import { writeMtn } from '../../shared/mtn/write';
import type { Motion } from '../../shared/motion/types';
import { adversarialCase, longAdversarialMotion } from '../../shared/testing/adversarialMotions';
import { independentErrors } from '../../shared/testing/independentDecode';
import { buildFiles, writeBudgetProject } from '../testing/budgetProjects';

const poolWorker = useBundledWorker(resolve(__dirname, 'compressPoolWorker.ts'));
const FPS = 60;
let dir: string;
const motions = new Map<string, Motion>();

/** Adversarial cases of these seeds at the project's rate (a frame rate changes no sample). */
const SEEDS = [3, 5, 8, 11, 21, 34];

const writeProject = (file: string, entries: object[], budget?: number) =>
  writeBudgetProject(dir, file, { fps: FPS, motions: entries }, budget);
const SHORT = SEEDS.map((seed, k) => ({
  name: `adv_${seed}`,
  mtn: `adv_${seed}.mtn`,
  tolerances: [
    { position: 0.005, rotationDeg: 0.05, offset: 0.005 },
    { position: 0.5, rotationDeg: 2, method: 'classic' },
    { position: 0.05, rotationDeg: 0.5, object: 0.1 },
  ][k % 3],
  ...(k % 2 ? { rotationOverridesDeg: { '0': 0.03 } } : {}),
}));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-adversarial-'));
  for (const seed of SEEDS) {
    const m = { ...adversarialCase(seed).motion, fps: FPS };
    motions.set(`adv_${seed}`, m);
    writeFileSync(join(dir, `adv_${seed}.mtn`), writeMtn(m));
  }
  const long = longAdversarialMotion(1, 620, 20, FPS);
  motions.set('adv_long', long);
  writeFileSync(join(dir, 'adv_long.mtn'), writeMtn(long));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('adversarial motions through actguy build', () => {
  it('give the same files with 1, 2 and 3 jobs and on a second run, the long one in channel shares', async () => {
    expect(statSync(join(dir, 'adv_long.mtn')).size).toBeGreaterThanOrEqual(SHARE_MIN_MTN_BYTES);
    const project = writeProject('jobs.actguy.json', [
      { name: 'adv_long', mtn: 'adv_long.mtn', tolerances: { position: 0.05, rotationDeg: 0.3, offset: 0.05 } },
      {
        name: 'adv_long_classic',
        mtn: 'adv_long.mtn',
        tolerances: { rotationDeg: 0.05, method: 'classic' },
        rotationOverridesDeg: { '3': 0.001 },
      },
      ...SHORT,
    ]);
    const one = (await buildFiles(project, inProcessCompressor())).files;
    const again = (await buildFiles(project, inProcessCompressor())).files;
    again.forEach((f, k) => expect(f.equals(one[k]), `second run, file ${k}`).toBe(true));
    for (const jobs of [2, 3]) {
      const shared: number[] = [];
      const many = await buildFiles(
        project,
        workerCompressor(poolWorker(), jobs, (req) => {
          if (req.share) shared.push(req.share.index);
          return answerPoolRequest(req);
        }),
      );
      expect(shared.length, `jobs ${jobs}: the long motions went in shares`).toBeGreaterThan(0);
      many.files.forEach((f, k) => expect(f.equals(one[k]), `jobs ${jobs}, file ${k}`).toBe(true));
    }
  }, 240_000);

  it('keep the guarantee in a budget build at the tolerances its report gives, with 1 and 2 jobs alike', async () => {
    const plain = await buildFiles(writeProject('plain.actguy.json', SHORT), inProcessCompressor());
    // Halfway between the default and the loosest allowed setting (every tolerance x4, overrides as set): these
    // motions are mostly noise and floors, so even x4 saves only a few per cent.
    const loosest = SHORT.map((e) => ({
      ...e,
      tolerances: Object.fromEntries(
        Object.entries(e.tolerances).map(([k, v]) => [k, typeof v === 'number' ? v * MAX_BUDGET_SCALE : v]),
      ),
    }));
    const loose = await buildFiles(writeProject('loose.actguy.json', loosest), inProcessCompressor());
    const budget = Math.floor((plain.files[0].byteLength + loose.files[0].byteLength) / 2);
    const file = writeProject('budget.actguy.json', SHORT, budget);
    const { report, files } = await buildFiles(file, inProcessCompressor());
    expect(files[0].byteLength).toBeLessThanOrEqual(budget);
    expect(report.budget!.motions.some((m) => m.scale > 1)).toBe(true);
    const two = await buildFiles(file, workerCompressor(poolWorker(), 2));
    two.files.forEach((f, k) => expect(f.equals(files[k]), `jobs 2, file ${k}`).toBe(true));
    const mar = readMar(new Uint8Array(files[0]));
    const bad: string[] = [];
    report.motions.forEach((rm, i) => {
      const m = motions.get(rm.name)!;
      const ind = independentErrors(m, mar.entries[i].bytes);
      // The report's tolerances are rounded to 4 decimals: a thousandth to spare.
      const slack = 1 + 1e-3;
      const skeleton = rm.skeleton !== null;
      const channels: [string, readonly number[], readonly number[], number][] = [
        ['root', ind.mt3.root.frames as unknown as number[], ind.root, rm.tolerances.position],
      ];
      ind.rot.forEach((e, j) => {
        const tol = rm.rotationOverridesDeg[j] ?? rm.tolerances.rotationDeg;
        if (!skeleton || rm.rotationOverridesDeg[j] !== undefined)
          channels.push([`rotation ${j}`, ind.mt3.rotations[j].frames as unknown as number[], e, tol]);
      });
      ind.off?.forEach((e, j) =>
        channels.push([`offset ${j}`, ind.mt3.offsets![j].frames as unknown as number[], e, rm.tolerances.offset]),
      );
      for (const [what, frames, errs, tol] of channels) {
        const keys = new Set(Array.from(frames));
        errs.forEach((e, f) => {
          if (!keys.has(f) && !(e <= tol * slack + 1e-9)) bad.push(`${rm.name} ${what} frame ${f}: ${e} over ${tol}`);
        });
      }
    });
    expect(bad).toEqual([]);
  }, 240_000);
});
