import { describe, it, expect } from 'vitest';
import {
  EULER_ORDERS,
  bestEulerOrder,
  eulerFilterDeg,
  quatToEulerDeg,
  quatToEulerXYZDeg,
  unwrapDeg,
  type EulerOrder,
} from './euler';
import { readMtn } from '../../shared/mtn/read';
import { buildSeries } from '../curves/series';
// The bundled CMU capture, inlined by Vite (renderer tests have no Node file access).
import cmuDataUrl from '../../assets/cmu_01_01.mtn?inline';

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
      if (yaw > 0)
        maxJump = Math.max(maxJump, Math.abs(out[0] - prev[0]), Math.abs(out[1] - prev[1]), Math.abs(out[2] - prev[2]));
      prev.set(out);
    }
    expect(maxJump).toBeLessThan(10);
    expect(out[1]).toBeCloseTo(180, 6);
  });
});

/** Quaternion (xyzw) of intrinsic Euler angles in degrees per axis, composed in `order` (R = R_order[0] · R_order[1] · R_order[2]). */
function quatOfOrder(order: EulerOrder, angles: number[]): number[] {
  const mul = (a: number[], b: number[]) => [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
  let q = [0, 0, 0, 1];
  for (const ch of order) {
    const axis = ch.charCodeAt(0) - 88;
    const h = (angles[axis] * Math.PI) / 360;
    const r = [0, 0, 0, Math.cos(h)];
    r[axis] = Math.sin(h);
    q = mul(q, r);
  }
  return q;
}

describe('quatToEulerDeg (every rotate order)', () => {
  it('recovers the angles each order composed', () => {
    const out = new Float64Array(3);
    for (const order of EULER_ORDERS) {
      for (const angles of [
        [20, 35, -50],
        [-120, 10, 75],
        [5, -80, 170],
      ]) {
        // The order's middle axis must stay within ±90 for the angles to be the canonical ones.
        const q = quatOfOrder(order, angles);
        quatToEulerDeg(order, q[0], q[1], q[2], q[3], out);
        const mid = order.charCodeAt(1) - 88;
        if (Math.abs(angles[mid]) >= 90) continue;
        expect(
          Array.from(out).map((v) => Number(v.toFixed(6))),
          `${order} ${angles}`,
        ).toEqual(angles.map((v) => Number(v.toFixed(6))));
      }
    }
  });

  it("the filter's other triple is the same rotation in every order", () => {
    for (const order of EULER_ORDERS) {
      const mid = order.charCodeAt(1) - 88;
      const a = [20, 35, -50];
      const b = a.map((v, i) => (i === mid ? 180 - v : v + 180));
      const qa = quatOfOrder(order, a);
      const qb = quatOfOrder(order, b);
      expect(Math.abs(qa.reduce((s, v, i) => s + v * qb[i], 0)), order).toBeCloseTo(1, 12);
    }
  });
});

describe('bestEulerOrder', () => {
  it('keeps XYZ for a joint far from gimbal lock and moves a turn around Y to the outer axis', () => {
    const calm: number[] = [];
    const turn: number[] = [];
    for (let f = 0; f <= 40; f++) {
      calm.push(...quatOfOrder('XYZ', [10 * Math.sin(f / 5), 20, -5]));
      // Turning around the vertical axis by 180 degrees with a slight lean: XYZ passes near Y = 90.
      turn.push(...quatOfOrder('YXZ', [8, f * 4.5, 3]));
    }
    expect(bestEulerOrder(calm, 0, 4, 41)).toBe('XYZ');
    const best = bestEulerOrder(turn, 0, 4, 41);
    expect(best[0]).toBe('Y');
  });

  it("draws CMU 01_01's Hips without the 180 degree swings of XYZ at the turns (frames 274 and 504)", () => {
    const m = readMtn(Uint8Array.from(atob(cmuDataUrl.slice(cmuDataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0)));
    const hips = m.joints.findIndex((j) => j.name === 'Hips');
    expect(hips).toBeGreaterThanOrEqual(0);
    const maxStep = (order: EulerOrder | 'auto') => {
      const s = buildSeries(m, hips, 'euler', null, undefined, order);
      let worst = { step: 0, frame: 0 };
      for (const c of s.components)
        for (let f = 1; f <= m.frameCount; f++) {
          const d = Math.abs(c.source[f] - c.source[f - 1]);
          if (d > worst.step) worst = { step: d, frame: f };
        }
      return { ...worst, order: s.eulerOrder };
    };
    const xyz = maxStep('XYZ');
    // The defect as reported: X and Z swing by more than 60 degrees between two frames near frame 274.
    expect(xyz.step).toBeGreaterThan(60);
    const auto = maxStep('auto');
    expect(auto.order).not.toBe('XYZ');
    expect(auto.step).toBeLessThan(15);
  });
});
