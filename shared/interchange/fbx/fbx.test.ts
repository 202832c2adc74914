import { Euler, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import { MotionFlag } from '../../motion/types';
import { encodeUtf8 } from '../../utf8';
import { ClipChoiceError } from '../clips';
import { decodeUtf8 } from '../gltf/glb';
import { importMotionBytes, listMotionClips, motionSourceKind } from '../importMotion';
import { readFbxContainer } from './container';
import { importFbx } from './import';
import { fbxScene, writeFbxAscii, writeFbxBinary, type FbxNode } from './testFixtures';

const fail = async (bytes: Uint8Array, name = '/m/x.fbx', options = {}) => {
  const e = await importMotionBytes(bytes, name, options).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FormatError);
  return (e as FormatError).message;
};

describe('FBX import', () => {
  it('reads binary (7.4 and the 64-bit 7.5 records) and ASCII alike: bones in order, frames at the target rate', async () => {
    const scene = fbxScene({ frames: 31, fps: 30 });
    const inputs = [
      writeFbxBinary(scene),
      writeFbxBinary(scene, 7500),
      writeFbxBinary(scene, 7400, true),
      writeFbxAscii(scene),
    ];
    const results = await Promise.all(inputs.map((b) => importFbx(b, { fps: 30 })));
    for (const r of results) {
      expect(r.motion.joints.map((j) => [j.name, j.parent])).toEqual([
        ['Hips', -1],
        ['Spine', 0],
        ['Head', 1],
      ]);
      expect(r.motion.frameCount).toBe(30);
      expect(r.warnings).toEqual([]);
      expect(r.summary).toBe(
        'clip "Take 001" (1 of 1), 3 bones, 1.00 s at 30 fps; file unit centimetres (UnitScaleFactor 1), positions x 1 to centimetres',
      );
    }
    for (const r of results.slice(1)) {
      for (let i = 0; i < r.motion.rotation.length; i++)
        expect(r.motion.rotation[i]).toBeCloseTo(results[0].motion.rotation[i], 5);
      expect(Array.from(r.motion.translation)).toEqual(Array.from(results[0].motion.translation));
    }
    // The root's key at frame 10: translation (2, 100 + 2, 50) in centimetres (see fbxScene).
    expect(Array.from(results[0].motion.translation.subarray(40, 43)).map((v) => Number(v.toFixed(4)))).toEqual([
      10, 110, 50,
    ]);
    expect(motionSourceKind(writeFbxAscii(scene), 'noext')).toBe('fbx');
    expect(motionSourceKind(writeFbxBinary(scene), 'noext')).toBe('fbx');
  });

  it('converts the file unit to centimetres, then applies --scale, and says so', async () => {
    const r = await importFbx(writeFbxBinary(fbxScene({ unit: 100 })), { scale: 0.5 });
    expect(r.motion.translation[1]).toBeCloseTo(100 * 100 * 0.5, 3);
    expect(r.motion.offset[r.motion.joints.length * 0 + 4 + 1]).toBeCloseTo(20 * 100 * 0.5, 3);
    expect(r.summary).toContain(
      'file unit metres (UnitScaleFactor 100), positions x 50 to centimetres (unit x --scale 0.5)',
    );
  });

  it('resamples to --fps from the scene rate, and snaps a rate within 0.01% of a standard one', async () => {
    const r = await importFbx(writeFbxBinary(fbxScene({ fps: 24, frames: 25 })), { fps: 30 });
    expect(r.motion.frameCount).toBe(30);
    expect(r.summary).toContain('1.00 s at 24 fps');
    const snapped = await importFbx(writeFbxBinary(fbxScene({ fps: 59.999, frames: 4 })));
    expect(snapped.warnings.map((w) => w.code)).toEqual(['rate-snapped']);
    expect(snapped.warnings[0].message).toBe(
      'the scene frame rate 59.999 fps is within 0.01% of 60 fps: read as exactly 60 fps',
    );
  });

  it('honours pre-rotation as the loader does (q = pre * animated)', async () => {
    const plain = (await importFbx(writeFbxBinary(fbxScene()))).motion;
    const pre = (await importFbx(writeFbxBinary(fbxScene({ preRotation: [0, 0, 90] })))).motion;
    const a = plain.rotation.subarray(8, 12);
    const qPre = new Quaternion().setFromEuler(new Euler(0, 0, Math.PI / 2));
    const want = qPre.clone().multiply(new Quaternion(a[0], a[1], a[2], a[3]));
    const got = pre.rotation.subarray(8, 12);
    expect(Math.abs(want.dot(new Quaternion(got[0], got[1], got[2], got[3])))).toBeCloseTo(1, 6);
  });

  it('a bone scaled to zero (hidden) keeps its rotations and its children theirs; positions are kept as posed, the scale is reported', async () => {
    const plain = (await importFbx(writeFbxBinary(fbxScene({ frames: 5 })))).motion;
    for (const [bone, scaled] of [
      [1, ['Spine', 'Head']],
      [0, ['Hips', 'Spine', 'Head']],
    ] as const) {
      const r = await importFbx(
        writeFbxBinary(fbxScene({ frames: 5, scaleKeys: { bone, values: [1, 0.5, 0, 0.5, 1] } })),
      );
      const m = r.motion;
      // Frame 2 has the bone at scale 0: three.js decomposes its world matrix as no turn (the rest pose).
      for (let i = 0; i < m.rotation.length; i++) expect(m.rotation[i]).toBeCloseTo(plain.rotation[i], 6);
      expect(Array.from(m.translation)).toEqual(Array.from(plain.translation));
      // Head's offset (20 up from Spine) is as posed: half at scale 0.5, none at 0.
      const J = 3;
      expect([0, 1, 2, 3, 4].map((f) => Number(m.offset[(f * J + 2) * 4 + 1].toFixed(4)))).toEqual([20, 10, 0, 10, 20]);
      expect(r.warnings.map((w) => w.message)).toEqual([
        `${scaled.length} joint(s) (${scaled.map((n) => `"${n}"`).join(', ')}) are scaled unevenly or their scale is animated in clip "Take 001"; motions carry no scale, so positions are kept and the scale is dropped`,
      ]);
    }
    // Scaled to zero for the whole clip: still reported (its scale never changes, but it is no scale at all).
    const hidden = await importFbx(
      writeFbxBinary(fbxScene({ frames: 5, scaleKeys: { bone: 2, values: [0, 0, 0, 0, 0] } })),
    );
    for (let i = 0; i < plain.rotation.length; i++) expect(hidden.motion.rotation[i]).toBeCloseTo(plain.rotation[i], 6);
    expect(hidden.warnings.map((w) => w.code)).toEqual(['scale-unsupported']);
    expect(hidden.warnings[0].message).toMatch(/^1 joint\(s\) \("Head"\)/);
  });

  it("a bone whose rest scale is zero (not animated) is posed as scaled to zero; its rest rotation and its children's rest poses are kept", async () => {
    const J = 3;
    const plain = (await importFbx(writeFbxBinary(fbxScene({ frames: 4 })))).motion;
    const r = await importFbx(writeFbxBinary(fbxScene({ frames: 4, boneRest: [{ bone: 1, scaling: [0, 0, 0] }] })));
    // Head collapses onto Spine at every frame (the loader read the zero scale as 1: Head stayed 20 above Spine).
    for (let f = 0; f < 4; f++)
      expect(Math.hypot(...r.motion.offset.subarray((f * J + 2) * 4, (f * J + 2) * 4 + 3))).toBe(0);
    for (let i = 0; i < plain.rotation.length; i++) expect(r.motion.rotation[i]).toBeCloseTo(plain.rotation[i], 6);
    expect(r.warnings.map((w) => w.message)).toEqual([
      `2 joint(s) ("Spine", "Head") are scaled unevenly or their scale is animated in clip "Take 001"; motions carry no scale, so positions are kept and the scale is dropped`,
    ]);
    // Unanimated rotations of the flat bone and of the bone below it keep their rest values (the loader made them no
    // turn): with Spine and Head still at rest, their rotations are those of the same file with Spine unscaled, and
    // one axis flat is flat too.
    const still = (scaling: [number, number, number]) =>
      fbxScene({
        frames: 4,
        keys: (bone, attr) => (bone > 0 && attr === 'R' ? null : undefined),
        boneRest: [
          { bone: 1, rotation: [30, 0, 0], scaling },
          { bone: 2, rotation: [0, 20, 45] },
        ],
      });
    const unscaled = (await importFbx(writeFbxBinary(still([1, 1, 1])))).motion;
    for (const scaling of [
      [0, 0, 0],
      [2, 0, 2],
    ] as [number, number, number][]) {
      const m = (await importFbx(writeFbxBinary(still(scaling)))).motion;
      for (let i = 0; i < m.rotation.length; i++) expect(m.rotation[i]).toBeCloseTo(unscaled.rotation[i], 6);
      expect(Array.from(m.rotation.subarray(J * 4 + 4, J * 4 + 8))).not.toEqual([0, 0, 0, 1]);
    }
  });

  it('an animated bone with a rotation pivot and offset turns about its pivot: its offset is T + Roff + Rp - R Rp at every frame', async () => {
    const scene = fbxScene({ frames: 9 });
    const spine = scene[2].children.find((n) => n.name === 'Model' && String(n.props[1]).startsWith('Spine'))!;
    const [rp, roff] = [
      [3, -2, 1],
      [0.5, 0.25, -1],
    ];
    spine.children[1].children.push(
      { name: 'P', props: ['RotationPivot', 'Vector3D', '', '', ...rp], children: [] },
      { name: 'P', props: ['RotationOffset', 'Vector3D', '', '', ...roff], children: [] },
    );
    const { motion: m } = await importFbx(writeFbxBinary(scene), { fps: 30 });
    expect(m.flags & MotionFlag.OFFSETS).toBeTruthy();
    const J = 3;
    for (let f = 0; f <= m.frameCount; f++) {
      const r = new Quaternion(...m.rotation.subarray((f * J + 1) * 4, (f * J + 2) * 4));
      const turned = new Vector3(...rp).applyQuaternion(r);
      const want = [0, 20, 0].map((t, k) => t + roff[k] + rp[k] - turned.getComponent(k));
      const got = Array.from(m.offset.subarray((f * J + 1) * 4, (f * J + 1) * 4 + 3));
      for (let k = 0; k < 3; k++) expect(got[k], `frame ${f} axis ${k}`).toBeCloseTo(want[k], 4);
      // Head, below Spine, stays 20 up the bone: the pivot moves Spine's origin, not its children.
      expect(m.offset[(f * J + 2) * 4 + 1]).toBeCloseTo(20, 4);
    }
  });

  it('sets the OFFSETS flag only when a bone offset moves', async () => {
    expect((await importFbx(writeFbxBinary(fbxScene()))).motion.flags & MotionFlag.OFFSETS).toBe(0);
    expect((await importFbx(writeFbxBinary(fbxScene()), { offsets: true })).motion.flags & MotionFlag.OFFSETS).toBe(
      MotionFlag.OFFSETS,
    );
  });

  it('several clips: lists them with their lengths, and imports the one chosen by name or index', async () => {
    const bytes = writeFbxBinary(fbxScene({ clips: ['Walk', 'Run'], frames: 13 }));
    expect(await listMotionClips(bytes, 'x.fbx')).toEqual([
      { index: 0, name: 'Walk', duration: expect.closeTo(0.4, 5) },
      { index: 1, name: 'Run', duration: expect.closeTo(0.4, 5) },
    ]);
    const e = await importMotionBytes(bytes, '/m/x.fbx').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ClipChoiceError);
    expect((e as Error).message).toBe(
      '/m/x.fbx [FBX] (AnimationStack): the file has 2 animation clips: 0 "Walk" (0.40 s), 1 "Run" (0.40 s); choose one with --clip NAME|INDEX',
    );
    const run = await importMotionBytes(bytes, 'x.fbx', { clip: 'Run' });
    const walk = await importMotionBytes(bytes, 'x.fbx', { clip: 0 });
    expect(run.clip).toBe('Run');
    expect(walk.clip).toBe('Walk');
    expect(run.motion.translation[4 * 12 + 2]).toBeCloseTo(2 * walk.motion.translation[4 * 12 + 2], 3);
    expect(await fail(bytes, '/m/x.fbx', { clip: 'Jump' })).toContain(
      'no animation clip "Jump"; the file has 0 "Walk" (0.40 s), 1 "Run" (0.40 s)',
    );
  });

  it('refuses, naming the file and the place: no skeleton, no animation, no skeletal clip, too many joints', async () => {
    expect(await fail(writeFbxBinary(fbxScene({ bones: [], propOnly: true })))).toBe(
      '/m/x.fbx [FBX] (Objects): the file has no skeleton (no LimbNode bones): only skeletal animation can become a motion',
    );
    expect(await fail(writeFbxBinary(fbxScene({ clips: [] })))).toBe(
      '/m/x.fbx [FBX] (AnimationStack): the file has no animation (no AnimationStack with curves): there is no clip to import',
    );
    expect(await fail(writeFbxBinary(fbxScene({ propOnly: true })))).toBe(
      '/m/x.fbx [FBX] (AnimationStack "Take 001"): clip "Take 001" animates none of the skeleton\'s bones (nor a node above them): it is not a skeletal clip',
    );
    const many = Array.from({ length: 1025 }, (_, i) => `b${i}`);
    expect(await fail(writeFbxBinary(fbxScene({ bones: many, clips: [] })))).toBe(
      '/m/x.fbx [FBX] (Objects): the skeleton has 1025 joints; a motion holds at most 1024',
    );
  });

  it('refuses a bone name that cannot be an MTN joint name, saying which and what to rename it to', async () => {
    const long = 'Bip01 L UpperArm Twist Helper 01';
    expect(await fail(writeFbxBinary(fbxScene({ bones: ['Hips', long] })))).toBe(
      `/m/x.fbx [FBX] (bone 1 "${long}"): bone name "${long}" is 32 characters; MTN joint names are at most 31: rename the bone in your animation tool (for example to "${long.slice(0, 31)}") and export again`,
    );
    const ascii = writeFbxAscii(fbxScene({ bones: ['Hüfte', 'Spine'] }));
    expect(await fail(ascii)).toBe(
      '/m/x.fbx [FBX] (bone 0 "Hüfte"): bone name "Hüfte" has the character "ü" (U+00FC); MTN joint names are printable ASCII: rename the bone in your animation tool (for example to "H_fte") and export again',
    );
    expect(await fail(writeFbxBinary(fbxScene({ bones: ['Hips', 'Arm', 'Arm'] })))).toContain(
      '(bone 2 "Arm"): bones 1 and 2 are both named "Arm"; MTN joint names must differ',
    );
  });

  it('refuses unsupported versions with what to do', async () => {
    expect(await fail(writeFbxBinary(fbxScene(), 6100))).toBe(
      '/m/x.fbx [FBX] (offset 23): FBX 6.1 (FileVersion 6100) is not supported; ActGuy reads FBX 7.1 to 7.7 (FileVersion 7100-7700): export again as FBX 2011 or later (FBX 7.4 is the usual choice)',
    );
    expect(await fail(writeFbxBinary(fbxScene(), 8000))).toContain('FBX 8.0 (FileVersion 8000) is not supported');
    const ascii = decodeUtf8(writeFbxAscii(fbxScene())).replace('FBXVersion: 7400', 'FBXVersion: 6100');
    expect(await fail(encodeUtf8(ascii))).toMatch(/^\/m\/x\.fbx:5:2: FBX 6\.1 \(FileVersion 6100\) is not supported/);
  });

  it('a binary FBX whose header was changed on the way (sent as text) is said as such, at the byte that differs', async () => {
    const bytes = writeFbxBinary(fbxScene());
    // As assimp's transparentTest.fbx: every NUL became a space.
    const spaced = bytes.map((b) => (b === 0 ? 0x20 : b));
    expect(await fail(spaced)).toBe(
      '/m/x.fbx [FBX] (offset 20): the file starts as a binary FBX ("Kaydara FBX Binary") but its header differs at byte 20 (0x00 expected, found 0x20): it was changed on the way, as a binary file sent or unpacked as text is; copy or export it again',
    );
    // A file cut inside the magic says the end of the file.
    expect(await fail(bytes.subarray(0, 19))).toContain(
      'differs at byte 19 (0x20 expected, found the end of the file)',
    );
    // The words alone in an ASCII file's text are no binary header: an ASCII FBX starts with its comment.
    expect(await fail(encodeUtf8('Kaydara FBX Binary is not this file\n'))).toContain(
      'differs at byte 19 (0x20 expected, found 0x69)',
    );
  });

  it('refuses a truncated file at every cut, with a located FormatError, never a bare exception', async () => {
    for (const bytes of [writeFbxBinary(fbxScene({ frames: 2 })), writeFbxAscii(fbxScene({ frames: 2 }))]) {
      for (let cut = 0; cut < bytes.length - 1; cut += 5) {
        const e = await importMotionBytes(bytes.subarray(0, cut), '/m/x.fbx').then(
          () => undefined,
          (err: unknown) => err,
        );
        if (e === undefined) continue; // an ASCII cut after the last node can still be a whole file
        expect(e, `cut at ${cut}`).toBeInstanceOf(FormatError);
        expect((e as Error).message.startsWith('/m/x.fbx')).toBe(true);
        expect((e as Error).message).not.toContain('defect in ActGuy');
      }
    }
    const cut = writeFbxBinary(fbxScene()).subarray(0, 1600);
    expect(await fail(cut)).toMatch(
      /^\/m\/x\.fbx \[FBX\] \(offset \d+\): a node record ends at byte \d+, past the end of the file \(1600\): the file is truncated or damaged$/,
    );
    const short = writeFbxBinary(fbxScene()).subarray(0, 600);
    expect(await fail(short)).toMatch(
      /^\/m\/x\.fbx \[FBX\] \(offset \d+\): the node list has no end record and footer: the file is truncated$/,
    );
  });

  it('refuses key values the loader would subdivide forever (an infinite or absurd rotation), binary and ASCII', async () => {
    const text = decodeUtf8(writeFbxAscii(fbxScene()));
    const first = /KeyValueFloat: \*5 \{\n\t+a: ([^,]+),/.exec(text)!;
    const inf = text.replace(first[0], first[0].replace(first[1], '10.25e3094'));
    expect(await fail(encodeUtf8(inf))).toBe(
      '/m/x.fbx [FBX] (AnimationCurve 1006): an animation curve has the key value Infinity (key 0): key values must be finite numbers',
    );
    const huge = text.replace(first[0], first[0].replace(first[1], '1e30'));
    expect(await fail(encodeUtf8(huge))).toMatch(
      /the animation curves jump by more than 180000000 in all .*: the file is damaged$/,
    );
    const scene = fbxScene();
    const curve = scene[2].children.find((c) => c.name === 'AnimationCurve')!;
    (curve.children.find((c) => c.name === 'KeyValueFloat')!.props[0] as Float32Array)[2] = 3e38;
    expect(await fail(writeFbxBinary(scene))).toMatch(
      /^\/m\/x\.fbx \[FBX\] \(offset \d+\): the animation curves jump by more than/,
    );
    expect(await fail(writeFbxBinary(scene, 7400, true))).toMatch(
      /^\/m\/x\.fbx \[FBX\] \(offset \d+\): the animation curves jump by more than/,
    );
  });

  it('reads ASCII strictly as the FBX SDK writes it (the loader gets it as binary), refusing anything else at its line', async () => {
    const text = decodeUtf8(writeFbxAscii(fbxScene()));
    const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
    expect(await fail(encodeUtf8(text.replace('KeyTime: *5 {', 'KeyTime: *5 {---')))).toBe(
      `/m/x.fbx:${lineOf('KeyTime: *5 {')}:3: the value "*5 {---" is neither a "string" nor a number: the file is damaged (ASCII FBX as the FBX SDK writes it is expected)`,
    );
    expect(await fail(encodeUtf8(text.replace(/\n(\t+)\}\n\t+KeyValueFloat/, '}\n$1KeyValueFloat')))).toMatch(
      /^\/m\/x\.fbx:\d+:\d+: .*: the file is damaged/,
    );
    expect(await fail(encodeUtf8(text.replace('KeyTime: *5 {', 'KeyTime: *6 {')))).toBe(
      `/m/x.fbx:${lineOf('KeyTime: *5 {')}:3: the array KeyTime declares 6 values but holds 5: the file is damaged (ASCII FBX as the FBX SDK writes it is expected)`,
    );
    // A value broken over two lines the loader's reader would join into another number.
    expect(await fail(encodeUtf8(text.replace(/(KeyValueFloat: \*5 \{\n\t+a: [^,]+,[^,]+,\d+\.)/, '$1-\n')))).toMatch(
      /the array KeyValueFloat has the value "[^"]*-[^"]*", which is not a number/,
    );
  });

  it('what the loader skips (a second animation layer) becomes an import warning, not console noise', async () => {
    const text = decodeUtf8(writeFbxAscii(fbxScene()))
      .replace('Objects:  {', 'Objects:  {\n\tAnimationLayer: 5000, "AnimLayer::Extra", "" {\n\t}')
      .replace(/\}\n$/, '\tC: "OO",5000,1003\n}\n');
    const r = await importFbx(encodeUtf8(text));
    expect(r.warnings.map((w) => w.code)).toEqual(['loader']);
    expect(r.warnings[0].message).toMatch(/^three\.js FBXLoader: Encountered an animation stack with multiple layers/);
  });

  it('meshes, materials and cameras are switched off before the loader runs: binary in place (same length), ASCII dropped on the way to binary', async () => {
    const scene = fbxScene();
    scene[2].children.unshift({
      name: 'Geometry',
      props: [9n, 'Cube\0\x01Geometry', 'Mesh'],
      children: [{ name: 'Vertices', props: [new Float64Array(3)], children: [] }],
    });
    scene[2].children.unshift({ name: 'Model', props: [8n, 'Cam\0\x01Model', 'Camera'], children: [] });
    scene[3].children.unshift(
      { name: 'C', props: ['OO', 8n, 0n], children: [] },
      { name: 'C', props: ['OO', 9n, 8n], children: [] },
    );
    const bin = writeFbxBinary(scene);
    const prepared = readFbxContainer(bin).forLoader;
    expect(prepared.byteLength).toBe(bin.byteLength);
    const latin = String.fromCharCode(...new Uint8Array(prepared));
    expect(latin).toContain('Xeometry');
    expect(latin).toContain('_amera');
    expect((await importFbx(bin)).motion.joints.length).toBe(3);
  });

  it("reads byte arrays of type 'c' (an embedded texture's ImageData, as in assimp-testmodels' boxWithCompressedCTypeArray.FBX), raw and zlib-compressed", async () => {
    const scene = fbxScene({ frames: 11 });
    scene[2].children.unshift({
      name: 'Video',
      props: [7n, 'Skin.png\0\x01Video', 'Clip'],
      children: [{ name: 'ImageData', props: [Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)], children: [] }],
    });
    const plain = await importFbx(writeFbxBinary(fbxScene({ frames: 11 })));
    for (const compress of [false, true]) {
      const bin = writeFbxBinary(scene, 7400, compress);
      // The array really is written as 'c', with its 300 bytes raw or packed.
      expect(String.fromCharCode(...bin)).toContain(`ImageDatac,\x01\0\0${compress ? '\x01' : '\0'}`);
      const r = await importFbx(bin);
      expect(Array.from(r.motion.rotation)).toEqual(Array.from(plain.motion.rotation));
      expect(Array.from(r.motion.translation)).toEqual(Array.from(plain.motion.translation));
    }
  });

  it('refuses compressed arrays that unpack to far more than the file holds (a zlib bomb), before any is unpacked', async () => {
    // 12 curves of 1,200,000 zero keys: 173 MiB for the loader to unpack and walk from a file of about 0.3 MB
    // (the CLI's import of 8,000,000 keys per curve, 1.1 MB, took 3.5 minutes and 4.2 GB).
    const keys = 1_200_000;
    const times = new BigInt64Array(keys);
    const values = new Float32Array(keys);
    const scene = fbxScene();
    const walk = (n: FbxNode): void => {
      if (n.name === 'KeyTime') n.props = [times];
      if (n.name === 'KeyValueFloat') n.props = [values];
      n.children.forEach(walk);
    };
    scene.forEach(walk);
    const bomb = writeFbxBinary(scene, 7400, true);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(() => readFbxContainer(bomb)).toThrow(FormatError);
    expect(await fail(bomb)).toMatch(
      /^\/m\/x\.fbx \[FBX\] \(offset \d+\): the compressed arrays of this file unpack to more than 128 MiB \(at most 32 times the file's size, and at least 128 MiB\): it is damaged, or made to exhaust memory; export it again without compression \(or as ASCII FBX\)$/,
    );
    // A take of a few compressed keys per curve reads as before.
    expect((await importMotionBytes(writeFbxBinary(fbxScene(), 7400, true), 'x.fbx')).motion.joints.length).toBe(3);
  });

  it('an ASCII file loses its meshes, materials and cameras on the way to the loader', async () => {
    const text = decodeUtf8(writeFbxAscii(fbxScene()))
      .replace(
        'Objects:  {',
        'Objects:  {\n\tGeometry: 9, "Geometry::Cube", "Mesh" {\n\t\tVertices: *3 {\n\t\t\ta: 0,0,0\n\t\t}\n\t}\n\tModel: 8, "Model::Cam", "Camera" {\n\t}\n\tMaterial: 7, "Material::M", "" {\n\t}',
      )
      .replace('Connections:  {', 'Connections:  {\n\tC: "OO",8,0\n\tC: "OO",9,8\n\tC: "OO",7,8');
    const bytes = encodeUtf8(text);
    const { forLoader } = readFbxContainer(bytes);
    const out = String.fromCharCode(...new Uint8Array(forLoader));
    expect(out.startsWith('Kaydara FBX Binary')).toBe(true);
    expect(out).not.toContain('Geometry');
    expect(out).not.toContain('Material');
    expect(out).toContain('_amera');
    expect((await importFbx(bytes)).motion.joints.length).toBe(3);
  });
});
