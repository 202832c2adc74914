import { createHash } from 'node:crypto';
/**
 * A shared build cache is input (docs/cache.md): entries are verified against
 * the motion being built, anything that does not hold is discarded and
 * recompressed, no entry of any shape fails a build, links are never
 * followed, and verdicts are remembered only in local state.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMt3 } from '../../shared/mt3/read';
import { withMt3Name, writeMt3 } from '../../shared/mt3/write';
import { gvStrCode } from '../../shared/strcode';
import { decodeEntry, encodeEntry } from './buildCache';
import { buildProject } from './build';
import { builtOk, type BuiltOk } from '../testing/buildOutcome';
import { openVerdictStore, parseVerdicts } from './verdicts';
import { atomicWriteIo } from '../fsutil';
import { cacheEntryOf } from '../testing/cacheEntries';

const root = join(__dirname, '..', '..');
const ASSETS = join(root, 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(prefix = 'actguy-trust-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Everything under a folder with its bytes, to prove nothing there changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, f);
    const st = lstatSync(p);
    out[f] = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : readFileSync(p).toString('base64');
  }
  return out;
}

/**
 * A project of two motions with the same skeleton: walk, and cmu (another capture, another frame count), in
 * `dir`, with its cache at `dir/cache` and its local verdicts at `dir/state`.
 */
function project(): {
  dir: string;
  path: string;
  cache: string;
  state: string;
  build: (o?: { cacheDir?: string | null; stateDir?: string }) => Promise<BuiltOk>;
  /** The outputs of a build without any cache. */
  reference: () => Promise<Buffer[]>;
} {
  const dir = tempDir();
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
  copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(dir, 'cmu.mtn'));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: 'walk.mtn' },
        { name: 'cmu', mtn: 'cmu.mtn', tolerances: { rotationDeg: 1 } },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const path = join(dir, 'p.actguy.json');
  const cache = join(dir, 'cache');
  const state = join(dir, 'state');
  return {
    dir,
    path,
    cache,
    state,
    build: async (o = {}) =>
      builtOk(
        await buildProject(path, {
          jobs: 1,
          cacheDir: o.cacheDir === undefined ? cache : o.cacheDir,
          stateDir: o.stateDir ?? state,
        }),
      ),
    reference: async () => {
      builtOk(await buildProject(path, { jobs: 1, cacheDir: null }));
      return outputs(dir);
    },
  };
}

const outputs = (dir: string) =>
  ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => readFileSync(join(dir, 'out', f)));

