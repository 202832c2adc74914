import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { emptyMotion, makeJoint } from '../../shared/motion/types';
import { parentsOf } from '../math/pose';
import {
  FRAME_FILL,
  THREE_QUARTER_VIEW,
  characterBox,
  fitCamera,
  followRoot,
  motionExtent,
  poseExtentNdc,
} from './framing';

/** A root walking +x 10 units a frame for 10 frames, with a head 10 units above it and a hand 3 units ahead. */
function walker() {
  const joint = (parent: number, name: string) => makeJoint({ parent, mirror: 0, part: 0, reserved: 0, name });
  const m = emptyMotion(10, [joint(-1, 'root'), joint(0, 'head'), joint(0, 'hand')]);
  for (let f = 0; f <= 10; f++) {
    m.translation[f * 4] = f * 10;
    m.offset.set([0, 10, 0], (f * 3 + 1) * 4);
    m.offset.set([0, 5, 3], (f * 3 + 2) * 4);
  }
  return m;
}

describe('motionExtent', () => {
  it('covers the root path in the bounds, and the room around the root in the envelope', () => {
    const m = walker();
    const e = motionExtent(m, parentsOf(m));
    expect(Array.from(e.trajectory.subarray(30, 33))).toEqual([100, 0, 0]);
    expect(e.bounds.min.toArray()).toEqual([0, 0, 0]);
    expect(e.bounds.max.toArray()).toEqual([100, 10, 3]);
    // Relative to the root on the floor plane: the walk itself is not in it.
    expect(e.envelope.min.toArray()).toEqual([0, 0, 0]);
    expect(e.envelope.max.toArray()).toEqual([0, 10, 3]);
  });
});

describe('characterBox', () => {
  it('places the envelope at the root on the floor plane and takes in the pose on screen', () => {
    const env = new THREE.Box3(new THREE.Vector3(-1, 0, -2), new THREE.Vector3(1, 10, 2));
    const box = characterBox(env, new THREE.Vector3(50, 7, 20), Float32Array.from([50, 0, 20, 50, 12, 20]), 2);
    expect(box.min.toArray()).toEqual([49, 0, 18]);
    // y is not moved by the root; the pose's joint at y 12 raises the top.
    expect(box.max.toArray()).toEqual([51, 12, 22]);
  });
});

describe('fitCamera', () => {
  it('puts the box in view, filling FRAME_FILL of it, looking at its centre', () => {
    const camera = new THREE.PerspectiveCamera(40, 16 / 9, 0.1, 1000);
    const target = new THREE.Vector3();
    const box = new THREE.Box3(new THREE.Vector3(-5, 0, -5), new THREE.Vector3(5, 20, 5));
    fitCamera(camera, target, box, THREE_QUARTER_VIEW, 0);
    expect(target.toArray()).toEqual([0, 10, 0]);
    const corners: number[] = [];
    for (let i = 0; i < 8; i++) corners.push(i & 1 ? 5 : -5, i & 2 ? 20 : 0, i & 4 ? 5 : -5);
    const extent = poseExtentNdc(camera, [Float32Array.from(corners)], 8);
    expect(extent).toBeLessThanOrEqual(FRAME_FILL + 1e-6);
    expect(extent).toBeGreaterThan(FRAME_FILL * 0.9);
    // From the asked direction.
    const dir = camera.position.clone().sub(target).normalize();
    expect(dir.distanceTo(THREE_QUARTER_VIEW)).toBeLessThan(1e-9);
    // Never nearer than minDistance.
    fitCamera(camera, target, box, THREE_QUARTER_VIEW, 500);
    expect(camera.position.distanceTo(target)).toBeCloseTo(500, 6);
  });
});

describe('followRoot and poseExtentNdc', () => {
  it('moves camera and target with the root horizontally only', () => {
    const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 1000);
    camera.position.set(0, 5, 50);
    const target = new THREE.Vector3(0, 5, 0);
    expect(followRoot(camera, target, new THREE.Vector3(0, 0, 0), new THREE.Vector3(4, 9, -2))).toBe(true);
    expect(camera.position.toArray()).toEqual([4, 5, 48]);
    expect(target.toArray()).toEqual([4, 5, -2]);
    expect(followRoot(camera, target, new THREE.Vector3(4, 0, -2), new THREE.Vector3(4, 3, -2))).toBe(false);
  });

  it('reports a joint behind the camera as out of view', () => {
    const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 1000);
    camera.position.set(0, 0, 10);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    expect(poseExtentNdc(camera, [Float32Array.from([0, 0, 0])], 1)).toBe(0);
    expect(poseExtentNdc(camera, [Float32Array.from([0, 0, 0, 0, 0, 20])], 2)).toBe(Infinity);
  });
});
