import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { emptyMotion, KeyFlag, MotionFlag } from '../motion/types';
import { readMtn } from '../mtn/read';
import { writeMtn } from '../mtn/write';
import {
  decodeMt3,
  decodeMt3ToMotion,
  decompressMt3,
  findKey,
  sampleOffset,
  samplePositionTrackFrames,
  sampleRootTranslation,
  sampleRotation,
  sampleRotationTrackFrames,
  sampleTrace,
} from './decode';
import { randomMt3 } from './testFixtures';
import { Mt3Flag, type Mt3Motion } from './types';

// ---- An independent, straightforward implementation of docs/formats.md 2.7 ----

/** binary16 -> value via float32 bit construction (independent of shared/math/half). */
function halfRef(bits: number): number {
  const f = new DataView(new ArrayBuffer(4));
  const sign = (bits & 0x8000) << 16;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return (sign ? -1 : 1) * m * Math.pow(2, -24) * 128;
  f.setUint32(0, sign | ((e - 15 + 127) << 23) | (m << 13));
  return f.getFloat32(0) * 128;
}

function quatRef(s: Int16Array, k: number): number[] {
  const q = [s[4 * k] / 2047, s[4 * k + 1] / 2047, s[4 * k + 2] / 2047, s[4 * k + 3] / 2047];
  const l = Math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2);
  return l === 0 ? [0, 0, 0, 1] : q.map((c) => c / l);
}

function slerp(p: number[], q: number[], u: number): number[] {
  const d = Math.max(-1, Math.min(1, p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]));
  const th = Math.acos(d);
  if (th < 1e-6) {
    const r = p.map((c, i) => (1 - u) * c + u * q[i]);
    const l = Math.sqrt(r.reduce((s, c) => s + c * c, 0));
    return r.map((c) => c / l);
  }
  return p.map((c, i) => (Math.sin((1 - u) * th) * c + Math.sin(u * th) * q[i]) / Math.sin(th));
}

/** Keys a, b with frame_a <= t <= frame_b by a linear scan. */
function segment(frames: Uint16Array, t: number): [number, number] {
  for (let k = 0; k < frames.length - 1; k++) if (frames[k] <= t && t <= frames[k + 1]) return [k, k + 1];
  throw new Error('t out of range');
}

function refPosition(tr: Mt3Motion['root'], t: number): number[] {
  const [a, b] = segment(tr.frames, t);
  const P = (k: number, c: number) => halfRef(tr.position[3 * k + c]);
  const V = (k: number, c: number) => halfRef(tr.velocity[3 * k + c]);
  if (t === tr.frames[a]) return [0, 1, 2].map((c) => P(a, c));
  if (t === tr.frames[b]) return [0, 1, 2].map((c) => P(b, c));
  const d = tr.frames[b] - tr.frames[a];
  const u = (t - tr.frames[a]) / d;
  const h00 = 2 * u ** 3 - 3 * u ** 2 + 1,
    h10 = u ** 3 - 2 * u ** 2 + u,
    h01 = -2 * u ** 3 + 3 * u ** 2,
    h11 = u ** 3 - u ** 2;
  return [0, 1, 2].map((c) => h00 * P(a, c) + h10 * d * V(a, c) + h01 * P(b, c) + h11 * d * V(b, c));
}

function refRotation(tr: Mt3Motion['rotations'][number], t: number): number[] {
  const [a, b] = segment(tr.frames, t);
  if (t === tr.frames[a]) return quatRef(tr.rotation, a);
  if (t === tr.frames[b]) return quatRef(tr.rotation, b);
  const u = (t - tr.frames[a]) / (tr.frames[b] - tr.frames[a]);
  const r = slerp(
    slerp(quatRef(tr.rotation, a), quatRef(tr.rotation, b), u),
    slerp(quatRef(tr.inner, a), quatRef(tr.inner, b), u),
    2 * u * (1 - u),
  );
  const l = Math.sqrt(r.reduce((s, c) => s + c * c, 0));
  return r.map((c) => c / l);
}

function refTrace(tr: NonNullable<Mt3Motion['move']>, t: number): number[] {
  const [a, b] = segment(tr.frames, t);
  const u = (t - tr.frames[a]) / (tr.frames[b] - tr.frames[a]);
  return [0, 1, 2].map((c) => (1 - u) * halfRef(tr.position[3 * a + c]) + u * halfRef(tr.position[3 * b + c]));
}

