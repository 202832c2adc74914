/**
 * Stages that fit a memory budget (docs/formats.md#budget): choose a scale of
 * each motion's tolerances so the .mar fits in `budget.marBytes` with the
 * smallest worst ratio, across the stage, of a channel's error to its own
 * tolerance.
 *
 * The search is a fixed schedule, so the same inputs and budget give the same
 * bytes whatever the number of workers, the cache or the machine: every
 * motion is compressed at ladder steps chosen only from earlier results (the
 * written sizes and errors, which are deterministic), never from timings.
 * Each evaluated step adds one point (bytes, ratio) to every motion's
 * rate-distortion table; a lexicographic min-max allocation over those tables
 * then picks one point per motion.
 */
import { align16, marDataBase } from '../mar/constants';

/** Ladder steps per doubling of the tolerances: step k scales them by 2^(k / BUDGET_STEPS_PER_OCTAVE). */
export const BUDGET_STEPS_PER_OCTAVE = 1024;
/** The loosest a budget build goes: every motion's tolerances (not its per-joint overrides) times this. */
export const MAX_BUDGET_SCALE = 4;
/** The ladder step of MAX_BUDGET_SCALE. */
export const BUDGET_TOP_STEP = Math.round(Math.log2(MAX_BUDGET_SCALE) * BUDGET_STEPS_PER_OCTAVE);
/** The largest budget a project may set: a .mar addresses its entries with 32-bit offsets. */
export const MAX_BUDGET_BYTES = 0xffffffff;

/**
 * The tolerance scale of ladder step k (step 0: the tolerances as set), rounded to 1/65536 so that it is the same
 * number on every machine whatever the last bit of its `**` (the scaled tolerances decide the bytes).
 */
export function budgetScale(step: number): number {
  return Math.round(2 ** (step / BUDGET_STEPS_PER_OCTAVE) * 65536) / 65536;
}

/** One point of a motion's rate-distortion table. */
export interface BudgetPoint {
  /** Ladder step (budgetScale(step) is the scale). */
  step: number;
  /** What the motion adds to the .mar at this step: its MT3 padded to 16 bytes, once per archive entry using it (aliases). */
  bytes: number;
  /** Its worst channel error over that channel's own (unscaled) tolerance (budgetRatio). */
  ratio: number;
}

/** One point per motion, chosen by allocateBudget. */
export interface BudgetAllocation {
  /** Index into each motion's table. */
  choice: number[];
  /** The .mar's size with these choices. */
  marBytes: number;
  /** The worst ratio over all motions. */
  ratio: number;
  /** The motion attaining it (the first, by archive index, on a tie). */
  limiting: number;
}

/** A motion's share of the .mar: its MT3 padded to the archive's 16-byte alignment, for itself and each alias of it. */
export function marShare(mt3Bytes: number, entries: number): number {
  return align16(mt3Bytes) * entries;
}

/** The .mar's size for `entries` archive entries whose shares (marShare) add up to `shares`. */
export function marBytesOf(entries: number, shares: number): number {
  return marDataBase(entries) + shares;
}

/** What budgetRatio needs of one channel of a compression (CompressedMotion's channel summary). */
export interface RatioChannel {
  kind: 'translation' | 'rotation' | 'offset';
  joint: number;
  /** The tolerance the compressor used (scaled, or an override as set). */
  tolerance: number;
  maxError: number;
}

/**
 * A motion's worst ratio of a channel's error to its own tolerance, compressed with its tolerances times
 * `scale`: a channel with a per-joint override (a floor: never scaled) counts against the override, every other
 * channel against its tolerance as set (the one used, over `scale`). In skeleton-aware mode the object-space
 * error counts against the object tolerance as set, in place of the derived per-joint rotation tolerances.
 */
export function budgetRatio(
  channels: readonly RatioChannel[],
  overrides: Readonly<Record<number, number>>,
  scale: number,
  skeleton?: { objectTolerance: number; objectMaxError: number },
): number {
  let worst = 0;
  for (const c of channels) {
    const floor = c.kind === 'rotation' ? overrides[c.joint] : undefined;
    if (skeleton && c.kind === 'rotation' && floor === undefined) continue;
    const own = floor ?? c.tolerance / scale;
    if (own > 0) worst = Math.max(worst, c.maxError / own);
  }
  if (skeleton) worst = Math.max(worst, skeleton.objectMaxError / (skeleton.objectTolerance / scale));
  return worst;
}

