/**
 * The viewport's GPU-side objects, made and freed in one place. three.js frees a geometry's buffers and a material's
 * program only when `dispose()` is called on it: an object taken out of the scene without that stays on the GPU for
 * the life of the page. Every material the viewport makes is counted here (`liveMaterials`), as three.js counts
 * geometries and textures in `renderer.info.memory`, so a test can see that closing a motion frees what opening it
 * made (the viewport publishes the three counts on its canvas, renderer/viewport/scene.ts).
 */
import type * as THREE from 'three';

let live = 0;

/** Materials made through `counted` and not yet disposed. */
export function liveMaterials(): number {
  return live;
}

/** Counts `material` as live until its `dispose()`. */
export function counted<M extends THREE.Material>(material: M): M {
  live++;
  const onDispose = () => {
    live--;
    material.removeEventListener('dispose', onDispose);
  };
  material.addEventListener('dispose', onDispose);
  return material;
}

/** A drawable object of the viewport: one geometry and one material (or several). */
type Drawable = THREE.Object3D & { geometry: THREE.BufferGeometry; material: THREE.Material | THREE.Material[] };

/**
 * Takes `object` out of its parent and frees its geometry and material(s). A geometry shared by two objects (the
 * trace's line and its key points) is freed once: pass both together.
 */
export function disposeDrawables(...objects: Drawable[]): void {
  const geometries = new Set<THREE.BufferGeometry>();
  const materials = new Set<THREE.Material>();
  for (const o of objects) {
    o.removeFromParent();
    geometries.add(o.geometry);
    for (const m of Array.isArray(o.material) ? o.material : [o.material]) materials.add(m);
  }
  for (const g of geometries) g.dispose();
  for (const m of materials) m.dispose();
}
