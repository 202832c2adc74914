/**
 * The incremental build cache: a motion whose compressed result can be reused
 * (same MTN bytes, same compressor settings, same compressor) is not
 * recompressed. One file per result, named by its key:
 *
 *   <dir>/<key[0..2]>/<key>.mt3c
 *   bytes 0..3   "AGC1"
 *   bytes 4..35  SHA-256 of everything after byte 35
 *   bytes 36..39 u32 LE length L of the JSON summary
 *   then L bytes of JSON (the key, and the CompressedMotion without its bytes), then the MT3 bytes
 *
 * The folder may be shared between machines and CI agents, so an entry is
 * input, never an instruction (docs/cache.md): this file only reads it
 * (without following links) and hands it out as a candidate; the build
 * verifies the candidate against the motion it builds (verifyCompressed)
 * before using it, and discards one that does not hold. The checksum only
 * tells damage from a candidate worth checking.
 *
 * Safe with concurrent writers on one machine or many: entries are written to
 * a temp file of our naming and renamed into place (same key, same bytes, so
 * whichever rename lands last is right). Bounded: after a build the least
 * recently used entries go until the folder is under its size limit (a hit
 * refreshes the entry's mtime).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { COMPRESSOR_VERSION } from '../../shared/compress/version';
import type { CompressOptions } from '../../shared/compress/types';
import { findExcessiveNesting } from '../../shared/json/nesting';
import type { CompressedMotion } from '../../shared/project/plan';
import { isStaleTemp, ownTempName } from '../tempFiles';
import { describeFsError } from '../fsErrors';
import { anotherUsers } from '../fsutil';
import { othersMayWrite } from './ownerGroup';
import { stampOf, type FileStamp } from './fileStamp';

/** The entry layout's version (part of every key). */
const CACHE_FORMAT = 2;
const MAGIC = 'AGC1';
const ENTRY = /^[0-9a-f]{64}\.mt3c$/;
const SHARD = /^[0-9a-f]{2}$/;
/** The largest entry read: anything bigger is damage (an MT3 of a real motion is far smaller). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** How old an entry's mtime may grow before a hit refreshes it (the size limit drops the least recently used first). */
export const REFRESH_MS = 24 * 3600 * 1000;

/** Default size limit of a cache folder. */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;

declare const __ACTGUY_COMPRESSOR_DIGEST__: string | undefined;
/**
 * A digest of the compressor's source, set by scripts/build.mjs in every
 * bundle: a compressor change that forgot to bump COMPRESSOR_VERSION still
 * misses the cache. Unbundled runs (tests) use the version alone.
 */
const SOURCE_DIGEST = typeof __ACTGUY_COMPRESSOR_DIGEST__ === 'string' ? __ACTGUY_COMPRESSOR_DIGEST__ : 'unbundled';
/** The compressor, MTN reader and resampler this build runs, as one string (the local verdicts tag what they checked with it). */
export const COMPRESSOR_IDENTITY = `${COMPRESSOR_VERSION}:${SOURCE_DIGEST}`;

/**
 * JSON with object keys sorted at every level, so equal settings always hash alike. Loops and string appends, not
 * map/filter/join: a rebuild canonicalizes the settings of every motion once, in a fresh process where this code is
 * cold (half the CPU of the array version for 1,000 keys; docs/cache.md). The text is the array version's, byte for
 * byte: an array's element that JSON has no text for (undefined, a function, a hole) is empty, as `join` makes it.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) s += ',';
      const item = canonicalJson(value[i]) as string | undefined;
      if (item !== undefined) s += item;
    }
    return s + ']';
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    let s = '{';
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined) continue;
      if (s.length > 1) s += ',';
      s += `${JSON.stringify(k)}:${canonicalJson(v)}`;
    }
    return s + '}';
  }
  return JSON.stringify(value);
}

/** SHA-256 of some bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The key of one compression: the MTN bytes, the whole settings object the
 * compressor takes (every field, so new settings enter the key by themselves),
 * the compressor version and its source digest.
 */
export function cacheKey(
  mtn: Uint8Array,
  options: CompressOptions,
  compressor: { version: number; digest: string } = { version: COMPRESSOR_VERSION, digest: SOURCE_DIGEST },
  /**
   * What the bytes are when they are not the MTN compressed: the motion's file as read, and the rate a build
   * resamples it to (null: none). Reading and resampling are in the compressor digest (scripts/build.mjs), so
   * a change to either misses too.
   */
  input?: { file: 'mtn'; resampledTo: number | null },
): string {
  return cacheKeyOfDigest(sha256Hex(mtn), options, compressor, input);
}

