/**
 * The Node side of `actguy build`: read the project file, let the pure core
 * (shared/project) validate and build everything in memory, and write the
 * .mar, .sar and report only when all of it succeeded.
 */
import { existsSync, lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FormatError } from '../../shared/errors';
import { normalizePath } from '../../shared/project/paths';
import {
  assembleBuild,
  motionReportPart,
  prepareBuild,
  type BuildReport,
  type BuildReportMotion,
  type CompressedMotion,
  type MotionReportPart,
  type PreparedBuild,
  type ReadFile,
} from '../../shared/project/plan';
import { projectOutputFiles } from '../../shared/project/outputs';
import type { ResolvedProject } from '../../shared/project/types';
import { checkOutputPaths, parseProject, withOutputDir } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { findOutputClashes, type RolePath } from '../pathIdentity';
import { canonicalPath, isInside } from '../pathPolicy';
import { openBuildCache, type CacheStats } from './buildCache';
import {
  buildOutputFiles,
  COMMIT_JOURNAL_SUFFIX,
  commitOutputs,
  journalRefusedBeforeBuild,
  outputsRefusedBeforeBuild,
} from './commit';
import { lockRefusedBeforeBuild } from './commitLock';
import { fileStamp, recordingReader, type CarryFromLastBuild, type MotionDone } from './compressMotions';
import { compressWithinBudget } from './budgetBuild';
import { existingVerdicts, openVerdictStore, type FileStamp, type VerdictStore } from './verdicts';
import { outputStamp, writeLastBuild, type BuildSummary } from './lastBuild';
import { lastBuildUse } from './lastBuildUse';
import { compressorFor, defaultJobs, startWhenCold, type MotionCompressor } from './compressPool';
import { fewChanged } from './fewChanged';
import { readBuildInput, readInputFile } from './files';
import { reportWarningFor } from './reportWarnings';
import { projectRedactor } from '../outsideQuotes';
import { pinFoldersOf, TEXT_LIMIT } from '../fsutil';
import { projectAsBuilt } from './asBuilt';

export interface ProjectBuildOptions {
  /** Put the outputs in this folder (keeping their file names) instead of the project's paths. */
  outDir?: string;
  /** Called after each motion is compressed or found in the cache (for a progress line). */
  onProgress?: (p: MotionDone) => void;
  /** Motions compressed at once (worker threads); default: the machine's cores. */
  jobs?: number;
  /** The cache folder; default `.actguy-cache/` beside the project; null: no cache. */
  cacheDir?: string | null;
  /** Size limit of the cache folder in bytes (least recently used entries go first). */
  cacheMaxBytes?: number;
  /** The per-user state folder holding the cache's local verdicts (verdicts.ts); default defaultStateDir(). */
  stateDir?: string;
  /** How input files are read (tests count the reads); default readBuildInput. */
  readFile?: ReadFile;
  /** The compressor to use instead of one made for `jobs` (tests). */
  compressor?: MotionCompressor;
  /**
   * The pool to use instead of one made for `jobs`, as the build's own (tests): unlike `compressor`, the build may
   * still compress a few changed motions on its own thread rather than start it (fewChanged.ts), and closes it.
   */
  ownPool?: MotionCompressor;
  /** The project text to use instead of the file (an edited, unsaved project in the app). */
  projectText?: string;
  /**
   * Text that replaces a file on disk for this build, by path as the project
   * resolves it (unsaved SEV edits in the app). The files themselves are not touched.
   */
  textOverrides?: ReadonlyMap<string, string>;
  /** Told the outputs' paths once they are committed (the CLI's Ctrl+C says what was written, cli/interrupt.ts). */
  onCommitted?: (paths: string[]) => void;
  /** Validate and compress everything but write nothing (the app's status check). */
  dryRun?: boolean;
  /** The .mar's memory budget in bytes, in place of the project's `budget.marBytes` (the CLI's --budget). */
  budgetBytes?: number;
  /**
   * Use and keep the record of the project's last build, so that a build with nothing to do does nothing
   * (lastBuild.ts); default true. Tests of what a rebuild does with the cache turn it off.
   */
  lastBuild?: boolean;
}

