import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { encodeH16 } from '../math/half';
import { KeyFlag, MotionFlag } from '../motion/types';
import { Mt3Flag } from '../mt3/types';
import { independentErrors } from '../testing/independentDecode';
import { syntheticMotion } from '../testing/syntheticMotion';
import { compressMotion, compressMotionWith } from './compress';
import { initialKeys } from './keyList';
import { naiveClassicStrategy } from './naive';
import type { CompressMethod, CompressOptions } from './types';

const options = (tol: number, method: CompressMethod = 'refined'): CompressOptions => ({
  positionTolerance: tol,
  rotationToleranceDeg: tol,
  offsetTolerance: tol,
  name: 'test_motion',
  method,
});

describe('compressMotion on random motions', () => {
  const cases = [
    { seed: 1, frames: 120, joints: 5, tol: 0.5, offsets: false, noise: 0 },
    { seed: 2, frames: 300, joints: 4, tol: 0.1, offsets: true, noise: 0.01 },
    { seed: 3, frames: 700, joints: 3, tol: 2, offsets: false, noise: 0 },
    { seed: 4, frames: 90, joints: 6, tol: 0.05, offsets: true, noise: 0.02 },
    { seed: 5, frames: 1, joints: 2, tol: 0.5, offsets: false, noise: 0 },
    { seed: 6, frames: 260, joints: 3, tol: 1, offsets: false, noise: 0.05 },
  ];
  for (const c of cases)
    for (const method of ['refined', 'classic'] as const) {
      it(`${method}, seed ${c.seed}: ${c.frames} frames, ${c.joints} joints, tolerance ${c.tol}${c.offsets ? ', offsets' : ''}`, () => {
        const m = syntheticMotion({
          frames: c.frames,
          joints: c.joints,
          seed: c.seed,
          offsets: c.offsets,
          noise: c.noise,
          userKeys: 4,
          locks: 3,
          traceKeys: 3,
        });
        m.flags |= MotionFlag.DIRECTION | MotionFlag.MIRROR_LOWER;
        m.waistJoint = c.joints - 1;
        const r = compressMotion(m, options(c.tol, method));
        expect(r.method).toBe(method);
        const ind = independentErrors(m, r.bytes);
        const N = m.frameCount,
          J = m.joints.length;

        // Reported errors equal the independent decode of the written bytes.
        const byChannel = (kind: string, joint: number) =>
          r.channels.find((ch) => ch.kind === kind && ch.joint === joint)!;
        const check = (kind: string, joint: number, expected: number[], keyFrames: ArrayLike<number>) => {
          const ch = byChannel(kind, joint);
          expect(Array.from(keyFrames)).toEqual(ch.keyFrames);
          const keySet = new Set(ch.keyFrames);
          for (let t = 0; t <= N; t++) {
            expect(Math.abs(ch.errors[t] - expected[t])).toBeLessThan(1e-6); // acos near 1 amplifies rounding
            // Within tolerance, or the frame is itself a key (precision limit).
            if (!(expected[t] <= c.tol + 1e-6)) expect(keySet.has(t)).toBe(true);
          }
          expect(Math.abs(ch.maxError - Math.max(...expected))).toBeLessThan(1e-6);
          expect(ch.met).toBe(ch.maxError <= c.tol);
          // Every user key is a key; no gap exceeds 255.
          for (const f of ch.userKeyFrames) expect(keySet.has(f)).toBe(true);
          for (let k = 1; k < ch.keyFrames.length; k++)
            expect(ch.keyFrames[k] - ch.keyFrames[k - 1]).toBeLessThanOrEqual(255);
          expect(ch.keyFrames[0]).toBe(0);
          expect(ch.keyFrames[ch.keyFrames.length - 1]).toBe(N);
        };
        check('translation', -1, ind.root, ind.mt3.root.frames);
        const userRoot: number[] = [];
        for (let f = 0; f <= N; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.KEY) userRoot.push(f);
        expect(byChannel('translation', -1).userKeyFrames).toEqual(userRoot);
        // User keys are checked against the written bytes, not only against the compressor's own key list.
        const storedRoot = new Set(ind.mt3.root.frames);
        for (const f of userRoot) expect(storedRoot.has(f)).toBe(true);
        for (let j = 0; j < J; j++) {
          check('rotation', j, ind.rot[j], ind.mt3.rotations[j].frames);
          const userJ: number[] = [];
          for (let f = 0; f <= N; f++) if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.KEY) userJ.push(f);
          expect(byChannel('rotation', j).userKeyFrames).toEqual(userJ);
          const storedRot = new Set(ind.mt3.rotations[j].frames);
          for (const f of userJ) expect(storedRot.has(f)).toBe(true);
          if (c.offsets) {
            check('offset', j, ind.off![j], ind.mt3.offsets![j].frames);
            // An offset channel's user keys are the joint's KEY frames, read from the MTN here.
            expect(byChannel('offset', j).userKeyFrames).toEqual(userJ);
            const storedOff = new Set(ind.mt3.offsets![j].frames);
            for (const f of userJ) expect(storedOff.has(f)).toBe(true);
          }
        }
        expect(ind.mt3.offsets !== null).toBe(c.offsets);
        expect(r.channels.filter((ch) => ch.kind === 'offset').length).toBe(c.offsets ? J : 0);

        // Consecutive stored rotations have dot >= 0.
        for (const tr of ind.mt3.rotations)
          for (let k = 1; k < tr.frames.length; k++) {
            let d = 0;
            for (let i = 0; i < 4; i++) d += tr.rotation[(k - 1) * 4 + i] * tr.rotation[k * 4 + i];
            expect(d).toBeGreaterThanOrEqual(0);
          }

        // Trace keys: 0, TRACE frames, N, at the quantised root positions.
        const trace = [0];
        for (let f = 1; f < N; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.TRACE) trace.push(f);
        trace.push(N);
        expect(Array.from(ind.mt3.move!.frames)).toEqual(trace);
        trace.forEach((f, k) => {
          for (let ci = 0; ci < 3; ci++)
            expect(ind.mt3.move!.position[k * 3 + ci]).toBe(encodeH16(m.translation[f * 4 + ci]));
        });

        // Lock table: one entry per run of LOCK frames of one joint.
        const locked: number[] = [];
        for (let f = 0; f <= N; f++) {
          let who = -1;
          for (let j = 0; j < J; j++) if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.LOCK) who = j;
          locked.push(who);
        }
        const fromTable = new Array(N + 1).fill(-1);
        for (const e of ind.mt3.fix ?? []) for (let f = e.firstFrame; f <= e.lastFrame; f++) fromTable[f] = e.joint;
        expect(fromTable).toEqual(locked);
        const fix = ind.mt3.fix ?? [];
        for (let k = 1; k < fix.length; k++) {
          expect(fix[k].firstFrame).toBeGreaterThan(fix[k - 1].lastFrame);
          if (fix[k].joint === fix[k - 1].joint) expect(fix[k].firstFrame).toBeGreaterThan(fix[k - 1].lastFrame + 1);
        }
        expect((ind.mt3.flags & Mt3Flag.FIX) !== 0).toBe(fix.length > 0);
        expect(ind.mt3.flags & Mt3Flag.MOVE).toBe(Mt3Flag.MOVE);
        expect(ind.mt3.flags & Mt3Flag.TURN).toBe(Mt3Flag.TURN);
        expect(ind.mt3.turn).toBe(c.joints - 1);
        expect(ind.mt3.flags & Mt3Flag.MIRROR_LOWER).toBe(Mt3Flag.MIRROR_LOWER);
        expect(ind.mt3.flags & Mt3Flag.MIRROR_UPPER).toBe(0);

        // Stats are consistent with the bytes.
        expect(r.mt3Bytes).toBe(r.bytes.length);
        expect(r.totalKeys).toBe(r.channels.reduce((s, ch) => s + ch.keyFrames.length, 0));
        expect(r.ratio).toBeCloseTo(r.mtnBytes / r.mt3Bytes, 12);
      });
    }

  it('classic: chooses exactly the keys of the naive full-refit reference', () => {
    for (const seed of [11, 12, 13]) {
      const m = syntheticMotion({ frames: 200, joints: 4, seed, offsets: true, noise: 0.01, userKeys: 2 });
      const fast = compressMotion(m, options(0.2, 'classic'));
      const slow = compressMotionWith(naiveClassicStrategy, m, options(0.2, 'classic'));
      expect(fast.channels.map((c) => c.keyFrames)).toEqual(slow.channels.map((c) => c.keyFrames));
      expect(Array.from(fast.bytes)).toEqual(Array.from(slow.bytes));
      fast.channels.forEach((c, i) => expect(Array.from(c.errors)).toEqual(Array.from(slow.channels[i].errors)));
    }
  });

  it('reports an unreachable tolerance as warnings and still finishes', () => {
    const m = syntheticMotion({ frames: 60, joints: 2, seed: 7, noise: 0.05 });
    const r = compressMotion(m, options(0));
    expect(r.warnings.length).toBeGreaterThan(0);
    for (const w of r.warnings) {
      const ch = r.channels.find((c) => c.kind === w.kind && c.joint === w.joint)!;
      expect(ch.met).toBe(false);
      expect(ch.keyFrames).toContain(w.frame);
      expect(w.message).toMatch(/not reachable at frame \d+/);
    }
  });

  it('more tolerance never needs more keys on a smooth motion', () => {
    const m = syntheticMotion({ frames: 300, joints: 5, seed: 21 });
    const counts = [0.05, 0.2, 1, 5].map((t) => compressMotion(m, options(t)).totalKeys);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]);
  });

  it('keeps rotations continuous through source sign flips and full turns', () => {
    const m = syntheticMotion({ frames: 240, joints: 1, seed: 3 });
    for (let f = 0; f <= 240; f++) {
      const angle = (4 * Math.PI * f) / 240; // two full turns about Y
      const s = f % 2 ? -1 : 1; // the source flips sign every frame
      m.rotation.set([0, s * Math.sin(angle / 2), 0, s * Math.cos(angle / 2)], f * 4);
    }
    const r = compressMotion(m, options(0.5));
    const rot = r.channels.find((c) => c.kind === 'rotation')!;
    expect(rot.maxError).toBeLessThanOrEqual(0.5);
    expect(rot.keyFrames.length).toBeLessThan(60);
  });

  it('applies per-joint rotation tolerance overrides', () => {
    const m = syntheticMotion({ frames: 200, joints: 3, seed: 8, noise: 0.01 });
    const r = compressMotion(m, { ...options(0.2), rotationToleranceOverridesDeg: { 1: 5 } });
    const j1 = r.channels.find((c) => c.kind === 'rotation' && c.joint === 1)!;
    const j0 = r.channels.find((c) => c.kind === 'rotation' && c.joint === 0)!;
    expect(j1.tolerance).toBe(5);
    expect(j0.tolerance).toBe(0.2);
    expect(j1.keyFrames.length).toBeLessThan(j0.keyFrames.length);
  });
});

