/**
 * Effective durations of a project's entries as `actguy info` shows them:
 * the build's own rule (`effectiveDurationMs`, on the motion at the game's
 * rate, resampled when the project asks), computed for every motion and alias
 * even when another one cannot be read, so one bad entry does not hide the
 * rest. A motion that cannot be read or played carries its problem instead.
 */
import { FormatError, inFile } from '../errors';
import { effectiveDurationMs } from '../motion/frameRate';
import type { Motion } from '../motion/types';
import { readMtn } from '../mtn/read';
import { atGameRate, type ReadFile } from './plan';
import type { ResolvedProject } from './types';

/** One archive entry's duration, or why it has none. */
export interface EntryDuration {
  name: string;
  /** Archive index (motions first, then aliases). */
  index: number;
  /** For an alias: the motion it plays. */
  target?: string;
  speed: number;
  /** N of the motion at the project's rate (frames 0..N); absent when it could not be read. */
  frameCount?: number;
  /** The MTN's own rate and frame count, when the build resamples it. */
  resampledFrom?: { fps: number; frameCount: number };
  /** round(frames / fps / speed * 1000); absent on a problem. */
  durationMs?: number;
  /** Why there is no duration (unreadable MTN, a rate the project does not play, a speed out of range). */
  problem?: string;
}

/**
 * Every motion and then every alias of the project with its effective duration at `project.fps`. A problem is said
 * as `tell` says it (`actguy info` tells one in a file outside the project's folder by its place only).
 */
export function projectDurations(
  project: ResolvedProject,
  readFile: ReadFile,
  tell: (e: FormatError) => string = (e) => e.message,
): EntryDuration[] {
  const out: EntryDuration[] = [];
  const frames = new Map<number, number>();
  /**
   * Each file as read and decoded, or why it could not be, by path: motions that name one file read it once (a
   * project naming a sparse 750 MiB .mtn 20 times held `actguy info` 309 s; round 13, docs/security.md).
   */
  const decoded = new Map<string, { motion?: Motion; problem?: string }>();
  for (const m of project.motions) {
    const entry: EntryDuration = { name: m.name, index: m.index, speed: m.speed };
    let problem: string | undefined;
    const fail = (_where: string, detail: string) => {
      problem ??= detail;
    };
    const collect = <T>(fn: () => T): T | undefined => {
      try {
        return fn();
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        fail('', tell(e));
        return undefined;
      }
    };
    let file = decoded.get(m.mtnPath);
    if (!file) {
      file = {};
      let bytes: Uint8Array | undefined;
      try {
        bytes = readFile(m.mtnPath);
      } catch (e) {
        // A file refused by its header before it was read (electron/io/readBinary.ts) names itself and the place.
        file.problem = e instanceof FormatError ? tell(e) : `cannot read ${m.mtnPath}: ${(e as Error).message}`;
      }
      if (bytes) {
        try {
          file.motion = inFile(m.mtnPath, () => readMtn(bytes));
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          file.problem = tell(e);
        }
      }
      decoded.set(m.mtnPath, file);
    }
    if (file.problem !== undefined) fail('', file.problem);
    const asRead = file.motion;
    const played = asRead && atGameRate(m, asRead, project.fps, fail, collect);
    if (played) {
      entry.frameCount = played.frameCount;
      if (played.resampledFrom) entry.resampledFrom = played.resampledFrom;
      frames.set(m.index, played.frameCount);
      entry.durationMs = durationOrProblem(played.frameCount, project.fps, m.speed, fail);
    }
    if (problem !== undefined) entry.problem = problem;
    out.push(entry);
  }
  for (const a of project.aliases) {
    const entry: EntryDuration = { name: a.name, index: a.index, target: a.target, speed: a.speed };
    const n = frames.get(a.targetIndex);
    if (n === undefined) entry.problem = `its motion ${a.target} has no duration (see above)`;
    else {
      entry.frameCount = n;
      entry.durationMs = durationOrProblem(n, project.fps, a.speed, (_, detail) => {
        entry.problem = detail;
      });
    }
    out.push(entry);
  }
  return out;
}

function durationOrProblem(
  frames: number,
  fps: number,
  speed: number,
  fail: (where: string, detail: string) => void,
): number | undefined {
  try {
    return effectiveDurationMs(frames, fps, speed);
  } catch (e) {
    fail('', (e as Error).message);
    return undefined;
  }
}
