/**
 * Export All of the compressed motions (`export-gltf --project --compressed`, projectExport.ts) reuses the build's
 * cache as `actguy build` does (docs/interchange.md, "Whole project"): an entry is input, verified against the motion
 * before reuse or known verified by this user's local verdicts; one that does not hold is rejected and the motion
 * compressed again. The files are the same bytes with the cache, without it, and with a hostile one.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withMt3Name } from '../../shared/mt3/write';
import { gvStrCode } from '../../shared/strcode';
import { exportGltfCommand } from '../cli/commands/export-gltf';
import { runCommand } from '../cli/runCommand';
import { builtOk } from '../testing/buildOutcome';
import { cacheEntries, cacheEntryOf } from '../testing/cacheEntries';
import { buildProject } from './build';
import { encodeEntry } from './buildCache';
import { exportProject } from './projectExport';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** walk and cmu (another capture, another frame count, its own tolerance), an alias of walk, in a fresh folder. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-export-cache-'));
  dirs.push(dir);
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
  copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(dir, 'cmu.mtn'));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: 'walk.mtn' },
        { name: 'cmu', mtn: 'cmu.mtn', tolerances: { rotationDeg: 1 } },
      ],
      aliases: [{ name: 'walk_slow', target: 'walk' }],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const cache = join(dir, 'cache');
  const state = join(dir, 'state');
  let n = 0;
  /** The compressed glTF export into a fresh folder, with `cacheDir` (default the test's) and the test's state. */
  const exportAll = async (o: { cacheDir?: string | null; stateDir?: string } = {}) => {
    const out = join(dir, `gl${n++}`);
    const r = await exportProject(path, 'gltf', out, {
      jobs: 1,
      glb: { scale: 1, boneMesh: true, compressed: true },
      cache: { dir: o.cacheDir === undefined ? cache : o.cacheDir, stateDir: o.stateDir ?? state },
    });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    const files = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
    return { cache: r.cache, files };
  };
  const build = async () =>
    builtOk(await buildProject(path, { jobs: 1, cacheDir: cache, stateDir: state, lastBuild: false }));
  return { dir, path, cache, state, exportAll, build };
}

