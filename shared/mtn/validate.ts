import { FormatError, quoteJson } from '../errors';
import { KeyFlag, MotionFlag, type Motion } from '../motion/types';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from './constants';

const NAME_RE = /^[\x20-\x7e]{0,31}$/;

/**
 * Checks every invariant of docs/formats.md 1 on an in-memory motion and
 * throws a FormatError naming the section, frame and joint of the first problem.
 * Used by the reader (after decoding) and by the writer (before encoding).
 * `samplesChecked` skips the per-sample checks (finite values, non-zero
 * quaternions) for sample arrays the caller saw pass before.
 */
export function validateMotion(m: Motion, options: { samplesChecked?: boolean } = {}): void {
  const N = m.frameCount;
  const J = m.joints.length;
  const S = N + 1;
  const fail = (where: string, detail: string): never => {
    throw new FormatError('MTN', detail, { where });
  };
  if (!Number.isInteger(N) || N < 1 || N > MTN_MAX_FRAMES)
    fail('header', `frameCount ${N} outside 1..${MTN_MAX_FRAMES}`);
  if (J < 1 || J > MTN_MAX_JOINTS) fail('header', `jointCount ${J} outside 1..${MTN_MAX_JOINTS}`);
  if (!(Number.isFinite(m.fps) && m.fps > 0))
    fail('header', `frames per second must be a finite number > 0, found ${m.fps}`);
  if (m.waistJoint !== -1 && (m.waistJoint < 0 || m.waistJoint >= J || !Number.isInteger(m.waistJoint)))
    fail('header', `waist joint ${m.waistJoint} outside -1..${J - 1}`);
  if (m.flags & MotionFlag.DIRECTION && m.waistJoint < 0)
    fail('header', 'DIRECTION is set but no waist joint is given (waist joint is -1)');

  const sizes: [string, ArrayLike<number>, number][] = [
    ['translation', m.translation, S * 4],
    ['rotation', m.rotation, S * J * 4],
    ['offset', m.offset, S * J * 4],
    ['translation key info', m.translationKeyInfo, S * 4],
    ['joint key info', m.jointKeyInfo, S * J * 4],
  ];
  for (const [name, arr, want] of sizes) {
    if (arr.length === want) continue;
    // Key info of frames past N (an in-memory motion, or a request built for a longer one): name the first flag there.
    const perFrame = name === 'joint key info' ? J : name === 'translation key info' ? 1 : 0;
    const past = perFrame ? arr.length : want;
    for (let i = want; i < past; i += 4) {
      if (arr[i] === 0) continue;
      const v = i / 4;
      const joint = perFrame === 1 ? '' : ` joint ${v % J}`;
      fail(
        `${name} frame ${Math.floor(v / perFrame)}${joint}`,
        `flags ${arr[i]} on a frame beyond the last frame ${N} (expected ${want} values for ${S} frames x ${J} joints, found ${arr.length})`,
      );
    }
    fail(name, `expected ${want} values for ${S} frames x ${J} joints, found ${arr.length}`);
  }

  for (let j = 0; j < J; j++) {
    const jt = m.joints[j];
    const at = `skeleton joint ${j}`;
    if (j === 0 && jt.parent !== -1) fail(at, `joint 0 must have parent -1, found ${jt.parent}`);
    if (j > 0 && !(jt.parent >= 0 && jt.parent < j))
      fail(at, `parent ${jt.parent} must be a joint before it (0..${j - 1})`);
    if (!(jt.mirror >= 0 && jt.mirror < J)) fail(at, `mirror joint ${jt.mirror} outside 0..${J - 1}`);
    if (!NAME_RE.test(jt.name))
      fail(`names joint ${j}`, `name must be printable ASCII of at most 31 characters: ${quoteJson(jt.name)}`);
  }

  const checkFinite = (name: string, arr: Float32Array, perFrame: number) => {
    for (let i = 0; i < arr.length; i++) {
      if (!Number.isFinite(arr[i])) {
        const v = Math.floor(i / 4);
        const frame = Math.floor(v / perFrame);
        const joint = v % perFrame;
        fail(
          perFrame === 1 ? `${name} frame ${frame}` : `${name} frame ${frame} joint ${joint}`,
          `value ${arr[i]} is not finite (component ${'xyzw'[i % 4]})`,
        );
      }
    }
  };
  // (The caller may know these very sample arrays passed before: a compression cache that saw them.)
  if (!options.samplesChecked) {
    checkFinite('translation', m.translation, 1);
    checkFinite('rotation', m.rotation, J);
    checkFinite('offset', m.offset, J);
    const i = firstZeroQuaternion(m.rotation, S * J);
    if (i >= 0) {
      const q = m.rotation.subarray(i * 4, i * 4 + 4);
      const length = Math.hypot(q[0], q[1], q[2], q[3]);
      fail(
        `rotation frame ${Math.floor(i / J)} joint ${i % J}`,
        length === 0
          ? 'quaternion has zero length'
          : `quaternion length ${length.toPrecision(3)} is too close to zero (under 1e-6) to give a rotation`,
      );
    }
  }

  const second = secondLockOfAFrame(m.jointKeyInfo, S, J);
  if (second >= 0) {
    const f = Math.floor(second / J),
      j = second % J;
    let locked = 0;
    while (!(m.jointKeyInfo[(f * J + locked) * 4] & KeyFlag.LOCK)) locked++;
    fail(
      `joint key info frame ${f} joint ${j}`,
      `two joints locked on one frame (joints ${locked} and ${j}); at most one joint per frame`,
    );
  }
}

// The per-sample loops live in small functions of their own: V8 optimises a hot loop by compiling the function
// around it, and a fresh process (the CLI) would otherwise compile all of validateMotion for them.

/** The index of the first of `count` quaternions (x, y, z, w each) whose length is about zero, or -1. */
function firstZeroQuaternion(q: Float32Array, count: number): number {
  for (let i = 0; i < count; i++) {
    const x = q[i * 4],
      y = q[i * 4 + 1],
      z = q[i * 4 + 2],
      w = q[i * 4 + 3];
    if (x * x + y * y + z * z + w * w < 1e-12) return i;
  }
  return -1;
}

/** frame * J + joint of the first joint that is the second one locked on its frame, or -1. */
function secondLockOfAFrame(keyInfo: Uint32Array, S: number, J: number): number {
  for (let f = 0; f < S; f++) {
    let locks = 0;
    for (let j = 0; j < J; j++) if ((keyInfo[(f * J + j) * 4] & KeyFlag.LOCK) !== 0 && ++locks === 2) return f * J + j;
  }
  return -1;
}
