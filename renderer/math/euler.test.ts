import { describe, it, expect } from 'vitest';
import { eulerFilterDeg, quatToEulerXYZDeg, unwrapDeg } from './euler';

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

describe('eulerFilterDeg', () => {
  /** Quaternion of intrinsic XYZ Euler angles in degrees (R = Rx * Ry * Rz). */
  function quatOf(x: number, y: number, z: number): number[] {
    const h = (d: number) => (d * Math.PI) / 360;
    const qx = [Math.sin(h(x)), 0, 0, Math.cos(h(x))];
    const qy = [0, Math.sin(h(y)), 0, Math.cos(h(y))];
    const qz = [0, 0, Math.sin(h(z)), Math.cos(h(z))];
    const mul = (a: number[], b: number[]) => [
      a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
      a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
      a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
      a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ];
    return mul(mul(qx, qy), qz);
  }

  it('the alternative triple is the same rotation', () => {
    const a = quatOf(20, 35, -50);
    const b = quatOf(200, 145, 130);
    const dot = a.reduce((s, v, i) => s + v * b[i], 0);
    expect(Math.abs(dot)).toBeCloseTo(1, 12);
  });

  it('keeps a yaw through 90 degrees continuous', () => {
    const out = new Float64Array(3);
    const prev = new Float64Array(3);
    let maxJump = 0;
    for (let yaw = 0; yaw <= 180; yaw += 5) {
      const q = quatOf(3, yaw, -2);
      const e = new Float64Array(3);
      quatToEulerXYZDeg(q[0], q[1], q[2], q[3], e);
      if (yaw === 0) out.set(e);
      else eulerFilterDeg(prev, e, out);
      if (yaw > 0) maxJump = Math.max(maxJump, Math.abs(out[0] - prev[0]), Math.abs(out[1] - prev[1]), Math.abs(out[2] - prev[2]));
      prev.set(out);
    }
    expect(maxJump).toBeLessThan(10);
    expect(out[1]).toBeCloseTo(180, 6);
  });
});
