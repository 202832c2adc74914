/**
 * The import / export-gltf CLI commands end to end on real files: the bundled
 * samples, a compressed .mt3, and the glTF files of assimp-testmodels (skipped
 * with a printed reason when the package is absent).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FormatError } from '../../shared/errors';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { compressMotion } from '../../shared/compress/compress';
import { readGltfContainer, writeGlb } from '../../shared/interchange/gltf/glb';
import { worldPose } from '../../shared/interchange/kinematics';
import { readMtn } from '../../shared/mtn/read';
import { exportGltfCommand } from '../cli/commands/export-gltf';
import { importCommand } from '../cli/commands/import';
import { ASSIMP_BVH_DIR } from './realBvhSamples';
import { UsageError } from '../cli/args';
import { hipsAtHeightBvh } from '../../shared/testing/bvhFixtures';

const dir = mkdtempSync(join(tmpdir(), 'actguy-interchange-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const assets = join(__dirname, '..', '..', 'assets');
const walkPath = join(assets, 'walk.mtn');

/** Runs a command capturing stderr lines. */
async function run(
  cmd: { run(argv: string[]): Promise<number> | number },
  argv: string[],
): Promise<{ code: number; stderr: string }> {
  const lines: string[] = [];
  const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    return { code: await cmd.run(argv), stderr: lines.join('\n') };
  } finally {
    err.mockRestore();
    log.mockRestore();
  }
}

/** Exports the walk to a GLB of the calling test's own (no test reads another test's files: order-independent). */
async function exportWalkGlb(name: string): Promise<string> {
  const glb = join(dir, name);
  expect((await run(exportGltfCommand, [walkPath, '-o', glb])).code).toBe(0);
  return glb;
}

