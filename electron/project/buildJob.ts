/**
 * One archive build as the build worker runs it: validate the project text,
 * read and check every input (prepareBuild), compress each motion with
 * progress on the compression pool, with the build cache (compressMotions),
 * and hand the outputs back in memory. Writing is the
 * main process's job, after it knows the build was not cancelled, so a
 * cancelled or failed build never leaves a file behind.
 *
 * Pure apart from the injected readFile and the build cache: it runs in the
 * worker thread and, in unit tests, in-process.
 */
import { toBuildProblem } from './buildProblem';
import { type FormatError } from '../../shared/errors';
import type { BuildMotionResult, BuildProblem } from '../../shared/ipc/project';
import {
  assembleBuild,
  prepareBuild,
  type BuildReport,
  type BuildReportMotion,
  type CompressedMotion,
  type ReadFile,
} from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { filesInsideCache } from '../build/build';
import { projectAsBuilt } from '../build/asBuilt';
import { openBuildCache } from '../build/buildCache';
import { fileStamp, recordingReader, type CarryFromLastBuild } from '../build/compressMotions';
import { compressWithinBudget } from '../build/budgetBuild';
import { existingVerdicts, openVerdictStore } from '../build/verdicts';
import { inProcessCompressor, startWhenCold, type MotionCompressor } from '../build/compressPool';
import type { BuildSummary, LastBuildTarget, PendingLastBuild } from '../build/lastBuild';
import { lastBuildUse } from '../build/lastBuildUse';
import { reportWarningFor, shownBuildWarnings } from '../build/reportWarnings';
import { projectRedactor, type OutsideRedactor } from '../outsideQuotes';
import { listedProblems, sortDiagnostics } from '../build/inputs';
import { inputsRead, noteInputRead } from '../tempFiles';
import { statSync } from 'node:fs';
import { ReplacedAfterJudged, type JudgedFile } from '../build/files';
import { readRefusal } from '../build/projectExportPlan';

/** What the main process sends the worker. */
export interface BuildJobRequest {
  projectPath: string;
  projectText: string;
  /** Unsaved SEV texts by absolute path (UTF-8 encoded here, read in place of the file). */
  sevTexts: { path: string; text: string }[];
  /** The build cache folder main chose (projectHandlers: inside the project's folder or the workspace), or null: none. */
  cacheDir?: string | null;
  /** A check (dry run): nothing is written, and the record of the last build is neither used nor kept. */
  dryRun?: boolean;
  /**
   * The inputs main's path policy allowed (projectHandlers.ts startBuild), each as judged: the job reads only these,
   * each only while it is the file judged (build/files.ts readInputFile; docs/security.md, round 43). Absent: every
   * input is read by name (a test that runs a job without main).
   */
  judged?: JudgedFile[];
}

/**
 * The record of the last build this build keeps (lastBuild.ts): where, for which outputs, and what it says but the
 * outputs' stamps, which main adds once it committed them (writeLastBuild); `pending` undefined: the old one goes.
 */
interface LastBuildToKeep {
  file: string;
  target: LastBuildTarget;
  pending: PendingLastBuild | undefined;
}

/** What the worker sends back, in order: start, progress per motion, then one of done/failed. */
export type BuildJobMessage =
  | { type: 'start'; count: number; names: string[] }
  | { type: 'progress'; motion: BuildMotionResult; etaMs: number | null }
  | {
      type: 'done';
      outputs: { path: string; bytes: Uint8Array }[];
      report: BuildReport;
      warnings: string[];
      lastBuild?: LastBuildToKeep;
      /** The identities of the files this build read (tempFiles.ts inputsRead): the commit's sweep keeps them. */
      inputsRead?: string[];
    }
  /** Every input and setting was the last build's and its outputs are untouched: nothing to write (lastBuild.ts). */
  | {
      type: 'upToDate';
      summary: BuildSummary;
      warnings: string[];
      /** The outputs left as they were, with their sizes now (BuildStatus.unchanged). */
      unchanged: { path: string; bytes: number | null }[];
    }
  /**
   * `replaced`: the inputs not read because another file was at their name than the one main judged (a file saved
   * over by renaming since Build was pressed, or a swap): main may judge them again once (buildRunner.ts).
   */
  | { type: 'failed'; errors: BuildProblem[]; warnings: string[]; replaced?: string[] };

/**
 * An up-to-date build's outputs with their sizes: the .mar's and .sar's as the check just found them (the record's,
 * matched against their stamps), the report's read now (null if it cannot be).
 */
