/**
 * The built CLI carries no three.js: glTF import loads it from the lazy chunk
 * beside the bundle (scripts/lazyChunks.mjs, docs/compression.md#cli-start-up),
 * so `compress` and every other command run without it. Every command but
 * compress lives in a chunk of its own (cliCommands.cjs), so a compress process
 * loads the bundle alone.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { LAZY_CHUNKS } from '../../scripts/lazyChunks.mjs';

const root = join(__dirname, '..', '..');
const distCli = join(root, 'dist', 'cli');
let dir: string;

function run(cli: string, ...args: string[]): { rc: number; out: string; err: string } {
  return runNode([cli, ...args]);
}

function runNode(args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
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

  it('loading the commands chunk does not set up the FBX reader or its inflate library (an FBX import does, when it runs)', () => {
    const chunk = readFileSync(join(distCli, 'cliCommands.cjs'), 'utf8');
    // esbuild initialises a module at the bundle's top level (an unindented init_ call) when a module that every run
    // loads imports it statically; importMotion tells an FBX by its magic alone (fbx/magic.ts).
    expect(chunk.match(/^init_(container|fflate_module)\(\);$/gm) ?? []).toEqual([]);
    expect(/^var init_container = __esm\(/m.test(chunk)).toBe(true);
    // The CLI bundle itself has no importer at all.
    expect(/init_container\b/.test(readFileSync(join(distCli, 'actguy.cjs'), 'utf8'))).toBe(false);
  });

  it('a compress process loads the CLI bundle alone: no chunk, no worker pool, no hashing', () => {
    // Preloaded with -r: at exit it lists the files required and the public Node modules loaded (written with
    // fs.writeSync, since opening process.stderr would load the stream modules itself).
    const probe = join(dir, 'probe.cjs');
    writeFileSync(
      probe,
      `const fs = require('fs');
process.on('exit', () => fs.writeSync(2, 'PROBE ' + JSON.stringify({
  files: Object.keys(require.cache),
  builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/')).map((m) => m.slice(13)),
}) + '\\n'));
`,
    );
    const cli = join(distCli, 'actguy.cjs');
    const c = runNode([
      '-r',
      probe,
      cli,
      'compress',
      join(root, 'assets', 'walk.mtn'),
      '-o',
      'probe.mt3',
      '--classic',
      '--quiet',
    ]);
    expect(c.rc, c.err).toBe(0);
    const loaded = JSON.parse(/^PROBE (.*)$/m.exec(c.err)![1]) as { files: string[]; builtins: string[] };
    expect(loaded.files).toEqual([probe, cli]);
    for (const m of ['worker_threads', 'crypto', 'child_process']) expect(loaded.builtins, m).not.toContain(m);
    // The probe itself works: a command from the chunk is seen loading it and the worker pool's module.
    const b = runNode(['-r', probe, cli, 'info', join(root, 'assets', 'walk.mtn')]);
    expect(b.rc, b.err).toBe(0);
    const more = JSON.parse(/^PROBE (.*)$/m.exec(b.err)![1]) as { files: string[]; builtins: string[] };
    expect(more.files).toEqual([probe, cli, join(distCli, 'cliCommands.cjs')]);
    expect(more.builtins).toContain('worker_threads');
  });

  it('compress runs without the chunks; other commands load theirs from beside the bundle', () => {
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
    // Without the commands chunk the lone bundle runs no other command, and says which file is missing.
    const lone = run(alone, 'info', walk);
    expect(lone.rc).toBe(1);
    expect(lone.err).toMatch(/^actguy info: cannot load .*cliCommands\.cjs/);
    // With it but without three.js's chunk it cannot import a glTF, and says which file it was.
    copyFileSync(join(distCli, 'cliCommands.cjs'), join(dir, 'cliCommands.cjs'));
    const missing = run(alone, 'import', 'walk.glb', '-o', 'nope.mtn', '--quiet');
    expect(missing.rc).toBe(1);
    expect(missing.err).toMatch(/walk\.glb.*threeLoaders\.cjs/);
  });
});
