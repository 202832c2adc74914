/**
 * Frame rates and playback durations. An MT3 carries no frame rate: the game
 * plays every motion at one fixed rate (30 fps for MGS2), so a motion made at
 * another rate must be resampled before it is compressed, or it plays at the
 * wrong speed.
 */

/** The rate the game plays motions at unless a project says otherwise. */
export const DEFAULT_GAME_FPS = 30;

/** Capture and playback rates a BVH frame time is snapped to (docs/formats.md: frame rates the game can play). */
export const STANDARD_FRAME_RATES = [24, 25, 30, 48, 50, 60, 90, 100, 120, 240] as const;

/** Relative distance within which a rate is taken to be a standard one (0.01 %). */
export const FRAME_RATE_SNAP_TOLERANCE = 1e-4;

/** A rate read from a file, snapped to a standard rate when it is within 0.01 % of one. */
export interface SnappedRate {
  /** The rate to use, frames per second. */
  rate: number;
  /** The rate as the file gave it, when it was snapped (absent when used as is). */
  snappedFrom?: number;
}

/**
 * Snaps a rate within 0.01 % of a standard rate to that rate, so a BVH's
 * `Frame Time: .0083333` (119.9995 fps) is exactly 120 fps and 120 -> 30 fps
 * takes every 4th source sample, with no drift toward neighbouring samples.
 */
export function snapFrameRate(rate: number): SnappedRate {
  for (const standard of STANDARD_FRAME_RATES) {
    if (rate === standard) return { rate };
    if (Math.abs(rate - standard) <= FRAME_RATE_SNAP_TOLERANCE * standard) return { rate: standard, snappedFrom: rate };
  }
  return { rate };
}

/** Frames per second for messages: whole rates as integers, others with up to 6 decimals (29.97). */
export function formatFps(fps: number): string {
  return Number.isInteger(fps) ? String(fps) : String(Number(fps.toFixed(6)));
}

/**
 * Why a motion at `motionFps` would play wrong in a game that plays `gameFps`,
 * or undefined when the rates agree.
 */
export function frameRateMismatch(motionFps: number, gameFps: number): string | undefined {
  if (motionFps === gameFps) return undefined;
  const speed = gameFps / motionFps;
  return `the motion is ${formatFps(motionFps)} fps but the game plays motions at ${formatFps(gameFps)} fps (an MT3 stores no rate), so it would play at ${Number(speed.toFixed(3))}x speed; resample it to ${formatFps(gameFps)} fps first`;
}

/** The largest duration an effective duration may have: the signed 32-bit millisecond range. */
export const MAX_DURATION_MS = 0x7fffffff;

/**
 * Effective playback duration of a motion in whole milliseconds:
 * `round(frames / fps / speed * 1000)` (frames = N, the frame count). Throws a
 * RangeError in words when the result is not finite, rounds to 0 or exceeds
 * the signed 32-bit millisecond range; callers name the motion.
 */
export function effectiveDurationMs(frames: number, fps: number, speed: number): number {
  const exact = (frames / fps / speed) * 1000;
  if (!Number.isFinite(exact))
    throw new RangeError(
      `effective duration ${frames} frames / ${formatFps(fps)} fps / speed ${speed} is not a finite number of milliseconds`,
    );
  const ms = Math.round(exact);
  if (ms <= 0)
    throw new RangeError(
      `effective duration ${frames} frames / ${formatFps(fps)} fps / speed ${speed} rounds to ${ms} ms; a motion must last at least 1 ms`,
    );
  if (ms > MAX_DURATION_MS)
    throw new RangeError(
      `effective duration ${frames} frames / ${formatFps(fps)} fps / speed ${speed} is ${ms} ms, past the signed 32-bit millisecond range (${MAX_DURATION_MS})`,
    );
  return ms;
}
