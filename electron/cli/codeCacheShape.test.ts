/**
 * The code cache file's shape at its limits, and a cache V8 refuses (codeCache.ts; the cases codeCache.test.ts does not
 * reach). Mutation audit 2026-12-05 (docs/testing.md): the line break after the checksum not checked, the paths line
 * allowed a byte more, and the paths of a cache V8 rejected kept as if its data held their code, each passed
 * codeCache.test.ts, and so did a save that removed any file of the command's prefix (not only an older cache) and a
 * read through a code-cache folder that is a link, a cache found by another Node and a command name put in a file name
 * as it came; each fails here.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheData, defaultStateDir, loadChunkWithCodeCache } from './codeCache';

const MAGIC = 'actguy-code-cache 2\n';
const KEY = 'chunk.cjs\0digest\0node\0linux\0x64\0build';

/** A cache file for `key` as codeCache.ts writes one: magic, checksum of the key, paths line and data, the line, the data. */
function fileOf(key: string, line: string, data: Buffer, headBreak = '\n'): Buffer {
  const sum = createHash('sha256').update(key).update('\0').update(line).update('\0').update(data).digest('hex');
  return Buffer.concat([Buffer.from(`${MAGIC}${sum}${headBreak}${line}\n`, 'latin1'), data]);
}

describe('cacheData', () => {
  const data = Buffer.from('v8 data');

  it('takes a well-made file, and none whose checksum is not followed by a line break', () => {
    expect(cacheData(fileOf(KEY, 'full', data), KEY)).toEqual({ data, paths: ['full'] });
    expect(cacheData(fileOf(KEY, '', data), KEY)).toEqual({ data, paths: [] });
    // The checksum still holds (it covers the key, the paths and the data, not the head's own bytes).
    expect(cacheData(fileOf(KEY, 'full', data, 'x'), KEY)).toBe('unusable');
    expect(cacheData(fileOf(KEY, 'full', data), `${KEY}x`)).toBe('checksum');
  });

  it('takes a paths line of at most 512 bytes', () => {
    const names = (last: number) => [...Array.from({ length: 15 }, () => 'a'.repeat(32)), 'b'.repeat(last)].join(',');
    expect(names(17).length).toBe(512);
    const ok = cacheData(fileOf(KEY, names(17), data), KEY);
    expect(typeof ok === 'object' && ok.paths.length).toBe(16);
    expect(names(18).length).toBe(513);
    expect(cacheData(fileOf(KEY, names(18), data), KEY)).toBe('unusable');
  });
});

