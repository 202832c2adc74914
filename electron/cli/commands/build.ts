import { buildProject, type ProjectBuildOptions, type ProjectBuildOutcome } from '../../build/build';
import { compressorFor, defaultJobs } from '../../build/compressPool';
import { watchBuilds } from '../../build/watch';
import { commandError } from '../runCommand';
import { noteCodePath } from '../codePaths';
import { FEW_MOTIONS } from '../../build/fewChanged';
import { cacheUse, DEFAULT_CACHE_MAX_BYTES } from '../../build/buildCache';
import type { MotionDone } from '../../build/compressMotions';
import { diagnosticLines, sortDiagnostics } from '../../build/inputs';
import { shownBuildWarnings } from '../../build/reportWarnings';
import { FormatError, quoteJson } from '../../../shared/errors';
import { formatEta } from '../../../shared/project/eta';
import {
  jobsOption,
  liveTerminal,
  parseArgs,
  positiveNumberOption,
  singlePositional,
  stringOption,
  UsageError,
} from '../args';
import { EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, type CliCommand } from '../command';
import { listed, onInterrupt } from '../interrupt';
import { jsonProblem, printJson, refuseJsonWith, type JsonProblem } from '../json';
import { readInputFile } from '../../build/files';
import { outDirLinkNote } from '../projectExport';
import { MAX_REPORT_BYTES } from '../../build/sarNames';
import type { BuildReport } from '../../../shared/project/plan';
import { MAX_BUDGET_BYTES } from '../../../shared/project/budget';
import type { BuildReportBudget } from '../../../shared/project/plan';

export const buildCommand: CliCommand = {
  name: 'build',
  usage:
    'build PROJECT.actguy.json [-o OUTDIR] [--jobs N] [--cache DIR | --no-cache] [--cache-max-mb MB] [--budget BYTES] [--watch] [--json] [--quiet]',
  summary:
    'validate a project, compress every motion (N worker threads, default: the cores; unchanged motions come from the cache, default .actguy-cache/ beside the project) ' +
    'and write the .mar, the .sar and a JSON build report as one unit (nothing is written on any error); ' +
    "--budget (or the project's budget.marBytes) fits the .mar in BYTES by scaling each motion's tolerances where it costs least (docs/formats.md#budget); " +
    '--watch builds again whenever an input of the project changes, in the same process, until Ctrl+C (docs/cli.md#watch)',
  json: true,
  async run(argv) {
    const args = parseArgs(
      argv,
      ['o', 'jobs', 'cache', 'cache-max-mb', 'budget'],
      ['quiet', 'no-cache', 'watch', 'json'],
      { out: 'o' },
    );
    const json = args.options.has('json');
    // The watch prints its lines on stdout, build after build: no one document.
    refuseJsonWith(json, args.options, ['watch']);
    const quiet = args.options.has('quiet');
    const jobs = jobsOption(args);
    const cacheOption = stringOption(args, 'cache');
    if (cacheOption !== undefined && args.options.has('no-cache'))
      throw new UsageError('--cache and --no-cache contradict each other');
    const cacheMaxBytes = Math.round(
      positiveNumberOption(args, 'cache-max-mb', DEFAULT_CACHE_MAX_BYTES / 2 ** 20) * 2 ** 20,
    );
    const budgetText = stringOption(args, 'budget');
    const budgetBytes = budgetText === undefined ? undefined : Number(budgetText);
    if (
      budgetBytes !== undefined &&
      !(/^[0-9]+$/.test(budgetText!) && budgetBytes >= 1 && budgetBytes <= MAX_BUDGET_BYTES)
    )
      throw new UsageError(
        `--budget needs a whole number of bytes from 1 to ${MAX_BUDGET_BYTES}, got ${quoteJson(budgetText)}`,
      );
    const projectFile = singlePositional(args, 'project file');
    const options = {
      outDir: stringOption(args, 'o'),
      jobs,
      cacheDir: args.options.has('no-cache') ? null : cacheOption,
      cacheMaxBytes,
      budgetBytes,
    };
    const linked = options.outDir === undefined ? undefined : outDirLinkNote(options.outDir);
    if (linked) console.error(`note: ${linked}`);
    if (!args.options.has('watch')) return buildOnce(projectFile, options, quiet, undefined, json);
    return watchProject(projectFile, options, quiet);
  },
};

