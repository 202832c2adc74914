import { describe, expect, it } from 'vitest';
import { KeyFlag, MotionFlag } from '../motion/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import { CompressCache } from './cache';
import { compressMotion } from './compress';
import { seededRandom } from '../testing/random';
import {
  decodePositionTrack,
  decodeRotationTrack,
  samplePositionTrackFrames,
  sampleRotationTrackFrames,
} from '../mt3/decode';
import type { Mt3Motion, PositionTrack, RotationTrack } from '../mt3/types';
import { writeMt3 } from '../mt3/write';
import { independentObjectErrors } from '../testing/independentFk';
import {
  axisOffsets,
  defaultShell,
  ObjectErrorMemo,
  objectSpaceError,
  PositionCursor,
  rotateInto,
  RotationCursor,
} from './objectError';
import { objectFloorAbove } from './compress';

const options = {
  positionTolerance: 0.3,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.3,
  name: 'memo',
  method: 'classic' as const,
};

describe('ObjectErrorMemo', () => {
  it('gives the report of a fresh run after every edit, redoing only the frames whose decoded samples changed', () => {
    for (const offsets of [false, true]) {
      const m = syntheticMotion({ frames: 300, joints: 7, seed: 11, offsets, noise: 0.02 });
      const J = m.joints.length;
      const shell = defaultShell(m);
      const memo = new ObjectErrorMemo();
      const cache = new CompressCache();
      const first = compressMotion(m, options, cache);
      expect(objectSpaceError(m, first.mt3, shell, memo)).toEqual(objectSpaceError(m, first.mt3, shell));
      expect(memo.recomputedFrames).toBe(301);

      // The same result again: nothing to redo.
      expect(objectSpaceError(m, first.mt3, shell, memo)).toEqual(objectSpaceError(m, first.mt3, shell));
      expect(memo.recomputedFrames).toBe(0);

      // User keys on a leaf and on the root joint, one at a time: each report equals a fresh one.
      let last = first;
      for (const [near, joint] of [
        [150, J - 1],
        [40, 0],
        [222, 3],
      ]) {
        // A frame that is not a key yet, so that the decoded samples do change.
        const keys = last.channels.find((c) => c.kind === 'rotation' && c.joint === joint)!.keyFrames;
        let frame = near;
        while (keys.includes(frame)) frame++;
        m.jointKeyInfo[(frame * J + joint) * 4] |= KeyFlag.KEY;
        const r = (last = compressMotion(m, options, cache));
        const fresh = objectSpaceError(m, r.mt3, shell);
        expect(objectSpaceError(m, r.mt3, shell, memo)).toEqual(fresh);
        expect(memo.recomputedFrames).toBeGreaterThan(0);
        expect(memo.recomputedFrames).toBeLessThan(301);
      }
      // A global tolerance change touches every channel: still the fresh report.
      const loose = compressMotion(m, { ...options, rotationToleranceDeg: 2 }, cache);
      expect(objectSpaceError(m, loose.mt3, shell, memo)).toEqual(objectSpaceError(m, loose.mt3, shell));
    }
  });

  it('starts over for another motion or another shell', () => {
    const a = syntheticMotion({ frames: 80, joints: 4, seed: 1 });
    const b = syntheticMotion({ frames: 80, joints: 4, seed: 2 });
    const ra = compressMotion(a, options);
    const rb = compressMotion(b, options);
    const memo = new ObjectErrorMemo();
    objectSpaceError(a, ra.mt3, 1, memo);
    expect(objectSpaceError(b, rb.mt3, 1, memo)).toEqual(objectSpaceError(b, rb.mt3, 1));
    expect(memo.recomputedFrames).toBe(81);
    expect(objectSpaceError(b, rb.mt3, 2, memo)).toEqual(objectSpaceError(b, rb.mt3, 2));
    expect(memo.recomputedFrames).toBe(81);
  });

  it('redoes every frame when the offset streams appear or go', () => {
    const m = syntheticMotion({ frames: 90, joints: 5, seed: 5, offsets: true });
    const withOffsets = compressMotion(m, options);
    const without = compressMotion({ ...m, flags: m.flags & ~MotionFlag.OFFSETS }, options);
    expect(without.mt3.offsets).toBeNull();
    const memo = new ObjectErrorMemo();
    objectSpaceError(m, withOffsets.mt3, 1, memo);
    expect(objectSpaceError(m, without.mt3, 1, memo)).toEqual(objectSpaceError(m, without.mt3, 1));
    expect(memo.recomputedFrames).toBe(91);
  });

  it('is what compressMotion uses with a cache: a key toggle redoes few frames and reports as a fresh run', () => {
    const m = syntheticMotion({ frames: 400, joints: 6, seed: 8, noise: 0.02 });
    const cache = new CompressCache();
    compressMotion(m, options, cache);
    m.jointKeyInfo[(200 * 6 + 2) * 4] |= KeyFlag.KEY;
    const edited = compressMotion(m, options, cache);
    expect(cache.objectMemo.recomputedFrames).toBeLessThan(401);
    expect(edited.objectError).toEqual(compressMotion(m, options).objectError);
  });
});

