/**
 * Hostile glTF shapes found by `npm run fuzz` (each was a TypeError, an
 * out-of-bounds read, a stack overflow or an endless loop inside three.js
 * before validate.ts): every one is now a FormatError naming the file and the
 * place.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import { syntheticMotion } from '../../testing/syntheticMotion';
import { importMotionBytes } from '../importMotion';
import { motionToGlb } from './export';
import { encodeUtf8, readGltfContainer, writeGlb, type GltfJson } from './glb';
import { GLTF_MAX_NODE_DEPTH } from './validate';

const base = readGltfContainer(motionToGlb(syntheticMotion({ frames: 6, joints: 3, seed: 2 }), { boneMesh: false }));

/** The sample GLB with its JSON (and BIN bytes) changed by `edit`. */
function glb(edit: (json: GltfJson, bin: Uint8Array, dv: DataView) => void): Uint8Array {
  const json = JSON.parse(JSON.stringify(base.json)) as GltfJson;
  const bin = base.bin!.slice();
  edit(json, bin, new DataView(bin.buffer));
  return writeGlb(json, bin);
}

async function importError(bytes: Uint8Array, file = 'hostile.glb'): Promise<FormatError> {
  const e = await importMotionBytes(bytes, file).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FormatError);
  expect((e as FormatError).kind).toBe('GLTF');
  expect((e as Error).message.startsWith(`${file} [GLTF]`) || (e as Error).message.startsWith(`${file}:`)).toBe(true);
  return e as FormatError;
}

/** Byte offset of the first key time of animation 0's sampler 0. */
function firstTimeOffset(json: GltfJson): number {
  const acc = json.accessors![json.animations![0].samplers[0].input];
  return (json.bufferViews![acc.bufferView!].byteOffset ?? 0) + (acc.byteOffset ?? 0);
}

