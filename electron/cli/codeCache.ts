/**
 * The CLI's commands chunk (cliCommands.cjs) loaded with a V8 code cache kept in the user's local state folder
 * (docs/cache.md, "What it costs"; docs/performance.md). Without it each `actguy build` compiles the chunk's
 * functions again as it first calls them: about a tenth of a one-file rebuild's CPU on the bench's 1,000-clip project.
 *
 * The cache is the bytecode V8 made for the chunk in an earlier run of the same command, taken at that run's end
 * (`createCachedData` after the command, so it holds the functions the command called, not only the chunk's top
 * level). It is trusted only as far as the user's other local state is:
 * - it lives in the state folder (docs/cache.md, "Local verdicts"), `code-cache/`, never in a project or cache folder,
 *   and is read and written only where the local verdicts would be (stateFolderProblem, makeStateFolder: the user's
 *   own folder that no one else may write; a file another user owns is not read; no link followed, no FIFO waited
 *   on, nothing over CODE_CACHE_MAX_BYTES read);
 * - its name holds the SHA-256 of the chunk's bytes as read now, Node's version and the platform, and the command: a
 *   changed chunk (another build of ActGuy) or another Node never finds an old file;
 * - the file opens with a SHA-256 of that key and of the V8 data, checked before V8 sees the data (V8 itself checks
 *   its version, flags and the source's length, but a release V8 does not checksum the data: a file cut short or
 *   altered would be deserialised as it is);
 * - V8 may still refuse it (`cachedDataRejected`): the chunk is then compiled from its source as without a cache.
 * A cache that is missing, refused or of another shape costs nothing but the compile it would have saved; the run
 * then writes a new one at its end (atomically; a save that fails is ignored).
 *
 * The file also names the paths through the command that the runs which made it took (codePaths.ts: for `build`, a
 * build from the cache, one up to date, one that carried the last build's motions, one that compressed a few changed
 * motions on its own thread). A run that used the cache and took a path it does not name writes it again at its end,
 * naming that path too: the first build of a project compresses every motion in its workers and never runs the
 * rebuild's code on its own thread, so a cache made by it alone left the carried motions' checks, the commit of their
 * pieces and the compressor itself to be compiled again by every one-file rebuild. So a project's cache is written
 * about once per path, then only read.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { makeStateFolder, readStampedNoFollow, stateFolderProblem } from '../build/buildCache';
import { writeFileAtomic } from '../fsutil';

export { defaultStateDir } from '../build/verdicts';

/** The largest code cache read (the commands chunk's is about 0.4 MB). */
export const CODE_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The file's first line; the SHA-256 (hex) and a line break follow, then the paths the cache was made on (comma
 * separated, each as PATH_NAME) and a line break, then V8's data.
 */
const MAGIC = 'actguy-code-cache 2\n';
const HEAD_BYTES = MAGIC.length + 64 + 1;
/** A path's name (codePaths.ts); the line of them is at most PATHS_LINE_MAX bytes. */
const PATH_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const PATHS_LINE_MAX = 512;
const PATHS_MAX = 12;

/** What happened to the cache in a load: used, refused (and why), or none there. */
export type CodeCacheUse = 'used' | 'none' | 'unusable' | 'checksum' | 'rejected' | 'no-state';

export interface LoadedChunk {
  exports: unknown;
  /** What became of the cache read (for the tests). */
  use: CodeCacheUse;
  /** The paths the cache used was made on (none when it was not used). */
  paths: readonly string[];
  /**
   * Writes the cache for the next run, when this one did not use a good one or took a path (`ran`) the one it used
   * was not made on; true when a file was written.
   */
  save: (ran?: readonly string[]) => boolean;
}

/** Where the cache of `chunk` (its bytes) for `command` lives in `stateDir`. */
function cacheFile(stateDir: string, chunkName: string, bytes: Buffer, command: string): { file: string; key: string } {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const cmd = /^[a-z][a-z0-9-]{0,31}$/.test(command) ? command : 'other';
  const key = `${chunkName}\0${digest}\0${process.version}\0${process.platform}\0${process.arch}\0${cmd}`;
  const id = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return { file: join(stateDir, 'code-cache', `${basename(chunkName, '.cjs')}-${cmd}-${id}.bin`), key };
}

function checksum(key: string, paths: string, data: Uint8Array): string {
  return createHash('sha256').update(key).update('\0').update(paths).update('\0').update(data).digest('hex');
}

/**
 * The V8 data of a cache file's bytes and the paths it was made on, when its head says it is the file of `key` and
 * its checksum (of the key, the paths and the data) holds.
 */
