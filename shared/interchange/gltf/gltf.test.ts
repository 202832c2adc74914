import { AnimationMixer, Vector3, type Bone, type Object3D, type SkinnedMesh } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import {
  JointPart,
  KeyFlag,
  MotionFlag,
  cloneMotion,
  emptyMotion,
  type JointInfo,
  type Motion,
} from '../../motion/types';
import { validateMotion } from '../../mtn/validate';
import { quatFromAxisAngle, quatMul, worldPose } from '../kinematics';
import { motionToGlb } from './export';
import { readGltfContainer, writeGlb, type GltfJson } from './glb';
import { GltfClipChoiceError, importGltf, listGltfClips } from './import';

/** A small 6-joint figure with animated offsets, key flags and mirror metadata. */
function makeMotion(frames = 40): Motion {
  const joints: JointInfo[] = [
    { name: 'Hips', parent: -1, mirror: 0, part: JointPart.LOWER, reserved: 0 },
    { name: 'Spine', parent: 0, mirror: 1, part: JointPart.UPPER, reserved: 0 },
    { name: 'LeftArm', parent: 1, mirror: 3, part: JointPart.UPPER, reserved: 0 },
    { name: 'RightArm', parent: 1, mirror: 2, part: JointPart.UPPER, reserved: 0 },
    { name: 'LeftLeg', parent: 0, mirror: 5, part: JointPart.LOWER, reserved: 0 },
    { name: 'RightLeg', parent: 0, mirror: 4, part: JointPart.LOWER, reserved: 0 },
  ];
  const m = emptyMotion(frames, joints, 30);
  const J = joints.length;
  const rest = [
    [0, 0, 0],
    [0, 20, 0],
    [15, 10, 0],
    [-15, 10, 0],
    [8, -5, 0],
    [-8, -5, 0],
  ];
  for (let f = 0; f <= frames; f++) {
    m.translation.set([Math.sin(f * 0.1) * 3, 90 + Math.cos(f * 0.2), f * 4, 0], f * 4);
    for (let j = 0; j < J; j++) {
      const q = quatMul(
        quatFromAxisAngle(1, 0, 0, 0.6 * Math.sin(f * 0.15 + j)),
        quatFromAxisAngle(0, 0, 1, 0.3 * Math.cos(f * 0.11 * (j + 1))),
      );
      m.rotation.set(q, (f * J + j) * 4);
      const stretch = j === 2 ? 1 + 0.1 * Math.sin(f * 0.3) : 1; // one animated offset
      m.offset.set([rest[j][0] * stretch, rest[j][1] * stretch, rest[j][2], 0], (f * J + j) * 4);
    }
  }
  m.flags = MotionFlag.OFFSETS | MotionFlag.MIRROR_UPPER | MotionFlag.DIRECTION;
  m.waistJoint = 1;
  m.translationKeyInfo[10 * 4] = KeyFlag.KEY | KeyFlag.TRACE;
  for (let f = 5; f <= 8; f++) m.jointKeyInfo[(f * J + 4) * 4] = KeyFlag.LOCK;
  m.jointKeyInfo[(20 * J + 2) * 4] = KeyFlag.KEY;
  validateMotion(m);
  return m;
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
};

/** Rewrites the JSON of a GLB (keeping its BIN chunk). */
function editGlb(glb: Uint8Array, edit: (json: GltfJson) => void): Uint8Array {
  const { json, bin } = readGltfContainer(glb);
  edit(json);
  return writeGlb(json, bin);
}

