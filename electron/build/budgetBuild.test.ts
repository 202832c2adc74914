import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { buildProject } from './build';
import { inProcessCompressor, workerCompressor } from './compressPool';
import { MAX_BUDGET_SCALE } from '../../shared/project/budget';
import { buildFiles, compressedWithinBudget, writeBudgetProject } from '../testing/budgetProjects';

/**
 * A project with a memory budget (docs/formats.md#budget): the .mar fits, per-joint overrides stay floors, the
 * bytes do not depend on the number of workers or the cache, and an impossible budget names the bytes missing.
 */
const ASSETS = join(__dirname, '..', '..', 'assets');
const poolWorker = useBundledWorker(resolve(__dirname, 'compressPoolWorker.ts'));
let dir: string;
let defaultMarBytes: number;

const MOTIONS = [
  { name: 'walk', mtn: 'walk.mtn', rotationOverridesDeg: { LeftFoot: 0.2 } },
  { name: 'cmu', mtn: 'cmu_01_01.mtn', tolerances: { rotationDeg: 0.75 } },
  { name: 'walk_rough', mtn: 'walk.mtn', tolerances: { rotationDeg: 2, position: 2 } },
  { name: 'walk_object', mtn: 'walk.mtn', tolerances: { object: 0.5 } },
];

const writeProject = (file: string, budget?: number) =>
  writeBudgetProject(
    dir,
    file,
    { motions: MOTIONS, aliases: [{ name: 'walk_slow', target: 'walk', speed: 0.5 }] },
    budget,
  );
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-budget-'));
  for (const f of ['walk.mtn', 'cmu_01_01.mtn']) copyFileSync(join(ASSETS, f), join(dir, f));
  defaultMarBytes = (await buildFiles(writeProject('plain.actguy.json'), inProcessCompressor())).mar.byteLength;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a budget build', () => {
  it("fits the .mar in 70 % of the default size, reports each motion's scale, bytes and error, and names the limiting motion", async () => {
    const budget = Math.floor(defaultMarBytes * 0.7);
    const { report, mar } = await buildFiles(writeProject('b70.actguy.json', budget), inProcessCompressor());
    expect(mar.byteLength).toBeLessThanOrEqual(budget);
    const b = report.budget!;
    expect(b.marBytes).toBe(budget);
    expect(b.usedBytes).toBe(mar.byteLength);
    expect(b.motions.map((m) => m.name)).toEqual(MOTIONS.map((m) => m.name));
    expect(b.motions.every((m) => m.scale >= 1 && m.scale <= MAX_BUDGET_SCALE)).toBe(true);
    expect(b.motions.some((m) => m.scale > 1)).toBe(true);
    expect(b.motions.map((m) => m.mt3Bytes)).toEqual(report.motions.map((m) => m.mt3Bytes));
    expect(b.worstRatio).toBe(Math.max(...b.motions.map((m) => m.worstRatio)));
    expect(b.motions.find((m) => m.name === b.limitingMotion)!.worstRatio).toBe(b.worstRatio);
    // The report's tolerances are those applied: the motion's own times its scale.
    expect(report.motions[1].tolerances.rotationDeg).toBeCloseTo(0.75 * b.motions[1].scale, 3);
  }, 60_000);

  it("keeps a per-joint override as set (a floor) while the motion's other tolerances are scaled", async () => {
    const budget = Math.floor(defaultMarBytes * 0.7);
    const done = await compressedWithinBudget(writeProject('floor.actguy.json', budget));
    const walk = done.prepared.motions[0];
    expect(walk.toleranceScale).toBeGreaterThan(1);
    const foot = walk.joints.findIndex((j) => j.name === 'LeftFoot');
    const footChannel = done.results[0].channels.find((c) => c.kind === 'rotation' && c.joint === foot)!;
    expect(footChannel.tolerance).toBe(0.2);
    expect(footChannel.maxError).toBeLessThanOrEqual(0.2);
    const other = done.results[0].channels.find((c) => c.kind === 'rotation' && c.joint !== foot)!;
    expect(other.tolerance).toBeCloseTo(0.5 * walk.toleranceScale!, 9);
  }, 60_000);

  it('writes the same bytes with 1 or 2 worker threads, and again from the cache', async () => {
    const file = writeProject('jobs.actguy.json', Math.floor(defaultMarBytes * 0.75));
    const one = await buildFiles(file, workerCompressor(poolWorker(), 1));
    const two = await buildFiles(file, workerCompressor(poolWorker(), 2));
    const cacheDir = join(dir, 'cache');
    const cold = await buildFiles(file, inProcessCompressor(), cacheDir);
    const warm = await buildFiles(file, inProcessCompressor(), cacheDir);
    expect(two.mar.equals(one.mar)).toBe(true);
    expect(cold.mar.equals(one.mar)).toBe(true);
    expect(warm.mar.equals(one.mar)).toBe(true);
    expect(JSON.stringify(warm.report.budget)).toBe(JSON.stringify(one.report.budget));
  }, 240_000);

  it('refuses a budget the loosest allowed scale cannot meet, naming the bytes missing, and writes nothing', async () => {
    const file = writeProject('tiny.actguy.json', 4096);
    const r = await buildProject(file, { compressor: inProcessCompressor(), cacheDir: null });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    const m =
      /\(budget\.marBytes\): the \.mar cannot fit 4096 bytes: at the loosest allowed setting \(every motion's tolerances x4, per-joint overrides as set\) it takes (\d+) bytes, (\d+) bytes too many/.exec(
        r.errors[0].message,
      );
    expect(m).not.toBeNull();
    expect(Number(m![1]) - 4096).toBe(Number(m![2]));
    expect(() => statSync(join(dir, 'tiny.actguy.json.out'))).toThrow();
  });

  it('keeps the tolerances as set when the default build fits (same bytes as without a budget)', async () => {
    const plain = readFileSync(join(dir, 'plain.actguy.json.out', 'stage.mar'));
    const { report, mar } = await buildFiles(writeProject('roomy.actguy.json', defaultMarBytes), inProcessCompressor());
    expect(mar.equals(plain)).toBe(true);
    expect(report.budget!.motions.every((m) => m.scale === 1)).toBe(true);
  });
});