type BuildCommandOptions = Omit<ProjectBuildOptions, 'onProgress'>;

/**
 * One build as `actguy build` prints it; returns the exit status. `failedAtOutputs` (the watch) is told of a build
 * that failed for what lies at the outputs' paths rather than for its inputs (ProjectBuildOutcome's `atOutputs`),
 * and prints its errors itself.
 */
async function buildOnce(
  projectFile: string,
  options: BuildCommandOptions,
  quiet: boolean,
  failedAtOutputs?: (errors: string) => void,
  json = false,
): Promise<number> {
  const progress = quiet || json ? undefined : progressPrinter(liveTerminal());
  let outcome;
  // Ctrl+C in a one-shot build (the watch has its own, watchStopper): the outputs are committed as one unit, by a
  // synchronous commit, so a signal finds them all as before or all written.
  let committed: string[] | undefined;
  const interruption = failedAtOutputs
    ? undefined
    : onInterrupt(
        () =>
          committed
            ? `the build was committed before the signal: ${listed(committed)} written`
            : "nothing was written; the project's outputs are as before, and no temp file is left (the cache keeps the motions compressed so far)",
        { stop: () => progress?.end() },
      );
  try {
    outcome = await buildProject(projectFile, {
      ...options,
      onProgress: progress?.motion,
      onCommitted: (paths) => (committed = paths),
    });
  } finally {
    // What the build finished before it stopped is printed whatever stopped it.
    progress?.end();
    interruption?.dispose();
  }
  if (outcome.ok) noteCodePath(buildPath(outcome));
  if (json) {
    printJson(buildJson(projectFile, outcome));
    if (!outcome.ok)
      console.error(
        [
          ...diagnosticLines(outcome.errors, outcome.warnings),
          `${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was written`,
        ].join('\n'),
      );
    else {
      const lines = builtMessages(outcome);
      if (lines.length) console.error(lines.join('\n'));
    }
    return outcome.ok ? EXIT_OK : EXIT_FAILED;
  }
  if (!outcome.ok) {
    const lines = [
      ...diagnosticLines(outcome.errors, outcome.warnings),
      `${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was written`,
    ].join('\n');
    if (outcome.atOutputs && failedAtOutputs) failedAtOutputs(lines);
    else console.error(lines);
    return EXIT_FAILED;
  }
  // One write for all of them: a build that resamples a third of 1,000 motions warns about each, and a write per
  // line was a few percent of a rebuild's CPU time with stderr a pipe (docs/cache.md).
  const lines = builtMessages(outcome);
  if (lines.length) console.error(lines.join('\n'));
  if (!quiet) {
    const { summary } = outcome;
    const t = summary.totals;
    const c = outcome.cache;
    const built =
      `${t.motions} motion${t.motions === 1 ? '' : 's'}: ${summary.outputs.mar.path} (${summary.outputs.mar.bytes} bytes, ${t.keys} keys), ` +
      `${summary.outputs.sar.path} (${summary.outputs.sar.bytes} bytes, ${t.events} events), report ${summary.outputs.report}`;
    console.log(
      outcome.upToDate
        ? `up to date: ${built}; nothing was written: every input and setting is the last build's and its outputs are as it left them (docs/cache.md#up-to-date)`
        : `built ${built}` +
            (c && !c.unusable ? `; ${cacheUse(c)}` : '') +
            (outcome.carried ? `; ${outcome.carried} unchanged since the last build` : ''),
    );
    if (summary.budget) for (const line of budgetLines(summary.budget)) console.log(line);
  }
  return EXIT_OK;
}

/**
 * The path through the build that a one-shot build took, for the commands chunk's code cache (codePaths.ts): each
 * runs code the others do not, and the cache holds only what the runs that made it called.
 */
