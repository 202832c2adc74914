/**
 * Hostile FBX structure (docs/security.md, "Readers linear in their input"): links repeated or ringed, model trees too
 * deep, curves too long for a spread. Work is asserted by counts (reads of a node), never by time.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import { FBX_MAX_MODEL_DEPTH, readFbxAnimation } from './animation';
import { readFbxContainer } from './container';
import { importFbx } from './import';
import { importMotionBytes } from '../importMotion';
import { decodeUtf8Runtime, encodeUtf8 } from '../../utf8';
import { fbxScene, writeFbxAscii, writeFbxBinary, type FbxNode } from './testFixtures';

const objectsOf = (t: FbxNode[]) => t.find((n) => n.name === 'Objects')!;
const connectionsOf = (t: FbxNode[]) => t.find((n) => n.name === 'Connections')!;
const link = (from: FbxNode, to: FbxNode | bigint): FbxNode => ({
  name: 'C',
  props: ['OO', from.props[0], typeof to === 'bigint' ? to : to.props[0]],
  children: [],
});
const model = (id: bigint, name: string, type = 'Null'): FbxNode => ({
  name: 'Model',
  props: [id, `${name}\0\x01Model`, type],
  children: [],
});
const read = (t: FbxNode[]) =>
  readFbxAnimation(
    objectsOf(t),
    connectionsOf(t),
    undefined,
    (x) => x | 0,
    () => ({}),
  );
/** Counts the reads of a node's children (what evaluating a curve node once costs). */
const countChildReads = (n: FbxNode): { reads: number } => {
  const count = { reads: 0 };
  const kids = n.children;
  Object.defineProperty(n, 'children', {
    get: () => {
      count.reads++;
      return kids;
    },
  });
  return count;
};
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as FormatError).message;
  }
  throw new Error('not refused');
};

describe('FBX links read once each', () => {
  it('a curve node linked to its layer 3,000 times is one channel, its settings read once', () => {
    const scene = fbxScene();
    const objects = objectsOf(scene);
    const node = objects.children.find((o) => o.name === 'AnimationCurveNode')!;
    const layer = objects.children.find((o) => o.name === 'AnimationLayer')!;
    const channels = read(fbxScene()).takes[0].channels.length;
    // Before the curve node's own links, so each repeat scanned all of them (quadratic: 80,000 took 50 s).
    connectionsOf(scene).children.unshift(...Array.from({ length: 3000 }, () => link(node, layer)));
    const count = countChildReads(node);
    const take = read(scene).takes[0];
    expect(take.channels.length).toBe(channels);
    expect(count.reads).toBeLessThanOrEqual(1);
  });

  it('a curve node that 2,000 stacks share (each its own layer) is worked out once', () => {
    const scene = fbxScene();
    const objects = objectsOf(scene);
    const node = objects.children.find((o) => o.name === 'AnimationCurveNode')!;
    const extra: FbxNode[] = [];
    const links: FbxNode[] = [];
    for (let i = 0; i < 2000; i++) {
      const stack: FbxNode = {
        name: 'AnimationStack',
        props: [900000n + BigInt(i), `S${i}\0\x01AnimStack`, ''],
        children: [],
      };
      const layer: FbxNode = {
        name: 'AnimationLayer',
        props: [800000n + BigInt(i), `L${i}\0\x01AnimLayer`, ''],
        children: [],
      };
      extra.push(stack, layer);
      links.push(link(layer, stack), link(node, layer));
    }
    objects.children.push(...extra);
    connectionsOf(scene).children.unshift(...links);
    const count = countChildReads(node);
    const { takes } = read(scene);
    expect(takes.length).toBe(2001);
    expect(takes[2000].channels.length).toBe(1);
    expect(count.reads).toBeLessThanOrEqual(1);
  });
});

