/**
 * Round 14 (docs/compression.md#round-14-2026-12-06-single-motion-exports-and-the-apps-export-dialogs), the cheap
 * part: one motion as a user exports it alone, through the built CLI and the app's Export dialogs (the handlers the
 * renderer calls, over a real compress client): `actguy export-msh` (--jobs 1 and 2) read by the MSH spec's sampler
 * and held to the tolerances asked, the app's Export MSH the same files and warnings, `actguy export-gltf` of the
 * source and of the MT3 `actguy compress` wrote the app's Export glTF bytes, the compressed one that MT3 decoded
 * independently (electron/testing/cliSweep.ts, `exports`). `npm run cli-sweep -- --exports` runs the seam seeds and
 * the held-out captures the same way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importBvh } from '../../shared/interchange/bvh/import';
import { seamCase } from '../../shared/testing/seamMotions';
import { useBuiltCompressWorker, useBundledWorker } from '../compress/buildWorkerForTests';
import { ASSIMP_BVH_DIR } from '../interchange/realBvhSamples';
import { appCompressPath, clipMotion, runCliSweep } from '../testing/cliSweep';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const workerPath = useBuiltCompressWorker();
const poolWorkerPath = useBundledWorker(resolve(__dirname, '..', 'build', 'compressPoolWorker.ts'));

describe('round 14: single-motion exports through the CLI and the app', () => {
  it('a half turn and 60 frames of 01_01 at 120 fps, at the floor: export-msh, export-gltf and the app agree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-export-sweep-'));
    dirs.push(dir);
    const app = appCompressPath({
      workspace: dir,
      workerPath: workerPath(),
      pool: { workerPath: poolWorkerPath(), jobs: 2 },
    });
    const bvh = importBvh(readFileSync(join(ASSIMP_BVH_DIR, '01_01.bvh'), 'utf8'), { fps: 120 }).motion;
    try {
      const { bad, counts } = await runCliSweep(
        [
          { name: 's5', motion: { ...seamCase(5).motion, fps: 120 } },
          { name: 'c0101', motion: clipMotion(bvh, 900, 60) },
        ],
        { cli, dir, levels: ['floor'], modes: ['refined'], app, exports: true, project: false },
      );
      expect(bad).toEqual([]);
      // What ran (a check that ran nothing fails): per motion two export-msh, the source glTF and the MT3's, and
      // the app's Export MSH, Export glTF of the source and of the compressed motion.
      expect(counts).toMatchObject({
        compressions: 2,
        cliRuns: 2,
        appRuns: 2,
        builds: 0,
        mshMotions: 2,
        mshRefused: 0,
        gltfFiles: 4,
        appExports: 6,
      });
    } finally {
      await app.dispose();
    }
  }, 600_000);
});
