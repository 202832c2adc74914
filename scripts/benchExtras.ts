import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRealBvhSamples, realBvhSamplesMissingReason } from '../electron/interchange/realBvhSamples';
import { importBvh } from '../shared/interchange/bvh/import';
import type { Motion } from '../shared/motion/types';
import { benchWorker } from './bench-worker';
import { benchUi } from './bench-ui';

/**
 * Extra bench inputs and sections: the real CMU captures shipped by the
 * Debian package assimp-testmodels (imported at 30 fps, in centimetres), and
 * the worker round trip the app waits for after a key toggle, and the latency in the real renderer
 * (key toggle -> repainted curves, tolerance drag) measured in Chromium.
 */
export async function benchExtras(
  root: string,
): Promise<{ motions: [string, Motion][]; realDataNote: string; after: () => Promise<string[]> }> {
  const motions: [string, Motion][] = [];
  for (const s of listRealBvhSamples()) {
    const { motion } = importBvh(readFileSync(s.path, 'utf8'), { fps: 30, scale: s.centimetresPerUnit });
    motions.push([`${s.name}.bvh (real, 30 fps)`, motion]);
  }
  const missing = realBvhSamplesMissingReason();
  return {
    motions,
    realDataNote: missing ? `note: ${missing}` : '',
    after: async () => [...(await benchWorker({ root: join(root) })), ...(await benchUi({ root }))],
  };
}
