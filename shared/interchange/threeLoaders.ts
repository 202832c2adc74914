/**
 * The third-party interchange code (three.js and its file loaders), behind one
 * module boundary: nothing imports this module directly except
 * `loadThreeLoaders()` (loadThreeLoaders.ts), so the CLI and the app load
 * three.js only when a glTF (or another three-loaded format) is imported.
 * scripts/build.mjs builds it as its own chunk beside every Node bundle that
 * needs it (docs/compression.md#cli-start-up).
 *
 * Only third-party code belongs here: a module of ours pulled into the chunk
 * would exist twice at run time (once in each bundle), and an `instanceof`
 * against the other copy's class (FormatError, say) would fail. A new loader
 * is one more `export ... from` line here, used through `loadThreeLoaders()`.
 */
export { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
export { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
// The FBX importer poses the loader's scene with three's own math types (shared/interchange/fbx/import.ts).
export { Euler, Matrix4, Quaternion, Vector3 } from 'three';