/** cacheKey from the SHA-256 of the MTN bytes (a build that knows the digest of an unchanged file does not read it again to hash it). */
export function cacheKeyOfDigest(
  mtnSha256: string,
  options: CompressOptions,
  compressor: { version: number; digest: string } = { version: COMPRESSOR_VERSION, digest: SOURCE_DIGEST },
  input?: { file: 'mtn'; resampledTo: number | null },
): string {
  const h = createHash('sha256');
  h.update(
    canonicalJson({ format: CACHE_FORMAT, compressor: compressor.version, source: compressor.digest, options, input }),
  );
  h.update('\0');
  h.update(mtnSha256);
  return h.digest('hex');
}

export interface CacheStats {
  /** Entries used (verified now, or remembered as verified). */
  hits: number;
  /** Motions compressed (no entry, or one that was discarded). */
  misses: number;
  /** Entries that failed their checksum or would not parse, discarded. */
  damaged: number;
  /** Entries that read but did not hold for the motion being built (verifyCompressed), discarded. */
  rejected: number;
  /** Entries decoded and checked this build (the rest of the hits were remembered from an earlier check). */
  verified: number;
  written: number;
  /** Bytes of the entries written. */
  writtenBytes: number;
  /** Entries removed by the size limit. */
  evicted: number;
  /** Why the cache was not used at all (a linked folder, one that cannot be made), else undefined. */
  unusable?: string;
}

/** How a run used the cache, as `actguy build` and `export-gltf --project --compressed` print it. */
export function cacheUse(c: CacheStats): string {
  return `cache: ${c.hits} reused, ${c.rejected + c.damaged} rejected, ${c.misses} compressed${c.evicted ? `, ${c.evicted} old entries evicted` : ''}`;
}

/** An entry as read: untrusted until verified. */
export interface CacheCandidate {
  key: string;
  /** The entry's identity for the local verdicts: the SHA-256 of its body, recomputed on reading (with the fixed magic, the whole file). */
  digest: string;
  bytes: Uint8Array;
  /** The JSON summary, parsed but unchecked. */
  claim: Record<string, unknown>;
  /** The entry file's stamp as read (the local verdicts remember it with the digest). */
  stamp?: FileStamp;
}

export interface BuildCache {
  readonly dir: string;
  /** The size limit in bytes. */
  readonly maxBytes: number;
  /**
   * The entry of `key`, or undefined: none, or one that is damaged or a link (discarded and counted).
   * `knownDigest` gives the digest remembered for an entry file of this stamp: its body is then not hashed again,
   * where stamps prove it (entryStampsProve).
   */
  read(key: string, knownDigest?: (stamp: FileStamp) => string | undefined): CandidateRead;
  /**
   * Counts a candidate the build used, and makes it recent (at most once a day, so that its stamp holds
   * between builds); returns the entry file's stamp when it is still the one read, else undefined.
   */
  accept(candidate: CacheCandidate): FileStamp | undefined;
  /** Discards a candidate that did not hold (never following a link), and counts it. */
  reject(candidate: CacheCandidate): void;
  /**
   * Makes the entry of `key` recent, when there is one, without reading it: the entry of a motion a build carried
   * from the last build's outputs (lastBuild.ts) is in use as much as one it took from the cache. As accept does, at
   * most once a day per entry (one lstat otherwise), and never through a link.
   */
  touch(key: string): void;
  /**
   * Stores a result; returns the digest of the entry written and, when the file now at the entry's path is
   * provably the one written (same inode and size as the file descriptor that wrote it), its stamp, so the next
   * build need not hash it again (docs/cache.md). Undefined when nothing was written.
   */
  put(key: string, value: CompressedMotion): { digest: string; stamp?: FileStamp } | undefined;
  /** Removes least recently used entries until the folder is under its limit, and orphaned temps. */
  prune(): void;
  readonly stats: CacheStats;
}

type CandidateRead = CacheCandidate | undefined;

