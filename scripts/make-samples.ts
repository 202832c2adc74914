/**
 * Regenerates every bundled sample in assets/ (`npm run make-samples`):
 * - assets/walk.mtn: the synthetic walk (scripts/samples/walk.ts);
 * - assets/walk_60fps.mtn: the same walk resampled to 60 fps (the sample
 *   project lists it with "resample": true, to show a build resampling it);
 * - assets/cmu_01_01.mtn: CMU mocap 01_01 converted from BVH at 30 fps, when
 *   the Debian package assimp-testmodels is installed (otherwise skipped with
 *   the reason printed; the committed file stays as it is).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../electron/fsutil';
import { listRealBvhSamples, realBvhSamplesMissingReason } from '../electron/interchange/realBvhSamples';
import { importBvh } from '../shared/interchange/bvh/import';
import { resampleMotion } from '../shared/motion/resample';
import { writeMtn } from '../shared/mtn/write';
import { buildSampleWalk } from './samples/walk';

const assets = join(process.cwd(), 'assets');

function write(name: string, bytes: Uint8Array): void {
  const out = join(assets, name);
  writeFileAtomic(out, bytes);
  console.log(`wrote ${out} (${bytes.byteLength} bytes)`);
}

const walk = buildSampleWalk();
write('walk.mtn', writeMtn(walk));
write('walk_60fps.mtn', writeMtn(resampleMotion(walk, 60)));

// CMU 01_01 at 30 fps, in centimetres like walk.mtn (CMU units are 1/0.45 inch).
const cmu = listRealBvhSamples().find((s) => s.name === '01_01');
if (cmu) {
  const { motion, warnings } = importBvh(readFileSync(cmu.path, 'utf8'), { fps: 30, scale: cmu.centimetresPerUnit });
  for (const w of warnings) console.log(`cmu_01_01: warning: ${w.message}`);
  write('cmu_01_01.mtn', writeMtn(motion));
} else {
  console.log(`skip assets/cmu_01_01.mtn: ${realBvhSamplesMissingReason() ?? 'sample 01_01 not found'}`);
}
