/**
 * BVH -> Motion. Rotations come from the channel values in file order
 * (intrinsic Euler, degrees); the root's position channels (added to its
 * OFFSET) become the root translation; non-root position channels animate that
 * joint's offset and set MotionFlag.OFFSETS. A file whose non-root position
 * channels repeat their joints' OFFSETs holds local positions instead (see
 * bvhPositionsAreLocal). End Sites are dropped. The motion
 * is resampled to the target rate: slerp (shorter arc) for rotations, linear
 * for positions. Mirror pairs and body parts are guessed from the names.
 */
import { FormatError } from '../../errors';
import { formatFps } from '../../motion/frameRate';
import { MotionFlag, copyJoints, emptyMotion } from '../../motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../mtn/constants';
import { validateMotion } from '../../mtn/validate';
import { makeQuatsContinuous, quatFromEulerOrder, quatSlerpShortest } from '../kinematics';
import { guessBodyParts, guessMirrorPairs } from '../mirror';
import { sanitizeJointNames } from '../names';
import { bvhSourceRate, sourcePosition, targetFrameCount } from '../resample';
import type { ImportOptions, ImportResult, InterchangeWarning } from '../types';
import { parseBvh, type BvhDocument } from './parse';

const DEG = Math.PI / 180;

/** Parses BVH text and converts it (see bvhToMotion). Errors are FormatError kind 'BVH' with line:column. */
export function importBvh(text: string, options: ImportOptions = {}): ImportResult {
  return bvhToMotion(parseBvh(text), options);
}

