import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { COMPRESSOR_VERSION } from '../../shared/compress/version';
import { cacheKey, canonicalJson, decodeEntry, encodeEntry, entryStampsProve, openBuildCache } from './buildCache';
import { compressMtnBytes } from './compressPool';
import { buildProject } from './build';
import { openVerdictStore, parseVerdicts, stampOf, verdictLogKey } from './verdicts';
import { cacheEntries } from '../testing/cacheEntries';

const root = join(__dirname, '..', '..');
const ASSETS = join(root, 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'actguy-cache-'));
  dirs.push(d);
  return d;
}
const walk = new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn')));
const options = { ...DEFAULT_TOLERANCES, name: 'walk' };

describe('cacheKey', () => {
  it('changes with the MTN bytes, every setting (even one added later), and the compressor version', () => {
    const base = cacheKey(walk, options);
    expect(cacheKey(walk, { ...options })).toBe(base);
    // Key order does not matter; every value does.
    expect(
      cacheKey(walk, { name: 'walk', offsetTolerance: 0.5, rotationToleranceDeg: 0.5, positionTolerance: 0.5 }),
    ).toBe(base);
    const changed = new Set([
      cacheKey(walk.slice(0, -1), options),
      cacheKey(walk, { ...options, name: 'walk2' }),
      cacheKey(walk, { ...options, positionTolerance: 0.25 }),
      cacheKey(walk, { ...options, rotationToleranceDeg: 1 }),
      cacheKey(walk, { ...options, offsetTolerance: 1 }),
      cacheKey(walk, { ...options, rotationToleranceOverridesDeg: { 3: 0.1 } }),
      cacheKey(walk, { ...options, rotationToleranceOverridesDeg: { 3: 0.2 } }),
      // A setting the compressor may grow later (a mode, object-space tolerances) enters the key untouched.
      cacheKey(walk, { ...options, mode: 'classic' } as typeof options),
      cacheKey(walk, options, { version: COMPRESSOR_VERSION + 1, digest: 'unbundled' }),
      cacheKey(walk, options, { version: COMPRESSOR_VERSION, digest: 'another compressor source' }),
    ]);
    expect(changed.size).toBe(10);
    expect(changed.has(base)).toBe(false);
  });

  it('keys a motion file as read apart from the same bytes compressed as they are, and by the rate it is resampled to', () => {
    const asFile = cacheKey(walk, options, undefined, { file: 'mtn', resampledTo: null });
    const keys = new Set([
      cacheKey(walk, options),
      asFile,
      cacheKey(walk, options, undefined, { file: 'mtn', resampledTo: 30 }),
      cacheKey(walk, options, undefined, { file: 'mtn', resampledTo: 60 }),
      cacheKey(walk.slice(0, -1), options, undefined, { file: 'mtn', resampledTo: null }),
    ]);
    expect(keys.size).toBe(5);
    expect(cacheKey(walk, { ...options }, undefined, { file: 'mtn', resampledTo: null })).toBe(asFile);
  });
});

describe('canonicalJson', () => {
  /** The array version it replaced: keys, entries already in caches and verdicts were made with its text. */
  function arrayVersion(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(arrayVersion).join(',')}]`;
    if (value && typeof value === 'object')
      return `{${Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${arrayVersion((value as Record<string, unknown>)[k])}`)
        .join(',')}}`;
    return JSON.stringify(value);
  }

  it('writes byte for byte the text of the array version, on settings, summaries and odd values', () => {
    const summary = compressMtnBytes(walk, options);
    const { bytes: _bytes, ...claim } = summary;
    // eslint-disable-next-line no-sparse-arrays
    const holes = [1, , 3];
    const values: unknown[] = [
      options,
      { ...options, rotationToleranceOverridesDeg: { 10: 0.1, 2: 0.2 }, objectTolerance: undefined },
      claim,
      { z: 1, a: [{ y: null, b: 'é"\\\n' }, [], {}], m: { k: undefined }, '': -0, 'a b': [NaN, Infinity, -1e-7] },
      [undefined, () => 1, null, 'x', holes, [[]]],
      { f: () => 1, s: Symbol('s'), d: new Date(0), t: new Float64Array([1.5, 2]) },
      [],
      {},
      'text',
      12.5,
      null,
      true,
    ];
    for (const v of values) expect(canonicalJson(v)).toBe(arrayVersion(v));
    expect(canonicalJson([undefined, 1, holes])).toBe('[,1,[1,,3]]');
  });
});

