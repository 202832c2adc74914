import { describe, expect, it } from 'vitest';
import { marDataBase } from '../mar/constants';
import {
  allocateBudget,
  BUDGET_TOP_STEP,
  budgetRatio,
  budgetScale,
  marBytesOf,
  marShare,
  MAX_BUDGET_SCALE,
  searchBudget,
  type BudgetPoint,
} from './budget';

/** A deterministic pseudo-random source (tests must not depend on Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A table of `n` points whose bytes fall and ratios rise with the step (each motion at its own rate). */
function table(rand: () => number, n: number): BudgetPoint[] {
  let bytes = 2000 + Math.floor(rand() * 4000);
  let ratio = 0.5 + rand() * 0.5;
  return Array.from({ length: n }, (_, step) => {
    const p = { step, bytes: marShare(bytes, 1), ratio };
    bytes = Math.max(16, bytes - Math.floor(rand() * 900));
    ratio += rand() * (rand() < 0.3 ? 0.05 : 0.6);
    return p;
  });
}

/** The smallest worst ratio over every combination of points that fits (brute force). */
function bruteForce(tables: BudgetPoint[][], budget: number): number | null {
  let best: number | null = null;
  const walk = (m: number, bytes: number, worst: number) => {
    if (m === tables.length) {
      if (marBytesOf(tables.length, bytes) <= budget && (best === null || worst < best)) best = worst;
      return;
    }
    for (const p of tables[m]) walk(m + 1, bytes + p.bytes, Math.max(worst, p.ratio));
  };
  walk(0, 0, 0);
  return best;
}

