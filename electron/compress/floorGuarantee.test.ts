/**
 * The compressor's one promise at the precision floor (docs/compression.md#the-guarantee):
 * in every mode, every frame that is not a key of its channel is within that
 * channel's tolerance, checked on the written bytes with the independent
 * decoder; a key over it is named by a warning with its real frame and error.
 *
 * Every bundled capture (assets/*.mtn, and the assimp-testmodels BVH files
 * when the Debian package is installed) runs at 30 and 120 fps. The
 * tolerances go from the defaults' tenth down to below what h16 / s12 can
 * store at some keys (0.005 units / 0.05 deg and 0.003 / 0.03), in the
 * classic, refined and skeleton-aware modes. To keep the run short a 120 fps
 * clip is cut to its first FRAMES_AT_120 frames (its motion there is as
 * fine-grained as anywhere), and the looser tolerances run refined only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import type { CompressOptions, CompressResult } from '../../shared/compress/types';
import { importBvh } from '../../shared/interchange/bvh/import';
import { resampleMotion } from '../../shared/motion/resample';
import { makeMotion, type Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { independentErrors } from '../../shared/testing/independentDecode';
import { listRealBvhSamples, realBvhSamplesMissingReason } from '../interchange/realBvhSamples';

/** Frames 0..FRAMES_AT_120 of a 120 fps clip are checked (5 s of motion). */
const FRAMES_AT_120 = 600;

const assetsDir = join(__dirname, '..', '..', 'assets');
const captures: [string, (fps: number) => Motion][] = readdirSync(assetsDir)
  .filter((f) => f.endsWith('.mtn'))
  .sort()
  .map((f) => [f, (fps: number) => resampleMotion(readMtn(new Uint8Array(readFileSync(join(assetsDir, f)))), fps)]);
for (const s of listRealBvhSamples())
  captures.push([`${s.name}.bvh`, (fps: number) => importBvh(readFileSync(s.path, 'utf8'), { fps }).motion]);
const missing = realBvhSamplesMissingReason();
if (missing) console.log(`floorGuarantee.test: BVH captures skipped: ${missing}`);

/** The first `frames` frames of a motion (key info and all), as a motion of its own. */
function firstFrames(m: Motion, frames: number): Motion {
  if (m.frameCount <= frames) return m;
  const J = m.joints.length;
  const S = frames + 1;
  return makeMotion({
    ...m,
    frameCount: frames,
    translation: m.translation.slice(0, S * 4),
    rotation: m.rotation.slice(0, S * J * 4),
    offset: m.offset.slice(0, S * J * 4),
    translationKeyInfo: m.translationKeyInfo.slice(0, S * 4),
    jointKeyInfo: m.jointKeyInfo.slice(0, S * J * 4),
  });
}

interface Run {
  label: string;
  options: Omit<CompressOptions, 'name'>;
}

const runs: Run[] = [
  {
    label: 'refined 0.05 u / 0.5 deg',
    options: { positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05 },
  },
  {
    label: 'refined 0.01 u / 0.1 deg',
    options: { positionTolerance: 0.01, rotationToleranceDeg: 0.1, offsetTolerance: 0.01 },
  },
  {
    label: 'refined 0.005 u / 0.05 deg',
    options: { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005 },
  },
  {
    label: 'refined 0.003 u / 0.03 deg',
    options: { positionTolerance: 0.003, rotationToleranceDeg: 0.03, offsetTolerance: 0.003 },
  },
  {
    label: 'classic 0.005 u / 0.05 deg',
    options: { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005, method: 'classic' },
  },
  // Per-joint tolerances the chain allocation derives from a tight object-space bound: many at the floor.
  {
    label: 'skeleton-aware 0.05 u',
    options: { positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05, objectTolerance: 0.05 },
  },
];

/**
 * Every frame that is not a key of its channel (in the written file) is within tolerance by the independent
 * decoder; every key over it is named by the channel's warning, whose frame is a key over it. Returns how many
 * key frames were over tolerance (the floor was reached).
 */
function checkGuarantee(m: Motion, r: CompressResult): number {
  const ind = independentErrors(m, r.bytes);
  let keysOver = 0;
  for (const ch of r.channels) {
    const errs = ch.kind === 'translation' ? ind.root : ch.kind === 'rotation' ? ind.rot[ch.joint] : ind.off![ch.joint];
    const track =
      ch.kind === 'translation'
        ? ind.mt3.root
        : ch.kind === 'rotation'
          ? ind.mt3.rotations[ch.joint]
          : ind.mt3.offsets![ch.joint];
    const written = new Set(track.frames);
    const where = `${ch.kind} ${ch.joint}`;
    const over: number[] = [];
    for (let t = 0; t <= m.frameCount; t++) {
      if (errs[t] <= ch.tolerance + 1e-9) continue;
      expect(written.has(t), `${where}: frame ${t} is not a key and has error ${errs[t]} over ${ch.tolerance}`).toBe(
        true,
      );
      over.push(t);
    }
    const warning = r.warnings.find((w) => w.kind === ch.kind && w.joint === ch.joint);
    if (over.length === 0) continue;
    keysOver += over.length;
    expect(warning, `${where}: keys ${over.join(', ')} over tolerance without a warning`).toBeDefined();
    expect(
      written.has(warning!.frame),
      `${where}: the warning's frame ${warning!.frame} is not a key of the written file`,
    ).toBe(true);
    expect(warning!.keyFrames, `${where}: the warning names every key over tolerance`).toEqual(over);
    expect(Math.abs(errs[warning!.frame] - warning!.error)).toBeLessThan(1e-6);
  }
  return keysOver;
}

describe('every frame that is not a key is within tolerance, at the precision floor, in every mode', () => {
  for (const [name, load] of captures)
    for (const fps of [30, 120]) {
      it(`${name} at ${fps} fps`, () => {
        const m = fps === 120 ? firstFrames(load(fps), FRAMES_AT_120) : load(fps);
        let floorReached = 0;
        for (const run of runs) {
          const r = compressMotion(m, { ...run.options, name: 'floor' });
          const keysOver = checkGuarantee(m, r);
          if (run.label.startsWith('refined 0.003')) floorReached += keysOver;
        }
        // The tightest run really is below the floor: some keys cannot store their source closely enough.
        expect(floorReached).toBeGreaterThan(0);
      }, 120_000);
    }
});
