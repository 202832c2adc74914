/**
 * Hostile build cache entries and local state files (docs/security.md, round 49): whatever stands at an entry's name
 * (a file past the size limit, a FIFO, a folder, a link out, bytes of the right length, a shard folder that is a link
 * out) is refused and counted as a refused entry, never trusted, never fails a build; a verdict file, its log, or a
 * last-build record nested past any shape of ours is dropped before JSON.parse, which took a build 96 s and 1.4 GB on
 * 30 MB of `[` within the file's size limit.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { assetsProjectCopy } from '../testing/projectHarness';
import { buildProject } from './build';
import { cacheKey, cacheUse, decodeEntry, openBuildCache } from './buildCache';
import { compressMtnBytes } from './compressPool';
import { parseLastBuild } from './lastBuild';
import { parseVerdicts, verdictLogLine } from './verdicts';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'actguy-hostile-cache-'));
  dirs.push(d);
  return d;
}

const walk = new Uint8Array(readFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn')));
const options = { ...DEFAULT_TOLERANCES, name: 'walk' };

describe('a hostile thing at a cache entry’s name', () => {
  const value = compressMtnBytes(walk, options);
  const key = cacheKey(walk, options);

  // Mutation that fails: cache.read (buildCache.ts) without its count of an entry there but not read (each is
  // `damaged: 0`, and the summary says `0 rejected`).
  it('past the size limit, a FIFO or a folder: not read, counted as rejected, and a good entry is written after', () => {
    const plants: [string, (path: string) => void][] = [
      ['a sparse 4 GB file', (p) => (writeFileSync(p, ''), truncateSync(p, 4 * 1024 ** 3))],
      ['a FIFO', (p) => spawnSync('mkfifo', [p])],
      ['a folder', (p) => (mkdirSync(p), writeFileSync(join(p, 'f'), 'x'))],
    ];
    for (const [what, plant] of plants) {
      const dir = tempDir();
      const cache = openBuildCache(dir);
      const path = join(dir, key.slice(0, 2), `${key}.mt3c`);
      mkdirSync(join(dir, key.slice(0, 2)));
      plant(path);
      expect(cache.read(key), what).toBeUndefined();
      expect(cache.stats.damaged, what).toBe(1);
      expect(cacheUse({ ...cache.stats, misses: 1 }), what).toBe('cache: 0 reused, 1 rejected, 1 compressed');
      // The build puts its own entry in its place (a folder stays: the rename cannot replace it).
      cache.put(key, value);
      const again = openBuildCache(dir);
      expect(again.read(key) === undefined, what).toBe(what === 'a folder');
    }
  });

  it('nothing there is no refusal, a plain miss', () => {
    const cache = openBuildCache(tempDir());
    expect(cache.read(key)).toBeUndefined();
    expect(cache.stats.damaged).toBe(0);
  });

  it('`actguy build`: every hostile entry and a shard folder linked out are refused, the outputs the same', async () => {
    const copy = assetsProjectCopy('actguy-hostile-entry-', { motions: ['walk'] });
    dirs.push(copy.dir);
    const cacheDir = join(copy.dir, '.actguy-cache');
    const build = () => buildProject(copy.project, { cacheDir, lastBuild: false, stateDir: join(copy.dir, 'state') });
    const first = await build();
    if (!first.ok) throw new Error('not built');
    const mar = readFileSync(join(copy.dir, 'out', 'stage.mar'));
    const shard = readdirSync(cacheDir).find((n) => /^[0-9a-f]{2}$/.test(n))!;
    const name = readdirSync(join(cacheDir, shard))[0];
    const entry = join(cacheDir, shard, name);
    const outside = tempDir();
    copyFileSync(entry, join(outside, 'good.mt3c'));
    const plants: [string, () => void, number][] = [
      ['a sparse 4 GB file', () => (writeFileSync(entry, ''), truncateSync(entry, 4 * 1024 ** 3)), 1],
      ['a FIFO', () => (rmSync(entry), spawnSync('mkfifo', [entry])), 1],
      ['a link to a good entry outside', () => (rmSync(entry), symlinkSync(join(outside, 'good.mt3c'), entry)), 1],
      ['bytes of the length of one', () => writeFileSync(entry, Buffer.alloc(mar.length, 7)), 1],
      [
        'the shard folder a link to a folder outside holding the entry',
        () => {
          mkdirSync(join(outside, shard));
          renameSync(entry, join(outside, shard, name));
          rmSync(join(cacheDir, shard), { recursive: true });
          symlinkSync(join(outside, shard), join(cacheDir, shard));
        },
        0,
      ],
    ];
    for (const [what, plant, refused] of plants) {
      plant();
      const r = await build();
      if (!r.ok) throw new Error(`${what}: not built`);
      expect(r.cache, what).toMatchObject({ hits: 0, misses: 1, damaged: refused });
      expect(readFileSync(join(copy.dir, 'out', 'stage.mar')).equals(mar), what).toBe(true);
    }
    // Nothing outside was changed or removed through the link.
    expect(readdirSync(outside).sort()).toEqual(['good.mt3c', shard].sort());
    expect(readdirSync(join(outside, shard))).toEqual([name]);
  }, 120_000);
});

describe('local state nested past any shape of ours', () => {
  const deep = '['.repeat(200_000);

  // Mutation that fails: parseVerdicts (verdicts.ts) without its findExcessiveNesting (JSON.parse is given the text).
  it('a verdict file is dropped before JSON.parse', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const s = parseVerdicts(deep, 'id');
    expect(parse).not.toHaveBeenCalled();
    expect([s.ours, s.verdicts.size, s.files.size]).toEqual([false, 0, 0]);
    // A file of our shape still parses.
    expect(parseVerdicts('{"tool":"actguy cache verdicts","version":1,"cache":"id"}', 'id').ours).toBe(true);
  });

  // Mutation that fails: applyLog (verdicts.ts) without its findExcessiveNesting.
  it('a line of the log is refused before JSON.parse, and so are the rest', () => {
    const key = '5:1:2:3:4';
    const doc = '{"tool":"actguy cache verdicts","version":1,"cache":"id"}';
    const h = 'a'.repeat(64);
    const after = verdictLogLine(key, JSON.stringify({ verdicts: { [h]: [h, 5] } }));
    const parse = vi.spyOn(JSON, 'parse');
    const s = parseVerdicts(doc, 'id', { text: verdictLogLine(key, deep) + after, key });
    expect(parse).toHaveBeenCalledTimes(1); // the file, not the lines
    expect([s.logClean, s.verdicts.size]).toEqual([false, 0]);
  });

  // Mutation that fails: decodeEntry (buildCache.ts) without its findExcessiveNesting. A shared cache's entry, its
  // checksum right (anyone can compute it), its summary nested past any of ours.
  it("a cache entry's summary is refused before JSON.parse", () => {
    const key = 'a'.repeat(64);
    const text = Buffer.from(deep);
    const len = Buffer.alloc(4);
    len.writeUInt32LE(text.length);
    const body = Buffer.concat([len, text, Buffer.from([1, 2, 3])]);
    const sum = createHash('sha256').update(body).digest();
    const entry = Buffer.concat([Buffer.from('AGC1', 'latin1'), sum, body]);
    const parse = vi.spyOn(JSON, 'parse');
    expect(decodeEntry(key, entry)).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
    // The same entry with a summary of our shape decodes: the refusal is the nesting's.
    const ours = Buffer.from(JSON.stringify({ key }));
    len.writeUInt32LE(ours.length);
    const okBody = Buffer.concat([len, ours, Buffer.from([1, 2, 3])]);
    const okSum = createHash('sha256').update(okBody).digest();
    expect(decodeEntry(key, Buffer.concat([Buffer.from('AGC1', 'latin1'), okSum, okBody]))?.bytes).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  // Mutation that fails: parseLastBuild (lastBuild.ts) without its findExcessiveNesting.
  it('a last-build record is dropped before JSON.parse', () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(parseLastBuild(deep)).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
  });
});
