import { buildProject, type ProjectBuildOutcome } from '../../build/build';
import { DEFAULT_CACHE_MAX_BYTES } from '../../build/buildCache';
import type { MotionDone } from '../../build/compressMotions';
import { listedProblems, printDiagnostics } from '../../build/inputs';
import { shownBuildWarnings } from '../../build/reportWarnings';
import { quoteJson } from '../../../shared/errors';
import { formatEta } from '../../../shared/project/eta';
import { jobsOption, parseArgs, positiveNumberOption, singlePositional, stringOption, UsageError } from '../args';
import type { CliCommand } from '../command';
import { MAX_BUDGET_BYTES } from '../../../shared/project/budget';
import type { BuildReportBudget } from '../../../shared/project/plan';

export const buildCommand: CliCommand = {
  name: 'build',
  usage:
    'build PROJECT.actguy.json [-o OUTDIR] [--jobs N] [--cache DIR | --no-cache] [--cache-max-mb MB] [--budget BYTES] [--quiet]',
  summary:
    'validate a project, compress every motion (N worker threads, default: the cores; unchanged motions come from the cache, default .actguy-cache/ beside the project) ' +
    'and write the .mar, the .sar and a JSON build report as one unit (nothing is written on any error); ' +
    "--budget (or the project's budget.marBytes) fits the .mar in BYTES by scaling each motion's tolerances where it costs least (docs/formats.md#budget)",
  async run(argv) {
    const args = parseArgs(argv, ['o', 'jobs', 'cache', 'cache-max-mb', 'budget'], ['quiet', 'no-cache'], { out: 'o' });
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
    const progress = quiet ? undefined : progressPrinter(Boolean(process.stdout.isTTY));
    let outcome;
    try {
      outcome = await buildProject(singlePositional(args, 'project file'), {
        outDir: stringOption(args, 'o'),
        jobs,
        cacheDir: args.options.has('no-cache') ? null : cacheOption,
        cacheMaxBytes,
        onProgress: progress?.motion,
        budgetBytes,
      });
    } finally {
      // What the build finished before it stopped is printed whatever stopped it.
      progress?.end();
    }
    if (!outcome.ok) {
      printDiagnostics(outcome.errors, outcome.warnings);
      console.error(`${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was written`);
      return 1;
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
              (c && !c.unusable
                ? `; cache: ${c.hits} reused, ${c.rejected + c.damaged} rejected, ${c.misses} compressed${c.evicted ? `, ${c.evicted} old entries evicted` : ''}`
                : '') +
              (outcome.carried ? `; ${outcome.carried} unchanged since the last build` : ''),
      );
      if (summary.budget) for (const line of budgetLines(summary.budget)) console.log(line);
    }
    return 0;
  },
};

/**
 * What a build that succeeded prints to stderr, a line each: its warnings, notes, and the report's own warnings; of
 * the warnings, input's and report's together, as many as shownBuildWarnings lists (the report keeps them all).
 */
export function builtMessages(outcome: Extract<ProjectBuildOutcome, { ok: true }>): string[] {
  const input = listedProblems(outcome.warnings).map((w) => w.message);
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

/** How often the progress is written at most (see progressPrinter). */
export const PROGRESS_FLUSH_MS = 100;