/**
 * The lexicographic min-max choice over rate-distortion tables: the smallest worst ratio whose cheapest points
 * fit `budgetBytes`; the motions attaining it keep those points, and the rest get the smallest worst ratio the
 * bytes left allow, and so on. Null when even the cheapest point of every motion does not fit. Ties go to fewer
 * bytes, then the lower ratio, then the lower step, so the choice depends on the tables alone.
 */
export function allocateBudget(
  tables: readonly (readonly BudgetPoint[])[],
  entries: number,
  budgetBytes: number,
): BudgetAllocation | null {
  const choice = new Array<number>(tables.length).fill(-1);
  let left = budgetBytes - marDataBase(entries);
  let open = tables.map((_, m) => m);
  // The cheapest point of motion m with a ratio <= r (-1: none).
  const cheapest = (m: number, r: number): number => {
    let best = -1;
    tables[m].forEach((p, i) => {
      if (p.ratio > r) return;
      const b = best < 0 ? undefined : tables[m][best];
      if (
        !b ||
        p.bytes < b.bytes ||
        (p.bytes === b.bytes && (p.ratio < b.ratio || (p.ratio === b.ratio && p.step < b.step)))
      )
        best = i;
    });
    return best;
  };
  while (open.length) {
    const levels = [...new Set(open.flatMap((m) => tables[m].map((p) => p.ratio)))].sort((a, b) => a - b);
    // The cheapest bytes at a level never grow with the level: bisect for the lowest level that fits.
    const fitsAt = (r: number): number[] | null => {
      const picks = open.map((m) => cheapest(m, r));
      if (picks.some((i) => i < 0)) return null;
      return picks.reduce((s, i, k) => s + tables[open[k]][i].bytes, 0) <= left ? picks : null;
    };
    if (!levels.length || !fitsAt(levels[levels.length - 1])) return null;
    let lo = -1;
    let hi = levels.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (fitsAt(levels[mid])) hi = mid;
      else lo = mid;
    }
    const level = levels[hi];
    const chosen = fitsAt(level)!;
    // A motion at the level is bound to it when its cheapest point below the level does not fit with every other
    // motion at its cheapest: those keep their points (at least one: the first at the level when none is bound
    // alone); the others are solved again, for a lower worst ratio with the bytes left.
    const total = chosen.reduce((sum, i, k) => sum + tables[open[k]][i].bytes, 0);
    const below = hi > 0 ? levels[hi - 1] : -1;
    const atLevel = open.map((_, k) => k).filter((k) => tables[open[k]][chosen[k]].ratio === level);
    let bound = atLevel.filter((k) => {
      const lower = below < 0 ? -1 : cheapest(open[k], below);
      return lower < 0 || total - tables[open[k]][chosen[k]].bytes + tables[open[k]][lower].bytes > left;
    });
    if (!bound.length) bound = atLevel.slice(0, 1);
    for (const k of bound) {
      choice[open[k]] = chosen[k];
      left -= tables[open[k]][chosen[k]].bytes;
    }
    open = open.filter((_, k) => !bound.includes(k));
  }
  const points = choice.map((i, m) => tables[m][i]);
  const ratio = Math.max(0, ...points.map((p) => p.ratio));
  return {
    choice,
    marBytes: marBytesOf(
      entries,
      points.reduce((s, p) => s + p.bytes, 0),
    ),
    ratio,
    limiting: Math.max(
      0,
      points.findIndex((p) => p.ratio === ratio),
    ),
  };
}

/** Every motion's share of the .mar and ratio at its ladder step, in archive order. */
export type BudgetEvaluation = { bytes: number; ratio: number }[];

export type BudgetSearchResult =
  | { ok: true; steps: number[]; allocation: BudgetAllocation; tables: BudgetPoint[][]; passes: number }
  | { ok: false; loosestMarBytes: number; missingBytes: number; passes: number };

/** Ladder steps between the probes of the uniform bisection (an eighth of an octave). */
const COARSE_STEPS = BUDGET_STEPS_PER_OCTAVE / 8;
/** Probes of the refinement, each halving the interval of worst ratios that may fit. */
const REFINE_PROBES = 8;

