/**
 * Regenerates every bundled sample in assets/ (`npm run make-samples`):
 * - assets/walk.mtn: the synthetic walk (scripts/samples/walk.ts);
 * - assets/cmu_01_01.mtn: CMU mocap 01_01 converted from BVH at 30 fps, when
 *   the Debian package assimp-testmodels is installed (otherwise skipped with
 *   the reason printed; the committed file stays as it is).
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../electron/fsutil';
import { writeMtn } from '../shared/mtn/write';
import { buildSampleWalk } from './samples/walk';

const assets = join(process.cwd(), 'assets');

function write(name: string, bytes: Uint8Array): void {
  const out = join(assets, name);
  writeFileAtomic(out, bytes);
  console.log(`wrote ${out} (${bytes.byteLength} bytes)`);
}

write('walk.mtn', writeMtn(buildSampleWalk()));