describe('glTF JSON shape is checked before three.js sees it', () => {
  it('the sample imports (the edits below are what breaks it)', async () => {
    await expect(
      importMotionBytes(
        glb(() => undefined),
        'ok.glb',
      ),
    ).resolves.toMatchObject({ motion: { frameCount: 6 } });
  });

  it('a sampler whose output count differs from its input (an endless loop in three before)', async () => {
    const e = await importError(
      glb((j) => {
        const s = j.animations![0].samplers[1];
        j.accessors![s.output].count -= 1;
      }),
    );
    expect(e.message).toMatch(/animations\[0\]\.samplers\[1\] has 7 key times but 6 output values \(expected 7\)/);
  });

  it('an output of the wrong type for its path', async () => {
    const e = await importError(
      glb((j) => {
        const rot = j.animations![0].channels.find((c) => c.target.path === 'rotation')!;
        j.accessors![j.animations![0].samplers[rot.sampler].output].type = 'VEC3';
      }),
    );
    expect(e.message).toMatch(/animates rotation, so it must be VEC4, found VEC3/);
  });

  it('objects and arrays where the other belongs ("buffers.forEach is not a function" before)', async () => {
    expect(
      (
        await importError(
          glb((j) => {
            (j as Record<string, unknown>).buffers = 'x';
          }),
        )
      ).message,
    ).toMatch(/buffers must be an array, found "x"/);
    expect(
      (
        await importError(
          glb((j) => {
            (j as Record<string, unknown>).bufferViews = {};
          }),
        )
      ).message,
    ).toMatch(/bufferViews must be an array/);
    expect(
      (
        await importError(
          glb((j) => {
            (j.nodes as unknown[])[1] = 1.5;
          }),
        )
      ).message,
    ).toMatch(/nodes\[1\] must be an object, found 1.5/);
    expect(
      (
        await importError(
          glb((j) => {
            (j.nodes![0] as Record<string, unknown>).children = 34962;
          }),
        )
      ).message,
    ).toMatch(/nodes\[0\]\.children must be an array/);
    expect(
      (
        await importError(
          glb((j) => {
            (j.nodes![1] as Record<string, unknown>).rotation = [0, { length: 3 }, 0, 1];
          }),
        )
      ).message,
    ).toMatch(/nodes\[1\]\.rotation must be an array of 4 finite numbers/);
  });

  it('indices that are out of range, negative or not integers', async () => {
    expect(
      (
        await importError(
          glb((j) => {
            j.nodes![0].children = [99];
          }),
        )
      ).message,
    ).toMatch(/nodes\[0\]\.children\[0\] names node 99, but the file has 3/);
    expect(
      (
        await importError(
          glb((j) => {
            j.skins![0].joints[1] = 7;
          }),
        )
      ).message,
    ).toMatch(/skins\[0\]\.joints\[1\] names node 7/);
    expect(
      (
        await importError(
          glb((j) => {
            j.animations![0].channels[0].sampler = -1;
          }),
        )
      ).message,
    ).toMatch(/channels\[0\]\.sampler must be an index \(an integer >= 0\), found -1/);
    const input = base.json.animations![0].samplers[0].input;
    expect(
      (
        await importError(
          glb((j) => {
            j.accessors![input].bufferView = 0.5;
          }),
        )
      ).message,
    ).toMatch(new RegExp(`accessors\\[${input}\\]\\.bufferView must be an index`));
    expect(
      (
        await importError(
          glb((j) => {
            (j.accessors as unknown[])[0] = null;
          }),
        )
      ).message,
    ).toMatch(/accessors\[0\] must be an object, found null/);
  });

  it('byte lengths must be integers >= 1 and accessors must fit their views', async () => {
    expect(
      (
        await importError(
          glb((j) => {
            j.bufferViews![0].byteLength = 1.5;
          }),
        )
      ).message,
    ).toMatch(/bufferViews\[0\]\.byteLength must be an integer >= 1, found 1.5/);
    expect(
      (
        await importError(
          glb((j) => {
            j.buffers![0].byteLength = -4;
          }),
        )
      ).message,
    ).toMatch(/buffers\[0\]\.byteLength must be an integer >= 1/);
    const output = base.json.animations![0].samplers[0].output;
    expect(
      (
        await importError(
          glb((j) => {
            j.accessors![output].count = 1e6;
          }),
        )
      ).message,
    ).toMatch(new RegExp(`accessors\\[${output}\\] needs bytes up to \\d+ of bufferView`));
    expect(
      (
        await importError(
          glb((j) => {
            delete j.accessors![output].bufferView;
            j.accessors![output].count = 1e8;
          }),
        )
      ).message,
    ).toMatch(/declares 100000000 elements without data/);
  });

  it('accessors the loader must fill itself (no bufferView, or sparse) are bounded in all, not only each', async () => {
    // One shared zero time accessor of 1M keys and a zero rotation output of 1M keys per joint: each accessor within
    // its own bound, but a 4 MB file of 100 such joints had `actguy import` allocate 2 GB (41 s).
    const message = (
      await importError(
        glb((j) => {
          const anim = j.animations![0];
          const input = j.accessors!.length;
          j.accessors!.push({ componentType: 5126, count: 1 << 20, type: 'SCALAR', min: [0], max: [0] });
          anim.samplers = [];
          anim.channels = [];
          j.nodes!.forEach((_, node) => {
            j.accessors!.push({ componentType: 5126, count: 1 << 20, type: 'VEC4' });
            anim.samplers.push({ input, output: j.accessors!.length - 1 });
            anim.channels.push({ sampler: anim.samplers.length - 1, target: { node, path: 'rotation' } });
          });
        }),
      )
    ).message;
    expect(message).toMatch(
      /\(accessors\[\d+\]\.count\): accessors\[\d+\] brings the elements of accessors without data of their own \(no bufferView, or sparse\) to 9437184, more than the 8388608 a file may have the loader make/,
    );
  });

  it('a node graph with a cycle, or a node with two parents', async () => {
    // node 0 is the root with child 1; 1 -> 0 closes a loop
    expect(
      (
        await importError(
          glb((j) => {
            j.nodes![2].children = [0];
          }),
        )
      ).message,
    ).toMatch(/node \d is its own ancestor|is a child of both/);
    expect(
      (
        await importError(
          glb((j) => {
            j.nodes![1].children = [...(j.nodes![1].children ?? []), 1];
          }),
        )
      ).message,
    ).toMatch(/node 1 is (its own ancestor|a child of both)/);
    const two = glb((j) => {
      const child = j.nodes![0].children![0];
      j.nodes![2].children = [...(j.nodes![2].children ?? []).filter((c) => c !== child), child];
    });
    expect((await importError(two)).message).toMatch(/is a child of both node/);
  });

  it('key times that do not increase, or are not finite', async () => {
    const same = await importError(
      glb((j, _b, dv) => {
        const at = firstTimeOffset(j);
        dv.setFloat32(at + 4, dv.getFloat32(at, true), true);
      }),
    );
    expect(same.message).toMatch(/animations\[0\] track .*: key times must increase: key 1 at 0 s follows 0 s/);
    const nan = await importError(glb((j, _b, dv) => dv.setFloat32(firstTimeOffset(j) + 8, NaN, true)));
    expect(nan.message).toMatch(/key time 2 is NaN, not a finite number/);
  });

  // docs/security.md, round 35. Mutation that fails: checkKeyValues not called (both end as `[MTN] (rotation frame 0
  // joint 0): value NaN is not finite`, naming no track of the file).
  it('key values that are not finite numbers: refused at their track and key', async () => {
    /** Byte offset of the first output value of animation 0's channel that animates `path`. */
    const firstValueOffset = (j: GltfJson, path: string): number => {
      const anim = j.animations![0];
      const channel = anim.channels.find((c) => c.target.path === path)!;
      const acc = j.accessors![anim.samplers[channel.sampler].output];
      return (j.bufferViews![acc.bufferView!].byteOffset ?? 0) + (acc.byteOffset ?? 0);
    };
    const nan = await importError(glb((j, _b, dv) => dv.setFloat32(firstValueOffset(j, 'rotation') + 20, NaN, true)));
    expect(nan.message).toMatch(
      /animations\[0\] track .*quaternion\): key 1 holds NaN \(value 5\), not a finite number/,
    );
    const inf = await importError(
      glb((j, _b, dv) => dv.setFloat32(firstValueOffset(j, 'translation'), Infinity, true)),
    );
    expect(inf.message).toMatch(
      /animations\[0\] track .*position\): key 0 holds Infinity \(value 0\), not a finite number/,
    );
  });

  // docs/security.md, round 35. Mutation that fails: the check on the joint positions gone (`[MTN] (offset frame 0
  // joint 1): value Infinity is not finite`).
  it('a node translation past what a motion stores: refused naming the node and joint', async () => {
    const e = await importError(
      glb((j) => {
        const still = j.nodes![1];
        j.animations![0].channels = j.animations![0].channels.filter((c) => c.target.node !== 1);
        still.translation = [1e300, 0, 0];
      }),
    );
    expect(e.message).toMatch(
      /\(nodes\[1\]\): frame 0: joint ".*" position x is 1e\+300 .*beyond what a motion stores/,
    );
  });

  it('a % escape that is not valid in an external buffer URI', async () => {
    const json = JSON.parse(JSON.stringify(base.json)) as GltfJson;
    json.buffers![0].uri = 'walk%zz.bin';
    const e = await importMotionBytes(encodeUtf8(JSON.stringify(json)), 'escape.gltf', {
      resolveUri: () => base.bin!,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message).toMatch(
      /^escape\.gltf \[GLTF\] \(buffers\[0\]\.uri\): buffer 0 has the URI "walk%zz\.bin", whose % escapes are not valid$/,
    );
  });

  it('extras nested thousands deep (a stack overflow before) are refused at line:column', async () => {
    const json = JSON.parse(JSON.stringify(base.json)) as GltfJson;
    json.animations![0].extras = 'DEEP';
    const text = JSON.stringify(json).replace('"DEEP"', `${'['.repeat(20000)}${']'.repeat(20000)}`);
    const e = await importMotionBytes(encodeUtf8(text), 'deep.gltf').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message).toMatch(
      /^deep\.gltf:1:\d+: the file \(neither GLB nor glTF JSON\) is nested too deeply \(more than 128 levels/,
    );
  });

  it("accessors no animation reads (a mesh's, say) are not held against the motion", async () => {
    const r = await importMotionBytes(
      glb((j) => {
        j.accessors!.push({ componentType: 5126, count: 1e8, type: 'VEC3' } as never); // a Draco-style accessor: no bufferView
      }),
      'mesh.glb',
    );
    expect(r.motion.frameCount).toBe(6);
  });

  it('ActGuy extras of the wrong shape are ignored, not trusted', async () => {
    const r = await importMotionBytes(
      glb((j) => {
        const x = (j.animations![0].extras as { actguy: Record<string, unknown> }).actguy;
        x.translationKeys = 34962;
        x.jointKeys = { for: 1 };
        x.joints = [1.5, null, 'x'];
        x.scale = -3;
      }),
      'extras.glb',
    );
    expect(r.motion.frameCount).toBe(6);
  });
});

