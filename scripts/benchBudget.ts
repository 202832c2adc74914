/**
 * The budget figures of `npm run bench` (`-- --budget-only` runs only these): for a budget at 70 % of the
 * default build's .mar, the worst error-to-tolerance ratio of the budget build (per-motion scales, a
 * lexicographic min-max allocation: docs/formats.md#budget) against that of the best single uniform scale of
 * every motion's tolerances that also fits (overrides kept as set in both, the scale bisected to 1/1024).
 * Data: the bundled sample project (assets/sample.actguy.json), and a generated project of real-capture slices
 * (the CMU capture assets/cmu_01_01.mtn and the Debian assimp-testmodels captures when installed) with varied
 * tolerances, some in skeleton-aware mode. Figures only: nothing here asserts anything.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { marBytesOf, marShare, MAX_BUDGET_SCALE } from '../shared/project/budget';
import { prepareBuild, withToleranceScale, type PreparedBuild } from '../shared/project/plan';
import { parseProject } from '../shared/project/validate';
import { compressWithinBudget, motionBudgetRatio } from '../electron/build/budgetBuild';
import { compressMotions } from '../electron/build/compressMotions';
import { inProcessCompressor } from '../electron/build/compressPool';
import { generateProject } from './benchBuild';

const read = (p: string) => new Uint8Array(readFileSync(p));

function prepared(projectFile: string, budget?: number): PreparedBuild {
  const parsed = parseProject(readFileSync(projectFile, 'utf8'), projectFile);
  if (!parsed.resolved) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
  const prep = prepareBuild({ ...parsed.resolved, ...(budget ? { budget: { marBytes: budget } } : {}) }, read);
  if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
  return prep.prepared;
}

/** Every motion at one scale: the .mar's size and the worst ratio. */
async function uniform(p: PreparedBuild, scale: number): Promise<{ marBytes: number; ratio: number }> {
  const scaled = { ...p, motions: p.motions.map((m) => (scale === 1 ? m : withToleranceScale(m, scale))) };
  const done = await compressMotions(scaled, { compressor: inProcessCompressor(), inputBytes: read });
  if (!done.ok) throw new Error(done.errors.map((e) => e.message).join('\n'));
  const uses = p.motions.map((_, m) => 1 + p.aliases.filter((a) => a.resolved.targetIndex === m).length);
  const shares = done.results.reduce((s, r, m) => s + marShare(r.mt3Bytes, uses[m]), 0);
  return {
    marBytes: marBytesOf(p.motions.length + p.aliases.length, shares),
    ratio: Math.max(...done.results.map((r, m) => motionBudgetRatio(p.motions[m], r, scale))),
  };
}

async function compare(label: string, projectFile: string): Promise<string[]> {
  const plain = prepared(projectFile);
  const full = await uniform(plain, 1);
  const budget = Math.floor(full.marBytes * 0.7);
  const t0 = performance.now();
  const fitted = await compressWithinBudget(prepared(projectFile, budget), {
    compressor: inProcessCompressor(),
    inputBytes: read,
  });
  const ms = performance.now() - t0;
  if (!fitted.ok) return [`  ${label}: ${fitted.errors.map((e) => e.message).join('; ')}`];
  const b = fitted.budget!;
  // The best uniform scale that fits: bisection on the scale (to 1/1024) between 1 and the loosest allowed.
  let lo = 1;
  let hi = MAX_BUDGET_SCALE;
  let best = await uniform(plain, hi);
  while (hi - lo > 1 / 1024) {
    const mid = Math.round(((lo + hi) / 2) * 1024) / 1024;
    if (mid === lo || mid === hi) break;
    const at = await uniform(plain, mid);
    if (at.marBytes <= budget) {
      hi = mid;
      best = at;
    } else lo = mid;
  }
  const scales = b.motions.map((m) => m.scale);
  const differ = Math.max(...scales) > Math.min(...scales);
  // Compared as the report gives the ratio (4 decimals).
  const uniformRatio = Number(best.ratio.toFixed(4));
  const verdict = b.worstRatio < uniformRatio ? 'lower' : b.worstRatio === uniformRatio ? 'equal' : 'HIGHER';
  return [
    `  ${label}: ${plain.motions.length} motions, default .mar ${full.marBytes} bytes, budget ${budget} bytes (70 %)`,
    `    budget build:        .mar ${b.usedBytes} bytes, worst error/tolerance ${b.worstRatio.toFixed(4)} (limited by ${b.limitingMotion}); scales ${Math.min(...scales).toFixed(3)}-${Math.max(...scales).toFixed(3)}; ${b.passes} passes, ${(ms / 1000).toFixed(1)} s`,
    `    best uniform scale:  x${hi.toFixed(4)}, .mar ${best.marBytes} bytes, worst error/tolerance ${best.ratio.toFixed(4)}`,
    `    budget vs uniform:   ${(b.worstRatio / best.ratio).toFixed(4)}x (${verdict}; target: no worse, lower where motions differ: they ${differ ? 'do' : 'do not'} here)`,
  ];
}

export async function benchBudget(root: string, extraCaptures: [string, Motion][]): Promise<string[]> {
  const lines = ['', 'Budget fit (a .mar budget at 70 % of the default build; docs/formats.md#budget):'];
  const dir = mkdtempSync(join(tmpdir(), 'actguy-bench-budget-'));
  try {
    lines.push(
      ...(await compare('sample project (assets/sample.actguy.json)', join(root, 'assets', 'sample.actguy.json'))),
    );
    const cmu = readMtn(read(join(root, 'assets', 'cmu_01_01.mtn')));
    const captures: [string, Motion][] = [
      ['cmu_01_01', cmu],
      ...extraCaptures.map(([, m], i) => [`capture${i}`, m] as [string, Motion]),
    ];
    const file = generateProject(dir, captures, 12);
    // Some motions in skeleton-aware mode: their object-space error counts against their object tolerance.
    const p = JSON.parse(readFileSync(file, 'utf8'));
    p.motions.forEach((m: { tolerances: Record<string, number> }, k: number) => {
      if (k % 4 === 1) m.tolerances = { ...m.tolerances, object: 1 };
    });
    writeFileSync(file, JSON.stringify(p));
    lines.push(
      ...(await compare(
        `real-capture slices (${captures.map(([n]) => n).join(', ')}; varied tolerances, every 4th skeleton-aware)`,
        file,
      )),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
