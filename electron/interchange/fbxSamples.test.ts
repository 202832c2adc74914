/**
 * Real FBX files through the FBX importer: assimp-testmodels' own
 * animation_with_skeleton.fbx (16 bones, one 0.83 s clip) and huesitos.fbx
 * (11 bones, 1.56 s), and spider.fbx (meshes, no skeleton). Skipped, with the
 * reason printed, when the Debian package is absent.
 *
 * The reference is computed here, independently of the importer: three.js's
 * FBXLoader reads the untouched file (meshes, materials and all; it needs a
 * stub `window` and `document`, set only around that call), and an
 * AnimationMixer poses the bones at each frame time. Every joint's rotation
 * relative to its parent joint (the root's: in the world) must equal the
 * motion's within 0.05 degree, on every frame that is a key of every turning
 * rotation track: between keys the loader's clip slerps quaternions where FBX
 * interpolates each Euler angle, which the importer does (fbxVariants.test.ts
 * checks those frames against the file's own curves).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnimationMixer, LoopOnce, Quaternion, type Group, type Object3D } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../shared/errors';
import { importFbx, listFbxClips } from '../../shared/interchange/fbx/import';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { importGltf } from '../../shared/interchange/gltf/import';
import { importMotionBytes } from '../../shared/interchange/importMotion';

const DIR = '/usr/share/assimp/models/FBX';
const present = ['animation_with_skeleton.fbx', 'huesitos.fbx', 'spider.fbx'].every((f) => existsSync(join(DIR, f)));
if (!present)
  console.log(`fbxSamples.test: skipping real-FBX checks: assimp-testmodels' FBX files are missing in ${DIR}`);
const read = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));

/** FBXLoader on the untouched file, with the two DOM stubs it asks for (cameras: window size; textures: an img element) set only for the call. */
function referenceScene(bytes: Uint8Array): Group {
  const g = globalThis as Record<string, unknown>;
  const saved = { window: g.window, document: g.document };
  g.window = { innerWidth: 1280, innerHeight: 800 };
  g.document = { createElementNS: () => ({ style: {}, addEventListener() {}, removeEventListener() {} }) };
  const warn = console.warn;
  console.warn = () => {};
  try {
    return new FBXLoader().parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      '',
    );
  } finally {
    console.warn = warn;
    g.window = saved.window;
    g.document = saved.document;
  }
}

const originalName = (o: Object3D) => (o.userData.originalName as string | undefined) ?? o.name;
const angleDeg = (a: Quaternion, b: Quaternion) => (2 * Math.acos(Math.min(1, Math.abs(a.dot(b)))) * 180) / Math.PI;

const cases = [
  { file: 'animation_with_skeleton.fbx', bones: 16, duration: 0.83, frames30: 25, root: 'Armature' },
  { file: 'huesitos.fbx', bones: 11, duration: 1.56, frames30: 46, root: 'Bone' },
];

describe.skipIf(!present)('real FBX samples (assimp-testmodels)', () => {
  for (const c of cases) {
    it(`${c.file}: bone names, frame count, and every joint's rotation on the loader's rotation keys as FBXLoader + AnimationMixer give it`, async () => {
      const bytes = read(c.file);
      const { motion, summary, clip } = await importFbx(bytes, { fps: 30 });
      const scene = referenceScene(bytes);
      const refBones: Object3D[] = [];
      scene.traverse((o) => {
        if ((o as { isBone?: boolean }).isBone) refBones.push(o);
      });
      expect(refBones.length).toBe(c.bones);
      // Bones in hierarchy order with their names as in the file (dots and all), below the root joint.
      const names = motion.joints.map((j) => j.name);
      expect(names[0]).toBe(c.root);
      expect(names.filter((n) => n !== c.root || c.root !== 'Armature')).toEqual(refBones.map(originalName));
      expect(motion.frameCount).toBe(c.frames30);
      expect(scene.animations[0].duration).toBeCloseTo(c.duration, 2);
      expect(summary).toContain(`${c.bones} bones`);
      expect(summary).toContain('UnitScaleFactor 1');
      expect(clip).toBe(scene.animations[0].name);

      const byName = new Map<string, Object3D>();
      scene.traverse((o) => byName.set(originalName(o), o));
      const objects = names.map((n) => byName.get(n)!);
      const mixer = new AnimationMixer(scene);
      const action = mixer.clipAction(scene.animations[0]);
      action.setLoop(LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      const J = names.length;
      let worst = 0;
      const wq = new Quaternion(),
        pq = new Quaternion();
      // Tracks that turn (a still one is the same between its keys, however interpolated).
      const rotationTracks = scene.animations[0].tracks.filter(
        (t) => t.name.endsWith('.quaternion') && t.values.some((v, i) => Math.abs(v - t.values[i % 4]) > 1e-6),
      );
      const onKeys = (f: number) =>
        rotationTracks.every((t) => Array.prototype.some.call(t.times, (x: number) => Math.abs(x * 30 - f) < 1e-3));
      let compared = 0;
      for (let f = 0; f <= motion.frameCount; f++) {
        if (!onKeys(f)) continue;
        compared++;
        mixer.setTime(Math.min(f / 30, scene.animations[0].duration));
        scene.updateMatrixWorld(true);
        for (let j = 0; j < J; j++) {
          const o = objects[j];
          const p = motion.joints[j].parent;
          let ref: Quaternion;
          if (p < 0) ref = o.getWorldQuaternion(wq);
          else if (o.parent === objects[p])
            ref = o.quaternion; // the loader's local rotation, pre- and post-rotation included
          else ref = objects[p].getWorldQuaternion(pq).invert().multiply(o.getWorldQuaternion(wq));
          const r = motion.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4);
          const got = new Quaternion(r[0], r[1], r[2], r[3]);
          worst = Math.max(worst, angleDeg(got, ref));
        }
      }
      expect(compared).toBeGreaterThanOrEqual(2);
      expect(worst).toBeLessThan(0.05);
    });
  }

  it('the clip list gives each clip with its length', async () => {
    expect(await listFbxClips(read('huesitos.fbx'))).toEqual([
      { index: 0, name: 'Armature|Action', duration: expect.closeTo(1.56, 2) },
    ]);
  });

  it('spider.fbx (meshes only) is refused: no skeleton, naming the file', async () => {
    const err = await importMotionBytes(read('spider.fbx'), '/m/spider.fbx').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toBe(
      '/m/spider.fbx [FBX] (Objects): the file has no skeleton (no LimbNode bones): only skeletal animation can become a motion',
    );
  });

  it('a glTF export of an imported FBX opens with the same bone names and hierarchy', async () => {
    for (const c of cases) {
      const { motion } = await importFbx(read(c.file));
      const back = (await importGltf(motionToGlb(motion, { animationName: 'x' }))).motion;
      expect(back.joints.map((j) => [j.name, j.parent])).toEqual(motion.joints.map((j) => [j.name, j.parent]));
      expect(back.frameCount).toBe(motion.frameCount);
    }
  });
});