export type ProjectBuildOutcome =
  | {
      ok: true;
      /** The build's report; absent when the outputs were up to date and nothing was built (`upToDate`). */
      report?: BuildReport;
      /** What is printed of the build: the report's outputs, totals and warnings (the recorded ones when up to date). */
      summary: BuildSummary;
      /** Every input and setting was the last build's and its outputs were untouched: nothing was done (lastBuild.ts). */
      upToDate: boolean;
      written: string[];
      warnings: FormatError[];
      notes: string[];
      cache?: CacheStats;
      /** Motions taken from the last build's outputs as they were (lastBuild.ts): neither looked up nor compressed. */
      carried: number;
    }
  | {
      ok: false;
      errors: FormatError[];
      warnings: FormatError[];
      /**
       * The errors are about what lies at the outputs' paths (a file where a folder must be, another tool's file), not
       * about the inputs: a fix changes no input (`build --watch` tries again by itself, watch.ts).
       */
      atOutputs?: true;
    };

/**
 * Validates, builds and writes a project; on any error writes nothing and returns every error. A problem in an input
 * outside the project's folder is told by its file and place only (outsideQuotes.ts, docs/security.md round 34): what
 * `actguy build`, `build --watch` and their logs show of it.
 */
export async function buildProject(
  projectPath: string,
  options: ProjectBuildOptions = {},
): Promise<ProjectBuildOutcome> {
  const outcome = await buildAsRead(projectPath, options);
  const redact = projectRedactor(normalizePath(projectPath));
  // In place: a rebuild's outcome reads its report on demand (a getter), which a copy would read at once.
  if (!outcome.ok) outcome.errors = outcome.errors.map(redact);
  outcome.warnings = outcome.warnings.map(redact);
  return outcome;
}