function entryPath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.mt3c`);
}

/** lstat with bigint fields, or undefined; a link is never followed (its own stamp would say nothing of the target). */
function statNoThrow(path: string): fs.BigIntStats | undefined {
  try {
    const st = fs.lstatSync(path, { bigint: true });
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

export function encodeEntry(key: string, value: CompressedMotion): Uint8Array {
  const { bytes, ...summary } = value;
  const json = Buffer.from(JSON.stringify({ key, ...summary }), 'utf8');
  const body = Buffer.alloc(4 + json.length + bytes.byteLength);
  body.writeUInt32LE(json.length, 0);
  json.copy(body, 4);
  body.set(bytes, 4 + json.length);
  const sum = createHash('sha256').update(body).digest();
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), sum, body]);
}

/**
 * The entry's summary and MT3 bytes, or undefined when it is damaged in any way (bad magic, checksum, length,
 * JSON that is not an object, another key). Nothing here says the content is right: see verifyCompressed.
 */
export function decodeEntry(
  key: string,
  data: Uint8Array,
  knownDigest?: string,
): { claim: Record<string, unknown>; bytes: Uint8Array; digest: string } | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 40 || buf.toString('latin1', 0, 4) !== MAGIC) return undefined;
  const body = buf.subarray(36);
  // `knownDigest`: the file is the one whose digest was computed before (the caller matched its stamp).
  const sum = knownDigest !== undefined ? Buffer.from(knownDigest, 'hex') : createHash('sha256').update(body).digest();
  if (!sum.equals(buf.subarray(4, 36))) return undefined;
  const len = body.readUInt32LE(0);
  if (4 + len > body.length) return undefined;
  const text = body.toString('utf8', 4, 4 + len);
  // Nested past any summary of ours: damaged, unparsed. A shared cache's entry is a stranger's file, up to 64 MiB, and
  // 30 MB of `[` cost JSON.parse a minute and 1.4 GB in the local state files (docs/security.md, round 49).
  if (findExcessiveNesting(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { key: stated, ...claim } = parsed as Record<string, unknown>;
  if (stated !== key) return undefined;
  // The checksum, just recomputed, identifies the whole file (the rest is the fixed magic): its digest. The MT3 is
  // copied out: `data` may be the shared buffer the next entry is read into (readStampedNoFollow's `scratch`).
  return { claim, bytes: new Uint8Array(body.subarray(4 + len)), digest: sum.toString('hex') };
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** A FIFO planted as an entry (a received project's `.actguy-cache`) would block a plain open until a writer came. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Reads a regular file without following a link at its last component (O_NOFOLLOW, and lstat where the
 * platform has no such flag) and without waiting on a FIFO (O_NONBLOCK); undefined when it is absent, a link,
 * not a file, or larger than `max`.
 */
function readNoFollow(path: string, max: number): Buffer | undefined {
  const read = readStampedNoFollow(path, max);
  return read === 'link' ? undefined : read?.data;
}

/**
 * readNoFollow, with the stamp of the file read (from the open descriptor); 'link' when `path` is a symbolic link
 * (where O_NOFOLLOW exists, the open's own ELOOP says so: no lstat before it).
 */
export function readStampedNoFollow(
  path: string,
  max: number,
  /**
   * Read into the shared scratch buffer when the file fits it: `data` is then valid only until the next such read
   * (cache.read decodes it at once, and decodeEntry copies out what it keeps).
   */
  scratch = false,
  /**
   * Local state: a file another user owns (anotherUsers) is not read. The user's state is theirs; another user who
   * could put a file there (a state folder under /tmp) must not be able to say what a build may trust.
   */
  usersOwn = false,
): { data: Buffer; stamp: FileStamp } | 'link' | undefined {
  const fd = openNoFollow(path);
  if (typeof fd !== 'number') return fd;
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile() || st.size > max || (usersOwn && anotherUsers(st.uid))) return undefined;
    // Every byte is read into it, or the read is refused: no need to zero it first.
    const size = Number(st.size);
    const out = scratch && size <= SCRATCH_BYTES ? scratchOf(size) : Buffer.allocUnsafe(size);
    let at = 0;
    while (at < out.length) {
      const n = fs.readSync(fd, out, at, out.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === out.length ? { data: out, stamp: stampOf(st) } : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `path` opened for reading as readStampedNoFollow and readStampedNoFollowAhead open it: a link at its name is not
 * followed and a FIFO not waited on. Its descriptor; 'link' when a link is there; undefined when it cannot be opened.
 */
function openNoFollow(path: string): number | 'link' | undefined {
  try {
    if (!O_NOFOLLOW && fs.lstatSync(path).isSymbolicLink()) return 'link';
    return fs.openSync(path, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    return O_NOFOLLOW && (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'link' : undefined;
  }
}

/**
 * readStampedNoFollow begun now and finished off the build's thread: the file is opened (no link followed, no FIFO
 * waited on) and its stamp taken here, and `check` decides from that stamp whether it is read at all; its bytes are
 * then read by Node's thread pool into a buffer of their own, while this thread goes on (a rebuild's one compression,
 * docs/cache.md "What it costs"). The descriptor is closed when the read ends, whether or not anyone awaits it.
 * Undefined (resolved) as readStampedNoFollow's: absent, a link, not a file, refused by `check`, or a short read.
 */
export function readStampedNoFollowAhead(
  path: string,
  check: (stamp: FileStamp) => boolean,
): Promise<{ data: Buffer; stamp: FileStamp } | undefined> {
  const fd = openNoFollow(path);
  if (typeof fd !== 'number') return Promise.resolve(undefined);
  let stamp: FileStamp;
  let size: number;
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    stamp = stampOf(st);
    size = Number(st.size);
    if (!st.isFile() || !check(stamp)) {
      fs.closeSync(fd);
      return Promise.resolve(undefined);
    }
  } catch {
    fs.closeSync(fd);
    return Promise.resolve(undefined);
  }
  // Every byte is read into it, or the read is refused: no need to zero it first.
  const out = Buffer.allocUnsafe(size);
  return new Promise((resolve) => {
    const done = (whole: boolean) => {
      try {
        fs.closeSync(fd);
      } catch {
        // closed either way; the bytes read are still what they are
      }
      resolve(whole ? { data: out, stamp } : undefined);
    };
    const from = (at: number) => {
      if (at === size) return done(true);
      fs.read(fd, out, at, size - at, at, (err, n) => (err || n === 0 ? done(false) : from(at + n)));
    };
    from(0);
  });
}

/**
 * The buffer entries are read into (readStampedNoFollow's `scratch`): a rebuild reads every entry once and keeps
 * only its summary and MT3, which decodeEntry copies out, so one buffer serves all (not one allocation per entry:
 * about a tenth of the lookups' CPU on 1,000 entries, docs/cache.md). Larger files get their own.
 */
const SCRATCH_BYTES = 1024 * 1024;
let scratchBuffer: Buffer | undefined;
function scratchOf(size: number): Buffer {
  if (!scratchBuffer || scratchBuffer.length < size)
    scratchBuffer = Buffer.allocUnsafe(Math.min(SCRATCH_BYTES, Math.max(size, 64 * 1024)));
  return scratchBuffer.subarray(0, size);
}

/** What is at `path` without following a link: 'dir', 'link', 'other', or 'none'. */
function kindOf(path: string): 'dir' | 'link' | 'other' | 'none' {
  try {
    const st = fs.lstatSync(path);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}

/**
 * Makes `dir` and any missing folder above it one level at a time (never a recursive mkdir, which loops on
 * some special file systems), refusing when `dir` itself is a link or not a folder. Folders above it that
 * exist are the user's (they may be links: the user named the path). Returns why it cannot, or undefined.
 */
export function makeFolderNoFollow(
  dir: string,
  /** The permission bits of each folder it makes (less the umask); undefined: 0777 less the umask. */
  mode?: number,
): string | undefined {
  const kind = kindOf(dir);
  if (kind === 'link') return `${dir} is a symbolic link (a cache folder is never followed through a link)`;
  if (kind === 'dir') return undefined;
  if (kind === 'other') return `${dir} is not a folder`;
  const parent = join(dir, '..');
  if (parent !== dir && kindOf(parent) === 'none') {
    const why = makeFolderNoFollow(parent, mode);
    if (why) return why;
  }
  try {
    fs.mkdirSync(dir, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create ${dir}: ${describeFsError(e)}`;
  }
  // Made by us or by a concurrent build: it must be a folder, not a link planted meanwhile.
  return kindOf(dir) === 'dir' ? undefined : `${dir} is not a folder`;
}

