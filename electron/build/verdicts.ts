/**
 * The build cache's local verdicts (docs/cache.md): which entries of a cache
 * folder this user's builds have already verified (with the stamp of the entry
 * file), and the size, times, digest and motion header of each input file last
 * read, so a rebuild neither decodes a verified entry again, nor hashes an
 * unchanged file or entry again, nor reads an unchanged motion file at all. As Bazel's local
 * action cache sits in front of a remote one, it lives in the user's own state
 * folder, which the shared cache folder cannot write; and it is read as
 * untrusted input all the same (anything malformed is dropped, never acted on).
 *
 * One JSON file per cache folder, named by the folder's identity (its real
 * path, device and inode): `<state>/cache-verdicts/<id>.json`, and beside it
 * `<id>.log`, the records saved since that file was written, one checksummed
 * line per save (docs/cache.md, "Local verdicts"): a build that changed a few
 * records appends them instead of rewriting the whole file.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, posix, resolve, win32 } from 'node:path';
import { findExcessiveNesting } from '../../shared/json/nesting';
import { makeJoint, type JointInfo } from '../../shared/motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../shared/mtn/constants';
import { canonicalPath, isInside, keyPath } from '../pathPolicy';
import { anotherUsers, writeFileAtomic } from '../fsutil';
import { COMPRESSOR_IDENTITY, makeStateFolder, readStampedNoFollow, stateFolderProblem } from './buildCache';
import { sameStamp, stampFromFields, stampOf, type FileStamp } from './fileStamp';

const TOOL = 'actguy cache verdicts';
const VERSION = 1;
/** A verdict file larger than this is not read (it holds two short strings per entry). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Most verdicts and file records kept per cache folder; the least recently used go first. */
const MAX_RECORDS = 100_000;
const HEX64 = /^[0-9a-f]{64}$/;
/** The longest a build that writes entries goes without walking the cache folder for its size limit. */
const WALK_AT_LEAST_EVERY_MS = 24 * 3600 * 1000;
/** How fresh a record's last use must be kept (the least recently used go first past MAX_RECORDS). */
const USE_GRANULARITY_MS = 24 * 3600 * 1000;
/**
 * The log of saves beside the verdict file is read only up to this size (a larger one is dropped whole, and the next
 * save rewrites the file and removes it); a save that would take it past this rewrites the file instead.
 */
export const VERDICT_LOG_MAX_BYTES = 512 * 1024;
/** A save that changed more records than this rewrites the verdict file (a day's touch of every record, say). */
const APPEND_MAX_RECORDS = 256;

/**
 * The per-user state folder: $ACTGUY_STATE_DIR, else the platform's place for a tool's local state.
 *
 * A relative path would be a folder of whatever folder a command runs in, a received project's among them: its
 * verdicts would say what a build trusts, and its code cache (electron/cli/codeCache.ts) which code `actguy build`
 * runs (docs/security.md, round 36). A relative $XDG_STATE_HOME or %LOCALAPPDATA% is ignored, as the XDG Base
 * Directory specification asks; a relative $ACTGUY_STATE_DIR, the user's explicit choice, is returned as written, and
 * stateFolderProblem refuses it with a warning saying what to set: no state is kept then, and none is read.
 */
export function defaultStateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const absolute = (p: string | undefined): p is string => !!p && (platform === 'win32' ? win32 : posix).isAbsolute(p);
  if (env.ACTGUY_STATE_DIR)
    return absolute(env.ACTGUY_STATE_DIR) ? resolve(env.ACTGUY_STATE_DIR) : env.ACTGUY_STATE_DIR;
  if (platform === 'win32')
    return join(absolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : join(homedir(), 'AppData', 'Local'), 'ActGuy', 'state');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ActGuy');
  return join(absolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state'), 'actguy');
}

export { stampOf, type FileStamp } from './fileStamp';

/**
 * What a build learnt of a motion file it read and validated (docs/cache.md, "Local verdicts"): enough for
 * the next build to check the project against it without reading the file again.
 */
export interface MotionHeader {
  fps: number;
  frameCount: number;
  joints: JointInfo[];
}

