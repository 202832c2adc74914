/**
 * The commands chunk's V8 code cache in the local state folder (codeCache.ts): used when it is the one written for
 * these very bytes and command and its checksum holds; anything else is compiled from the source as without a cache,
 * and the run writes a good one at its end. The built CLI writes and then uses it (the last case).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultStateDir, loadChunkWithCodeCache } from './codeCache';
import { buildPath } from './commands/build';

let dir: string;
let state: string;
let chunk: string;
let n = 0;

/** A chunk whose functions do some work, so V8's cache holds more than the top level. */
function writeChunk(path: string, salt: string): void {
  const fns = Array.from(
    { length: 40 },
    (_, k) => `function f${k}(x) { let s = 0; for (let i = 0; i < x; i++) s += (i * ${k + 1}) % 7; return s; }`,
  );
  writeFileSync(
    path,
    `#!/usr/bin/env node\n"use strict";\n${fns.join('\n')}\nexports.salt = ${JSON.stringify(salt)};\nexports.sum = (x) => ${fns.map((_, k) => `f${k}(x)`).join(' + ')};\nexports.dir = __dirname;\nexports.sibling = () => require('./sibling.cjs');\n`,
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-codecache-'));
  state = join(dir, 'state');
  // Each case its own chunk path: require's cache holds a chunk by its path.
  chunk = join(dir, `chunk${n++}.cjs`);
  writeChunk(chunk, 'one');
  writeFileSync(join(dir, 'sibling.cjs'), 'module.exports = 42;');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cacheFiles = () => readdirSync(join(state, 'code-cache')).map((f) => join(state, 'code-cache', f));

/** Loads the chunk, runs it, and writes the cache as the CLI does after its command. */
function load(command = 'build') {
  delete require.cache[chunk];
  const got = loadChunkWithCodeCache(chunk, state, command);
  const m = got.exports as { salt: string; sum: (x: number) => number; dir: string; sibling: () => number };
  expect(m.sum(50)).toBe(sumOf(50));
  expect(m.dir).toBe(dir);
  expect(m.sibling()).toBe(42);
  const saved = got.save();
  return { use: got.use, saved, salt: m.salt };
}
function sumOf(x: number): number {
  let t = 0;
  for (let k = 0; k < 40; k++) for (let i = 0; i < x; i++) t += (i * (k + 1)) % 7;
  return t;
}

describe('the commands chunk with a code cache', () => {
  it('the first run writes the cache, the next uses it and writes nothing', () => {
    expect(load()).toEqual({ use: 'none', saved: true, salt: 'one' });
    const [file] = cacheFiles();
    expect(file).toMatch(/code-cache\/chunk\d+-build-[0-9a-f]{32}\.bin$/);
    expect(readFileSync(file, 'latin1').startsWith('actguy-code-cache 2\n')).toBe(true);
    const before = statSync(file, { bigint: true });
    expect(load()).toEqual({ use: 'used', saved: false, salt: 'one' });
    const after = statSync(file, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
    // The chunk is in require's cache as require would put it there.
    expect(require.cache[chunk]?.exports).toBeDefined();
  });

  it('a run on a path the cache was not made on writes it again, naming both; then it is only read', () => {
    const run = (ran: string[]) => {
      delete require.cache[chunk];
      const got = loadChunkWithCodeCache(chunk, state, 'build');
      expect((got.exports as { sum: (x: number) => number }).sum(20)).toBe(sumOf(20));
      return { use: got.use, paths: got.paths, saved: got.save(ran) };
    };
    expect(run(['full'])).toEqual({ use: 'none', paths: [], saved: true });
    expect(run(['full'])).toEqual({ use: 'used', paths: ['full'], saved: false });
    expect(run(['few-changed'])).toEqual({ use: 'used', paths: ['full'], saved: true });
    expect(run(['few-changed'])).toEqual({ use: 'used', paths: ['few-changed', 'full'], saved: false });
    expect(run(['full'])).toEqual({ use: 'used', paths: ['few-changed', 'full'], saved: false });
    expect(run([])).toEqual({ use: 'used', paths: ['few-changed', 'full'], saved: false });
    expect(run(['up-to-date', 'Not A Path'])).toEqual({ use: 'used', paths: ['few-changed', 'full'], saved: true });
    expect(run(['up-to-date'])).toEqual({ use: 'used', paths: ['few-changed', 'full', 'up-to-date'], saved: false });
    expect(cacheFiles().length).toBe(1);
    // The paths are under the checksum: a file naming another path than it was made on is not used, and written again.
    const [file] = cacheFiles();
    const bytes = readFileSync(file);
    const at = bytes.indexOf('few-changed');
    bytes.write('few-chenged', at, 'latin1');
    writeFileSync(file, bytes);
    expect(run(['full'])).toEqual({ use: 'checksum', paths: [], saved: true });
    expect(run(['full'])).toEqual({ use: 'used', paths: ['full'], saved: false });
    // A paths line not of the shape (a name the tool never writes) is not used either.
    const again = readFileSync(file);
    again.write('FULL', again.indexOf('full'), 'latin1');
    writeFileSync(file, again);
    expect(run(['full']).use).toBe('unusable');
  });

  it("a build's path: up to date, from the cache (nothing carried), a few motions compressed beside those carried, more", () => {
    const outcome = (upToDate: boolean, carried: number, misses: number, verified: number) =>
      buildPath({ ok: true, upToDate, carried, cache: { misses, verified } } as never);
    expect(outcome(true, 0, 0, 0)).toBe('up-to-date');
    expect(outcome(false, 0, 1000, 0)).toBe('full');
    expect(outcome(false, 999, 1, 0)).toBe('few-changed');
    expect(outcome(false, 998, 1, 1)).toBe('few-changed');
    expect(outcome(false, 997, 3, 0)).toBe('carried');
    // Carried with nothing compressed (a setting that changes only the report): no compressor code ran here.
    expect(outcome(false, 1000, 0, 0)).toBe('carried');
  });

  it('another command has a cache of its own', () => {
    load('build');
    expect(load('info').use).toBe('none');
    expect(cacheFiles().length).toBe(2);
    expect(load('info').use).toBe('used');
  });

  it('a changed chunk does not find the old cache', () => {
    load();
    load('info');
    writeChunk(chunk, 'two');
    expect(load()).toEqual({ use: 'none', saved: true, salt: 'two' });
    expect(load().use).toBe('used');
    // The old chunk's cache of the command is removed when the new one is written; other commands' are kept.
    expect(
      cacheFiles()
        .map((f) => f.replace(/.*\/chunk\d+-([a-z]+)-.*/, '$1'))
        .sort(),
    ).toEqual(['build', 'info']);
  });

  it('a byte changed in the cached data is caught by the checksum, before V8 reads it', () => {
    load();
    const [file] = cacheFiles();
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0x55;
    writeFileSync(file, bytes);
    expect(load()).toEqual({ use: 'checksum', saved: true, salt: 'one' });
    expect(load().use).toBe('used');
  });

  it('a file cut short, or of another shape, is not used', () => {
    load();
    const [file] = cacheFiles();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    expect(load().use).toBe('checksum');
    writeFileSync(file, bytes.subarray(0, 40));
    expect(load().use).toBe('unusable');
    writeFileSync(file, Buffer.concat([Buffer.from('actguy-code-cache 3\n'), bytes.subarray(20)]));
    expect(load().use).toBe('unusable');
    expect(load().use).toBe('used');
  });

  it("a link in the cache file's place is not followed", () => {
    load();
    const [file] = cacheFiles();
    const elsewhere = join(dir, 'elsewhere.bin');
    writeFileSync(elsewhere, readFileSync(file));
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(load().use).toBe('unusable');
    // The save replaced the link with a file of its own; the file it pointed at is as it was.
    expect(statSync(elsewhere).size).toBeGreaterThan(0);
    expect(load().use).toBe('used');
  });

  it("a FIFO or an empty folder in the cache file's place is replaced; a folder holding files is kept (round 37)", () => {
    load();
    const [file] = cacheFiles();
    rmSync(file);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    expect(load()).toMatchObject({ use: 'none', saved: true });
    expect(statSync(file).isFile()).toBe(true);
    // An empty folder (round 36 left it: every build then compiled the chunk from its source, without a word).
    rmSync(file);
    mkdirSync(file);
    expect(load()).toMatchObject({ use: 'none', saved: true });
    expect(load().use).toBe('used');
    // A folder with something in it is the user's: kept as it is, and the chunk compiles from its source.
    rmSync(file);
    mkdirSync(file);
    writeFileSync(join(file, 'mine.txt'), 'keep');
    expect(load()).toMatchObject({ use: 'none', saved: false });
    expect(readFileSync(join(file, 'mine.txt'), 'utf8')).toBe('keep');
  });

  it.skipIf(process.getuid?.() !== 0)('a cache file another user owns is not read (runs as root, as CI does)', () => {
    load();
    const [file] = cacheFiles();
    chownSync(file, 12345, 12345);
    expect(load().use).toBe('none');
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a state folder another user owns and all may write is neither read nor written (as root)',
    () => {
      load();
      chownSync(state, 12345, 12345);
      chmodSync(state, 0o777);
      const got = loadChunkWithCodeCache(chunk, state, 'build');
      expect(got.use).toBe('no-state');
      expect(got.save()).toBe(false);
    },
  );
});

describe('the built CLI', () => {
  it('writes the cache of build after it ran, and uses it in the next run; other commands neither', () => {
    const root = join(__dirname, '..', '..');
    const cli = join(root, 'dist', 'cli', 'actguy.cjs');
    const spawn = (...args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], {
        encoding: 'utf8',
        env: { ...process.env, ACTGUY_STATE_DIR: state },
      });
    const info = spawn('info', join(root, 'assets', 'walk.mtn'));
    expect(info.status, info.stderr).toBe(0);
    expect(existsSync(state)).toBe(false);
    const run = () =>
      spawn('build', join(root, 'assets', 'sample.actguy.json'), '-o', join(dir, 'out'), '--cache', join(dir, 'cache'));
    expect(run().status).toBe(0);
    const first = run(); // up to date: the output the later runs must give
    expect(first.status, first.stderr).toBe(0);
    const [file] = cacheFiles();
    expect(file).toMatch(/cliCommands-build-[0-9a-f]{32}\.bin$/);
    // Made by the first build (every motion compressed), then again by the first up-to-date one, which took a path
    // the first did not: the file names both.
    expect(readFileSync(file, 'latin1').split('\n')[2]).toBe('full,up-to-date');
    const before = statSync(file, { bigint: true });
    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const after = statSync(file, { bigint: true });
    // Used, so not written again.
    expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);

    // Data V8 refuses under a checksum that holds (V8 is the last check; in another process, since V8 also keeps
    // what it compiled in this one): the chunk is compiled from its source, the command runs as before, and the run
    // writes a good cache in its place.
    const head = 'actguy-code-cache 2\n';
    const junk = Buffer.alloc(4096, 7);
    const digest = createHash('sha256')
      .update(readFileSync(join(root, 'dist', 'cli', 'cliCommands.cjs')))
      .digest('hex');
    const key = `cliCommands.cjs\0${digest}\0${process.version}\0${process.platform}\0${process.arch}\0build`;
    const paths = 'full,up-to-date';
    const sum = createHash('sha256').update(key).update('\0').update(paths).update('\0').update(junk).digest('hex');
    writeFileSync(file, Buffer.concat([Buffer.from(`${head}${sum}\n${paths}\n`, 'latin1'), junk]));
    const third = run();
    expect(third.status, third.stderr).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(readFileSync(file).includes(junk)).toBe(false);
    expect(statSync(file).size).toBeGreaterThan(100_000);
  });
});

/**
 * V8 data made from a script as long as the chunk that is not the chunk, under a head and checksum that hold, as
 * anyone who knows the released CLI can make (nothing in the key is secret): V8 checks the source's length only, so
 * the data runs in the chunk's place. It writes `marker` when it runs.
 */
function plantForeignCache(chunkPath: string, stateDir: string, marker: string): string {
  const source = readFileSync(chunkPath);
  let text = source.toString('utf8');
  if (text.startsWith('#!')) text = `//${text.slice(2)}`;
  const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');/*`;
  const body = `${evil}${' '.repeat(text.length - evil.length - 2)}*/`;
  expect(body.length).toBe(text.length);
  const data = new Script(`(function (exports, require, module, __filename, __dirname) { ${body}\n})`, {
    filename: chunkPath,
  }).createCachedData();
  const digest = createHash('sha256').update(source).digest('hex');
  const key = `cliCommands.cjs\0${digest}\0${process.version}\0${process.platform}\0${process.arch}\0build`;
  const id = createHash('sha256').update(key).digest('hex').slice(0, 32);
  const sum = createHash('sha256').update(key).update('\0').update('\0').update(data).digest('hex');
  const folder = join(stateDir, 'code-cache');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(stateDir, 0o700);
  const file = join(folder, `cliCommands-build-${id}.bin`);
  writeFileSync(file, Buffer.concat([Buffer.from(`actguy-code-cache 2\n${sum}\n\n`, 'latin1'), data]));
  return file;
}

describe('the state folder is never one a received folder names (round 36)', () => {
  it('a relative XDG_STATE_HOME or LOCALAPPDATA is ignored; a relative ACTGUY_STATE_DIR is kept as written', () => {
    const home = join(dir, 'home');
    const was = process.env.HOME;
    process.env.HOME = home;
    try {
      expect(defaultStateDir({ XDG_STATE_HOME: '.state' }, 'linux')).toBe(join(home, '.local', 'state', 'actguy'));
      expect(defaultStateDir({ XDG_STATE_HOME: '/x/st' }, 'linux')).toBe('/x/st/actguy');
      expect(defaultStateDir({ LOCALAPPDATA: 'lad' }, 'win32')).toBe(join(home, 'AppData', 'Local', 'ActGuy', 'state'));
      expect(defaultStateDir({ ACTGUY_STATE_DIR: '.state' }, 'linux')).toBe('.state');
      expect(defaultStateDir({ ACTGUY_STATE_DIR: '/x/../y/st' }, 'linux')).toBe('/y/st');
    } finally {
      process.env.HOME = was;
    }
  });

  it('a relative state folder is neither read nor written', () => {
    const got = loadChunkWithCodeCache(chunk, 'rel-state', 'build');
    expect(got.use).toBe('no-state');
    expect(got.save()).toBe(false);
  });

  it("the built CLI run in a received folder does not run that folder's code cache, whatever the variables say", () => {
    const root = join(__dirname, '..', '..');
    const cli = join(root, 'dist', 'cli', 'actguy.cjs');
    const received = join(dir, 'received');
    mkdirSync(received);
    for (const f of ['sample.actguy.json', 'walk.mtn', 'walk.sev', 'cmu_01_01.mtn', 'cmu_01_01.sev', 'walk_60fps.mtn'])
      writeFileSync(join(received, f), readFileSync(join(root, 'assets', f)));
    for (const f of ['default.sls', 'se_define.h'])
      writeFileSync(join(received, f), readFileSync(join(root, 'assets', f)));
    const marker = join(dir, 'planted-code-ran');
    const chunkPath = join(root, 'dist', 'cli', 'cliCommands.cjs');
    plantForeignCache(chunkPath, join(received, '.state', 'actguy'), marker);
    const home = join(dir, 'home');
    for (const vars of [{ XDG_STATE_HOME: '.state', ACTGUY_STATE_DIR: '' }, { ACTGUY_STATE_DIR: '.state/actguy' }]) {
      const run = spawnSync(
        process.execPath,
        [cli, 'build', 'sample.actguy.json', '-o', 'out', '--cache', join(dir, 'c')],
        {
          cwd: received,
          encoding: 'utf8',
          env: { ...process.env, HOME: home, ...vars },
        },
      );
      expect(existsSync(marker), JSON.stringify(vars)).toBe(false);
      expect(run.status, run.stderr).toBe(0);
      if (vars.ACTGUY_STATE_DIR)
        expect(run.stderr).toContain(
          'ActGuy: the state folder .state/actguy is a relative path, which names a folder in whatever folder a command runs in',
        );
    }
  });
});
