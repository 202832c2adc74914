/**
 * Fuzz target `gltf-nodes` (added 2026-12-06): the glTF importer's node tree (shared/interchange/gltf/validate.ts and
 * import.ts: parents, the skin's joints and its common root, nodes between joints, scene roots). The `gltf` and `glb`
 * targets reach it only through random JSON edits, which mostly break the file elsewhere first; here an input is a
 * recipe of bytes that rebuilds the tree of a small exported rig (4 joints, a mesh node, animated): extra nodes, each
 * node's parent (none, any node, itself), a node shared by two parents, the skin's joint list (any nodes, one out of
 * range, none), the scene's roots, a scale of 0 or a matrix on a node. The animation is left as exported.
 *
 * Judged as `glb`: a refusal must be a FormatError naming the file and a place; any other throw is a crash; an
 * accepted import must give a motion that validates and survives an MTN round trip, with no more joints than nodes.
 */
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { readGltfContainer, writeGlb, type GltfJson } from '../../shared/interchange/gltf/glb';
import { importMotionBytes } from '../../shared/interchange/importMotion';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { checkMotionSaves, judgeAsync, must, type FuzzTarget } from './judge';
import { mutateRecipe } from './mutate';

const RIG = (() => {
  const m = syntheticMotion({ frames: 4, joints: 4, seed: 8 });
  m.joints.forEach((j, i) => (j.name = ['Hips', 'Spine', 'LeftArm', 'RightArm'][i]));
  return readGltfContainer(motionToGlb(m));
})();

/** The rig's tree rebuilt from `recipe` (each byte read in turn, 0 when it runs out). */
function gltfOfRecipe(recipe: Uint8Array): Uint8Array {
  let at = 0;
  const next = () => recipe[at++] ?? 0;
  const json = JSON.parse(JSON.stringify(RIG.json)) as GltfJson;
  const nodes = json.nodes!;
  for (let k = next() % 8; k > 0; k--) nodes.push({ name: `extra${nodes.length}` });
  const N = nodes.length;
  for (const n of nodes) delete n.children;
  const roots: number[] = [];
  nodes.forEach((n, i) => {
    const b = next();
    const parent = b % (N + 2); // N, N+1: a root
    if (parent >= N) roots.push(i);
    else (nodes[parent].children ??= []).push(i);
    if (b & 0x80) (nodes[(b >> 3) % N].children ??= []).push(i); // a second parent, now and then
    const t = next();
    if (t % 16 === 1) n.scale = [0, 0, 0];
    if (t % 16 === 2) {
      delete n.translation;
      delete n.rotation;
      delete n.scale;
      n.matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, (t >> 4) - 8, 0, 0, 1];
    }
  });
  const skin = json.skins?.[0];
  if (skin) {
    const mask = next() | (next() << 8);
    const joints = nodes.map((_, i) => i).filter((i) => mask & (1 << (i % 16)));
    if (mask === 0xffff) joints.push(N + next()); // one past the nodes
    const ibm = skin.inverseBindMatrices;
    // The joints kept as listed when the mask asks for them all (the exported skin), else the nodes it picks; the
    // inverse bind matrices (one per exported joint) go when the count changes.
    if (mask !== 0) {
      skin.joints = mask === 0x0f ? skin.joints : joints;
      if (skin.joints.length !== RIG.json.skins![0].joints.length && ibm !== undefined) delete skin.inverseBindMatrices;
    }
  }
  const extraRoots = next();
  json.scenes = [{ nodes: extraRoots & 1 ? [...roots, extraRoots % N] : roots }];
  return writeGlb(json, RIG.bin);
}

export const gltfNodesTarget: FuzzTarget = {
  name: 'gltf-nodes',
  ext: 'recipe',
  seeds: () =>
    [
      [0, 5, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 0x0f, 0, 0], // the exported tree as it was (mesh node a root)
      [2, 7, 0, 0, 0, 1, 0, 2, 0, 3, 0, 0, 0, 7, 1, 0x1f, 0, 0], // two extra nodes, the rig under one
      [0, 1, 0, 1, 0, 2, 0, 3, 0, 4, 0, 0, 0, 0x1e, 0, 3], // a cycle and a scene root listed twice
    ].map((r) => Uint8Array.from(r)),
  mutate: mutateRecipe(48),
  run: (input) => {
    const glb = gltfOfRecipe(input);
    const nodes = (readGltfContainer(glb).json.nodes ?? []).length;
    return judgeAsync(
      () => importMotionBytes(glb, 'x.glb'),
      (r) => {
        checkMotionSaves(r.motion);
        must(r.motion.joints.length <= nodes, `${r.motion.joints.length} joints from ${nodes} nodes`);
      },
      'x.glb',
    );
  },
};