export interface VerdictStore {
  /** Where the verdicts are kept (undefined: nowhere, nothing is remembered). */
  readonly file: string | undefined;
  /** Whether some entry of `key` was verified before (whatever its digest: a build then reads it first). */
  knows(key: string): boolean;
  /** Whether the entry of `key` with this content digest was verified before. */
  holds(key: string, entryDigest: string): boolean;
  /** The digest remembered for the entry of `key` when its file's stamp is the one recorded with it, else undefined. */
  entryDigest(key: string, stamp: FileStamp): string | undefined;
  /** Remembers an entry as verified, with its file's stamp when it is known to be the one whose digest this is. */
  remember(key: string, entryDigest: string, stamp?: FileStamp): void;
  forget(key: string): void;
  /** The SHA-256 of the file at `path` when its stamp is the one recorded with it, else undefined. */
  digestOf(path: string, stamp: FileStamp): string | undefined;
  /**
   * The header of the motion file at `path` when its stamp is the one recorded with it and the header was
   * recorded by this very reader (COMPRESSOR_IDENTITY covers the MTN reader), else undefined.
   */
  headerOf(path: string, stamp: FileStamp): MotionHeader | undefined;
  /** Records a file's digest, and the header of the motion it holds when the build read and validated it. */
  recordFile(path: string, stamp: FileStamp, sha256: string, header?: MotionHeader): void;
  /**
   * Whether a build that wrote `written` bytes of entries is to walk the cache folder for its size limit
   * (`maxBytes`): when this user's builds wrote a hundredth of the limit since one of them last walked it, when
   * that was a day ago, or when no walk is remembered. Counts the bytes when it is not, and the walk when it is.
   */
  sizeWalkDue(written: number, maxBytes: number): boolean;
  /** Writes what changed (atomically; a failure only costs the next build time). */
  save(): void;
}

interface Stored {
  verdicts: Map<string, { digest: string; used: number; stamp?: FileStamp }>;
  files: Map<string, FileRecord>;
  /** When this user's builds last walked the cache folder for its size limit, and the bytes they wrote since. */
  walk?: { at: number; written: number };
  /** Whether the file was a verdict file of this cache folder (only then may a save append to its log). */
  ours: boolean;
  /** Whether every line of the log read was whole and checksummed for this very file (else a save rewrites it). */
  logClean: boolean;
}

const emptyStored = (): Stored => ({ verdicts: new Map(), files: new Map(), ours: false, logClean: true });

/**
 * What a log's lines are checksummed with: the stamp of the verdict file they extend (size, mtime, ctime, inode and
 * device, as read from the descriptor the file was read through). A log extends that one file alone: once the file is
 * rewritten (by a build, or by hand: its ctime changes, and a build's rename gives it another inode), the old log's
 * lines are not its records.
 */
export const verdictLogKey = (s: FileStamp): string => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;

/** The checksum of a log line's payload: SHA-256 of the log's key (verdictLogKey), a line break, and the payload. */
const lineSum = (logKey: string, payload: string): string =>
  createHash('sha256').update(`${logKey}\n${payload}`).digest('hex');

/** A log line as a save appends it: `<checksum> <payload JSON>` and a line break. */
export function verdictLogLine(logKey: string, payload: string): string {
  return `${lineSum(logKey, payload)} ${payload}\n`;
}

interface FileRecord {
  stamp: FileStamp;
  sha256: string;
  /** The motion header with the identity of the reader that validated it (another reader's is not used). */
  header?: { reader: string; value: MotionHeader };
  used: number;
}

/**
 * The state of a verdict file and of its log (`log.text`, the records saved since, one line each, checksummed with
 * `log.key`, verdictLogKey of the file's stamp), dropping every record that is not exactly of our shape. The log's
 * lines are applied in order up to the first that is not whole, not checksummed for this very file, or not a JSON
 * object: what follows is dropped (logClean is then false, and the next save rewrites the file).
 */
