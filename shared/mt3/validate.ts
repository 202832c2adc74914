import { FormatError } from '../errors';
import { MT3_MAX_D8_DELTA, MT3_MAX_FRAMES, MT3_MAX_JOINTS, MT3_MAX_LOCK_RANGES, MT3_MAX_U16_DELTA } from './constants';
import type { LockRange, Mt3Motion, PositionTrack, RotationTrack, TraceTrack } from './types';

const fail = (where: string, detail: string): never => {
  throw new FormatError('MT3', detail, { where });
};

/** True when h16 bits are NaN or an infinity (exponent all ones): never stored. */
export function isNonFiniteH16(bits: number): boolean {
  return (bits & 0x7c00) === 0x7c00;
}

/**
 * Checks every invariant of docs/formats.md 2 on an in-memory MT3 (stored values)
 * and throws a FormatError (kind MT3) naming the stream, key and frame of the
 * first problem. The writer calls it before encoding, so nothing it writes can
 * fail to read back.
 */
export function validateMt3(m: Mt3Motion): void {
  if (!Number.isInteger(m.name) || m.name < 0 || m.name > 0xffffff)
    fail('header', `name must be a 24-bit GV_StrCode (0..0xffffff), found ${m.name}`);
  if (!isU32(m.flags)) fail('header', `flags must be a u32, found ${m.flags}`);
  if (!isU32(m.baseTick)) fail('header', `baseTick must be a u32, found ${m.baseTick}`);
  const N = m.numFrames;
  if (!Number.isInteger(N) || N < 1 || N > MT3_MAX_FRAMES)
    fail('header', `numFrames ${N} outside 1..${MT3_MAX_FRAMES}`);
  const J = m.rotations.length;
  if (J < 1 || J > MT3_MAX_JOINTS) fail('header', `numJoints (rotation tracks) ${J} outside 1..${MT3_MAX_JOINTS}`);

  validatePositionTrack(m.root, N, 'root translation');
  for (let j = 0; j < J; j++) validateRotationTrack(m.rotations[j], N, `rotation joint ${j}`);
  if (m.offsets) {
    if (m.offsets.length !== J)
      fail('root (joint offsets)', `expected one offset track per joint (${J}), found ${m.offsets.length}`);
    for (let j = 0; j < J; j++) validatePositionTrack(m.offsets[j], N, `offset joint ${j}`);
  }
  if (m.move) validateTraceTrack(m.move, N);
  if (m.turn !== null && !(Number.isInteger(m.turn) && m.turn >= 0 && m.turn < J))
    fail('turn', `waist joint ${m.turn} outside 0..${J - 1}`);
  if (m.fix && m.fix.length > MT3_MAX_LOCK_RANGES)
    fail('fix', `${m.fix.length} lock entries; the fix stream's u16 count holds at most ${MT3_MAX_LOCK_RANGES}`);
  if (m.fix) validateLockRanges(m.fix, N, J, (i, detail) => fail(`fix entry ${i}`, detail));
}

