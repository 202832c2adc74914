/**
 * The project's memory budget in the app (docs/formats.md#budget): what the
 * panel's budget bar shows (the .mar's bytes by motion, from the last check
 * or build, against the budget) and the edit that sets or clears
 * `budget.marBytes` as one named undo step.
 */
import type { BuildMotionResult } from '../../shared/ipc';
import type { BuildReportBudget } from '../../shared/project/plan';
import { marBytesOf, marShare, MAX_BUDGET_BYTES } from '../../shared/project/budget';
import { editProject } from './projectHistory';
import type { ProjectJson } from './projectStore';

/** One motion's part of the .mar in the bar. */
export interface BudgetSegment {
  name: string;
  /** Its MT3 padded to 16 bytes, once per archive entry using it (its aliases too). */
  bytes: number;
}

/** The budget bar's content. */
export interface BudgetUse {
  /** The project's budget.marBytes, or null when it sets none. */
  budget: number | null;
  /** Each motion's part, in archive order; empty until a check or build measured every motion. */
  segments: BudgetSegment[];
  /** The .mar's size from those parts (header and entry table included), or null before a check. */
  marBytes: number | null;
}

/** The budget the project file sets, when it is a valid one (the validator reports any other). */
export function budgetOf(json: ProjectJson | null): number | null {
  const b = json?.budget as { marBytes?: unknown } | undefined;
  const n = b?.marBytes;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_BUDGET_BYTES ? n : null;
}

/** The bar's content from the project and the per-motion results of the last check or build. */
export function budgetUse(json: ProjectJson | null, status: Record<string, BuildMotionResult>): BudgetUse {
  const budget = budgetOf(json);
  const motions = json?.motions ?? [];
  const aliases = Array.isArray(json?.aliases) ? (json!.aliases as { target?: unknown }[]) : [];
  if (!motions.length || motions.some((m) => !status[m.name])) return { budget, segments: [], marBytes: null };
  const segments = motions.map((m) => ({
    name: m.name,
    bytes: marShare(status[m.name].mt3Bytes, 1 + aliases.filter((a) => a.target === m.name).length),
  }));
  return {
    budget,
    segments,
    marBytes: marBytesOf(
      motions.length + aliases.length,
      segments.reduce((s, g) => s + g.bytes, 0),
    ),
  };
}

/**
 * Reads what the user typed as a budget: a whole number of bytes, or with a unit (`48K`, `1.5 MiB`: 1024-based).
 * Empty clears it. Returns the bytes, null for "no budget", or an error in words.
 */
export function parseBudgetInput(text: string): { bytes: number | null } | { error: string } {
  const t = text.trim();
  if (t === '') return { bytes: null };
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*(b|bytes?|k|kb|kib|m|mb|mib)?$/i.exec(t);
  if (!m) return { error: `not a size: ${JSON.stringify(t)} (bytes, or with K or M)` };
  const unit = (m[2] ?? 'b').toLowerCase();
  const bytes = Math.round(Number(m[1]) * (unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1));
  if (!(bytes >= 1 && bytes <= MAX_BUDGET_BYTES)) return { error: `a budget is 1 to ${MAX_BUDGET_BYTES} bytes` };
  return { bytes };
}

/**
 * A budget as the field shows it: in the units it was typed in when it is a whole number of them ("60K", "2M"; the
 * field showed "61440" for "60K"), else in bytes; '' for none. parseBudgetInput reads it back to the same bytes.
 */
export function budgetFieldText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024}M`;
  if (bytes % 1024 === 0) return `${bytes / 1024}K`;
  return String(bytes);
}

/** Sets (or, with null, clears) the project's budget as one undo step; saved with the project file. */
export function setProjectBudget(bytes: number | null): void {
  const shown = budgetFieldText(bytes);
  const label =
    bytes === null
      ? 'Clear the memory budget'
      : shown === String(bytes)
        ? `Set the memory budget to ${bytes} bytes`
        : `Set the memory budget to ${shown} (${bytes} bytes)`;
  editProject(label, (json) => {
    if (budgetOf(json) === bytes && (bytes !== null || json.budget === undefined)) return json;
    const { budget: _old, ...rest } = json;
    return bytes === null ? (rest as ProjectJson) : { ...rest, budget: { marBytes: bytes } };
  });
}

/**
 * The tolerance scale past which a budget build asks the lead to look (tried cold, round 17: the fit raised every
 * tolerance about ×2 and said so only in the table's figures). ×1.5 lets an error reach half again the tolerance
 * the animator set: past that, a careful tool says it in words before the archives go out.
 */
export const LOOSE_BUDGET_SCALE = 1.5;

/**
 * The line over the build dialog's budget table when the fit loosened a motion's tolerances past LOOSE_BUDGET_SCALE:
 * which motions, how far, how large their error is against the tolerances as set, and the two ways out. Null when
 * every scale stays at or under it.
 */
export function budgetLooseningNote(budget: BuildReportBudget): string | null {
  const loose = budget.motions.filter((m) => m.scale > LOOSE_BUDGET_SCALE);
  if (loose.length === 0) return null;
  const top = loose.reduce((a, b) => (b.scale > a.scale ? b : a));
  const worst = loose.reduce((a, b) => (b.worstRatio > a.worstRatio ? b : a));
  const which =
    loose.length === budget.motions.length
      ? `every motion's tolerances (${loose.length})`
      : `the tolerances of ${loose.length} of ${budget.motions.length} motions (${loose.map((m) => m.name).join(', ')})`;
  return (
    `To fit the budget the build loosened ${which} past ×${LOOSE_BUDGET_SCALE}, up to ×${top.scale.toFixed(2)} on ` +
    `${top.name}: ${worst.name}'s error now reaches ${worst.worstRatio.toFixed(2)}× the tolerance set. ` +
    `Look at them before the archives go out (the project list shows each motion's figures at its scale, "tol ×"); ` +
    `if that is more error than the game can show, raise the budget and build again.`
  );
}
