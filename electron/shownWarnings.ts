/**
 * How many warnings a command prints, or the app lists, of one run: as many as a text reader lists problems of one
 * file (MAX_LISTED_PROBLEMS, docs/limits.md "What messages quote"), then one line that counts the rest and says where
 * they all are. A received file or project sets how many there are: a BVH of 1,024 joints whose names are long,
 * not ASCII and alike gave `actguy import` three warnings a joint, and a build one a motion.
 */
import { MAX_LISTED_PROBLEMS, notListed } from '../shared/errors';

/** `warnings`, the first MAX_LISTED_PROBLEMS of them and a count of the rest, which `keptBy` says where to find. */
export function shownWarnings(warnings: readonly string[], keptBy?: string): string[] {
  if (warnings.length <= MAX_LISTED_PROBLEMS + 1) return [...warnings];
  return [
    ...warnings.slice(0, MAX_LISTED_PROBLEMS),
    notListed(warnings.length - MAX_LISTED_PROBLEMS, 'warnings', MAX_LISTED_PROBLEMS, keptBy),
  ];
}
