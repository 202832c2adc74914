/** Joint-name clean-up shared by the importers (MTN names: printable ASCII, at most 31 bytes). */
import { quoteJson } from '../errors';
import type { InterchangeWarning } from './types';

export const MAX_JOINT_NAME = 31;

/**
 * Makes MTN-legal, unique names: non-printable-ASCII characters become '_',
 * names are cut to 31 bytes, and a clash gets a "~2", "~3" suffix. Every change
 * is reported once as a warning naming the joint.
 */
export function sanitizeJointNames(names: readonly string[], warnings: InterchangeWarning[]): string[] {
  const used = new Set<string>();
  return names.map((original, j) => {
    let name = original.replace(/[^\x20-\x7e]/g, '_');
    if (name !== original)
      warnings.push({
        code: 'name-changed',
        message: `joint ${j} name ${quoteJson(original)} has characters outside printable ASCII; stored as ${quoteJson(name)}`,
      });
    if (name.length > MAX_JOINT_NAME) {
      const cut = name.slice(0, MAX_JOINT_NAME);
      warnings.push({
        code: 'name-truncated',
        message: `joint ${j} name ${quoteJson(name)} is longer than ${MAX_JOINT_NAME} bytes; truncated to ${quoteJson(cut)}`,
      });
      name = cut;
    }
    if (name === '') name = `joint${j}`;
    if (used.has(name)) {
      let k = 2;
      let candidate: string;
      do {
        const suffix = `~${k++}`;
        candidate = name.slice(0, MAX_JOINT_NAME - suffix.length) + suffix;
      } while (used.has(candidate));
      warnings.push({
        code: 'name-duplicate',
        message: `joint ${j} name ${quoteJson(name)} is used by an earlier joint; renamed ${quoteJson(candidate)}`,
      });
      name = candidate;
    }
    used.add(name);
    return name;
  });
}