/** Converts a parsed BVH to a motion at `options.fps` (default 30). */
export function bvhToMotion(doc: BvhDocument, options: ImportOptions = {}): ImportResult {
  const fps = options.fps ?? 30;
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a number > 0, got ${fps}`);
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`scale must be a number > 0, got ${scale}`);
  const warnings: InterchangeWarning[] = doc.warnings.map((message) => ({ code: 'frames-extra' as const, message }));
  const J = doc.joints.length;
  if (J > MTN_MAX_JOINTS)
    throw new FormatError('BVH', `${J} joints; a motion holds at most ${MTN_MAX_JOINTS}`, {
      line: doc.joints[MTN_MAX_JOINTS].line,
      column: 1,
    });

  const snapped = bvhSourceRate(doc.frameTime);
  const sourceRate = snapped.rate;
  if (snapped.snappedFrom !== undefined)
    warnings.push({
      code: 'rate-snapped',
      message: `Frame Time ${doc.frameTime} s is ${formatFps(snapped.snappedFrom)} fps, within 0.01% of ${sourceRate} fps: read as exactly ${sourceRate} fps`,
    });
  const F = doc.frameCount;
  const duration = (F - 1) / sourceRate;
  const N = targetFrameCount(duration, fps);
  if (N > MTN_MAX_FRAMES)
    throw new FormatError(
      'BVH',
      `${duration.toFixed(2)} s at ${fps} fps is ${N} frames; a motion holds at most ${MTN_MAX_FRAMES} (lower --fps)`,
      { where: 'MOTION' },
    );
  if (F === 1)
    warnings.push({
      code: 'frames-clamped',
      message: 'the BVH has a single frame; it is held for one frame (a motion needs frames 0 and 1)',
    });

  // Per source frame: local rotation and local translation of every joint.
  const srcRot = new Float64Array(F * J * 4);
  const srcPos = new Float64Array(F * J * 3);
  let animatedOffsets = false;
  const localPositions = bvhPositionsAreLocal(doc);
  if (localPositions)
    warnings.push({
      code: 'positions-local',
      message:
        "the position channels of the joints below the root repeat their OFFSETs at the first frame (as LAFAN1 and MotionBuilder write them): read as each joint's local position, replacing its OFFSET rather than added to it",
    });
  for (let f = 0; f < F; f++) {
    const v = doc.values.subarray(f * doc.channelCount, (f + 1) * doc.channelCount);
    for (let j = 0; j < J; j++) {
      const jt = doc.joints[j];
      const pos = [jt.offset[0], jt.offset[1], jt.offset[2]];
      // Local positions replace the OFFSET on the axes the joint has channels for.
      if (localPositions) for (const ch of jt.channels) if (ch.endsWith('position')) pos['XYZ'.indexOf(ch[0])] = 0;
      let order = '';
      const angles: number[] = [];
      jt.channels.forEach((ch, k) => {
        const x = v[jt.channelStart + k];
        if (ch.endsWith('position')) pos['XYZ'.indexOf(ch[0])] += x;
        else {
          order += ch[0];
          angles.push(x * DEG);
        }
      });
      srcRot.set(quatFromEulerOrder(order, angles), (f * J + j) * 4);
      for (let k = 0; k < 3; k++) {
        const x = pos[k] * scale;
        // A motion holds 32-bit floats: past them the value became Infinity and the error said "MTN ... not finite".
        if (!Number.isFinite(Math.fround(x)))
          throw new FormatError(
            'BVH',
            `frame ${f}: joint ${jt.name} position ${'xyz'[k]} is ${x} (OFFSET plus channel, times the scale): beyond what a motion stores (32-bit floats, magnitude below 3.4e38)`,
            { line: doc.frameLines[f], column: 1 },
          );
        srcPos[(f * J + j) * 3 + k] = x;
      }
      if (j > 0 && jt.channels.some((c) => c.endsWith('position'))) animatedOffsets = true;
    }
  }

  const names = sanitizeJointNames(
    doc.joints.map((j) => j.name),
    warnings,
  );
  const parents = doc.joints.map((j) => j.parent);
  const mirror = guessMirrorPairs(names);
  const parts = guessBodyParts(names, parents);
  const joints = copyJoints(
    names.map((name, j) => ({ name, parent: parents[j], mirror: mirror[j], part: parts[j], reserved: 0 })),
  );

  const m = emptyMotion(N, joints, fps);
  for (let f = 0; f <= N; f++) {
    const { a, b, u } = sourcePosition(f, fps, sourceRate, F);
    for (let j = 0; j < J; j++) {
      const ia = (a * J + j) * 4,
        ib = (b * J + j) * 4;
      const q =
        u === 0
          ? srcRot.subarray(ia, ia + 4)
          : quatSlerpShortest(srcRot.subarray(ia, ia + 4), srcRot.subarray(ib, ib + 4), u);
      m.rotation.set(q, (f * J + j) * 4);
      const pa = (a * J + j) * 3,
        pb = (b * J + j) * 3;
      const p = [0, 1, 2].map((k) => srcPos[pa + k] + (srcPos[pb + k] - srcPos[pa + k]) * u);
      if (j === 0)
        m.translation.set([p[0], p[1], p[2], 0], f * 4); // joint 0's offset stays zero
      else m.offset.set([p[0], p[1], p[2], 0], (f * J + j) * 4);
    }
  }
  makeQuatsContinuous(m.rotation, N + 1, J);
  if (animatedOffsets || options.offsets) m.flags |= MotionFlag.OFFSETS;
  validateMotion(m);
  return { motion: m, warnings };
}

/** Below this length (file units) an OFFSET reads the same either way and decides nothing. */
const DECISIVE_OFFSET = 1e-3;

/**
 * Whether the file's position channels hold each joint's whole local position
 * rather than a displacement added to its OFFSET. The BVH description adds the
 * root's channels to its OFFSET (three.js's BVHLoader adds them on every joint),
 * but LAFAN1 (Ubisoft) and MotionBuilder's all-translations export put position
 * channels on every joint that repeat the joint's OFFSET; added, every bone
 * came out twice its length. True when at least one joint below the root has
 * position channels and an OFFSET longer than DECISIVE_OFFSET on those axes,
 * and every such joint's channel values at the first frame equal its OFFSET
 * (within 1e-3 of its length plus 1e-5 for printed digits): a displacement equal
 * to the OFFSET itself would be a bone doubled on purpose. Files whose channels
 * are displacements (zero at rest, as CMU writes the root's) are never affected.
 */
export function bvhPositionsAreLocal(doc: BvhDocument): boolean {
  let decided = false;
  for (const jt of doc.joints) {
    if (jt.parent < 0) continue;
    let offsetSq = 0,
      differenceSq = 0;
    jt.channels.forEach((ch, k) => {
      if (!ch.endsWith('position')) return;
      const o = jt.offset['XYZ'.indexOf(ch[0])];
      offsetSq += o * o;
      differenceSq += (doc.values[jt.channelStart + k] - o) ** 2;
    });
    const length = Math.sqrt(offsetSq);
    if (length <= DECISIVE_OFFSET) continue;
    if (!(Math.sqrt(differenceSq) <= 1e-3 * length + 1e-5)) return false;
    decided = true;
  }
  return decided;
}
