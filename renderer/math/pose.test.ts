import { describe, it, expect } from 'vitest';
import { createPoseBuffers, solvePose } from './pose';

describe('solvePose', () => {
  it('chains offsets through parent rotations', () => {
    // Root rotated 90 degrees about Y: a child offset along +X ends up along -Z.
    const s = Math.SQRT1_2;
    const rots = [
      [0, s, 0, s],
      [0, 0, 0, 1],
      [0, 0, 0, 1],
    ];
    const offs = [
      [0, 0, 0],
      [10, 0, 0],
      [0, 5, 0],
    ];
    const buf = createPoseBuffers(3);
    solvePose(
      [-1, 0, 1],
      [1, 2, 3],
      (j, o) => o.set(rots[j]),
      (j, o) => o.set(offs[j]),
      buf,
    );
    const p = Array.from(buf.positions).map((v) => Math.round(v * 1e4) / 1e4);
    expect(p.slice(0, 3)).toEqual([1, 2, 3]);
    expect(p.slice(3, 6)).toEqual([1, 2, -7]);
    expect(p.slice(6, 9)).toEqual([1, 7, -7]);
  });
});