export function buildPath(outcome: ProjectBuildOutcome & { ok: true }): string {
  if (outcome.upToDate) return 'up-to-date';
  if (!outcome.carried) return 'full';
  // A few motions compressed or verified beside those carried: on the build's own thread (fewChanged.ts), when small.
  const c = outcome.cache;
  const done = c ? c.misses + c.verified : 0;
  return done > 0 && done <= FEW_MOTIONS ? 'few-changed' : 'carried';
}

/**
 * `build --watch` (watch.ts): the first build, then one after each change of an input, each printed as a one-shot
 * build prints, with one pool of workers for all of them. Ctrl+C (or SIGTERM) ends the watch, after the build in
 * progress if there is one; a second Ctrl+C ends it at once (as a plain build's Ctrl+C does: an interrupted commit
 * is completed by the next build, docs/safety-journal.md). Returns the last build's status, EXIT_PARTIAL for a failed
 * one after an earlier build of the watch succeeded.
 */
async function watchProject(projectFile: string, options: BuildCommandOptions, quiet: boolean): Promise<number> {
  const compressor = compressorFor(options.jobs ?? defaultJobs());
  const controller = new AbortController();
  let building = false;
  let status = 0;
  /** A build of this watch succeeded: its outputs are written, whatever the builds after it did. */
  let succeeded = false;
  /** What the last build that threw printed: the same failure again is said in one line. */
  let lastFailure: string | undefined;
  const stop = watchStopper(controller, () => building);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await watchBuilds({
      projectFile,
      signal: controller.signal,
      print: (line) => console.log(line),
      build: async () => {
        building = true;
        // A failure outside the inputs (what lies at the outputs' paths, another run's lock, a full disk, a read-only
        // folder, a refused journal) is tried again by the watch by itself (watch.ts): the same failure again is
        // said in one line.
        const outside = (text: string): 'retry' => {
          console.error(text === lastFailure ? 'actguy build: failed again, as above' : text);
          lastFailure = text;
          return 'retry';
        };
        try {
          let atOutputs: string | undefined;
          status = await buildOnce(projectFile, { ...options, compressor }, quiet, (errors) => (atOutputs = errors));
          if (status === EXIT_OK) succeeded = true;
          if (atOutputs !== undefined) return outside(atOutputs);
          lastFailure = undefined;
          return 'done';
        } catch (e) {
          // A build that failed in a way a one-shot build would exit on is said, and the watch goes on.
          const { text, status: failed } = commandError(buildCommand, e);
          status = failed;
          if (e instanceof FormatError || e instanceof UsageError) {
            console.error(text);
            lastFailure = undefined;
            return 'done';
          }
          return outside(text);
        } finally {
          building = false;
        }
      },
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await compressor.close();
  }
  // The last build failed after an earlier one was written: part of the watch's work stands (docs/cli.md).
  return status === EXIT_FAILED && succeeded ? EXIT_PARTIAL : status;
}

/**
 * The watch's SIGINT and SIGTERM handler: the first signal ends the watch after the build in progress, a second one
 * ends the process at once with 128 + the signal's number (130, 143), as a shell reports a process a signal ended.
 */
export function watchStopper(
  controller: AbortController,
  building: () => boolean,
  exit: (status: number) => never = process.exit,
  say: (line: string) => void = (line) => console.error(line),
): (signal: NodeJS.Signals) => void {
  return (signal) => {
    if (controller.signal.aborted) exit(signal === 'SIGTERM' ? 143 : 130);
    controller.abort();
    if (building()) say('stopping after the build in progress (Ctrl+C again stops it now)');
  };
}

/**
 * What a build that succeeded prints to stderr, a line each: its warnings, notes, and the report's own warnings; of
 * the warnings, input's and report's together, as many as shownBuildWarnings lists (the report keeps them all).
 */
export function builtMessages(outcome: Extract<ProjectBuildOutcome, { ok: true }>): string[] {
  // Every input warning, sorted: shownBuildWarnings lists 100 of them all and counts the rest. Collapsed per file first
  // (listedProblems), 10,000 of one .sev's came to 101 lines, and the count said "2 more" (docs/security.md round 40).
  const input = sortDiagnostics(outcome.warnings).map((w) => w.message);
  const shown = shownBuildWarnings(
    [...input, ...outcome.summary.warnings.slice(outcome.warnings.length)],
    outcome.summary.outputs.report,
  ).map((w) => `warning: ${w}`);
  return [
    ...shown.slice(0, input.length),
    ...outcome.notes.map((n) => `note: ${n}`),
    ...(outcome.cache?.unusable ? [`note: the build cache was not used: ${outcome.cache.unusable}`] : []),
    ...shown.slice(input.length),
  ];
}

/** The budget fit as the CLI prints it: the total against the budget, then one line per motion, the limiting one marked. */
export function budgetLines(b: BuildReportBudget): string[] {
  const width = Math.max(6, ...b.motions.map((m) => m.name.length));
  return [
    `budget: ${b.usedBytes} of ${b.marBytes} bytes (${((b.usedBytes / b.marBytes) * 100).toFixed(1)}%); worst error/tolerance ${b.worstRatio.toFixed(3)}, limited by ${b.limitingMotion}`,
    `  ${'motion'.padEnd(width)}  scale  mt3 bytes  error/tol`,
    ...b.motions.map(
      (m) =>
        `  ${m.name.padEnd(width)}  ${m.scale.toFixed(3).padStart(5)}  ${String(m.mt3Bytes).padStart(9)}  ${m.worstRatio.toFixed(3).padStart(9)}${m.name === b.limitingMotion ? '  (limits the stage)' : ''}`,
    ),
  ];
}

/**
 * Per-motion progress with the time left: on a terminal one live line with a
 * bar, redrawn; otherwise (a log, CI) one plain line per motion. What is printed
 * goes out at most every PROGRESS_FLUSH_MS (and at the last motion, and at `end`):
 * a rebuild takes a thousand motions from the cache in a fraction of a second,
 * and a write for each line was a tenth of its CPU time (docs/cache.md). Lines
 * held back are written by a timer when no motion follows them, so a log shows
 * what finished before a long compression while it runs.
 */
export function progressPrinter(
  tty: boolean,
  write: (s: string) => void = (s) => process.stdout.write(s),
  /** A monotonic clock in ms (a wall clock set back would hold the lines until the end). */
  now: () => number = () => performance.now(),
): { motion: (m: MotionDone) => void; end: () => void } {
  let drawn = false;
  /** What is not written yet: plain lines, or the live line's latest state. */
  let pending = '';
  let lastWrite = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    write(pending);
    pending = '';
    lastWrite = now();
  };
  return {
    motion(m) {
      const r = m.result;
      const what = m.cached
        ? 'from the cache'
        : `${r.totalKeys} keys, ${r.mt3Bytes} bytes (ratio ${r.ratio.toFixed(2)}), ${r.ms.toFixed(0)} ms`;
      if (tty) {
        const width = 24;
        const full = Math.round((m.done / m.count) * width);
        pending = `\r\x1b[K[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${m.done}/${m.count} ${m.name} (${m.cached ? 'cached' : `${r.totalKeys} keys`}), ${formatEta(m.done === m.count ? 0 : m.etaMs)} left`;
        drawn = true;
      } else {
        pending += `[${m.done}/${m.count}] ${m.name}: ${what}; ${formatEta(m.done === m.count ? 0 : m.etaMs)} left\n`;
      }
      const wait = lastWrite + PROGRESS_FLUSH_MS - now();
      if (m.done === m.count || wait <= 0) flush();
      else timer ??= setTimeout(flush, wait).unref();
    },
    end() {
      flush();
      if (drawn) write('\n');
      drawn = false;
    },
  };
}