async function buildAsRead(projectPath: string, options: ProjectBuildOptions): Promise<ProjectBuildOutcome> {
  // Paths stay as the user wrote them (relative to the working folder), so messages read `assets/walk.sev:12:7`.
  const projectFile = normalizePath(projectPath);
  let text: string;
  try {
    text = options.projectText ?? decodeUtf8Text(readInputFile(projectFile, TEXT_LIMIT), 'PROJECT', projectFile);
  } catch (e) {
    if (e instanceof FormatError) return { ok: false, errors: [e], warnings: [] };
    return {
      ok: false,
      errors: [new FormatError('PROJECT', `cannot read the project file: ${(e as Error).message}`, {}, projectFile)],
      warnings: [],
    };
  }
  const parsed = parseProject(text, projectFile);
  if (!parsed.resolved) return { ok: false, errors: parsed.errors, warnings: [] };
  let project: ResolvedProject = projectAsBuilt(parsed.resolved, projectFile);
  if (options.outDir !== undefined) {
    project = withOutputDir(project, normalizePath(options.outDir), (dir, name) => normalizePath(join(dir, name)));
    const clash = checkOutputPaths(project);
    if (clash.length) return { ok: false, errors: clash, warnings: [] };
  } else {
    const outside = outputsOutsideFolder(project);
    if (outside.length) return { ok: false, errors: outside, warnings: [] };
  }
  if (options.budgetBytes !== undefined) project = { ...project, budget: { marBytes: options.budgetBytes } };
  const clashes = outputClashes(project);
  if (clashes.length) return { ok: false, errors: clashes, warnings: [] };
  // Refused before any work (the commit checks again): a received project naming the user's package.json as its
  // report (that alone is said when it is one), another tool's file at a name of outputs.msh (walk.res8 in a folder
  // of the user's files).
  /** Every output, in the order the commit writes them (its journal lies beside the first). */
  const outputPaths = projectOutputFiles(project).map((f) => f.path);
  const refused = outputsRefusedBeforeBuild(outputPaths, project.reportPath);
  const notReport = refused.filter((r) => r.file === project.reportPath);
  if (refused.length)
    return {
      ok: false,
      errors: (notReport.length ? notReport : refused).map(
        (r) => new FormatError('PROJECT', r.problem, { where: outputKey(project, r.file) }, projectFile),
      ),
      warnings: [],
      atOutputs: true,
    };
  const halfSaved = interruptedSaves(project);
  if (halfSaved.length) return { ok: false, errors: halfSaved, warnings: [] };
  // A commit journal the commit would refuse fails the build now, not after its compression (a dry run commits nothing).
  const journal = options.dryRun ? undefined : journalRefusedBeforeBuild(outputPaths);
  if (journal) throw journal;
  // So is a lock another live run holds: `build --watch` retries it, and each retry would compress every motion
  // (under --no-cache) before meeting the lock at the commit. The commit taking the lock is what keeps runs apart.
  const lock = options.dryRun ? undefined : lockRefusedBeforeBuild(outputPaths);
  if (lock) throw lock;
  // The outputs' folders as just checked (inside the project's folder, links resolved): the commit, after the
  // compression's seconds or minutes, writes nowhere else (docs/security.md, round 17).
  const folders = pinFoldersOf(outputPaths);
  const overrides = options.textOverrides;
  const readFrom = options.readFile ?? readBuildInput;
  const readFile = overrides?.size
    ? (path: string, as?: 'text') => {
        const t = overrides.get(path);
        return t === undefined ? readFrom(path, as) : encodeUtf8(t);
      }
    : readFrom;
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir(projectFile) : options.cacheDir;
  const inCache = cacheDir === null ? [] : filesInsideCache(project, cacheDir);
  if (inCache.length) return { ok: false, errors: inCache, warnings: [] };
  /** The motions finished so far, and their report parts made while the build waited for the pool. */
  const finished: MotionDone[] = [];
  const early = earlyReportParts();
  /** The pool's workers stopping: they tear down on their own threads while this one writes the outputs. */
  let closing: Promise<void> | undefined;
  // The verdicts of a cache folder that is already there let prepareBuild skip motion files it read before.
  const remembered = cacheDir === null ? undefined : existingVerdicts(cacheDir, options.stateDir);
  const recorded = recordingReader(readFile, fileStamp, remembered);
  // The record of this project's last build, kept in the user's state folder (lastBuild.ts, docs/cache.md). Not with
  // text in place of files: their stamps here are those of the files on disk, not of what the build read.
  const last = lastBuildUse({
    projectFile,
    project,
    cacheDir,
    stateDir: options.stateDir,
    eligible: options.lastBuild !== false && !options.dryRun && options.projectText === undefined && !overrides?.size,
    stampOf: recorded.stampOf,
  });
  /** The verdicts the compression used (the record of the build is kept only with them). */
  let usedVerdicts: VerdictStore | undefined;
  // The pure pool: with this thread as one of the jobs the short clips' build measured slower (docs/compression.md).
  const compressor = options.compressor ?? options.ownPool ?? compressorFor(options.jobs ?? defaultJobs());
  // A pool of its own (not the watch's, already started): a rebuild where a few small motions changed compresses
  // them on this thread and never starts it (fewChanged.ts, docs/cache.md).
  const few = options.compressor ? undefined : fewChanged(compressor, remembered, recorded.known);
  try {
    let compressed;
    let prep;
    let cache;
    /** What this build may take from the last one's outputs (lastBuild.ts). */
    let carryPlan: CarryFromLastBuild | undefined;
    try {
      prep = prepareBuild(project, recorded.read, few?.known ?? startWhenCold(compressor, remembered, recorded.known));
      // The project text's own warnings lead its inputs' (a bidirectional character in `$schema`).
      (prep.ok ? prep.prepared.warnings : prep.warnings).unshift(...(parsed.warnings ?? []));
      if (!prep.ok) return prep;
      const { prepared } = prep;
      if (last && remembered) {
        const begun = last.begin(prepared, remembered);
        if (begun.upToDate) {
          remembered.save();
          const summary = begun.upToDate;
          return { ok: true, upToDate: true, summary, written: [], warnings: prepared.warnings, notes: [], carried: 0 };
        }
        carryPlan = begun.carry;
      }
      cache = cacheDir === null ? undefined : openBuildCache(cacheDir, { maxBytes: options.cacheMaxBytes });
      const verdicts =
        cache && !cache.stats.unusable ? (remembered ?? openVerdictStore(cache.dir, options.stateDir)) : undefined;
      usedVerdicts = verdicts;
      compressed = await compressWithinBudget(prepared, {
        compressor: few?.compressorFor(prepared, carryPlan?.expected, recorded.stampOf) ?? compressor,
        cache,
        verdicts,
        onMotion: (m) => {
          // A carried motion's report entry is the last build's: none is made for it while waiting.
          if (!last?.carried()?.results.has(m.index)) finished.push(m);
          options.onProgress?.(m);
        },
        // A budget build compresses each motion at several settings: its report parts wait for the chosen ones.
        whileWaiting: project.budget
          ? undefined
          : () => {
              if (early.make(prepared, finished)) return true;
              // Then what the assembly and the record of this build need (lastBuildUse's idle), made now and not after.
              return last?.idle(prepared) ?? false;
            },
        inputBytes: recorded.bytesOf,
        inputStamp: recorded.stampOf,
        carry: carryPlan,
      });
    } finally {
      if (!options.compressor) closing = compressor.close();
    }
    if (!compressed.ok) return { ok: false, errors: compressed.errors, warnings: prep.prepared.warnings };
    const made = early.madeParts(compressed.prepared);
    const carried = last?.carried();
    const result = assembleBuild(
      compressed.prepared,
      compressed.results,
      compressed.budget,
      // A build that keeps its record puts the report together from each motion's entry, so that the record can say
      // where each lies (the next build carries them); else only when most entries were made while waiting.
      last ? last.parts(compressed.prepared, made) : made,
      reportWarningFor(projectFile),
      // The .mar and the report are written as their pieces (mostly a rebuild's carried bytes), never joined first.
      { pieces: true },
    );
    if (!result.ok) return result;
    const summary: BuildSummary = {
      outputs: result.report.outputs,
      totals: result.report.totals,
      warnings: result.report.warnings,
      ...(result.report.budget ? { budget: result.report.budget } : {}),
    };
    if (options.dryRun)
      return {
        ok: true,
        report: result.report,
        summary,
        upToDate: false,
        written: [],
        warnings: result.warnings,
        notes: [],
        cache: cache?.stats,
        carried: 0,
      };
    let installed: (FileStamp | undefined)[] = [];
    const note = commitOutputs(buildOutputFiles(result.outputs, project.reportPath), {
      folders,
      installed: () => {
        if (last) installed = last.target.outputs.map(outputStamp);
      },
    });
    options.onCommitted?.(result.outputs.map((o) => o.path));
    // Kept only for the three outputs and with the cache's verdicts; else any older record goes.
    if (last)
      writeLastBuild(
        last.file,
        last.target,
        last.pending(
          compressed.prepared,
          usedVerdicts,
          summary,
          result.outputs.length,
          compressed.results,
          result.reportFragments,
        ),
        installed,
      );
    const outcome: ProjectBuildOutcome = {
      ok: true,
      report: result.report,
      summary,
      upToDate: false,
      written: result.outputs.map((o) => o.path),
      warnings: result.warnings,
      notes: note ? [note] : [],
      cache: cache?.stats,
      carried: carried?.results.size ?? 0,
    };
    if (carried?.results.size) {
      // The report's entries of carried motions were made from their figures alone (for its totals and warnings);
      // the exact ones are those the report file holds, read from it only if someone asks for the report.
      const { report } = result;
      let exact: BuildReport | undefined;
      Object.defineProperty(outcome, 'report', {
        enumerable: true,
        get: () =>
          (exact ??= {
            ...report,
            motions: report.motions.map((m, k) => {
              const fragment = carried.fragments.get(k);
              return fragment ? (JSON.parse(new TextDecoder().decode(fragment)) as BuildReportMotion) : m;
            }),
          }),
      });
    }
    return outcome;
  } finally {
    await closing;
  }
}