describe('glTF export / import', () => {
  it('round-trips a motion through GLB within float precision, with its metadata', async () => {
    const m = makeMotion();
    const { motion: back, warnings } = await importGltf(motionToGlb(m));
    expect(warnings).toEqual([]);
    expect(back.frameCount).toBe(m.frameCount);
    expect(back.fps).toBe(30);
    expect(back.joints).toEqual(m.joints);
    expect(back.flags).toBe(m.flags);
    expect(back.waistJoint).toBe(1);
    expect(maxDiff(back.translation, m.translation)).toBeLessThan(1e-5);
    expect(maxDiff(back.offset, m.offset)).toBeLessThan(1e-5);
    expect(maxDiff(back.rotation, m.rotation)).toBeLessThan(1e-6);
    expect(back.translationKeyInfo).toEqual(m.translationKeyInfo);
    expect(back.jointKeyInfo).toEqual(m.jointKeyInfo);
  });

  it('round-trips with an export scale (positions come back in motion units)', async () => {
    const m = makeMotion(10);
    const { motion: back } = await importGltf(motionToGlb(m, { scale: 0.01 }));
    expect(maxDiff(back.translation, m.translation)).toBeLessThan(1e-4);
    expect(maxDiff(back.offset, m.offset)).toBeLessThan(1e-4);
  });

  it('writes a GLB that three.js loads as a skinned mesh posed like the motion', async () => {
    const m = makeMotion(12);
    const glb = motionToGlb(m);
    const gltf = await new GLTFLoader().parseAsync(
      glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer,
      '',
    );
    let skinned: SkinnedMesh | undefined;
    gltf.scene.traverse((o: Object3D) => {
      if ((o as SkinnedMesh).isSkinnedMesh) skinned = o as SkinnedMesh;
    });
    expect(skinned).toBeDefined();
    expect(skinned!.skeleton.bones.map((b: Bone) => b.name)).toEqual(m.joints.map((j) => j.name));
    const mixer = new AnimationMixer(gltf.scene);
    mixer.clipAction(gltf.animations[0]).play();
    const p = new Vector3();
    for (const f of [0, 5, 12]) {
      mixer.setTime(f / 30);
      gltf.scene.updateMatrixWorld(true);
      const want = worldPose(m, f).positions;
      skinned!.skeleton.bones.forEach((b: Bone, j: number) => {
        b.getWorldPosition(p);
        expect(Math.hypot(p.x - want[j * 3], p.y - want[j * 3 + 1], p.z - want[j * 3 + 2])).toBeLessThan(1e-3);
      });
    }
  });

  it('lists two clips and refuses to guess; picks by name or index', async () => {
    const glb = editGlb(motionToGlb(makeMotion(10), { animationName: 'Walk' }), (json) => {
      const run = JSON.parse(JSON.stringify(json.animations![0]));
      run.name = 'Run';
      delete run.extras;
      json.animations!.push(run);
    });
    expect((await listGltfClips(glb)).map((c) => c.name)).toEqual(['Walk', 'Run']);
    const err = await importGltf(glb).catch((e) => e);
    expect(err).toBeInstanceOf(GltfClipChoiceError);
    expect(err.kind).toBe('GLTF');
    expect(err.clips.map((c: { name: string }) => c.name)).toEqual(['Walk', 'Run']);
    expect(err.message).toContain('"Walk"');
    expect(err.message).toContain('"Run"');
    expect(err.withFile('hero.glb').message).toMatch(/^hero\.glb \[GLTF\]/);
    const run = await importGltf(glb, { clip: 'Run' });
    // No extras on "Run": only what the tracks show (animated offsets), nothing restored.
    expect(run.motion.flags).toBe(MotionFlag.OFFSETS);
    expect(run.motion.waistJoint).toBe(-1);
    expect(run.motion.jointKeyInfo.every((v) => v === 0)).toBe(true);
    const walk = await importGltf(glb, { clip: 0 });
    expect(walk.motion.flags).toBe(makeMotion(10).flags);
    await expect(importGltf(glb, { clip: 'Jump' })).rejects.toThrow(/no animation clip "Jump"/);
  });

  it('reports scale tracks as unsupported instead of dropping them silently', async () => {
    const glb = editGlb(motionToGlb(makeMotion(10)), (json) => {
      const anim = json.animations![0];
      const posSampler = anim.channels.find((c) => c.target.path === 'translation')!.sampler;
      anim.channels.push({ sampler: posSampler, target: { node: 2, path: 'scale' } });
    });
    const { warnings } = await importGltf(glb);
    expect(warnings.map((w) => w.code)).toContain('scale-unsupported');
    expect(warnings.find((w) => w.code === 'scale-unsupported')!.message).toMatch(/1 scale track/);
  });

  it('a still node whose rotation is not a unit quaternion (zero, tiny, twice as long) is read normalised, a zero one as no turn as three.js draws it', async () => {
    const m = makeMotion(6);
    const J = m.joints.length;
    for (const [given, want] of [
      [
        [0, 0, 0, 0],
        [0, 0, 0, 1],
      ],
      [
        [0, 0, 0, 1e-8],
        [0, 0, 0, 1],
      ],
      [
        [0, 2 * Math.sin(0.2), 0, 2 * Math.cos(0.2)],
        [0, Math.sin(0.2), 0, Math.cos(0.2)],
      ],
    ]) {
      const glb = editGlb(motionToGlb(m), (json) => {
        const spine = json.nodes!.findIndex((n) => n.name === 'Spine');
        json.nodes![spine].rotation = given;
        const anim = json.animations![0];
        anim.channels = anim.channels.filter((c) => !(c.target.node === spine && c.target.path === 'rotation'));
        delete anim.extras;
      });
      const { motion: back } = await importGltf(glb);
      for (let f = 0; f <= 6; f++)
        expect(maxDiff(back.rotation.subarray((f * J + 1) * 4, (f * J + 2) * 4), want), `frame ${f}`).toBeLessThan(
          1e-7,
        );
    }
  });

  it('folds a static parent node (Armature with rotation and 0.01 scale) into the root', async () => {
    const m = makeMotion(8);
    const q = quatFromAxisAngle(1, 0, 0, -Math.PI / 2);
    const glb = editGlb(motionToGlb(m, { boneMesh: false }), (json) => {
      json.nodes!.push({
        name: 'Armature',
        children: [0],
        rotation: q,
        scale: [0.01, 0.01, 0.01],
        translation: [1, 2, 3],
      });
      json.scenes![0].nodes = [json.nodes!.length - 1];
      delete json.animations![0].extras; // plain third-party file
    });
    const { motion: back } = await importGltf(glb);
    for (const f of [0, 4, 8]) {
      const a = worldPose(m, f).positions,
        b = worldPose(back, f).positions;
      for (let j = 0; j < m.joints.length; j++) {
        const src = [a[j * 3], a[j * 3 + 1], a[j * 3 + 2]];
        // Armature: p -> t + 0.01 * R p
        const rp = [
          src[0],
          src[1] * Math.cos(-Math.PI / 2) - src[2] * Math.sin(-Math.PI / 2),
          src[1] * Math.sin(-Math.PI / 2) + src[2] * Math.cos(-Math.PI / 2),
        ];
        const want = [1 + 0.01 * rp[0], 2 + 0.01 * rp[1], 3 + 0.01 * rp[2]];
        expect(maxDiff([b[j * 3], b[j * 3 + 1], b[j * 3 + 2]], want)).toBeLessThan(1e-5);
      }
    }
  });

  it('a still node scaled to zero, whose joints below collapse onto it, is named in a warning (round 36)', async () => {
    const m = makeMotion(4);
    const J = m.joints.length;
    // Spine (node 1) at a rest scale of 0: LeftArm and RightArm below it end where it is, as the file describes.
    const glb = (scale: number[]) =>
      editGlb(motionToGlb(m, { boneMesh: false }), (json) => {
        expect(json.nodes![1].name).toBe('Spine');
        json.nodes![1].scale = scale;
        delete json.animations![0].extras;
      });
    const { motion: back, warnings } = await importGltf(glb([0, 0, 0]));
    for (let f = 0; f <= 4; f++)
      for (const j of [2, 3]) expect(Math.hypot(...back.offset.subarray((f * J + j) * 4, (f * J + j) * 4 + 3))).toBe(0);
    expect(warnings.filter((w) => w.message.includes('rest scale of 0')).map((w) => w.message)).toEqual([
      'node "Spine" has a rest scale of 0: the 2 joint(s) below it ("LeftArm", "RightArm") lie where it is at every frame, as the file describes (motions carry no scale); if it was hidden this way, the motion shows them collapsed',
    ]);
    // A scale that is small but not zero says nothing of the kind.
    // A folded node above the root scaled to zero: every joint lies where it is.
    const folded = editGlb(motionToGlb(m, { boneMesh: false }), (json) => {
      json.nodes!.push({ name: 'Armature', children: [0], scale: [0, 0, 0] });
      json.scenes![0].nodes = [json.nodes!.length - 1];
      delete json.animations![0].extras;
    });
    expect((await importGltf(folded)).warnings.filter((w) => w.message.includes('rest scale of 0'))).toEqual([
      {
        code: 'scale-unsupported',
        message:
          'node "Armature" has a rest scale of 0: the 6 joint(s) below it ("Hips", "Spine", "LeftArm", "RightArm", "LeftLeg", "RightLeg") lie where it is at every frame, as the file describes (motions carry no scale); if it was hidden this way, the motion shows them collapsed',
      },
    ]);
    const small = await importGltf(glb([1e-3, 1e-3, 1e-3]));
    expect(small.warnings.filter((w) => w.message.includes('rest scale of 0'))).toEqual([]);
  });

  it('orders the skin parents first and adds the common parent of several root joints', async () => {
    const m = makeMotion(4);
    // Reverse the skin's joint list and drop the Hips from it: LeftLeg/RightLeg/Spine become three roots under Hips.
    const glb = editGlb(motionToGlb(m, { boneMesh: false }), (json) => {
      json.skins![0].joints = [5, 4, 3, 2, 1];
      delete json.animations![0].extras;
    });
    const { motion: back, warnings } = await importGltf(glb);
    expect(warnings.map((w) => w.code)).toContain('root-added');
    expect(back.joints.map((j) => j.name)).toEqual(m.joints.map((j) => j.name));
    back.joints.forEach((jt, j) => expect(jt.parent).toBeLessThan(j));
    // Guessed metadata on a plain file: mirror pairs from names, legs lower.
    expect(back.joints[2].mirror).toBe(3);
    expect(back.joints.map((j) => j.part)).toEqual([0, 1, 1, 1, 0, 0]);
    expect(maxDiff(worldPose(back, 3).positions, worldPose(m, 3).positions)).toBeLessThan(1e-4);
  });
});

