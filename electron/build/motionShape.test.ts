import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every Motion, whichever way it was made, has one V8 hidden class (makeMotion), and so do its joints array and
 * joint entries. A build compresses motions read from files next to resampled ones; with two shapes V8 optimises
 * the compressor twice per worker (measured: 193-215 TurboFan compilations per pool worker on the bench project
 * before, 159-171 after). Checked with V8's own %HaveSameMap in a child `node --allow-natives-syntax`.
 */
const ROOT = resolve(__dirname, '..', '..');
let dir: string;
let results: Record<string, boolean>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-shape-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `
import { readFileSync } from 'node:fs';
import { readMtn } from ${JSON.stringify(join(ROOT, 'shared/mtn/read'))};
import { resampleMotion } from ${JSON.stringify(join(ROOT, 'shared/motion/resample'))};
import { cloneMotion, emptyMotion } from ${JSON.stringify(join(ROOT, 'shared/motion/types'))};
import { compressMotion } from ${JSON.stringify(join(ROOT, 'shared/compress/compress'))};
import { readMt3 } from ${JSON.stringify(join(ROOT, 'shared/mt3/read'))};
import { decodeMt3ToMotion } from ${JSON.stringify(join(ROOT, 'shared/mt3/decode'))};
import { importBvh } from ${JSON.stringify(join(ROOT, 'shared/interchange/bvh/import'))};
import { spineBvh } from ${JSON.stringify(join(ROOT, 'shared/testing/bvhFixtures'))};
export function motions() {
  const walk = readMtn(new Uint8Array(readFileSync(${JSON.stringify(join(ROOT, 'assets/walk.mtn'))})));
  const walk60 = readMtn(new Uint8Array(readFileSync(${JSON.stringify(join(ROOT, 'assets/walk_60fps.mtn'))})));
  const mt3 = compressMotion(walk, { name: 'walk', positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5 }).bytes;
  const bvh = spineBvh(['0 0 0 0 0 0 0 0 0', '1 0 0 0 0 0 0 0 0']);
  return {
    'read (30 fps)': walk,
    'read (60 fps)': walk60,
    'resampled (60 to 30 fps)': resampleMotion(walk60, 30),
    'resampled (30 to 15.5 fps)': resampleMotion(walk, 15.5),
    'empty': emptyMotion(10, walk.joints.slice(0, 2), 24),
    'cloned': cloneMotion(walk),
    'decoded from MT3': decodeMt3ToMotion(readMt3(mt3), walk),
    'decoded from MT3 without a skeleton': decodeMt3ToMotion(readMt3(mt3)),
    'imported from BVH': importBvh(bvh).motion,
  };
}
`,
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'entry.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  const check = join(dir, 'check.js');
  writeFileSync(
    check,
    `
const all = require('./entry.cjs').motions();
const names = Object.keys(all);
const first = all[names[0]];
const out = {};
// A field that took a new kind of value (a fractional fps) makes V8 deprecate the map of the objects made before;
// it moves each of them to the new map on its next access, so compare after that move.
for (const n of names) {
  %TryMigrateInstance(all[n]);
  for (const j of all[n].joints) %TryMigrateInstance(j);
}
for (const n of names) {
  const m = all[n];
  if (!m) throw new Error(n + ': no motion');
  out[n + ': motion'] = %HaveSameMap(m, first);
  out[n + ': joints array'] = %HaveSameMap(m.joints, first.joints);
  out[n + ': joint entries'] = m.joints.every((j) => %HaveSameMap(j, first.joints[0]));
}
process.stdout.write(JSON.stringify(out));
`,
  );
  results = JSON.parse(
    execFileSync(process.execPath, ['--allow-natives-syntax', check], { cwd: dir, encoding: 'utf8' }),
  );
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one object shape for every motion', () => {
  it('motions read, resampled, empty, cloned, decoded and imported share their hidden classes', () => {
    expect(Object.keys(results)).toHaveLength(27);
    expect(
      Object.entries(results)
        .filter(([, same]) => !same)
        .map(([what]) => what),
    ).toEqual([]);
  });
});
