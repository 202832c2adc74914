import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { counted, disposeDrawables, liveMaterials } from './gpuResources';

/** Counts the `dispose` events a geometry or material sends (three.js frees GPU memory on them). */
function disposals(target: THREE.BufferGeometry | THREE.Material): () => number {
  let n = 0;
  target.addEventListener('dispose', () => n++);
  return () => n;
}

describe('gpuResources', () => {
  it('counts a material as live from counted() until its dispose(), once', () => {
    const before = liveMaterials();
    const m = counted(new THREE.LineBasicMaterial());
    expect(liveMaterials()).toBe(before + 1);
    m.dispose();
    expect(liveMaterials()).toBe(before);
    m.dispose(); // a second dispose is not a second release
    expect(liveMaterials()).toBe(before);
  });

  it('frees each object geometry and material and takes it out of its parent', () => {
    const parent = new THREE.Group();
    const line = new THREE.Line(new THREE.BufferGeometry(), new THREE.LineBasicMaterial());
    const mesh = new THREE.Mesh(new THREE.BufferGeometry(), [
      new THREE.MeshBasicMaterial(),
      new THREE.MeshBasicMaterial(),
    ]);
    parent.add(line, mesh);
    const counts = [
      disposals(line.geometry),
      disposals(line.material),
      disposals(mesh.geometry),
      disposals(mesh.material[0]),
      disposals(mesh.material[1]),
    ];
    disposeDrawables(line, mesh);
    expect(counts.map((c) => c())).toEqual([1, 1, 1, 1, 1]);
    expect(parent.children).toEqual([]);
  });

  it('frees a geometry two objects share once, and both their materials', () => {
    const g = new THREE.BufferGeometry();
    const line = new THREE.Line(g, new THREE.LineBasicMaterial());
    const points = new THREE.Points(g, new THREE.PointsMaterial());
    const counts = [disposals(g), disposals(line.material), disposals(points.material)];
    disposeDrawables(line, points);
    expect(counts.map((c) => c())).toEqual([1, 1, 1]);
  });
});
