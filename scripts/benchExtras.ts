import type { Motion } from '../shared/motion/types';

/**
 * Extra bench inputs and sections contributed by other parts of the project
 * (real mocap samples, the worker round trip). Kept apart so the compression
 * bench does not depend on them being present.
 */
export async function benchExtras(): Promise<{ motions: [string, Motion][]; realDataNote: string; after: () => Promise<string[]> }> {
  return { motions: [], realDataNote: '', after: async () => [] };
}