function isU32(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** Key frames: start at 0, strictly increasing by 1..maxDelta, end exactly at N. */
export function validateKeyFrames(frames: ArrayLike<number>, N: number, maxDelta: number, where: string): void {
  const K = frames.length;
  if (K < 2) fail(where, `a stream needs at least 2 keys (frames 0 and ${N}), found ${K}`);
  if (frames[0] !== 0) fail(`${where} key 0`, `the first key must be at frame 0 (delta 0), found frame ${frames[0]}`);
  for (let k = 1; k < K; k++) {
    const d = frames[k] - frames[k - 1];
    if (!(d >= 1 && d <= maxDelta))
      fail(
        `${where} key ${k}`,
        `frame delta must be 1..${maxDelta}, found ${d} (frame ${frames[k - 1]} -> ${frames[k]})`,
      );
  }
  if (frames[K - 1] !== N)
    fail(`${where} key ${K - 1}`, `the last key must be at frame N = ${N}, found ${frames[K - 1]}`);
}

function checkH16(bits: ArrayLike<number>, where: string, perKey: number, what: string): void {
  for (let i = 0; i < bits.length; i++)
    if (isNonFiniteH16(bits[i]))
      fail(
        `${where} key ${Math.floor(i / perKey)}`,
        `${what} component ${'xyz'[i % perKey]} is NaN or infinite (h16 bits 0x${bits[i].toString(16)})`,
      );
}

export function validatePositionTrack(t: PositionTrack, N: number, where: string): void {
  if (t.origin.length !== 3) fail(where, `origin must have 3 components, found ${t.origin.length}`);
  validateKeyFrames(t.frames, N, MT3_MAX_D8_DELTA, where);
  const K = t.frames.length;
  if (t.position.length !== 3 * K)
    fail(where, `expected ${3 * K} position values for ${K} keys, found ${t.position.length}`);
  if (t.velocity.length !== 3 * K)
    fail(where, `expected ${3 * K} velocity values for ${K} keys, found ${t.velocity.length}`);
  checkH16(t.origin, `${where} origin`, 3, 'origin');
  checkH16(t.position, where, 3, 'position');
  checkH16(t.velocity, where, 3, 'velocity');
}

export function validateRotationTrack(t: RotationTrack, N: number, where: string): void {
  validateKeyFrames(t.frames, N, MT3_MAX_D8_DELTA, where);
  const K = t.frames.length;
  if (t.rotation.length !== 4 * K)
    fail(where, `expected ${4 * K} rotation values for ${K} keys, found ${t.rotation.length}`);
  if (t.inner.length !== 4 * K)
    fail(where, `expected ${4 * K} inner control values for ${K} keys, found ${t.inner.length}`);
  for (const [arr, what] of [
    [t.rotation, 'rotation'],
    [t.inner, 'inner control'],
  ] as const)
    for (let i = 0; i < arr.length; i++)
      if (!(Number.isInteger(arr[i]) && arr[i] >= -2048 && arr[i] <= 2047))
        fail(
          `${where} key ${i >> 2}`,
          `${what} component ${'xyzw'[i & 3]} = ${arr[i]} outside the s12 range -2048..2047`,
        );
}

export function validateTraceTrack(t: TraceTrack, N: number): void {
  const where = 'move (trace)';
  validateKeyFrames(t.frames, N, MT3_MAX_U16_DELTA, where);
  const K = t.frames.length;
  if (t.position.length !== 3 * K)
    fail(where, `expected ${3 * K} position values for ${K} keys, found ${t.position.length}`);
  checkH16(t.position, where, 3, 'position');
}

/**
 * Lock ranges: inclusive, in range, sorted, not overlapping, and consecutive
 * LOCK frames of one joint form one entry (so touching ranges of one joint are
 * refused: they must be merged).
 */
export function validateLockRanges(
  fix: readonly LockRange[],
  N: number,
  J: number,
  failAt: (index: number, detail: string) => never,
): void {
  for (let i = 0; i < fix.length; i++) {
    const r = fix[i];
    const where = i;
    if (
      !Number.isInteger(r.firstFrame) ||
      !Number.isInteger(r.lastFrame) ||
      r.firstFrame < 0 ||
      r.firstFrame > r.lastFrame ||
      r.lastFrame > N
    )
      failAt(where, `lock range ${r.firstFrame}..${r.lastFrame} must satisfy 0 <= first <= last <= N = ${N}`);
    if (!(Number.isInteger(r.joint) && r.joint >= 0 && r.joint < J))
      failAt(where, `locked joint ${r.joint} outside 0..${J - 1}`);
    if (i > 0) {
      const p = fix[i - 1];
      if (r.firstFrame <= p.lastFrame)
        failAt(
          where,
          `lock range ${r.firstFrame}..${r.lastFrame} must start after the previous range ${p.firstFrame}..${p.lastFrame} (sorted, not overlapping)`,
        );
      if (r.firstFrame === p.lastFrame + 1 && r.joint === p.joint)
        failAt(
          where,
          `lock range ${r.firstFrame}..${r.lastFrame} continues the previous range of joint ${r.joint} (${p.firstFrame}..${p.lastFrame}); consecutive lock frames of one joint form one entry`,
        );
    }
  }
}
