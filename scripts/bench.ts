/**
 * `npm run bench`: compression figures for the bundled samples, the real CMU
 * captures (when the Debian package assimp-testmodels is installed) and a
 * synthetic 60 joints x 600 frames motion. For each: keys, bytes, ratio, max
 * errors and time of the incremental compressor, the same for the naive
 * full-refit reference, and the speed-up measured in this run; then the
 * method comparison (benchMethods.ts: classic, refined, DP reference and the
 * skeleton-aware mode; `npm run bench -- --methods-only` runs only that), and the
 * compressor's figures of docs/compression.md (benchCompressor.ts; `--compressor-only`).
 * Figures only: nothing here asserts a time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressMotionWith } from '../shared/compress/compress';
import { methodStrategy, type CompressStrategy } from '../shared/compress/methods';
import { naiveClassicStrategy } from '../shared/compress/naive';
import { DEFAULT_TOLERANCES, type CompressResult } from '../shared/compress/types';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { syntheticMotion } from '../shared/testing/syntheticMotion';
import { benchBuild } from './benchBuild';
import { benchCache } from './benchCache';
import { benchExtras } from './benchExtras';
import { benchUi } from './bench-ui';
import { benchMethods, benchSkeleton } from './benchMethods';
import { benchCompressor, benchProcess } from './benchCompressor';
import { benchBudget } from './benchBudget';
import { median } from './benchStats';

const root = join(__dirname, '..', '..');
/** The first table times the greedy loop itself (classic) against the naive full-refit reference. */
const options = { ...DEFAULT_TOLERANCES, name: 'bench', method: 'classic' as const };

function timed(m: Motion, strategy: CompressStrategy, runs: number): { r: CompressResult; ms: number } {
  let r = compressMotionWith(strategy, m, options); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    r = compressMotionWith(strategy, m, options);
    times.push(r.ms);
  }
  return { r, ms: median(times) };
}

function maxOf(r: CompressResult, kind: string): string {
  const chans = r.channels.filter((c) => c.kind === kind);
  if (chans.length === 0) return '-';
  return Math.max(...chans.map((c) => c.maxError)).toFixed(3);
}

function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => String(c).padStart(widths[i])).join(' ');
}

export async function main(): Promise<void> {
  if (process.argv.includes('--ui')) {
    // `npm run bench -- --ui`: only the renderer latency section.
    for (const line of await benchUi({ root })) console.log(line);
    return;
  }
  if (process.argv.includes('--compressor-only')) {
    // `npm run bench -- --compressor-only`: keys and time of refined vs classic on every bundled capture, the
    // optimality gap and the CLI process time (docs/compression.md).
    benchCompressor(root);
    return;
  }
  if (process.argv.includes('--process-only')) {
    // `npm run bench -- --process-only`: just the CLI process time against the naive greedy (docs/compression.md).
    benchProcess(root);
    return;
  }
  if (process.argv.includes('--skeleton-only')) {
    // `npm run bench -- --skeleton-only`: the skeleton-aware mode against classic 0.2 deg at the same object-space
    // error on every bundled capture at 30 and 120 fps (docs/compression.md).
    benchSkeleton(root);
    return;
  }
  if (process.argv.includes('--methods-only')) {
    benchMethods(root);
    return;
  }
  if (process.argv.includes('--cache-only')) {
    // `npm run bench -- --cache-only`: just the build cache figures (docs/cache.md).
    for (const line of await benchCache(root)) console.log(line);
    return;
  }
  if (process.argv.includes('--budget-only')) {
    // `npm run bench -- --budget-only`: the budget fit against the best uniform scale (docs/formats.md#budget).
    const extras = await benchExtras(root);
    for (const line of await benchBudget(root, extras.motions)) console.log(line);
    return;
  }
  if (process.argv.includes('--build-only')) {
    // `npm run bench -- --build-only`: just the build-scaling figures.
    const extras = await benchExtras(root);
    for (const line of await benchBuild(root, extras.motions)) console.log(line);
    return;
  }
  const motions: [string, Motion][] = [];
  const assets = join(root, 'assets');
  for (const f of readdirSync(assets)
    .filter((f) => f.endsWith('.mtn'))
    .sort())
    motions.push([f, readMtn(new Uint8Array(readFileSync(join(assets, f))))]);
  const extras = await benchExtras(root);
  motions.push(...extras.motions);
  motions.push(['synthetic 60x600', syntheticMotion({ frames: 600, joints: 60, seed: 1, noise: 0.002 })]);
  motions.push([
    'synthetic 60x600 offsets',
    syntheticMotion({ frames: 600, joints: 60, seed: 2, noise: 0.002, offsets: true }),
  ]);

  console.log(
    `ActGuy compression bench (tolerances: position ${options.positionTolerance}, rotation ${options.rotationToleranceDeg} deg, offset ${options.offsetTolerance}); times are medians`,
  );
  const w = [28, 6, 5, 7, 8, 6, 7, 7, 7, 9, 10, 8];
  console.log(
    row(['motion', 'frames', 'jnts', 'keys', 'bytes', 'ratio', 'pos', 'rot', 'off', 'ms', 'naive ms', 'speedup'], w),
  );
  for (const [name, m] of motions) {
    const big = m.frameCount * m.joints.length > 20000;
    const fast = timed(m, methodStrategy(options.method), big ? 5 : 9);
    const slow = timed(m, naiveClassicStrategy, big ? 1 : 3);
    const same = fast.r.totalKeys === slow.r.totalKeys && fast.r.mt3Bytes === slow.r.mt3Bytes;
    console.log(
      row(
        [
          name.slice(0, 28),
          m.frameCount,
          m.joints.length,
          fast.r.totalKeys,
          fast.r.mt3Bytes,
          fast.r.ratio.toFixed(1),
          maxOf(fast.r, 'translation'),
          maxOf(fast.r, 'rotation'),
          maxOf(fast.r, 'offset'),
          fast.ms.toFixed(1),
          slow.ms.toFixed(1),
          `${(slow.ms / fast.ms).toFixed(1)}x`,
        ],
        w,
      ) +
        (same ? '' : '  (naive chose different keys!)') +
        (fast.r.warnings.length ? `  ${fast.r.warnings.length} warning(s)` : ''),
    );
  }
  if (!extras.realDataNote) console.log('');
  else console.log(extras.realDataNote);
  for (const line of await extras.after()) console.log(line);
  for (const line of await benchBuild(root, extras.motions)) console.log(line);
  for (const line of await benchCache(root)) console.log(line);
  for (const line of await benchBudget(root, extras.motions)) console.log(line);
  benchMethods(root);
  benchCompressor(root);
}

if (existsSync(join(root, 'package.json'))) {
  main().catch((e) => {
    console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  });
}