function unchangedOutputs(summary: BuildSummary): { path: string; bytes: number | null }[] {
  const { mar, sar, report } = summary.outputs;
  let reportBytes: number | null = null;
  try {
    reportBytes = statSync(report).size;
  } catch {
    // gone since the check: said as no size
  }
  return [
    { path: mar.path, bytes: mar.bytes },
    { path: sar.path, bytes: sar.bytes },
    { path: report, bytes: reportBytes },
  ];
}

/** A failed build's problems as the Build dialog lists them: as many of each file as `actguy build` prints. */
/**
 * A problem in an input outside the project's folder is told by its file and place only (outsideQuotes.ts,
 * docs/security.md round 34), as `actguy build` tells it: `redact` is the build's projectRedactor.
 */
const listedBuildProblems = (list: readonly FormatError[], redact: OutsideRedactor): BuildProblem[] =>
  listedProblems(list.map(redact)).map(toBuildProblem);
// Every one, sorted: shownBuildWarnings lists 100 of them all and counts the rest (a count of a per-file collapse
// said "2 more" of 9,901, docs/security.md round 40).
const listedMessages = (list: readonly FormatError[], redact: OutsideRedactor): string[] =>
  sortDiagnostics(list.map(redact)).map((w) => w.message);

/**
 * A successful build's warnings as the Build dialog lists them, as `actguy build` prints them (builtMessages): the
 * input warnings whole, then the report's own, as many as shownBuildWarnings lists.
 */
function builtWarnings(
  input: readonly FormatError[],
  report: readonly string[],
  reportPath: string,
  redact: OutsideRedactor,
): string[] {
  return shownBuildWarnings([...listedMessages(input, redact), ...report.slice(input.length)], reportPath);
}

/** Largest error as a fraction of tolerance, and the largest rotation / position error. */
function errorSummary(result: Pick<CompressedMotion, 'channels'>): {
  maxErrorRatio: number;
  maxRotationErrorDeg: number;
  maxPositionError: number;
} {
  let maxErrorRatio = 0;
  let maxRotationErrorDeg = 0;
  let maxPositionError = 0;
  for (const ch of result.channels) {
    if (ch.tolerance > 0) maxErrorRatio = Math.max(maxErrorRatio, ch.maxError / ch.tolerance);
    if (ch.kind === 'rotation') maxRotationErrorDeg = Math.max(maxRotationErrorDeg, ch.maxError);
    else if (ch.kind === 'translation') maxPositionError = Math.max(maxPositionError, ch.maxError);
  }
  return { maxErrorRatio, maxRotationErrorDeg, maxPositionError };
}

const encoder = new TextEncoder();

/** Runs one build, posting every step through `post`. Never throws for bad input: that becomes a 'failed' message. */
/** What a build job compresses with: the pool (the worker passes one of defaultJobs() threads). */
interface BuildJobDeps {
  compressor?: MotionCompressor;
  /** The per-user folder of the cache's local verdicts; default defaultStateDir(). */
  stateDir?: string;
}

