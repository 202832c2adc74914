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
 * Safe with concurrent writers on one machine or many (a shared folder):
 * entries are written to a temp file of our naming and renamed into place
 * (same key, same bytes, so whichever rename lands last is right); a reader
 * verifies the checksum and the key, and an entry that fails is deleted and
 * recomputed. Bounded: after a build the least recently used entries go until
 * the folder is under its size limit (a hit refreshes the entry's mtime).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { COMPRESSOR_VERSION } from '../../shared/compress/version';
import type { CompressOptions } from '../../shared/compress/types';
import type { CompressedMotion } from '../../shared/project/plan';
import { isStaleTemp, ownTempName } from '../tempFiles';

/** The entry layout's version (part of every key). */
const CACHE_FORMAT = 1;
const MAGIC = 'AGC1';
const ENTRY = /^[0-9a-f]{64}\.mt3c$/;

/** Default size limit of a cache folder. */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;

declare const __ACTGUY_COMPRESSOR_DIGEST__: string | undefined;
/**
 * A digest of the compressor's source, set by scripts/build.mjs in every
 * bundle: a compressor change that forgot to bump COMPRESSOR_VERSION still
 * misses the cache. Unbundled runs (tests) use the version alone.
 */
const SOURCE_DIGEST = typeof __ACTGUY_COMPRESSOR_DIGEST__ === 'string' ? __ACTGUY_COMPRESSOR_DIGEST__ : 'unbundled';

/** JSON with object keys sorted at every level, so equal settings always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The key of one compression: the MTN bytes, the whole settings object the
 * compressor takes (every field, so new settings enter the key by themselves),
 * the compressor version and its source digest.
 */
export function cacheKey(
  mtn: Uint8Array, options: CompressOptions, compressor: { version: number; digest: string } = { version: COMPRESSOR_VERSION, digest: SOURCE_DIGEST },
  /**
   * What the bytes are when they are not the MTN compressed: the motion's file as read, and the rate a build
   * resamples it to (null: none). Reading and resampling are in the compressor digest (scripts/build.mjs), so
   * a change to either misses too.
   */
  input?: { file: 'mtn'; resampledTo: number | null },
): string {
  const h = createHash('sha256');
  h.update(canonicalJson({ format: CACHE_FORMAT, compressor: compressor.version, source: compressor.digest, options, input }));
  h.update('\0');
  h.update(mtn);
  return h.digest('hex');
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries that failed their checksum (or would not parse) and were recomputed. */
  damaged: number;
  written: number;
  /** Entries removed by the size limit. */
  evicted: number;
}

export interface BuildCache {
  readonly dir: string;
  get(key: string): CompressedMotion | undefined;
  put(key: string, value: CompressedMotion): void;
  /** Removes least recently used entries until the folder is under its limit, and orphaned temps. */
  prune(): void;
  readonly stats: CacheStats;
}

function entryPath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.mt3c`);
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

/** The entry's value, or undefined when it is damaged in any way (bad magic, checksum, length, JSON or key). */
export function decodeEntry(key: string, data: Uint8Array): CompressedMotion | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 40 || buf.toString('latin1', 0, 4) !== MAGIC) return undefined;
  const body = buf.subarray(36);
  if (!createHash('sha256').update(body).digest().equals(buf.subarray(4, 36))) return undefined;
  const len = body.readUInt32LE(0);
  if (4 + len > body.length) return undefined;
  let parsed: { key?: string } & Omit<CompressedMotion, 'bytes'>;
  try {
    parsed = JSON.parse(body.toString('utf8', 4, 4 + len));
  } catch {
    return undefined;
  }
  if (parsed.key !== key) return undefined;
  const { key: _k, ...summary } = parsed;
  const bytes = new Uint8Array(body.subarray(4 + len));
  if (bytes.byteLength !== summary.mt3Bytes) return undefined;
  return { ...summary, bytes };
}

/** Opens (creating on first write) a cache folder. */
export function openBuildCache(dir: string, options: { maxBytes?: number } = {}): BuildCache {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const stats: CacheStats = { hits: 0, misses: 0, damaged: 0, written: 0, evicted: 0 };
  return {
    dir,
    stats,
    get(key) {
      const path = entryPath(dir, key);
      let data: Buffer;
      try {
        data = fs.readFileSync(path);
      } catch {
        stats.misses++;
        return undefined;
      }
      const value = decodeEntry(key, data);
      if (!value) {
        stats.damaged++;
        stats.misses++;
        try {
          fs.unlinkSync(path);
        } catch {
          /* another process removed or replaced it */
        }
        return undefined;
      }
      stats.hits++;
      // Least recently used goes first: a hit makes the entry recent.
      const now = new Date();
      try {
        fs.utimesSync(path, now, now);
      } catch {
        /* evicted meanwhile: the value in hand is still good */
      }
      return value;
    },
    put(key, value) {
      const path = entryPath(dir, key);
      try {
        fs.mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
        const tmp = ownTempName(path, 'new');
        try {
          fs.writeFileSync(tmp, encodeEntry(key, value));
          fs.renameSync(tmp, path);
          stats.written++;
        } catch (e) {
          try {
            fs.unlinkSync(tmp);
          } catch {
            /* not written */
          }
          throw e;
        }
      } catch {
        // A cache that cannot be written (full disk, read-only share) only costs time; the build goes on.
      }
    },
    prune() {
      const files: { path: string; size: number; used: number }[] = [];
      let shards: string[];
      try {
        shards = fs.readdirSync(dir);
      } catch {
        return;
      }
      for (const shard of shards) {
        if (!/^[0-9a-f]{2}$/.test(shard)) continue;
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
            st = fs.statSync(path);
          } catch {
            continue;
          }
          if (ENTRY.test(name)) files.push({ path, size: st.size, used: st.mtimeMs });
          else if (isStaleTemp(name, st.mtimeMs)) {
            try {
              fs.unlinkSync(path);
            } catch {
              /* gone */
            }
          }
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