describe('allocateBudget', () => {
  it('finds the min-max optimum of small synthetic tables (brute force over every combination), and the choice fits', () => {
    const rand = lcg(7);
    let compared = 0;
    for (let trial = 0; trial < 200; trial++) {
      const tables = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => table(rand, 2 + Math.floor(rand() * 4)));
      const most = marBytesOf(
        tables.length,
        tables.reduce((s, t) => s + t[0].bytes, 0),
      );
      const budget = Math.floor(most * (0.3 + rand() * 0.8));
      const best = bruteForce(tables, budget);
      const a = allocateBudget(tables, tables.length, budget);
      if (best === null) {
        expect(a).toBeNull();
        continue;
      }
      compared++;
      expect(a).not.toBeNull();
      const points = a!.choice.map((i, m) => tables[m][i]);
      expect(a!.ratio).toBe(best);
      expect(Math.max(...points.map((p) => p.ratio))).toBe(best);
      expect(a!.marBytes).toBe(
        marBytesOf(
          tables.length,
          points.reduce((s, p) => s + p.bytes, 0),
        ),
      );
      expect(a!.marBytes).toBeLessThanOrEqual(budget);
      expect(points[a!.limiting].ratio).toBe(best);
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('loosens the motion whose bytes fall fastest and keeps the others tight (the bytes left go to the rest)', () => {
    // Motion 0 halves its size from step 0 to step 1 for a small rise in error; motion 1 barely shrinks.
    const tables: BudgetPoint[][] = [
      [
        { step: 0, bytes: 8000, ratio: 1 },
        { step: 1, bytes: 4000, ratio: 1.2 },
        { step: 2, bytes: 3800, ratio: 2 },
      ],
      [
        { step: 0, bytes: 4000, ratio: 1 },
        { step: 1, bytes: 3900, ratio: 1.2 },
        { step: 2, bytes: 3800, ratio: 2 },
      ],
    ];
    const a = allocateBudget(tables, 2, marDataBase(2) + 8000)!;
    expect(a.choice).toEqual([1, 0]);
    expect(a.ratio).toBe(1.2);
    expect(a.limiting).toBe(0);
    expect(allocateBudget(tables, 2, marDataBase(2) + 7599)).toBeNull();
  });
});

describe('budgetRatio', () => {
  const channels = [
    { kind: 'translation' as const, joint: -1, tolerance: 1, maxError: 0.9 },
    { kind: 'rotation' as const, joint: 0, tolerance: 1, maxError: 0.5 },
    // Joint 1 has an override of 0.25 deg: a floor, compressed with 0.25 whatever the scale.
    { kind: 'rotation' as const, joint: 1, tolerance: 0.25, maxError: 0.24 },
  ];
  it('counts each channel against its own tolerance as set: scaled ones over the scale, an override as it is', () => {
    expect(budgetRatio(channels, { 1: 0.25 }, 2)).toBeCloseTo(1.8, 12);
    expect(budgetRatio(channels.slice(1), { 1: 0.25 }, 2)).toBeCloseTo(1, 12);
    // Were the override scaled like the rest, its channel would count 0.24 / 0.125.
    expect(budgetRatio(channels.slice(2), { 1: 0.25 }, 2)).toBeCloseTo(0.96, 12);
  });
  it('in skeleton-aware mode counts the object-space error against the object tolerance instead of derived rotations', () => {
    const skeleton = { objectTolerance: 2, objectMaxError: 1.5 };
    const rotations = [{ kind: 'rotation' as const, joint: 0, tolerance: 0.01, maxError: 0.3 }];
    expect(budgetRatio(rotations, {}, 2, skeleton)).toBeCloseTo(1.5, 12);
    expect(budgetRatio(rotations, {}, 2)).toBeCloseTo(60, 12);
  });
});

describe('searchBudget', () => {
  /** Motions whose bytes fall like 1/scale^rate and whose ratio is the scale times a motion's own factor. */
  const model =
    (rates: number[], factors: number[], calls: number[][] = []) =>
    async (steps: readonly number[]) => {
      calls.push([...steps]);
      return rates.map((r, m) => {
        const s = budgetScale(steps[m]);
        return { bytes: marShare(Math.round(10000 / s ** r), 1), ratio: s * factors[m] };
      });
    };

  it('keeps the tolerances as set when they fit, after one pass', async () => {
    const calls: number[][] = [];
    const r = await searchBudget(2, 2, 1 << 20, model([1, 1], [1, 1], calls));
    expect(r.ok && r.steps).toEqual([0, 0]);
    expect(calls).toEqual([[0, 0]]);
  });

  it('fits the budget with a worst ratio no higher than the best uniform step, and lower where motions differ', async () => {
    const rates = [2, 0.3, 1];
    const factors = [1, 0.4, 1];
    const budget = marBytesOf(3, 3 * 10000) * 0.7;
    const r = await searchBudget(3, 3, budget, model(rates, factors));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.allocation.marBytes).toBeLessThanOrEqual(budget);
    let uniform = Infinity;
    for (let k = 0; k <= BUDGET_TOP_STEP; k++) {
      const pts = await model(rates, factors)([k, k, k]);
      if (
        marBytesOf(
          3,
          pts.reduce((s, p) => s + p.bytes, 0),
        ) <= budget
      ) {
        uniform = Math.max(...pts.map((p) => p.ratio));
        break;
      }
    }
    expect(r.allocation.ratio).toBeLessThan(uniform);
    // The motion whose error grows slowly takes a larger scale than the others.
    expect(r.steps[1]).toBeGreaterThan(r.steps[0]);
  });

  it('is never worse than the tightest common step that fits, even where errors do not grow smoothly', async () => {
    // Errors that jump about from step to step (as real compressions do): a per-motion interpolation can miss the
    // common step that fits best, so the search also bisects the common step to the last ladder step.
    for (let seed = 1; seed <= 24; seed++) {
      const rand = lcg(seed);
      const count = 2 + (seed % 3);
      const rates = Array.from({ length: count }, () => 0.5 + rand());
      const jag = Array.from({ length: count }, () => Array.from({ length: 97 }, () => 1 + 0.05 * rand()));
      const jagged = async (steps: readonly number[]) =>
        rates.map((r, m) => {
          const sc = budgetScale(steps[m]);
          return { bytes: marShare(Math.round(10000 / sc ** r), 1), ratio: sc * jag[m][steps[m] % 97] };
        });
      const budget = marBytesOf(count, count * 10000) * (0.4 + 0.4 * rand());
      const r = await searchBudget(count, count, budget, jagged);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      let uniform = Infinity;
      for (let k = 0; k <= BUDGET_TOP_STEP; k++) {
        const pts = await jagged(new Array<number>(count).fill(k));
        if (
          marBytesOf(
            count,
            pts.reduce((t, p) => t + p.bytes, 0),
          ) <= budget
        ) {
          uniform = Math.max(...pts.map((p) => p.ratio));
          break;
        }
      }
      expect(r.allocation.ratio, `seed ${seed}`).toBeLessThanOrEqual(uniform);
    }
  });

  it('names the bytes missing at the loosest allowed scale when the budget cannot be met', async () => {
    const r = await searchBudget(2, 2, 100, model([1, 1], [1, 1]));
    const loosest = marBytesOf(2, 2 * marShare(Math.round(10000 / MAX_BUDGET_SCALE), 1));
    expect(r).toEqual({ ok: false, loosestMarBytes: loosest, missingBytes: loosest - 100, passes: 2 });
  });

  it('follows a fixed schedule: the same evaluations and choice on every run', async () => {
    const runs = await Promise.all(
      [1, 2, 3].map(async () => {
        const calls: number[][] = [];
        const r = await searchBudget(3, 4, 25000, model([1.5, 0.5, 1], [1, 0.6, 0.9], calls));
        return { calls, steps: r.ok ? r.steps : null };
      }),
    );
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(budgetScale(BUDGET_TOP_STEP)).toBe(MAX_BUDGET_SCALE);
  });
});