describe('glTF rigid rigs (node animation without a skin)', () => {
  const skinless = (m: Motion, edit: (json: GltfJson) => void = () => {}) =>
    editGlb(motionToGlb(m), (json) => {
      delete json.skins;
      for (const n of json.nodes!) delete n.skin;
      edit(json);
    });

  it("the nodes the clip moves become the joints, as the skin's would", async () => {
    const m = makeMotion(12);
    const skinned = (await importGltf(motionToGlb(m))).motion;
    const { motion, warnings } = await importGltf(skinless(m));
    expect(warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'nodes-as-joints',
        'the file has no skin: the 6 node(s) clip "motion" moves become the joints (nodes it leaves still are folded into them)',
      ],
    ]);
    expect(motion.joints).toEqual(skinned.joints);
    expect(maxDiff(motion.rotation, skinned.rotation)).toBe(0);
    expect(maxDiff(motion.offset, skinned.offset)).toBe(0);
    expect(maxDiff(motion.translation, skinned.translation)).toBe(0);
  });

  it('a node the clip leaves still is folded into the joint below it; a still root makes their common parent the root joint', async () => {
    const m = makeMotion(12);
    const dropChannels = (node: number) => (json: GltfJson) => {
      for (const a of json.animations!) a.channels = a.channels.filter((c) => c.target.node !== node);
    };
    // Spine (node 1) still: LeftArm and RightArm hang from Hips, where the world puts them.
    const noSpine = await importGltf(skinless(m, dropChannels(1)));
    expect(noSpine.motion.joints.map((j) => [j.name, j.parent])).toEqual([
      ['Hips', -1],
      ['LeftArm', 0],
      ['RightArm', 0],
      ['LeftLeg', 0],
      ['RightLeg', 0],
    ]);
    const still = cloneMotion(m);
    for (let f = 0; f <= m.frameCount; f++) still.rotation.set(m.rotation.subarray(4, 8), (f * 6 + 1) * 4);
    const want = worldPose(still, 7).positions;
    const got = worldPose(noSpine.motion, 7).positions;
    for (const [j, k] of [
      [0, 0],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
    ])
      for (let c = 0; c < 3; c++) expect(got[k * 3 + c]).toBeCloseTo(want[j * 3 + c], 4);
    // Hips (node 0) still: Spine, LeftLeg and RightLeg are the top nodes; Hips, their parent, becomes the root.
    const noHips = await importGltf(skinless(m, dropChannels(0)));
    expect(noHips.motion.joints.map((j) => j.name)).toEqual([
      'Hips',
      'Spine',
      'LeftArm',
      'RightArm',
      'LeftLeg',
      'RightLeg',
    ]);
    expect(noHips.warnings.map((w) => w.code)).toEqual(['nodes-as-joints', 'root-added']);
    expect(noHips.warnings[1].message).toBe(
      'the nodes clip "motion" moves have 3 root joints; their common parent node "Hips" becomes the root joint',
    );
  });

  it('refused, naming the clip: a clip that moves no node, and moved nodes with no common parent', async () => {
    const m = makeMotion(4);
    const none = await importGltf(
      skinless(m, (json) => {
        for (const a of json.animations!) a.channels = [];
      }),
    ).catch((e) => e);
    expect(none).toBeInstanceOf(FormatError);
    expect(none.place.where).toBe('animations[0]');
    expect(none.message).toMatch(/the file has no skins, and clip "motion" moves no node/);
    const apart = await importGltf(
      skinless(m, (json) => {
        for (const a of json.animations!)
          a.channels = a.channels.filter((c) => c.target.node === 2 || c.target.node === 4);
        json.nodes![0].children = [1];
        json.nodes![1].children = [3];
        json.scenes![0].nodes!.push(2, 4);
      }),
    ).catch((e) => e);
    expect(apart).toBeInstanceOf(FormatError);
    expect(apart.message).toMatch(
      /the nodes clip "motion" moves have 2 unconnected root joints \("LeftArm", "LeftLeg"\) with no common parent node: a motion has one root; parent them under one node/,
    );
  });
});

