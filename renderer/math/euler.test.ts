import { describe, it, expect } from 'vitest';
import { quatToEulerXYZDeg, unwrapDeg } from './euler';

describe('quatToEulerXYZDeg', () => {
  it('returns the single-axis angle for axis rotations', () => {
    const out = new Float64Array(3);
    const h = (deg: number) => (deg * Math.PI) / 360;
    quatToEulerXYZDeg(Math.sin(h(30)), 0, 0, Math.cos(h(30)), out);
    expect(Array.from(out).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([30, 0, 0]);
    quatToEulerXYZDeg(0, Math.sin(h(-45)), 0, Math.cos(h(-45)), out);
    expect(Array.from(out).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([0, -45, 0]);
    quatToEulerXYZDeg(0, 0, Math.sin(h(120)), Math.cos(h(120)), out);
    expect(Array.from(out).map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([0, 0, 120]);
  });
  it('unwraps across the +-180 seam', () => {
    expect(unwrapDeg(-179, 179)).toBe(181);
    expect(unwrapDeg(10, 5)).toBe(10);
  });
});