function expectClose(actual: ArrayLike<number>, expected: number[], tol: number, what: string): void {
  for (let c = 0; c < expected.length; c++) {
    const scale = Math.max(1, Math.abs(expected[c]));
    if (!(Math.abs(actual[c] - expected[c]) <= tol * scale))
      throw new Error(`${what} component ${c}: got ${actual[c]}, expected ${expected[c]}`);
  }
}

describe('reference samplers (docs/formats.md 2.7)', () => {
  const m = randomMt3(21, { numFrames: 60, numJoints: 4 });
  const out = new Float64Array(4);
  const times: number[] = [];
  for (let t = 0; t <= 60; t += 0.25) times.push(t);
  times.push(0.001, 59.999, 1 / 3);

  it('returns the exact decoded key value at every key frame', () => {
    for (let k = 0; k < m.root.frames.length; k++) {
      sampleRootTranslation(m, m.root.frames[k], out);
      for (let c = 0; c < 3; c++) expect(out[c]).toBe(halfRef(m.root.position[3 * k + c]));
    }
    for (let j = 0; j < 4; j++) {
      const tr = m.rotations[j];
      for (let k = 0; k < tr.frames.length; k++) {
        sampleRotation(m, j, tr.frames[k], out);
        expectClose(out, quatRef(tr.rotation, k), 1e-15, `rotation joint ${j} key ${k}`);
      }
    }
  });

  it('matches an independent implementation at integer and fractional frames', () => {
    for (const t of times) {
      expectClose(sampleRootTranslation(m, t, out), refPosition(m.root, t), 1e-12, `root t=${t}`);
      expectClose(sampleTrace(m, t, out), refTrace(m.move!, t), 1e-12, `trace t=${t}`);
      for (let j = 0; j < 4; j++) {
        expectClose(sampleRotation(m, j, t, out), refRotation(m.rotations[j], t), 1e-12, `rotation ${j} t=${t}`);
        expectClose(sampleOffset(m, j, t, out), refPosition(m.offsets![j], t), 1e-12, `offset ${j} t=${t}`);
      }
    }
  });

  it('returns normalised rotations, and the end keys outside [0, N]', () => {
    for (const t of times) {
      sampleRotation(m, 2, t, out);
      expect(Math.hypot(out[0], out[1], out[2], out[3])).toBeCloseTo(1, 14);
    }
    sampleRootTranslation(m, -5, out);
    expect(out[0]).toBe(halfRef(m.root.position[0]));
    const K = m.root.frames.length;
    sampleRootTranslation(m, 1e9, out);
    expect(out[0]).toBe(halfRef(m.root.position[3 * (K - 1)]));
  });

  it('the whole-track cursor samplers equal per-frame sampling exactly', () => {
    const d = decodeMt3(m);
    const rot = sampleRotationTrackFrames(d.rotations[1]);
    const pos = samplePositionTrackFrames(d.root);
    expect(rot.length).toBe(61 * 4);
    for (let f = 0; f <= 60; f++) {
      expect(Array.from(rot.subarray(4 * f, 4 * f + 4))).toEqual(
        Array.from(sampleRotation(m, 1, f, new Float64Array(4))),
      );
      expect(Array.from(pos.subarray(3 * f, 3 * f + 3))).toEqual(
        Array.from(sampleRootTranslation(m, f, new Float64Array(3))),
      );
    }
  });

  it('findKey picks frame_a <= t < frame_b', () => {
    const f = Uint16Array.from([0, 3, 7, 10]);
    expect([0, 2.9, 3, 6.5, 7, 9.99, 10].map((t) => findKey(f, t))).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });

  it('refuses absent streams and bad joints with a clear error', () => {
    const bare = randomMt3(22, { offsets: false, move: false });
    expect(() => sampleOffset(bare, 0, 1, out)).toThrow(/no joint offset streams/);
    expect(() => sampleTrace(bare, 1, out)).toThrow(/no trace/);
    expect(() => sampleRotation(bare, 9, 1, out)).toThrow(/joint 9 outside/);
  });

  it('samples 25 joints x 121 frames at half frames to unit quaternions (the compressor samples this way)', () => {
    // Speed is a bench figure (npm run bench), never a timed assertion here.
    const big = randomMt3(23, { numFrames: 120, numJoints: 25 });
    decodeMt3(big);
    for (let f = 0; f <= 120; f++)
      for (let j = 0; j < 25; j++) {
        sampleRotation(big, j, f + 0.5 > 120 ? 120 : f + 0.5, out);
        expect(out.every(Number.isFinite)).toBe(true);
        expect(Math.abs(Math.hypot(out[0], out[1], out[2], out[3]) - 1)).toBeLessThan(1e-3);
      }
  });
});

