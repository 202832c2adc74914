/**
 * The built CLI carries no three.js: glTF import loads it from the lazy chunk
 * beside the bundle (scripts/lazyChunks.mjs, docs/compression.md#cli-start-up),
 * so `compress` and every other command run without it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { LAZY_CHUNKS } from '../../scripts/lazyChunks.mjs';

const root = join(__dirname, '..', '..');
const distCli = join(root, 'dist', 'cli');
let dir: string;

function run(cli: string, ...args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'cli', '--quiet'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`CLI build failed: ${b.stderr}`);
  dir = mkdtempSync(join(tmpdir(), 'actguy-lazy-'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lazy chunks of the CLI', () => {
  it('the CLI bundle holds no three.js; the chunk beside it does', () => {
    const bundle = readFileSync(join(distCli, 'actguy.cjs'), 'utf8');
    // three.js's revision constant and the glTF loader class (as esbuild writes them) are in the chunk, not in the bundle every run parses.
    expect(/\bREVISION\s*=\s*"\d+"/.test(bundle), 'three.js REVISION in actguy.cjs').toBe(false);
    expect(/GLTFLoader = class\b/.test(bundle), 'GLTFLoader in actguy.cjs').toBe(false);
    for (const c of LAZY_CHUNKS) expect(existsSync(join(distCli, c.file)), c.file).toBe(true);
    const chunk = readFileSync(join(distCli, 'threeLoaders.cjs'), 'utf8');
    expect(/GLTFLoader = class\b/.test(chunk)).toBe(true);
  });

  it('loading the bundle does not set up the FBX reader or its inflate library (an FBX import does, when it runs)', () => {
    const bundle = readFileSync(join(distCli, 'actguy.cjs'), 'utf8');
    // esbuild initialises a module at the bundle's top level (an unindented init_ call) when a module that every run
    // loads imports it statically; importMotion tells an FBX by its magic alone (fbx/magic.ts).
    expect(bundle.match(/^init_(container|fflate_module)\(\);$/gm) ?? []).toEqual([]);
    expect(/^var init_container = __esm\(/m.test(bundle)).toBe(true);
  });

  it('compress runs without the chunk; glTF import loads it from beside the bundle', () => {
    // A copy of the bundle alone: compress needs nothing else.
    const alone = join(dir, 'alone.cjs');
    copyFileSync(join(distCli, 'actguy.cjs'), alone);
    const walk = join(root, 'assets', 'walk.mtn');
    const c = run(alone, 'compress', walk, '-o', 'walk.mt3', '--classic', '--quiet');
    expect(c.err).toBe('');
    expect(c.rc).toBe(0);

    const cli = join(distCli, 'actguy.cjs');
    expect(run(cli, 'export-gltf', walk, '-o', 'walk.glb', '--quiet').rc).toBe(0);
    const i = run(cli, 'import', 'walk.glb', '-o', 'back.mtn', '--quiet');
    expect(i.err).toBe('');
    expect(i.rc).toBe(0);
    const back = readMtn(new Uint8Array(readFileSync(join(dir, 'back.mtn'))));
    expect(back.joints.map((j) => j.name)).toEqual(
      readMtn(new Uint8Array(readFileSync(walk))).joints.map((j) => j.name),
    );
    // Without its chunk the lone bundle cannot import a glTF, and says which file it was.
    const missing = run(alone, 'import', 'walk.glb', '-o', 'nope.mtn', '--quiet');
    expect(missing.rc).toBe(1);
    expect(missing.err).toMatch(/walk\.glb.*threeLoaders\.cjs/);
  });
});
