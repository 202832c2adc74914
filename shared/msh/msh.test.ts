import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { quatSlerpShortest } from '../interchange/kinematics';
import { syntheticMotion } from '../testing/syntheticMotion';
import { MSH_NO_MAP } from './constants';
import { exportMshAnimation, rotationDistanceDeg } from './export';
import { readMshAnimation } from './read';
import { roundHalfEven, sampleMshNode } from './sample';
import type { MshAnimation } from './types';
import { validateMshAnimation } from './validate';
import { writeMshResources } from './write';

/** Two nodes: node 0 animated with keys at frames 0, 2, 4 (keys 0..2); node 1 static (key 3). */
function small(): MshAnimation {
  return {
    keys: [
      { position: [0, 0, 0], time: 0, quatWXYZ: [32767, 0, 0, 0] },
      { position: [2, 0, 0], time: 2, quatWXYZ: [23170, 0, 23170, 0] },
      { position: [4, 4, 0], time: 4, quatWXYZ: [0, 0, 32767, 0] },
      { position: [1, 2, 3], time: 0, quatWXYZ: [32767, 0, 0, 0] },
    ],
    mapWords: Uint16Array.from([0, 0, 1, 1, 2]),
    frameCount: 5,
    nodes: [
      { name: 'root', parent: -1, animMapStart: 0, fallbackKey: 2 },
      { name: 'tip', parent: 0, animMapStart: MSH_NO_MAP, fallbackKey: 3 },
    ],
  };
}

const attrsOf = (r: ReturnType<typeof writeMshResources>) => ({
  res8: { attr1: r.res8.attr1, attr3: r.res8.attr3 },
  res19: { attr1: r.res19.attr1, attr2: r.res19.attr2, attr3: r.res19.attr3 },
});

