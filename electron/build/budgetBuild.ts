/**
 * The compression stage of a build, with the project's memory budget when it
 * sets one (docs/formats.md#budget): every motion is compressed at the ladder
 * steps of searchBudget's fixed schedule (each step one compressMotions pass,
 * so the pool, the cache and the progress work as in any build), and the
 * chosen step of each motion decides its bytes. Without a budget this is one
 * compressMotions pass. Shared by `actguy build` and the app's build worker.
 */
import { FormatError } from '../../shared/errors';
import {
  BUDGET_TOP_STEP,
  budgetRatio,
  budgetScale,
  MAX_BUDGET_SCALE,
  marShare,
  searchBudget,
  type BudgetEvaluation,
} from '../../shared/project/budget';
import {
  withToleranceScale,
  type BuildReportBudget,
  type CompressedMotion,
  type PreparedBuild,
  type PreparedMotion,
} from '../../shared/project/plan';
import { compressMotions, type CompressMotionsOptions } from './compressMotions';

type BudgetedCompression =
  | { ok: true; prepared: PreparedBuild; results: CompressedMotion[]; budget?: BuildReportBudget }
  | { ok: false; errors: FormatError[] };

/** A motion's worst error-to-tolerance ratio (budgetRatio) from its compressed summary, at `scale`. */
export function motionBudgetRatio(p: PreparedMotion, r: CompressedMotion, scale: number): number {
  const skeleton =
    r.skeleton && r.objectError
      ? { objectTolerance: r.skeleton.objectTolerance, objectMaxError: r.objectError.maxError }
      : undefined;
  return budgetRatio(r.channels, p.rotationOverridesDeg, scale, skeleton);
}

/**
 * Compresses a prepared build, fitting the budget when the project sets one: returns the build with each
 * motion's chosen scale (for assembleBuild and the report), the results at those scales and the budget's report
 * lines; or the error naming how many bytes are missing at the loosest allowed scale.
 */
export async function compressWithinBudget(
  prepared: PreparedBuild,
  options: CompressMotionsOptions,
): Promise<BudgetedCompression> {
  const budget = prepared.project.budget;
  if (!budget) {
    const done = await compressMotions(prepared, options);
    return done.ok ? { ok: true, prepared, results: done.results } : done;
  }
  const entries = prepared.motions.length + prepared.aliases.length;
  const uses = prepared.motions.map((_, m) => 1 + prepared.aliases.filter((a) => a.resolved.targetIndex === m).length);
  const atStep = new Map<string, CompressedMotion>();
  let failed: FormatError[] | undefined;
  const scaledBuild = (steps: readonly number[]): PreparedBuild => ({
    ...prepared,
    motions: prepared.motions.map((p, m) => (steps[m] === 0 ? p : withToleranceScale(p, budgetScale(steps[m])))),
  });
  const evaluate = async (steps: readonly number[]): Promise<BudgetEvaluation> => {
    if (failed) throw new BudgetAbort();
    const done = await compressMotions(scaledBuild(steps), options);
    if (!done.ok) {
      failed = done.errors;
      throw new BudgetAbort();
    }
    done.results.forEach((r, m) => atStep.set(`${m}:${steps[m]}`, r));
    return done.results.map((r, m) => ({
      bytes: marShare(r.mt3Bytes, uses[m]),
      ratio: motionBudgetRatio(prepared.motions[m], r, budgetScale(steps[m])),
    }));
  };
  let search;
  try {
    search = await searchBudget(prepared.motions.length, entries, budget.marBytes, evaluate);
  } catch (e) {
    if (e instanceof BudgetAbort && failed) return { ok: false, errors: failed };
    throw e;
  }
  if (!search.ok) {
    return {
      ok: false,
      errors: [
        new FormatError(
          'PROJECT',
          `the .mar cannot fit ${bytes(budget.marBytes)}: at the loosest allowed setting (every motion's tolerances x${MAX_BUDGET_SCALE}, per-joint overrides as set) ` +
            `it takes ${bytes(search.loosestMarBytes)}, ${bytes(search.missingBytes)} too many; raise budget.marBytes, loosen the overrides or split the stage`,
          { where: 'budget.marBytes' },
          prepared.project.projectFile,
        ),
      ],
    };
  }
  const chosen = scaledBuild(search.steps);
  const results = search.steps.map((step, m) => atStep.get(`${m}:${step}`)!);
  const { allocation, tables } = search;
  const report: BuildReportBudget = {
    marBytes: budget.marBytes,
    usedBytes: allocation.marBytes,
    maxScale: round(budgetScale(BUDGET_TOP_STEP)),
    worstRatio: round(allocation.ratio),
    limitingMotion: prepared.motions[allocation.limiting].resolved.name,
    motions: prepared.motions.map((p, m) => {
      const point = tables[m][allocation.choice[m]];
      return {
        name: p.resolved.name,
        scale: round(budgetScale(point.step)),
        mt3Bytes: results[m].mt3Bytes,
        marBytes: point.bytes,
        worstRatio: round(point.ratio),
      };
    }),
    passes: search.passes,
  };
  return { ok: true, prepared: chosen, results, budget: report };
}

/** Stops the search at a compression that failed (its errors are returned instead). */
class BudgetAbort extends Error {}

/** Report figures to 4 decimals: enough to read, and the same text on every machine. */
function round(x: number): number {
  return Number(x.toFixed(4));
}

/** A count of bytes in words: "1 byte", "2 bytes" (a budget or a miss of one byte is a case the refusal meets). */
function bytes(n: number): string {
  return `${n} byte${n === 1 ? '' : 's'}`;
}
