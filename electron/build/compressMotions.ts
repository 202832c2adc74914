/**
 * The compression stage of a build, shared by `actguy build` and the app:
 * look every motion up in the cache, compress the rest on the pool (largest
 * first, so the last job to finish is a short one; each dispatched as soon as
 * it is hashed), store new results in the
 * cache, and report each finished motion with the time left. Results come
 * back in archive order whatever order they finished in.
 */
import type { CompressOptions } from '../../shared/compress/types';
import { FormatError } from '../../shared/errors';
import { BuildEta } from '../../shared/project/eta';
import { compressOptionsFor, type CompressedMotion, type PreparedBuild, type ReadFile } from '../../shared/project/plan';
import { cacheKey, type BuildCache } from './buildCache';
import type { MotionCompressor } from './compressPool';

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
  onMotion?: (m: MotionDone) => void;
  /** The clock (tests make it step). */
  now?: () => number;
  /**
   * The bytes of a motion's file as the build read it (recordingReader), by path: the cache is looked up by the
   * file itself (an unchanged rebuild never writes a motion out to hash it), and the pool compresses it.
   */
  inputBytes: (path: string) => Uint8Array | undefined;
}

/** A project reader that remembers the bytes it returned, by path (compressMotions' `inputBytes`). */
export function recordingReader(read: ReadFile): { read: ReadFile; bytesOf: (path: string) => Uint8Array | undefined } {
  const seen = new Map<string, Uint8Array>();
  return {
    read: (path) => {
      const bytes = read(path);
      seen.set(path, bytes);
      return bytes;
    },
    bytesOf: (path) => seen.get(path),
  };
}

export type CompressMotionsResult = { ok: true; results: CompressedMotion[] } | { ok: false; errors: FormatError[] };

/** Compresses every motion of a prepared build (see the file comment). Errors name the motion's MTN. */
export async function compressMotions(prepared: PreparedBuild, options: CompressMotionsOptions): Promise<CompressMotionsResult> {
  const now = options.now ?? Date.now;
  const count = prepared.motions.length;
  const results: (CompressedMotion | undefined)[] = new Array(count);
  const errors: { index: number; error: FormatError }[] = [];
  let done = 0;
  // Largest first, so the last job to finish is a short one. Each motion's file is hashed and looked up
  // right before it is dispatched, so the pool starts on the largest motion while the rest are still being
  // hashed (on a cold build of many motions the hashing is a few percent of the work, all of it serial).
  const order = prepared.motions
    .map((p, index) => ({ index, weight: Math.max(1, (p.frameCount + 1) * p.joints.length) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const eta = new BuildEta(new Map(order.map((o) => [o.index, o.weight])), now());
  const running: Promise<void>[] = [];
  for (const { index } of order) {
    const p = prepared.motions[index];
    // The motion's file as read, and the rate it is resampled to: what the cache key holds and what the pool
    // compresses (it resamples there: the bytes are the same, resampling is deterministic), so a cold build's
    // main thread neither resamples nor writes each motion out.
    const settings = compressOptionsFor(p);
    const file = options.inputBytes(p.resolved.mtnPath);
    if (!file) throw new Error(`compressMotions: ${p.resolved.mtnPath} was not read by this build's reader (recordingReader)`);
    const resampleTo = p.resampledFrom ? prepared.project.fps : undefined;
    const key = cacheKey(file, settings, undefined, { file: 'mtn', resampledTo: resampleTo ?? null });
    const hit = options.cache?.get(key);
    if (hit) {
      results[index] = hit;
      eta.drop(index);
      done++;
      options.onMotion?.({ index, count, name: p.resolved.name, result: hit, cached: true, done, etaMs: eta.remainingMs(now()) });
      continue;
    }
    running.push((async () => {
      try {
        const result = await options.compressor.compress(file, settings, resampleTo);
        results[index] = result;
        options.cache?.put(key, result);
        eta.done(index);
        done++;
        options.onMotion?.({ index, count, name: p.resolved.name, result, cached: false, done, etaMs: eta.remainingMs(now()) });
      } catch (e) {
        if (e instanceof FormatError) errors.push({ index, error: e.withFile(p.resolved.mtnPath) });
        else errors.push({ index, error: inFileError(p.resolved.mtnPath, e) });
      }
    })());
    // Let finished workers take their next job while the rest is hashed.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(running);
  options.cache?.prune();
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.index - b.index).map((e) => e.error) };
  return { ok: true, results: results as CompressedMotion[] };
}

/** An unexpected failure (a worker that died) as a FormatError naming the motion's file. */
function inFileError(file: string, e: unknown): FormatError {
  return new FormatError('MTN', `compression failed: ${e instanceof Error ? e.message : String(e)}`, {}, file);
}