describe('a shared cache is verified, not trusted', () => {
  it("an entry rewritten with another motion's MT3 (renamed to this hash, checksum recomputed) is rejected, recompressed and counted; outputs equal a build without cache", async () => {
    const p = project();
    const reference = await p.reference();
    const cold = await p.build();
    expect(cold.cache).toMatchObject({ hits: 0, misses: 2, written: 2 });
    const walk = cacheEntryOf(p.cache, 'walk');
    const cmu = cacheEntryOf(p.cache, 'cmu');
    // cmu's MT3 under walk's name hash, with walk's own summary (so the claim looks right), under walk's key.
    writeFileSync(
      walk.file,
      encodeEntry(walk.key, { ...walk.claim, bytes: withMt3Name(cmu.bytes, gvStrCode('walk')) } as never),
    );
    const again = await p.build();
    expect(again.cache).toMatchObject({ hits: 1, rejected: 1, misses: 1, verified: 1 });
    expect(outputs(p.dir)).toEqual(reference);
    // The rejected entry was replaced by the recompressed one, and that one is used next time.
    expect(Buffer.from(cacheEntryOf(p.cache, 'walk').bytes).equals(Buffer.from(walk.bytes))).toBe(true);
    expect((await p.build()).cache).toMatchObject({ hits: 2, rejected: 0, misses: 0 });
  }, 120_000);

  it('the same rewrite with a fresh local state (another machine sharing the folder) is rejected too', async () => {
    const p = project();
    const reference = await p.reference();
    await p.build();
    const walk = cacheEntryOf(p.cache, 'walk');
    const cmu = cacheEntryOf(p.cache, 'cmu');
    writeFileSync(
      walk.file,
      encodeEntry(walk.key, { ...walk.claim, bytes: withMt3Name(cmu.bytes, gvStrCode('walk')) } as never),
    );
    const other = await p.build({ stateDir: join(p.dir, 'other-state') });
    expect(other.cache).toMatchObject({ hits: 1, rejected: 1, misses: 1, verified: 2 });
    expect(outputs(p.dir)).toEqual(reference);
  });

  it('no entry of any shape fails a build: each is rejected or discarded, and the outputs equal a build without cache', async () => {
    const p = project();
    const reference = await p.reference();
    await p.build();
    const walk = cacheEntryOf(p.cache, 'walk');
    const cmu = cacheEntryOf(p.cache, 'cmu');
    const mt3 = readMt3(walk.bytes);
    const entry = (claim: object, bytes: Uint8Array) => encodeEntry(walk.key, { ...claim, bytes } as never);
    const bad: [string, () => Uint8Array, 'rejected' | 'damaged'][] = [
      ['channels: null, checksum valid', () => entry({ ...walk.claim, channels: null }, walk.bytes), 'rejected'],
      [
        'every summary field of the wrong type',
        () => entry(Object.fromEntries(Object.keys(walk.claim).map((k) => [k, 'x'])), walk.bytes),
        'rejected',
      ],
      ['junk MT3 bytes', () => entry(walk.claim, new Uint8Array(300).fill(0x5a)), 'rejected'],
      ['an empty MT3', () => entry(walk.claim, new Uint8Array(0)), 'rejected'],
      [
        'wrong joints (one joint dropped)',
        () => entry(walk.claim, writeMt3({ ...mt3, rotations: mt3.rotations.slice(1), turn: null })),
        'rejected',
      ],
      [
        "wrong frame count (cmu under walk's name)",
        () => entry(walk.claim, withMt3Name(cmu.bytes, gvStrCode('walk'))),
        'rejected',
      ],
      [
        'a summary that lies about the errors',
        () => entry({ ...walk.claim, warnings: [{ message: 'x' }] }, walk.bytes),
        'rejected',
      ],
      ['truncated', () => readFileSync(walk.file).subarray(0, 100), 'damaged'],
      ['a JSON array for a summary', () => rawEntry(walk.key, '[]', walk.bytes), 'damaged'],
      ['a summary of the literal null', () => rawEntry(walk.key, 'null', walk.bytes), 'damaged'],
      ['a JSON length past the end', () => withLength(readFileSync(walk.file), 0xffffffff), 'damaged'],
      ['empty file', () => new Uint8Array(0), 'damaged'],
    ];
    for (const [what, make, counted] of bad) {
      writeFileSync(walk.file, make());
      const r = await buildProject(p.path, { jobs: 1, cacheDir: p.cache, stateDir: p.state });
      expect(r.ok, what).toBe(true);
      expect(outputs(p.dir), what).toEqual(reference);
      expect(r.ok && r.cache, what).toMatchObject({ hits: 1, misses: 1, [counted]: 1 });
    }
    // A folder where the entry should be: not an entry, never a failure.
    rmSync(walk.file);
    mkdirSync(walk.file);
    const r = await p.build();
    expect(outputs(p.dir)).toEqual(reference);
    expect(r.cache).toMatchObject({ hits: 1, misses: 1 });
  }, 120_000);

  it('prints the rejection in the build summary', () => {
    const p = project();
    const cli = cliOf(p);
    expect(cli().status).toBe(0);
    const walk = cacheEntryOf(p.cache, 'walk');
    writeFileSync(walk.file, encodeEntry(walk.key, { ...walk.claim, channels: null, bytes: walk.bytes } as never));
    const r = cli();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/cache: 1 reused, 1 rejected, 1 compressed/);
  }, 60000);

  it.runIf(process.platform !== 'win32')(
    "an entry that is a FIFO (a received project's .actguy-cache) is not waited on: the build ends and replaces it",
    () => {
      const p = project();
      const cli = cliOf(p);
      expect(cli().status).toBe(0);
      const walk = cacheEntryOf(p.cache, 'walk');
      rmSync(walk.file);
      spawnSync('mkfifo', [walk.file]);
      // The entry was opened for reading without O_NONBLOCK: the build waited forever for a writer (killed here).
      const r = cli();
      expect(r.signal).toBeNull();
      expect(r.status).toBe(0);
      // Counted as a refused entry since round 49 (docs/security.md), where it was a plain miss.
      expect(r.stdout).toMatch(/cache: 1 reused, 1 rejected, 1 compressed/);
      expect(lstatSync(walk.file).isFile()).toBe(true);
    },
    120000,
  );
});