describe('openBuildCache', () => {
  const value = compressMtnBytes(walk, options);
  const key = cacheKey(walk, options);

  it('returns what was stored, byte for byte, as a candidate (its summary unchecked)', () => {
    const cache = openBuildCache(tempDir());
    expect(cache.read(key)).toBeUndefined();
    const written = cache.put(key, value)!;
    const back = cache.read(key)!;
    expect(back.digest).toBe(written.digest);
    // The stamp put returns is the entry file's own, so a later build can skip hashing it (docs/cache.md).
    expect(written.stamp).toEqual(back.stamp);
    expect(Buffer.from(back.bytes).equals(Buffer.from(value.bytes))).toBe(true);
    expect({ ...back.claim, bytes: back.bytes }).toEqual({ ...value, bytes: back.bytes });
    cache.accept(back);
    expect(cache.stats).toMatchObject({ hits: 1, written: 1, damaged: 0 });
  });

  it('entries read one after another each keep their own MT3 bytes (they are read into one shared buffer)', () => {
    const cache = openBuildCache(tempDir());
    const other = compressMtnBytes(walk, { ...options, name: 'walk2', rotationToleranceDeg: 2 });
    const otherKey = cacheKey(walk, { ...options, name: 'walk2', rotationToleranceDeg: 2 });
    cache.put(key, value);
    cache.put(otherKey, other);
    const first = cache.read(key)!;
    const firstBytes = Buffer.from(first.bytes);
    expect(firstBytes.equals(Buffer.from(value.bytes))).toBe(true);
    const second = cache.read(otherKey)!;
    expect(Buffer.from(second.bytes).equals(Buffer.from(other.bytes))).toBe(true);
    expect(Buffer.from(first.bytes).equals(firstBytes)).toBe(true);
    expect(first.claim).toMatchObject({ totalKeys: value.totalKeys, mt3Bytes: value.mt3Bytes });
    // A damaged one in between changes neither.
    const damaged = cacheKey(walk, { ...options, name: 'walk3' });
    cache.put(damaged, value);
    const dpath = join(cache.dir, damaged.slice(0, 2), `${damaged}.mt3c`);
    writeFileSync(dpath, readFileSync(dpath).subarray(0, 100));
    expect(cache.read(damaged)).toBeUndefined();
    expect(Buffer.from(first.bytes).equals(firstBytes)).toBe(true);
    expect(Buffer.from(second.bytes).equals(Buffer.from(other.bytes))).toBe(true);
  });

  it('a shard folder swapped for a link during a build is never written through, though it was read before', () => {
    const dir = tempDir();
    const outside = tempDir();
    const cache = openBuildCache(dir);
    cache.put(key, value);
    expect(cache.read(key)).toBeDefined(); // the shard is now known to this cache as a folder
    const shard = join(dir, key.slice(0, 2));
    rmSync(shard, { recursive: true });
    symlinkSync(outside, shard);
    // Another key in the same shard: the write checks the shard again and does not go through the link.
    const other = key.slice(0, 2) + 'f'.repeat(62);
    expect(cache.put(other, value)).toBeUndefined();
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a damaged entry (any flipped byte, a truncation, another key's entry) is a miss, is deleted, and is recomputed", () => {
    const dir = tempDir();
    const cache = openBuildCache(dir);
    cache.put(key, value);
    const [file] = cacheEntries(dir);
    const good = readFileSync(join(dir, file));
    const damage = [
      (b: Buffer) => {
        b[b.length - 1] ^= 1;
        return b;
      }, // in the MT3 bytes
      (b: Buffer) => {
        b[60] ^= 0x20;
        return b;
      }, // in the JSON
      (b: Buffer) => {
        b[5] ^= 1;
        return b;
      }, // in the checksum
      (b: Buffer) => b.subarray(0, b.length - 7), // truncated
      () => Buffer.from(encodeEntry(cacheKey(walk, { ...options, name: 'other' }), value)), // intact, but another key's
    ];
    for (const d of damage) {
      writeFileSync(join(dir, file), d(Buffer.from(good)));
      expect(cache.read(key)).toBeUndefined();
      expect(cacheEntries(dir)).toEqual([]);
      cache.put(key, value);
      expect(cache.read(key)?.claim.totalKeys).toBe(value.totalKeys);
    }
    expect(cache.stats.damaged).toBe(damage.length);
    expect(decodeEntry(key, good)?.bytes.byteLength).toBe(value.mt3Bytes);
  });

  it('stays under its size limit, evicting the least recently used entries', () => {
    const dir = tempDir();
    const size = encodeEntry(key, value).byteLength;
    const cache = openBuildCache(dir, { maxBytes: size * 3 });
    const keys = ['a', 'b', 'c', 'd', 'e'].map((n) => cacheKey(walk, { ...options, name: n }));
    keys.forEach((k, i) => {
      cache.put(k, value);
      const t = new Date(Date.UTC(2020, 0, 1 + i));
      utimesSync(join(dir, k.slice(0, 2), `${k}.mt3c`), t, t);
    });
    // Entry a is the oldest, but a hit makes it the most recent.
    cache.accept(cache.read(keys[0])!);
    cache.prune();
    expect(cache.stats.evicted).toBe(2);
    expect(keys.map((k) => cache.read(k) !== undefined)).toEqual([true, false, false, true, true]);
    const total = cacheEntries(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
    expect(total).toBeLessThanOrEqual(size * 3);
  });
});

describe('entry stamps stand for an entry only where nobody can set its ctime back', () => {
  it('holds on the local Linux file systems whose ctime only the kernel sets, nowhere else', () => {
    const on = (platform: NodeJS.Platform, type: number | undefined) => entryStampsProve('/c', platform, () => type);
    for (const local of [0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630]) expect(on('linux', local)).toBe(true);
    // FAT (ctime is its mtime), exFAT, SMB/CIFS, NFS, FUSE (NTFS through ntfs-3g), or no answer.
    for (const other of [0x4d44, 0x2011bab0, 0xff534d42, 0xfe534d42, 0x6969, 0x65735546, undefined])
      expect(on('linux', other)).toBe(false);
    // Windows lets a program set NTFS's change time; macOS is not told apart from its network mounts.
    expect(on('win32', 0xef53)).toBe(false);
    expect(on('darwin', 0xef53)).toBe(false);
  });

  it('an entry rewritten under its old stamp and checksum is caught by hashing where stamps do not prove it', () => {
    // On a file system that lets it, the other writer then sets the stamp back, so the remembered digest is offered.
    const { key, dir, bytes, remembered } = entryRewritten();
    const trusted = openBuildCache(dir, { stampsProve: () => true }).read(key, remembered);
    expect(trusted?.bytes.at(-1)).toBe(bytes.at(-1)); // what a stamp that proves nothing would let through
    const hashed = openBuildCache(dir, { stampsProve: () => false });
    expect(hashed.read(key, remembered)).toBeUndefined();
    expect(hashed.stats.damaged).toBe(1);
  });
});

describe('entry stamps where they stand for an entry (round 24, held)', () => {
  // Mutation that fails: sameStamp without its ctime (size, mtime, inode and device only).
  it('an entry rewritten in place, its size and mtime kept, is hashed and found damaged, not taken on its stamp', () => {
    const value = compressMtnBytes(walk, options);
    const key = cacheKey(walk, options);
    const dir = tempDir();
    const written = openBuildCache(dir).put(key, value)!;
    expect(written.stamp).toBeDefined();
    const verdicts = openVerdictStore(dir, join(tempDir(), 'state'));
    verdicts.remember(key, written.digest, written.stamp);
    const path = join(dir, key.slice(0, 2), `${key}.mt3c`);
    // The mtime to the nanosecond, as `touch -r` sets it back (utimes through a Date keeps only milliseconds).
    const reference = join(dir, 'reference');
    copyFileSync(path, reference);
    expect(spawnSync('touch', ['-m', '-r', path, reference]).status).toBe(0);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path, bytes); // the same inode, the same size
    expect(spawnSync('touch', ['-m', '-r', reference, path]).status).toBe(0); // the mtime set back, as any user may
    expect(String(statSync(path, { bigint: true }).mtimeNs)).toBe(written.stamp!.mtimeNs);
    const cache = openBuildCache(dir, { stampsProve: () => true });
    expect(cache.read(key, (stamp) => verdicts.entryDigest(key, stamp))).toBeUndefined();
    expect(cache.stats.damaged).toBe(1);
  });
});

/**
 * walk's entry written to a new cache folder, then rewritten by another writer who keeps the 36-byte head (magic
 * and the old checksum) and changes the MT3 at the end; `remembered` offers the digest the write gave.
 */
function entryRewritten() {
  const value = compressMtnBytes(walk, options);
  const key = cacheKey(walk, options);
  const dir = tempDir();
  const written = openBuildCache(dir).put(key, value)!;
  const path = join(dir, key.slice(0, 2), `${key}.mt3c`);
  const bytes = readFileSync(path);
  bytes[bytes.length - 1] ^= 0xff;
  writeFileSync(path, bytes);
  return { value, key, dir, bytes, remembered: () => written.digest };
}

describe('entry stamps in a shard folder of another file system', () => {
  // Mutation that fails: read() asking only whether stamps prove entries in the cache folder, not in the shard's.
  it('a shard folder where stamps prove nothing (a mount over it) has its entries hashed, even where the cache folder proves', () => {
    const { value, key, dir, remembered } = entryRewritten();
    const asked: string[] = [];
    const cache = openBuildCache(dir, {
      stampsProve: (d) => {
        asked.push(d);
        return d === dir; // the cache folder's file system proves; the shard is another one mounted there
      },
    });
    expect(cache.read(key, remembered)).toBeUndefined();
    expect(cache.stats.damaged).toBe(1);
    expect(asked).toEqual([dir, join(dir, key.slice(0, 2))]);
    // Asked once per shard and build: a read of the entry written again asks nothing more (and hashes it: it holds).
    cache.put(key, value);
    expect(cache.read(key, remembered)?.bytes).toEqual(value.bytes);
    expect(asked).toHaveLength(2);
  });
});

describe('build cache in builds', () => {
  it('a build that wrote a few entries walks the folder for its size limit once this user wrote a hundredth of the limit since the last walk, or a day later', async () => {
    const dir = tempDir();
    copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
    const project = join(dir, 'p.actguy.json');
    const cache = join(dir, 'cache');
    const stateDir = join(dir, 'state');
    const limit = 4 * 1024 * 1024;
    const build = async (rotationDeg: number, cacheMaxBytes = limit) => {
      writeFileSync(
        project,
        JSON.stringify({
          version: 1,
          motions: [{ name: 'walk', mtn: 'walk.mtn', tolerances: { rotationDeg } }],
          outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
        }),
      );
      const r = await buildProject(project, { jobs: 1, cacheDir: cache, stateDir, cacheMaxBytes });
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      return r.cache;
    };
    expect(await build(1)).toMatchObject({ written: 1, evicted: 0 });
    const entrySize = statSync(join(cache, cacheEntries(cache)[0])).size;
    // An old entry as large as the limit: any walk evicts it.
    const planted = join(cache, 'ab', `${'ab'.repeat(32)}.mt3c`);
    const plant = () => {
      mkdirSync(join(cache, 'ab'), { recursive: true });
      writeFileSync(planted, Buffer.alloc(limit));
      utimesSync(planted, new Date(Date.UTC(2020, 0, 1)), new Date(Date.UTC(2020, 0, 1)));
    };
    plant();
    // One entry of a few kilobytes, far under a hundredth of the limit: no walk.
    expect(entrySize * 100).toBeLessThan(limit);
    expect(await build(2)).toMatchObject({ written: 1, evicted: 0 });
    expect(existsSync(planted)).toBe(true);
    // Under a limit of 50 entries, one entry is more than a hundredth of it: the folder is walked.
    expect(await build(3, entrySize * 50)).toMatchObject({ written: 1, evicted: 1 });
    expect(existsSync(planted)).toBe(false);
    // A day after the last walk, a build that writes walks the folder whatever it wrote.
    plant();
    expect(await build(4)).toMatchObject({ written: 1, evicted: 0 });
    const verdictFile = join(stateDir, 'cache-verdicts', readdirSync(join(stateDir, 'cache-verdicts'))[0]);
    const text = readFileSync(verdictFile, 'utf8');
    const doc = JSON.parse(text);
    // The walk as the file and the log of the saves since say it (a build that wrote one entry appends its records).
    const logFile = verdictFile.replace(/\.json$/, '.log');
    const key = verdictLogKey(stampOf(statSync(verdictFile, { bigint: true })));
    const log = existsSync(logFile) ? { text: readFileSync(logFile, 'utf8'), key } : undefined;
    const walk = parseVerdicts(text, doc.cache, log).walk!;
    // [when, bytes written since]: the one entry build 4 wrote.
    expect(walk.written).toBeGreaterThan(0);
    expect(walk.written).toBeLessThan(limit / 100);
    // A file rewritten by hand: the log (checksummed for the file as it was) is not read with it.
    doc.walk = [walk.at - 25 * 3600 * 1000, walk.written];
    writeFileSync(verdictFile, JSON.stringify(doc));
    expect(await build(5)).toMatchObject({ written: 1, evicted: 1 });
    expect(existsSync(planted)).toBe(false);
  }, 60_000);

  it('an unchanged rebuild reuses every motion and writes the same bytes; --no-cache writes no cache', async () => {
    const dir = tempDir();
    for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
    writeFileSync(
      join(dir, 'p.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [
          { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' },
          { name: 'walk_b', mtn: 'walk.mtn', tolerances: { rotationDeg: 2 } },
        ],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
      }),
    );
    const none = await buildProject(join(dir, 'p.actguy.json'), { cacheDir: null, jobs: 1 });
    if (!none.ok) throw new Error(none.errors.map((e) => e.message).join('\n'));
    expect(readdirSync(dir)).not.toContain('.actguy-cache');
    const cold = readFileSync(join(dir, 'out', 'stage.mar'));
    const first = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!first.ok) throw new Error('build failed');
    expect(first.cache).toMatchObject({ hits: 0, misses: 2, written: 2 });
    expect(cacheEntries(join(dir, '.actguy-cache'))).toHaveLength(2);
    const cached: boolean[] = [];
    const second = await buildProject(join(dir, 'p.actguy.json'), {
      jobs: 1,
      lastBuild: false, // the cache's part of a rebuild (an up-to-date build looks nothing up)
      onProgress: (m) => cached.push(m.cached),
    });
    if (!second.ok) throw new Error('build failed');
    expect(second.cache).toMatchObject({ hits: 2, misses: 0 });
    expect(cached).toEqual([true, true]);
    expect(readFileSync(join(dir, 'out', 'stage.mar')).equals(cold)).toBe(true);
    // A changed setting misses for that motion only.
    const p = JSON.parse(readFileSync(join(dir, 'p.actguy.json'), 'utf8'));
    p.motions[1].tolerances.rotationDeg = 3;
    writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(p));
    const third = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!third.ok) throw new Error('build failed');
    expect(third.cache).toMatchObject({ hits: 1, misses: 1 });
    // The cache is keyed by each motion's file as read: a changed file misses for every motion made from it.
    const walk = readFileSync(join(dir, 'walk.mtn'));
    walk.writeFloatLE(walk.readFloatLE(walk.length - 8) + 0.001, walk.length - 8);
    writeFileSync(join(dir, 'walk.mtn'), walk);
    const fourth = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!fourth.ok) throw new Error(fourth.errors.map((e) => e.message).join('\n'));
    expect(fourth.cache).toMatchObject({ hits: 0, misses: 2 });
  });

  it('a motion resampled to another project rate misses the cache, and the rebuild matches a build without cache', async () => {
    const dir = tempDir();
    copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(dir, 'w60.mtn'));
    const project = (fps: number) =>
      JSON.stringify({
        version: 1,
        fps,
        resample: true,
        motions: [{ name: 'w60', mtn: 'w60.mtn' }],
        outputs: { mar: 'out/a.mar', sar: 'out/a.sar' },
      });
    writeFileSync(join(dir, 'p.actguy.json'), project(30));
    const at30 = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!at30.ok) throw new Error(at30.errors.map((e) => e.message).join('\n'));
    expect(at30.cache).toMatchObject({ hits: 0, misses: 1 });
    writeFileSync(join(dir, 'p.actguy.json'), project(25));
    const at25 = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!at25.ok) throw new Error(at25.errors.map((e) => e.message).join('\n'));
    expect(at25.cache).toMatchObject({ hits: 0, misses: 1 });
    const cachedMar = readFileSync(join(dir, 'out', 'a.mar'));
    const again = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, lastBuild: false });
    if (!again.ok) throw new Error('build failed');
    expect(again.cache).toMatchObject({ hits: 1, misses: 0 });
    expect(readFileSync(join(dir, 'out', 'a.mar')).equals(cachedMar)).toBe(true);
    const fresh = await buildProject(join(dir, 'p.actguy.json'), { jobs: 1, cacheDir: null });
    if (!fresh.ok) throw new Error('build failed');
    expect(readFileSync(join(dir, 'out', 'a.mar')).equals(cachedMar)).toBe(true);
  });

  it('several processes building at once into one shared cache all succeed with identical outputs and valid entries', async () => {
    const dir = tempDir();
    for (const f of ['walk.mtn', 'walk.sev']) copyFileSync(join(ASSETS, f), join(dir, f));
    const shared = join(dir, 'shared-cache');
    const runs = [0, 1, 2, 3].map((i) => {
      writeFileSync(
        join(dir, `p${i}.actguy.json`),
        JSON.stringify({
          version: 1,
          motions: [
            { name: 'walk', mtn: 'walk.mtn' },
            { name: 'walk_b', mtn: 'walk.mtn', tolerances: { rotationDeg: 2 } },
          ],
          outputs: { mar: `out${i}/stage.mar`, sar: `out${i}/stage.sar` },
        }),
      );
      return new Promise<number>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            join(root, 'dist', 'cli', 'actguy.cjs'),
            'build',
            `p${i}.actguy.json`,
            '--quiet',
            '--jobs',
            '2',
            '--cache',
            shared,
          ],
          { cwd: dir, stdio: 'ignore' },
        );
        child.on('exit', (code) => resolve(code ?? -1));
      });
    });
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    const mar = readFileSync(join(dir, 'out0', 'stage.mar'));
    for (const i of [1, 2, 3]) expect(readFileSync(join(dir, `out${i}`, 'stage.mar')).equals(mar)).toBe(true);
    // Two entries, both intact (checksum and key), and no temp file left in the shared folder.
    const files = readdirSync(shared, { recursive: true })
      .map(String)
      .filter((f) => !/^[0-9a-f]{2}$/.test(f));
    expect(files.length).toBe(2);
    for (const f of files) {
      const k = f.split('/').pop()!.replace('.mt3c', '');
      expect(decodeEntry(k, readFileSync(join(shared, f)))?.bytes.byteLength).toBeGreaterThan(0);
    }
  }, 60000);
});