describe('glTF errors', () => {
  it('a glTF without skins or animations', async () => {
    const glb = editGlb(motionToGlb(makeMotion(4)), (json) => {
      delete json.skins;
      delete json.animations;
      for (const n of json.nodes!) delete n.skin;
    });
    const err = await importGltf(glb).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.kind).toBe('GLTF');
    expect(err.place.where).toBe('skins');
    expect(err.withFile('box.glb').message).toBe(
      'box.glb [GLTF] (skins): the file has no skins and no animations: only skeletal animation, or an animation that moves nodes, can become a motion',
    );
  });

  it('a truncated GLB names the offset', async () => {
    const glb = motionToGlb(makeMotion(4));
    const err = await importGltf(glb.subarray(0, glb.byteLength - 100)).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.kind).toBe('GLTF');
    expect(err.place.offset).toBe(8);
    expect(err.message).toContain(`header says ${glb.byteLength} bytes but the file has ${glb.byteLength - 100}`);
  });

  it('not glTF at all, and an external buffer with no way to read it', async () => {
    await expect(importGltf(new Uint8Array([1, 2, 3, 4, 5]))).rejects.toThrow(/neither GLB nor glTF JSON/);
    const { json } = readGltfContainer(motionToGlb(makeMotion(4)));
    json.buffers = [{ uri: 'walk.bin', byteLength: json.buffers![0].byteLength }];
    const text = new Uint8Array(Array.from(JSON.stringify(json), (c) => c.charCodeAt(0)));
    await expect(importGltf(text)).rejects.toThrow(/external file "walk.bin"/);
    const bin = readGltfContainer(motionToGlb(makeMotion(4))).bin!;
    const { motion } = await importGltf(text, { resolveUri: (uri) => (uri === 'walk.bin' ? bin : new Uint8Array()) });
    expect(motion.frameCount).toBe(4);
  });
});