/** `actguy build` of the project `p` with its cache and local state, run as a user would (the CLI built once per run: electron/testing/cliGlobalSetup.ts). */
function cliOf(p: ReturnType<typeof project>): (...args: string[]) => SpawnSyncReturns<string> {
  return (...args) =>
    spawnSync(
      process.execPath,
      [join(root, 'dist', 'cli', 'actguy.cjs'), 'build', p.path, '--jobs', '1', '--cache', p.cache, ...args],
      {
        encoding: 'utf8',
        env: { ...process.env, ACTGUY_STATE_DIR: p.state },
        // A hang ends here as a failure (signal SIGKILL), not as a test run that never ends.
        timeout: 60000,
        killSignal: 'SIGKILL',
      },
    );
}

/** An entry with its checksum right around any JSON text. */
function rawEntry(key: string, json: string, bytes: Uint8Array): Uint8Array {
  const good = Buffer.from(encodeEntry(key, { bytes } as never));
  const text = Buffer.from(json, 'utf8');
  const body = Buffer.concat([Buffer.alloc(4), text, Buffer.from(bytes)]);
  body.writeUInt32LE(text.length, 0);
  return withBody(good, body);
}

/** The entry with its JSON length field set to `n` (checksum recomputed). */
function withLength(entry: Buffer, n: number): Uint8Array {
  const body = Buffer.from(entry.subarray(36));
  body.writeUInt32LE(n, 0);
  return withBody(entry, body);
}

function withBody(entry: Buffer, body: Buffer): Uint8Array {
  return Buffer.concat([entry.subarray(0, 4), createHash('sha256').update(body).digest(), body]);
}

describe('links are never followed', () => {
  it('a cache folder that is a symbolic link is not used: nothing is read or written through it, and the build goes on', async () => {
    const p = project();
    const reference = await p.reference();
    const outside = tempDir('actguy-outside-');
    await p.build({ cacheDir: join(outside, 'real') });
    const before = snapshot(outside);
    symlinkSync(join(outside, 'real'), join(p.dir, 'linked'));
    const r = await p.build({ cacheDir: join(p.dir, 'linked') });
    expect(r.cache?.unusable).toMatch(/symbolic link/);
    expect(r.cache).toMatchObject({ hits: 0, written: 0 });
    expect(snapshot(outside)).toEqual(before);
    expect(outputs(p.dir)).toEqual(reference);
  });

  it('an entry or a shard folder that is a link is neither read nor written through; the link itself is removed', async () => {
    const p = project();
    await p.build();
    const outside = tempDir('actguy-outside-');
    const walk = cacheEntryOf(p.cache, 'walk');
    // A good entry, but reached through a link: not read (its target must stay untouched), the link goes.
    copyFileSync(walk.file, join(outside, 'target.mt3c'));
    rmSync(walk.file);
    symlinkSync(join(outside, 'target.mt3c'), walk.file);
    const before = snapshot(outside);
    const r = await p.build();
    expect(r.cache).toMatchObject({ hits: 1, damaged: 1, misses: 1 });
    expect(snapshot(outside)).toEqual(before);
    expect(lstatSync(walk.file).isSymbolicLink()).toBe(false);
    // A shard folder that is a link: nothing read from it, nothing written into it.
    const shard = join(p.cache, walk.key.slice(0, 2));
    rmSync(shard, { recursive: true });
    mkdirSync(join(outside, 'shard'));
    copyFileSync(join(outside, 'target.mt3c'), join(outside, 'shard', `${walk.key}.mt3c`));
    symlinkSync(join(outside, 'shard'), shard);
    const beforeShard = snapshot(outside);
    const again = await p.build();
    expect(again.cache).toMatchObject({ hits: 1, misses: 1 });
    expect(snapshot(outside)).toEqual(beforeShard);
  });

  it('a cache folder that cannot be made (under /proc, under a file) ends at once and the build goes on without it', async () => {
    const p = project();
    for (const dir of ['/proc/actguy-x/cache', join(p.dir, 'p.actguy.json', 'cache')]) {
      const r = await p.build({ cacheDir: dir });
      expect(r.cache?.unusable, dir).toMatch(/cannot create|not a folder/);
    }
  });
});

