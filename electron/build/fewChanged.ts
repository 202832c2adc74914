/**
 * A one-shot rebuild in which only a few small motions changed compresses them on the build's own thread instead of
 * starting a worker for them (docs/cache.md, "A few motions changed"). In a new `actguy build` process a worker costs
 * its start-up (Node's bootstrap and the compressor's bundle compiled again, on the 1,000-clip bench project about as
 * long as the rest of the rebuild), while the one short clip that changed compresses in a fraction of that on the
 * thread that is running anyway. The code is the same either way (answerPoolRequest), so the bytes are the same.
 *
 * Ctrl+C stays prompt: what this thread compresses is bounded (at most FEW_MOTIONS motions whose files, and whose
 * motions as played, an MTN of their frames after the project's resampling, hold at most FEW_MOTION_BYTES together,
 * below `actguy compress`'s own off-thread limit, SHARE_MIN_MTN_BYTES), and a signal that came in meanwhile is handled
 * before the outputs are written (interrupt.ts's checkpoint). By the file alone, a received 212 KB motion resampled
 * from 0.0102 fps to 57,000 frames was compressed here for 16 s, Ctrl+C waiting (docs/security.md, round 37).
 */
import { statSync } from 'node:fs';
import { mtnByteSize } from '../../shared/mtn/constants';
import type { KnownMotion, PreparedBuild } from '../../shared/project/plan';
import { inProcessCompressor, SHARE_MIN_MTN_BYTES, startWhenCold, type MotionCompressor } from './compressPool';
import type { FileStamp, VerdictStore } from './verdicts';

/** At most this many motions to compress (or whose cache entry to verify) go to the build's own thread. */
export const FEW_MOTIONS = 2;
/** ...and only when their files hold at most this many bytes together. */
export const FEW_MOTION_BYTES = 256 * 1024;

// The bound must stay under the size from which `actguy compress` itself compresses off its thread for Ctrl+C.
if (FEW_MOTION_BYTES >= SHARE_MIN_MTN_BYTES) throw new Error('fewChanged: FEW_MOTION_BYTES must stay below 512 KiB');

interface FewChanged {
  /**
   * prepareBuild's `known`: as startWhenCold's, but on a rebuild the pool's workers are started early only once more
   * motion files than FEW_MOTIONS, or more bytes than FEW_MOTION_BYTES, are not known from the local verdicts.
   */
  known: (mtnPath: string) => KnownMotion | undefined;
  /**
   * The compressor for this build's compression: the build's own thread when the verdicts were there, the pool was
   * not started, no budget is fitted, and the motions the last build's outputs do not hold (`carried`: their archive
   * indices; undefined: none) are at most FEW_MOTIONS with files of at most FEW_MOTION_BYTES together (by the stamp
   * the build took of each, `stampOf`, and by the motion as played when that is larger); else the pool.
   */
  compressorFor(
    prepared: PreparedBuild,
    carried: ReadonlySet<number> | undefined,
    stampOf: (path: string) => FileStamp | undefined,
  ): MotionCompressor;
}

/** The size of a file as a plain stat gives it, or Infinity when it cannot be had (then it is not small). */
function sizeOnDisk(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return Infinity;
  }
}

/**
 * `pool`: the compressor the build made for its jobs; `remembered`: the local verdicts of its cache folder, undefined
 * on a cold build or without a cache (the pool is then started at once, as startWhenCold does).
 */
export function fewChanged(
  pool: MotionCompressor,
  remembered: VerdictStore | undefined,
  known: (mtnPath: string) => KnownMotion | undefined,
  sizeOf: (path: string) => number = sizeOnDisk,
): FewChanged {
  // One job is the build's own thread already; a cold build starts the pool at once (startWhenCold).
  if (pool.jobs <= 1 || !pool.start || !remembered)
    return { known: startWhenCold(pool, remembered, known), compressorFor: () => pool };
  let unknown = 0;
  let unknownBytes = 0;
  let started = false;
  return {
    known: (mtnPath) => {
      const k = known(mtnPath);
      if (!k) {
        unknown++;
        if (!started) unknownBytes += sizeOf(mtnPath);
        if (started || unknown > FEW_MOTIONS || unknownBytes > FEW_MOTION_BYTES) {
          started = true;
          pool.start!(unknown);
        }
      }
      return k;
    },
    compressorFor: (prepared, carried, stampOf) => {
      if (started || prepared.project.budget) return pool;
      let count = 0;
      let bytes = 0;
      for (let k = 0; k < prepared.motions.length; k++) {
        if (carried?.has(k)) continue;
        if (++count > FEW_MOTIONS) return pool;
        // As played: a motion the project resamples is compressed at its frames, not its file's (round 37).
        const m = prepared.motions[k];
        bytes += Math.max(stampOf(m.resolved.mtnPath)?.size ?? Infinity, mtnByteSize(m.frameCount, m.joints.length));
        if (bytes > FEW_MOTION_BYTES) return pool;
      }
      return inProcessCompressor();
    },
  };
}
