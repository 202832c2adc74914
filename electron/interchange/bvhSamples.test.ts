/**
 * Real mocap through the BVH importer: the three BVH files of the Debian
 * package assimp-testmodels (skipped, with the reason printed, when absent).
 *
 * What is compared, honestly:
 * - At target frames whose time coincides with a source frame (every frame for
 *   120 -> 30 fps, every third for 100 -> 30 fps), the MTN's world joint
 *   positions are compared with the BVH's own forward kinematics computed from
 *   the raw channel values with Euler matrices (bvhWorldPositions).
 * - At every target frame, they are compared with three.js: BVHLoader's
 *   skeleton and clip, evaluated by an AnimationMixer at the same source time
 *   (three interpolates with slerp and lerp, as our resampler does).
 * Tolerance: 1e-4 of the skeleton height, at every compared frame and joint.
 */
import { readFileSync } from 'node:fs';
import { AnimationMixer, Vector3, type Bone } from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { describe, expect, it } from 'vitest';
import { bvhWorldPositions } from '../../shared/interchange/bvh/fk';
import { bvhToMotion } from '../../shared/interchange/bvh/import';
import { parseBvh } from '../../shared/interchange/bvh/parse';
import { skeletonHeight, worldPose } from '../../shared/interchange/kinematics';
import { bvhSourceRate } from '../../shared/interchange/resample';
import { readMtn } from '../../shared/mtn/read';
import { listRealBvhSamples, realBvhSamplesMissingReason } from './realBvhSamples';

const samples = listRealBvhSamples();
const missing = realBvhSamplesMissingReason();
if (missing) console.log(`bvhSamples.test: skipping real-BVH checks: ${missing}`);

const expected: Record<string, { joints: number; sourceFrames: number; frames30: number }> = {
  '01_01': { joints: 31, sourceFrames: 2752, frames30: 687 }, // 2751 / 120 s * 30 = 687.75
  '01_03': { joints: 31, sourceFrames: 4511, frames30: 1127 }, // 4510 / 120 * 30 = 1127.5
  Boxing_Toes: { joints: 21, sourceFrames: 3069, frames30: 920 }, // 3068 / 100 * 30 = 920.4
};

describe.skipIf(samples.length === 0)('real BVH samples (assimp-testmodels)', () => {
  for (const sample of samples) {
    it(`${sample.name}: joint count, frame count, parent order, forward kinematics`, () => {
      const text = readFileSync(sample.path, 'utf8');
      const doc = parseBvh(text);
      const { motion: m } = bvhToMotion(doc, { fps: 30 });
      const want = expected[sample.name];
      expect(doc.frameCount).toBe(want.sourceFrames);
      expect(m.joints.length).toBe(want.joints);
      expect(m.frameCount).toBe(want.frames30);
      m.joints.forEach((jt, j) => expect(jt.parent).toBeLessThan(j));
      expect(m.joints.map((j) => j.name)).toEqual(doc.joints.map((j) => j.name));
      // Mirror pairs found for every Left*/Right* joint; legs are lower body.
      for (const jt of m.joints) {
        if (/^(Left|L[A-Z])/.test(jt.name)) expect(m.joints[jt.mirror].name).not.toBe(jt.name);
        if (/Leg|Foot|Toe|Hip$|Knee|Ankle/.test(jt.name)) expect(jt.part).toBe(0);
        if (/Arm|Hand|Head|Neck|Shoulder|Elbow|Wrist/.test(jt.name)) expect(jt.part).toBe(1);
      }

      const height = skeletonHeight(m);
      const tol = 1e-4 * height;
      const ratio = bvhSourceRate(doc.frameTime).rate / 30;

      // 1. Coinciding frames against the raw-channel matrix FK.
      let compared = 0;
      for (let f = 0; f <= m.frameCount; f++) {
        const s = f * ratio;
        if (Math.abs(s - Math.round(s)) > 1e-9) continue;
        const ref = bvhWorldPositions(doc, Math.round(s));
        const got = worldPose(m, f).positions;
        for (let i = 0; i < ref.length; i++)
          if (Math.abs(ref[i] - got[i]) > tol)
            expect.fail(`frame ${f} joint ${Math.floor(i / 3)}: ${got[i]} vs BVH ${ref[i]}`);
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(Math.floor(m.frameCount / 3));

      // 2. Every frame against three.js's BVHLoader + AnimationMixer at the same source time.
      const { skeleton, clip } = new BVHLoader().parse(text);
      const root = skeleton.bones[0];
      const mixer = new AnimationMixer(root);
      mixer.clipAction(clip).play();
      const bonesByName = new Map<string, Bone>(skeleton.bones.map((b) => [b.name, b]));
      const p = new Vector3();
      for (let f = 0; f <= m.frameCount; f++) {
        mixer.setTime(f * ratio * doc.frameTime);
        root.updateMatrixWorld(true);
        const got = worldPose(m, f).positions;
        m.joints.forEach((jt, j) => {
          const bone = bonesByName.get(jt.name);
          if (!bone) return expect.fail(`three's skeleton has no bone ${jt.name}`);
          bone.getWorldPosition(p);
          const d = Math.hypot(p.x - got[j * 3], p.y - got[j * 3 + 1], p.z - got[j * 3 + 2]);
          if (d > tol) expect.fail(`frame ${f} joint ${jt.name}: ${d} from three's BVHLoader (tolerance ${tol})`);
        });
      }
    });
  }

  it('the bundled assets/cmu_01_01.mtn is 01_01 at 30 fps in centimetres', () => {
    const sample = samples.find((s) => s.name === '01_01');
    if (!sample) return;
    const bundled = readMtn(new Uint8Array(readFileSync(`${__dirname}/../../assets/cmu_01_01.mtn`)));
    const doc = parseBvh(readFileSync(sample.path, 'utf8'));
    expect(bundled.fps).toBe(30);
    expect(bundled.frameCount).toBe(687);
    const scale = sample.centimetresPerUnit;
    for (let f = 0; f <= bundled.frameCount; f += 25) {
      const ref = bvhWorldPositions(doc, 4 * f).map((v) => v * scale);
      const got = worldPose(bundled, f).positions;
      for (let i = 0; i < ref.length; i++)
        expect(Math.abs(ref[i] - got[i])).toBeLessThan(1e-4 * skeletonHeight(bundled));
    }
  });
});