describe('local verdicts', () => {
  it('a rebuild uses the remembered verdicts (no entry decoded again); a changed entry is verified again', async () => {
    const p = project();
    const reference = await p.reference();
    await p.build();
    const second = await p.build();
    expect(second.cache).toMatchObject({ hits: 2, verified: 0 });
    // The same entry, its content changed (a key reordered in the summary): the digest differs, so it is checked.
    const walk = cacheEntryOf(p.cache, 'walk');
    const reordered = Object.fromEntries(Object.entries(walk.claim).reverse());
    writeFileSync(walk.file, encodeEntry(walk.key, { ...reordered, bytes: walk.bytes } as never));
    const third = await p.build();
    expect(third.cache).toMatchObject({ hits: 2, verified: 1, rejected: 0 });
    expect(outputs(p.dir)).toEqual(reference);
    expect((await p.build()).cache).toMatchObject({ hits: 2, verified: 0 });
  }, 120_000);

  it('the verdicts live in the local state folder, never in the shared cache folder', async () => {
    const p = project();
    await p.build();
    const files = readdirSync(join(p.state, 'cache-verdicts'));
    expect(files).toHaveLength(1);
    expect(readdirSync(p.cache).every((f) => /^[0-9a-f]{2}$/.test(f))).toBe(true);
    // A state folder inside the cache folder would let the shared folder write its own verdicts: not used.
    const inside = await p.build({ stateDir: join(p.cache, 'state') });
    expect(inside.cache).toMatchObject({ hits: 2, verified: 2 });
    expect(existsSync(join(p.cache, 'state'))).toBe(false);
  });

  it('a tampered verdict file is ignored safely: every entry is verified again and the build is right', async () => {
    const p = project();
    const reference = await p.reference();
    await p.build();
    const [file] = readdirSync(join(p.state, 'cache-verdicts')).map((f) => join(p.state, 'cache-verdicts', f));
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const tampered = [
      'not json {',
      JSON.stringify({ ...doc, tool: 'other' }),
      JSON.stringify({ ...doc, cache: 'f'.repeat(64) }),
      JSON.stringify({
        ...doc,
        verdicts: Object.fromEntries(Object.keys(doc.verdicts).map((k) => [k, ['0'.repeat(64), 1]])),
      }),
      JSON.stringify({
        ...doc,
        verdicts: Object.fromEntries(Object.keys(doc.verdicts).map((k) => [k, { digest: null }])),
        files: { x: [1, 2, 3] },
      }),
      JSON.stringify({ ...doc, verdicts: null, files: 'x' }),
    ];
    for (const text of tampered) {
      writeFileSync(file, text);
      const r = await p.build();
      expect(r.cache, text.slice(0, 60)).toMatchObject({ hits: 2, verified: 2 });
      expect(outputs(p.dir)).toEqual(reference);
    }
    // A verdict file that vouches for a rewritten entry's digest while the entry is not of our shape still never fails a build.
    const walk = cacheEntryOf(p.cache, 'walk');
    writeFileSync(walk.file, encodeEntry(walk.key, { ...walk.claim, channels: null, bytes: walk.bytes } as never));
    // From the file the first build wrote (the last tampered one is still there: a build appends its records to the log).
    const forged = structuredClone(doc);
    forged.verdicts[walk.key] = [decodeEntry(walk.key, readFileSync(walk.file))!.digest, Date.now()];
    writeFileSync(file, JSON.stringify(forged));
    const r = await p.build();
    expect(outputs(p.dir)).toEqual(reference);
    expect(r.cache).toMatchObject({ hits: 1, rejected: 1 });
  }, 120_000);

  it('a state folder that cannot be made (under /proc) only costs the verdicts: the build ends and is right', async () => {
    const p = project();
    const reference = await p.reference();
    const r = await p.build({ stateDir: '/proc/actguy-state' });
    expect(r.cache).toMatchObject({ misses: 2 });
    expect(outputs(p.dir)).toEqual(reference);
  }, 20000);

  it('parseVerdicts keeps only records of the exact shape', () => {
    const h = 'a'.repeat(64);
    const s = parseVerdicts(
      JSON.stringify({
        tool: 'actguy cache verdicts',
        version: 1,
        cache: 'id',
        verdicts: { [h]: [h, 5], bad: [h, 5], [`${h.slice(1)}b`]: ['x', 5], ['c'.repeat(64)]: [h, -1] },
        files: {
          '/a': [3, '1', '2', '3', '4', h, 9],
          '/b': [3, 1, '2', '3', '4', h, 9],
          '/c': [-1, '1', '2', '3', '4', h, 9],
        },
      }),
      'id',
    );
    expect([...s.verdicts.keys()]).toEqual([h]);
    expect([...s.files.keys()]).toEqual(['/a']);
    expect(parseVerdicts('{"tool":"actguy cache verdicts","version":1,"cache":"other"}', 'id').verdicts.size).toBe(0);
    // The size-limit walk record, [when, bytes written since]: anything else is dropped (the next build walks).
    const walk = (w: unknown) =>
      parseVerdicts(JSON.stringify({ tool: 'actguy cache verdicts', version: 1, cache: 'id', walk: w }), 'id').walk;
    expect(walk([5, 7])).toEqual({ at: 5, written: 7 });
    for (const w of [[5, -1], [5, 1.5], [-1, 7], [5], [5, 7, 9], '5,7', [5, '7'], null])
      expect(walk(w), JSON.stringify(w)).toBeUndefined();
  });

  it('the verdict file is replaced atomically without a flush: one a power cut left short or empty is dropped whole', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    const store = openVerdictStore(cache, join(dir, 'state'));
    store.remember('1'.repeat(64), 'd'.repeat(64));
    const flushed: number[] = [];
    const fsync = atomicWriteIo.fsyncSync;
    atomicWriteIo.fsyncSync = (fd) => {
      flushed.push(fd);
      fsync(fd);
    };
    try {
      store.save();
    } finally {
      atomicWriteIo.fsyncSync = fsync;
    }
    expect(flushed).toEqual([]);
    const text = readFileSync(store.file!, 'utf8');
    const id = (JSON.parse(text) as { cache: string }).cache;
    expect(parseVerdicts(text, id).verdicts.size).toBe(1);
    for (const cut of [0, 1, text.length >> 1, text.length - 1])
      expect(parseVerdicts(text.slice(0, cut), id).verdicts.size, `cut at ${cut}`).toBe(0);
  });

  it("a verdict a build forgot stays forgotten; another build's records saved meanwhile are kept", () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const state = join(dir, 'state');
    mkdirSync(cache);
    const [k1, k2, k3, d] = ['1', '2', '3', 'd'].map((c) => c.repeat(64));
    const first = openVerdictStore(cache, state);
    first.remember(k1, d);
    first.remember(k2, d);
    first.save();
    // The file is as this build read it: nothing to merge back, so the forgotten verdict does not return.
    const forgetting = openVerdictStore(cache, state);
    forgetting.forget(k1);
    forgetting.save();
    expect([k1, k2].map((k) => openVerdictStore(cache, state).knows(k))).toEqual([false, true]);
    // Another build saved after this one read the file: its records are merged in.
    const slow = openVerdictStore(cache, state);
    slow.remember(k1, d);
    const other = openVerdictStore(cache, state);
    other.remember(k3, d);
    other.save();
    slow.save();
    expect([k1, k2, k3].map((k) => openVerdictStore(cache, state).knows(k))).toEqual([true, true, true]);
  });
});
