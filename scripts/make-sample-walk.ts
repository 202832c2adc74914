/**
 * Writes assets/walk.mtn, the synthetic walk sample (see scripts/samples/walk.ts).
 * Run: `npm run make-samples` (all samples), or
 * `node scripts/build.mjs samples && node dist/gen/make-sample-walk.cjs [out.mtn]`.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../electron/fsutil';
import { writeMtn } from '../shared/mtn/write';
import { buildSampleWalk } from './samples/walk';

const out = process.argv[2] ?? join(process.cwd(), 'assets', 'walk.mtn');
const bytes = writeMtn(buildSampleWalk());
writeFileAtomic(out, bytes);
console.log(`wrote ${out} (${bytes.byteLength} bytes)`);
