/**
 * The one way to reach three.js's loaders (threeLoaders.ts). The dynamic
 * import is the chunk boundary: scripts/build.mjs points it at the separate
 * threeLoaders.cjs beside a Node bundle, Vite splits it for the renderer, and
 * vitest imports the module itself. Loaded once; later calls share it.
 */
export type ThreeLoaders = typeof import('./threeLoaders');

let loading: Promise<ThreeLoaders> | undefined;

export function loadThreeLoaders(): Promise<ThreeLoaders> {
  loading ??= import('./threeLoaders');
  return loading;
}
