import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { classifyError, fitDistance, jointErrorRatios, onionFrames } from './viewMath';

const ch = (joint: number, tolerance: number, errors: number[]) => ({
  joint,
  tolerance,
  errors: Float64Array.from(errors),
});

describe('jointErrorRatios', () => {
  it("takes each joint's worst channel at the frame, the root translation counting for joint 0", () => {
    const r = jointErrorRatios(
      [ch(-1, 0.5, [0, 0.6]), ch(0, 1, [0.2, 0.1]), ch(1, 2, [1, 3]), ch(1, 0.5, [0.1, 0.2]), ch(2, 1, [0, 0])],
      4,
      1,
    );
    expect(Array.from(r)).toEqual([1.2, 1.5, 0, 0]);
    expect(Array.from(jointErrorRatios([ch(1, 2, [1, 3])], 3, 0))).toEqual([0, 0.5, 0]);
  });

  it('ignores frames past the channel and joints past the skeleton', () => {
    expect(Array.from(jointErrorRatios([ch(5, 1, [9]), ch(0, 1, [9])], 2, 3))).toEqual([0, 0]);
  });
});

describe('classifyError', () => {
  it('is ok up to half the tolerance, near up to the tolerance, over past it', () => {
    expect(classifyError(0)).toBe('ok');
    expect(classifyError(0.5)).toBe('ok');
    expect(classifyError(0.51)).toBe('near');
    expect(classifyError(1)).toBe('near');
    expect(classifyError(1.0001)).toBe('over');
    expect(classifyError(Infinity)).toBe('over');
  });
});

describe('onionFrames', () => {
  it('lists poses before and after, nearest first, clipped to the motion', () => {
    expect(onionFrames(10, 100, 3, 4)).toEqual([6, 14, 2, 18, 22]);
    expect(onionFrames(98, 100, 2, 2)).toEqual([96, 100, 94]);
    expect(onionFrames(5, 10, 0, 2)).toEqual([]);
  });
});

describe('fitDistance', () => {
  /** Largest |ndc| of the points seen by a camera at target + dir * d looking at target. */
  const extent = (pts: number[], target: THREE.Vector3, dir: THREE.Vector3, d: number, fov: number, aspect: number) => {
    const cam = new THREE.PerspectiveCamera(fov, aspect, 0.01, 1e6);
    cam.position.copy(target).addScaledVector(dir, d);
    cam.lookAt(target);
    cam.updateMatrixWorld();
    let m = 0;
    const v = new THREE.Vector3();
    for (let i = 0; i < pts.length; i += 3) {
      v.set(pts[i], pts[i + 1], pts[i + 2]).project(cam);
      m = Math.max(m, Math.abs(v.x), Math.abs(v.y));
    }
    return m;
  };

  // A standing figure 170 tall, 50 wide, with an arm stretched forwards.
  const figure = [0, 0, 0, 25, 90, 0, -25, 90, 0, 0, 170, 0, 0, 140, 60, 10, 5, -10];
  const target = new THREE.Vector3(0, 85, 0);

  for (const [aspect, dir] of [
    [1.6, new THREE.Vector3(0.75, 0.45, 1).normalize()],
    [0.5, new THREE.Vector3(0.75, 0.45, 1).normalize()],
    [1, new THREE.Vector3(0, 0, 1)],
  ] as const) {
    it(`puts the farthest point exactly on the fill border (aspect ${aspect})`, () => {
      const d = fitDistance(figure, [target.x, target.y, target.z], [dir.x, dir.y, dir.z], [0, 1, 0], 40, aspect, 0.8);
      expect(extent(figure, target, dir, d, 40, aspect)).toBeCloseTo(0.8, 6);
      // any nearer and a point leaves the fill area
      expect(extent(figure, target, dir, d * 0.97, 40, aspect)).toBeGreaterThan(0.8);
    });
  }
});
