/**
 * `actguy export-msh --project` and `export-gltf --project` (projectExport.ts): every motion and alias of a project,
 * byte-equal to the single export of each, written as one unit or not at all, never onto an input.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressCommand } from './commands/compress';
import { exportGltfCommand } from './commands/export-gltf';
import { exportMshCommand } from './commands/export-msh';
import { runCommand } from './runCommand';
import { exportProject } from '../build/projectExport';
import { parseMshNodesJson } from '../../shared/msh/nodesJson';
import { readMtn } from '../../shared/mtn/read';
import type { CliCommand } from './command';

const assets = join(__dirname, '..', '..', 'assets');
const root = mkdtempSync(join(tmpdir(), 'actguy-project-export-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PROJECT = {
  version: 1,
  fps: 30,
  motions: [
    {
      name: 'walk',
      mtn: 'walk.mtn',
      tolerances: { position: 0.5, rotationDeg: 0.5 },
      rotationOverridesDeg: { LeftFoot: 0.25, '3': 0.3 },
    },
    { name: 'walk_rough', mtn: 'walk.mtn', tolerances: { position: 2, rotationDeg: 2 } },
    { name: 'walk_60', mtn: 'walk_60fps.mtn', resample: true, tolerances: { position: 1, rotationDeg: 1.5 } },
  ],
  aliases: [{ name: 'walk_slow', target: 'walk', speed: 0.5 }],
  outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
};

let n = 0;
let home: string;
let cwd: string;
beforeEach(() => {
  // Each case in a folder of its own, run from there: the paths as a user in the project's folder types them.
  home = join(root, `p${++n}`);
  mkdirSync(home);
  for (const f of ['walk.mtn', 'walk_60fps.mtn']) copyFileSync(join(assets, f), join(home, f));
  writeFileSync(join(home, 'p.actguy.json'), JSON.stringify(PROJECT, null, 2));
  cwd = process.cwd();
  process.chdir(home);
});
afterEach(() => process.chdir(cwd));

async function run(cmd: CliCommand, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const e = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const l = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await runCommand(cmd, argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    e.mockRestore();
    l.mockRestore();
  }
}

const bytes = (path: string) => new Uint8Array(readFileSync(path));

/** The key times of a GLB's first animation channel (its JSON chunk read as the glTF 2.0 layout puts it). */
function keyTimes(path: string): number {
  const glb = Buffer.from(bytes(path));
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
  return json.accessors[json.animations[0].samplers[0].input].count;
}

