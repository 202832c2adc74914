import { S12_SCALE } from '../math/s12';
import { initialKeys, KeyList, MAX_KEY_GAP } from './keyList';
import { RotationFit } from './rotationFit';
import type { TrackFit } from './track';

/**
 * Whether every frame of a channel's source (`width` values a frame: 3 for a position, 4 for a rotation) holds
 * frame 0's values.
 */
export function isConstantSource(source: Float64Array, width: number): boolean {
  for (let i = width; i < source.length; i++) if (source[i] !== source[i % width]) return false;
  return true;
}

/**
 * The start of a constant channel whose evenly spread start (initialKeys) leaves a frame over `tolerance`, for the
 * greedy loop (docs/compression.md, round 10); null when the channel is not constant or that start holds.
 *
 * Every key of a constant channel stores the same values, so a segment's decoded frames depend only on its length:
 * at a tolerance equal to the key's own error (the channel's precision floor) some lengths decode a rounding step off
 * the key value at some frame (h00 p + h01 p is not always p, Squad between equal quaternions renormalises) and
 * others do not (every power of two, for a position). The greedy loop then keyed the frames of those steps one at a
 * time: 297 keys of 2,001 frames for the root of round 9's constant pose, classic. This start tries each length up
 * to 255 once and fills every gap between the required keys (0, N, `userKeys`) with the fewest segments of lengths
 * that hold, the longest first; the greedy loop then measures every segment as usual, so the guarantee is its own.
 */
export function constantChannelStart(
  fit: TrackFit,
  source: Float64Array,
  width: number,
  userKeys: ArrayLike<number>,
  tolerance: number,
): KeyList | null {
  const N = fit.N;
  if (N < 2 || !isConstantSource(source, width)) return null;
  const scratch = new Float64Array(N + 1);
  const verdict = new Int8Array(MAX_KEY_GAP + 1);
  /** Whether a segment of `d` frames between two keys of the channel decodes every interior frame within it. */
  const holds = (d: number): boolean => {
    if (verdict[d] === 0) {
      fit.fitKey(0, -1, d);
      fit.fitKey(d, 0, -1);
      verdict[d] = fit.segmentError(0, d, scratch) <= tolerance ? 1 : -1;
    }
    return verdict[d] === 1;
  };
  const start = initialKeys(N, userKeys);
  let holdsAll = true;
  for (let a = 0; a !== N && holdsAll; a = start.next[a]) holdsAll = holds(start.next[a] - a);
  if (holdsAll) return null;
  const lengths: number[] = [];
  for (let d = Math.min(MAX_KEY_GAP, N); d >= 1; d--) if (holds(d)) lengths.push(d);
  const required = [0];
  for (let i = 0; i < userKeys.length; i++) if (userKeys[i] > 0 && userKeys[i] < N) required.push(userKeys[i]);
  required.push(N);
  const frames: number[] = [0];
  for (let i = 1; i < required.length; i++) {
    const a = required[i - 1];
    const gap = required[i] - a;
    if (gap === 0) continue;
    // fewest[g]: the fewest segments of lengths that hold covering g frames (a segment of 1 frame always holds).
    const fewest = new Int32Array(gap + 1).fill(0x7fffffff);
    fewest[0] = 0;
    for (let g = 1; g <= gap; g++)
      for (const d of lengths) if (d <= g && fewest[g - d] + 1 < fewest[g]) fewest[g] = fewest[g - d] + 1;
    for (let g = gap; g > 0;) {
      const d = lengths.find((l) => l <= g && fewest[g - l] === fewest[g] - 1)!;
      g -= d;
      frames.push(a + gap - g);
    }
  }
  return KeyList.fromFrames(N, frames);
}

/** How many inner quaternions constantRotationInner measures, the nearest its target first. */
const INNER_TRIES = 16;

/**
 * The inner quaternion (s12 integers x, y, z, w) that lets a constant rotation channel keep the evenly spread start
 * (initialKeys) where the classic fit's does not; null when the channel is not constant, its key is over
 * `tolerance`, or that start holds already (docs/compression.md, round 11).
 *
 * The classic fit's inner quaternion of a constant channel is its key, and between two equal keys the Squad
 * decodes the key rotation renormalised, a rounding step off it at some frames of some segment lengths: at a
 * tolerance equal to the key's error (the channel's floor) classic took 18 keys of 2,001 frames where 9 hold.
 * Every key of the channel stores the same rotation, so one inner quaternion a for every key pulls every segment
 * alike, toward a by a fraction 2u(1-u) <= 1/2 of their angle, and where the pull leaves every interior frame
 * nearer the source than the key, no rounding step is over. This measures the s12 quaternions nearest the one that
 * pulls half way to the source (INNER_TRIES of them) on each segment length of the start and returns the first
 * under which every one holds; the greedy loop then measures every segment as usual, so the guarantee is its own.
 */
export function constantRotationInner(
  source: Float64Array,
  N: number,
  userKeys: ArrayLike<number>,
  tolerance: number,
): Int16Array | null {
  if (N < 2 || !isConstantSource(source, 4)) return null;
  const start = initialKeys(N, userKeys);
  const lengths = new Set<number>();
  for (let a = 0; a !== N; a = start.next[a]) lengths.add(start.next[a] - a);
  // A segment of d frames decodes alike wherever it lies: measure it on the first d + 1 frames.
  const span = Math.min(N, MAX_KEY_GAP);
  const fit = new RotationFit(source.subarray(0, 4 * (span + 1)), span);
  const scratch = new Float64Array(span + 1);
  fit.fitKey(0, -1, 1);
  if (!(fit.keyError(0) <= tolerance)) return null;
  const holdsAll = (): boolean => {
    for (const d of lengths) {
      if (d < 2) continue;
      fit.fitKey(0, -1, d);
      fit.fitKey(d, 0, -1);
      if (!(fit.segmentError(0, d, scratch) <= tolerance)) return false;
    }
    return true;
  };
  if (holdsAll()) return null;
  // Every interior frame decodes at a fraction f <= 1/2 of the way from q to a, and |q + f (a - q) - s| is convex in
  // f: it stays within the key's error where the half-way point does, that is where a lies within twice the key's
  // error of r, the reflection of q through the source s. The s12 points nearest r's direction at each scale k
  // (round(k r), k from 2047 down to 1024) are tried nearest first.
  const key = fit.q.subarray(0, 4);
  const r = [0, 1, 2, 3].map((c) => 2 * source[c] - key[c]);
  const norm = Math.hypot(...r);
  const candidates = new Map<string, { inner: Int16Array; off: number }>();
  for (let k = S12_SCALE; k >= 1024; k--) {
    const inner = Int16Array.from(r, (x) => Math.round((k * x) / norm));
    const n = Math.hypot(...inner);
    const off = Math.hypot(...[0, 1, 2, 3].map((c) => inner[c] / n - r[c] / norm));
    candidates.set(inner.join(), { inner, off });
  }
  const tries = [...candidates.values()].sort((x, y) => x.off - y.off).slice(0, INNER_TRIES);
  for (const c of tries) {
    fit.fixedInner = c.inner;
    if (holdsAll()) return c.inner;
  }
  return null;
}

/**
 * The error of a constant channel's key (its source rounded to h16 / s12), the least error any of its frames can
 * have; -Infinity when the channel is not constant. `fit` is a fit of the channel's first two frames (N = 1).
 */
export function constantChannelFloor(fit: TrackFit, source: Float64Array, width: number): number {
  if (!isConstantSource(source, width)) return -Infinity;
  fit.fitKey(0, -1, 1);
  return fit.keyError(0);
}