/**
 * makeFolderNoFollow for a folder of the user's local state (the verdicts', the records of last builds), refusing
 * one that another user owns (anotherUsers): what the user writes there (their files' paths and digests) would be
 * theirs to read, and whatever they left there is not read (readStampedNoFollow `usersOwn`; docs/security.md,
 * round 26).
 */
export function makeStateFolder(dir: string): string | undefined {
  // Made for the user alone, whatever the umask (0 in some containers and CI runners): another user could plant a
  // log in a folder all may write, and read the paths and digests kept there (docs/security.md, round 27). One that
  // is there already, made before that under a umask of 0, is made the user's alone now, or not used (round 30).
  // The path to it is asked before anything is made there, and again once it is made (round 32).
  const why =
    stateFolderProblem(join(dir, '..'), true) ??
    makeFolderNoFollow(dir, 0o700) ??
    stateFolderProblem(join(dir, '..'), true) ??
    stateFolderProblem(dir);
  if (why) return why;
  try {
    const owner = fs.lstatSync(dir).uid;
    return anotherUsers(owner) ? `${dir} belongs to another user (user id ${owner})` : undefined;
  } catch (e) {
    return `${dir}: ${describeFsError(e)}`;
  }
}

/** Folders already warned about in this process (stateFolderProblem): one warning each, not one per build. */
const stateFoldersSaid = new Set<string>();

