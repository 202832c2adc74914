/**
 * How a build uses the record of its project's last build (lastBuild.ts, docs/cache.md "Up to date"): the one path
 * `actguy build` (build.ts) and the app's Build (project/buildJob.ts in the build worker, the commit and the record's
 * writing in main, project/buildRunner.ts) both take, with the same checks: the record is read as untrusted input
 * (readLastBuild, upToDate with summaryAsBuilt, carryCandidates, readCarriedAhead's checks) and can only make a build do less when
 * it matches the build exactly.
 */
import {
  motionReportEntry,
  type BuildReportMotion,
  type CompressedMotion,
  type MotionReportPart,
  type PreparedBuild,
} from '../../shared/project/plan';
import type { ResolvedProject } from '../../shared/project/types';
import * as fs from 'node:fs';
import { openBuildCache, REFRESH_MS } from './buildCache';
import { motionCacheKey, type CarryFromLastBuild } from './compressMotions';
import type { FileStamp } from './fileStamp';
import {
  carryCandidates,
  lastBuildPlace,
  lastBuildTarget,
  pendingLastBuild,
  readCarriedAhead,
  readLastBuild,
  upToDate,
  warmPlanDigest,
  type BuildSummary,
  type Carried,
  type LastBuildTarget,
  type PendingLastBuild,
} from './lastBuild';
import { defaultStateDir, type VerdictStore } from './verdicts';

/** What a build does with its record (lastBuildUse): one per build. */
interface LastBuildUse {
  /** Where the record lives (lastBuildPlace). */
  readonly file: string;
  readonly target: LastBuildTarget;
  /**
   * Once the inputs are read (prepareBuild), with the verdicts that know the motion files: `upToDate`, the recorded
   * summary, when the build has nothing to do (the cache entries of its motions are then made recent: they are in
   * use); else `carry`, what compressMotions may take from the last build's outputs (undefined: nothing).
   */
  begin(prepared: PreparedBuild, verdicts: VerdictStore): { upToDate?: BuildSummary; carry?: CarryFromLastBuild };
  /** What the build took from the last build's outputs, once compressMotions is done (undefined: nothing). */
  carried(): Carried | undefined;
  /**
   * Work for the build's idle time while the pool compresses the motions that changed, a few ms a call; false when
   * none is left: the costly parts of the plan's digest (warmPlanDigest), which the record of this build needs, then
   * the report entries of the carried motions (made from their figures, for the report's totals and warnings), which
   * the assembly needs. Both were made after the pool's last answer before.
   */
  idle(prepared: PreparedBuild): boolean;
  /**
   * assembleBuild's report parts: a carried motion's entry is the last build's, byte for byte; any other's is
   * `made`'s (the parts made while waiting), else one made now, so that the record can say where each lies.
   */
  parts(
    prepared: PreparedBuild,
    made?: (k: number, r: CompressedMotion) => MotionReportPart | undefined,
  ): (k: number, r: CompressedMotion) => MotionReportPart | undefined;
  /**
   * The record of this build before its commit (pendingLastBuild), or undefined when none can be kept (then the old
   * one goes, writeLastBuild): kept only for the three outputs, and with the verdicts the compression used.
   */
  pending(
    prepared: PreparedBuild,
    verdicts: VerdictStore | undefined,
    summary: BuildSummary,
    outputCount: number,
    results: readonly CompressedMotion[],
    fragments: readonly [number, number][] | undefined,
  ): PendingLastBuild | undefined;
}

/**
 * The record's use for a build of `project` (read from `projectFile`), or undefined when the build keeps none:
 * `eligible` false (the caller's own reasons: a dry run, a budget, MSH outputs, no cache), or the state folder
 * lies where a record may not (lastBuildPlace). `stampOf`: the stamp of an input file as this build read it
 * (recordingReader's), undefined for one it did not read from disk as it is (an unsaved text in the app).
 */