/**
 * A warning of the build's report as a --json problem, never without a file: one about a motion (`walk_60: resampled
 * from 60 fps ...`) is that motion's .mtn at `{"motion"}`; one that is an input's warning as the report words it (an
 * SEV's, an SE table's, the project's own) is that input's file and place; any other is the project's, the file the
 * build was asked for (place null: the file is the place).
 */
export function reportWarningProblem(
  projectFile: string,
  inputWarnings: readonly FormatError[],
  report: Pick<BuildReport, 'motions'> | undefined,
  message: string,
): JsonProblem {
  const motion = report?.motions.find((m) => message.startsWith(`${m.name}: `));
  if (motion) return { file: motion.mtn, place: { motion: motion.name }, message };
  const input = inputWarnings.find((w) => w.message === message);
  if (input) return { ...jsonProblem(input, projectFile), message };
  return { file: projectFile, place: null, message };
}

/** How often the progress is written at most (see progressPrinter). */
export const PROGRESS_FLUSH_MS = 100;

/**
 * The report an up-to-date build left at `path`, when it reads back as one: JSON whose `motions` are objects each with
 * a string `name` and `mtn` and an array of strings `unmetTolerances` (what --json reads of it). Anything else, or no
 * file, is undefined, as a report that cannot be read back: the file is the project's output, which another program
 * may have written since the check found it untouched, and a report of another shape threw a TypeError out of
 * `actguy build --json` (docs/architecture.md, Electron round 6).
 */
