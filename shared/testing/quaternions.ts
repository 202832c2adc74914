/**
 * Quaternion helpers for the test motion generators (x, y, z, w order, as in shared/math/quat.ts), which build
 * rotations a frame at a time as plain arrays.
 */
import { mulQuat } from '../math/quat';
import type { Motion } from '../motion/types';

/** The rotation of `deg` degrees about `ax` (any length; a zero axis is taken as having length 1). */
export function axisAngle(ax: readonly number[], deg: number): number[] {
  const h = (deg * Math.PI) / 360;
  const l = Math.hypot(ax[0], ax[1], ax[2]) || 1;
  return [(ax[0] / l) * Math.sin(h), (ax[1] / l) * Math.sin(h), (ax[2] / l) * Math.sin(h), Math.cos(h)];
}

/** The product a*b as a new array (mulQuat). */
export function quatProduct(a: readonly number[], b: readonly number[]): number[] {
  return mulQuat([0, 0, 0, 0], a, b) as number[];
}

/** Sets joint j's rotation at frame f. */
export function setRotation(m: Motion, f: number, j: number, q: readonly number[]): void {
  m.rotation.set(q, (f * m.joints.length + j) * 4);
}