export function cacheData(
  file: Buffer,
  key: string,
): { data: Buffer; paths: readonly string[] } | 'checksum' | 'unusable' {
  if (file.length <= HEAD_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return 'unusable';
  if (file[HEAD_BYTES - 1] !== 0x0a) return 'unusable';
  const end = file.indexOf(0x0a, HEAD_BYTES);
  if (end < 0 || end - HEAD_BYTES > PATHS_LINE_MAX) return 'unusable';
  const line = file.toString('latin1', HEAD_BYTES, end);
  const paths = line === '' ? [] : line.split(',');
  if (!paths.every((p) => PATH_NAME.test(p))) return 'unusable';
  const data = file.subarray(end + 1);
  return file.toString('latin1', MAGIC.length, MAGIC.length + 64) === checksum(key, line, data)
    ? { data, paths }
    : 'checksum';
}

/**
 * Loads the CommonJS file `chunkPath` as `require` would (its own module, `require` resolving beside it, in
 * require's cache), compiled with the code cache of `command` from `stateDir` when there is a good one. Throws what
 * reading or running the chunk throws (ENOENT when it is not there).
 */
export function loadChunkWithCodeCache(chunkPath: string, stateDir: string, command: string): LoadedChunk {
  const source = fs.readFileSync(chunkPath);
  const { file, key } = cacheFile(stateDir, basename(chunkPath), source, command);
  // Read only from a state folder the verdicts would be read from (the user's alone, no link in its place).
  const stateUsable = () => !(stateFolderProblem(stateDir, true) ?? stateFolderProblem(dirname(file)));
  let use: CodeCacheUse = 'no-state';
  let cachedData: Buffer | undefined;
  let cachedPaths: readonly string[] = [];
  if (stateUsable()) {
    const got = readStampedNoFollow(file, CODE_CACHE_MAX_BYTES, false, true);
    if (got === undefined || got === 'link') use = got === 'link' ? 'unusable' : 'none';
    else {
      const data = cacheData(got.data, key);
      if (typeof data === 'string') use = data;
      else ({ data: cachedData, paths: cachedPaths } = data);
    }
  }
  let text = source.toString('utf8');
  if (text.startsWith('#!')) text = `//${text.slice(2)}`;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, {
    filename: chunkPath,
    cachedData,
  });
  if (cachedData) use = script.cachedDataRejected ? 'rejected' : 'used';
  /** The paths of the cache this run used: V8's data made after it holds their code too (what it deserialised). */
  const covered = use === 'used' ? cachedPaths : [];
  const Module = (
    nodeModule as unknown as {
      Module: (new (id: string) => NodeJS.Module) & { _cache: Record<string, NodeJS.Module> };
    }
  ).Module;
  const mod = new Module(chunkPath);
  mod.filename = chunkPath;
  const req = nodeModule.createRequire(chunkPath);
  Module._cache[chunkPath] = mod;
  try {
    (script.runInThisContext() as (...a: unknown[]) => void).call(
      mod.exports,
      mod.exports,
      req,
      mod,
      chunkPath,
      dirname(chunkPath),
    );
  } catch (e) {
    delete Module._cache[chunkPath];
    throw e;
  }
  mod.loaded = true;
  const save = (ran: readonly string[] = []): boolean => {
    const taken = ran.filter((p) => PATH_NAME.test(p));
    if (use === 'used' && taken.every((p) => covered.includes(p))) return false;
    try {
      if (!stateUsable() || makeStateFolder(stateDir) || makeStateFolder(dirname(file))) return false;
      // An empty folder at the cache's name (nothing of the user's in it) is removed: else every build compiled the
      // chunk from its source, without a word (round 36 left it). A folder holding files is kept as it is.
      try {
        if (fs.lstatSync(file).isDirectory()) fs.rmdirSync(file);
      } catch {
        /* none there, or a folder with files in it: the write below fails, and nothing is written */
      }
      const data = script.createCachedData();
      // At most PATHS_MAX names (a few in practice), so the line stays within its bound.
      const line = [...new Set([...covered, ...taken])].sort().slice(0, PATHS_MAX).join(',');
      const head = Buffer.from(`${MAGIC}${checksum(key, line, data)}\n${line}\n`, 'latin1');
      writeFileAtomic(file, Buffer.concat([head, data]), { durable: false, own: true });
      // The command's caches for other bytes (an earlier build of ActGuy) or another Node are never read again: one
      // file per command is kept, not one per build of the CLI.
      const own = basename(file);
      const prefix = own.slice(0, own.length - 36);
      for (const name of fs.readdirSync(dirname(file)))
        if (name !== own && name.startsWith(prefix) && /^[0-9a-f]{32}\.bin$/.test(name.slice(prefix.length)))
          fs.rmSync(join(dirname(file), name), { force: true });
      return true;
    } catch {
      return false;
    }
  };
  return { exports: mod.exports, use, paths: covered, save };
}