/**
 * The report parts (motionReportPart) a build's own thread makes while it waits for the pool to compress the
 * motions that changed (docs/cache.md, "The rebuild's idle time"): on a rebuild, the motions taken from the cache
 * are done long before, and their part of the report is then not left for after the last compression.
 */
function earlyReportParts(): {
  /** Makes the parts of a few motions of `prepared` that finished (a few ms); false when none is left to make. */
  make(prepared: PreparedBuild, finished: readonly MotionDone[]): boolean;
  /** The parts for assembleBuild of `prepared`, when they were made for at least half of its motions (else none). */
  madeParts(
    prepared: PreparedBuild,
  ): ((k: number, result: CompressedMotion) => MotionReportPart | undefined) | undefined;
} {
  const made = new Map<number, { result: CompressedMotion; part: MotionReportPart }>();
  let madeFor: PreparedBuild | undefined;
  let taken = 0;
  return {
    make(prepared, finished) {
      madeFor = prepared;
      for (const stop = Math.min(finished.length, taken + EARLY_PARTS_PER_CALL); taken < stop; taken++) {
        const m = finished[taken];
        made.set(m.index, { result: m.result, part: motionReportPart(prepared, m.index, m.result) });
      }
      return taken < finished.length;
    },
    madeParts(prepared) {
      // Serialized one by one, the parts cost more than the whole report at once: worth it only for most motions.
      if (prepared !== madeFor || made.size * 2 < prepared.motions.length) return undefined;
      return (k, result) => {
        const m = made.get(k);
        return m && m.result === result ? m.part : undefined;
      };
    },
  };
}
/** Parts made per call while waiting (about 3 ms): the pool's last answer waits at most that long. */
const EARLY_PARTS_PER_CALL = 50;