describe('Export All of the compressed motions uses the build cache', () => {
  // Mutations that fail: compressedMotions not handing compressMotions the cache (every motion compressed again);
  // exportProject not defaulting to the project's cache (no entry written beside it).
  it("takes a build's entries, fills the cache for the build, and writes the same bytes as without a cache", async () => {
    const p = project();
    const reference = await p.exportAll({ cacheDir: null });
    expect(reference.cache).toBeUndefined();
    expect(Object.keys(reference.files).sort()).toEqual(['cmu.glb', 'walk.glb', 'walk_slow.glb']);
    // After a build: every motion reused, none compressed (the alias takes its target's).
    expect((await p.build()).cache).toMatchObject({ hits: 0, misses: 2, written: 2 });
    const warm = await p.exportAll();
    expect(warm.cache).toMatchObject({ hits: 2, misses: 0, rejected: 0, damaged: 0 });
    expect(warm.files).toEqual(reference.files);
    // A cold export fills a fresh cache, which the build then reuses whole.
    const other = join(p.dir, 'other-cache');
    const cold = await p.exportAll({ cacheDir: other });
    expect(cold.cache).toMatchObject({ hits: 0, misses: 2, written: 2 });
    expect(cold.files).toEqual(reference.files);
    expect(cacheEntries(other)).toEqual(cacheEntries(p.cache));
    // Without `cache`, exportProject takes the build's default, .actguy-cache beside the project.
    const r = await exportProject(p.path, 'gltf', join(p.dir, 'default'), {
      jobs: 1,
      glb: { scale: 1, boneMesh: true, compressed: true },
    });
    expect(r.ok && r.cache).toMatchObject({ misses: 2, written: 2 });
    expect(cacheEntries(join(p.dir, '.actguy-cache'))).toEqual(cacheEntries(p.cache));
  }, 120_000);

  // Mutation that fails: compressMotions taking a verified-looking candidate as accepted without verifyOrCompress's
  // verdict (build/compressMotions.ts), which the build's own tests catch too (cacheTrust.test.ts).
  it("a hostile entry (another motion's MT3 with its checksum recomputed, channels: null, junk bytes) is rejected and recompressed, never trusted", async () => {
    const p = project();
    const reference = await p.exportAll({ cacheDir: null });
    await p.build();
    const walk = cacheEntryOf(p.cache, 'walk');
    const cmu = cacheEntryOf(p.cache, 'cmu');
    const entry = (claim: object, bytes: Uint8Array) => encodeEntry(walk.key, { ...claim, bytes } as never);
    const hostile: [string, Uint8Array][] = [
      ["cmu's MT3 under walk's name and key", entry(walk.claim, withMt3Name(cmu.bytes, gvStrCode('walk')))],
      ['channels: null, checksum valid', entry({ ...walk.claim, channels: null }, walk.bytes)],
      ['junk MT3 bytes', entry(walk.claim, new Uint8Array(300).fill(0x5a))],
    ];
    for (const [what, bytes] of hostile)
      for (const stateDir of [p.state, join(p.dir, `fresh-state-${what.length}`)]) {
        // This user's verdicts (which know walk's real entry, not this one) and another machine's (none).
        writeFileSync(walk.file, bytes);
        const r = await p.exportAll({ stateDir });
        expect(r.files, what).toEqual(reference.files);
        expect(r.cache, what).toMatchObject({ hits: 1, rejected: 1, misses: 1 });
        // The rejected entry was replaced by the motion compressed again.
        expect(Buffer.from(cacheEntryOf(p.cache, 'walk').bytes).equals(Buffer.from(walk.bytes)), what).toBe(true);
      }
  }, 240_000);

  // Mutation that fails: exportEntries not refusing a file inside the cache folder (pathsInsideCache).
  it("refuses an export folder inside the cache's folder, whose files the cache prunes as its own, before any work", async () => {
    const p = project();
    mkdirSync(p.cache);
    const r = await exportProject(p.path, 'gltf', join(p.cache, 'gl'), {
      jobs: 1,
      glb: { scale: 1, boneMesh: true, compressed: true },
      cache: { dir: p.cache, stateDir: p.state },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0].message).toMatch(
      /walk\.glb \(a file of the export\) lies inside the build cache's folder/,
    );
    expect(readdirSync(p.cache)).toEqual([]);
  });

  // Mutations that fail: the CLI not printing the cache's use; --cache ignored (the default folder used instead).
  it('export-gltf --project --compressed --cache DIR says what it reused, as build does; --no-cache uses none', async () => {
    const p = project();
    await p.build();
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = process.env.ACTGUY_STATE_DIR;
    process.env.ACTGUY_STATE_DIR = p.state;
    try {
      const argv = ['--project', p.path, '--compressed', '-o'];
      expect(await runCommand(exportGltfCommand, [...argv, join(p.dir, 'a'), '--cache', p.cache])).toBe(0);
      expect(out.pop()).toMatch(/written as one unit; cache: 2 reused, 0 rejected, 0 compressed$/);
      expect(await runCommand(exportGltfCommand, [...argv, join(p.dir, 'b'), '--no-cache'])).toBe(0);
      expect(out.pop()).toMatch(/written as one unit$/);
      expect(readdirSync(p.dir)).not.toContain('.actguy-cache');
      expect(await runCommand(exportGltfCommand, [...argv, join(p.dir, 'c'), '--cache', p.cache, '--no-cache'])).toBe(
        2,
      );
      expect(await runCommand(exportGltfCommand, ['--project', p.path, '-o', join(p.dir, 'd'), '--no-cache'])).toBe(2);
    } finally {
      process.env.ACTGUY_STATE_DIR = env;
      log.mockRestore();
      err.mockRestore();
    }
  }, 120_000);
});
