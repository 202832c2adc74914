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
  const k0 = a.keys[k];
  const k1 = a.keys[k + 1];
  if (t === k0.time) return keyPose(k0);
  if (t === k1.time) return keyPose(k1);
  const alpha = (t - k0.time) / (k1.time - k0.time);
  const p0 = keyPose(k0);
  const p1 = keyPose(k1);
  return {
    position: [0, 1, 2].map((i) => p0.position[i] + (p1.position[i] - p0.position[i]) * alpha) as [
      number,
      number,
      number,
    ],
    rotation: quatSlerpShortest(p0.rotation, p1.rotation, alpha) as [number, number, number, number],
  };
}