/** Every input file a project names, with the role messages give it (`build --watch` watches these, watch.ts). */
export function projectInputFiles(project: ResolvedProject): RolePath[] {
  const inputs: RolePath[] = [{ path: project.projectFile, role: 'the project file' }];
  for (const m of project.motions) {
    inputs.push({ path: m.mtnPath, role: `the .mtn of motion ${m.name}` });
    if (m.sevPath) inputs.push({ path: m.sevPath, role: `the .sev of motion ${m.name}` });
  }
  if (project.slsPath) inputs.push({ path: project.slsPath, role: 'seTables.sls' });
  if (project.seDefinePath) inputs.push({ path: project.seDefinePath, role: 'seTables.seDefine' });
  return inputs;
}

/**
 * The project's own check compares paths as written; this one asks the file
 * system, so `./out/../walk.mtn`, a link to an input or a hard link is caught
 * too (an output never overwrites an input or another output).
 */
function outputClashes(project: ResolvedProject): FormatError[] {
  const inputs = projectInputFiles(project);
  const outputs: RolePath[] = projectOutputFiles(project).map(({ path, role }) => ({ path, role }));
  return findOutputClashes(inputs, outputs).map((m) => new FormatError('PROJECT', m, {}, project.projectFile));
}

/** The project's key that names the output `file` (a file of outputs.msh when none of the three). */
function outputKey(project: ResolvedProject, file: string): string {
  if (file === project.reportPath) return 'outputs.report';
  if (file === project.marPath) return 'outputs.mar';
  return file === project.sarPath ? 'outputs.sar' : 'outputs.msh';
}

/**
 * The outputs a project names that lie outside its folder, links resolved (docs/security.md). A project is a file
 * people receive: one naming `~/.bashrc` as its report, `../x.sar`, or an `out` that is a link out of its folder
 * would replace whatever is there. Writing elsewhere is the user's choice, made with -o OUTDIR.
 */