describe('compressMotion refuses bad input with a FormatError', () => {
  it('NaN in the motion names section, frame and joint', () => {
    const m = syntheticMotion({ frames: 20, joints: 3, seed: 1 });
    m.rotation[(5 * 3 + 2) * 4 + 1] = NaN;
    expect(() => compressMotion(m, options(0.5))).toThrowError(FormatError);
    expect(() => compressMotion(m, options(0.5))).toThrowError(/rotation frame 5 joint 2/);
  });
  it('a root position too large for h16 names the frame', () => {
    const m = syntheticMotion({ frames: 20, joints: 1, seed: 1 });
    m.translation[7 * 4] = 1e7;
    expect(() => compressMotion(m, options(0.5))).toThrowError(/translation frame 7.*too large for h16/);
  });
  it('a negative tolerance', () => {
    const m = syntheticMotion({ frames: 20, joints: 1, seed: 1 });
    expect(() => compressMotion(m, { ...options(0.5), rotationToleranceDeg: -1 })).toThrowError(/rotation tolerance/);
  });
});

describe('initialKeys', () => {
  it('spreads keys so that no gap exceeds 255 and keeps user keys', () => {
    const keys = initialKeys(1000, [400]).frames();
    expect(keys[0]).toBe(0);
    expect(keys[keys.length - 1]).toBe(1000);
    expect(keys).toContain(400);
    for (let k = 1; k < keys.length; k++) expect(keys[k] - keys[k - 1]).toBeLessThanOrEqual(255);
    expect(initialKeys(255, []).frames()).toEqual([0, 255]);
    expect(initialKeys(256, []).frames()).toEqual([0, 128, 256]);
  });
});