describe('MT3 -> MTN decompression', () => {
  it('samples every frame, maps flags, locks and trace keys (no skeleton)', () => {
    const m = randomMt3(31, { numFrames: 20, numJoints: 3 });
    m.flags |= Mt3Flag.MIRROR_LOWER;
    const { motion, notes } = decompressMt3(m);
    expect(motion.frameCount).toBe(20);
    expect(motion.joints.map((j) => j.name)).toEqual(['joint_0', 'joint_1', 'joint_2']);
    expect(motion.joints.map((j) => j.parent)).toEqual([-1, 0, 1]);
    expect(notes.join(' ')).toMatch(/no skeleton given/);
    expect(motion.flags).toBe(
      MotionFlag.OFFSETS | MotionFlag.DIRECTION | MotionFlag.MIRROR_UPPER | MotionFlag.MIRROR_LOWER,
    );
    expect(motion.waistJoint).toBe(m.turn);
    const out = new Float64Array(4);
    for (let f = 0; f <= 20; f++) {
      sampleRootTranslation(m, f, out);
      expect(motion.translation[f * 4]).toBe(Math.fround(out[0]));
      for (let j = 0; j < 3; j++) {
        sampleRotation(m, j, f, out);
        expect(motion.rotation[(f * 3 + j) * 4 + 3]).toBe(Math.fround(out[3]));
        sampleOffset(m, j, f, out);
        expect(motion.offset[(f * 3 + j) * 4 + 1]).toBe(Math.fround(out[1]));
      }
      const trace = m.move!.frames.includes(f) && f !== 0 && f !== 20;
      expect(motion.translationKeyInfo[f * 4]).toBe(trace ? KeyFlag.TRACE : 0);
      for (let j = 0; j < 3; j++) {
        const locked = m.fix!.some((r) => r.joint === j && r.firstFrame <= f && f <= r.lastFrame);
        expect(motion.jointKeyInfo[(f * 3 + j) * 4]).toBe(locked ? KeyFlag.LOCK : 0);
      }
    }
    // The result is a valid MTN.
    expect(readMtn(writeMtn(motion)).frameCount).toBe(20);
  });

  it('takes names, hierarchy, fps and constant offsets from a skeleton', () => {
    const m = randomMt3(32, { numFrames: 10, numJoints: 3, offsets: false, turn: false });
    const skel = emptyMotion(
      5,
      [
        { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
        { parent: 0, mirror: 2, part: 1, reserved: 0, name: 'arm_l' },
        { parent: 0, mirror: 1, part: 1, reserved: 0, name: 'arm_r' },
      ],
      60,
    );
    skel.offset.set([0, 0, 0, 0, 1, 2, 3, 0, -1, 2, 3, 0]);
    const { motion, notes } = decompressMt3(m, skel);
    expect(notes).toEqual([]);
    expect(motion.fps).toBe(60);
    expect(motion.joints.map((j) => j.name)).toEqual(['hips', 'arm_l', 'arm_r']);
    expect(motion.joints[1].mirror).toBe(2);
    expect(motion.flags & (MotionFlag.OFFSETS | MotionFlag.DIRECTION)).toBe(0);
    expect(motion.waistJoint).toBe(-1);
    for (let f = 0; f <= 10; f++)
      expect(Array.from(motion.offset.subarray((f * 3 + 2) * 4, (f * 3 + 2) * 4 + 3))).toEqual([-1, 2, 3]);
  });

  it('refuses a skeleton with another joint count', () => {
    const m = randomMt3(33, { numJoints: 3 });
    const skel = emptyMotion(5, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' }]);
    expect(() => decodeMt3ToMotion(m, skel)).toThrow(FormatError);
    expect(() => decodeMt3ToMotion(m, skel)).toThrow(/skeleton has 1 joints but the MT3 has 3/);
  });
});
