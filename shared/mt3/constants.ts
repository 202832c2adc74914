/**
 * MT3 constants (docs/formats.md 2). Assigned values never change: they are the
 * layout of files already written.
 */
export { Mt3Flag } from './types';
import { Mt3Flag } from './types';

/** Header byte offsets (all u32, little-endian; docs/formats.md 2.1). */
export const MT3_HDR_NAME = 0;
export const MT3_HDR_FLAGS = 4;
export const MT3_HDR_BASE_TICK = 8;
export const MT3_HDR_NUM_FRAMES = 12;
export const MT3_HDR_DATA_OFFSET = 16;
export const MT3_HDR_DATA_SIZE = 20;
export const MT3_HDR_NUM_JOINTS = 24;
export const MT3_HDR_ROOT_OFFSET = 28;
export const MT3_HDR_MOVE_OFFSET = 32;
export const MT3_HDR_TURN_OFFSET = 36;
export const MT3_HDR_FIX_OFFSET = 40;
/** quatOffset[j] lives at 44 + 4j. */
export const MT3_HDR_QUAT_OFFSETS = 44;

/** Header bytes before dataOffset's zero padding, for J joints. */
export function mt3HeaderSize(numJoints: number): number {
  return MT3_HDR_QUAT_OFFSETS + 4 * numJoints;
}

/** dataOffset our writer uses: the header rounded up to 16 bytes. */
export function mt3DataOffset(numJoints: number): number {
  return (mt3HeaderSize(numJoints) + 15) & ~15;
}

/** N is a u16 in every frame field (keys, lock ranges), so 1..65535. */
export const MT3_MAX_FRAMES = 65535;
/** Same bound as MTN (docs/formats.md 1), so every MT3 decompresses to a valid MTN. */
export const MT3_MAX_JOINTS = 1024;
/** Largest gap between consecutive keys of a d8 stream. */
export const MT3_MAX_D8_DELTA = 255;
/** Largest gap between consecutive keys of the move (trace) stream (u16 delta). */
export const MT3_MAX_U16_DELTA = 65535;
/**
 * Most entries of the fix (joint lock) stream: its count is a u16. A motion of 65,536 frames whose lock
 * alternates between joints every frame has one more, which the writer wrapped to a count of 0 (an MT3 that
 * does not read) until 2026-12-03.
 */
export const MT3_MAX_LOCK_RANGES = 65535;

/** Bit widths of the stream fields (docs/formats.md 2.2-2.4). */
export const D8_BITS = 8;
export const H16_BITS = 16;
export const S12_BITS = 12;
export const U16_BITS = 16;
/** Root translation / joint offset record: d8 + 6 x h16. */
export const POSITION_RECORD_BITS = D8_BITS + 6 * H16_BITS;
/** Position stream origin: 3 x h16. */
export const POSITION_ORIGIN_BITS = 3 * H16_BITS;
/** Rotation record: d8 + 8 x s12. */
export const ROTATION_RECORD_BITS = D8_BITS + 8 * S12_BITS;
/** Move record: u16 delta + 3 x h16. */
export const MOVE_RECORD_BITS = U16_BITS + 3 * H16_BITS;
/** Fix entry: u16 first, u16 last, u16 joint. */
export const FIX_ENTRY_WORDS = 3;

/** The flag bits that say which project-defined streams are present. */
export const MT3_STREAM_FLAGS = Mt3Flag.ROOT | Mt3Flag.MOVE | Mt3Flag.TURN | Mt3Flag.FIX;
