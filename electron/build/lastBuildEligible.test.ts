/**
 * The builds that keep no last-build record (lastBuildUse.ts, docs/cache.md "Up to date"): one with a memory budget
 * (its tolerances depend on every motion at once, so no motion's output can be carried from another build) and one
 * with outputs.msh (the record does not cover the MSH files, so "up to date" could not vouch for them). Each is built
 * twice with a cache and a state folder: the second runs again, and no record is left.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSETS } from '../testing/handlerHarness';
import { buildProject } from './build';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

async function twice(extra: Record<string, unknown>, outputs: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'actguy-record-eligible-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json', ...outputs },
      ...extra,
    }),
  );
  const state = join(root, 'state');
  const build = async () => {
    const r = await buildProject(path, { jobs: 1, cacheDir: join(root, 'cache'), stateDir: state });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    return r;
  };
  await build();
  const second = await build();
  const records = existsSync(join(state, 'last-builds')) ? readdirSync(join(state, 'last-builds')) : [];
  return { second, records };
}

describe('builds that keep no last-build record', () => {
  it('a build with a memory budget runs again, and keeps none', async () => {
    const { second, records } = await twice({ budget: { marBytes: 10_000_000 } }, {});
    expect(second.upToDate).toBe(false);
    expect(records).toEqual([]);
  }, 60_000);

  it('a build with outputs.msh runs again (the MSH files are not in the record), and keeps none', async () => {
    const { second, records } = await twice({}, { msh: 'msh' });
    expect(second.upToDate).toBe(false);
    expect(records).toEqual([]);
  }, 60_000);

  it('the same project without either is up to date the second time (the check above can fail)', async () => {
    const { second, records } = await twice({}, {});
    expect(second.upToDate).toBe(true);
    expect(records).toHaveLength(1);
  }, 60_000);
});
