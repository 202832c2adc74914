/**
 * Real motion-capture BVH files available on this machine, for tests and the
 * bench. They come from the Debian package assimp-testmodels (CMU Graphics Lab
 * Motion Capture Database via the cgspeed.com BVH conversion; CMU data is free
 * for research and commercial use). Nothing is bundled from here except the
 * converted assets/cmu_01_01.mtn.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where assimp-testmodels installs its BVH files. */
export const ASSIMP_BVH_DIR = '/usr/share/assimp/models/BVH';

interface RealBvhSample {
  /** Short name, e.g. "01_01". */
  name: string;
  /** Absolute path of the .bvh file. */
  path: string;
  /** What it is and where it comes from. */
  description: string;
  /** Centimetres per BVH unit (CMU/cgspeed files use 1/0.45 inch per unit). */
  centimetresPerUnit: number;
}

const KNOWN: Omit<RealBvhSample, 'path'>[] = [
  {
    name: '01_01',
    description: 'CMU subject 1 trial 1: playground, forward jumps and turns (31 joints, 120 fps)',
    centimetresPerUnit: 2.54 / 0.45,
  },
  {
    name: '01_03',
    description: 'CMU subject 1 trial 3: playground, climbing and hopping (31 joints, 120 fps)',
    centimetresPerUnit: 2.54 / 0.45,
  },
  {
    name: 'Boxing_Toes',
    description:
      'boxing, with toe joints (21 joints, 100 fps; an assimp test model, BSD-3-clause per the package copyright; used in tests only)',
    centimetresPerUnit: 1,
  },
];

/**
 * The real BVH samples present on this machine (empty when the package is not
 * installed). `dir` overrides the directory for tests.
 */
export function listRealBvhSamples(dir = ASSIMP_BVH_DIR): RealBvhSample[] {
  return KNOWN.map((k) => ({ ...k, path: join(dir, `${k.name}.bvh`) })).filter((s) => existsSync(s.path));
}

/** Why the real samples are missing, or undefined when all are present. */
export function realBvhSamplesMissingReason(dir = ASSIMP_BVH_DIR): string | undefined {
  const have = listRealBvhSamples(dir).length;
  if (have === KNOWN.length) return undefined;
  return `${KNOWN.length - have} of ${KNOWN.length} real BVH samples missing in ${dir} (install the Debian package assimp-testmodels)`;
}
