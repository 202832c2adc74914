/**
 * The SHA-256 of every output a compressor change must keep (docs/compression.md, round 8): every bundled capture
 * (assets/*.mtn resampled, the assimp-testmodels BVH files in centimetres) at 30 and 120 fps, at 0.05 u / 0.5 deg and
 * at the floor 0.005 u / 0.05 deg, classic, refined and skeleton-aware (an object-space bound of twice the position
 * tolerance, and of 1 u, with each method), `deepChainMotion` 8,000 x 24 skeleton-aware at 0.5 u with each method, and every
 * run of `roundFiveCase` seeds 0-23 (motions no capture looks like: refined, classic and skeleton-aware). One line
 * a run: label, sha256 of the MT3 bytes, total keys, rounds, object-space error. Run it on the code before and after
 * a change and compare the files:
 *
 *   node scripts/build.mjs digests --quiet && node dist/digests/compressDigests.cjs [--only SUBSTRING] > before.txt
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressMotion } from '../shared/compress/compress';
import type { CompressOptions } from '../shared/compress/types';
import { bvhToMotion } from '../shared/interchange/bvh/import';
import { parseBvh } from '../shared/interchange/bvh/parse';
import type { Motion } from '../shared/motion/types';
import { resampleMotion } from '../shared/motion/resample';
import { readMtn } from '../shared/mtn/read';
import { deepChainMotion, roundFiveCase } from '../shared/testing/roundFiveMotions';
import { listRealBvhSamples } from '../electron/interchange/realBvhSamples';

const root = join(__dirname, '..', '..');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : '';

const motions: [string, () => Motion][] = [];
for (const fps of [30, 120]) {
  for (const f of readdirSync(join(root, 'assets'))
    .filter((n) => n.endsWith('.mtn'))
    .sort())
    motions.push([
      `${f}@${fps}`,
      () => resampleMotion(readMtn(new Uint8Array(readFileSync(join(root, 'assets', f)))), fps),
    ]);
  for (const s of listRealBvhSamples())
    motions.push([
      `${s.name}.bvh@${fps}`,
      () => bvhToMotion(parseBvh(readFileSync(s.path, 'utf8')), { fps, scale: s.centimetresPerUnit }).motion,
    ]);
}

const levels = [
  { label: '0.05', positionTolerance: 0.05, offsetTolerance: 0.05, rotationToleranceDeg: 0.5 },
  { label: 'floor', positionTolerance: 0.005, offsetTolerance: 0.005, rotationToleranceDeg: 0.05 },
];
const modes: [string, (p: number) => Partial<CompressOptions>][] = [
  ['classic', () => ({ method: 'classic' })],
  ['refined', () => ({ method: 'refined' })],
  ['skeleton-refined', (p) => ({ method: 'refined', objectTolerance: 2 * p })],
  ['skeleton-classic', (p) => ({ method: 'classic', objectTolerance: 2 * p })],
  // Above the captures' floors: the rounds that key the peaks, not the floor's hold.
  ['skeleton-refined-1u', () => ({ method: 'refined', objectTolerance: 1 })],
  ['skeleton-classic-1u', () => ({ method: 'classic', objectTolerance: 1 })],
];

function line(label: string, motion: Motion, options: CompressOptions): void {
  const r = compressMotion(motion, options);
  const sha = createHash('sha256').update(r.bytes).digest('hex');
  const rounds = r.skeleton?.rounds ?? 0;
  console.log(`${label} ${sha} keys=${r.totalKeys} rounds=${rounds} object=${r.objectError?.maxError}`);
}

for (const [name, load] of motions) {
  if (only && !name.includes(only)) continue;
  const motion = load();
  for (const level of levels)
    for (const [mode, extra] of modes)
      line(`${name} ${level.label} ${mode}`, motion, { name: 'digest', ...level, ...extra(level.positionTolerance) });
}
if (!only || 'chain'.includes(only)) {
  const chain = deepChainMotion(8000, 24);
  for (const method of ['refined', 'classic'] as const)
    line(`chain8000x24 0.5 skeleton-${method}`, chain, {
      name: 'digest',
      positionTolerance: 0.5,
      offsetTolerance: 0.5,
      rotationToleranceDeg: 0.5,
      method,
      objectTolerance: 0.5,
    });
}
if (!only || 'round5'.includes(only))
  for (let seed = 0; seed < 24; seed++) {
    const c = roundFiveCase(seed);
    for (const run of c.runs) line(`round5 seed ${seed} ${run.label.replaceAll(' ', '_')}`, c.motion, run.options);
  }