/** Where stateFolderProblem's warnings go: standard error, which `actguy build` and the app's terminal show. */
export const stateFolderWarnings = { warn: (message: string): void => console.warn(`ActGuy: ${message}`) };

/**
 * Why the local state in `dir` (the state folder, `follow`ing the link the user may have named it by, or its
 * `cache-verdicts/` or `last-builds/`) is not used, or undefined. A folder not there yet is fine: makeStateFolder
 * makes it 0700. One that another user owns is not used. One that group or others may write (a state folder made
 * before round 27 under a umask of 0 is 0777) would let them plant or swap the user's state, unless it is sticky
 * (as /tmp: used as it is, whoever owns it, and never changed): made 0700 when it is the user's, with a warning saying
 * so; otherwise (root's) not used, with a warning saying why and what to do. Nothing is read from or written into a folder not used: the build is only slower (docs/cache.md,
 * docs/security.md round 30). Not asked where there are no user ids (Windows).
 */
export function stateFolderProblem(
  dir: string,
  follow = false,
  me: number | undefined = process.getuid?.(),
): string | undefined {
  const say = (message: string) => {
    if (stateFoldersSaid.has(`${dir}\0${message}`)) return;
    stateFoldersSaid.add(`${dir}\0${message}`);
    stateFolderWarnings.warn(message);
  };
  // A relative $ACTGUY_STATE_DIR (defaultStateDir) names a folder in whatever folder the command runs in: a received
  // project's would hold verdicts and a code cache of the sender's (round 36). Asked everywhere, Windows too.
  if (!isAbsolute(dir)) {
    const why = `the state folder ${dir} is a relative path, which names a folder in whatever folder a command runs in (a received project's among them)`;
    say(
      `${why}: ActGuy keeps no build state there (builds only read everything again); set ACTGUY_STATE_DIR to an absolute path of a folder of yours`,
    );
    return why;
  }
  if (me === undefined) return undefined;
  // Asked first, also of a state folder not made yet: nothing is made under a folder others may swap (round 32).
  const pathWhy = follow ? statePathProblem(dir, me) : undefined;
  if (pathWhy) {
    say(
      `${pathWhy}: ActGuy keeps no build state there (builds only read everything again); set ACTGUY_STATE_DIR to a folder of yours whose folders above only you and root can change${pathWhy.includes('not sticky') ? ", or take the others' write away from that folder (chmod go-w)" : ''}`,
    );
    return pathWhy;
  }
  let fd: number;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | (follow ? 0 : fs.constants.O_NOFOLLOW));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return code === 'ELOOP' ? `${dir} is a symbolic link` : `${dir}: ${describeFsError(e)}`;
  }
  try {
    const st = fs.fstatSync(fd);
    if (anotherUsers(st.uid, me)) return `${dir} belongs to another user (user id ${st.uid})`;
    const mode = modeOf(st);
    // A group holding the owner alone (Debian's user private groups) writes as the owner does (round 33).
    if (!othersMayWrite(st)) return undefined;
    // Sticky (as /tmp): others cannot rename or remove what the user keeps there, and what they leave is not read
    // (readStampedNoFollow's `usersOwn`). Used as it is, and never made 0700, the user's own too: a sticky folder all
    // may write is a shared one (the folder above a state folder put in /tmp is /tmp), not one ActGuy made, and run as
    // root (CI, a container) ActGuy made /tmp itself 0700 (maintainer's read, round 17).
    if (st.mode & 0o1000) return undefined;
    if (st.uid === me) {
      fs.fchmodSync(fd, 0o700);
      say(
        `${dir}: this folder of ActGuy's local state could be written by other users (mode ${mode}, as folders made under a umask of 0 before 2026-12-04 were); it is now 0700, yours alone`,
      );
      return undefined;
    }
    const why = `${dir} can be written by other users (mode ${mode}) and is not yours to change`;
    say(
      `${why}: ActGuy keeps no build state there (builds only read everything again); make it yours alone (chmod 700) or set ACTGUY_STATE_DIR to a folder of yours`,
    );
    return why;
  } catch (e) {
    return `${dir}: ${describeFsError(e)}`;
  } finally {
    fs.closeSync(fd);
  }
}