describe('MSH Res8/Res19 writer and reader', () => {
  it('writes 24-byte keys (f32 position, f32 time, s16 w x y z) and u16 words with their attributes', () => {
    const r = writeMshResources(small());
    expect(r.res8.bytes.byteLength).toBe(4 * 24);
    expect(r.res8).toMatchObject({ attr1: 4, attr3: 4 });
    expect(r.res19).toMatchObject({ attr1: 5, attr2: 5, attr3: 2 });
    const v = new DataView(r.res8.bytes.buffer);
    expect([v.getFloat32(24, true), v.getFloat32(28, true), v.getFloat32(32, true), v.getFloat32(36, true)]).toEqual([
      2, 0, 0, 2,
    ]);
    expect([v.getInt16(40, true), v.getInt16(42, true), v.getInt16(44, true), v.getInt16(46, true)]).toEqual([
      23170, 0, 23170, 0,
    ]);
    expect(Array.from(new Uint16Array(r.res19.bytes.buffer))).toEqual([0, 0, 1, 1, 2]);
    const back = readMshAnimation(r.res8.bytes, r.res19.bytes, attrsOf(r), small().nodes);
    expect(back).toEqual(small());
  });

  const rejects = (fn: () => unknown, message: RegExp) => {
    let err: unknown;
    try {
      fn();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toMatch(message);
  };

  it('refuses every invalid case with a located message', () => {
    const r = writeMshResources(small());
    const a = attrsOf(r);
    const nodes = small().nodes;
    rejects(
      () => readMshAnimation(r.res8.bytes.subarray(0, 95), r.res19.bytes, a, nodes),
      /^MSH \(res8\): Res8 size 95 is not a multiple of 24/,
    );
    rejects(
      () => readMshAnimation(r.res8.bytes, r.res19.bytes.subarray(0, 9), a, nodes),
      /^MSH \(res19\): Res19 size 9 is odd/,
    );
    rejects(
      () => readMshAnimation(r.res8.bytes, r.res19.bytes, { ...a, res8: { attr1: 5, attr3: 4 } }, nodes),
      /\(res8 attr1\): Res8 attr1 \(key count\) is 5 but the payload holds 4 keys/,
    );
    rejects(
      () => readMshAnimation(r.res8.bytes, r.res19.bytes, { ...a, res19: { ...a.res19, attr3: 3 } }, nodes),
      /\(res19 attr3\): Res19 attr3 must be 2, found 3/,
    );
    rejects(
      () => validateMshAnimation({ ...small(), nodes: [nodes[0], { ...nodes[1], fallbackKey: 4 }] }),
      /^MSH \(node 1 \(tip\)\): fallback_key 4 is not below the key count 4/,
    );
    rejects(
      () => validateMshAnimation({ ...small(), nodes: [{ ...nodes[0], animMapStart: 1 }, nodes[1]] }),
      /\(node 0 \(root\)\): anim_map_start 1 \+ frame count 5 is past the 5 map words/,
    );
    const sameTime = small();
    sameTime.keys[1].time = 0;
    rejects(
      () => validateMshAnimation(sameTime),
      /\(node 0 \(root\)\): key times must strictly increase within a track: key 0 \(time 0\) then key 1 \(time 0\), used at frame 0/,
    );
    const nan = small();
    nan.keys[2].time = NaN;
    rejects(
      () => writeMshResources(nan),
      /\(res8 key 2, offset 48\): key 2 has a time or position that is not a finite number/,
    );
  });
});

describe('MSH sampler', () => {
  const a = small();
  it('rounds half to even', () => {
    expect([-0.5, 0.5, 1.5, 2.5, 2.4, 2.6].map(roundHalfEven)).toEqual([0, 0, 2, 2, 2, 3]);
  });

  it('returns keys exactly at their times, interpolates between, and the fallback outside the timeline or without a map', () => {
    expect(sampleMshNode(a, 0, 2).position).toEqual([2, 0, 0]);
    expect(sampleMshNode(a, 0, 1).position).toEqual([1, 0, 0]);
    expect(sampleMshNode(a, 0, 3).position).toEqual([3, 2, 0]);
    const mid = sampleMshNode(a, 0, 3).rotation;
    const want = quatSlerpShortest([0, 23170 / 32767, 0, 23170 / 32767], [0, 1, 0, 0], 0.5);
    mid.forEach((c, i) => expect(c).toBeCloseTo(want[i], 12));
    expect(sampleMshNode(a, 0, 4.6).position).toEqual([4, 4, 0]); // frame 4 maps to the fallback key
    expect(sampleMshNode(a, 0, 99).position).toEqual([4, 4, 0]); // past the timeline
    expect(sampleMshNode(a, 1, 2.5)).toEqual({ position: [1, 2, 3], rotation: [0, 0, 0, 1] });
  });
});

describe('MSH export (greedy fit, writer canon)', () => {
  const motion = syntheticMotion({ frames: 120, joints: 6, seed: 21, offsets: true, noise: 0.002 });
  // joint 5 never moves: a static node
  const J = 6;
  for (let f = 0; f <= 120; f++) {
    motion.rotation.set([0, 0, 0, 1], (f * J + 5) * 4);
    motion.offset.set([1, 2, 3, 0], (f * J + 5) * 4);
  }
  const options = { positionTolerance: 0.5, rotationToleranceDeg: 0.5, rotationToleranceOverridesDeg: { 2: 0.1 } };
  const r = exportMshAnimation(motion, options);
  const a = r.animation;

  it('follows the writer canon', () => {
    const S = 121;
    expect(a.frameCount).toBe(S);
    let next = 0;
    a.nodes.forEach((n, j) => {
      expect(n.name).toBe(motion.joints[j].name);
      expect(n.parent).toBe(motion.joints[j].parent);
      const track = a.keys.slice(next, n.fallbackKey + 1);
      next = n.fallbackKey + 1; // contiguous, in skeleton order, fallback = the track's last key
      expect(track.length).toBe(r.nodes[j].keys);
      track.forEach((k, i) => {
        expect(Number.isInteger(k.time)).toBe(true);
        if (i) expect(k.time).toBeGreaterThan(track[i - 1].time);
      });
      if (n.animMapStart === MSH_NO_MAP) {
        expect(track).toHaveLength(1);
        expect(track[0].time).toBe(0);
        return;
      }
      const base = n.fallbackKey + 1 - track.length;
      for (let f = 0; f < S; f++) {
        const want = base + track.map((k) => k.time).filter((t) => t <= f).length - 1;
        expect(a.mapWords[n.animMapStart + f]).toBe(want);
      }
    });
    expect(next).toBe(a.keys.length);
    expect(a.nodes[5].animMapStart).toBe(MSH_NO_MAP);
    expect(a.nodes.slice(0, 5).every((n) => n.animMapStart !== MSH_NO_MAP)).toBe(true);
    expect(r.nodes[2].keys).toBeGreaterThan(r.nodes[1].keys); // the 0.1 deg override needs more keys
  });

  it('round-trips: every frame and half frame sampled from the written payloads is within tolerance of the source', () => {
    const w = writeMshResources(a);
    const back = readMshAnimation(w.res8.bytes, w.res19.bytes, attrsOf(w), a.nodes);
    for (let j = 0; j < J; j++) {
      const rotTol = j === 2 ? 0.1 : 0.5;
      const src = (f: number) => ({
        p:
          j === 0
            ? motion.translation.subarray(f * 4, f * 4 + 3)
            : motion.offset.subarray((f * J + j) * 4, (f * J + j) * 4 + 3),
        q: motion.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4),
      });
      for (let t = 0; t <= 120; t += 0.5) {
        const s = sampleMshNode(back, j, t);
        const f0 = Math.floor(t);
        const u = t - f0;
        const a0 = src(f0);
        const a1 = src(Math.min(120, f0 + 1));
        const p = [0, 1, 2].map((i) => a0.p[i] + (a1.p[i] - a0.p[i]) * u);
        const q = u ? quatSlerpShortest(a0.q, a1.q, u) : Array.from(a0.q);
        expect(Math.hypot(s.position[0] - p[0], s.position[1] - p[1], s.position[2] - p[2])).toBeLessThanOrEqual(0.5);
        expect(rotationDistanceDeg(s.rotation, q)).toBeLessThanOrEqual(rotTol + 1e-3);
      }
    }
    expect(r.warnings).toEqual([]);
  });

  it('keeps fewer keys than frames and tightens with the tolerance', () => {
    expect(r.totalKeys).toBeLessThan(6 * 121);
    const tight = exportMshAnimation(motion, { positionTolerance: 0.05, rotationToleranceDeg: 0.05 });
    expect(tight.totalKeys).toBeGreaterThan(r.totalKeys);
  });
});
