/**
 * BVH -> Motion. Rotations come from the channel values in file order
 * (intrinsic Euler, degrees); the root's position channels (added to its
 * OFFSET) become the root translation; non-root position channels animate that
 * joint's offset and set MotionFlag.OFFSETS. Position channels that stay near
 * their joint's OFFSET hold that joint's local position instead (Blender,
 * LAFAN1: see bvhLocalPositionJoints; `options.bvhPositions` overrides that
 * judgement for the whole file). End Sites are dropped. The motion
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
import { bvhSourceRate, importedSizeProblem, sourcePosition, targetFrameCount } from '../resample';
import { BVH_POSITION_READINGS, type ImportOptions, type ImportResult, type InterchangeWarning } from '../types';
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
  const reading = options.bvhPositions ?? 'auto';
  if (!BVH_POSITION_READINGS.includes(reading))
    throw new RangeError(`bvhPositions must be one of ${BVH_POSITION_READINGS.join(', ')}, got ${String(reading)}`);
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
  const tooLarge = importedSizeProblem(N, J);
  if (tooLarge)
    throw new FormatError('BVH', `${duration.toFixed(2)} s at ${fps} fps: ${tooLarge}`, { where: 'MOTION' });
  if (F === 1)
    warnings.push({
      code: 'frames-clamped',
      message: 'the BVH has a single frame; it is held for one frame (a motion needs frames 0 and 1)',
    });

  // Per source frame: local rotation and local translation of every joint.
  const srcRot = new Float64Array(F * J * 4);
  const srcPos = new Float64Array(F * J * 3);
  let animatedOffsets = false;
  /** Joints whose scale channels leave 1 somewhere (reported: a motion carries no scale). */
  const scaled = new Set<number>();
  // Judged per joint by its values, unless the caller says how this file writes them.
  const shares = reading === 'auto' ? bvhPositionShares(doc) : null;
  const localPositions = shares
    ? shares.map(readsLocal)
    : doc.joints.map((jt) => reading === 'local' && jt.channels.some((c) => c.endsWith('position')));
  if (shares) warnings.push(...positionJudgementWarnings(doc, shares));
  for (let f = 0; f < F; f++) {
    const v = doc.values.subarray(f * doc.channelCount, (f + 1) * doc.channelCount);
    for (let j = 0; j < J; j++) {
      const jt = doc.joints[j];
      const pos = [jt.offset[0], jt.offset[1], jt.offset[2]];
      // Local positions replace the OFFSET on the axes the joint has channels for.
      if (localPositions[j]) for (const ch of jt.channels) if (ch.endsWith('position')) pos['XYZ'.indexOf(ch[0])] = 0;
      let order = '';
      const angles: number[] = [];
      jt.channels.forEach((ch, k) => {
        const x = v[jt.channelStart + k];
        if (ch.endsWith('position')) pos['XYZ'.indexOf(ch[0])] += x;
        else if (ch.endsWith('scale')) {
          if (x !== 1) scaled.add(j);
        } else {
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

  if (scaled.size) {
    const listed = listNames([...scaled].map((j) => doc.joints[j].name));
    warnings.push({
      code: 'scale-unsupported',
      message: `the scale channels of ${scaled.size} joint(s) (${listed}) leave 1; motions carry no scale, so they are ignored: those joints and the ones below them are posed unscaled`,
    });
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

/** Up to four names, then how many more. */
function listNames(names: string[]): string {
  const shown = names.slice(0, 4).join(', ');
  return names.length > 4 ? `${shown} and ${names.length - 4} more` : shown;
}

/**
 * Per joint, whether its position channels hold its whole local position
 * (replacing its OFFSET) rather than a displacement added to it
 * (docs/interchange.md#conventions). The BVH description adds them (its root's
 * OFFSET is zero, as in CMU's files) and so does three.js's BVHLoader; Blender's
 * exporter writes the rest head as OFFSET and head plus motion in the channels
 * of the root and of every bone not connected to its parent (its importer
 * subtracts the OFFSET again), as LAFAN1 and MotionBuilder's all-translations
 * export do on every joint: added, the root stood at twice its rest height and
 * bones came out twice their length.
 *
 * An axis decides when the joint's OFFSET on it is longer than DECISIVE_OFFSET
 * and the channel's middle half of values (its interquartile range over the
 * frames) spans less than half that OFFSET: the values then sit near one of
 * the two readings, as the hips' height does, while an axis the root travels
 * along says nothing. The joint reads as local when, over its deciding axes,
 * the channels' medians project onto the OFFSET past half its length (nearer
 * the OFFSET than zero). So a first frame off the rest pose (Blender exports
 * the scene's frames, not the rest pose) or a jump does not decide, and a
 * joint with no deciding axis adds, as before. Values can mislead (a crawl from
 * Blender keeps the hips below half their rest height): the import's warnings
 * name the override, ImportOptions.bvhPositions ('added' or 'local').
 */
export function bvhLocalPositionJoints(doc: BvhDocument): boolean[] {
  return bvhPositionShares(doc).map(readsLocal);
}

/** A joint whose channels lie nearer its OFFSET than zero holds its local position (bvhLocalPositionJoints). */
const readsLocal = (share: number | null): boolean => share !== null && share > 0.5;

/**
 * Below half of the way (read as displacements), and past this share of it, a joint's channels sit well off zero:
 * a take that stays low (a crawl, hips at a third of their rest height) from an exporter that writes local
 * positions reads so, and added, the figure floats. Such joints get a `positions-added` warning naming the override.
 */
const LOW_LOCAL_SHARE = 0.1;

/** The warnings of the per-joint judgement (bvhLocalPositionJoints), each naming the override that reads otherwise. */
function positionJudgementWarnings(doc: BvhDocument, shares: (number | null)[]): InterchangeWarning[] {
  const warnings: InterchangeWarning[] = [];
  const localNames = doc.joints.filter((_, j) => readsLocal(shares[j])).map((jt) => jt.name);
  if (localNames.length)
    warnings.push({
      code: 'positions-local',
      message: `the position channels of ${localNames.length} joint(s) (${listNames(localNames)}) stay near their OFFSETs rather than near zero (as Blender, LAFAN1 and MotionBuilder write them): read as each joint's local position, replacing its OFFSET rather than added to it; if this file means them as displacements, import it with --bvh-positions added (File › Import: BVH positions "added")`,
    });
  const lowNames = doc.joints
    .filter((_, j) => !readsLocal(shares[j]) && shares[j] !== null && shares[j]! >= LOW_LOCAL_SHARE)
    .map((jt) => jt.name);
  if (lowNames.length)
    warnings.push({
      code: 'positions-added',
      message: `the position channels of ${lowNames.length} joint(s) (${listNames(lowNames)}) sit well off zero yet nearer it than their OFFSETs: read as displacements added to the OFFSET (the BVH description); if this file writes local positions (Blender, LAFAN1, MotionBuilder) and the take stays low, as a crawl does, the figure floats: import it with --bvh-positions local (File › Import: BVH positions "local")`,
    });
  return warnings;
}

/**
 * Per joint, how far its position channels sit from zero towards its OFFSET (0 at zero, 1 at the OFFSET), over the
 * axes that decide (see bvhLocalPositionJoints); null for a joint with no deciding axis.
 */
function bvhPositionShares(doc: BvhDocument): (number | null)[] {
  const F = doc.frameCount;
  const sorted = new Float64Array(F);
  const at = (q: number) => sorted[Math.min(F - 1, Math.floor(q * F))];
  return doc.joints.map((jt) => {
    let along = 0,
      offsetSq = 0;
    jt.channels.forEach((ch, k) => {
      const o = ch.endsWith('position') ? jt.offset['XYZ'.indexOf(ch[0])] : 0;
      if (!(Math.abs(o) > DECISIVE_OFFSET)) return;
      for (let f = 0; f < F; f++) sorted[f] = doc.values[f * doc.channelCount + jt.channelStart + k];
      sorted.sort();
      if (!(at(0.75) - at(0.25) < 0.5 * Math.abs(o))) return;
      along += at(0.5) * o;
      offsetSq += o * o;
    });
    return offsetSq > 0 ? along / offsetSq : null;
  });
}
