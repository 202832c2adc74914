/**
 * Round 16 (docs/compression.md#round-16-2026-12-06-rebuilds-after-a-setting-sev-or-se-table-change), the cheap part:
 * a project of two seam cases, each with a .sev, and SE tables, rebuilt where its cold builds left their outputs
 * after a motion file, then a motion's setting, then a .sev event, then an SE table's code changed
 * (electron/testing/cliSweep.ts, rebuildChecks): each rebuild carries what did not change, and its .mar, .sar and
 * report figures are a cold build's of the changed project, whose entries are the in-process bytes. `npm run cli-sweep
 * -- --rebuilds` runs the seam seeds and the held-out captures the same way; rebuildSweep.test.ts is unchanged (its run
 * time does not grow).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seamCase } from '../../shared/testing/seamMotions';
import { runCliSweep } from '../testing/cliSweep';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('round 16: rebuilds after a setting, a .sev and an SE table changed', () => {
  it('a constant pose and a lock on every frame at 30 fps, at the floor, refined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-rebuild-changes-'));
    dirs.push(dir);
    const cases = [3, 9].map((s) => ({ name: `s${s}`, motion: { ...seamCase(s).motion, fps: 30 } }));
    const { bad, counts } = await runCliSweep(cases, {
      cli,
      dir,
      levels: ['floor'],
      modes: ['refined'],
      rebuilds: true,
      rebuildChanges: true,
      projectExports: false,
    });
    expect(bad).toEqual([]);
    // What ran (a check that ran nothing fails): two runs and four cold builds; round 15's five rebuilds (two up to
    // date, s3 carried twice); then for each of the setting, the .sev and the SE table four more (one up to date):
    // the setting's two rebuilds carry s9 and compress s3 at its new tolerance (compressed in-process once more), the
    // .sev's and the table's carry both runs.
    expect(counts).toMatchObject({
      compressions: 2 + 1 + 1,
      cliRuns: 2,
      builds: 4,
      entries: 2,
      rebuilds: 5 + 3 * 4,
      upToDate: 2 + 3,
      carried: 2 + 2 + 4 + 4,
    });
  }, 600_000);
});