describe('actguy export-msh --project', () => {
  it("writes every motion and alias, each byte-equal to the single export with the project's tolerances", async () => {
    const r = await run(exportMshCommand, ['--project', 'p.actguy.json', '-o', 'msh', '--jobs', '1']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'walk_slow (alias of walk): msh/walk_slow.res8, msh/walk_slow.res19, msh/walk_slow.nodes.json',
    );
    expect(r.out).toMatch(/exported 3 motions and 1 alias as MSH into msh: 12 files, written as one unit$/);
    expect(readdirSync('msh').sort()).toEqual(
      ['walk', 'walk_60', 'walk_rough', 'walk_slow']
        .flatMap((m) => [`${m}.nodes.json`, `${m}.res19`, `${m}.res8`])
        .sort(),
    );
    // The single exports, with each motion's settings from the project (joint 3 of walk.mtn is by index, LeftFoot by name).
    const single = async (mtn: string, prefix: string, tol: string[]) =>
      expect((await run(exportMshCommand, [mtn, '-o', prefix, ...tol, '--quiet'])).code).toBe(0);
    mkdirSync('one');
    const leftFoot = JSON.parse(readFileSync('msh/walk.nodes.json', 'utf8')).nodes.findIndex(
      (node: { name: string }) => node.name === 'LeftFoot',
    );
    expect(leftFoot).toBeGreaterThan(0);
    await single('walk.mtn', 'one/walk', [
      '--pos-tol',
      '0.5',
      '--rot-tol',
      '0.5',
      '--joint-rot-tol',
      `${leftFoot}=0.25,3=0.3`,
    ]);
    await single('walk.mtn', 'one/walk_rough', ['--pos-tol', '2', '--rot-tol', '2']);
    await single('walk.mtn', 'one/walk_slow', [
      '--pos-tol',
      '0.5',
      '--rot-tol',
      '0.5',
      '--joint-rot-tol',
      `${leftFoot}=0.25,3=0.3`,
    ]);
    for (const m of ['walk', 'walk_rough', 'walk_slow'])
      for (const ext of ['res8', 'res19', 'nodes.json'])
        expect(bytes(`msh/${m}.${ext}`)).toEqual(bytes(`one/${m}.${ext}`));
    // The resampled motion: at the project's 30 fps, not the file's 60.
    expect(JSON.parse(readFileSync('msh/walk_60.nodes.json', 'utf8')).source).toBe('walk_60fps.mtn');
    const frames = (m: string) => parseMshNodesJson(readFileSync(`msh/${m}.nodes.json`, 'utf8'), m).attrs.res19.attr2;
    expect(readMtn(bytes('walk_60fps.mtn')).frameCount).toBe(2 * readMtn(bytes('walk.mtn')).frameCount);
    expect(frames('walk_60')).toBe(frames('walk'));
  });

  it('writes nothing when the third motion fails, and says which file and where', async () => {
    writeFileSync('broken.mtn', bytes('walk.mtn').subarray(0, 200));
    const project = { ...PROJECT, motions: PROJECT.motions.map((m, k) => (k === 2 ? { ...m, mtn: 'broken.mtn' } : m)) };
    writeFileSync('p.actguy.json', JSON.stringify(project, null, 2));
    mkdirSync('msh');
    writeFileSync('msh/keep.txt', 'mine');
    for (const cmd of [exportMshCommand, exportGltfCommand]) {
      const r = await run(cmd, ['--project', 'p.actguy.json', '-o', 'msh']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^broken\.mtn \[MTN\] \(header\): file is 200 bytes/m);
      expect(r.err).toMatch(/1 error; nothing was written$/);
      expect(readdirSync('msh')).toEqual(['keep.txt']);
    }
  });

  it('writes nothing when the commit fails at the third motion, and leaves the old files as they were', async () => {
    expect((await run(exportMshCommand, ['--project', 'p.actguy.json', '-o', 'msh', '--quiet'])).code).toBe(0);
    const before = new Map(readdirSync('msh').map((f) => [f, bytes(`msh/${f}`)]));
    // Other tolerances, so that every file changes; the rename of walk_60's .res8 (the third motion) into place fails,
    // after walk's and walk_rough's were renamed.
    const looser = PROJECT.motions.map((m) => ({ ...m, tolerances: { position: 3, rotationDeg: 3 } }));
    writeFileSync('p.actguy.json', JSON.stringify({ ...PROJECT, motions: looser }));
    const renamed: string[] = [];
    const fs = {
      renameSync: (from: string, to: string) => {
        if (to.endsWith('walk_60.res8') && !from.includes('actguy-old'))
          throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        renameSync(from, to);
        renamed.push(to);
      },
    };
    await expect(exportProject('p.actguy.json', 'msh', 'msh', { jobs: 1, commit: { fs } })).rejects.toThrow(
      /walk_60\.res8/,
    );
    expect(renamed.some((p) => p.endsWith('walk.res8'))).toBe(true);
    expect(new Map(readdirSync('msh').map((f) => [f, bytes(`msh/${f}`)]))).toEqual(before);
  });

  it('refuses an output that is an input of the project, before any work', async () => {
    // A motion named after the project's own file's stem cannot be made; a .mtn at an output's name can.
    copyFileSync('walk.mtn', 'walk_rough.res8');
    writeFileSync(
      'p.actguy.json',
      JSON.stringify({ ...PROJECT, motions: [...PROJECT.motions, { name: 'extra', mtn: 'walk_rough.res8' }] }),
    );
    const r = await run(exportMshCommand, ['--project', 'p.actguy.json', '-o', '.']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      "walk_rough's .res8 walk_rough.res8 is motions[3].mtn walk_rough.res8; an output never overwrites an input",
    );
    expect(r.err).toMatch(/nothing was written$/);
    expect(bytes('walk_rough.res8')).toEqual(bytes('walk.mtn'));
    expect(existsSync('walk.res8')).toBe(false);
  });

  it("refuses to replace a file in the folder that is not such an export's", async () => {
    mkdirSync('gl');
    writeFileSync('gl/walk.glb', 'glTF of another tool');
    const r = await run(exportGltfCommand, ['--project', 'p.actguy.json', '-o', 'gl']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('refused to replace gl/walk.glb');
    expect(readdirSync('gl')).toEqual(['walk.glb']);
    expect(readFileSync('gl/walk.glb', 'utf8')).toBe('glTF of another tool');
  });

  it('refuses a tolerance or an input file given with --project', async () => {
    const r = await run(exportMshCommand, ['--project', 'p.actguy.json', '-o', 'x', '--rot-tol', '1']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--rot-tol does not apply with --project');
    const g = await run(exportGltfCommand, ['walk.mtn', '--project', 'p.actguy.json', '-o', 'x']);
    expect(g.code).toBe(2);
    expect(existsSync('x')).toBe(false);
  });
});

describe('actguy export-gltf --project', () => {
  it('writes one .glb per motion and alias, each byte-equal to the single export named after it; a rerun replaces them', async () => {
    for (let k = 0; k < 2; k++) {
      const r = await run(exportGltfCommand, ['--project', 'p.actguy.json', '-o', 'gl']);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
    }
    expect(readdirSync('gl').sort()).toEqual(['walk.glb', 'walk_60.glb', 'walk_rough.glb', 'walk_slow.glb']);
    mkdirSync('one');
    for (const [name, mtn] of [
      ['walk', 'walk.mtn'],
      ['walk_rough', 'walk.mtn'],
      ['walk_slow', 'walk.mtn'],
    ]) {
      expect((await run(exportGltfCommand, [mtn, '-o', `one/${name}.glb`, '--name', name, '--quiet'])).code).toBe(0);
      expect(bytes(`gl/${name}.glb`)).toEqual(bytes(`one/${name}.glb`));
    }
    // Resampled to the project's rate: not the 60 fps file's own export.
    expect((await run(exportGltfCommand, ['walk_60fps.mtn', '-o', 'one/walk_60.glb', '--name', 'walk_60'])).code).toBe(
      0,
    );
    expect(bytes('gl/walk_60.glb')).not.toEqual(bytes('one/walk_60.glb'));
  });

  // Mutations that fail: the GLB made of the source motion rather than the compressed one decoded; the compression
  // without the motion's own settings from the project (compressOptionsFor's joint overrides left out).
  it('--compressed: each .glb is the single export of the motion compressed with its project settings, byte for byte', async () => {
    const r = await run(exportGltfCommand, ['--project', 'p.actguy.json', '-o', 'gl', '--compressed']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/exported 3 motions and 1 alias as glTF of the compressed motions into gl: 4 files/);
    expect(readdirSync('gl').sort()).toEqual(['walk.glb', 'walk_60.glb', 'walk_rough.glb', 'walk_slow.glb']);
    expect((await run(exportGltfCommand, ['--project', 'p.actguy.json', '-o', 'src', '--quiet'])).code).toBe(0);
    // The single export of a compressed motion: `actguy compress` with the motion's settings from the project (joint
    // overrides by index), then `export-gltf` of the .mt3 decoded with the source as its skeleton.
    const leftFoot = readMtn(bytes('walk.mtn')).joints.findIndex((j) => j.name === 'LeftFoot');
    expect(leftFoot).toBeGreaterThan(3);
    mkdirSync('one');
    const walkTol = ['--pos-tol', '0.5', '--rot-tol', '0.5', '--joint-rot-tol', `${leftFoot}=0.25,3=0.3`];
    for (const [mt3, tol] of [
      ['walk', walkTol],
      ['walk_rough', ['--pos-tol', '2', '--rot-tol', '2']],
    ] as const) {
      const c = await run(compressCommand, [
        'walk.mtn',
        '-o',
        `one/${mt3}.mt3`,
        '--name',
        mt3,
        ...tol,
        '--no-tuning',
        '--quiet',
      ]);
      expect(c.code).toBe(0);
    }
    for (const [name, mt3] of [
      ['walk', 'walk'],
      ['walk_rough', 'walk_rough'],
      ['walk_slow', 'walk'],
    ]) {
      const argv = [`one/${mt3}.mt3`, '--skeleton', 'walk.mtn', '-o', `one/${name}.glb`, '--name', name, '--quiet'];
      expect((await run(exportGltfCommand, argv)).code).toBe(0);
      expect(bytes(`gl/${name}.glb`)).toEqual(bytes(`one/${name}.glb`));
      // Not the source's export: the keys the compression kept, decoded.
      expect(bytes(`gl/${name}.glb`)).not.toEqual(bytes(`src/${name}.glb`));
    }
    expect(bytes('gl/walk.glb')).not.toEqual(bytes('gl/walk_rough.glb'));
    // The resampled motion is compressed at the project's rate too: the key times of the source's export (resampled).
    expect(bytes('gl/walk_60.glb')).not.toEqual(bytes('src/walk_60.glb'));
    expect(keyTimes('gl/walk_60.glb')).toBe(keyTimes('src/walk_60.glb'));
    expect(keyTimes('gl/walk_60.glb')).toBe(keyTimes('gl/walk.glb'));
  });

  it('--compressed applies with --project only', async () => {
    const r = await run(exportGltfCommand, ['walk.mtn', '-o', 'w.glb', '--compressed']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--compressed applies with --project');
    expect(existsSync('w.glb')).toBe(false);
  });
});
