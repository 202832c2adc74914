import { FormatError } from '../errors';
import { decodeH16 } from '../math/half';
import { hermite } from '../math/hermite';
import { normalize4, type Quat } from '../math/quat';
import { decodeS12 } from '../math/s12';
import { ScalarSquad, squadRef } from '../math/squad';
import { validateMotion } from '../mtn/validate';
import { KeyFlag, MotionFlag, copyJoints, makeJoint, makeMotion, type JointInfo, type Motion } from '../motion/types';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack, type TraceTrack } from './types';

/**
 * The reference decoder of docs/formats.md 2.7. Everything is float64 computed from
 * the decoded stored values (h16 -> half*128, s12 -> s/2047 then the 4-vector
 * normalised). The compressor measures its error with these very functions.
 */

/** A Hermite track in float64: K keys, p and v are K x 3 (v in units per frame). */
export interface DecodedPositionTrack {
  frames: Uint16Array;
  p: Float64Array;
  v: Float64Array;
}

/** A Squad track in float64: K keys, q and a are K x 4, each 4-vector normalised. */
export interface DecodedRotationTrack {
  frames: Uint16Array;
  q: Float64Array;
  a: Float64Array;
}

/** The linear trace in float64: K keys, p is K x 3. */
export interface DecodedTraceTrack {
  frames: Uint16Array;
  p: Float64Array;
}

export function decodePositionTrack(t: PositionTrack): DecodedPositionTrack {
  const n = t.position.length;
  const p = new Float64Array(n);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    p[i] = decodeH16(t.position[i]);
    v[i] = decodeH16(t.velocity[i]);
  }
  return { frames: t.frames, p, v };
}

/** Decodes s12 components and normalises each 4-vector (a zero vector becomes identity). */
export function decodeQuatArray(s: Int16Array): Float64Array {
  const out = new Float64Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = decodeS12(s[i]);
  for (let i = 0; i < s.length; i += 4) normalize4(out, i);
  return out;
}

export function decodeRotationTrack(t: RotationTrack): DecodedRotationTrack {
  return { frames: t.frames, q: decodeQuatArray(t.rotation), a: decodeQuatArray(t.inner) };
}

export function decodeTraceTrack(t: TraceTrack): DecodedTraceTrack {
  const p = new Float64Array(t.position.length);
  for (let i = 0; i < p.length; i++) p[i] = decodeH16(t.position[i]);
  return { frames: t.frames, p };
}

/**
 * The key index k with frames[k] <= t, and frames[k+1] > t unless k is the last
 * key (binary search; t clamped into [frames[0], frames[K-1]]).
 */