export async function runBuildJob(
  req: BuildJobRequest,
  readFile: (path: string, as?: 'text', judged?: string | null) => Uint8Array,
  post: (m: BuildJobMessage) => void,
  deps: BuildJobDeps = {},
): Promise<void> {
  const parsed = parseProject(req.projectText, req.projectPath);
  const redact = projectRedactor(req.projectPath);
  if (!parsed.resolved) {
    post({ type: 'failed', errors: listedBuildProblems(parsed.errors, redact), warnings: [] });
    return;
  }
  // The project as `actguy build` takes it (projectAsBuilt): the same plan, so one record of the last build serves both.
  const project = projectAsBuilt(parsed.resolved, req.projectPath);
  // The same refusal as `actguy build`'s: a project file kept inside the cache's folder could be pruned with it.
  const inCache = typeof req.cacheDir === 'string' ? filesInsideCache(project, req.cacheDir) : [];
  if (inCache.length) {
    post({ type: 'failed', errors: listedBuildProblems(inCache, redact), warnings: [] });
    return;
  }
  const overrides = new Map(req.sevTexts.map((s) => [s.path, encoder.encode(s.text)]));
  // A file built from the editor's text is not read, but it is an input all the same: the commit's sweep keeps it.
  for (const path of overrides.keys())
    try {
      noteInputRead(statSync(path));
    } catch {
      // not on disk (yet): nothing to keep
    }
  const remembered = typeof req.cacheDir === 'string' ? existingVerdicts(req.cacheDir, deps.stateDir) : undefined;
  const judged = req.judged && new Map(req.judged.map((j) => [j.path, j.identity]));
  const replaced = new Set<string>();
  const readJudged: ReadFile = (path, as) => {
    if (!judged) return readFile(path, as);
    const identity = judged.get(path);
    if (identity === undefined) throw new Error(readRefusal(path));
    try {
      return readFile(path, as, identity);
    } catch (e) {
      if (e instanceof ReplacedAfterJudged) replaced.add(path);
      throw e;
    }
  };
  const recorded = recordingReader(
    (path, as) => overrides.get(path) ?? readJudged(path, as),
    (path) => (overrides.has(path) ? undefined : fileStamp(path)),
    remembered,
  );
  const compressor = deps.compressor ?? inProcessCompressor();
  const prep = prepareBuild(project, recorded.read, startWhenCold(compressor, remembered, recorded.known));
  // The project text's own warnings lead its inputs' (a bidirectional character in `$schema`), as `actguy build`'s.
  (prep.ok ? prep.prepared.warnings : prep.warnings).unshift(...(parsed.warnings ?? []));
  if (!prep.ok) {
    post({
      type: 'failed',
      errors: listedBuildProblems(prep.errors, redact),
      warnings: listedMessages(prep.warnings, redact),
      ...(replaced.size > 0 && { replaced: [...replaced] }),
    });
    return;
  }
  const { prepared } = prep;
  post({ type: 'start', count: prepared.motions.length, names: prepared.motions.map((m) => m.resolved.name) });
  // The record of the last build, used and kept as `actguy build` does (lastBuildUse). A file the renderer sent as
  // unsaved text has no stamp here (recordingReader above): no motion of one is taken for unchanged.
  const last = lastBuildUse({
    projectFile: req.projectPath,
    project,
    cacheDir: req.cacheDir ?? null,
    stateDir: deps.stateDir,
    eligible: req.dryRun !== true,
    stampOf: recorded.stampOf,
  });
  let carry: CarryFromLastBuild | undefined;
  if (last && remembered) {
    const begun = last.begin(prepared, remembered);
    if (begun.upToDate) {
      remembered.save();
      // Every warning the build that made these outputs showed, as `actguy build` prints them when up to date: the
      // inputs' whole, then the motions' own (resampled, unmet tolerances) from the record, which vouches for them.
      post({
        type: 'upToDate',
        summary: begun.upToDate,
        warnings: builtWarnings(prepared.warnings, begun.upToDate.warnings, begun.upToDate.outputs.report, redact),
        unchanged: unchangedOutputs(begun.upToDate),
      });
      return;
    }
    carry = begun.carry;
  }
  const cache = typeof req.cacheDir === 'string' ? openBuildCache(req.cacheDir) : undefined;
  const verdicts =
    cache && !cache.stats.unusable ? (remembered ?? openVerdictStore(cache.dir, deps.stateDir)) : undefined;
  const postMotion = (p: {
    index: number;
    name: string;
    result: CompressedMotion;
    cached: boolean;
    etaMs: number | null;
  }) => {
    const entry = prepared.sarEntries[p.index];
    const motion = prepared.motions[p.index];
    // A carried motion's figures are its entry in the last build's report (its result holds no channels).
    const fragment = last?.carried()?.fragments.get(p.index);
    post({
      type: 'progress',
      etaMs: p.etaMs,
      motion: {
        cached: p.cached,
        index: p.index,
        name: p.name,
        totalKeys: p.result.totalKeys,
        mt3Bytes: p.result.mt3Bytes,
        mtnBytes: p.result.mtnBytes,
        ratio: p.result.ratio,
        ...((fragment && last?.carried()?.results.get(p.index) === p.result
          ? reportErrorSummary(fragment, motion.resolved.rotationOverridesDeg)
          : undefined) ?? errorSummary(p.result)),
        seSlots: entry ? entry.seCodes.length / 8 : 0,
        events: entry ? entry.events.length : 0,
        frameCount: motion.frameCount,
        fps: prepared.project.fps,
        resampledFromFps: motion.resampledFrom?.fps ?? null,
        speed: motion.resolved.speed,
        durationMs: motion.durationMs,
      },
    });
  };
  // A refused pool worker (a damaged installation) throws out of here, once: the worker's crash, which main reports as
  // it is (buildRunner.ts workerLauncher).
  const compressed = await compressWithinBudget(prepared, {
    compressor,
    cache,
    verdicts,
    inputBytes: recorded.bytesOf,
    inputStamp: recorded.stampOf,
    onMotion: postMotion,
    carry,
  });
  // A budget build's passes ended at some probe: the panel's figures are those of the scales chosen.
  if (compressed.ok && compressed.budget)
    compressed.results.forEach((result, index) =>
      postMotion({ index, name: prepared.motions[index].resolved.name, result, cached: false, etaMs: 0 }),
    );
  if (!compressed.ok) {
    post({
      type: 'failed',
      errors: listedBuildProblems(compressed.errors, redact),
      warnings: listedMessages(prepared.warnings, redact),
    });
    return;
  }
  const result = assembleBuild(
    compressed.prepared,
    compressed.results,
    compressed.budget,
    last?.parts(compressed.prepared),
    reportWarningFor(req.projectPath),
  );
  if (!result.ok) {
    post({
      type: 'failed',
      errors: listedBuildProblems(result.errors, redact),
      warnings: listedMessages(result.warnings, redact),
    });
    return;
  }
  const summary: BuildSummary = {
    outputs: result.report.outputs,
    totals: result.report.totals,
    warnings: result.report.warnings,
  };
  post({
    type: 'done',
    outputs: result.outputs,
    report: withCarriedEntries(result.report, last?.carried()?.fragments),
    // The input warnings as `actguy build` prints them: one about a file outside the project's folder by its place
    // alone, as the report keeps it (outsideQuotes.ts).
    warnings: builtWarnings(result.warnings, result.report.warnings, result.report.outputs.report, redact),
    // The worker read the inputs, main commits: main's sweep must keep what the worker read (docs/security.md, round 17).
    inputsRead: inputsRead(),
    ...(last
      ? {
          lastBuild: {
            file: last.file,
            target: last.target,
            pending: last.pending(
              compressed.prepared,
              verdicts,
              summary,
              result.outputs.length,
              compressed.results,
              result.reportFragments,
            ),
          },
        }
      : {}),
  });
}

