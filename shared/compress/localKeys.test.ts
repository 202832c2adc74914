/**
 * LocalKeys (the skeleton-aware mode's keys taken in place, docs/compression.md): it starts from a compressed
 * channel exactly as stored, and after keys are added every frame that is not a key is within the tolerance
 * when the written track is decoded, with the errors it reports.
 */
import { describe, expect, it } from 'vitest';
import { rotationErrorDeg } from '../math/quat';
import { decodeRotationTrack, sampleRotationTrack } from '../mt3/decode';
import type { RotationTrack } from '../mt3/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import type { CachedChannel } from './cache';
import { LocalKeys } from './localKeys';
import { refinedStrategy } from './methods';
import { rotationSource } from './sources';

const m = syntheticMotion({ frames: 300, joints: 4, seed: 7, noise: 0.02 });
const N = m.frameCount;
const tolerance = 0.4;
const userKeys = [40, 200];

/**
 * The sources tried: each joint's, and joint 1's with frames 100-180 negated (the same rotations), whose stored
 * keys change sign along the track.
 */
const sources = [
  ...m.joints.map((_, j) => rotationSource(m, j)),
  rotationSource(m, 1).map((x, i) => (i >= 400 && i < 724 ? -x : x)),
];

/** A rotation channel compressed with the refined method: what the cache holds. */
function compressed(source: Float64Array): CachedChannel<RotationTrack> {
  const { fit, keys, outcome } = refinedStrategy.rotationKeys(source, N, userKeys, tolerance);
  const keyFrames = keys.frames();
  const { rotation, inner } = fit.storedKeys(keyFrames);
  return { signature: '', keyFrames, outcome, track: { frames: Uint16Array.from(keyFrames), rotation, inner } };
}

/** The error of every frame of the decoded track against the source. */
function decodedErrors(track: RotationTrack, source: Float64Array): number[] {
  const decoded = decodeRotationTrack(track);
  const out = new Float64Array(4);
  return Array.from({ length: N + 1 }, (_, t) =>
    rotationErrorDeg(sampleRotationTrack(decoded, t, out), 0, source, t * 4),
  );
}

describe('LocalKeys', () => {
  it('starts from the compressed channel as stored (signs and inner quaternions)', () => {
    let flipped = 0;
    for (const source of sources) {
      const entry = compressed(source);
      const { rotation } = entry.track;
      entry.keyFrames.forEach((f, k) => {
        const dot = [0, 1, 2, 3].reduce((s, c) => s + rotation[k * 4 + c] * source[f * 4 + c], 0);
        if (dot < 0) flipped++;
      });
      const local = new LocalKeys(source, N, tolerance, userKeys, entry).entry('');
      expect(local.keyFrames).toEqual(entry.keyFrames);
      expect(local.track).toEqual(entry.track);
      expect(Array.from(local.outcome.errors)).toEqual(Array.from(entry.outcome.errors));
    }
    expect(flipped).toBeGreaterThan(0);
  });

  it('keeps the added, user and end keys, and every other frame within the tolerance of the decoded track', () => {
    for (const source of sources) {
      const entry = compressed(source);
      const local = new LocalKeys(source, N, tolerance, userKeys, entry);
      // Frames between keys, added in two rounds as the skeleton-aware mode adds them.
      const gaps = entry.keyFrames
        .slice(1)
        .map((b, i) => [entry.keyFrames[i], b])
        .filter(([a, b]) => b - a > 3);
      const first = gaps.filter((_, i) => i % 3 === 0).map(([a, b]) => (a + b) >> 1);
      local.add(first);
      const firstKeys = local.entry('').keyFrames;
      const second = firstKeys
        .slice(1)
        .map((b, i) => [firstKeys[i], b])
        .filter(([a, b]) => b - a > 3)
        .filter((_, i) => i % 4 === 1)
        .map(([a]) => a + 1);
      local.add(second);
      const result = local.entry('');
      for (const f of [0, N, ...userKeys, ...first, ...second]) expect(result.keyFrames).toContain(f);
      const errors = decodedErrors(result.track, source);
      const isKey = new Set(result.keyFrames);
      for (let t = 0; t <= N; t++) {
        expect(result.outcome.errors[t]).toBeCloseTo(errors[t], 9);
        if (!isKey.has(t)) expect(errors[t]).toBeLessThanOrEqual(tolerance);
      }
      expect(result.outcome.maxError).toBe(Math.max(...result.outcome.errors));
    }
  });

  it('without refinement (the classic method) only adds keys', () => {
    for (const source of sources) {
      const entry = compressed(source);
      const local = new LocalKeys(source, N, tolerance, userKeys, entry, false);
      const added = entry.keyFrames.slice(1).map((b, i) => (entry.keyFrames[i] + b) >> 1);
      local.add(added.filter((f) => !entry.keyFrames.includes(f)));
      const result = local.entry('');
      for (const f of [...entry.keyFrames, ...added]) expect(result.keyFrames).toContain(f);
      const errors = decodedErrors(result.track, source);
      for (let t = 0; t <= N; t++) if (!result.keyFrames.includes(t)) expect(errors[t]).toBeLessThanOrEqual(tolerance);
    }
  });
});
