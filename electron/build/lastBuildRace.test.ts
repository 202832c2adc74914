/**
 * The record of the last build takes the outputs' stamps while the commit still holds the lock (lastBuild.ts): a run
 * that replaces the outputs right after this build's commit, before its record is written, must not have its
 * outputs taken for this build's (the next build would then call them up to date).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const hooks = vi.hoisted(() => ({ afterCommit: undefined as (() => void) | undefined }));
vi.mock('./commit', async (importOriginal) => {
  const original = await importOriginal<typeof import('./commit')>();
  return {
    ...original,
    commitOutputs: (...args: Parameters<typeof original.commitOutputs>) => {
      const note = original.commitOutputs(...args);
      hooks.afterCommit?.();
      return note;
    },
  };
});

import { buildProject } from './build';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  hooks.afterCommit = undefined;
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('the record of the last build and another run', () => {
  it('outputs replaced between the commit and the record are not taken for this build', async () => {
    const root = mkdtempSync(join(tmpdir(), 'actguy-last-race-'));
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
        outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
      }),
    );
    const options = { jobs: 1, cacheDir: join(root, 'cache'), stateDir: join(root, 'state') };
    const sar = join(dir, 'out', 's.sar');
    // Another run's .sar lands right after this build's commit.
    hooks.afterCommit = () => writeFileSync(sar, Buffer.from(readFileSync(sar)).fill(0, 8));
    const first = await buildProject(path, options);
    expect(first.ok).toBe(true);
    hooks.afterCommit = undefined;
    const second = await buildProject(path, options);
    if (!second.ok) throw new Error(second.errors.map((e) => e.message).join('\n'));
    expect(second.upToDate).toBe(false);
    // Its own record then holds, and the builds after it are up to date.
    for (let n = 0; n < 2; n++) {
      const again = await buildProject(path, options);
      expect(again).toMatchObject({ ok: true, upToDate: true });
    }
  }, 60_000);
});