/**
 * The report with the entries of carried motions as the report file holds them (the last build's, byte for byte):
 * assembleBuild made them from their figures alone, for its totals and warnings.
 */
function withCarriedEntries(report: BuildReport, fragments: ReadonlyMap<number, Uint8Array> | undefined): BuildReport {
  if (!fragments?.size) return report;
  const decoder = new TextDecoder();
  return {
    ...report,
    motions: report.motions.map((m, k) => {
      const fragment = fragments.get(k);
      try {
        return fragment ? (JSON.parse(decoder.decode(fragment)) as BuildReportMotion) : m;
      } catch {
        return m; // readCarriedAhead checked its head, figures and braces, not all of it: the figures' entry then
      }
    }),
  };
}

/**
 * errorSummary of a carried motion, from its entry in the last build's report (readCarriedAhead checked it is that
 * motion's, in the file that build committed; undefined when it is not of the report's shape): the largest rotation
 * and position errors as the entry gives them (4 significant digits), and the ratio as the largest error of each
 * kind over that kind's tightest tolerance (with a rotation override per joint, a bound of the ratio).
 */
function reportErrorSummary(
  fragment: Uint8Array,
  rotationOverridesDeg: Readonly<Record<number, number>>,
): ReturnType<typeof errorSummary> | undefined {
  let entry: Partial<BuildReportMotion>;
  try {
    entry = JSON.parse(new TextDecoder().decode(fragment)) as Partial<BuildReportMotion>;
  } catch {
    return undefined;
  }
  const { maxError: e, tolerances: t } = entry;
  const figures = (o: unknown, names: readonly string[]) =>
    typeof o === 'object' &&
    o !== null &&
    names.every((n) => Number.isFinite((o as Record<string, unknown>)[n]) && (o as Record<string, number>)[n] >= 0);
  if (
    !e ||
    !t ||
    !figures(e, ['translation', 'rotationDeg', 'offset']) ||
    !figures(t, ['position', 'rotationDeg', 'offset'])
  )
    return undefined;
  const rotation = Math.min(t.rotationDeg, ...Object.values(rotationOverridesDeg));
  const ratio = (error: number, tolerance: number) => (tolerance > 0 ? error / tolerance : 0);
  return {
    maxErrorRatio: Math.max(
      ratio(e.translation, t.position),
      ratio(e.rotationDeg, rotation),
      ratio(e.offset, t.offset),
    ),
    maxRotationErrorDeg: e.rotationDeg,
    maxPositionError: e.translation,
  };
}

/** The buffers of `views` that each view covers whole and no other view shares: those can be transferred. */
export function ownBuffers(views: readonly Uint8Array[]): ArrayBuffer[] {
  const count = new Map<ArrayBufferLike, number>();
  for (const v of views) count.set(v.buffer, (count.get(v.buffer) ?? 0) + 1);
  return views
    .filter((v) => count.get(v.buffer) === 1 && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength)
    .map((v) => v.buffer as ArrayBuffer);
}
