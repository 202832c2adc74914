/**
 * Resamples a motion to another frame rate the way the importers do: slerp
 * (shorter arc) for rotations, linear interpolation for the root translation
 * and joint offsets. Key info moves with the frames it marks.
 */
import { makeQuatsContinuous, slerpShortestInto } from '../interchange/kinematics';
import { mtnBytesBeyondReadable, sourcePosition, targetFrameCount } from '../interchange/resample';
import { FormatError } from '../errors';
import { BINARY_MAX_BYTES } from '../binarySize';
import { MTN_MAX_FRAMES } from '../mtn/constants';
import { KeyFlag, copyJoints, emptyMotion, type Motion } from './types';

/**
 * The last frame N of `m` resampled to `fps` (what resampleMotion makes, without making it): a RangeError for a
 * rate that is not a number > 0, a FormatError when the motion would hold more than an MTN can, or more than the
 * largest MTN ActGuy reads (BINARY_MAX_BYTES as its file): a project's `"resample": true` may not turn a short file
 * into a motion no input could be. A received 197 KB motion of 1,024 joints and 3 samples at 0.000916 fps,
 * resampled to 30 fps, was 65,502 frames (3.2 GB as an MTN): its build held 12.8 GB and took minutes to answer
 * Ctrl+C (docs/security.md, round 37).
 */
export function resampledFrameCount(m: Pick<Motion, 'frameCount' | 'fps' | 'joints'>, fps: number): number {
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a number > 0, got ${fps}`);
  if (fps === m.fps) return m.frameCount;
  const N = targetFrameCount(m.frameCount / m.fps, fps);
  if (N > MTN_MAX_FRAMES)
    throw new FormatError(
      'MTN',
      `${m.frameCount} frames at ${m.fps} fps resampled to ${fps} fps is ${N} frames; a motion holds at most ${MTN_MAX_FRAMES}`,
      { where: 'resampling' },
    );
  const J = m.joints.length;
  const bytes = mtnBytesBeyondReadable(N, J);
  if (bytes !== undefined)
    throw new FormatError(
      'MTN',
      `${m.frameCount} frames at ${m.fps} fps resampled to ${fps} fps is ${N} frames of ${J} joints, ${bytes} bytes as an .mtn: more than the ${BINARY_MAX_BYTES} ActGuy reads of an .mtn (a motion no input could be); nothing was resampled`,
      { where: 'resampling' },
    );
  return N;
}

/**
 * The motion at `fps`: frames 0..N' covering the same duration (the last
 * sample never lies past the source's end). Every key-info vector of a source
 * frame is carried to the nearest target frame (flags OR-ed, so user keys and
 * trace keys survive decimation); a lock that would land on a target frame
 * already locked on another joint is dropped, keeping at most one lock per
 * frame. A rate that divides the source rate takes the source samples exactly.
 */
export function resampleMotion(m: Motion, fps: number): Motion {
  if (fps === m.fps && Number.isFinite(fps) && fps > 0) return m;
  const N = resampledFrameCount(m, fps);
  const J = m.joints.length;
  const S = m.frameCount + 1;
  const out = emptyMotion(N, copyJoints(m.joints), fps);
  out.flags = m.flags;
  out.waistJoint = m.waistJoint;
  out.headerReserved = m.headerReserved;
  for (let f = 0; f <= N; f++) {
    const { a, b, u } = sourcePosition(f, fps, m.fps, S);
    resampleFrame(m, out, J, f, a, b, u);
  }
  makeQuatsContinuous(out.rotation, N + 1, J);
  const target = (s: number) => Math.min(N, Math.round((s * fps) / m.fps));
  const lockedAt = new Int32Array(N + 1).fill(-1);
  const lock = (f: number, j: number) => {
    if (lockedAt[f] >= 0 && lockedAt[f] !== j) return; // at most one locked joint per frame: the first one stays
    lockedAt[f] = j;
    out.jointKeyInfo[(f * J + j) * 4] |= KeyFlag.LOCK;
  };
  for (let s = 0; s < S; s++) {
    const f = target(s);
    for (let w = 0; w < 4; w++) out.translationKeyInfo[f * 4 + w] |= m.translationKeyInfo[s * 4 + w];
    for (let j = 0; j < J; j++) {
      const si = (s * J + j) * 4,
        di = (f * J + j) * 4;
      const flags = m.jointKeyInfo[si];
      out.jointKeyInfo[di] |= flags & ~KeyFlag.LOCK;
      for (let w = 1; w < 4; w++) out.jointKeyInfo[di + w] |= m.jointKeyInfo[si + w];
      if (!(flags & KeyFlag.LOCK)) continue;
      // A lock held into the next source frame stays held on every target frame in between (upsampling keeps ranges whole).
      const held = s + 1 < S && (m.jointKeyInfo[si + J * 4] & KeyFlag.LOCK) !== 0;
      const last = held ? target(s + 1) : f;
      for (let g = f; g <= last; g++) lock(g, j);
    }
  }
  return out;
}

/**
 * Target frame f from source frames a and b at fraction u: lerp of the root translation and joint offsets
 * (w kept from a), slerp of the rotations. One call per frame, on scalars: V8 optimises this small kernel once.
 */
function resampleFrame(m: Motion, out: Motion, J: number, f: number, a: number, b: number, u: number): void {
  lerp3(m.translation, a * 4, b * 4, u, out.translation, f * 4);
  for (let j = 0; j < J; j++) {
    const ia = (a * J + j) * 4,
      ib = (b * J + j) * 4,
      io = (f * J + j) * 4;
    if (u === 0) for (let k = 0; k < 4; k++) out.rotation[io + k] = m.rotation[ia + k];
    else slerpShortestInto(m.rotation, ia, m.rotation, ib, u, out.rotation, io);
    lerp3(m.offset, ia, ib, u, out.offset, io);
  }
}

/** dst[io..io+2] = lerp of src at ia and ib by u (exactly src at ia when u is 0); dst[io+3] = src[ia+3]. */
function lerp3(src: Float32Array, ia: number, ib: number, u: number, dst: Float32Array, io: number): void {
  for (let k = 0; k < 3; k++) dst[io + k] = u === 0 ? src[ia + k] : src[ia + k] + (src[ib + k] - src[ia + k]) * u;
  dst[io + 3] = src[ia + 3];
}
