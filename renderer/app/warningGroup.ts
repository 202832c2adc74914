/**
 * The warnings of one import or export as one message (docs/user-guide.md "Tried cold"): a BVH of 300 long joint
 * names gave 300 notifications, which pushed the import's own summary (and every other message) out of the list.
 * One warning reads as before; several read as one line that counts them by kind, with the list behind "Show all".
 */
import { MAX_LISTED_PROBLEMS, notListed } from '../../shared/errors';
import type { InterchangeWarning } from '../../shared/interchange/types';

/** What a message says and the lines its "Show all" lists (none for a single warning). */
export interface WarningGroup {
  text: string;
  details: string[];
}

/** How a kind of importer warning is counted in the one line ("3 joint names truncated"). */
const KIND_NAMES: Record<InterchangeWarning['code'], string> = {
  'name-truncated': 'joint names truncated',
  'name-changed': 'joint names with characters replaced',
  'name-duplicate': 'duplicate joint names renamed',
  'scale-unsupported': 'scale tracks ignored',
  'frames-clamped': 'frame counts clamped',
  'frames-extra': 'extra frames',
  'clip-trimmed': 'clips trimmed',
  'root-added': 'roots added',
  'nodes-as-joints': 'animated nodes read as joints',
  unanimated: 'unanimated',
  'rate-snapped': 'frame rates snapped',
  'positions-local': 'position channels read as local positions',
  'positions-added': 'position channels read as displacements',
  'keys-interpolated': 'frames between auto-tangent keys',
  loader: 'from the loader',
};

/**
 * The lines a message lists: the first MAX_LISTED_PROBLEMS, then one that counts the rest (the list a person reads
 * stays bounded however many warnings a received file makes).
 */
export function listedLines(lines: readonly string[]): string[] {
  if (lines.length <= MAX_LISTED_PROBLEMS + 1) return [...lines];
  return [
    ...lines.slice(0, MAX_LISTED_PROBLEMS),
    notListed(lines.length - MAX_LISTED_PROBLEMS, 'warnings', MAX_LISTED_PROBLEMS),
  ];
}

/**
 * `warnings` about `subject` (a file name, "MSH export") as one message, or null when there are none. `lines` are
 * the warnings as the list shows them; `kinds` (the same length, when known) the kind of each, counted in the text.
 */
export function warningGroup(
  subject: string,
  lines: readonly string[],
  kinds?: readonly InterchangeWarning['code'][],
): WarningGroup | null {
  if (lines.length === 0) return null;
  if (lines.length === 1) return { text: `${subject}: ${lines[0]}`, details: [] };
  const counts = new Map<string, number>();
  for (const k of kinds ?? []) counts.set(KIND_NAMES[k] ?? k, (counts.get(KIND_NAMES[k] ?? k) ?? 0) + 1);
  const byKind = [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
  return {
    text: `${subject}: ${lines.length} warnings${byKind ? ` (${byKind})` : ''}`,
    details: listedLines(lines),
  };
}
