import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCompressor } from './compressPool';
import { compressMotion } from '../../shared/compress/compress';
import { readMar } from '../../shared/mar/read';
import { readMt3 } from '../../shared/mt3/read';
import { writeMt3 } from '../../shared/mt3/write';
import { writeMtn } from '../../shared/mtn/write';
import { compressOptionsFor } from '../../shared/project/plan';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { objectBoundViolations } from '../../shared/testing/independentFk';
import { seamCase } from '../../shared/testing/seamMotions';
import { toleranceMismatches } from '../../shared/testing/toleranceMismatches';
import { buildFiles, compressedWithinBudget, writeBudgetProject } from '../testing/budgetProjects';

/**
 * Round 9 (docs/compression.md#round-9-the-seams): a budget build of three seam motions (shared/testing/seamMotions.ts:
 * the sign flipped every frame, a half turn in one frame, a lock on every frame), one refined with a per-joint override
 * at s12's step, one classic, one skeleton-aware. Each .mar entry is the in-process compression at the scale the
 * budget chose, and keeps every promise by the independent decoder; a second build writes the same .mar.
 */
const SEEDS = [37, 16, 31];
const MOTIONS = [
  { name: 'seam_flip', tolerances: { position: 0.05, rotationDeg: 0.5 }, rotationOverridesDeg: { s1: 0.056 } },
  { name: 'seam_turn', tolerances: { position: 0.05, rotationDeg: 0.5, offset: 0.05, method: 'classic' } },
  { name: 'seam_locks', tolerances: { object: 0.5 } },
];
let dir: string;

const writeProject = (file: string, budget?: number) =>
  writeBudgetProject(dir, file, { fps: 30, motions: MOTIONS.map((m) => ({ ...m, mtn: `${m.name}.mtn` })) }, budget);
const marOf = async (file: string) => (await buildFiles(file, inProcessCompressor())).mar;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-seams-budget-'));
  SEEDS.forEach((seed, k) => {
    const m = seamCase(seed).motion;
    m.fps = 30; // the project's rate: the build compresses the motion as it is, not resampled
    writeFileSync(join(dir, `${MOTIONS[k].name}.mtn`), writeMtn(m));
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a budget build of seam motions', () => {
  it('fits the budget, and every entry is the compression at its scale, keeping the guarantee', async () => {
    const plain = await marOf(writeProject('plain.actguy.json'));
    const budget = Math.floor(plain.byteLength * 0.7);
    const file = writeProject('budget.actguy.json', budget);
    const done = await compressedWithinBudget(file);
    expect(done.budget!.usedBytes).toBeLessThanOrEqual(budget);
    expect(done.prepared.motions.some((p) => (p.toleranceScale ?? 1) > 1)).toBe(true);

    const mar = await marOf(file);
    expect(mar.byteLength).toBe(done.budget!.usedBytes);
    expect((await marOf(file)).equals(mar)).toBe(true);
    const entries = readMar(new Uint8Array(mar)).entries;
    const bad: string[] = [];
    done.prepared.motions.forEach((p, k) => {
      const options = compressOptionsFor(p);
      const r = compressMotion(p.motion, options);
      const at = `${p.resolved.name} at x${p.toleranceScale ?? 1}`;
      if (!Buffer.from(entries[k].bytes).equals(Buffer.from(r.bytes)))
        bad.push(`${at}: the .mar entry is not its compression`);
      for (const v of [...guaranteeViolations(p.motion, r), ...toleranceMismatches(p.motion, options, r)])
        bad.push(`${at}: ${v}`);
      if (!Buffer.from(writeMt3(readMt3(r.bytes))).equals(Buffer.from(r.bytes))) bad.push(`${at}: MT3 round trip`);
      for (const v of objectBoundViolations(p.motion, r)) bad.push(`${at}: ${v}`);
    });
    expect(bad).toEqual([]);
    expect(done.results.map((r) => `${r.method}${r.skeleton ? ' skeleton-aware' : ''}`)).toEqual([
      'refined',
      'classic',
      'refined skeleton-aware',
    ]);
    expect(done.prepared.motions[0].rotationOverridesDeg).toEqual({ 1: 0.056 });
  }, 120_000);
});
