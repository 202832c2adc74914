/**
 * Round 15 (docs/compression.md#round-15-2026-12-06-up-to-date-rebuilds-and-the-exports-on-the-rest-of-the-data), the
 * cheap part: a project of three seam cases rebuilt where its cold builds left their outputs, as a user rebuilds it
 * (electron/testing/cliSweep.ts, rebuildChecks): with nothing changed it is up to date and writes nothing; after one
 * motion file changed the rebuild carries the other motions and compresses that one, and its .mar, .sar and report
 * figures are a cold build's of the changed project, whose entries are the in-process bytes. `npm run cli-sweep --
 * --rebuilds` runs the seam seeds and the held-out captures the same way. cliSweep.test.ts is unchanged (its run time
 * does not grow).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { seamCase } from '../../shared/testing/seamMotions';
import { changedMotion, runCliSweep } from '../testing/cliSweep';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('round 15: a project rebuilt up to date and after one motion file changed', () => {
  it('a constant pose, the edge of h16 and a lock on every frame at 30 fps, at the floor, refined and skeleton-aware', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-rebuild-sweep-'));
    dirs.push(dir);
    const cases = [3, 6, 9].map((s) => ({ name: `s${s}`, motion: { ...seamCase(s).motion, fps: 30 } }));
    const { bad, counts } = await runCliSweep(cases, {
      cli,
      dir,
      levels: ['floor'],
      modes: ['refined', 'skeleton'],
      rebuilds: true,
      projectExports: false,
    });
    expect(bad).toEqual([]);
    // What ran (a check that ran nothing fails): six runs, four cold builds and five more (two up to date; the two
    // rebuilds after the change carried the four runs of s3 and s6), the two runs of s9 compressed again.
    expect(counts).toMatchObject({
      compressions: 6 + 2,
      cliRuns: 6,
      builds: 4,
      entries: 6,
      mshEntries: 0,
      glbEntries: 0,
      rebuilds: 5,
      upToDate: 2,
      carried: 2 * 4,
    });
  }, 600_000);

  it('changes one value of the motion and nothing else', () => {
    for (const s of [3, 6, 9, 7]) {
      const m = { ...seamCase(s).motion, fps: 30 };
      const c = changedMotion(m);
      const a = writeMtn(m);
      const b = writeMtn(c);
      expect(b.byteLength).toBe(a.byteLength);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
      const back = readMtn(b);
      expect(back.frameCount).toBe(m.frameCount);
      expect(back.joints).toEqual(m.joints);
      expect(Array.from(back.translation.subarray(1))).toEqual(Array.from(m.translation.subarray(1)));
      expect(back.rotation).toEqual(m.rotation);
    }
  });
});