function readBackReport(path: string): BuildReport | undefined {
  let doc: unknown;
  try {
    // As `info` reads a report (build/sarNames.ts): a FIFO put at its path must not hold the command, nor a huge file
    // be read whole.
    doc = JSON.parse(new TextDecoder().decode(readInputFile(path, { bytes: MAX_REPORT_BYTES, of: 'a build report' })));
  } catch {
    return undefined;
  }
  const motions = (doc as { motions?: unknown } | null)?.motions;
  const motionShaped = (m: unknown): boolean => {
    const { name, mtn, unmetTolerances } = (m ?? {}) as Record<string, unknown>;
    return (
      typeof m === 'object' &&
      typeof name === 'string' &&
      typeof mtn === 'string' &&
      Array.isArray(unmetTolerances) &&
      unmetTolerances.every((u) => typeof u === 'string')
    );
  };
  return Array.isArray(motions) && motions.every(motionShaped) ? (doc as BuildReport) : undefined;
}

/**
 * build --json's document (docs/cli.md, "--json"): the outputs and their sizes, totals, each motion's keys, bytes and
 * largest errors against its tolerances, the unmet tolerances, warnings and notes; or the errors, nothing written.
 */
export function buildJson(projectFile: string, outcome: ProjectBuildOutcome): Record<string, unknown> {
  const warnings = outcome.warnings.map((w) => jsonProblem(w));
  if (!outcome.ok) {
    const errors = outcome.errors.map((e) => jsonProblem(e));
    return { error: errors[0] ?? null, errors, warnings, written: [] };
  }
  const { summary } = outcome;
  // Up to date: nothing was built, and the report at its path is the last build's, which the check found untouched.
  const report: BuildReport | undefined = outcome.report ?? readBackReport(summary.outputs.report);
  const motions =
    report?.motions.map((m) => ({
      index: m.index,
      name: m.name,
      hash: m.hash,
      mtn: m.mtn,
      keys: m.keys,
      mt3Bytes: m.mt3Bytes,
      mtnBytes: m.mtnBytes,
      ratio: m.ratio,
      maxError: m.maxError,
      tolerances: m.tolerances,
      rotationOverridesDeg: m.rotationOverridesDeg,
      unmetTolerances: m.unmetTolerances,
      events: m.events,
    })) ?? null;
  const c = outcome.cache;
  return {
    command: 'build',
    project: projectFile,
    upToDate: outcome.upToDate,
    written: outcome.written,
    outputs: summary.outputs,
    totals: summary.totals,
    motions,
    unmetTolerances: (report?.motions ?? []).flatMap((m) =>
      m.unmetTolerances.map((message) => ({ motion: m.name, mtn: m.mtn, message })),
    ),
    budget: summary.budget ?? null,
    cache: c ? { ...c } : null,
    carried: outcome.carried,
    warnings: [
      ...warnings,
      // The report's own warnings start with the motion they are about (`walk_60: resampled from 60 fps ...`).
      ...summary.warnings
        .slice(outcome.warnings.length)
        .map((message) => reportWarningProblem(projectFile, outcome.warnings, report, message)),
    ],
    notes: outcome.notes,
  };
}
