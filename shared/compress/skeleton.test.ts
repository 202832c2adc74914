/**
 * The skeleton-aware mode's allocation (compress.ts, compressSkeletonAware), computed here
 * independently from the skeleton: each joint's rotation tolerance starts at three times its
 * guaranteed share min(180°, D_rot / (chain_j * reach_j)), capped by a user override; the root
 * translation takes min(position tolerance, D / 4), offsets min(offset tolerance, D / (4 depth)),
 * and rounds that go over only tighten the joints on the chains that went over.
 */
import { describe, expect, it } from 'vitest';
import { MotionFlag, type Motion } from '../motion/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import { compressMotion } from './compress';
import type { CompressOptions, CompressResult } from './types';

const base: CompressOptions = {
  positionTolerance: 0.5,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.5,
  name: 'skel',
  method: 'classic',
};

/** reach (longest offset path below the joint + shell), chain (joints on the longest root-to-leaf chain through it), depth. */
function geometry(m: Motion, shell: number) {
  const J = m.joints.length;
  const length = m.joints.map((_, j) => {
    let best = 0;
    for (let f = 0; f <= m.frameCount; f++) {
      const i = (f * J + j) * 4;
      best = Math.max(best, Math.hypot(m.offset[i], m.offset[i + 1], m.offset[i + 2]));
    }
    return best;
  });
  const children = (j: number) => m.joints.flatMap((x, k) => (x.parent === j ? [k] : []));
  const below = (j: number): number => Math.max(0, ...children(j).map((k) => length[k] + below(k)));
  const levels = (j: number): number => Math.max(0, ...children(j).map((k) => 1 + levels(k)));
  const depth = (j: number): number => (m.joints[j].parent < 0 ? 1 : 1 + depth(m.joints[j].parent));
  return m.joints.map((_, j) => ({ reach: below(j) + shell, chain: depth(j) + levels(j), depth: depth(j) }));
}

const rotTol = (r: CompressResult, j: number) =>
  r.channels.find((c) => c.kind === 'rotation' && c.joint === j)!.tolerance;

describe('skeleton-aware allocation', () => {
  it('starts every joint at three times its guaranteed share of the object tolerance, capped by an override', () => {
    const m = syntheticMotion({ frames: 90, joints: 7, seed: 12, noise: 0.002 });
    const D = 40;
    const shell = 3;
    const r = compressMotion(m, { ...base, objectTolerance: D, shell, rotationToleranceOverridesDeg: { 2: 0.05 } });
    // A generous tolerance: the first round holds.
    expect(r.skeleton).toMatchObject({ objectTolerance: D, shell, rounds: 1, met: true, positionTolerance: 0.5 });
    const g = geometry(m, shell);
    const dRot = D - 0.5;
    for (let j = 0; j < m.joints.length; j++) {
      const guaranteed = Math.min(180, (dRot / (g[j].chain * g[j].reach)) * (180 / Math.PI));
      expect(rotTol(r, j)).toBeCloseTo(j === 2 ? Math.min(0.05, 3 * guaranteed) : 3 * guaranteed, 10);
    }
    expect(r.channels.find((c) => c.kind === 'translation')!.tolerance).toBe(0.5);
  });

  it('gives the root translation a quarter of a tight object tolerance, and the offsets their share per depth', () => {
    const m = syntheticMotion({ frames: 60, joints: 5, seed: 3, offsets: true, noise: 0.002 });
    const D = 1.2;
    const shell = 2;
    const r = compressMotion(m, { ...base, objectTolerance: D, shell });
    const g = geometry(m, shell);
    const maxDepth = Math.max(...g.map((x) => x.depth));
    expect(m.flags & MotionFlag.OFFSETS).toBeTruthy();
    expect(r.skeleton!.positionTolerance).toBeCloseTo(D / 4, 12);
    expect(r.skeleton!.offsetTolerance).toBeCloseTo(Math.min(0.5, D / (4 * maxDepth)), 12);
    expect(r.channels.find((c) => c.kind === 'translation')!.tolerance).toBeCloseTo(D / 4, 12);
    for (const c of r.channels.filter((x) => x.kind === 'offset'))
      expect(c.tolerance).toBeCloseTo(Math.min(0.5, D / (4 * maxDepth)), 12);
    if (r.skeleton!.rounds === 1) {
      const dRot = D - D / 4 - maxDepth * Math.min(0.5, D / (4 * maxDepth));
      for (let j = 0; j < m.joints.length; j++)
        expect(rotTol(r, j)).toBeCloseTo(3 * Math.min(180, (dRot / (g[j].chain * g[j].reach)) * (180 / Math.PI)), 10);
    }
  });

  it('after a round that goes over, tightens only the joints on the chains that went over, and then holds', () => {
    const m = syntheticMotion({ frames: 150, joints: 8, seed: 42, noise: 0.02 });
    const shell = 10;
    // Tight enough that the optimistic first round goes over somewhere, loose enough to hold before the fallback.
    const r = compressMotion(m, { ...base, objectTolerance: 0.6, shell });
    expect(r.skeleton!.rounds).toBeGreaterThan(1);
    expect(r.skeleton!.rounds).toBeLessThanOrEqual(6);
    expect(r!.skeleton!.met).toBe(true);
    expect(r!.objectError!.maxError).toBeLessThanOrEqual(r!.skeleton!.objectTolerance);
    const D = r!.skeleton!.objectTolerance;
    const g = geometry(m, shell);
    const dRot = D - Math.min(0.5, D / 4);
    const start = (j: number) => 3 * Math.min(180, (dRot / (g[j].chain * g[j].reach)) * (180 / Math.PI));
    // Every joint is at or under its start; some were tightened, and a tightened joint's parent was too.
    const tightened = m.joints.map((_, j) => rotTol(r!, j) < start(j) - 1e-12);
    for (let j = 0; j < m.joints.length; j++) expect(rotTol(r!, j)).toBeLessThanOrEqual(start(j) + 1e-12);
    expect(tightened.some(Boolean)).toBe(true);
    // A joint on no chain that went over keeps its start.
    expect(tightened.every(Boolean)).toBe(false);
    for (let j = 0; j < m.joints.length; j++) if (!tightened[j]) expect(rotTol(r!, j)).toBeCloseTo(start(j), 12);
    for (let j = 1; j < m.joints.length; j++) if (tightened[j]) expect(tightened[m.joints[j].parent]).toBe(true);
  });

  it('falls back to the guaranteed allocation after six rounds that go over, and says when even that does not hold', () => {
    const m = syntheticMotion({ frames: 150, joints: 8, seed: 42, noise: 0.02 });
    const shell = 10;
    const D = 0.4;
    const r = compressMotion(m, { ...base, objectTolerance: D, shell, rotationToleranceOverridesDeg: { 6: 0.01 } });
    expect(r.skeleton!.rounds).toBe(7);
    const g = geometry(m, shell);
    const dRot = D - Math.min(0.5, D / 4);
    for (let j = 0; j < m.joints.length; j++) {
      const guaranteed = Math.min(180, (dRot / (g[j].chain * g[j].reach)) * (180 / Math.PI));
      expect(rotTol(r, j)).toBeCloseTo(j === 6 ? Math.min(0.01, guaranteed) : guaranteed, 12);
    }
    // The stored precision keeps this motion over the bound even then: reported, not hidden.
    expect(r.skeleton!.met).toBe(r.objectError!.maxError <= D);
    expect(r.skeleton!.met).toBe(false);
  });
});