/** At most this many symbolic links are followed on the way to a state folder (Linux's own limit, MAXSYMLINKS). */
const STATE_PATH_LINKS_MAX = 40;

/**
 * Why another user could take the state folder `dir`'s place, or undefined: the path to it is walked from the root as
 * the kernel looks it up, links followed one by one, and every folder a name is looked up in must be the user's or
 * root's and not writable by group or others unless sticky (as `/tmp`; a group that holds the folder's owner alone
 * writes as the owner does, ownerGroup.ts, round 33), and every link on the way the user's or
 * root's. Whoever may rename any folder above the state folder, or change a link on the way, can put a folder of
 * theirs with their verdicts and records at its name between any look and a read, and receive what is written there:
 * ssh's StrictModes walks the path to `~/.ssh` so (docs/security.md, rounds 31 and 32). The folders are the user's
 * naming and not ActGuy's to change: the state folder is then not used. The state folder itself is stateFolderProblem's
 * to judge; a folder not there yet is made 0700 under the last one walked (makeFolderNoFollow).
 */
export function statePathProblem(dir: string, me: number): string | undefined {
  const above = (folder: string) => `${folder}, a folder above ${dir},`;
  let at = '/';
  let rest = resolve(dir).split('/').filter(Boolean);
  for (let links = 0; rest.length > 0;) {
    const name = rest.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      at = dirname(at);
      continue;
    }
    let folder: fs.Stats;
    let entry: fs.Stats;
    const next = join(at, name);
    try {
      folder = fs.statSync(at);
    } catch {
      return undefined; // not reachable: opening the state folder meets and says it
    }
    // The folder a name is looked up in is judged before whether the name is there: one not there yet is made 0700
    // under `at`, so `at` must be fit to make it in (docs/security.md round 40: a `--user-data` folder was made under a
    // folder all may write, and only then refused).
    if (anotherUsers(folder.uid, me))
      return `${above(at)} belongs to another user (user id ${folder.uid}), who could put a folder of theirs in its place`;
    if (othersMayWrite(folder) && (folder.mode & 0o1000) === 0)
      return `${above(at)} can be written by other users (mode ${modeOf(folder)}, not sticky), who could put a folder of theirs in its place`;
    try {
      entry = fs.lstatSync(next);
    } catch {
      return undefined; // not there yet: made 0700 under `at`, judged above
    }
    if (!entry.isSymbolicLink()) {
      at = next;
      continue;
    }
    if (anotherUsers(entry.uid, me))
      return `${next}, a symbolic link on the way to ${dir}, belongs to another user (user id ${entry.uid}), who could make it lead elsewhere`;
    if (++links > STATE_PATH_LINKS_MAX) return undefined; // a loop: opening the state folder meets ELOOP and says it
    let target: string;
    try {
      target = fs.readlinkSync(next);
    } catch {
      return undefined;
    }
    if (target.startsWith('/')) at = '/';
    rest = [...target.split('/').filter(Boolean), ...rest];
  }
  return undefined;
}

/** A mode's permission bits as ls -l's octal: 0777, 1777. */
function modeOf(st: fs.Stats): string {
  return (st.mode & 0o7777).toString(8).padStart(4, '0');
}

/** Removes a file of the cache (a link itself, never what it points to). */
function discard(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    /* another process removed or replaced it */
  }
}

