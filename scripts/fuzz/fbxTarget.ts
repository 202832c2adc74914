/**
 * The FBX importer under fuzzing: binary FBX 7.4 (raw and zlib arrays) and 7.5 and ASCII FBX seeds
 * (a small animated bone chain, one and two clips), mutated as bytes, or as
 * text with FBX's own tokens for the ASCII ones. Judged like the other
 * importers: a FormatError naming the file is a rejection; an accepted input
 * must give a motion that validates and survives an MTN round trip.
 */
import { importMotionBytes } from '../../shared/interchange/importMotion';
import { fbxScene, floatWithBits, writeFbxAscii, writeFbxBinary } from '../../shared/interchange/fbx/testFixtures';
import { mutateBinary, mutateText, pick, type Rng } from './mutate';
import { checkMotionSaves, judgeAsync, type FuzzTarget } from './judge';

const FBX_TOKENS = [
  '{',
  '}',
  '"',
  ',',
  '*',
  'a:',
  'P:',
  'C:',
  '"OO"',
  '"OP"',
  'Model:',
  '"LimbNode"',
  '"Mesh"',
  '"Camera"',
  'AnimationStack:',
  'AnimationLayer:',
  'AnimationCurveNode:',
  'AnimationCurve:',
  'KeyTime:',
  'KeyValueFloat:',
  'KeyAttrFlags:',
  'KeyAttrDataFloat:',
  'KeyAttrRefCount:',
  '24840',
  '1032',
  '50332680',
  '"RotationActive"',
  '"InheritType"',
  '"d|X"',
  '"Lcl Rotation"',
  '"Lcl Translation"',
  '"PreRotation"',
  'FBXVersion: 7400',
  'Geometry:',
  '-1e308',
  '1e400',
  '46186158000',
  '9223372036854775807',
];

const isBinary = (b: Uint8Array) => b.length > 20 && b[0] === 0x4b && b[1] === 0x61; // "Ka"ydara FBX Binary

function mutateFbx(rnd: Rng, seed: Uint8Array): Uint8Array {
  if (isBinary(seed) || rnd() < 0.1) {
    let b = seed;
    for (let k = 1 + pick(rnd, 3); k > 0; k--) b = mutateBinary(rnd, b);
    return b;
  }
  let s = Buffer.from(seed).toString('latin1');
  for (let k = 1 + pick(rnd, 3); k > 0; k--) s = mutateText(rnd, s, FBX_TOKENS);
  return new Uint8Array(Buffer.from(s, 'latin1'));
}

export const FBX_TARGET: FuzzTarget = {
  name: 'fbx',
  ext: 'fbx',
  seeds: () => {
    const one = fbxScene({ bones: ['Hips', 'Spine'], frames: 4 });
    const two = fbxScene({
      bones: ['Root', 'Arm'],
      frames: 3,
      clips: ['Walk', 'Run'],
      preRotation: [0, 0, 90],
      unit: 100,
    });
    // Every kind of key in one curve (linear, constant, cubic user, weighted, auto), a post-rotation without
    // RotationActive, and RrSs children under an evenly scaled root (docs/import.md#fbx-keys).
    const keyed = fbxScene({
      bones: ['Hips', 'Spine'],
      fps: 24,
      postRotation: [10, 0, 0],
      rotationActive: 0,
      inheritType: 0,
      rootScaling: [2, 2, 2],
      keys: (_b, attr, axis) =>
        attr === 'R' && axis === 1
          ? {
              seconds: [0, 0.25, 0.5, 0.75, 1],
              values: [0, 30, 10, 45, 5],
              flags: [0x04, 0x02, 0x408, 0x03000408, 0x6108],
              data: [0, 0, 0, 0, 0, 0, 0, 0, 90, -40, 0, 0, 10, 0, floatWithBits(4000 + 3000 * 65536), 0, 0, 0, 0, 0],
              refCount: [1, 1, 1, 1, 1],
            }
          : undefined,
    });
    // Links repeated and a null above the root: mutated, they become rings, self-links and deep chains, which the
    // model tree check refuses before the loader runs (docs/security.md, "Readers linear in their input").
    const linked = fbxScene({ bones: ['Hips', 'Spine'], frames: 3 });
    const objects = linked.find((n) => n.name === 'Objects')!;
    const connections = linked.find((n) => n.name === 'Connections')!;
    const [hips, spine] = objects.children.filter((o) => o.name === 'Model');
    const nul = { name: 'Model', props: [9000n, 'Top\0\x01Model', 'Null'], children: [] };
    objects.children.push(nul);
    connections.children.find((c) => c.props[1] === hips.props[0])!.props[2] = 9000n;
    connections.children.push({ name: 'C', props: ['OO', 9000n, 0n], children: [] });
    const curveNode = connections.children.find((c) => c.props[0] === 'OO' && c.props[1] !== hips.props[0])!;
    for (let i = 0; i < 4; i++) connections.children.push({ ...curveNode, props: [...curveNode.props] });
    connections.children.push({ name: 'C', props: ['OO', spine.props[0], hips.props[0]], children: [] });
    return [
      writeFbxBinary(linked),
      writeFbxAscii(linked),
      writeFbxBinary(keyed),
      writeFbxAscii(keyed),
      writeFbxBinary(one),
      writeFbxBinary(two, 7500),
      writeFbxBinary(two, 7400, true),
      writeFbxAscii(one),
      writeFbxAscii(two),
    ];
  },
  mutate: mutateFbx,
  run: (b) =>
    judgeAsync(
      () => importMotionBytes(b, 'x.fbx', { clip: 0 }),
      (r) => checkMotionSaves(r.motion),
      'x.fbx',
    ),
};