export function lastBuildUse(options: {
  projectFile: string;
  project: ResolvedProject;
  cacheDir: string | null;
  stateDir?: string;
  eligible: boolean;
  stampOf: (path: string) => FileStamp | undefined;
}): LastBuildUse | undefined {
  const { project, cacheDir, stampOf } = options;
  if (!options.eligible || cacheDir === null || project.budget || project.mshDir !== undefined) return undefined;
  // Keyed by the real, absolute paths (keyPath): `actguy build` given a relative path, or one through a link, and the
  // app's Build of the same project share one record.
  const target = lastBuildTarget(options.projectFile, [project.marPath, project.sarPath, project.reportPath]);
  const file = lastBuildPlace(options.stateDir ?? defaultStateDir(), target, cacheDir);
  if (file === undefined) return undefined;
  /** The SHA-256 of motion k's file as `verdicts` know it from the file's stamp (lastBuild.ts). */
  const digestOf = (verdicts: VerdictStore, prepared: PreparedBuild, k: number) => {
    const path = prepared.motions[k].resolved.mtnPath;
    const stamp = stampOf(path);
    return stamp && verdicts.digestOf(path, stamp);
  };
  /** What was taken (null: nothing could be). */
  let carry: Carried | null | undefined;
  /** The report entries of carried motions made while the build waited (idle), by motion, with what they were made of. */
  const madeEntries = new Map<
    number,
    { prepared: PreparedBuild; result: CompressedMotion; entry: BuildReportMotion }
  >();
  let planWarmed = false;
  let toMake: Iterator<[number, CompressedMotion]> | undefined;
  /**
   * When the cache entries of the last build's motions were last made recent (its record's time), if that is within
   * REFRESH_MS, so that carried motions' entries are left as they are (undefined: they are made recent).
   */
  let recentAt: number | undefined;
  return {
    file,
    target,
    begin(prepared, verdicts) {
      // Read once: whether the build is up to date, and else what it can carry.
      const record = readLastBuild(file);
      const summary = upToDate(record, target, prepared, (k) => digestOf(verdicts, prepared, k));
      if (summary) {
        // The cache entries of its motions are in use: made recent, as a build that writes makes those of its hits
        // and carried motions (BuildCache.accept, touch), once the record is a day old; the record's own time then
        // says when they were (one pass a day, not a key and an lstat per motion at every up-to-date build).
        if (recentSince(file) === undefined) {
          touchEntriesOf(prepared, cacheDir, (k) => digestOf(verdicts, prepared, k));
          refreshed(file);
        }
        return { upToDate: summary };
      }
      const wanted = carryCandidates(record, target, prepared, (k) => digestOf(verdicts, prepared, k));
      // Read only once the motions that changed went to the pool (compressMotions' `carry`).
      if (!record || !wanted) return {};
      // The entries of motions carried are in use too, and the record's time says when the last build's were made
      // recent: within a day they are left alone (a key and an lstat each, a tenth of the one-file rebuild), and the
      // new record keeps that time (pending), so that the build a day after it makes them recent.
      recentAt = recentSince(file);
      // The last build's outputs are read from now on, off this thread, while it goes on to what changed.
      const ahead = readCarriedAhead(record, wanted);
      return {
        carry: {
          expected: new Set(wanted),
          take: async () => (carry ??= (await ahead(prepared)) ?? null)?.results,
          refresh: recentAt === undefined,
        },
      };
    },
    carried: () => carry ?? undefined,
    idle(prepared) {
      if (!planWarmed) {
        warmPlanDigest(prepared);
        planWarmed = true;
        return true;
      }
      if (!carry) return false;
      toMake ??= carry.results.entries();
      for (let n = 0; n < IDLE_ENTRIES_PER_CALL; n++) {
        const next = toMake.next();
        if (next.done) return false;
        const [k, result] = next.value;
        madeEntries.set(k, { prepared, result, entry: motionReportEntry(prepared, k, result) });
      }
      return true;
    },
    parts(prepared, made) {
      return (k, r) => {
        const fragment = carry?.fragments.get(k);
        if (!fragment || carry?.results.get(k) !== r) return made?.(k, r);
        const early = madeEntries.get(k);
        const entry =
          early && early.prepared === prepared && early.result === r ? early.entry : motionReportEntry(prepared, k, r);
        return { entry, fragment };
      };
    },
    pending(prepared, verdicts, summary, outputCount, results, fragments) {
      if (outputCount !== 3 || !verdicts) return undefined;
      const made = pendingLastBuild(prepared, (k) => digestOf(verdicts, prepared, k), summary, { results, fragments });
      // Motions carried and not made recent: the entries of this build are recent as of the last record's time only.
      return made && recentAt !== undefined && carry?.results.size ? { ...made, recentAt } : made;
    },
  };
}

/** Carried motions' report entries made per idle call (about as long as one of compressMotions' `whileWaiting` turns). */
const IDLE_ENTRIES_PER_CALL = 100;

/**
 * When the cache entries of the motions of the record in `file` were last made recent, if that is within REFRESH_MS
 * (undefined: they are due to be made recent): its file's time (lstat, when it is a plain file), set by its writing
 * (writeLastBuild: a build that carried motions without making their entries recent keeps the older time) or when
 * refreshed. The record is untrusted, its time too: a time in the future is taken as due; at worst the entries'
 * order for the size limit is off, never anything read or written.
 */
function recentSince(file: string): number | undefined {
  try {
    const st = fs.lstatSync(file);
    const age = Date.now() - st.mtimeMs;
    return st.isFile() && age >= 0 && age < REFRESH_MS ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** Records that the entries of the record in `file` were made recent now (its time; never through a link). */
function refreshed(file: string): void {
  try {
    const now = Date.now() / 1000;
    fs.lutimesSync(file, now, now);
  } catch {
    /* gone meanwhile: the next build makes them recent again */
  }
}

/**
 * Makes the cache entries of an up-to-date build's motions recent (BuildCache.touch: at most once a day each, one
 * lstat otherwise): the build looked none up, but every one of them is in use, and the size limit evicts the least
 * recently used first (docs/cache.md, "Limits").
 */
function touchEntriesOf(prepared: PreparedBuild, cacheDir: string, digestOf: (k: number) => string | undefined): void {
  const cache = openBuildCache(cacheDir);
  if (cache.stats.unusable) return;
  for (let k = 0; k < prepared.motions.length; k++) {
    const digest = digestOf(k);
    if (digest) cache.touch(motionCacheKey(prepared, k, digest));
  }
}
