import { describe, expect, it } from 'vitest';
import type { BuildMotionResult } from '../../shared/ipc';
import { marDataBase } from '../../shared/mar/constants';
import type { BuildReportBudget } from '../../shared/project/plan';
import {
  budgetFieldText,
  budgetLooseningNote,
  budgetOf,
  budgetUse,
  LOOSE_BUDGET_SCALE,
  parseBudgetInput,
} from './budget';

const result = (mt3Bytes: number) => ({ mt3Bytes }) as BuildMotionResult;

describe('the budget bar', () => {
  it('splits the .mar by motion: each MT3 padded to 16 bytes, counted again for each alias of it, plus the header', () => {
    const json = {
      motions: [
        { name: 'walk', mtn: 'w.mtn' },
        { name: 'run', mtn: 'r.mtn' },
      ],
      aliases: [{ name: 'walk_slow', target: 'walk' }],
      budget: { marBytes: 5000 },
    };
    const use = budgetUse(json, { walk: result(1001), run: result(32) });
    expect(use.segments).toEqual([
      { name: 'walk', bytes: 2 * 1008 },
      { name: 'run', bytes: 32 },
    ]);
    expect(use.marBytes).toBe(marDataBase(3) + 2016 + 32);
    expect(use.budget).toBe(5000);
  });

  it('shows no bar until every motion was measured, and no budget for an invalid one', () => {
    const json = {
      motions: [
        { name: 'walk', mtn: 'w.mtn' },
        { name: 'run', mtn: 'r.mtn' },
      ],
      budget: { marBytes: 1.5 },
    };
    expect(budgetUse(json, { walk: result(100) })).toEqual({ budget: null, segments: [], marBytes: null });
    expect(budgetOf({ motions: [], budget: { marBytes: 0 } })).toBeNull();
    expect(budgetOf({ motions: [], budget: { marBytes: 4096 } })).toBe(4096);
  });

  it('reads bytes, K and M (1024-based) and refuses anything else', () => {
    expect(parseBudgetInput('65536')).toEqual({ bytes: 65536 });
    expect(parseBudgetInput(' 48K ')).toEqual({ bytes: 48 * 1024 });
    expect(parseBudgetInput('1.5 MiB')).toEqual({ bytes: 1.5 * 1024 * 1024 });
    expect(parseBudgetInput('')).toEqual({ bytes: null });
    expect(parseBudgetInput('0')).toEqual({ error: 'a budget is 1 to 4294967295 bytes' });
    expect(parseBudgetInput('5G')).toEqual({ error: 'not a size: "5G" (bytes, or with K or M)' });
    expect(parseBudgetInput('-3')).toEqual({ error: 'not a size: "-3" (bytes, or with K or M)' });
  });
});

describe('the budget field', () => {
  it('shows a budget in the units it reads back to the same bytes: 60K, 2M, else bytes', () => {
    expect(budgetFieldText(null)).toBe('');
    expect(budgetFieldText(61440)).toBe('60K');
    expect(budgetFieldText(2 * 1024 * 1024)).toBe('2M');
    expect(budgetFieldText(50000)).toBe('50000');
    for (const bytes of [61440, 2 * 1024 * 1024, 50000, 1, 1536])
      expect(parseBudgetInput(budgetFieldText(bytes))).toEqual({ bytes });
  });
});

describe('the budget build asks the lead to look at tolerances loosened past ×1.5', () => {
  const motion = (name: string, scale: number, worstRatio: number) => ({
    name,
    scale,
    mt3Bytes: 100,
    marBytes: 112,
    worstRatio,
  });
  const budget = (motions: ReturnType<typeof motion>[]): BuildReportBudget => ({
    marBytes: 1000,
    usedBytes: 900,
    maxScale: 4,
    worstRatio: Math.max(...motions.map((m) => m.worstRatio)),
    limitingMotion: motions[0].name,
    motions,
    passes: 3,
  });

  it('says nothing while every scale stays at or under ×1.5', () => {
    expect(budgetLooseningNote(budget([motion('walk', 1, 0.9), motion('run', LOOSE_BUDGET_SCALE, 1.4)]))).toBeNull();
  });

  it('names the motions past it, the largest scale and the worst error against the tolerance set', () => {
    const note = budgetLooseningNote(
      budget([motion('walk', 1.2, 1.1), motion('run', 2.04, 1.7), motion('jump', 1.6, 1.98)]),
    );
    expect(note).toContain('the tolerances of 2 of 3 motions (run, jump) past ×1.5');
    expect(note).toContain('up to ×2.04 on run');
    expect(note).toContain("jump's error now reaches 1.98× the tolerance set");
    expect(note).toContain('raise the budget');
  });

  it('says "every motion" when the fit loosened them all', () => {
    expect(budgetLooseningNote(budget([motion('walk', 1.9, 1.5), motion('run', 2.1, 1.9)]))).toContain(
      "loosened every motion's tolerances (2) past ×1.5",
    );
  });
});
