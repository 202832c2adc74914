/**
 * The compression stage of a build, shared by `actguy build` and the app:
 * look every motion up in the cache, compress the rest on the pool (largest
 * first, so the last job to finish is a short one; each dispatched as soon as
 * it is hashed), store new results in the
 * cache, and report each finished motion with the time left. Results come
 * back in archive order whatever order they finished in.
 */
import { isUnreachableSummary } from '../../shared/compress/unreachable';
import type { CompressOptions } from '../../shared/compress/types';
import { BuildEta } from '../../shared/project/eta';
import { FormatError, inFile, isBundleRefusal } from '../../shared/errors';
import { readMtn } from '../../shared/mtn/read';
import {
  compressOptionsFor,
  type CompressedMotion,
  type KnownMotion,
  type PreparedBuild,
  type PreparedMotion,
  type ReadFile,
} from '../../shared/project/plan';
import { statSync } from 'node:fs';
import { cacheKeyOfDigest, sha256Hex, type BuildCache, type CacheCandidate } from './buildCache';
import type { MotionCompressor } from './compressPool';
import { noVerdicts, stampOf, type FileStamp, type MotionHeader, type VerdictStore } from './verdicts';
import { noteInputRead, plainIdentityFields } from '../tempFiles';

export interface MotionDone {
  /** Archive index. */
  index: number;
  count: number;
  name: string;
  result: CompressedMotion;
  /** Taken from the cache. */
  cached: boolean;
  /** Motions finished so far, this one included. */
  done: number;
  /** Milliseconds left (null until the first compression finished). */
  etaMs: number | null;
}

export interface CompressMotionsOptions {
  compressor: MotionCompressor;
  cache?: BuildCache;
  /** What this user's builds already verified in `cache` (verdicts.ts); default: nothing remembered. */
  verdicts?: VerdictStore;
  onMotion?: (m: MotionDone) => void;
  /**
   * Work for the build's own thread while it has nothing left but to wait for the pool: called again and again
   * (the pool's answers are taken between calls) until the pool is done or it returns false (nothing left to do).
   * Each call should be short (a few ms): the pool's last answer waits for it.
   */
  whileWaiting?: () => boolean;
  /** The clock (tests make it step). */
  now?: () => number;
  /**
   * The bytes of a motion's file as the build read it (recordingReader), by path: the cache is looked up by the
   * file itself (an unchanged rebuild never writes a motion out to hash it), and the pool compresses it. A file
   * prepareBuild knew from the local verdicts is read here, only when needed (may throw a FormatError).
   */
  inputBytes: (path: string) => Uint8Array | undefined;
  /** The stamp (size, times, inode) of a file as it was read, when it held still while read (recordingReader). */
  inputStamp?: (path: string) => FileStamp | undefined;
  /** Motions the last build's outputs may hold (lastBuild.ts): see CarryFromLastBuild. */
  carry?: CarryFromLastBuild;
}

/**
 * Motions whose results the last build's outputs may already hold (lastBuild.ts): `expected`, by archive index, and
 * `take`, which reads those outputs (or waits for the reads begun when the build began: lastBuild.ts
 * readCarriedAhead) and gives the results it could take from them. `take` is called once, after every motion not
 * expected there went to the pool, so that reading the old outputs overlaps compressing what changed. A motion `take` gives is reported as finished (from the cache) and neither looked up nor compressed; an
 * expected motion it does not give is looked up and compressed as any other.
 */
export interface CarryFromLastBuild {
  expected: ReadonlySet<number>;
  take: () =>
    ReadonlyMap<number, CompressedMotion> | undefined | Promise<ReadonlyMap<number, CompressedMotion> | undefined>;
  /**
   * Whether the cache entries of the motions taken are made recent (BuildCache.touch); false when the record of the
   * last build says they were within a day (lastBuildUse).
   */
  refresh: boolean;
}

/** The cache key of a motion compressed with `settings` from a file of SHA-256 `digest`, resampled to `resampleTo`. */
function motionKeyOfDigest(digest: string, settings: CompressOptions, resampleTo: number | undefined): string {
  return cacheKeyOfDigest(digest, settings, undefined, { file: 'mtn', resampledTo: resampleTo ?? null });
}

/**
 * The cache key of motion `k` of `prepared`, its file's SHA-256 being `digest`: the key compressMotions looks it up
 * by (a build that does not look it up, being up to date, still makes its entry recent: touchEntriesOf).
 */
export function motionCacheKey(prepared: PreparedBuild, k: number, digest: string): string {
  const p = prepared.motions[k];
  return motionKeyOfDigest(digest, compressOptionsFor(p), p.resampledFrom ? prepared.project.fps : undefined);
}