export function parseVerdicts(text: string, cacheId: string, log?: { text: string; key: string }): Stored {
  const out = emptyStored();
  // Nested past any shape of ours: dropped unparsed. 30 MB of `[` (within MAX_FILE_BYTES) took a build 96 s and
  // 1.4 GB in JSON.parse (docs/security.md, round 49).
  if (findExcessiveNesting(text)) return out;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return out;
  }
  if (!isRecord(doc) || doc.tool !== TOOL || doc.version !== VERSION || doc.cache !== cacheId) return out;
  applyRecords(out, doc, false);
  out.ours = true;
  if (log && log.text.length > 0) out.logClean = applyLog(out, log.text, log.key);
  return out;
}

/** Applies a log's lines in order (parseVerdicts); false when one was refused (it and the rest are not applied). */
function applyLog(out: Stored, text: string, logKey: string): boolean {
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    // A last line without its line break was cut short (a save that did not finish).
    if (end < 0) return false;
    const line = text.slice(at, end);
    at = end + 1;
    if (line.length < 66 || line[64] !== ' ') return false;
    const payload = line.slice(65);
    if (lineSum(logKey, payload) !== line.slice(0, 64) || findExcessiveNesting(payload)) return false;
    let doc: unknown;
    try {
      doc = JSON.parse(payload);
    } catch {
      return false;
    }
    if (!isRecord(doc)) return false;
    applyRecords(out, doc, true);
  }
  return true;
}

/**
 * Sets the records of `doc` (a verdict file, or one line of its log when `log`: then also its forgotten verdicts) in
 * `out`, each held to the exact shape a build relies on; one that is not is dropped alone. Past MAX_RECORDS no record
 * is added (one already there is replaced).
 */
function applyRecords(out: Stored, doc: Record<string, unknown>, log: boolean): void {
  const walk = doc.walk;
  if (Array.isArray(walk) && walk.length === 2 && isTime(walk[0]) && Number.isSafeInteger(walk[1]) && walk[1] >= 0)
    out.walk = { at: walk[0], written: walk[1] };
  if (log && Array.isArray(doc.forget))
    for (const key of doc.forget.slice(0, MAX_RECORDS)) if (typeof key === 'string') out.verdicts.delete(key);
  if (isRecord(doc.verdicts))
    for (const [key, v] of Object.entries(doc.verdicts)) {
      if (out.verdicts.size >= MAX_RECORDS && !out.verdicts.has(key)) continue;
      if (!(
        HEX64.test(key) &&
        Array.isArray(v) &&
        (v.length === 2 || v.length === 7) &&
        typeof v[0] === 'string' &&
        HEX64.test(v[0]) &&
        isTime(v[1])
      ))
        continue;
      // The entry file's stamp, when recorded: a stamp not exactly of our shape is dropped alone (the entry is then hashed).
      const stamp = v.length === 7 ? stampFromFields(v[2], v[3], v[4], v[5], v[6]) : undefined;
      out.verdicts.set(key, { digest: v[0], used: v[1], ...(stamp && { stamp }) });
    }
  // Motions of one project mostly share a skeleton: each is stored once, and checked once.
  const skeletons = Array.isArray(doc.skeletons) ? doc.skeletons : [];
  const checked = new Map<number, JointInfo[] | undefined>();
  const skeletonAt = (i: unknown): JointInfo[] | undefined => {
    if (!Number.isInteger(i) || (i as number) < 0 || (i as number) >= Math.min(skeletons.length, MAX_RECORDS))
      return undefined;
    if (!checked.has(i as number)) checked.set(i as number, parseSkeleton(skeletons[i as number]));
    return checked.get(i as number);
  };
  if (isRecord(doc.files))
    for (const [path, v] of Object.entries(doc.files)) {
      if (out.files.size >= MAX_RECORDS && !out.files.has(path)) continue;
      if (!Array.isArray(v) || (v.length !== 7 && v.length !== 8)) continue;
      const [size, mtimeNs, ctimeNs, ino, dev, sha256, used, header] = v;
      const stamp = stampFromFields(size, mtimeNs, ctimeNs, ino, dev);
      if (!(stamp && typeof sha256 === 'string' && HEX64.test(sha256) && isTime(used))) continue;
      const record: FileRecord = { stamp, sha256, used };
      // A header not exactly of our shape is dropped alone: the file is then read and checked again.
      const parsed = v.length === 8 ? parseHeader(header, skeletonAt) : undefined;
      if (parsed) record.header = parsed;
      out.files.set(path, record);
    }
}

