import { describe, expect, it } from 'vitest';
import { validateMotion } from '../mtn/validate';
import { syntheticMotion } from '../testing/syntheticMotion';
import { quatSlerpShortest } from '../interchange/kinematics';
import { resampleMotion } from './resample';
import { KeyFlag } from './types';

describe('resampleMotion', () => {
  it('halves a 60 fps motion to 30 fps by taking every 2nd sample exactly', () => {
    const m = syntheticMotion({ frames: 40, joints: 4, seed: 11, offsets: true });
    m.fps = 60;
    const r = resampleMotion(m, 30);
    expect(r.fps).toBe(30);
    expect(r.frameCount).toBe(20);
    for (let f = 0; f <= 20; f++) {
      expect(Array.from(r.translation.subarray(f * 4, f * 4 + 4))).toEqual(
        Array.from(m.translation.subarray(2 * f * 4, 2 * f * 4 + 4)),
      );
      for (let j = 0; j < 4; j++) {
        const a = Array.from(r.rotation.subarray((f * 4 + j) * 4, (f * 4 + j) * 4 + 4));
        const b = Array.from(m.rotation.subarray((2 * f * 4 + j) * 4, (2 * f * 4 + j) * 4 + 4));
        expect(a.map(Math.abs)).toEqual(b.map(Math.abs));
        expect(Array.from(r.offset.subarray((f * 4 + j) * 4, (f * 4 + j) * 4 + 4))).toEqual(
          Array.from(m.offset.subarray((2 * f * 4 + j) * 4, (2 * f * 4 + j) * 4 + 4)),
        );
      }
    }
    validateMotion(r);
  });

  it('interpolates between samples when upsampling (lerp positions)', () => {
    const m = syntheticMotion({ frames: 10, joints: 2, seed: 5 });
    const r = resampleMotion(m, 60);
    expect(r.frameCount).toBe(20);
    expect(r.translation[4]).toBeCloseTo((m.translation[0] + m.translation[4]) / 2, 5);
  });

  it('carries user keys and trace keys to the nearest frame and keeps lock ranges whole, one lock per frame', () => {
    const m = syntheticMotion({ frames: 20, joints: 3, seed: 2 });
    m.translationKeyInfo.fill(0);
    m.jointKeyInfo.fill(0);
    m.fps = 60;
    m.translationKeyInfo[7 * 4] = KeyFlag.KEY | KeyFlag.TRACE | 0x100; // an unknown bit rides along
    m.jointKeyInfo[(9 * 3 + 1) * 4] = KeyFlag.KEY;
    for (let f = 12; f <= 15; f++) m.jointKeyInfo[(f * 3 + 2) * 4] = KeyFlag.LOCK;
    const down = resampleMotion(m, 30);
    expect(down.translationKeyInfo[4 * 4]).toBe(KeyFlag.KEY | KeyFlag.TRACE | 0x100); // frame 7 -> round(3.5) = 4
    expect(down.jointKeyInfo[(5 * 3 + 1) * 4]).toBe(KeyFlag.KEY); // 9 -> round(4.5) = 5
    const locked = (mm: typeof m, j: number) =>
      Array.from({ length: mm.frameCount + 1 }, (_, f) => f).filter(
        (f) => mm.jointKeyInfo[(f * 3 + j) * 4] & KeyFlag.LOCK,
      );
    expect(locked(down, 2)).toEqual([6, 7, 8]);
    m.fps = 30;
    const up = resampleMotion(m, 60);
    expect(locked(up, 2)).toEqual([24, 25, 26, 27, 28, 29, 30]);
    validateMotion(up);
    validateMotion(down);
  });

  it('slerps rotations along the shorter arc and lerps root and offsets at every fractional position (30 -> 24 fps)', () => {
    const m = syntheticMotion({ frames: 30, joints: 4, seed: 7, offsets: true });
    // A sign flip on one sample (7, interpolated with 6 for frame 5): the shorter arc must still be taken.
    for (let c = 0; c < 4; c++) m.rotation[(7 * 4 + 2) * 4 + c] = -m.rotation[(7 * 4 + 2) * 4 + c];
    const r = resampleMotion(m, 24);
    expect(r.frameCount).toBe(24);
    const J = 4;
    let fractional = 0;
    for (let f = 0; f <= r.frameCount; f++) {
      const s = (f * 30) / 24,
        a = Math.floor(s + 1e-9),
        b = Math.min(a + 1, 30),
        u = s - a < 1e-9 ? 0 : s - a;
      if (u > 0) fractional++;
      for (let c = 0; c < 3; c++)
        expect(r.translation[f * 4 + c]).toBeCloseTo(
          m.translation[a * 4 + c] * (1 - u) + m.translation[b * 4 + c] * u,
          4,
        );
      for (let j = 0; j < J; j++) {
        const ia = (a * J + j) * 4,
          ib = (b * J + j) * 4,
          io = (f * J + j) * 4;
        for (let c = 0; c < 3; c++)
          expect(r.offset[io + c]).toBeCloseTo(m.offset[ia + c] * (1 - u) + m.offset[ib + c] * u, 4);
        const want = slerpByAngle(
          Array.from(m.rotation.subarray(ia, ia + 4)),
          Array.from(m.rotation.subarray(ib, ib + 4)),
          u,
        );
        const got = Array.from(r.rotation.subarray(io, io + 4));
        // Same rotation (q and -q are one rotation; the output is made continuous afterwards).
        expect(Math.abs(got.reduce((d, x, c) => d + x * want[c], 0))).toBeGreaterThan(1 - 1e-6);
      }
    }
    expect(fractional).toBeGreaterThan(15);
    validateMotion(r);
  });

  it('interpolates nearly equal rotations linearly and then normalises', () => {
    const a = [0, 0, Math.sin(0.1), Math.cos(0.1)];
    const b = [0, 0, Math.sin(0.1 + 1e-6), Math.cos(0.1 + 1e-6)];
    const q = quatSlerpShortest(a, b, 0.25);
    const l = a.map((x, c) => 0.75 * x + 0.25 * b[c]);
    const n = Math.hypot(...l);
    expect(q).toEqual(l.map((x) => x / n));
    // Degenerate input (never in a valid motion): the identity.
    expect(quatSlerpShortest([0, 0, 0, 0], [0, 0, 0, 0], 0.5)).toEqual([0, 0, 0, 1]);
  });
});

/** Slerp written differently: rotate a by the fraction u of the relative rotation's angle, about its axis. */
function slerpByAngle(a: number[], b: number[], u: number): number[] {
  if (a.reduce((d, x, c) => d + x * b[c], 0) < 0) b = b.map((x) => -x);
  const mul = (p: number[], q: number[]) => [
    p[3] * q[0] + p[0] * q[3] + p[1] * q[2] - p[2] * q[1],
    p[3] * q[1] - p[0] * q[2] + p[1] * q[3] + p[2] * q[0],
    p[3] * q[2] + p[0] * q[1] - p[1] * q[0] + p[2] * q[3],
    p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
  ];
  const norm = (q: number[]) => q.map((x) => x / Math.hypot(...q));
  const rel = mul([-a[0], -a[1], -a[2], a[3]], b);
  const half = Math.atan2(Math.hypot(rel[0], rel[1], rel[2]), rel[3]);
  const s = Math.hypot(rel[0], rel[1], rel[2]);
  if (s < 1e-12) return norm(a);
  const k = Math.sin(half * u) / s;
  return norm(mul(norm(a), [rel[0] * k, rel[1] * k, rel[2] * k, Math.cos(half * u)]));
}
