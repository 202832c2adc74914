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
/** The file's first line; the SHA-256 (hex) and a line break follow, then V8's data. */
const MAGIC = 'actguy-code-cache 1\n';
const HEAD_BYTES = MAGIC.length + 64 + 1;

/** What happened to the cache in a load: used, refused (and why), or none there. */
export type CodeCacheUse = 'used' | 'none' | 'unusable' | 'checksum' | 'rejected' | 'no-state';

export interface LoadedChunk {
  exports: unknown;
  /** What became of the cache read (for the tests). */
  use: CodeCacheUse;
  /** Writes the cache for the next run, when this one did not use a good one; true when a file was written. */
  save: () => boolean;
}

/** Where the cache of `chunk` (its bytes) for `command` lives in `stateDir`. */
function cacheFile(stateDir: string, chunkName: string, bytes: Buffer, command: string): { file: string; key: string } {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const cmd = /^[a-z][a-z0-9-]{0,31}$/.test(command) ? command : 'other';
  const key = `${chunkName}\0${digest}\0${process.version}\0${process.platform}\0${process.arch}\0${cmd}`;
  const id = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return { file: join(stateDir, 'code-cache', `${basename(chunkName, '.cjs')}-${cmd}-${id}.bin`), key };
}

function checksum(key: string, data: Uint8Array): string {
  return createHash('sha256').update(key).update('\0').update(data).digest('hex');
}

/** The V8 data of a cache file's bytes, when its head says it is the file of `key` and its checksum holds. */
export function cacheData(file: Buffer, key: string): Buffer | 'checksum' | 'unusable' {
  if (file.length <= HEAD_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return 'unusable';
  if (file[HEAD_BYTES - 1] !== 0x0a) return 'unusable';
  const data = file.subarray(HEAD_BYTES);
  return file.toString('latin1', MAGIC.length, MAGIC.length + 64) === checksum(key, data) ? data : 'checksum';
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
  if (stateUsable()) {
    const got = readStampedNoFollow(file, CODE_CACHE_MAX_BYTES, false, true);
    if (got === undefined || got === 'link') use = got === 'link' ? 'unusable' : 'none';
    else {
      const data = cacheData(got.data, key);
      if (typeof data === 'string') use = data;
      else cachedData = data;
    }
  }
  let text = source.toString('utf8');
  if (text.startsWith('#!')) text = `//${text.slice(2)}`;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, {
    filename: chunkPath,
    cachedData,
  });
  if (cachedData) use = script.cachedDataRejected ? 'rejected' : 'used';
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
  const save = (): boolean => {
    if (use === 'used') return false;
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
      const head = Buffer.from(`${MAGIC}${checksum(key, data)}\n`, 'latin1');
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
  return { exports: mod.exports, use, save };
}
