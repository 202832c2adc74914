import { describe, expect, it } from 'vitest';
import { decodeMt3 } from '../../shared/mt3/decode';
import { randomMt3 } from '../../shared/mt3/testFixtures';
import { decodeResult } from './decodedResult';

describe('decodeResult', () => {
  it('decodes as decodeMt3 does, and reuses the decode of every track a later result shares', () => {
    const a = randomMt3(3, { numFrames: 90, numJoints: 4 });
    const b = randomMt3(4, { numFrames: 90, numJoints: 4 });
    const da = decodeResult(a);
    expect(da).toEqual(decodeMt3(a, true));
    expect(decodeResult(a)).toBe(da);
    // The next result: joint 1 and the root changed, the rest are the same track objects.
    const next = { ...a, root: b.root, rotations: a.rotations.map((t, j) => (j === 1 ? b.rotations[1] : t)) };
    const dn = decodeResult(next);
    expect(dn).toEqual(decodeMt3(next, true));
    expect(dn.rotations[0]).toBe(da.rotations[0]);
    expect(dn.rotations[2]).toBe(da.rotations[2]);
    expect(dn.rotations[1]).not.toBe(da.rotations[1]);
    expect(dn.root).not.toBe(da.root);
    expect(dn.offsets![0]).toBe(da.offsets![0]);
  });
});
