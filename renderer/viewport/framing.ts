/**
 * Camera framing for the viewport: what a motion covers (the root's path, the bounds of every pose, the room
 * the character needs around its root), where the camera goes to frame a box, and how Follow keeps the
 * character in view. The scene (scene.ts) owns the camera and asks these functions where to put it.
 */
import * as THREE from 'three';
import type { Motion } from '../../shared/motion/types';
import { createPoseBuffers, solvePose, sourceOffset, sourceRotation } from '../math/pose';
import { fitDistance } from './viewMath';

/** While following, the pose is re-framed as soon as a joint leaves this fraction of the view (NDC). */
export const FOLLOW_LIMIT = 0.92;
/** How much of the view (NDC) the framed character fills. */
export const FRAME_FILL = 0.8;
/** Frame all looks from the front-right, three-quarters (Z+ is forward in MGS2 motions). */
export const THREE_QUARTER_VIEW = new THREE.Vector3(0.75, 0.45, 1).normalize();
/** Poses sampled over a motion for its bounds and envelope (every frame of a short one). */
const EXTENT_SAMPLES = 240;

export interface MotionExtent {
  /** The root's position per frame (x, y, z), frames 0..N. */
  trajectory: Float32Array;
  /** Every joint of the sampled poses, in world space. */
  bounds: THREE.Box3;
  /**
   * Every sampled pose's joints relative to that frame's root on the floor plane (x, z; y stays world): the
   * room the character needs around its root, for framing it whatever frame is on screen.
   */
  envelope: THREE.Box3;
}

/** The root's path, the bounds and the envelope of the source motion (poses of about EXTENT_SAMPLES frames). */
export function motionExtent(m: Motion, parents: Int32Array): MotionExtent {
  const N = m.frameCount;
  const trajectory = new Float32Array((N + 1) * 3);
  const bounds = new THREE.Box3();
  const envelope = new THREE.Box3();
  const pose = createPoseBuffers(parents.length);
  const v = new THREE.Vector3();
  const step = Math.max(1, Math.floor((N + 1) / EXTENT_SAMPLES));
  for (let f = 0; f <= N; f++) {
    trajectory[f * 3] = m.translation[f * 4];
    trajectory[f * 3 + 1] = m.translation[f * 4 + 1];
    trajectory[f * 3 + 2] = m.translation[f * 4 + 2];
    if (f % step !== 0 && f !== N) continue;
    solvePose(parents, m.translation.subarray(f * 4, f * 4 + 3), sourceRotation(m, f), sourceOffset(m, f), pose);
    for (let j = 0; j < parents.length; j++) {
      bounds.expandByPoint(v.fromArray(pose.positions, j * 3));
      envelope.expandByPoint(v.set(v.x - m.translation[f * 4], v.y, v.z - m.translation[f * 4 + 2]));
    }
  }
  return { trajectory, bounds, envelope };
}

/** The envelope placed at `root` (floor plane), joined with the `jointCount` joints of the pose on screen. */
export function characterBox(
  envelope: THREE.Box3,
  root: THREE.Vector3,
  positions: Float32Array,
  jointCount: number,
): THREE.Box3 {
  const box = envelope.clone();
  box.min.x += root.x;
  box.max.x += root.x;
  box.min.z += root.z;
  box.max.z += root.z;
  const v = new THREE.Vector3();
  for (let j = 0; j < jointCount; j++) box.expandByPoint(v.fromArray(positions, j * 3));
  return box;
}

/**
 * Puts the camera on the line from the box's centre along `toCamera`, at the distance where the box's eight
 * corners fill FRAME_FILL of the view (viewMath.fitDistance), never nearer than `minDistance`; `target` (the
 * orbit controls' target) becomes the centre. The caller updates its controls.
 */
export function fitCamera(
  camera: THREE.PerspectiveCamera,
  target: THREE.Vector3,
  box: THREE.Box3,
  toCamera: THREE.Vector3,
  minDistance: number,
): void {
  const center = box.getCenter(new THREE.Vector3());
  const corners: number[] = [];
  for (let i = 0; i < 8; i++)
    corners.push(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
  const up = camera.up;
  const fit = fitDistance(
    corners,
    [center.x, center.y, center.z],
    [toCamera.x, toCamera.y, toCamera.z],
    [up.x, up.y, up.z],
    camera.fov,
    camera.aspect,
    FRAME_FILL,
  );
  const dist = Math.max(1e-3, fit, minDistance);
  camera.near = Math.max(0.01, dist / 1000);
  camera.far = Math.max(camera.far, dist * 100);
  camera.position.copy(center).addScaledVector(toCamera, dist);
  target.copy(center);
  camera.lookAt(center);
  camera.updateProjectionMatrix();
  camera.updateMatrixWorld();
}

/**
 * Follow: moves camera and target with the root from `anchor` to `root`, horizontally only so the floor stays
 * put. Returns whether they moved.
 */
export function followRoot(
  camera: THREE.Camera,
  target: THREE.Vector3,
  anchor: THREE.Vector3,
  root: THREE.Vector3,
): boolean {
  const delta = root.clone().sub(anchor);
  delta.y = 0;
  if (delta.lengthSq() === 0) return false;
  camera.position.add(delta);
  target.add(delta);
  return true;
}

/** Largest |x| or |y| (NDC) of the first `jointCount` joints of the poses; Infinity when one is behind the camera. */
export function poseExtentNdc(
  camera: THREE.PerspectiveCamera,
  poses: readonly Float32Array[],
  jointCount: number,
): number {
  const v = new THREE.Vector3();
  let m = 0;
  const view = camera.matrixWorldInverse;
  for (const positions of poses)
    for (let j = 0; j < jointCount; j++) {
      v.fromArray(positions, j * 3).applyMatrix4(view);
      if (v.z >= -camera.near) return Infinity;
      v.applyMatrix4(camera.projectionMatrix);
      m = Math.max(m, Math.abs(v.x), Math.abs(v.y));
    }
  return m;
}