describe('actguy export-gltf / import', () => {
  it('exports the walk as GLB and imports it back to the same motion', async () => {
    const glb = await exportWalkGlb('walk.glb');
    const back = join(dir, 'walk_back.mtn');
    expect((await run(importCommand, [glb, '-o', back])).code).toBe(0);
    const a = readMtn(new Uint8Array(readFileSync(walkPath)));
    const b = readMtn(new Uint8Array(readFileSync(back)));
    expect(b.joints).toEqual(a.joints);
    expect(b.jointKeyInfo).toEqual(a.jointKeyInfo);
    expect(b.translationKeyInfo).toEqual(a.translationKeyInfo);
    for (let i = 0; i < a.rotation.length; i++) expect(Math.abs(a.rotation[i] - b.rotation[i])).toBeLessThan(1e-6);
    for (let i = 0; i < a.translation.length; i++)
      expect(Math.abs(a.translation[i] - b.translation[i])).toBeLessThan(1e-4);
  });

  it('exports the compressed .mt3 with the skeleton .mtn; it stays within the compression tolerance', async () => {
    const walk = readMtn(new Uint8Array(readFileSync(walkPath)));
    const mt3Path = join(dir, 'walk.mt3');
    writeFileSync(mt3Path, compressMotion(walk, { ...DEFAULT_TOLERANCES, name: 'walk' }).bytes);
    const glb = join(dir, 'walk_compressed.glb');
    expect((await run(exportGltfCommand, [mt3Path, '--skeleton', walkPath, '-o', glb])).code).toBe(0);
    const back = join(dir, 'walk_compressed.mtn');
    expect((await run(importCommand, [glb, '-o', back])).code).toBe(0);
    const c = readMtn(new Uint8Array(readFileSync(back)));
    expect(c.joints.map((j) => j.name)).toEqual(walk.joints.map((j) => j.name));
    expect(c.frameCount).toBe(walk.frameCount);
    // The decoded motion differs from the source by at most the tolerances: the hand stays close.
    const hand = walk.joints.findIndex((j) => j.name === 'LeftHand');
    for (let f = 0; f <= walk.frameCount; f += 11) {
      const p = worldPose(walk, f).positions,
        q = worldPose(c, f).positions;
      expect(
        Math.hypot(p[hand * 3] - q[hand * 3], p[hand * 3 + 1] - q[hand * 3 + 1], p[hand * 3 + 2] - q[hand * 3 + 2]),
      ).toBeLessThan(5);
    }
  });

  it('lists both clips of a two-clip GLB and exits non-zero without --clip', async () => {
    const glb = await exportWalkGlb('walk_for_clips.glb');
    const { json, bin } = readGltfContainer(new Uint8Array(readFileSync(glb)));
    json.animations![0].name = 'Walk';
    json.animations!.push({ ...JSON.parse(JSON.stringify(json.animations![0])), name: 'Run' });
    const two = join(dir, 'hero.glb');
    writeFileSync(two, writeGlb(json, bin));
    const out = join(dir, 'hero_run.mtn');
    const r = await run(importCommand, [two, '-o', out]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('2 animation clips');
    expect(r.stderr).toMatch(/0 {2}Walk/);
    expect(r.stderr).toMatch(/1 {2}Run/);
    expect(existsSync(out)).toBe(false);
    expect((await run(importCommand, [two, '-o', out, '--clip', 'Run', '--fps', '15'])).code).toBe(0);
    expect(readMtn(new Uint8Array(readFileSync(out))).fps).toBe(15);
  });

  it('bad input is a FormatError naming the file', async () => {
    const bad = join(dir, 'broken.bvh');
    writeFileSync(
      bad,
      'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n1 2 3 4\n',
    );
    const err = await Promise.resolve(run(importCommand, [bad, '-o', join(dir, 'x.mtn')])).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toBe(`${bad}:11:7: frame 1 has more values than the 3 channels the hierarchy declares`);
  });
});

describe("actguy import --bvh-positions: a BVH's position channels read as the file writes them", () => {
  /** The hips' height (the root translation's y) at each frame of the .mtn at `path`. */
  const hipsHeights = (path: string) => {
    const m = readMtn(new Uint8Array(readFileSync(path)));
    return Array.from({ length: m.frameCount + 1 }, (_, f) => m.translation[f * 4 + 1]);
  };
  const writeBvh = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('a crawl judged as displacements says which option reads it as written; with it the hips crawl', async () => {
    const crawl = writeBvh('crawl.bvh', hipsAtHeightBvh(30));
    const judged = join(dir, 'crawl_judged.mtn');
    const r = await run(importCommand, [crawl, '-o', judged]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: ${crawl}: the position channels of 1 joint(s) (Hips) sit well off zero`);
    expect(r.stderr).toContain('import it with --bvh-positions local');
    expect(hipsHeights(judged)[0]).toBe(120);
    const forced = join(dir, 'crawl_local.mtn');
    expect(await run(importCommand, [crawl, '-o', forced, '--bvh-positions', 'local'])).toEqual({
      code: 0,
      stderr: '',
    });
    expect(hipsHeights(forced)[0]).toBe(30);
  });

  it('a batch reads every BVH as the option says, with no judgement left to warn about', async () => {
    const crawl = writeBvh('batch_crawl.bvh', hipsAtHeightBvh(30));
    const standing = writeBvh('batch_standing.bvh', hipsAtHeightBvh(90));
    const out = join(dir, 'batch_added');
    mkdirSync(out);
    const r = await run(importCommand, [crawl, standing, '-o', out, '--bvh-positions', 'added']);
    expect(r).toEqual({ code: 0, stderr: '' });
    expect(hipsHeights(join(out, 'batch_crawl.mtn'))[0]).toBe(120);
    expect(hipsHeights(join(out, 'batch_standing.mtn'))[0]).toBe(180);
  });

  it('refuses a reading it does not know, and the option on a file that is not a BVH, before writing anything', async () => {
    const crawl = writeBvh('crawl_refused.bvh', hipsAtHeightBvh(30));
    const out = join(dir, 'crawl_refused.mtn');
    await expect(run(importCommand, [crawl, '-o', out, '--bvh-positions', 'Local'])).rejects.toThrow(
      new UsageError('--bvh-positions takes auto, added, local, got "Local"'),
    );
    const glb = await exportWalkGlb('walk_for_bvh_positions.glb');
    await expect(run(importCommand, [glb, '-o', out, '--bvh-positions', 'local'])).rejects.toThrow(
      new UsageError('--bvh-positions applies to BVH input only'),
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe("actguy import: external buffers of a .gltf follow the app's rules", () => {
  /** The walk as a .gltf in its own folder whose buffer is the file `uri` names; the BIN bytes are written to `binName` there. */
  async function gltfWithBuffer(
    name: string,
    uri: string,
    binName?: string,
  ): Promise<{ gltf: string; folder: string; binBytes: Uint8Array }> {
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    const glb = await exportWalkGlb(`${name}.glb`);
    const { json, bin } = readGltfContainer(new Uint8Array(readFileSync(glb)));
    json.buffers![0].uri = uri;
    const gltf = join(folder, `${name}.gltf`);
    writeFileSync(gltf, JSON.stringify(json));
    if (binName) writeFileSync(join(folder, binName), bin!);
    return { gltf, folder, binBytes: bin! };
  }
  const importFails = async (gltf: string) => {
    const err = await run(importCommand, [gltf, '-o', join(dir, 'never.mtn')]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FormatError);
    expect(existsSync(join(dir, 'never.mtn'))).toBe(false);
    return (err as FormatError).message;
  };

  it('reads a buffer beside the file, its URI decoded exactly once', async () => {
    // "walk%2520data.bin" decodes once to the file "walk%20data.bin"; decoding twice would look for "walk data.bin".
    const { gltf } = await gltfWithBuffer('once', 'walk%2520data.bin', 'walk%20data.bin');
    const out = join(dir, 'once.mtn');
    expect((await run(importCommand, [gltf, '-o', out])).code).toBe(0);
    expect(readMtn(new Uint8Array(readFileSync(out))).joints.length).toBeGreaterThan(10);
  });

  it('refuses a buffer outside the folder, a device, a symlink to a device, a folder and a bad % escape', async () => {
    const outside = await gltfWithBuffer('outside', '../outside.bin');
    writeFileSync(join(dir, 'outside.bin'), outside.binBytes);
    expect(await importFails(outside.gltf)).toMatch(
      /^.*outside\.gltf .*external buffer "\.\.\/outside\.bin" lies outside the folder of the \.gltf/,
    );

    expect(await importFails((await gltfWithBuffer('device', '/dev/zero')).gltf)).toMatch(
      /external buffer "\/dev\/zero" is not a file beside the \.gltf/,
    );

    const linked = await gltfWithBuffer('linked', 'zero.bin');
    symlinkSync('/dev/zero', join(linked.folder, 'zero.bin'));
    expect(await importFails(linked.gltf)).toMatch(/external buffer "zero\.bin" lies outside the folder/);

    const devInside = await gltfWithBuffer('fifo', 'sub');
    mkdirSync(join(devInside.folder, 'sub'));
    expect(await importFails(devInside.gltf)).toMatch(
      /external buffer "sub" cannot be read: the buffer: it is a folder, not a file/,
    );

    expect(await importFails((await gltfWithBuffer('escape', 'walk%zz.bin')).gltf)).toMatch(
      /escape\.gltf .*whose % escapes are not valid/,
    );
  });

  it('refuses -o onto the external buffer it read, however spelled, and leaves it as it was (it was overwritten)', async () => {
    const { gltf, folder, binBytes } = await gltfWithBuffer('own-bin', 'walk.bin', 'walk.bin');
    const bin = join(folder, 'walk.bin');
    symlinkSync(bin, join(folder, 'alias.bin'));
    for (const output of [bin, join(folder, '.', 'walk.bin'), join(folder, 'alias.bin')])
      await expect(run(importCommand, [gltf, '-o', output])).rejects.toThrow(
        `-o ${output} is an external buffer of the input ${bin}; an output never overwrites an input`,
      );
    expect(new Uint8Array(readFileSync(bin))).toEqual(binBytes);
    expect((await run(importCommand, [gltf, '-o', join(folder, 'walk.mtn')])).code).toBe(0);
  });

  it('a batch import with --overwrite refuses an output that is the external buffer of one of its inputs, and leaves the buffer as it was', async () => {
    // b.gltf's output, <folder>/b.mtn, is the buffer both files read.
    const { gltf, folder, binBytes } = await gltfWithBuffer('batch-bin', 'b.mtn', 'b.mtn');
    const second = join(folder, 'b.gltf');
    writeFileSync(second, readFileSync(gltf));
    const buffer = join(folder, 'b.mtn');
    const r = await run(importCommand, [gltf, second, '-o', folder, '--overwrite']);
    expect(r.code).toBe(3); // the other file is written: partial failure
    expect(r.stderr).toContain(
      `FAILED ${second}: its output ${buffer} is an external buffer of the input ${gltf}; an output never overwrites an input`,
    );
    expect(new Uint8Array(readFileSync(buffer))).toEqual(binBytes);
    // The other output is written, as in any batch without a project.
    expect(existsSync(join(folder, 'batch-bin.mtn'))).toBe(true);
  });

  it('says so when the input is a folder, naming it', async () => {
    const folder = join(dir, 'a_folder.gltf');
    mkdirSync(folder, { recursive: true });
    await expect(run(importCommand, [folder, '-o', join(dir, 'never.mtn')])).rejects.toThrow(
      `Could not import ${folder}: it is a folder, not a file`,
    );
  });
});

const assimpGltf = '/usr/share/assimp/models/glTF2';
const haveAssimp =
  existsSync(join(assimpGltf, 'simple_skin', 'simple_skin.gltf')) &&
  existsSync(join(assimpGltf, 'BoxTextured-glTF-Binary', 'BoxTextured.glb'));
if (!haveAssimp)
  console.log(
    `cli.test: skipping assimp glTF checks: ${assimpGltf} not found (install the Debian package assimp-testmodels; BVH dir ${ASSIMP_BVH_DIR})`,
  );

describe.skipIf(!haveAssimp)('third-party glTF files (assimp-testmodels)', () => {
  it('imports the skinned simple_skin.gltf (data-URI buffers)', async () => {
    const out = join(dir, 'simple_skin.mtn');
    expect((await run(importCommand, [join(assimpGltf, 'simple_skin', 'simple_skin.gltf'), '-o', out])).code).toBe(0);
    const m = readMtn(new Uint8Array(readFileSync(out)));
    expect(m.joints.length).toBe(2);
    expect(m.joints[1].parent).toBe(0);
    expect(m.frameCount).toBe(165); // 5.5 s at 30 fps
    // The clip bends the second joint: its rotation changes over time.
    const J = 2;
    let moved = 0;
    for (let f = 1; f <= m.frameCount; f++)
      moved = Math.max(moved, Math.abs(m.rotation[(f * J + 1) * 4 + 3] - m.rotation[1 * 4 + 3]));
    expect(moved).toBeGreaterThan(0.01);
  });

  it('a textured GLB without skins is a clear GLTF error (textures never touch the DOM)', async () => {
    const box = join(assimpGltf, 'BoxTextured-glTF-Binary', 'BoxTextured.glb');
    const err = await Promise.resolve(run(importCommand, [box, '-o', join(dir, 'box.mtn')])).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.kind).toBe('GLTF');
    expect(err.message).toBe(
      `${box} [GLTF] (skins): the file has no skins and no animations: only skeletal animation, or an animation that moves nodes, can become a motion`,
    );
  });
});