/**
 * Opens (creating) a cache folder. A folder that is a symbolic link, or a shard folder that is
 * one, is never used (stats.unusable says why): the cache then only costs nothing.
 */
/**
 * File systems (statfs types, Linux) whose ctime only the kernel sets: ext2/3/4, XFS, Btrfs, tmpfs, overlayfs, ZFS,
 * F2FS, bcachefs. On these a rewrite of an entry changes its stamp whatever the writer does afterwards.
 */
const CTIME_KEPT_BY_KERNEL = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e,
]);

/**
 * Whether an entry file's stamp (size, mtime, ctime, inode, device) proves that its bytes are the ones whose digest
 * was remembered with it (docs/cache.md, "What a stamp cannot see"): only where nobody can set the ctime back, on
 * Linux, on one of the local file systems above. Windows lets a program set NTFS's change time, FAT's ctime is its
 * mtime, and a network share's is whatever its server says: there a cache folder others can write to could hold a
 * rewritten entry with its old stamp, so every entry's body is hashed. `platform` and `fsType` are for tests.
 */
export function entryStampsProve(
  dir: string,
  platform: NodeJS.Platform = process.platform,
  fsType: (dir: string) => number | undefined = statfsType,
): boolean {
  if (platform !== 'linux') return false;
  const type = fsType(dir);
  return type !== undefined && CTIME_KEPT_BY_KERNEL.has(type);
}

function statfsType(dir: string): number | undefined {
  try {
    return fs.statfsSync(dir).type;
  } catch {
    return undefined;
  }
}

