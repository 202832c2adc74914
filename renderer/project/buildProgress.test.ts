import { describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../shared/ipc';
import { buildButtonLook, buildProgress, cancelLook } from './buildProgress';

function status(patch: Partial<BuildStatus>): BuildStatus {
  return {
    buildId: 'b',
    dryRun: false,
    state: 'checking',
    done: 0,
    count: 0,
    current: null,
    motions: [],
    errors: [],
    warnings: [],
    written: [],
    report: null,
    elapsedMs: 0,
    ...patch,
  };
}

describe('buildProgress', () => {
  it('counts validate, one step per motion and write, and is full only when done', () => {
    const seen = [
      status({ state: 'checking' }),
      status({ state: 'compressing', count: 3, done: 0 }),
      status({ state: 'compressing', count: 3, done: 2 }),
      status({ state: 'compressing', count: 3, done: 3 }),
      status({ state: 'writing', count: 3, done: 3 }),
      status({ state: 'done', count: 3, done: 3 }),
    ].map(buildProgress);
    expect(seen.map((p) => `${p.step}/${p.steps}`)).toEqual(['0/2', '1/5', '3/5', '4/5', '4/5', '5/5']);
    for (let i = 1; i < seen.length; i++) expect(seen[i].fraction).toBeGreaterThanOrEqual(seen[i - 1].fraction);
    expect(seen.slice(0, -1).every((p) => p.fraction < 1)).toBe(true);
    expect(seen[5].fraction).toBe(1);
    expect(seen[5].label).toBe('3 / 3 motions');
    expect(seen[4].label).toContain('writing');
  });

  it('a dry run has no write step and still ends full', () => {
    expect(buildProgress(status({ dryRun: true, state: 'compressing', count: 2, done: 2 }))).toMatchObject({
      step: 3,
      steps: 3,
    });
    expect(buildProgress(status({ dryRun: true, state: 'done', count: 2, done: 2 })).fraction).toBe(1);
  });

  it('an up-to-date build (nothing compressed) is full and says so rather than 0 of N motions', () => {
    const p = buildProgress(status({ state: 'done', count: 4, done: 0, upToDate: true }));
    expect(p.fraction).toBe(1);
    expect(p.label).toBe('up to date');
  });

  it('a refused or cancelled build keeps what it finished and is never full', () => {
    expect(buildProgress(status({ state: 'failed' })).fraction).toBe(0);
    const c = buildProgress(status({ state: 'cancelled', count: 3, done: 1 }));
    expect(c.step).toBe(2);
    expect(c.fraction).toBeLessThan(1);
  });
});

describe('buildButtonLook', () => {
  it('is the primary button while nothing refuses the build', () => {
    const b = buildButtonLook(0);
    expect(b.blocked).toBe(false);
    expect(b.className.split(' ')).toContain('primary');
    expect(b.label).toBe('Build archives (.mar, .sar)…');
  });

  it('while problems refuse the build: not primary, names the count and where the problems are listed', () => {
    const one = buildButtonLook(1);
    expect(one.blocked).toBe(true);
    expect(one.className.split(' ')).not.toContain('primary');
    expect(one.label).toBe('Build archives (.mar, .sar)… (1 problem to fix)');
    expect(one.title).toMatch(/refused until this problem is fixed: see Problems in the project panel/);
    const three = buildButtonLook(3);
    expect(three.label).toBe('Build archives (.mar, .sar)… (3 problems to fix)');
    expect(three.title).toMatch(/these 3 problems are fixed/);
  });

  it('says where problems found live in the .sev being edited are listed (not yet in Problems)', () => {
    expect(buildButtonLook(1, 1).title).toBe(
      'The build is refused until this problem is fixed: it is in the .sev being edited, named in the Sound events ' +
        'toolbar (Check lists them under Problems). Click to run the build anyway and list them.',
    );
    expect(buildButtonLook(3, 2).title).toMatch(
      /above \(click one to go to it\); 2 of them are in the \.sev being edited/,
    );
    expect(buildButtonLook(3).title).not.toMatch(/being edited/);
  });
});

describe('cancelLook', () => {
  it('disables Cancel only while the archives are written, and says why', () => {
    for (const state of ['checking', 'compressing'] as const)
      expect(cancelLook(status({ state })).disabled).toBe(false);
    expect(cancelLook(null).disabled).toBe(false);
    const writing = cancelLook(status({ state: 'writing' }));
    expect(writing.disabled).toBe(true);
    expect(writing.title).toMatch(/can no longer be cancelled/);
  });
});