describe('the tracks sampled where frames are redone (2026-12-05)', () => {
  const frames = (t: { frames: Uint16Array }) => t.frames[t.frames.length - 1] + 1;

  it('gives the doubles of the whole-track samplers at any ascending frames, one key and keys every frame too', () => {
    const m = syntheticMotion({ frames: 240, joints: 5, seed: 21, offsets: true, noise: 0.05 });
    const tracks: Mt3Motion[] = [
      compressMotion(m, options).mt3,
      compressMotion(m, { ...options, method: 'refined' }).mt3,
      compressMotion(m, { ...options, positionTolerance: 0, rotationToleranceDeg: 0, offsetTolerance: 0 }).mt3,
    ];
    const rnd = seededRandom(4);
    // Made by hand: one key, and keys that start after frame 0 (decoders clamp to the first key there).
    const words = (n: number, f: () => number) => Array.from({ length: n }, f);
    const s12 = () => Math.floor(rnd() * 4095) - 2047;
    const h16 = () => Math.floor(rnd() * 0x7c00);
    for (const keys of [[0], [3, 4, 9, 40]]) {
      const K = keys.length;
      const position = (): PositionTrack => ({
        origin: Uint16Array.from(words(3, h16)),
        frames: Uint16Array.from(keys),
        position: Uint16Array.from(words(K * 3, h16)),
        velocity: Uint16Array.from(words(K * 3, h16)),
      });
      const rotation: RotationTrack = {
        frames: Uint16Array.from(keys),
        rotation: Int16Array.from(words(K * 4, s12)),
        inner: Int16Array.from(words(K * 4, s12)),
      };
      tracks.push({ ...tracks[0], root: position(), rotations: [rotation], offsets: [position()] });
    }
    for (const mt3 of tracks) {
      const positions: PositionTrack[] = [mt3.root, ...(mt3.offsets ?? [])];
      for (const t of [...positions, ...mt3.rotations]) {
        const rotation = 'inner' in t;
        const width = rotation ? 4 : 3;
        const whole = rotation
          ? sampleRotationTrackFrames(decodeRotationTrack(t as RotationTrack))
          : samplePositionTrackFrames(decodePositionTrack(t as PositionTrack));
        // Every frame, then a sparse ascending subset (segments skipped, loaded once, keys hit or missed).
        for (const every of [true, false]) {
          const cursor = rotation ? new RotationCursor(t as RotationTrack) : new PositionCursor(t as PositionTrack);
          const out = new Float64Array(width);
          for (let f = 0; f < frames(t); f++) {
            if (!every && rnd() < 0.7) continue;
            cursor.sample(f, out, 0);
            for (let c = 0; c < width; c++) expect(out[c]).toBe(whole[f * width + c]);
          }
        }
      }
    }
  });

  it('redoes the frames of a segment whose tangent alone changed, or a key and its segments, as a fresh run would', () => {
    const m = syntheticMotion({ frames: 300, joints: 6, seed: 9, offsets: true, noise: 0.02 });
    const r = compressMotion(m, options);
    const shell = defaultShell(m);
    const rotation = r.mt3.rotations[3];
    const k = rotation.frames.length >> 1;
    // Key k's inner quaternion and the root's velocity at one key moved: only their stored tangents differ.
    const inner = rotation.inner.slice();
    inner[k * 4] += 300;
    const velocity = r.mt3.root.velocity.slice();
    const kr = r.mt3.root.frames.length >> 1;
    velocity[kr * 3 + 1] ^= 0x0400;
    // And key k's rotation itself: its own frame is redone too.
    const turned = rotation.rotation.slice();
    turned[k * 4 + 1] += 200;
    const edits: Mt3Motion[] = [
      { ...r.mt3, rotations: r.mt3.rotations.map((t, j) => (j === 3 ? { ...t, inner } : t)) },
      { ...r.mt3, root: { ...r.mt3.root, velocity } },
      { ...r.mt3, rotations: r.mt3.rotations.map((t, j) => (j === 3 ? { ...t, rotation: turned } : t)) },
    ];
    for (const edited of edits) {
      const memo = new ObjectErrorMemo();
      objectSpaceError(m, r.mt3, shell, memo);
      const fresh = objectSpaceError(m, edited, shell);
      expect(fresh).not.toEqual(objectSpaceError(m, r.mt3, shell));
      expect(objectSpaceError(m, edited, shell, memo)).toEqual(fresh);
      expect(memo.recomputedFrames).toBeGreaterThan(0);
      expect(memo.recomputedFrames).toBeLessThan(301);
    }
    const t = edits[0].rotations[3].frames;
    const memo = new ObjectErrorMemo();
    objectSpaceError(m, r.mt3, shell, memo);
    objectSpaceError(m, edits[0], shell, memo);
    // The interior frames of the two segments at key k: its own frame keeps its sample.
    expect(memo.recomputedFrames).toBe(t[k + 1] - t[k - 1] - 2);
    objectSpaceError(m, edits[2], shell, memo);
    expect(memo.recomputedFrames).toBe(t[k + 1] - t[k - 1] - 1);
  });

  // Mutation audit, round 3 (docs/testing.md): a segment of the new track whose two keys are keys of the previous one
  // with the same words, but not neighbours there (a key between them removed), was taken for the same segment
  // without `next === m + 1`: its frames kept their old errors. Removing a key changes no other key's words.
  it('redoes the frames of a segment that a removed key joined, as a fresh run would', () => {
    const m = syntheticMotion({ frames: 300, joints: 6, seed: 9, offsets: true, noise: 0.02 });
    const r = compressMotion(m, options);
    const shell = defaultShell(m);
    const rotation = r.mt3.rotations[3];
    const k = rotation.frames.length >> 1;
    const keep = (a: Int16Array | Uint16Array, width: number) =>
      a.filter((_, i) => Math.floor(i / width) !== k) as typeof a;
    const removed: Mt3Motion = {
      ...r.mt3,
      rotations: r.mt3.rotations.map((t, j) =>
        j === 3
          ? {
              frames: keep(t.frames, 1) as Uint16Array,
              rotation: keep(t.rotation, 4) as Int16Array,
              inner: keep(t.inner, 4) as Int16Array,
            }
          : t,
      ),
    };
    const memo = new ObjectErrorMemo();
    objectSpaceError(m, r.mt3, shell, memo);
    const fresh = objectSpaceError(m, removed, shell);
    expect(fresh).not.toEqual(objectSpaceError(m, r.mt3, shell));
    expect(objectSpaceError(m, removed, shell, memo)).toEqual(fresh);
    const t = rotation.frames;
    // The frames between its two neighbours, its own among them.
    expect(memo.recomputedFrames).toBe(t[k + 1] - t[k - 1] - 1);
  });

  it('measures what the independent FK and decoder measure, with and without offset streams', () => {
    for (const offsets of [false, true]) {
      const m = syntheticMotion({ frames: 120, joints: 6, seed: 31, offsets, noise: 0.05 });
      const shell = defaultShell(m);
      const r = compressMotion(m, { ...options, rotationToleranceDeg: 2, positionTolerance: 1 });
      const memo = new ObjectErrorMemo();
      objectSpaceError(m, r.mt3, shell, memo);
      const ours = memo.lastErrors();
      const theirs = independentObjectErrors(m, r.mt3, shell);
      let worst = 0;
      theirs.forEach((row, f) => row.forEach((e, j) => (worst = Math.max(worst, Math.abs(e - ours[f * 6 + j])))));
      expect(Math.max(...theirs.flat())).toBeGreaterThan(0.01);
      expect(worst).toBeLessThan(1e-9);
    }
  });

  it('gives the precision floor the source points of the cache that the rounds then use', () => {
    const m = syntheticMotion({ frames: 60, joints: 4, seed: 2 });
    const shell = defaultShell(m);
    const cache = new CompressCache();
    expect(objectFloorAbove(m, 1e-9, shell, cache)?.object).toBeGreaterThan(0);
    expect(cache.objectMemo.holdsSourceFor(m, shell)).toBe(true);
    const points = cache.objectMemo.sourceFor(m, shell);
    const r = compressMotion(m, { ...options, objectTolerance: 1e-9, shell }, cache);
    expect(cache.objectMemo.sourceFor(m, shell)).toBe(points);
    // The floor measured its own tracks with its own memo: the rounds' errors are those of a fresh run.
    expect(r.objectError).toEqual(objectSpaceError(m, r.mt3, shell));
  });

  it('writes the MT3 of the round the skeleton-aware mode returns (the rounds before it are not written)', () => {
    const m = syntheticMotion({ frames: 200, joints: 6, seed: 14, noise: 0.05 });
    for (const method of ['classic', 'refined'] as const) {
      const r = compressMotion(m, { ...options, method, objectTolerance: 0.5 });
      expect(r.skeleton!.rounds).toBeGreaterThan(1);
      expect(r.bytes).toEqual(writeMt3(r.mt3));
      expect(r.mt3Bytes).toBe(r.bytes.length);
      expect(r.ratio).toBe(r.mtnBytes / r.bytes.length);
    }
  });
});

