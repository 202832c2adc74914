import { quatSlerpShortest } from '../interchange/kinematics';
import { MSH_NO_MAP, MSH_QUAT_SCALE } from './constants';
import type { MshAnimation, MshKey, MshPose } from './types';

/** Round half to even (banker's rounding), as docs/formats.md 7's frame lookup uses. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** A key's stored values as a pose: float32 position, s16 / 32767 rotation reordered to x, y, z, w. */
export function keyPose(k: MshKey): MshPose {
  const [w, x, y, z] = k.quatWXYZ;
  return {
    position: [k.position[0], k.position[1], k.position[2]],
    rotation: [x / MSH_QUAT_SCALE, y / MSH_QUAT_SCALE, z / MSH_QUAT_SCALE, w / MSH_QUAT_SCALE],
  };
}

/**
 * Samples node `node` at time `t` (finite, >= 0, in frames) exactly as
 * docs/formats.md 7 says: frame = round_half_even(t - 0.5); outside the timeline, or
 * without a map, or when the map word is at or past the fallback key, the
 * fallback key exactly; else lerp positions and slerp (shortest path)
 * rotations between key k and k+1, returning a key exactly at its own time.
 */
export function sampleMshNode(a: MshAnimation, node: number, t: number): MshPose {
  const n = a.nodes[node];
  const fallback = () => keyPose(a.keys[n.fallbackKey]);
  const frame = roundHalfEven(t - 0.5);
  if (n.animMapStart === MSH_NO_MAP || frame < 0 || frame > a.frameCount - 1) return fallback();
  const k = a.mapWords[n.animMapStart + frame];
  if (k >= n.fallbackKey) return fallback();
  return sampleMshSegment(a.keys[k], a.keys[k + 1], t);
}

/**
 * The pose at time `t` between keys k0 and k1 (k0.time <= t <= k1.time), as sampleMshNode gives it there: a key
 * exactly at its own time, else lerp positions and slerp (shortest path) rotations. It depends on these two keys
 * alone, so the MSH export measures a segment's frames again only when a key goes into that segment.
 */
export function sampleMshSegment(k0: MshKey, k1: MshKey, t: number): MshPose {
  return mshSegmentSampler(k0, k1)(t);
}

/** sampleMshSegment(k0, k1, t) as a function of t, the keys' poses read once (the export measures every frame). */
export function mshSegmentSampler(k0: MshKey, k1: MshKey): (t: number) => MshPose {
  const p0 = keyPose(k0);
  const p1 = keyPose(k1);
  return (t) => {
    if (t === k0.time) return keyPose(k0);
    if (t === k1.time) return keyPose(k1);
    const alpha = (t - k0.time) / (k1.time - k0.time);
    return {
      position: [
        p0.position[0] + (p1.position[0] - p0.position[0]) * alpha,
        p0.position[1] + (p1.position[1] - p0.position[1]) * alpha,
        p0.position[2] + (p1.position[2] - p0.position[2]) * alpha,
      ],
      rotation: quatSlerpShortest(p0.rotation, p1.rotation, alpha) as [number, number, number, number],
    };
  };
}