describe('a motion larger than any .mtn ActGuy reads (round 37)', () => {
  it('is refused before any frame is made, naming the clip, the frames and the joints', async () => {
    // 1,024 joints and 3 samples (0.1 s) at --fps 300000: 30,000 frames, 1.47 GB as an .mtn.
    const joints: JointInfo[] = Array.from({ length: 1024 }, (_, j) => ({
      name: `j${j}`,
      parent: j === 0 ? -1 : 0,
      mirror: j,
      part: JointPart.UPPER,
      reserved: 0,
    }));
    const m = emptyMotion(3, joints, 30);
    for (let i = 0; i < m.rotation.length; i += 4) m.rotation[i + 3] = 1;
    for (let i = 4; i < m.offset.length; i += 4) m.offset[i + 1] = 1;
    const glb = motionToGlb(m);
    await expect(importGltf(glb, { fps: 300000 })).rejects.toThrow(
      /^GLTF \(animations\[0\]\): 0\.10 s at 300000 fps: 30000 frames of 1024 joints would be 1475618368 bytes as an \.mtn, more than the 1073741824 bytes \(1 GiB\) ActGuy reads back; nothing was imported \(lower --fps, or split the clip\)$/,
    );
    expect((await importGltf(glb, { fps: 30 })).motion.frameCount).toBe(3);
  });
});