describe('axisOffsets', () => {
  it('gives the virtual points of rotateInto along X, Y and Z, value for value', () => {
    const rnd = seededRandom(7);
    const got = new Float64Array(9);
    const want = new Float64Array(3);
    // Random unit quaternions, the identity, half turns about each axis and one with zero components.
    const quats: number[][] = [
      [0, 0, 0, 1],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [Math.SQRT1_2, 0, 0, -Math.SQRT1_2],
    ];
    for (let i = 0; i < 2000; i++) {
      const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const l = Math.hypot(...q);
      quats.push(q.map((c) => c / l));
    }
    for (const [qx, qy, qz, qw] of quats)
      for (const shell of [1, 0.37, 13.5, 1e-6, 4e5]) {
        axisOffsets(got, 0, qx, qy, qz, qw, shell);
        for (let axis = 0; axis < 3; axis++) {
          rotateInto(want, 0, qx, qy, qz, qw, axis === 0 ? shell : 0, axis === 1 ? shell : 0, axis === 2 ? shell : 0);
          // The same doubles, a zero of either sign being a zero (+ 0 makes -0 +0; errors are lengths of differences).
          for (let c = 0; c < 3; c++) expect(got[axis * 3 + c] + 0).toBe(want[c] + 0);
        }
      }
  });
});
