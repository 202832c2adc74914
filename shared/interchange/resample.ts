/** Target-frame timing shared by the importers. */
import { BINARY_MAX_BYTES } from '../binarySize';
import { snapFrameRate, type SnappedRate } from '../motion/frameRate';
import { mtnByteSize } from '../mtn/constants';

/**
 * Number of target frames N (the motion has N+1 samples) covering `duration`
 * seconds at `fps`: the last sample never lies past the source's end, and N is
 * at least 1 (MTN needs two samples; a one-sample source is held).
 */
export function targetFrameCount(duration: number, fps: number): number {
  // 1e-3 frame of slack: glTF key times are float32 (22.9 s * 30 = 686.99998).
  return Math.max(1, Math.floor(duration * fps + 1e-3));
}

/**
 * The bytes of an `.mtn` of N frames of J joints when that is more than ActGuy reads of one (BINARY_MAX_BYTES), else
 * undefined: the bound on a motion made from a smaller file, by an import (importedSizeProblem) or a project's
 * resampling (motion/resample.ts resampledFrameCount), each saying it in its own words.
 */
export function mtnBytesBeyondReadable(N: number, J: number): number | undefined {
  const bytes = mtnByteSize(N, J);
  return bytes > BINARY_MAX_BYTES ? bytes : undefined;
}

/**
 * Why an import of N frames of J joints is refused before any frame is made, or undefined: the motion would be
 * larger than any `.mtn` ActGuy reads back (BINARY_MAX_BYTES). Checked where each importer knows N and J, so that
 * a received 1 MB BVH of 1,024 joints and 100 frames 10 s apart is refused at once, naming it: it was imported to
 * 29,700 frames first (47 s, 1.5 GB) and then refused as "MTN (size)", naming no file (docs/security.md, round 37).
 */
export function importedSizeProblem(N: number, J: number): string | undefined {
  const bytes = mtnBytesBeyondReadable(N, J);
  if (bytes === undefined) return undefined;
  return `${N} frames of ${J} joints would be ${bytes} bytes as an .mtn, more than the ${BINARY_MAX_BYTES} bytes (1 GiB) ActGuy reads back; nothing was imported (lower --fps, or split the clip)`;
}

/**
 * Source rate used for resampling a BVH. Files print "Frame Time" with few
 * digits (CMU writes .0083333 for 1/120 s); a rate within 0.01 % of a standard
 * rate (24, 25, 30, 48, 50, 60, 90, 100, 120, 240) is that rate, so 120 -> 30
 * fps maps every target frame exactly onto a source frame. `snappedFrom` is
 * the rate the file gave, when it was snapped.
 */
export function bvhSourceRate(frameTime: number): SnappedRate {
  return snapFrameRate(1 / frameTime);
}

/** Source position of target frame f: the sample index pair and the blend. */
export function sourcePosition(
  f: number,
  fps: number,
  sourceRate: number,
  sourceSamples: number,
): { a: number; b: number; u: number } {
  const s = Math.min((f * sourceRate) / fps, sourceSamples - 1);
  let a = Math.floor(s);
  // Exact rational ratios land on integers; float noise must not push them to the previous sample.
  if (s - a > 1 - 1e-9) a += 1;
  a = Math.min(a, sourceSamples - 1);
  const u = Math.max(0, s - a);
  return { a, b: Math.min(a + 1, sourceSamples - 1), u: u < 1e-9 ? 0 : u };
}

/**
 * Key times are float32 in glTF (and FBX ticks in seconds are inexact), so f / fps of a file
 * sampled at our rate misses its key by an ulp and would blend two keys. A target time within
 * 1e-3 frame of a key is moved onto that key: the stored value comes back exactly.
 */
export function snapToKey(times: ArrayLike<number>, t: number, fps: number): number {
  let lo = 0,
    hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  for (const k of [lo - 1, lo]) if (k >= 0 && k < times.length && Math.abs(times[k] - t) * fps < 1e-3) return times[k];
  return t;
}