describe('the code-cache folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'actguy-codecache-shape-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a cache V8 refuses is compiled from the source, names no path, and is written again', () => {
    const state = join(dir, 'state');
    const chunk = join(dir, 'chunk.cjs');
    // A source this process has not compiled: V8 would otherwise take it from its own cache, never reading the file's.
    writeFileSync(chunk, `exports.answer = () => 42; // ${dir}\n`);
    const load = (ran: string[]) => {
      delete require.cache[chunk];
      const got = loadChunkWithCodeCache(chunk, state, 'build');
      expect((got.exports as { answer: () => number }).answer()).toBe(42);
      return { use: got.use, paths: got.paths, saved: got.save(ran) };
    };
    // The file codeCache.ts would look for, with data V8 cannot take (another V8's, say) and a checksum that holds.
    const digest = createHash('sha256').update(readFileSync(chunk)).digest('hex');
    const key = `${basename(chunk)}\0${digest}\0${process.version}\0${process.platform}\0${process.arch}\0build`;
    const id = createHash('sha256').update(key).digest('hex').slice(0, 32);
    const folder = join(state, 'code-cache');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(state, 0o700);
    const file = join(folder, `chunk-build-${id}.bin`);
    const junk = Buffer.alloc(256, 0x5a);
    writeFileSync(file, fileOf(key, 'full,up-to-date', junk));
    expect(cacheData(readFileSync(file), key)).toEqual({ data: junk, paths: ['full', 'up-to-date'] });
    // Its paths are not this run's: the data made now holds only what this run compiled.
    expect(load(['full'])).toEqual({ use: 'rejected', paths: [], saved: true });
    expect(readdirSync(folder)).toEqual([basename(file)]);
    expect(cacheData(readFileSync(file), key)).toMatchObject({ paths: ['full'] });
    expect(load(['full'])).toEqual({ use: 'used', paths: ['full'], saved: false });
  });

  const setUp = () => {
    const state = join(dir, 'state');
    const chunk = join(dir, 'chunk.cjs');
    writeFileSync(chunk, 'exports.answer = () => 42;\n');
    const load = () => {
      delete require.cache[chunk];
      const got = loadChunkWithCodeCache(chunk, state, 'build');
      expect((got.exports as { answer: () => number }).answer()).toBe(42);
      return { use: got.use, saved: got.save() };
    };
    return { state, chunk, load, folder: join(state, 'code-cache') };
  };

  it("a new cache removes the command's older caches only, not another file that starts as they do", () => {
    const { chunk, load, folder } = setUp();
    expect(load()).toEqual({ use: 'none', saved: true });
    const [old] = readdirSync(folder);
    expect(old).toMatch(/^chunk-build-[0-9a-f]{32}\.bin$/);
    writeFileSync(join(folder, 'chunk-build-notes.txt'), 'mine');
    writeFileSync(join(folder, 'chunk-build-0123.bin'), 'mine');
    writeFileSync(chunk, 'exports.answer = () => 40 + 2;\n');
    expect(load()).toEqual({ use: 'none', saved: true });
    const now = readdirSync(folder).sort();
    expect(now).not.toContain(old);
    expect(now.filter((f) => /^chunk-build-[0-9a-f]{32}\.bin$/.test(f))).toHaveLength(1);
    expect(now).toContain('chunk-build-notes.txt');
    expect(now).toContain('chunk-build-0123.bin');
  });

  it('a code-cache folder that is a link is neither read nor written', () => {
    const { load, folder } = setUp();
    expect(load()).toEqual({ use: 'none', saved: true });
    const elsewhere = join(dir, 'elsewhere');
    cpSync(folder, elsewhere, { recursive: true });
    rmSync(folder, { recursive: true });
    symlinkSync(elsewhere, folder);
    const before = readdirSync(elsewhere).map((f) => readFileSync(join(elsewhere, f)).toString('hex'));
    expect(load()).toEqual({ use: 'no-state', saved: false });
    expect(readdirSync(elsewhere).map((f) => readFileSync(join(elsewhere, f)).toString('hex'))).toEqual(before);
    // Back in its place as a folder: used again.
    rmSync(folder);
    renameSync(elsewhere, folder);
    expect(load().use).toBe('used');
  });

  it("another Node's cache is not found, and a command is named in the file only as a plain name", () => {
    const { load, folder } = setUp();
    expect(load()).toEqual({ use: 'none', saved: true });
    const version = Object.getOwnPropertyDescriptor(process, 'version')!;
    Object.defineProperty(process, 'version', { ...version, value: 'v99.0.0' });
    try {
      expect(load()).toEqual({ use: 'none', saved: true });
      expect(load().use).toBe('used');
    } finally {
      Object.defineProperty(process, 'version', version);
    }
    expect(load().use).toBe('none');
    const chunk = join(dir, 'chunk.cjs');
    const odd = loadChunkWithCodeCache(chunk, join(dir, 'state'), '../Build x');
    expect(odd.save()).toBe(true);
    expect(readdirSync(folder).filter((f) => f.startsWith('chunk-other-'))).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['chunk.cjs', 'state']);
  });
});

// Mutation audit 2026-12-05: a Windows path judged absolute by POSIX rules (so %LOCALAPPDATA% always ignored) passed.
describe('defaultStateDir on Windows', () => {
  it('takes an absolute %LOCALAPPDATA% and ignores a relative one', () => {
    expect(defaultStateDir({ LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\me\\AppData\\Local', 'ActGuy', 'state'),
    );
    expect(defaultStateDir({ LOCALAPPDATA: 'AppData' }, 'win32')).not.toContain(join('AppData', 'ActGuy'));
  });
});