export function openBuildCache(
  dir: string,
  options: { maxBytes?: number; stampsProve?: (dir: string) => boolean } = {},
): BuildCache {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const stats: CacheStats = {
    hits: 0,
    misses: 0,
    damaged: 0,
    rejected: 0,
    verified: 0,
    written: 0,
    writtenBytes: 0,
    evicted: 0,
  };
  // Made now (one level at a time), so that it has an identity for the local verdicts of this very build.
  stats.unusable = makeFolderNoFollow(dir);
  /** Whether a remembered digest may stand for an entry file of the same stamp (else every body is hashed). */
  const proves = options.stampsProve ?? entryStampsProve;
  const stampsProve = !stats.unusable && proves(dir);
  /**
   * Whether stamps prove entries in each shard folder, asked once per build: a shard may be another file system
   * mounted over it (a FUSE or network mount), whose ctime proves nothing even where the cache folder's does.
   */
  const shardProves = new Map<string, boolean>();
  const stampsProveIn = (shard: string): boolean => {
    if (!stampsProve) return false;
    let known = shardProves.get(shard);
    if (known === undefined) shardProves.set(shard, (known = proves(shard)));
    return known;
  };
  /**
   * Shard folders this build found to be folders (not links), for reading: each is checked once per build, not per
   * entry (what a read takes is verified anyway). A write checks its shard each time, just before it writes.
   */
  const shardsOk = new Set<string>();
  /** Whether the shard folder of `key` is a real folder (not a link) that we may read and write in. */
  const shardOk = (key: string, create: boolean): boolean => {
    if (stats.unusable) return false;
    const shard = join(dir, key.slice(0, 2));
    if (!create && shardsOk.has(shard)) return true;
    const kind = kindOf(shard);
    if (kind === 'dir') {
      shardsOk.add(shard);
      return true;
    }
    if (kind !== 'none' || !create) return false;
    // Stops writing for the rest of the build on the first folder that cannot be made (/proc, a read-only share).
    stats.unusable = makeFolderNoFollow(shard);
    return stats.unusable === undefined;
  };
  return {
    dir,
    maxBytes,
    stats,
    read(key, knownDigest) {
      if (!SHA256_HEX.test(key) || !shardOk(key, false)) return undefined;
      const path = entryPath(dir, key);
      const read = readStampedNoFollow(path, MAX_ENTRY_BYTES, true);
      if (read === 'link') {
        stats.damaged++;
        discard(path);
        return undefined;
      }
      if (!read) {
        // An entry there but not read (past MAX_ENTRY_BYTES, a FIFO, a folder, unreadable) is refused as a damaged
        // one is: a 4 GB entry was counted `compressed`, not `rejected` (docs/security.md, round 49).
        if (kindOf(path) !== 'none') stats.damaged++;
        return undefined;
      }
      const proven = stampsProveIn(join(dir, key.slice(0, 2)));
      const entry = decodeEntry(key, read.data, proven ? knownDigest?.(read.stamp) : undefined);
      if (!entry) {
        stats.damaged++;
        discard(path);
        return undefined;
      }
      return { key, ...entry, stamp: read.stamp };
    },
    accept(candidate) {
      stats.hits++;
      // Least recently used goes first: a hit makes the entry recent (utimes on a link would touch its target).
      const path = entryPath(dir, candidate.key);
      const stamp = candidate.stamp;
      const now = Date.now();
      if (stamp && now - Number(BigInt(stamp.mtimeNs) / 1_000_000n) < REFRESH_MS) return stamp;
      if (kindOf(path) !== 'other') return undefined;
      try {
        fs.utimesSync(path, now / 1000, now / 1000);
      } catch {
        /* evicted meanwhile: the value in hand is still good */
      }
      return undefined;
    },
    touch(key) {
      if (!SHA256_HEX.test(key) || !shardOk(key, false)) return;
      const path = entryPath(dir, key);
      const st = statNoThrow(path);
      const now = Date.now();
      if (!st || now - Number(st.mtimeMs) < REFRESH_MS) return;
      try {
        // lutimes: a link put in the entry's place since the lstat is touched itself, never its target.
        fs.lutimesSync(path, now / 1000, now / 1000);
      } catch {
        /* evicted meanwhile */
      }
    },
    reject(candidate) {
      stats.rejected++;
      const path = entryPath(dir, candidate.key);
      // Only the entry we read: one a concurrent build has meanwhile replaced with a good one stays.
      const now = readNoFollow(path, MAX_ENTRY_BYTES);
      if (now && decodeEntry(candidate.key, now)?.digest === candidate.digest) discard(path);
    },
    put(key, value) {
      if (!SHA256_HEX.test(key) || !shardOk(key, true)) return undefined;
      const path = entryPath(dir, key);
      const data = encodeEntry(key, value);
      if (data.byteLength > MAX_ENTRY_BYTES) return undefined;
      const tmp = ownTempName(path, 'new');
      try {
        // 'wx': a fresh file of our own naming, never one that exists (nor a link planted under that name).
        const fd = fs.openSync(tmp, 'wx');
        let written: fs.BigIntStats;
        try {
          fs.writeFileSync(fd, data);
          written = fs.fstatSync(fd, { bigint: true });
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(tmp, path);
        stats.written++;
        stats.writtenBytes += data.byteLength;
        const digest = Buffer.from(data.subarray(4, 36)).toString('hex');
        // The rename changed the inode's ctime: the stamp is taken after it, and kept only for our own inode.
        const now = statNoThrow(path);
        const ours = now && now.ino === written.ino && now.dev === written.dev && now.size === written.size;
        return ours ? { digest, stamp: stampOf(now) } : { digest };
      } catch {
        discard(tmp);
        // A cache that cannot be written (full disk, read-only share) only costs time; the build goes on.
        return undefined;
      }
    },
    prune() {
      if (stats.unusable || kindOf(dir) !== 'dir') return;
      const files: { path: string; size: number; used: number }[] = [];
      let shards: string[];
      try {
        shards = fs.readdirSync(dir);
      } catch {
        return;
      }
      for (const shard of shards) {
        if (!SHARD.test(shard) || kindOf(join(dir, shard)) !== 'dir') continue;
        let names: string[];
        try {
          names = fs.readdirSync(join(dir, shard));
        } catch {
          continue;
        }
        for (const name of names) {
          const path = join(dir, shard, name);
          let st: fs.Stats;
          try {
            st = fs.lstatSync(path);
          } catch {
            continue;
          }
          if (ENTRY.test(name) && st.isFile()) files.push({ path, size: st.size, used: st.mtimeMs });
          else if (ENTRY.test(name) && st.isSymbolicLink()) discard(path);
          else if (isStaleTemp(name, st.mtimeMs)) discard(path);
        }
      }
      let total = files.reduce((s, f) => s + f.size, 0);
      if (total <= maxBytes) return;
      files.sort((a, b) => a.used - b.used || (a.path < b.path ? -1 : 1));
      for (const f of files) {
        if (total <= maxBytes) break;
        try {
          fs.unlinkSync(f.path);
          stats.evicted++;
        } catch {
          /* another process evicted it */
        }
        total -= f.size;
      }
    },
  };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