/**
 * A stored motion header, `[reader, fps, frameCount, skeleton index]`, held to the rules the MTN reader holds
 * a file's header to (docs/formats.md 1), else undefined.
 */
function parseHeader(v: unknown, skeletonAt: (i: unknown) => JointInfo[] | undefined): FileRecord['header'] {
  if (!Array.isArray(v) || v.length !== 4) return undefined;
  const [reader, fps, frameCount, skeleton] = v;
  if (
    typeof reader !== 'string' ||
    reader.length > 200 ||
    typeof fps !== 'number' ||
    !(Number.isFinite(fps) && fps > 0)
  )
    return undefined;
  if (!Number.isInteger(frameCount) || frameCount < 1 || frameCount > MTN_MAX_FRAMES) return undefined;
  const joints = skeletonAt(skeleton);
  return joints && { reader, value: { fps, frameCount, joints } };
}

/** A stored skeleton, `[[parent, mirror, part, reserved, name], ...]`, held to the MTN reader's rules, else undefined. */
function parseSkeleton(joints: unknown): JointInfo[] | undefined {
  if (!Array.isArray(joints) || joints.length < 1 || joints.length > MTN_MAX_JOINTS) return undefined;
  const J = joints.length;
  const out: JointInfo[] = [];
  for (let j = 0; j < J; j++) {
    const e: unknown = joints[j];
    if (!Array.isArray(e) || e.length !== 5) return undefined;
    const [parent, mirror, part, reserved, name] = e;
    if (!(j === 0 ? parent === -1 : Number.isInteger(parent) && parent >= 0 && parent < j)) return undefined;
    if (!(Number.isInteger(mirror) && mirror >= 0 && mirror < J) || !isU32(part) || !isU32(reserved)) return undefined;
    if (typeof name !== 'string' || !JOINT_NAME.test(name)) return undefined;
    out.push(makeJoint({ parent, mirror, part, reserved, name }));
  }
  return out;
}