describe('FBX model tree checked before the loader runs', () => {
  const chainAbove = (depth: number) => {
    const scene = fbxScene();
    const objects = objectsOf(scene);
    const hips = objects.children.find((o) => o.name === 'Model')!;
    const hipsLink = connectionsOf(scene).children.find((c) => c.props[1] === hips.props[0])!;
    let parent = 0n;
    for (let i = 0; i < depth; i++) {
      const m = model(500000n + BigInt(i), `N${i}`);
      objects.children.push(m);
      connectionsOf(scene).children.push(link(m, parent));
      parent = m.props[0] as bigint;
    }
    hipsLink.props[2] = parent;
    return scene;
  };

  it('a model chain deeper than the limit is refused, naming the model (20,000 deep overflowed the loader after 10 s)', () => {
    // Hips under 254 nulls is 254 deep, Head 256: read. One more null and Head is past the limit.
    expect(() => readFbxContainer(writeFbxBinary(chainAbove(FBX_MAX_MODEL_DEPTH - 2)))).not.toThrow();
    for (const bytes of [writeFbxBinary(chainAbove(5000)), writeFbxAscii(chainAbove(5000))])
      expect(refusal(() => readFbxContainer(bytes))).toBe(
        `FBX (Connections): nested too deeply: model "N257" is 257 levels below its root model (a model tree is read up to ${FBX_MAX_MODEL_DEPTH} levels)`,
      );
    expect(refusal(() => readFbxContainer(writeFbxBinary(chainAbove(FBX_MAX_MODEL_DEPTH - 1))))).toContain(
      'model "Head" is 257 levels below its root model',
    );
  });

  it('models linked in a ring, or under themselves, are refused naming them (three.js left a ring out of the scene, and dumped a self-link to the console)', () => {
    const ring = fbxScene();
    const [hips, , head] = objectsOf(ring).children.filter((o) => o.name === 'Model');
    connectionsOf(ring).children.find((c) => c.props[1] === hips.props[0])!.props[2] = head.props[0];
    expect(refusal(() => readFbxContainer(writeFbxBinary(ring)))).toBe(
      'FBX (Connections): models "Hips" -> "Head" -> "Spine" are linked in a ring, each under the next: the file is damaged',
    );
    const self = fbxScene();
    const spine = objectsOf(self).children.filter((o) => o.name === 'Model')[1];
    connectionsOf(self).children.push(link(spine, spine));
    expect(refusal(() => readFbxContainer(writeFbxAscii(self)))).toBe(
      'FBX (Connections): model "Spine" is linked under itself: the file is damaged',
    );
  });

  it('more bones than a motion holds are refused before the loader builds them', () => {
    const bones = Array.from({ length: 1100 }, (_, i) => `b${i}`);
    const scene = fbxScene({ bones: ['Hips'] });
    const objects = objectsOf(scene);
    const hips = objects.children.find((o) => o.name === 'Model')!;
    for (const [i, name] of bones.entries()) {
      const m = model(600000n + BigInt(i), name, 'LimbNode');
      objects.children.push(m);
      connectionsOf(scene).children.push(link(m, hips));
    }
    expect(refusal(() => readFbxContainer(writeFbxBinary(scene)))).toBe(
      'FBX (Objects): the skeleton has 1101 joints; a motion holds at most 1024',
    );
  });

  it('models a skin cluster links count as bones whatever their type (16,000 nulls under clusters reached the loader)', () => {
    const scene = fbxScene({ bones: ['Hips'] });
    const objects = objectsOf(scene);
    const hips = objects.children.find((o) => o.name === 'Model')!;
    for (let i = 0; i < 1030; i++) {
      const m = model(700000n + BigInt(i), `n${i}`);
      const cluster: FbxNode = {
        name: 'Deformer',
        props: [800000n + BigInt(i), `c${i}\0\x01SubDeformer`, 'Cluster'],
        children: [],
      };
      objects.children.push(m, cluster);
      connectionsOf(scene).children.push(link(m, hips), link(m, cluster));
    }
    expect(refusal(() => readFbxContainer(writeFbxBinary(scene)))).toBe(
      'FBX (Objects): the skeleton has 1031 joints; a motion holds at most 1024',
    );
    // Linked to a cluster or not, the same nulls are not bones: read as before.
    const plain = fbxScene({ bones: ['Hips'] });
    const plainHips = objectsOf(plain).children.find((o) => o.name === 'Model')!;
    for (let i = 0; i < 1030; i++) {
      const m = model(700000n + BigInt(i), `n${i}`);
      objectsOf(plain).children.push(m);
      connectionsOf(plain).children.push(link(m, plainHips));
    }
    expect(() => read(plain)).not.toThrow();
  });
});

describe('FBX curve checks on long curves', () => {
  it('a 200,000-key curve that travels too far is refused with its largest value (a spread of it overflowed the stack)', () => {
    const N = 200000;
    const scene = fbxScene({
      keys: (b, attr, axis) =>
        b === 0 && attr === 'R' && axis === 0
          ? {
              seconds: Array.from({ length: N }, (_, i) => i / 30),
              values: Array.from({ length: N }, (_, i) => (i % 2) * 2000),
              flags: [24840],
              data: [0, 0, 0, 0],
              refCount: [N],
            }
          : undefined,
    });
    expect(refusal(() => readFbxContainer(writeFbxBinary(scene)))).toMatch(
      /the animation curves jump by more than 180000000 in all \(values like 2\.00e\+3\): the file is damaged$/,
    );
  });
});

describe('FBX key times', () => {
  it('a key time that is not a finite number is refused at its curve (it ended as "MTN (header): frameCount NaN")', async () => {
    for (const [bad, shown] of [
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
    ] as const) {
      const scene = fbxScene({ frames: 1 });
      for (const o of objectsOf(scene).children)
        if (o.name === 'AnimationCurve')
          o.children.find((c) => c.name === 'KeyTime')!.props[0] = new Float64Array([bad]);
      const e = await importFbx(writeFbxBinary(scene)).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).message).toMatch(
        new RegExp(
          `^FBX \\(offset \\d+\\): animation curve "Hips" Lcl Rotation X: key 0 is at tick ${shown}: key times must be finite numbers$`,
        ),
      );
    }
  });
});

