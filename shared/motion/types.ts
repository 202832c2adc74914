/**
 * The in-memory motion: exactly the content of an MTN v1 file (docs/formats.md 1),
 * kept in flat typed arrays so the compressor and the viewport read it without
 * copying. Frames run 0..frameCount inclusive (frameCount + 1 samples).
 */

/** Motion flags, shared by MTN and (shifted) MT3. Assigned values never change. */
export const MotionFlag = {
  /** Joint offsets are animated: the compressor emits offset tracks. */
  OFFSETS: 1 << 0,
  /** Direction correction from the waist joint at motion reset. */
  DIRECTION: 1 << 1,
  /** The runtime may mirror the upper body (part 1 joints). */
  MIRROR_UPPER: 1 << 2,
  /** The runtime may mirror the lower body (part 0 joints). */
  MIRROR_LOWER: 1 << 3,
} as const;

/** Key-info flags (word 0 of each key-info vector). Assigned values never change. */
export const KeyFlag = {
  /** User key: the compressor must place a key here on this channel. */
  KEY: 1 << 0,
  /** Joint key info only: this joint is pinned at this frame (one joint per frame). */
  LOCK: 1 << 1,
  /** Translation key info only: trajectory trace key. */
  TRACE: 1 << 2,
} as const;

export const JointPart = { LOWER: 0, UPPER: 1 } as const;

export interface JointInfo {
  /** Parent joint index, -1 for joint 0; always smaller than this joint's index. */
  parent: number;
  /** Joint swapped with when mirroring, or this joint itself. */
  mirror: number;
  /** 0 lower body, 1 upper body. */
  part: number;
  /** Reserved word of the skeleton entry (0 in files we write; preserved). */
  reserved: number;
  /** ASCII name, at most 31 characters. */
  name: string;
}

export interface Motion {
  /** N: the motion has samples for frames 0..N. 1..65535. */
  frameCount: number;
  /** Motion flags (MotionFlag bits; unknown bits preserved). */
  flags: number;
  /** Waist joint for direction correction, -1 if none. */
  waistJoint: number;
  /** Frames per second (> 0). */
  fps: number;
  /** Header word at offset 28 (0; preserved). */
  headerReserved: number;
  joints: JointInfo[];
  /** Root position per frame: (N+1) x [x, y, z, w(0)], in motion units. */
  translation: Float32Array;
  /** Local joint rotations, frame-major (index (f*J + j)*4): x, y, z, w. */
  rotation: Float32Array;
  /** Local joint translations relative to the parent, frame-major: x, y, z, 0. */
  offset: Float32Array;
  /** (N+1) x 4 words; word 0 holds KeyFlag bits for the root translation. */
  translationKeyInfo: Uint32Array;
  /** (N+1) x J x 4 words, frame-major; word 0 holds KeyFlag bits per joint. */
  jointKeyInfo: Uint32Array;
}

export function jointCount(m: Motion): number {
  return m.joints.length;
}

export function translationFlagsAt(m: Motion, frame: number): number {
  return m.translationKeyInfo[frame * 4];
}

export function jointFlagsAt(m: Motion, frame: number, joint: number): number {
  return m.jointKeyInfo[(frame * m.joints.length + joint) * 4];
}

/** Returns the joint locked at `frame`, or -1. */
export function lockedJointAt(m: Motion, frame: number): number {
  const J = m.joints.length;
  for (let j = 0; j < J; j++) if (m.jointKeyInfo[(frame * J + j) * 4] & KeyFlag.LOCK) return j;
  return -1;
}

/**
 * A Motion of these parts. Every motion is built here (readMtn, emptyMotion and so resampling and the importers,
 * the MT3 decoder, cloneMotion, the editor's document): one object literal for all, so V8 gives every motion one
 * hidden class and optimises the compressor once for it, instead of again for each way a motion was made.
 */
export function makeMotion(m: Motion): Motion {
  return {
    frameCount: m.frameCount,
    flags: m.flags,
    waistJoint: m.waistJoint,
    fps: m.fps,
    headerReserved: m.headerReserved,
    joints: m.joints,
    translation: m.translation,
    rotation: m.rotation,
    offset: m.offset,
    translationKeyInfo: m.translationKeyInfo,
    jointKeyInfo: m.jointKeyInfo,
  };
}

/** A joint entry (one literal for all, as makeMotion). */
export function makeJoint(j: JointInfo): JointInfo {
  return { parent: j.parent, mirror: j.mirror, part: j.part, reserved: j.reserved, name: j.name };
}

/** Copies of joint entries, in an array built by push like every joints array (see makeMotion). */
export function copyJoints(joints: readonly JointInfo[]): JointInfo[] {
  const out: JointInfo[] = [];
  for (const j of joints) out.push(makeJoint(j));
  return out;
}

/** A deep copy (typed arrays copied) so edits never alias the original. */
export function cloneMotion(m: Motion): Motion {
  return makeMotion({
    ...m,
    joints: copyJoints(m.joints),
    translation: m.translation.slice(),
    rotation: m.rotation.slice(),
    offset: m.offset.slice(),
    translationKeyInfo: m.translationKeyInfo.slice(),
    jointKeyInfo: m.jointKeyInfo.slice(),
  });
}

/** Builds a motion with identity rotations, zero offsets and no flags. */
export function emptyMotion(frameCount: number, joints: JointInfo[], fps = 30): Motion {
  const S = frameCount + 1;
  const J = joints.length;
  const rotation = new Float32Array(S * J * 4);
  for (let i = 0; i < S * J; i++) rotation[i * 4 + 3] = 1;
  return makeMotion({
    frameCount,
    flags: 0,
    waistJoint: -1,
    fps,
    headerReserved: 0,
    joints,
    translation: new Float32Array(S * 4),
    rotation,
    offset: new Float32Array(S * J * 4),
    translationKeyInfo: new Uint32Array(S * 4),
    jointKeyInfo: new Uint32Array(S * J * 4),
  });
}