const JOINT_NAME = /^[\x20-\x7e]{0,31}$/;
const isU32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff;
const skeletonJson = (joints: readonly JointInfo[]) =>
  joints.map((j) => [j.parent, j.mirror, j.part, j.reserved, j.name]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A store that remembers nothing (no cache, or no usable state folder). */
export function noVerdicts(): VerdictStore {
  return {
    file: undefined,
    knows: () => false,
    holds: () => false,
    entryDigest: () => undefined,
    remember() {},
    forget() {},
    digestOf: () => undefined,
    headerOf: () => undefined,
    recordFile() {},
    sizeWalkDue: () => true,
    save() {},
  };
}

/**
 * The verdicts of `cacheDir` when it is already a folder (not a link), else undefined: what a build may use
 * before it knows it will get as far as making the cache folder.
 */
export function existingVerdicts(cacheDir: string, stateDir?: string): VerdictStore | undefined {
  try {
    if (!fs.lstatSync(cacheDir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return openVerdictStore(cacheDir, stateDir);
}

/**
 * The verdicts of the cache folder `cacheDir` (which must exist to have an identity; otherwise nothing is
 * remembered). A state folder inside the cache folder is refused: the shared folder must not be able to write
 * the verdicts about itself.
 */
export function openVerdictStore(cacheDir: string, stateDir: string = defaultStateDir()): VerdictStore {
  let id: string;
  let real: string;
  try {
    real = fs.realpathSync(cacheDir);
    const st = fs.statSync(real, { bigint: true });
    id = createHash('sha256').update(`${real}\0${st.dev}\0${st.ino}`).digest('hex');
  } catch {
    return noVerdicts();
  }
  const state = resolve(stateDir);
  let realState: string;
  try {
    realState = canonicalPath(state);
  } catch {
    // A state folder whose links form a loop: nothing can be kept there, and it only costs this build time. It
    // stopped every build (round 18: `actguy build: ActGuy refused to access …: its symbolic links form a loop`).
    return noVerdicts();
  }
  if (isInside(real, state) || isInside(real, realState)) return noVerdicts();
  // Not read from a state folder others may write (made the user's alone first when it is theirs: round 30).
  if (stateFolderProblem(state, true) ?? stateFolderProblem(join(state, 'cache-verdicts'))) return noVerdicts();
  const file = join(state, 'cache-verdicts', `${id.slice(0, 32)}.json`);
  const logFile = join(state, 'cache-verdicts', `${id.slice(0, 32)}.log`);
  /** The stamp the verdict file had when this build read it (undefined: none read, or written since). */
  let seen: FileStamp | undefined;
  /** The stamp of the log as this build read or last appended to it (undefined: there was none). */
  let logSeen: FileStamp | undefined;
  const stampNow = (path: string): FileStamp | undefined => {
    try {
      const st = fs.lstatSync(path, { bigint: true });
      return st.isFile() ? stampOf(st) : undefined;
    } catch {
      return undefined;
    }
  };
  /** The log's text when it is a regular file within the limit; null when something else is there (dropped whole). */
  const readLog = (): string | undefined | null => {
    logSeen = undefined;
    const got = readStampedNoFollow(logFile, VERDICT_LOG_MAX_BYTES, false, true);
    if (got === 'link') return null;
    if (got === undefined) return fs.existsSync(logFile) ? null : undefined;
    logSeen = got.stamp;
    return got.data.toString('utf8');
  };
  const load = (): Stored => {
    seen = undefined;
    try {
      // The stamp of the very file read (from its descriptor): a file replaced meanwhile has another at save time.
      const got = readStampedNoFollow(file, MAX_FILE_BYTES, false, true);
      if (got === undefined || got === 'link') return emptyStored();
      seen = got.stamp;
      const log = readLog();
      const out = parseVerdicts(
        got.data.toString('utf8'),
        id,
        log ? { text: log, key: verdictLogKey(got.stamp) } : undefined,
      );
      if (log === null) out.logClean = false;
      return out;
    } catch {
      return emptyStored();
    }
  };
  const stored = load();
  const now = Date.now();
  /** What this build changed, for a save that appends it to the log. */
  const changed = { verdicts: new Set<string>(), forgotten: new Set<string>(), files: new Set<string>(), walk: false };
  const dirty = () => changed.verdicts.size + changed.forgotten.size + changed.files.size > 0 || changed.walk;
  /** Marks a record used now; only a use a day newer is worth a write (an unchanged rebuild then writes nothing). */
  const touch = (r: { used: number }, set: Set<string>, key: string) => {
    if (now - r.used < USE_GRANULARITY_MS) return;
    r.used = now;
    set.add(key);
  };
  const skeletonTable = () => {
    const skeletons: unknown[][] = [];
    const indexOfText = new Map<string, number>();
    const indexOfArray = new Map<readonly JointInfo[], number>();
    const index = (joints: readonly JointInfo[]): number => {
      let i = indexOfArray.get(joints);
      if (i === undefined) {
        const json = skeletonJson(joints);
        const text = JSON.stringify(json);
        i = indexOfText.get(text);
        if (i === undefined) {
          i = skeletons.push(json) - 1;
          indexOfText.set(text, i);
        }
        indexOfArray.set(joints, i);
      }
      return i;
    };
    return { skeletons, index };
  };
  const verdictRow = ({ digest, used, stamp: s }: { digest: string; used: number; stamp?: FileStamp }) =>
    s ? [digest, used, s.size, s.mtimeNs, s.ctimeNs, s.ino, s.dev] : [digest, used];
  const fileRow = (v: FileRecord, skeletonIndex: (joints: readonly JointInfo[]) => number) => {
    const row: unknown[] = [v.stamp.size, v.stamp.mtimeNs, v.stamp.ctimeNs, v.stamp.ino, v.stamp.dev, v.sha256, v.used];
    const h = v.header;
    if (h) row.push([h.reader, h.value.fps, h.value.frameCount, skeletonIndex(h.value.joints)]);
    return row;
  };
  const clearChanges = () => {
    changed.verdicts.clear();
    changed.forgotten.clear();
    changed.files.clear();
    changed.walk = false;
  };
  /**
   * Appends this build's changes to the log as one line, when the verdict file is the one this build read (so the
   * log extends it) and the log stays within its limit; false when the file is to be rewritten instead.
   */
  const append = (): boolean => {
    const base = stampNow(file);
    if (!(stored.ours && stored.logClean && seen && base && sameStamp(base, seen))) return false;
    if (changed.verdicts.size + changed.forgotten.size + changed.files.size > APPEND_MAX_RECORDS) return false;
    const { skeletons, index } = skeletonTable();
    const verdicts: Record<string, unknown> = {};
    for (const k of changed.verdicts) {
      const v = stored.verdicts.get(k);
      if (v) verdicts[k] = verdictRow(v);
    }
    const files: Record<string, unknown> = {};
    for (const k of changed.files) {
      const v = stored.files.get(k);
      if (v) files[k] = fileRow(v, index);
    }
    const payload = JSON.stringify({
      verdicts,
      files,
      skeletons,
      forget: [...changed.forgotten],
      ...(changed.walk && stored.walk && { walk: [stored.walk.at, stored.walk.written] }),
    });
    const line = Buffer.from(verdictLogLine(verdictLogKey(seen), payload), 'utf8');
    let fd: number;
    try {
      fd = fs.openSync(
        logFile,
        fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | O_NOFOLLOW | O_NONBLOCK,
        0o600,
      );
    } catch {
      return false;
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      // A log another user owns is neither read (readLog) nor written: one they made after this build read the state
      // (in a folder others may write) was given the user's records (docs/security.md, round 27).
      if (!st.isFile() || anotherUsers(st.uid) || Number(st.size) + line.byteLength > VERDICT_LOG_MAX_BYTES)
        return false;
      // One write: lines that other builds append meanwhile land before or after it, not inside (O_APPEND).
      for (let at = 0; at < line.byteLength;) at += fs.writeSync(fd, line, at, line.byteLength - at);
      logSeen = stampOf(fs.fstatSync(fd, { bigint: true }));
      return true;
    } catch {
      // A line cut short fails its checksum: the next build drops it (and what follows) and rewrites the file.
      return false;
    } finally {
      fs.closeSync(fd);
    }
  };
  /**
   * Files are recorded by their real, absolute path: `actguy build` with a relative path and the app's Build, which
   * sends absolute ones, know the same files (docs/cache.md "Up to date"). The folder's real path (keyPath) is worked
   * out once per folder and store, not once per file (a project's motions mostly share one): a file that is itself a
   * link keeps its own name, and its record is still checked against the stamp of the file it leads to.
   */
  const folderKeys = new Map<string, string>();
  // And each path's key once per store: a build asks about each motion file several times (its stamp, its header, its
  // digest for the record of the build and for what it carries), a resolve and a join each time before.
  const fileKeys = new Map<string, string>();
  const fileKey = (path: string): string => {
    const known = fileKeys.get(path);
    if (known !== undefined) return known;
    const abs = resolve(path);
    const folder = dirname(abs);
    let key = folderKeys.get(folder);
    if (key === undefined) folderKeys.set(folder, (key = keyPath(folder)));
    const made = join(key, basename(abs));
    fileKeys.set(path, made);
    return made;
  };
  return {
    file,
    knows: (key) => stored.verdicts.has(key),
    holds(key, digest) {
      const v = stored.verdicts.get(key);
      if (!v || v.digest !== digest) return false;
      touch(v, changed.verdicts, key);
      return true;
    },
    entryDigest(key, stamp) {
      const v = stored.verdicts.get(key);
      return v?.stamp && sameStamp(v.stamp, stamp) ? v.digest : undefined;
    },
    remember(key, digest, stamp) {
      const v = stored.verdicts.get(key);
      // Already remembered as it is: no write for it.
      if (
        v &&
        v.digest === digest &&
        (stamp === undefined ? v.stamp === undefined : v.stamp !== undefined && sameStamp(v.stamp, stamp))
      )
        return;
      stored.verdicts.set(key, { digest, used: now, ...(stamp && { stamp }) });
      changed.verdicts.add(key);
      changed.forgotten.delete(key);
    },
    forget(key) {
      if (!stored.verdicts.delete(key)) return;
      changed.verdicts.delete(key);
      changed.forgotten.add(key);
    },
    digestOf(path, stamp) {
      const key = fileKey(path);
      const r = stored.files.get(key);
      if (!r || !sameStamp(r.stamp, stamp)) return undefined;
      touch(r, changed.files, key);
      return r.sha256;
    },
    headerOf(path, stamp) {
      const key = fileKey(path);
      const r = stored.files.get(key);
      if (!r || !sameStamp(r.stamp, stamp) || r.header?.reader !== COMPRESSOR_IDENTITY) return undefined;
      touch(r, changed.files, key);
      return r.header.value;
    },
    recordFile(path, stamp, sha256, header) {
      const key = fileKey(path);
      stored.files.set(key, {
        stamp,
        sha256,
        used: now,
        ...(header && { header: { reader: COMPRESSOR_IDENTITY, value: header } }),
      });
      changed.files.add(key);
    },
    sizeWalkDue(written, maxBytes) {
      const w = stored.walk;
      const due = !w || now - w.at >= WALK_AT_LEAST_EVERY_MS || w.at > now || w.written + written >= maxBytes / 100;
      stored.walk = due ? { at: now, written: 0 } : { at: w.at, written: w.written + written };
      changed.walk = true;
      return due;
    },
    save() {
      if (!dirty()) return;
      try {
        // One level at a time (a recursive mkdir loops under /proc): then the writes below find their folder there.
        if (makeStateFolder(dirname(file))) return;
      } catch {
        return;
      }
      // A few records changed (a rebuild after one motion file changed): one line appended, the file left as it is.
      if (append()) {
        clearChanges();
        return;
      }
      // Another build may have saved meanwhile: keep its records too (the newer use of each wins). A file and log with
      // the stamps they had when this build read them hold nothing this build does not have (and are not parsed again).
      const base = stampNow(file);
      const log = stampNow(logFile);
      const unchanged =
        base &&
        seen &&
        sameStamp(base, seen) &&
        (log === undefined ? logSeen === undefined : logSeen !== undefined && sameStamp(log, logSeen));
      const disk: Stored = unchanged ? emptyStored() : load();
      for (const [k, v] of disk.verdicts)
        if (!stored.verdicts.has(k) || stored.verdicts.get(k)!.used < v.used) stored.verdicts.set(k, v);
      for (const [k, v] of disk.files)
        if (!stored.files.has(k) || stored.files.get(k)!.used < v.used) stored.files.set(k, v);
      // The later walk holds; of one walk, the larger count of bytes written since.
      const dw = disk.walk;
      const sw = stored.walk;
      if (dw && (!sw || dw.at > sw.at || (dw.at === sw.at && dw.written > sw.written))) stored.walk = dw;
      const { skeletons, index } = skeletonTable();
      const newest = <T extends { used: number }>(m: Map<string, T>) =>
        [...m.entries()].sort((a, b) => b[1].used - a[1].used).slice(0, MAX_RECORDS);
      const doc = {
        tool: TOOL,
        version: VERSION,
        cache: id,
        cacheDir: real,
        verdicts: Object.fromEntries(newest(stored.verdicts).map(([k, v]) => [k, verdictRow(v)])),
        files: Object.fromEntries(newest(stored.files).map(([k, v]) => [k, fileRow(v, index)])),
        skeletons,
        ...(stored.walk && { walk: [stored.walk.at, stored.walk.written] }),
      };
      try {
        // Not flushed: a file a power cut leaves empty or short does not parse, and is dropped (docs/cache.md).
        // A new file: lines of the old log (and any a build appends to it before it is removed) are not its records.
        writeFileAtomic(file, JSON.stringify(doc), { durable: false, own: true });
        clearChanges();
        // Another build may replace it right after this one: the next save reads it again.
        seen = undefined;
        logSeen = undefined;
      } catch {
        /* a state folder that cannot be written only costs the next build time */
        return;
      }
      try {
        fs.unlinkSync(logFile);
      } catch {
        /* none there; or not removable, and then never this file's log (its lines were checksummed for another file) */
      }
    },
  };
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** A FIFO in the place of the log would block a plain open for writing until a reader came. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
