/**
 * Round 12 (docs/compression.md#round-12-2026-12-06-the-seams-and-held-out-captures-through-the-cli-and-the-pool), the
 * cheap part: a few seam cases and two short clips of held-out captures (one of them over 512 KiB of MTN, so `actguy
 * compress` runs it off its thread and a 2-job build in channel shares), at 30 and 120 fps, at 0.05 u / 0.5 deg, 0.01
 * / 0.1, 0.005 / 0.05 and each channel's floor, refined, classic and skeleton-aware, through the built CLI's
 * `compress` and `build` (--jobs 1 and 2, each cold and from the other's cache). Every written file is the in-process
 * bytes and keeps the guarantee by the independent decoder (electron/testing/cliSweep.ts says what is checked);
 * `npm run cli-sweep` runs the seam seeds and every held-out capture the same way. Round 13
 * (docs/compression.md#round-13-2026-12-06-export-msh-export-gltf-and-the-apps-compress-path): each level's project
 * also through `export-msh --project` and `export-gltf --project --compressed`, and every run through the app's
 * handlers (exportMt3, compressMotion), each file read back independently (electron/testing/exportChecks.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { exportMshFiles } from '../../shared/msh/files';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import { readMt3 } from '../../shared/mt3/read';
import { importBvh } from '../../shared/interchange/bvh/import';
import { seamCase } from '../../shared/testing/seamMotions';
import { ASSIMP_BVH_DIR } from '../interchange/realBvhSamples';
import { useBuiltCompressWorker, useBundledWorker } from '../compress/buildWorkerForTests';
import {
  appCompressPath,
  clipMotion,
  fileViolations,
  levelsOf,
  optionsOf,
  runCliSweep,
  type SweepCase,
} from '../testing/cliSweep';
import { glbViolations, mshViolations } from '../testing/exportChecks';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const seam = (seed: number, fps: number): SweepCase => ({
  name: `s${seed}`,
  motion: { ...seamCase(seed).motion, fps },
});
const capture = (file: string, fps: number, first: number, frames: number): SweepCase => ({
  name: `${file.replace('_', '')}_${fps}`,
  motion: clipMotion(
    importBvh(readFileSync(join(ASSIMP_BVH_DIR, `${file}.bvh`), 'utf8'), { fps }).motion,
    first,
    frames,
  ),
});

const workerPath = useBuiltCompressWorker();
const poolWorkerPath = useBundledWorker(resolve(__dirname, '..', 'build', 'compressPoolWorker.ts'));

async function check(cases: SweepCase[], levels: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-cli-sweep-'));
  dirs.push(dir);
  const app = appCompressPath({
    workspace: dir,
    workerPath: workerPath(),
    pool: { workerPath: poolWorkerPath(), jobs: 2 },
  });
  try {
    const { bad, counts } = await runCliSweep(cases, { cli, dir, levels, app });
    expect(bad).toEqual([]);
    return counts;
  } finally {
    await app.dispose();
  }
}

describe('round 12: seams and held-out clips through `actguy compress` and `actguy build`', () => {
  it('at 30 fps (flips, the edge of h16, denormals, a constant pose, 40 frames of Boxing_Toes)', async () => {
    const counts = await check(
      [seam(4, 30), seam(6, 30), seam(7, 30), seam(3, 30), capture('Boxing_Toes', 30, 100, 40)],
      ['0.01', 'floor'],
    );
    expect(counts).toMatchObject({
      compressions: 30,
      cliRuns: 30,
      builds: 8,
      entries: 30,
      long: 0,
      appRuns: 30,
      mshEntries: 30,
      glbEntries: 30,
    });
  }, 900_000);

  it('at 120 fps, 350 frames of 01_01 off the thread and in channel shares (a half turn, a lock on every frame)', async () => {
    const counts = await check([seam(5, 120), seam(9, 120), capture('01_01', 120, 600, 350)], ['floor']);
    expect(counts).toMatchObject({
      compressions: 9,
      cliRuns: 9,
      builds: 4,
      entries: 9,
      long: 1,
      appRuns: 9,
      mshEntries: 9,
      glbEntries: 9,
    });
  }, 900_000);

  it('checks a written file against the tolerances asked, and holds each joint to its own floor at the floor', () => {
    const c = seam(5, 120);
    const [floor] = levelsOf(c.motion, ['floor']);
    expect(Object.keys(floor.overrides!).length).toBe(c.motion.joints.length);
    expect(Math.max(...Object.values(floor.overrides!))).toBe(floor.rotationToleranceDeg);
    // A file compressed loosely, read against tighter tolerances: frames that are not keys are over, and named.
    const loose = compressMotion(c.motion, {
      name: 's5',
      positionTolerance: 1,
      rotationToleranceDeg: 20,
      offsetTolerance: 1,
    });
    const tight = optionsOf('s5', floor, 'refined');
    const bad = fileViolations(c.motion, loose.bytes, tight);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]).toMatch(/^(translation|rotation \d+): frame \d+ is not a key and has error [\d.e-]+ over [\d.e-]+$/);
    expect(
      fileViolations(c.motion, loose.bytes, {
        ...tight,
        positionTolerance: 1,
        rotationToleranceDeg: 20,
        rotationToleranceOverridesDeg: {},
      }),
    ).toEqual([]);
  });

  it('reads an MSH export by the spec and a compressed glTF against its MT3, and names what is off', () => {
    const c = seam(5, 120);
    const [floor] = levelsOf(c.motion, ['floor']);
    const loose = { positionTolerance: 1, rotationToleranceDeg: 20 };
    const files = exportMshFiles(c.motion, loose, { source: 's5.mtn', baseName: 's5' });
    const read = (tol: typeof loose & { rotationToleranceOverridesDeg?: Record<number, number> }) =>
      mshViolations(c.motion, files.res8, files.res19, files.nodesJson, tol, files.warnings);
    expect(read(loose)).toEqual([]);
    // Read against the floor: frames that are not keys are over, and named.
    const tight = read(optionsOf('s5', floor, 'refined'));
    expect(tight.length).toBeGreaterThan(0);
    expect(tight[0]).toMatch(
      /^node \d+ \(.*\): frame \d+ is not a key and its (position|rotation) is [\d.e-]+ off, over/,
    );
    // A key over its tolerance that no warning tells of.
    const exact = exportMshFiles(c.motion, { ...loose, rotationToleranceDeg: 1e-9 }, { source: 's5', baseName: 's5' });
    expect(exact.warnings.length).toBeGreaterThan(0);
    expect(
      mshViolations(c.motion, exact.res8, exact.res19, exact.nodesJson, { ...loose, rotationToleranceDeg: 1e-9 }, []),
    ).toContainEqual(expect.stringMatching(/: the key at frame \d+ is [\d.e-]+ off in rotation, over 1e-9, untold$/));
    // The glTF of a compressed motion against that MT3, and against another one.
    const a = compressMotion(c.motion, { name: 's5', ...loose, offsetTolerance: 1 });
    const b = compressMotion(c.motion, optionsOf('s5', floor, 'refined'));
    const glb = motionToGlb(decodeMt3ToMotion(readMt3(a.bytes), c.motion), { boneMesh: false });
    expect(glbViolations(c.motion, a.bytes, glb)).toEqual([]);
    expect(glbViolations(c.motion, b.bytes, glb)).toContainEqual(
      expect.stringMatching(/^node \d+ rotation: frame \d+ is [\d.e-]+ deg from the decoded MT3$/),
    );
  });
});
