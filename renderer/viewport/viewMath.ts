/**
 * Pure maths of the viewport (no three.js, no DOM), unit-tested on its own:
 * each joint's error against its tolerance at a frame, the class it is drawn
 * in, the frames of the onion skin, and the camera distance that keeps a set
 * of points inside the view.
 */
import type { ChannelReport } from '../../shared/compress/types';

/** How a joint's error at the current frame compares with its tolerance. */
export type ErrorClass = 'ok' | 'near' | 'over';

/** Error / tolerance at or under this is 'ok' (green); over 1 is 'over' (red); between is 'near' (amber). */
export const NEAR_FRACTION = 0.5;

/**
 * Each joint's largest error / tolerance at `frame` over its channels (rotation, offset; the root translation
 * counts for joint 0, the joint it moves). Joints without a channel get 0.
 */
export function jointErrorRatios(
  channels: readonly Pick<ChannelReport, 'joint' | 'tolerance' | 'errors'>[],
  jointCount: number,
  frame: number,
): Float64Array {
  const out = new Float64Array(jointCount);
  for (const ch of channels) {
    const j = ch.joint < 0 ? 0 : ch.joint;
    if (j >= jointCount || frame < 0 || frame >= ch.errors.length) continue;
    const e = ch.errors[frame];
    const r = ch.tolerance > 0 ? e / ch.tolerance : e > 0 ? Infinity : 0;
    if (r > out[j]) out[j] = r;
  }
  return out;
}

export function classifyError(ratio: number): ErrorClass {
  if (ratio > 1) return 'over';
  if (ratio > NEAR_FRACTION) return 'near';
  return 'ok';
}

/**
 * Frames of the onion skin around `frame`: `count` before and `count` after, `step` frames apart, clipped to
 * 0..frameCount (nearest first on each side).
 */
export function onionFrames(frame: number, frameCount: number, count: number, step: number): number[] {
  const out: number[] = [];
  const s = Math.max(1, Math.round(step));
  for (let i = 1; i <= count; i++) {
    if (frame - i * s >= 0) out.push(frame - i * s);
    if (frame + i * s <= frameCount) out.push(frame + i * s);
  }
  return out;
}

type Vec3 = readonly [number, number, number];

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: Vec3, b: Vec3): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalize(a: Vec3): [number, number, number] {
  const n = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / n, a[1] / n, a[2] / n];
}

/**
 * The smallest distance from `target` along `toCamera` (unit, from the target towards the camera) at which a
 * perspective camera looking at `target` sees every point (xyz triples) inside the inner `fill` fraction of
 * the view, vertically (`vfovDeg`) and horizontally (`aspect` = width / height). Exact for a pinhole camera:
 * a point at lateral offset x and depth d - z is inside when |x| <= (d - z) * tan(half fov) * fill.
 */
export function fitDistance(
  points: ArrayLike<number>,
  target: Vec3,
  toCamera: Vec3,
  up: Vec3,
  vfovDeg: number,
  aspect: number,
  fill = 0.85,
): number {
  const back = normalize(toCamera);
  const right = normalize(cross(up, back));
  const trueUp = cross(back, right);
  const tanV = Math.tan(((vfovDeg / 2) * Math.PI) / 180) * fill;
  const tanH = tanV * aspect;
  let d = 0;
  for (let i = 0; i + 2 < points.length; i += 3) {
    const p: Vec3 = [points[i] - target[0], points[i + 1] - target[1], points[i + 2] - target[2]];
    const z = dot(p, back);
    d = Math.max(d, z + Math.abs(dot(p, right)) / tanH, z + Math.abs(dot(p, trueUp)) / tanV);
  }
  return d;
}
