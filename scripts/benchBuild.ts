/**
 * The build-scaling figures of `npm run bench` (issue 11): a generated project
 * of real-capture motions (slices of the bundled CMU capture assets/cmu_01_01.mtn,
 * and of the Debian assimp-testmodels captures when installed, at full and
 * half rate (resampled to 30 fps by the build), with varied tolerances), built cold with --jobs 1, cold with
 * --jobs 2, and again unchanged from the cache. Printed as times and ratios
 * measured in this one run; nothing here asserts a time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProject } from '../electron/build/build';
import { workerCompressor, inProcessCompressor } from '../electron/build/compressPool';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';

/** Frames first..last (inclusive) of a motion, every `step`-th frame. */
export function sliceMotion(m: Motion, first: number, last: number, step: number): Motion {
  const frames: number[] = [];
  for (let f = first; f <= last; f += step) frames.push(f);
  const rows = <T extends Float32Array | Uint32Array>(a: T): T => {
    const stride = a.length / (m.frameCount + 1);
    const out = new (a.constructor as { new (n: number): T })(frames.length * stride);
    frames.forEach((f, i) => out.set(a.subarray(f * stride, (f + 1) * stride), i * stride));
    return out;
  };
  return {
    ...m,
    frameCount: frames.length - 1,
    fps: m.fps / step,
    translation: rows(m.translation),
    rotation: rows(m.rotation),
    offset: rows(m.offset),
    translationKeyInfo: rows(m.translationKeyInfo),
    jointKeyInfo: rows(m.jointKeyInfo),
  };
}

/** Writes a project of >= `count` motions derived from the captures into `dir`; returns its path. */
export function generateProject(dir: string, captures: [string, Motion][], count: number): string {
  const motions: object[] = [];
  let k = 0;
  while (motions.length < count) {
    for (const [name, m] of captures) {
      if (motions.length >= count) break;
      const len = 60 + ((k * 37) % 120);
      const first = (k * 53) % Math.max(1, m.frameCount - len);
      const step = k % 3 === 2 ? 2 : 1;
      const last = Math.min(m.frameCount, first + len * step);
      const file = `${name}_${k}.mtn`;
      writeFileSync(join(dir, file), writeMtn(sliceMotion(m, first, last, step)));
      // A half-rate slice is a 15 fps motion: the build resamples it to the game's 30 fps.
      motions.push({
        name: `${name}_${k}`, mtn: file, tolerances: { rotationDeg: [0.25, 0.5, 1, 2][k % 4], position: [0.25, 0.5, 1][k % 3] },
        ...(m.fps / step !== 30 ? { resample: true } : {}),
      });
      k++;
    }
  }
  const path = join(dir, 'bench.actguy.json');
  writeFileSync(path, JSON.stringify({ version: 1, motions, outputs: { mar: 'out/bench.mar', sar: 'out/bench.sar' } }, null, 1));
  return path;
}

export async function benchBuild(root: string, extraCaptures: [string, Motion][]): Promise<string[]> {
  const cmu = readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'cmu_01_01.mtn'))));
  const captures: [string, Motion][] = [['cmu_01_01', cmu], ...extraCaptures.map(([n, m], i) => [`capture${i}`, m] as [string, Motion])];
  const dir = mkdtempSync(join(tmpdir(), 'actguy-bench-build-'));
  try {
    const project = generateProject(dir, captures, 120);
    const worker = join(__dirname, 'compressPoolWorker.cjs');
    const time = async (label: string, options: Parameters<typeof buildProject>[1]): Promise<number> => {
      const t0 = performance.now();
      const r = await buildProject(project, options);
      if (!r.ok) throw new Error(`${label}: ${r.errors[0].message}`);
      return performance.now() - t0;
    };
    const one = inProcessCompressor();
    // Both cold builds as `actguy build --jobs N` runs them by default: each fills its own (empty) cache.
    const cold1 = await time('jobs 1', { compressor: one, cacheDir: join(dir, 'cache-jobs1') });
    const two = workerCompressor(worker, 2);
    const cold2 = await time('jobs 2', { compressor: two, cacheDir: join(dir, 'cache') });
    const warm = await time('rebuild', { compressor: two, cacheDir: join(dir, 'cache') });
    await two.close();
    const p = JSON.parse(readFileSync(project, 'utf8'));
    return [
      '',
      `Build scaling: ${p.motions.length} real-capture motions (slices of ${captures.map(([n]) => n).join(', ')}; full and half rate; varied tolerances), ${availableParallelism()} cores here`,
      `  cold build, --jobs 1          ${(cold1 / 1000).toFixed(2)} s`,
      `  cold build, --jobs 2          ${(cold2 / 1000).toFixed(2)} s   ratio ${(cold2 / cold1).toFixed(2)}x of --jobs 1 (target <= 0.65x on 2 cores)`,
      `  unchanged rebuild (cache)     ${(warm / 1000).toFixed(2)} s   ratio ${(warm / cold2).toFixed(3)}x of the cold build (target <= 0.1x)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