describe('a motion larger than any .mtn ActGuy reads (round 37)', () => {
  it('is refused before any frame is made, naming the take, the frames and the joints', async () => {
    // 1,024 bones and 4 samples (0.1 s) at --fps 300000: 30,000 frames, 1.47 GB as an .mtn.
    const scene = fbxScene({ bones: ['Hips'], frames: 4 });
    const hips = objectsOf(scene).children.find((o) => o.name === 'Model')!;
    for (let i = 1; i < 1024; i++) {
      const m = model(600000n + BigInt(i), `b${i}`, 'LimbNode');
      objectsOf(scene).children.push(m);
      connectionsOf(scene).children.push(link(m, hips));
    }
    const fbx = writeFbxBinary(scene);
    await expect(importFbx(fbx, { fps: 300000 })).rejects.toThrow(
      /^FBX \(AnimationStack "Take 001"\): 0\.10 s at 300000 fps: 30000 frames of 1024 joints would be 1475618368 bytes as an \.mtn, more than the 1073741824 bytes \(1 GiB\) ActGuy reads back; nothing was imported \(lower --fps, or split the clip\)$/,
    );
    expect((await importFbx(fbx, { fps: 30 })).motion.frameCount).toBe(3);
  });
});

describe('FBX transform properties', () => {
  /** fbxScene with the root model's property `name` given `type` and `values` instead. */
  const withProperty = (name: string, type: string, values: (number | string)[]): FbxNode[] => {
    const scene = fbxScene();
    const root = objectsOf(scene).children.find((o) => o.name === 'Model')!;
    const p70 = root.children.find((c) => c.name === 'Properties70')!;
    p70.children = p70.children.filter((p) => p.props[0] !== name.split('\0')[0]);
    p70.children.push({ name: 'P', props: [name, type, '', 'A', ...values], children: [] });
    return scene;
  };

  it('a transform property that is not three numbers is refused at its place, naming the model (it was a TypeError: "rest.map is not a function")', async () => {
    const cases: [string, string, (number | string)[], RegExp][] = [
      ['Lcl Rotation', 'Number', [0], /its Lcl Rotation is of type "Number"/],
      ['Lcl Rotation', 'double', [5], /its Lcl Rotation is of type "double"/],
      ['Lcl Translation', 'KString', ['abc'], /its Lcl Translation is of type "KString"/],
      ['Lcl Scaling', 'Lcl Scaling', [1, 1], /its Lcl Scaling is 2 value\(s\)/],
      ['PreRotation', 'Vector3D', [0, 'x', 0], /its PreRotation is not three numbers/],
      ['RotationPivot', 'Number', [3], /its RotationPivot is of type "Number"/],
      // The loader reads a name or type up to its first NUL, as it reads every string.
      ['Lcl Translation\0\x80', 'A', [0, 100, 0], /its Lcl Translation is of type "A"/],
      ['Lcl Rotation', 'Number\0Lcl Rotation', [0, 0, 0], /its Lcl Rotation is of type "Number"/],
    ];
    for (const [name, type, values, said] of cases) {
      const scene = withProperty(name, type, values);
      for (const [form, bytes, place] of [
        ['binary', writeFbxBinary(scene), /^x\.fbx \[FBX\] \(offset \d+\): model "Hips": /],
        // writeFbxAscii writes a NUL as \u0000: put the byte itself back, as a damaged file holds it.
        [
          'ASCII',
          encodeUtf8(decodeUtf8Runtime(writeFbxAscii(scene))!.replaceAll('\\u0000', '\0')),
          /^x\.fbx \[FBX\] \(P [^)]*\): model "Hips": /,
        ],
      ] as const) {
        const e = await importMotionBytes(bytes, 'x.fbx').catch((err: unknown) => err);
        expect(e, `${name} ${type} ${form}`).toBeInstanceOf(FormatError);
        expect((e as FormatError).message, `${name} ${type} ${form}`).toMatch(place);
        expect((e as FormatError).message, `${name} ${type} ${form}`).toMatch(said);
      }
    }
  });

  it('the same properties as vectors of their usual types still import', async () => {
    for (const [name, type] of [
      ['Lcl Rotation', 'Lcl Rotation'],
      ['Lcl Translation', 'Vector3D'],
      ['PreRotation', 'Vector3D'],
      ['RotationPivot', 'Vector'],
    ])
      expect(
        (await importMotionBytes(writeFbxBinary(withProperty(name, type, [0, 1, 0])), 'x.fbx')).motion.joints.length,
      ).toBe(3);
  });
});
