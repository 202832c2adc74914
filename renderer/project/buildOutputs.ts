import type { BuildStatus } from '../../shared/ipc/project';
import { basenameOf } from '../../shared/project/paths';
import { sizeText } from './byteSize';

function percent(part: number, whole: number): string {
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** One file a build wrote, as the build dialog lists it. */
export interface WrittenRow {
  path: string;
  name: string;
  /** Its size in bytes, or null when the build did not say (a build by an older main process). */
  bytes: number | null;
  /** What the file holds, with its share: the motions' data in the .mar, against the budget if one is set. */
  holds: string;
  /** The .mar over its budget's share, for the row's colour: null without a budget. */
  overBudget: boolean | null;
  /** The last build's file, left as it was by a build that was up to date (nothing written). */
  unchanged: boolean;
}

/**
 * What a finished build wrote, file by file: each file's size, the motions' share of the .mar (the rest is its header
 * and entry table), and the .mar against the project's budget when one is set. A lead reading a first build saw only
 * "wrote stage.mar" with no size (tried cold, round 14; docs/user-guide.md, fifteenth round).
 */
export function writtenRows(s: BuildStatus): WrittenRow[] {
  // An up-to-date build wrote nothing: its rows are the outputs it left as they were, with their sizes (they showed
  // none, as if the build had made no archives).
  if (s.upToDate)
    return (s.unchanged ?? []).map(({ path, bytes }) => ({
      path,
      name: basenameOf(path),
      bytes,
      holds: '',
      overBudget: null,
      unchanged: true,
    }));
  const r = s.report;
  return s.written.map((path, i) => {
    const known =
      r && path === r.outputs.mar.path
        ? r.outputs.mar.bytes
        : r && path === r.outputs.sar.path
          ? r.outputs.sar.bytes
          : null;
    const bytes = s.writtenBytes?.[i] ?? known;
    const name = basenameOf(path);
    let holds = '';
    let overBudget: boolean | null = null;
    if (r && path === r.outputs.mar.path) {
      const mar = bytes ?? r.outputs.mar.bytes;
      const count = r.totals.motions;
      holds =
        `${count === 1 ? '1 motion' : `${count} motions`}: ${sizeText(r.totals.mt3Bytes)} (${percent(r.totals.mt3Bytes, mar)}); ` +
        `the rest is the header and entry table`;
      if (r.budget) {
        const left = r.budget.marBytes - mar;
        overBudget = left < 0;
        holds +=
          `. Budget ${sizeText(r.budget.marBytes)}: ${percent(mar, r.budget.marBytes)} used, ` +
          (left < 0 ? `${sizeText(-left)} over` : `${sizeText(left)} to spare`);
      }
    } else if (r && path === r.outputs.sar.path) {
      const slots = r.motions.reduce((n, m) => n + m.seSlots, 0);
      holds = `sound events: ${r.totals.events} events, ${slots} SE slots`;
    } else if (r && path === r.outputs.report) {
      holds = 'the build report: what went into the build and its figures';
    } else if (/\.(res8|res19|nodes\.json)$/i.test(path)) {
      holds = 'MSH export of a motion (outputs.msh)';
    }
    return { path, name, bytes, holds, overBudget, unchanged: false };
  });
}
