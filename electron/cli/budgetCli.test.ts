/**
 * `actguy build --budget BYTES` through the built CLI (docs/cli.md): the
 * .mar fits, the scales are printed per motion with the limiting one marked,
 * the flag wins over the project's budget, and a bad or impossible budget is
 * refused with nothing written.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

function run(...args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-budget-cli-'));
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: 'walk.mtn', rotationOverridesDeg: { LeftFoot: 0.25 } },
        { name: 'walk_rough', mtn: 'walk.mtn', tolerances: { rotationDeg: 2 } },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
      budget: { marBytes: 1 << 20 },
    }),
  );
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('actguy build --budget', () => {
  it("fits the .mar, prints every motion's scale with the limiting one, and --budget wins over the project's", () => {
    const plain = run('build', 'p.actguy.json', '--no-cache', '--quiet');
    expect(plain.rc).toBe(0);
    const full = statSync(join(dir, 'out', 'stage.mar')).size;
    const budget = Math.floor(full * 0.8);
    const r = run('build', 'p.actguy.json', '--no-cache', '--budget', String(budget));
    expect(r.rc).toBe(0);
    const size = statSync(join(dir, 'out', 'stage.mar')).size;
    expect(size).toBeLessThanOrEqual(budget);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'stage.report.json'), 'utf8'));
    expect(report.budget.marBytes).toBe(budget);
    expect(r.out).toContain(`budget: ${size} of ${budget} bytes`);
    expect(r.out).toContain(`limited by ${report.budget.limitingMotion}`);
    for (const m of report.budget.motions)
      expect(r.out).toMatch(
        new RegExp(`\\n  ${m.name} +${m.scale.toFixed(3)} +${m.mt3Bytes} +${m.worstRatio.toFixed(3)}`),
      );
    expect(r.out).toMatch(new RegExp(`\\n  ${report.budget.limitingMotion} .*\\(limits the stage\\)`));
  });

  it('refuses a budget that is not a whole number of bytes before reading anything', () => {
    for (const bad of ['0', '12.5', '1e6', '-3', 'lots']) {
      const r = run('build', 'p.actguy.json', '--no-cache', '--budget', bad);
      expect(r.rc).not.toBe(0);
      expect(r.err).toContain(`--budget needs a whole number of bytes from 1 to 4294967295, got "${bad}"`);
    }
  });

  it('refuses a budget the loosest scale cannot meet, naming the bytes missing; nothing is written', () => {
    rmSync(join(dir, 'out'), { recursive: true, force: true });
    const r = run('build', 'p.actguy.json', '--no-cache', '--budget', '2000');
    expect(r.rc).toBe(1);
    expect(r.err).toMatch(
      /p\.actguy\.json \[PROJECT\] \(budget\.marBytes\): the \.mar cannot fit 2000 bytes: .* it takes \d+ bytes, \d+ bytes too many/,
    );
    expect(r.err).toContain('nothing was written');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
