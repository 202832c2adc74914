import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../motion/types';
import { writeMtn } from '../mtn/write';
import { projectDurations } from './durations';
import { parseProject } from './validate';

describe('projectDurations', () => {
  it('reads and decodes each motion file once, however many motions name it (round 13)', () => {
    // A received project naming one sparse 750 MiB .mtn (a few bytes in an archive) 20 times held `actguy info` 309 s
    // and 2.1 GB, reading and decoding it once per motion; at the 4096 entries a project may hold, hours
    // (docs/security.md).
    const motion = emptyMotion(30, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }]);
    for (let f = 0; f <= 30; f++) motion.rotation[f * 4 + 3] = 1;
    const bytes = writeMtn(motion);
    const motions = Array.from({ length: 5 }, (_, k) => ({ name: `m${k}`, mtn: k < 4 ? 'same.mtn' : 'other.mtn' }));
    const resolved = parseProject(
      JSON.stringify({ version: 1, motions, outputs: { mar: 'o/s.mar', sar: 'o/s.sar' } }),
      'p.actguy.json',
    ).resolved!;
    const reads: string[] = [];
    const entries = projectDurations(resolved, (path) => {
      reads.push(path);
      if (path.endsWith('other.mtn')) throw new Error('no such file or directory');
      return bytes;
    });
    expect(reads.map((p) => p.slice(p.lastIndexOf('/') + 1))).toEqual(['same.mtn', 'other.mtn']);
    expect(entries.map((e) => e.durationMs)).toEqual([1000, 1000, 1000, 1000, undefined]);
    expect(entries[4].problem).toContain('cannot read');
  });
});
