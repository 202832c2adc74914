/**
 * The refined and skeleton-aware compressors on real motion capture: the
 * bundled CMU capture (assets/cmu_01_01.mtn, always) and the assimp-testmodels
 * Boxing_Toes capture at 30 fps (when the Debian package is installed; skipped
 * with the reason printed otherwise). Every frame is checked with the
 * independent decoder and the independent FK of shared/testing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { importBvh } from '../../shared/interchange/bvh/import';
import type { Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { independentChannel, independentErrors } from '../../shared/testing/independentDecode';
import { independentObjectErrors } from '../../shared/testing/independentFk';
import { listRealBvhSamples, realBvhSamplesMissingReason } from '../interchange/realBvhSamples';

const clips: [string, () => Motion][] = [
  [
    'cmu_01_01.mtn',
    () => readMtn(new Uint8Array(readFileSync(join(__dirname, '..', '..', 'assets', 'cmu_01_01.mtn')))),
  ],
];
const boxing = listRealBvhSamples().find((s) => s.name === 'Boxing_Toes');
if (boxing)
  clips.push([
    'Boxing_Toes.bvh at 30 fps',
    () => importBvh(readFileSync(boxing.path, 'utf8'), { fps: 30, scale: boxing.centimetresPerUnit }).motion,
  ]);
else console.log(`realClips.test: Boxing_Toes skipped: ${realBvhSamplesMissingReason()}`);

const base = { positionTolerance: 0.5, offsetTolerance: 0.5, name: 'real_clip' };

describe('refined and skeleton-aware compression on real captures', () => {
  for (const [name, load] of clips) {
    it(`${name}: refined keeps every frame within 0.5 deg with fewer keys than classic on every channel`, () => {
      const m = load();
      const classic = compressMotion(m, { ...base, rotationToleranceDeg: 0.5, method: 'classic' });
      const refined = compressMotion(m, { ...base, rotationToleranceDeg: 0.5 });
      const ind = independentErrors(m, refined.bytes);
      for (const ch of refined.channels) {
        const errs = independentChannel(ind, ch.kind, ch.joint)!.errors;
        for (let t = 0; t <= m.frameCount; t++)
          if (!(errs[t] <= ch.tolerance + 1e-9)) expect(ch.keyFrames).toContain(t);
        const cl = classic.channels.find((c) => c.kind === ch.kind && c.joint === ch.joint)!;
        expect(ch.keyFrames.length).toBeLessThanOrEqual(cl.keyFrames.length);
      }
      expect(refined.mt3Bytes).toBeLessThan(classic.mt3Bytes);
    });

    it(`${name}: the skeleton-aware mode keeps the object-space error within the bound at every frame (independent FK)`, () => {
      const m = load();
      const shell = 15;
      const D = 1.5;
      const r = compressMotion(m, { ...base, rotationToleranceDeg: 0.5, objectTolerance: D, shell });
      expect(r.skeleton?.met).toBe(true);
      const ind = independentObjectErrors(m, r.mt3, shell);
      let worst = 0;
      ind.forEach((row, t) => {
        for (const e of row) worst = Math.max(worst, e);
        expect(Math.abs(Math.max(...row) - r.objectError!.frameMaxError[t])).toBeLessThan(1e-6);
      });
      expect(worst).toBeLessThanOrEqual(D);
    });
  }
});