/**
 * A project reader that remembers the bytes it returned, by path (compressMotions' `inputBytes`), and with
 * `stat`, each file's stamp when the stamp was the same before and after the read (`inputStamp`).
 *
 * With `memo` (the local verdicts), `known` gives prepareBuild the remembered header of a motion file whose
 * stamp is the one recorded with it, and the file is then read only when its bytes are needed (`bytesOf`),
 * and only if its stamp is still that one: a file changed since is an error naming it (docs/cache.md).
 */
export function recordingReader(
  read: ReadFile,
  stat?: (path: string) => FileStamp | undefined,
  memo?: VerdictStore,
): {
  read: ReadFile;
  bytesOf: (path: string) => Uint8Array | undefined;
  stampOf: (path: string) => FileStamp | undefined;
  known: (path: string) => KnownMotion | undefined;
} {
  const seen = new Map<string, Uint8Array>();
  const stamps = new Map<string, FileStamp>();
  /** Files known from the memo and not read yet. */
  const unread = new Set<string>();
  const sameStamp = (a: FileStamp | undefined, b: FileStamp | undefined) =>
    a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
  const readRecording: ReadFile = (path, as) => {
    const before = stat?.(path);
    const bytes = read(path, as);
    seen.set(path, bytes);
    const after = before && stat?.(path);
    if (sameStamp(before, after)) stamps.set(path, after!);
    else stamps.delete(path);
    return bytes;
  };
  const bytesOf = (path: string) => {
    if (!unread.has(path)) return seen.get(path);
    const remembered = stamps.get(path);
    const bytes = readRecording(path);
    unread.delete(path);
    if (!sameStamp(stamps.get(path), remembered))
      throw new FormatError('MTN', 'the file changed while the build ran (build again)', {}, path);
    return bytes;
  };
  return {
    read: readRecording,
    bytesOf,
    stampOf: (path) => stamps.get(path),
    known: (path) => {
      const stamp = memo && stat?.(path);
      const header = stamp && memo.headerOf(path, stamp);
      // The digest is what the cache key needs without the bytes: a header alone is no use.
      if (!header || !memo.digestOf(path, stamp)) return undefined;
      stamps.set(path, stamp);
      unread.add(path);
      return { ...header, load: () => inFile(path, () => readMtn(bytesOf(path)!)) };
    },
  };
}

/** The stamp of a file from the file system (recordingReader's `stat`), undefined when it cannot be had. */
export function fileStamp(path: string): FileStamp | undefined {
  try {
    // A motion the verdicts know is not read: its stamp is what this build took of it, and the sweep keeps it too
    // (by its identity as a plain stat gives it, as the readers note theirs).
    // One stat, the exact one: a plain stat besides (for noteInputRead) cost a system call and four Dates per file,
    // a thousand of each on every rebuild of the bench project.
    const st = statSync(path, { bigint: true });
    noteInputRead(plainIdentityFields(st) ?? statSync(path));
    return stampOf(st);
  } catch {
    return undefined;
  }
}

type CompressMotionsResult = { ok: true; results: CompressedMotion[] } | { ok: false; errors: FormatError[] };

/**
 * Compresses every motion of a prepared build (see the file comment). Errors name the motion's MTN. A cache
 * entry is used only once verified against the motion (verifyCompressed, on the pool), or when this user's
 * builds verified that very entry before (the local verdicts); one that does not hold is discarded and the
 * motion compressed (docs/cache.md).
 */