function outputsOutsideFolder(project: ResolvedProject): FormatError[] {
  const named = dirname(resolve(project.projectFile));
  const folder = canonicalPath(named);
  return projectOutputFiles(project).flatMap(({ path, key, role }) => {
    let real: string;
    try {
      real = canonicalPath(path);
    } catch (e) {
      return [new FormatError('PROJECT', `${path}: ${(e as Error).message}`, { where: key }, project.projectFile)];
    }
    if (isInside(folder, real)) return [];
    const who = role === key ? '' : ` (${role})`;
    const via = isInside(named, resolve(path)) ? ` (a link leads it to ${real})` : '';
    return [
      new FormatError(
        'PROJECT',
        `${path}${who} lies outside the project's folder ${folder}${via}; a build writes its outputs there, or in the folder -o OUTDIR names`,
        { where: key },
        project.projectFile,
      ),
    ];
  });
}

/**
 * The listed motions beside which a Save of ActGuy's left its commit journal (killed after its commit point): the
 * `.mtn` there is the one from before that Save, or none for a first Save, and the Save is not finished until it is
 * rolled forward. Opening the motion in ActGuy finishes it, as the next Save of it does; a build reads inputs and
 * writes nothing beside them, so it refuses the motion, naming the journal, rather than build from the motion the
 * user saved over (docs/security.md, round 41, continued). A lock alone is a Save under way or killed before its
 * commit point: the pair there is the old one, whole, and is built.
 */
function interruptedSaves(project: ResolvedProject): FormatError[] {
  return project.motions.flatMap((m) => {
    const journal = `${m.mtnPath}${COMMIT_JOURNAL_SUFFIX}`;
    try {
      lstatSync(journal);
    } catch {
      return [];
    }
    return [
      new FormatError(
        'PROJECT',
        `motion ${m.name}: a Save of ${m.mtnPath} in ActGuy was interrupted and left ${journal} beside it, so ` +
          `${existsSync(m.mtnPath) ? 'the file there is the motion from before that Save' : 'the motion is not there yet'}; ` +
          `open ${m.mtnPath} in ActGuy (File › Open), which finishes the Save, then build again; if no ActGuy saved it, move the journal aside`,
        { where: `motions[${m.index}].mtn` },
        project.projectFile,
      ),
    ];
  });
}

/**
 * The project's inputs and outputs that lie inside the build cache's folder, links resolved. The cache prunes its
 * folder as its own (entries past its size limit, entries that are links, stale temps: docs/cache.md), so a
 * project file kept there could be deleted by a later build (docs/security.md, round 13). Refused before any work.
 */
export function filesInsideCache(project: ResolvedProject, cacheDir: string): FormatError[] {
  const named = [
    ...projectInputFiles(project),
    ...projectOutputFiles(project).map(({ path, key }) => ({ path, role: key })),
  ];
  return pathsInsideCache(named, cacheDir, project.projectFile);
}

/**
 * Those of `named` (a project's inputs and what a run of it writes) that lie inside the cache's folder, links
 * resolved, each an error of `projectFile` (filesInsideCache; Export All of the compressed motions, projectExport.ts).
 */
export function pathsInsideCache(named: readonly RolePath[], cacheDir: string, projectFile: string): FormatError[] {
  const cache = canonicalPath(cacheDir);
  const seen = new Set<string>();
  const errors: FormatError[] = [];
  for (const { path, role } of named) {
    if (seen.has(path)) continue;
    seen.add(path);
    let real: string;
    try {
      real = canonicalPath(path);
    } catch {
      continue; // unresolvable: the read or the write that needs it says why
    }
    if (!isInside(cache, real)) continue;
    errors.push(
      new FormatError(
        'PROJECT',
        `${path} (${role}) lies inside the build cache's folder ${cache}, whose files the cache deletes as its own when it prunes; move it out of that folder`,
        {},
        projectFile,
      ),
    );
  }
  return errors;
}

/** `.actguy-cache/` in the project's folder (the default of `build` and of Export All's `--compressed`). */
export function defaultCacheDir(projectFile: string): string {
  return join(dirname(resolve(projectFile)), '.actguy-cache');
}

function encodeUtf8(text: string): Uint8Array {
  const b = Buffer.from(text, 'utf8');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