/**
 * The fixed search schedule. Every motion at step 0 (the tolerances as set; done when that fits); at
 * BUDGET_TOP_STEP (when that does not fit, the budget cannot be met: the result says by how many bytes); a
 * bisection of one common step over multiples of an eighth of an octave, then over every step between the two it
 * ends on (so the best uniform step that fits is a probe); then REFINE_PROBES probes that bisect the
 * worst ratio itself: each aims every motion at the target ratio, at the step its own table predicts
 * (interpolated between its points), so a motion whose error grows slowly with its tolerances goes further.
 * Finally allocateBudget over every point gathered: the best probe is one allocation of the tables, so the result
 * is never worse than any of them. `evaluate` compresses every motion at its step (deterministic results), and
 * every choice of the schedule depends only on earlier results: the same inputs give the same passes.
 */
export async function searchBudget(
  count: number,
  entries: number,
  budgetBytes: number,
  evaluate: (steps: readonly number[]) => Promise<BudgetEvaluation>,
): Promise<BudgetSearchResult> {
  const tables: BudgetPoint[][] = Array.from({ length: count }, () => []);
  let passes = 0;
  const probe = async (steps: readonly number[]): Promise<{ marBytes: number; ratio: number }> => {
    const points = await evaluate(steps);
    passes++;
    points.forEach((p, m) => {
      if (!tables[m].some((q) => q.step === steps[m]))
        tables[m].push({ step: steps[m], bytes: p.bytes, ratio: p.ratio });
    });
    return {
      marBytes: marBytesOf(
        entries,
        points.reduce((s, p) => s + p.bytes, 0),
      ),
      ratio: Math.max(0, ...points.map((p) => p.ratio)),
    };
  };
  const all = (step: number) => new Array<number>(count).fill(step);
  const asSet = await probe(all(0));
  if (asSet.marBytes > budgetBytes) {
    const loosest = await probe(all(BUDGET_TOP_STEP));
    if (loosest.marBytes > budgetBytes)
      return { ok: false, loosestMarBytes: loosest.marBytes, missingBytes: loosest.marBytes - budgetBytes, passes };
    let fits = BUDGET_TOP_STEP / COARSE_STEPS;
    let over = 0;
    let hiRatio = loosest.ratio;
    while (fits - over > 1) {
      const mid = (fits + over) >> 1;
      const at = await probe(all(mid * COARSE_STEPS));
      if (at.marBytes <= budgetBytes) {
        fits = mid;
        hiRatio = at.ratio;
      } else over = mid;
    }
    // Then the same bisection over every ladder step between those two: the best common step that fits is one of
    // the probes, so the allocation below is never worse than any uniform scale of the ladder.
    let fineFits = fits * COARSE_STEPS;
    let fineOver = over * COARSE_STEPS;
    while (fineFits - fineOver > 1) {
      const mid = (fineFits + fineOver) >> 1;
      const at = await probe(all(mid));
      if (at.marBytes <= budgetBytes) {
        fineFits = mid;
        hiRatio = Math.min(hiRatio, at.ratio);
      } else fineOver = mid;
    }
    // The worst ratio that fits lies between what one coarse step less would give and what fits now.
    let loRatio = hiRatio / budgetScale(COARSE_STEPS);
    for (let k = 0; k < REFINE_PROBES; k++) {
      const target = (loRatio + hiRatio) / 2;
      const at = await probe(tables.map((t) => stepFor(t, target)));
      if (at.marBytes <= budgetBytes) hiRatio = Math.min(hiRatio, at.ratio);
      else loRatio = target;
      if (hiRatio <= loRatio) break;
    }
  }
  const allocation = allocateBudget(tables, entries, budgetBytes);
  // Unreachable: some probe fits, and every probe is one allocation of the tables.
  if (!allocation) throw new Error('searchBudget: no allocation fits although a probe does');
  return { ok: true, steps: allocation.choice.map((i, m) => tables[m][i].step), allocation, tables, passes };
}

/**
 * The step at which a motion's table predicts `ratio`: interpolated (linearly in the step) between its highest
 * point at or under the ratio and its lowest point above it; the top step when every point is under it, step 0 when
 * none is (its error does not go below the ratio at any scale).
 */
function stepFor(table: readonly BudgetPoint[], ratio: number): number {
  const sorted = [...table].sort((a, b) => a.step - b.step);
  let under: BudgetPoint | undefined;
  for (const p of sorted) if (p.ratio <= ratio) under = p;
  if (!under) return 0;
  const above = sorted.find((p) => p.step > under!.step && p.ratio > ratio);
  if (!above) return BUDGET_TOP_STEP;
  const t = (ratio - under.ratio) / (above.ratio - under.ratio);
  return Math.min(above.step - 1, Math.max(under.step, under.step + Math.floor(t * (above.step - under.step))));
}