export function findKey(frames: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  if (!(t > frames[0])) return 0;
  if (t >= frames[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Hermite position between key ia (frame fa) and key ib (frame fb > fa) of the
 * flat K x 3 arrays p, v, at frame t in [fa, fb]; writes x, y, z at out[oi..].
 * At a key frame it returns that key's value exactly.
 */
export function evalPositionSegment(
  out: Quat,
  oi: number,
  p: ArrayLike<number>,
  v: ArrayLike<number>,
  ia: number,
  ib: number,
  fa: number,
  fb: number,
  t: number,
): void {
  if (t === fa || t === fb) {
    const k = 3 * (t === fa ? ia : ib);
    out[oi] = p[k];
    out[oi + 1] = p[k + 1];
    out[oi + 2] = p[k + 2];
    return;
  }
  const d = fb - fa;
  const u = (t - fa) / d;
  const a = 3 * ia,
    b = 3 * ib;
  out[oi] = hermite(p[a], v[a], p[b], v[b], d, u);
  out[oi + 1] = hermite(p[a + 1], v[a + 1], p[b + 1], v[b + 1], d, u);
  out[oi + 2] = hermite(p[a + 2], v[a + 2], p[b + 2], v[b + 2], d, u);
}

const squadTmp = new Float64Array(4);

/**
 * Squad rotation between key ia (frame fa) and key ib (frame fb > fa) of the
 * flat K x 4 normalised arrays q (keys) and a (inner controls), at frame t in
 * [fa, fb]; writes the normalised x, y, z, w at out[oi..]. At a key frame it
 * returns that key's (normalised) rotation exactly.
 */
export function evalRotationSegment(
  out: Quat,
  oi: number,
  q: Quat,
  a: Quat,
  ia: number,
  ib: number,
  fa: number,
  fb: number,
  t: number,
): void {
  if (t === fa || t === fb) {
    const k = 4 * (t === fa ? ia : ib);
    out[oi] = q[k];
    out[oi + 1] = q[k + 1];
    out[oi + 2] = q[k + 2];
    out[oi + 3] = q[k + 3];
    return;
  }
  const u = (t - fa) / (fb - fa);
  squadRef(squadTmp, q, 4 * ia, 4 * ib, a, 4 * ia, 4 * ib, u);
  out[oi] = squadTmp[0];
  out[oi + 1] = squadTmp[1];
  out[oi + 2] = squadTmp[2];
  out[oi + 3] = squadTmp[3];
}

/** Linear trace between key ia (frame fa) and key ib (frame fb), at frame t; exact at keys. */
export function evalTraceSegment(
  out: Quat,
  oi: number,
  p: ArrayLike<number>,
  ia: number,
  ib: number,
  fa: number,
  fb: number,
  t: number,
): void {
  if (t === fa || t === fb) {
    const k = 3 * (t === fa ? ia : ib);
    out[oi] = p[k];
    out[oi + 1] = p[k + 1];
    out[oi + 2] = p[k + 2];
    return;
  }
  const u = (t - fa) / (fb - fa);
  const a = 3 * ia,
    b = 3 * ib;
  for (let c = 0; c < 3; c++) out[oi + c] = p[a + c] + (p[b + c] - p[a + c]) * u;
}

/**
 * The segment a sampler evaluates at frame t: keys ia..ib with their frames
 * fa..fb and t clamped into them. Past the last key (or with a single key)
 * ia === ib and t is that key's frame, so the segment functions return the key
 * exactly. One module-level scratch object, so sampling allocates nothing: read
 * it before the next call.
 */
interface Segment {
  ia: number;
  ib: number;
  fa: number;
  fb: number;
  t: number;
}
const segment: Segment = { ia: 0, ib: 0, fa: 0, fb: 0, t: 0 };

/** The segment starting at key k (frames[k] <= t unless k is 0) that holds frame t. */
function segmentFrom(frames: Uint16Array, k: number, t: number): Segment {
  segment.ia = k;
  segment.fa = frames[k];
  if (k >= frames.length - 1) {
    segment.ib = k;
    segment.fb = segment.fa;
    segment.t = segment.fa;
  } else {
    segment.ib = k + 1;
    segment.fb = frames[k + 1];
    segment.t = clampT(t, segment.fa);
  }
  return segment;
}

/**
 * Calls visit(f, segment) for every integer frame f in 0..N, walking the keys
 * with a cursor instead of a binary search per frame.
 */
function forEachFrameSegment(frames: Uint16Array, visit: (f: number, s: Segment) => void): void {
  const N = frames[frames.length - 1];
  for (let k = 0, f = 0; f <= N; f++) {
    while (k + 1 < frames.length - 1 && frames[k + 1] <= f) k++;
    visit(f, segmentFrom(frames, k, f));
  }
}

/** Samples a decoded position track at frame t (clamped to [0, N]). */
export function samplePositionTrack(tr: DecodedPositionTrack, t: number, out: Quat, oi = 0): Quat {
  const s = segmentFrom(tr.frames, findKey(tr.frames, t), t);
  evalPositionSegment(out, oi, tr.p, tr.v, s.ia, s.ib, s.fa, s.fb, s.t);
  return out;
}

/** Samples a decoded rotation track at frame t (clamped to [0, N]). */
export function sampleRotationTrack(tr: DecodedRotationTrack, t: number, out: Quat, oi = 0): Quat {
  const s = segmentFrom(tr.frames, findKey(tr.frames, t), t);
  evalRotationSegment(out, oi, tr.q, tr.a, s.ia, s.ib, s.fa, s.fb, s.t);
  return out;
}

/** Samples a decoded trace track at frame t (clamped to [0, N]). */
export function sampleTraceTrack(tr: DecodedTraceTrack, t: number, out: Quat, oi = 0): Quat {
  const s = segmentFrom(tr.frames, findKey(tr.frames, t), t);
  evalTraceSegment(out, oi, tr.p, s.ia, s.ib, s.fa, s.fb, s.t);
  return out;
}

/**
 * Every integer frame 0..N of a decoded position track into out ((N+1) x 3),
 * walking the keys with a cursor (same arithmetic as samplePositionTrack).
 */
export function samplePositionTrackFrames(
  tr: DecodedPositionTrack,
  out: Float64Array = new Float64Array((lastFrame(tr) + 1) * 3),
): Float64Array {
  forEachFrameSegment(tr.frames, (f, s) => evalPositionSegment(out, 3 * f, tr.p, tr.v, s.ia, s.ib, s.fa, s.fb, s.t));
  return out;
}

const wholeTrackSquad = new ScalarSquad();

/**
 * Every integer frame 0..N of a decoded rotation track into out ((N+1) x 4),
 * segment by segment with ScalarSquad (the bits of squadRef: the compressor's
 * error loop uses it too, and shared/compress/rotationFit.test.ts checks them
 * equal): each compression decodes every track once for its object-space
 * error, and this keeps that off the per-run cost. Frames before the first key
 * take the first key, as the per-frame sampler clamps them.
 */
export function sampleRotationTrackFrames(
  tr: DecodedRotationTrack,
  out: Float64Array = new Float64Array((lastFrame(tr) + 1) * 4),
): Float64Array {
  const { frames, q, a } = tr;
  const K = frames.length;
  const seg = wholeTrackSquad;
  const o = seg.out;
  for (let t = 0; t < frames[0]; t++) for (let c = 0; c < 4; c++) out[4 * t + c] = q[c];
  for (let k = 0; k < K; k++) {
    const fa = frames[k];
    out[4 * fa] = q[4 * k];
    out[4 * fa + 1] = q[4 * k + 1];
    out[4 * fa + 2] = q[4 * k + 2];
    out[4 * fa + 3] = q[4 * k + 3];
    if (k + 1 >= K) break;
    const fb = frames[k + 1];
    if (fb - fa < 2) continue;
    seg.set(q, 4 * k, 4 * (k + 1), a, 4 * k, 4 * (k + 1), 1);
    for (let t = fa + 1; t < fb; t++) {
      seg.at(t, fa, fb - fa);
      out[4 * t] = o[0];
      out[4 * t + 1] = o[1];
      out[4 * t + 2] = o[2];
      out[4 * t + 3] = o[3];
    }
  }
  return out;
}

function lastFrame(tr: { frames: Uint16Array }): number {
  return tr.frames[tr.frames.length - 1];
}

/** Below the first key (t < 0 or NaN) the sampler returns key 0. */
function clampT(t: number, first: number): number {
  return t > first ? t : first;
}

/**
 * All tracks of an MT3 decoded to float64 once. Build it with `decodeMt3`
 * (cached per Mt3Motion object); the stored arrays are treated as immutable
 * once decoded, so code that edits an Mt3Motion in place must build a new
 * object (or call decodeMt3(m, true)) to see the change.
 */
export interface DecodedMt3 {
  numFrames: number;
  root: DecodedPositionTrack;
  rotations: DecodedRotationTrack[];
  offsets: DecodedPositionTrack[] | null;
  move: DecodedTraceTrack | null;
}

const cache = new WeakMap<Mt3Motion, DecodedMt3>();

export function decodeMt3(m: Mt3Motion, refresh = false): DecodedMt3 {
  let d = refresh ? undefined : cache.get(m);
  if (!d) cache.set(m, (d = decodeTracks(m)));
  return d;
}

/**
 * Every track of `m` decoded with the given track decoders (by default the plain ones; a caller that keeps
 * decoded tracks by object passes its memoised ones), uncached.
 */
export function decodeTracks(
  m: Mt3Motion,
  position: (t: PositionTrack) => DecodedPositionTrack = decodePositionTrack,
  rotation: (t: RotationTrack) => DecodedRotationTrack = decodeRotationTrack,
): DecodedMt3 {
  return {
    numFrames: m.numFrames,
    root: position(m.root),
    rotations: m.rotations.map(rotation),
    offsets: m.offsets ? m.offsets.map(position) : null,
    move: m.move ? decodeTraceTrack(m.move) : null,
  };
}

/** Root translation at frame t in [0, N] (fractional allowed): out[0..2] = x, y, z. */
export function sampleRootTranslation(m: Mt3Motion, t: number, out: Quat): Quat {
  return samplePositionTrack(decodeMt3(m).root, t, out);
}

/** Joint rotation at frame t: out[0..3] = x, y, z, w (normalised). */
export function sampleRotation(m: Mt3Motion, joint: number, t: number, out: Quat): Quat {
  const tr = decodeMt3(m).rotations[joint];
  if (!tr) throw new RangeError(`joint ${joint} outside 0..${m.rotations.length - 1}`);
  return sampleRotationTrack(tr, t, out);
}

/** Joint offset at frame t: out[0..2] = x, y, z. Throws when the MT3 has no offset streams (ROOT clear). */
export function sampleOffset(m: Mt3Motion, joint: number, t: number, out: Quat): Quat {
  const offs = decodeMt3(m).offsets;
  if (!offs) throw new RangeError('this MT3 has no joint offset streams (ROOT flag clear)');
  const tr = offs[joint];
  if (!tr) throw new RangeError(`joint ${joint} outside 0..${offs.length - 1}`);
  return samplePositionTrack(tr, t, out);
}

/** Trajectory trace at frame t: out[0..2]. Throws when the MT3 has no move stream (MOVE clear). */
export function sampleTrace(m: Mt3Motion, t: number, out: Quat): Quat {
  const mv = decodeMt3(m).move;
  if (!mv) throw new RangeError('this MT3 has no trace (move) stream (MOVE flag clear)');
  return sampleTraceTrack(mv, t, out);
}

/** Result of decompression: the motion plus notes on what had to be guessed. */
export interface DecompressResult {
  motion: Motion;
  /** Human-readable notes (e.g. joint names and hierarchy guessed without a skeleton). */
  notes: string[];
}

/**
 * MT3 -> MTN decompression: samples every frame 0..N with the reference
 * decoder. The skeleton MTN (when given) supplies joint names, parents,
 * mirror, part, fps and, when the MT3 has no offset streams, the constant
 * joint offsets (its frame 0). Key info carries LOCK from the fix stream and
 * TRACE from the move keys other than 0 and N; no KEY flags (the compressor's
 * key choice is not a user decision). Flags map back: ROOT -> OFFSETS,
 * TURN -> DIRECTION (waist from the turn stream), MIRROR bits.
 */
export function decompressMt3(m: Mt3Motion, skeleton?: Motion): DecompressResult {
  const N = m.numFrames;
  const J = m.rotations.length;
  const S = N + 1;
  const notes: string[] = [];
  if (skeleton && skeleton.joints.length !== J)
    throw new FormatError('MTN', `skeleton has ${skeleton.joints.length} joints but the MT3 has ${J}`, {
      where: 'skeleton',
    });

  let joints: JointInfo[];
  let fps = 30;
  if (skeleton) {
    joints = copyJoints(skeleton.joints);
    fps = skeleton.fps;
  } else {
    joints = [];
    for (let j = 0; j < J; j++)
      joints.push(makeJoint({ parent: j - 1, mirror: j, part: 0, reserved: 0, name: `joint_${j}` }));
    notes.push(
      `no skeleton given: joints are named joint_0..joint_${J - 1} with a guessed chain hierarchy (each joint's parent is the one before it), no mirror pairs, all lower body, 30 fps; pass --skeleton to use real names and parents`,
    );
  }

  const d = decodeMt3(m);
  const translation = new Float32Array(S * 4);
  const rotation = new Float32Array(S * J * 4);
  const offset = new Float32Array(S * J * 4);
  // Whole tracks at a time with the cursor samplers: one pass per channel.
  const rootFrames = samplePositionTrackFrames(d.root);
  for (let f = 0; f < S; f++) {
    translation[f * 4] = rootFrames[f * 3];
    translation[f * 4 + 1] = rootFrames[f * 3 + 1];
    translation[f * 4 + 2] = rootFrames[f * 3 + 2];
  }
  const rot = new Float64Array(S * 4);
  const pos = new Float64Array(S * 3);
  for (let j = 0; j < J; j++) {
    sampleRotationTrackFrames(d.rotations[j], rot);
    if (d.offsets) samplePositionTrackFrames(d.offsets[j], pos);
    for (let f = 0; f < S; f++) {
      const o = (f * J + j) * 4;
      rotation[o] = rot[f * 4];
      rotation[o + 1] = rot[f * 4 + 1];
      rotation[o + 2] = rot[f * 4 + 2];
      rotation[o + 3] = rot[f * 4 + 3];
      if (d.offsets) {
        offset[o] = pos[f * 3];
        offset[o + 1] = pos[f * 3 + 1];
        offset[o + 2] = pos[f * 3 + 2];
      } else if (skeleton) {
        offset[o] = skeleton.offset[j * 4];
        offset[o + 1] = skeleton.offset[j * 4 + 1];
        offset[o + 2] = skeleton.offset[j * 4 + 2];
      }
    }
  }
  if (!d.offsets && !skeleton)
    notes.push('the MT3 has no joint offset streams and no skeleton was given: joint offsets are zero');

  const translationKeyInfo = new Uint32Array(S * 4);
  if (m.move) for (const f of m.move.frames) if (f !== 0 && f !== N) translationKeyInfo[f * 4] |= KeyFlag.TRACE;
  const jointKeyInfo = new Uint32Array(S * J * 4);
  if (m.fix)
    for (const r of m.fix)
      for (let f = r.firstFrame; f <= r.lastFrame; f++) jointKeyInfo[(f * J + r.joint) * 4] |= KeyFlag.LOCK;

  let flags = 0;
  if (m.flags & Mt3Flag.ROOT) flags |= MotionFlag.OFFSETS;
  if (m.flags & Mt3Flag.TURN && m.turn !== null) flags |= MotionFlag.DIRECTION;
  if (m.flags & Mt3Flag.MIRROR_UPPER) flags |= MotionFlag.MIRROR_UPPER;
  if (m.flags & Mt3Flag.MIRROR_LOWER) flags |= MotionFlag.MIRROR_LOWER;
  const known = Mt3Flag.FIX | Mt3Flag.TURN | Mt3Flag.ROOT | Mt3Flag.MOVE | Mt3Flag.MIRROR_UPPER | Mt3Flag.MIRROR_LOWER;
  const unknown = m.flags & ~known;
  if (unknown) notes.push(`MT3 flag bits 0x${(unknown >>> 0).toString(16)} have no MTN equivalent and were dropped`);

  const motion = makeMotion({
    frameCount: N,
    flags,
    waistJoint: m.turn ?? -1,
    fps,
    headerReserved: 0,
    joints,
    translation,
    rotation,
    offset,
    translationKeyInfo,
    jointKeyInfo,
  });
  validateMotion(motion);
  return { motion, notes };
}

/** MT3 -> MTN decompression (see decompressMt3; notes are dropped). */
export function decodeMt3ToMotion(m: Mt3Motion, skeleton?: Motion): Motion {
  return decompressMt3(m, skeleton).motion;
}