export async function compressMotions(
  prepared: PreparedBuild,
  options: CompressMotionsOptions,
): Promise<CompressMotionsResult> {
  const now = options.now ?? Date.now;
  const count = prepared.motions.length;
  const results: (CompressedMotion | undefined)[] = new Array(count);
  const errors: { index: number; error: FormatError }[] = [];
  /** The pool's worker bundle was refused: the installation is damaged, which no motion's file is to blame for. */
  let refusal: Error | undefined;
  const cache = options.cache;
  const verdicts = options.verdicts ?? noVerdicts();
  let done = 0;
  // Largest first, so the last job to finish is a short one. Each motion's file is hashed and looked up
  // right before it is dispatched, so the pool starts on the largest motion while the rest are still being
  // hashed (on a cold build of many motions the hashing is a few percent of the work, all of it serial).
  const order = prepared.motions
    .map((p, index) => ({ index, weight: Math.max(1, (p.frameCount + 1) * p.joints.length) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const eta = new BuildEta(new Map(order.map((o) => [o.index, o.weight])), now());
  const running: Promise<void>[] = [];
  const finish = (index: number, name: string, result: CompressedMotion, cached: boolean) => {
    results[index] = result;
    if (cached) eta.drop(index);
    else eta.done(index);
    done++;
    options.onMotion?.({ index, count, name, result, cached, done, etaMs: eta.remainingMs(now()) });
  };
  /** What the cache key holds and what the pool compresses, for the motion at `index`. */
  const inputOf = (index: number) => {
    const p = prepared.motions[index];
    const path = p.resolved.mtnPath;
    return {
      p,
      path,
      // The motion's file as read, and the rate it is resampled to: the pool resamples (the bytes are the same,
      // resampling is deterministic), so a cold build's main thread neither resamples nor writes each motion out.
      settings: compressOptionsFor(p),
      resampleTo: p.resampledFrom ? prepared.project.fps : undefined,
      fileOf: (): Uint8Array => {
        const bytes = options.inputBytes(path);
        if (!bytes) throw new Error(`compressMotions: ${path} was not read by this build's reader (recordingReader)`);
        return bytes;
      },
    };
  };
  type MotionInput = ReturnType<typeof inputOf>;
  /** The cache key of a motion (undefined without a cache), or null when its file failed (the error is recorded). */
  const keyOf = (index: number, { p, path, settings, resampleTo, fileOf }: MotionInput): string | undefined | null => {
    try {
      return (
        cache &&
        motionKeyOfDigest(
          inputDigest(path, fileOf, options.inputStamp, verdicts, headerOf(p, prepared.project.fps)),
          settings,
          resampleTo,
        )
      );
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      errors.push({ index, error: e.withFile(path) });
      return null;
    }
  };
  /** Uses the motion's entry when this machine verified that very entry before; else dispatches it to the pool. */
  const lookUp = async (
    index: number,
    { p, path, settings, resampleTo, fileOf }: MotionInput,
    key: string | undefined,
  ): Promise<void> => {
    // An entry file whose stamp is the one remembered with its verdict is not hashed again (docs/cache.md).
    const candidate = key ? cache!.read(key, (stamp) => verdicts.entryDigest(key, stamp)) : undefined;
    if (candidate && verdicts.holds(candidate.key, candidate.digest)) {
      const remembered = rememberedValue(candidate);
      if (remembered) {
        const stamp = cache!.accept(candidate);
        if (stamp) verdicts.remember(candidate.key, candidate.digest, stamp);
        finish(index, p.resolved.name, remembered, true);
        return;
      }
    }
    running.push(
      (async () => {
        try {
          let result: CompressedMotion;
          let cached = false;
          const file = fileOf();
          if (candidate) {
            const outcome = await options.compressor.verifyOrCompress(file, settings, resampleTo, {
              bytes: candidate.bytes,
              claim: candidate.claim,
            });
            result = outcome.result;
            cache!.stats.verified++;
            if (outcome.candidate === 'accepted') {
              verdicts.remember(candidate.key, candidate.digest, cache!.accept(candidate));
              cached = true;
            } else {
              cache!.reject(candidate);
              verdicts.forget(candidate.key);
            }
          } else result = await options.compressor.compress(file, settings, resampleTo);
          if (!cached && cache && key) {
            cache.stats.misses++;
            const written = cache.put(key, result);
            // Our own compression: what this build wrote holds by construction.
            if (written) verdicts.remember(key, written.digest, written.stamp);
          }
          finish(index, p.resolved.name, result, cached);
        } catch (e) {
          if (isBundleRefusal(e)) refusal ??= e as Error;
          else if (e instanceof FormatError) errors.push({ index, error: e.withFile(path) });
          else errors.push({ index, error: inFileError(path, e) });
        }
      })(),
    );
    // Let finished workers take their next job while the rest is hashed.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  // The motions with no verdict on this machine (a changed file, a new motion, an entry never verified here) go to
  // the pool first, so that their compression, and a worker's start, overlap looking up the rest (on a rebuild
  // after one file changed, reading and parsing the other entries).
  const known: { index: number; input: MotionInput; key: string }[] = [];
  const place = async (index: number) => {
    const input = inputOf(index);
    const key = keyOf(index, input);
    if (key === null) return;
    if (key !== undefined && verdicts.knows(key)) known.push({ index, input, key });
    else await lookUp(index, input, key);
  };
  // The motions the last build's outputs may hold wait until the others went to the pool, and those outputs are
  // read while it compresses them (on a rebuild after one file changed, the one compression and the reading).
  const expected: number[] = [];
  for (const { index } of order) {
    if (options.carry?.expected.has(index)) expected.push(index);
    else await place(index);
  }
  if (options.carry && expected.length) {
    const carried = await options.carry.take();
    for (const index of expected) {
      const result = carried?.get(index);
      if (!result) {
        await place(index);
        continue;
      }
      finish(index, prepared.motions[index].resolved.name, result, true);
      // Its entry is in use as much as a hit's: made recent too, or the size limit evicts it first (docs/cache.md);
      // not when the last build's record says it was made recent within a day (lastBuildUse).
      const key = cache && options.carry.refresh && keyOf(index, inputOf(index));
      if (key) cache!.touch(key);
    }
  }
  for (const { index, input, key } of known) await lookUp(index, input, key);
  const all = Promise.all(running);
  if (options.whileWaiting && running.length > 0) {
    const pool = { done: false };
    const over = () => {
      pool.done = true;
    };
    all.then(over, over);
    // A turn of the event loop first: answers already there are taken before any of the waiting time is spent.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (!pool.done && options.whileWaiting()) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await all;
  // Thrown, once, as it is: `actguy build` prints it and the app's build worker reports it (buildJob.ts).
  if (refusal) throw refusal;
  // Only a build that added entries can have grown the folder past its limit (and a rebuild skips the walk);
  // one that added a few walks it only when this user's builds wrote a hundredth of the limit since the last
  // walk, or a day went by (docs/cache.md, "Limits").
  if (cache && cache.stats.written > 0 && verdicts.sizeWalkDue(cache.stats.writtenBytes, cache.maxBytes)) cache.prune();
  verdicts.save();
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.index - b.index).map((e) => e.error) };
  return { ok: true, results: results as CompressedMotion[] };
}

/**
 * The SHA-256 of a motion's file: remembered when its stamp is unchanged since a build recorded it, else hashed
 * and recorded, with the header of the motion prepareBuild read and validated from those very bytes.
 */
function inputDigest(
  path: string,
  bytes: () => Uint8Array,
  stampOf: ((path: string) => FileStamp | undefined) | undefined,
  verdicts: VerdictStore,
  header: MotionHeader,
): string {
  const stamp = stampOf?.(path);
  const known = stamp && verdicts.digestOf(path, stamp);
  if (known) {
    // A record from before headers were remembered gains one (the bytes read were the recorded ones: same stamp).
    if (!verdicts.headerOf(path, stamp)) verdicts.recordFile(path, stamp, known, header);
    return known;
  }
  const digest = sha256Hex(bytes());
  if (stamp) verdicts.recordFile(path, stamp, digest, header);
  return digest;
}

/** The header of a prepared motion's file as read (before any resampling). */
function headerOf(p: PreparedMotion, fps: number): MotionHeader {
  return {
    fps: p.resampledFrom?.fps ?? fps,
    frameCount: p.resampledFrom?.frameCount ?? p.frameCount,
    joints: p.joints,
  };
}

/**
 * The value of an entry whose very bytes were verified before (its summary was then exactly the recomputed
 * one), shape-checked all the same: a local verdict file is input too, and a wrong one must not crash a build.
 */
function rememberedValue(c: CacheCandidate): CompressedMotion | undefined {
  const v = c.claim as Partial<CompressedMotion>;
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  const channelOk = (ch: unknown) => {
    const k = ch as CompressedMotion['channels'][number];
    return (
      k !== null &&
      typeof k === 'object' &&
      typeof k.kind === 'string' &&
      num(k.joint) &&
      num(k.tolerance) &&
      num(k.maxError) &&
      num(k.maxErrorFrame) &&
      typeof k.met === 'boolean'
    );
  };
  const warningOk = (w: unknown) =>
    w !== null && typeof w === 'object' && typeof (w as { message?: unknown }).message === 'string';
  const oe = v.objectError;
  const oeOk =
    oe === null ||
    (oe !== undefined &&
      typeof oe === 'object' &&
      Array.isArray(oe.jointMaxError) &&
      oe.jointMaxError.every(num) &&
      Array.isArray(oe.jointMaxErrorFrame) &&
      oe.jointMaxErrorFrame.every(num) &&
      num(oe.maxError) &&
      num(oe.shell));
  const ok =
    num(v.totalKeys) &&
    v.mt3Bytes === c.bytes.byteLength &&
    num(v.mtnBytes) &&
    num(v.ratio) &&
    num(v.ms) &&
    typeof v.method === 'string' &&
    Array.isArray(v.channels) &&
    v.channels.every(channelOk) &&
    Array.isArray(v.warnings) &&
    v.warnings.every(warningOk) &&
    oeOk &&
    (v.unreachable === undefined || isUnreachableSummary(v.unreachable)) &&
    (v.skeleton === undefined || (v.skeleton !== null && typeof v.skeleton === 'object'));
  return ok ? ({ ...v, bytes: c.bytes } as CompressedMotion) : undefined;
}

/** An unexpected failure (a worker that died) as a FormatError naming the motion's file. */
function inFileError(file: string, e: unknown): FormatError {
  return new FormatError('MTN', `compression failed: ${e instanceof Error ? e.message : String(e)}`, {}, file);
}
