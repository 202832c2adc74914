import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { KeyFlag, MotionFlag, lockedJointAt, translationFlagsAt, jointFlagsAt } from '../shared/motion/types';
import { skeletonHeight, worldPose } from '../shared/interchange/kinematics';
import { buildSampleWalk } from './samples/walk';

const walkPath = join(__dirname, '..', 'assets', 'walk.mtn');

describe('assets/walk.mtn (synthetic walk sample)', () => {
  const bytes = new Uint8Array(readFileSync(walkPath));
  const m = readMtn(bytes); // reads and validates (throws on any invariant broken)
  const J = m.joints.length;
  const N = m.frameCount;

  it('is a 30 fps humanoid of 22+ joints and 120+ frames, parents first', () => {
    expect(m.fps).toBe(30);
    expect(J).toBeGreaterThanOrEqual(22);
    expect(N).toBeGreaterThanOrEqual(120);
    m.joints.forEach((jt, j) => expect(jt.parent).toBeLessThan(j));
    const names = m.joints.map((j) => j.name);
    for (const n of [
      'Hips',
      'Spine',
      'Neck',
      'Head',
      'LeftShoulder',
      'LeftArm',
      'LeftForeArm',
      'LeftHand',
      'LeftUpLeg',
      'LeftLeg',
      'LeftFoot',
      'LeftToeBase',
    ])
      expect(names).toContain(n);
    // About 170 cm tall in centimetres.
    expect(skeletonHeight(m)).toBeGreaterThan(160);
    expect(skeletonHeight(m)).toBeLessThan(180);
  });

  it('has symmetric mirror pairs and lower/upper parts', () => {
    const byName = new Map(m.joints.map((j, i) => [j.name, i]));
    for (const [j, jt] of m.joints.entries()) {
      expect(m.joints[jt.mirror].mirror).toBe(j);
      if (jt.name.startsWith('Left')) expect(m.joints[jt.mirror].name).toBe(jt.name.replace('Left', 'Right'));
      const lower = jt.name === 'Hips' || /Leg|Foot|Toe/.test(jt.name);
      expect(jt.part).toBe(lower ? 0 : 1);
    }
    expect(byName.get('Hips')).toBe(0);
    expect(m.flags & (MotionFlag.MIRROR_UPPER | MotionFlag.MIRROR_LOWER)).toBe(
      MotionFlag.MIRROR_UPPER | MotionFlag.MIRROR_LOWER,
    );
  });

  it('walks forward along +Z with a vertical bob and constant offsets', () => {
    const z = (f: number) => m.translation[f * 4 + 2];
    const y = (f: number) => m.translation[f * 4 + 1];
    expect(z(N) - z(0)).toBeGreaterThan(300);
    for (let f = 1; f <= N; f++) expect(z(f)).toBeGreaterThanOrEqual(z(f - 1));
    let lo = Infinity,
      hi = -Infinity;
    for (let f = 0; f <= N; f++) {
      lo = Math.min(lo, y(f));
      hi = Math.max(hi, y(f));
    }
    expect(hi - lo).toBeGreaterThan(2);
    expect(hi - lo).toBeLessThan(10);
    for (let f = 1; f <= N; f++) for (let i = 0; i < J * 4; i++) expect(m.offset[f * J * 4 + i]).toBe(m.offset[i]);
    expect(m.flags & MotionFlag.OFFSETS).toBe(0);
  });

  it('has user keys, trace keys and foot locks where the foot really is still', () => {
    const rootKeys = [],
      traceKeys = [];
    for (let f = 0; f <= N; f++) {
      if (translationFlagsAt(m, f) & KeyFlag.KEY) rootKeys.push(f);
      if (translationFlagsAt(m, f) & KeyFlag.TRACE) traceKeys.push(f);
    }
    expect(rootKeys.length).toBeGreaterThanOrEqual(3);
    expect(traceKeys.filter((f) => f > 0 && f < N).length).toBeGreaterThanOrEqual(2);
    let jointKeys = 0;
    for (let f = 0; f <= N; f++) for (let j = 0; j < J; j++) if (jointFlagsAt(m, f, j) & KeyFlag.KEY) jointKeys++;
    expect(jointKeys).toBeGreaterThanOrEqual(3);

    let locked = 0;
    for (let f = 0; f <= N; f++) {
      const j = lockedJointAt(m, f);
      if (j < 0) continue;
      locked++;
      expect(m.joints[j].name).toMatch(/Foot$/);
      if (f > 0 && lockedJointAt(m, f - 1) === j) {
        // A locked joint stays put in X and Z (what the runtime's lock correction assumes).
        const a = worldPose(m, f - 1).positions,
          b = worldPose(m, f).positions;
        expect(Math.hypot(a[j * 3] - b[j * 3], a[j * 3 + 2] - b[j * 3 + 2])).toBeLessThan(0.01);
      }
    }
    expect(locked).toBeGreaterThanOrEqual(10);
  });

  it('no foot goes below the floor', () => {
    for (let f = 0; f <= N; f++) {
      const p = worldPose(m, f).positions;
      for (let j = 0; j < J; j++) expect(p[j * 3 + 1]).toBeGreaterThan(1.5);
    }
  });

  it('is what the generator produces, deterministically', () => {
    const a = writeMtn(buildSampleWalk());
    const b = writeMtn(buildSampleWalk());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const fresh = readMtn(a);
    expect(fresh.joints).toEqual(m.joints);
    expect(fresh.translationKeyInfo).toEqual(m.translationKeyInfo);
    expect(fresh.jointKeyInfo).toEqual(m.jointKeyInfo);
    for (let i = 0; i < m.rotation.length; i++) expect(Math.abs(fresh.rotation[i] - m.rotation[i])).toBeLessThan(1e-5);
    for (let i = 0; i < m.translation.length; i++)
      expect(Math.abs(fresh.translation[i] - m.translation[i])).toBeLessThan(1e-3);
  });
});
