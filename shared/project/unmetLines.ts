/**
 * The lines a build says of a motion's keys over their tolerance, apart from plan.ts so that what reads a build's
 * record in the main process (electron/build/lastBuild.ts) says them without the compressor and the parsers in its
 * bundle (electron/packaging.test.ts, electron/project/textCheck.test.ts).
 */
import { objectBoundLine, unreachableLines } from '../compress/unreachableText';
import type { CompressedMotion, PreparedBuild } from './plan';

/**
 * What a build says of motion k's keys over their tolerance (BuildReportMotion.unmetTolerances): the summary of
 * `actguy compress` (unreachableLines), after objectBoundLine when the skeleton-aware bound asked was below the
 * motion's floor. A result without that summary (a carried motion: the last build's lines, kept as its warnings)
 * says its warnings' messages.
 */
export function unmetLinesOf(prepared: PreparedBuild, k: number, res: CompressedMotion): string[] {
  const bound = res.skeleton ? objectBoundLine(res.skeleton) : undefined;
  if (!res.unreachable && !bound) return res.warnings.map((w) => w.message);
  const lines = bound ? [bound] : [];
  if (res.unreachable)
    lines.push(
      ...unreachableLines(
        res.unreachable,
        prepared.motions[k].joints.map((j) => j.name),
        'the build report lists every key over its tolerance (the motion\'s "unreachable")',
        res.skeleton?.objectTolerance,
        res.skeleton?.requestedObjectTolerance ?? res.skeleton?.objectTolerance,
      ),
    );
  return lines;
}
