/**
 * The MT3 content as stored values (docs/formats.md 2): quantised integers exactly
 * as they go into the 16-bit pack, so write(read(x)) is exact and the decoder
 * and the compressor see the very numbers the game sees.
 */

/** MT3 header flags (docs/formats.md 2.5). Assigned values never change. */
export const Mt3Flag = {
  FIX: 0x04,
  TURN: 0x08,
  ROOT: 0x10,
  MOVE: 0x20,
  MIRROR_UPPER: 0x100,
  MIRROR_LOWER: 0x200,
} as const;

/**
 * A Hermite position track (root translation or one joint's offsets).
 * K keys; frames strictly increasing from 0 to N, gaps 1..255.
 */
export interface PositionTrack {
  /** Motion origin, h16 bits x3 (project-defined: frame-0 root position; decoders ignore it). */
  origin: Uint16Array;
  /** Key frames, K entries. */
  frames: Uint16Array;
  /** Key positions, h16 bits, K x 3. */
  position: Uint16Array;
  /** Key velocities in units per frame, h16 bits, K x 3. */
  velocity: Uint16Array;
}

/** A Squad rotation track. K keys; frames as for PositionTrack. */
export interface RotationTrack {
  frames: Uint16Array;
  /** Key rotations, s12 integers (-2048..2047; ActGuy's encoder writes -2047..2047), K x 4 (x, y, z, w). */
  rotation: Int16Array;
  /** Inner Squad control quaternions, s12 integers, K x 4. */
  inner: Int16Array;
}

/** The linear trajectory trace (MOVE stream): keys 0, TRACE frames, N; gaps up to 65535. */
export interface TraceTrack {
  frames: Uint16Array;
  /** h16 bits, K x 3. */
  position: Uint16Array;
}

/** One joint-lock entry: frames first..last inclusive, joint pinned. */
export interface LockRange {
  firstFrame: number;
  lastFrame: number;
  joint: number;
}

export interface Mt3Motion {
  /** 24-bit GV_StrCode of the motion name. */
  name: number;
  /** Mt3Flag bits plus any unknown bits read from a file (preserved). */
  flags: number;
  /** Project-defined header word 8; 0 when written by us. */
  baseTick: number;
  /** N: samples 0..N. */
  numFrames: number;
  /** Root translation (stream at pack word 0). */
  root: PositionTrack;
  /** One rotation track per joint, joint order. */
  rotations: RotationTrack[];
  /** Joint offset tracks (ROOT flag), one per joint, or null. */
  offsets: PositionTrack[] | null;
  /** Trajectory trace (MOVE flag), or null. */
  move: TraceTrack | null;
  /** Waist joint for direction correction (TURN flag), or null. */
  turn: number | null;
  /** Joint locks (FIX flag), or null. */
  fix: LockRange[] | null;
}
