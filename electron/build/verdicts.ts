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
 * path, device and inode): `<state>/cache-verdicts/<id>.json`.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { makeJoint, type JointInfo } from '../../shared/motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../shared/mtn/constants';
import { canonicalPath, isInside } from '../pathPolicy';
import { writeFileAtomic } from '../fsutil';
import { COMPRESSOR_IDENTITY, makeFolderNoFollow } from './buildCache';
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

/** The per-user state folder: $ACTGUY_STATE_DIR, else the platform's place for a tool's local state. */
export function defaultStateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.ACTGUY_STATE_DIR) return resolve(env.ACTGUY_STATE_DIR);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'ActGuy', 'state');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ActGuy');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'actguy');
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
}

interface FileRecord {
  stamp: FileStamp;
  sha256: string;
  /** The motion header with the identity of the reader that validated it (another reader's is not used). */
  header?: { reader: string; value: MotionHeader };
  used: number;
}

/** The state of a verdict file, dropping every record that is not exactly of our shape. */
export function parseVerdicts(text: string, cacheId: string): Stored {
  const out: Stored = { verdicts: new Map(), files: new Map() };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return out;
  }
  if (!isRecord(doc) || doc.tool !== TOOL || doc.version !== VERSION || doc.cache !== cacheId) return out;
  const walk = doc.walk;
  if (Array.isArray(walk) && walk.length === 2 && isTime(walk[0]) && Number.isSafeInteger(walk[1]) && walk[1] >= 0)
    out.walk = { at: walk[0], written: walk[1] };
  if (isRecord(doc.verdicts))
    for (const [key, v] of Object.entries(doc.verdicts)) {
      if (out.verdicts.size >= MAX_RECORDS) break;
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
      if (out.files.size >= MAX_RECORDS) break;
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
  return out;
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
  if (isInside(real, state) || isInside(real, canonicalPath(state))) return noVerdicts();
  const file = join(state, 'cache-verdicts', `${id.slice(0, 32)}.json`);
  /** The stamp the verdict file had when this build read it (undefined: none read, or written since). */
  let seen: FileStamp | undefined;
  const stampNow = (): FileStamp | undefined => {
    try {
      const st = fs.lstatSync(file, { bigint: true });
      return st.isFile() ? stampOf(st) : undefined;
    } catch {
      return undefined;
    }
  };
  const load = (): Stored => {
    seen = undefined;
    try {
      const st = fs.lstatSync(file, { bigint: true });
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return { verdicts: new Map(), files: new Map() };
      // Taken before the read: a file replaced meanwhile has another stamp at save time, and is read again then.
      seen = stampOf(st);
      return parseVerdicts(fs.readFileSync(file, 'utf8'), id);
    } catch {
      return { verdicts: new Map(), files: new Map() };
    }
  };
  const stored = load();
  const now = Date.now();
  let dirty = false;
  /** Marks a record used now; only a use a day newer is worth a write (an unchanged rebuild then writes nothing). */
  const touch = (r: { used: number }) => {
    if (now - r.used < USE_GRANULARITY_MS) return;
    r.used = now;
    dirty = true;
  };
  return {
    file,
    knows: (key) => stored.verdicts.has(key),
    holds(key, digest) {
      const v = stored.verdicts.get(key);
      if (!v || v.digest !== digest) return false;
      touch(v);
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
      dirty = true;
    },
    forget(key) {
      dirty = stored.verdicts.delete(key) || dirty;
    },
    digestOf(path, stamp) {
      const r = stored.files.get(path);
      if (!r || !sameStamp(r.stamp, stamp)) return undefined;
      touch(r);
      return r.sha256;
    },
    headerOf(path, stamp) {
      const r = stored.files.get(path);
      if (!r || !sameStamp(r.stamp, stamp) || r.header?.reader !== COMPRESSOR_IDENTITY) return undefined;
      touch(r);
      return r.header.value;
    },
    recordFile(path, stamp, sha256, header) {
      stored.files.set(path, {
        stamp,
        sha256,
        used: now,
        ...(header && { header: { reader: COMPRESSOR_IDENTITY, value: header } }),
      });
      dirty = true;
    },
    sizeWalkDue(written, maxBytes) {
      const w = stored.walk;
      const due = !w || now - w.at >= WALK_AT_LEAST_EVERY_MS || w.at > now || w.written + written >= maxBytes / 100;
      stored.walk = due ? { at: now, written: 0 } : { at: w.at, written: w.written + written };
      dirty = true;
      return due;
    },
    save() {
      if (!dirty) return;
      // Another build may have saved meanwhile: keep its records too (the newer use of each wins). A file with the
      // stamp it had when this build read it holds nothing this build does not have (and is not parsed again).
      const now = stampNow();
      const disk: Stored = now && seen && sameStamp(now, seen) ? { verdicts: new Map(), files: new Map() } : load();
      for (const [k, v] of disk.verdicts)
        if (!stored.verdicts.has(k) || stored.verdicts.get(k)!.used < v.used) stored.verdicts.set(k, v);
      for (const [k, v] of disk.files)
        if (!stored.files.has(k) || stored.files.get(k)!.used < v.used) stored.files.set(k, v);
      // The later walk holds; of one walk, the larger count of bytes written since.
      const dw = disk.walk;
      const sw = stored.walk;
      if (dw && (!sw || dw.at > sw.at || (dw.at === sw.at && dw.written > sw.written))) stored.walk = dw;
      const skeletons: unknown[][] = [];
      const indexOfText = new Map<string, number>();
      const indexOfArray = new Map<readonly JointInfo[], number>();
      const skeletonIndex = (joints: readonly JointInfo[]): number => {
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
      const newest = <T extends { used: number }>(m: Map<string, T>) =>
        [...m.entries()].sort((a, b) => b[1].used - a[1].used).slice(0, MAX_RECORDS);
      const doc = {
        tool: TOOL,
        version: VERSION,
        cache: id,
        cacheDir: real,
        verdicts: Object.fromEntries(
          newest(stored.verdicts).map(([k, { digest, used, stamp: s }]) => [
            k,
            s ? [digest, used, s.size, s.mtimeNs, s.ctimeNs, s.ino, s.dev] : [digest, used],
          ]),
        ),
        files: Object.fromEntries(
          newest(stored.files).map(([k, v]) => {
            const row: unknown[] = [
              v.stamp.size,
              v.stamp.mtimeNs,
              v.stamp.ctimeNs,
              v.stamp.ino,
              v.stamp.dev,
              v.sha256,
              v.used,
            ];
            const h = v.header;
            if (h) row.push([h.reader, h.value.fps, h.value.frameCount, skeletonIndex(h.value.joints)]);
            return [k, row];
          }),
        ),
        skeletons,
        ...(stored.walk && { walk: [stored.walk.at, stored.walk.written] }),
      };
      try {
        // One level at a time (a recursive mkdir loops under /proc): then writeFileAtomic finds its folder there.
        if (makeFolderNoFollow(dirname(file))) return;
        // Not flushed: a file a power cut leaves empty or short does not parse, and is dropped (docs/cache.md).
        writeFileAtomic(file, JSON.stringify(doc), { durable: false });
        dirty = false;
        // Another build may replace it right after this one: the next save reads it again.
        seen = undefined;
      } catch {
        /* a state folder that cannot be written only costs the next build time */
      }
    },
  };
}