describe('glTF node tree depth', () => {
  it('a node chain 20,000 deep is refused at the first node past the limit (a stack overflow before)', async () => {
    const e = await importError(
      glb((j) => {
        const nodes = j.nodes!;
        const leaf = nodes.findIndex((n) => !n.children?.length && j.skins![0].joints.includes(nodes.indexOf(n)));
        let parent = leaf;
        for (let k = 0; k < 20_000; k++) {
          nodes.push({ name: `deep${k}` });
          nodes[parent].children = [nodes.length - 1];
          parent = nodes.length - 1;
        }
      }),
    );
    expect(e.message).toMatch(
      new RegExp(
        `^hostile\\.glb \\[GLTF\\] \\(nodes\\[\\d+\\]\\): nested too deeply: node \\d+ is ${GLTF_MAX_NODE_DEPTH + 1} levels below its root node \\(a node tree is read up to ${GLTF_MAX_NODE_DEPTH} levels\\)$`,
      ),
    );
  });

  it('a chain exactly at the limit is read', async () => {
    const bytes = glb((j) => {
      const nodes = j.nodes!;
      // Under a leaf `below - 1` levels down, a chain of extra nodes whose last is exactly at the limit.
      let parent = nodes.findIndex((n) => !n.children?.length);
      let below = 0;
      for (let a = parent; a >= 0; a = nodes.findIndex((n) => n.children?.includes(a))) below++;
      for (let k = below - 1; k < GLTF_MAX_NODE_DEPTH; k++) {
        nodes.push({ name: `deep${k}` });
        nodes[parent].children = [...(nodes[parent].children ?? []), nodes.length - 1];
        parent = nodes.length - 1;
      }
    });
    await expect(importMotionBytes(bytes, 'ok.glb')).resolves.toMatchObject({ motion: { frameCount: 6 } });
  });
});

describe('glTF bufferView bounds', () => {
  it('a bufferView whose byteLength fits its buffer but whose byteOffset + byteLength does not is refused', async () => {
    let expectedEnd = 0;
    let bufferBytes = 0;
    const e = await importError(
      glb((j) => {
        const view = j.bufferViews![0];
        bufferBytes = j.buffers![view.buffer].byteLength;
        expect(view.byteLength).toBeLessThan(bufferBytes);
        // Moved 4 bytes past where it could still fit: its length alone still fits the buffer.
        view.byteOffset = bufferBytes - view.byteLength + 4;
        expectedEnd = view.byteOffset + view.byteLength;
      }),
    );
    expect(e.message).toBe(
      `hostile.glb [GLTF] (bufferViews[0]): bufferView 0 ends at byte ${expectedEnd}, past the end of buffer 0 (${bufferBytes} bytes)`,
    );
  });
});
