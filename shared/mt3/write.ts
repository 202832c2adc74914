import { s12ToBits } from '../math/s12';
import { BitWriter } from './bitstream';
import {
  D8_BITS,
  H16_BITS,
  MT3_HDR_BASE_TICK,
  MT3_HDR_DATA_OFFSET,
  MT3_HDR_DATA_SIZE,
  MT3_HDR_FIX_OFFSET,
  MT3_HDR_FLAGS,
  MT3_HDR_MOVE_OFFSET,
  MT3_HDR_NAME,
  MT3_HDR_NUM_FRAMES,
  MT3_HDR_NUM_JOINTS,
  MT3_HDR_QUAT_OFFSETS,
  MT3_HDR_ROOT_OFFSET,
  MT3_HDR_TURN_OFFSET,
  MT3_STREAM_FLAGS,
  S12_BITS,
  U16_BITS,
  mt3DataOffset,
} from './constants';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack, type TraceTrack } from './types';
import { validateMt3 } from './validate';

/**
 * The flags a file gets for a motion: ROOT/MOVE/TURN/FIX say which streams are
 * present, so they are derived from the streams; every other bit (mirroring,
 * unknown bits read from a file) is kept.
 */
export function mt3FlagsFor(m: Mt3Motion): number {
  let f = m.flags & ~MT3_STREAM_FLAGS;
  if (m.offsets) f |= Mt3Flag.ROOT;
  if (m.move) f |= Mt3Flag.MOVE;
  if (m.turn !== null) f |= Mt3Flag.TURN;
  if (m.fix) f |= Mt3Flag.FIX;
  return f >>> 0;
}

/**
 * Encoded streams of tracks already written, by track object (one per open motion, in its CompressCache): an
 * edit that changed one channel encodes that channel's stream alone.
 */
export type Mt3StreamMemo = WeakMap<PositionTrack | RotationTrack, Uint16Array>;

/**
 * Serialises an MT3 exactly per docs/formats.md 2.1-2.4: header (zero-padded to a
 * 16-byte dataOffset), then one 16-bit word pack with the streams back to back
 * in the order root translation, rotation 0..J-1, joint offsets, move, turn,
 * fix. Validates first and throws FormatError (kind MT3) naming the stream and
 * key of any invariant the motion breaks.
 */
export function writeMt3(m: Mt3Motion, memo?: Mt3StreamMemo): Uint8Array {
  validateMt3(m);
  const J = m.rotations.length;
  const w = new BitWriter(1024);
  // Each track stream starts and ends on a word boundary and depends on its track alone: with a memo, a track
  // written before (the same object: tracks are never changed once made) is copied instead of encoded.
  const stream = <T extends PositionTrack | RotationTrack>(t: T, write: (w: BitWriter, t: T) => void) => {
    const known = memo?.get(t);
    if (known) {
      w.appendWords(known);
      return;
    }
    const start = w.wordLength;
    write(w, t);
    memo?.set(t, w.wordsFrom(start));
  };

  stream(m.root, writePositionStream);
  const quatOffsets: number[] = [];
  for (let j = 0; j < J; j++) {
    quatOffsets.push(w.wordLength);
    stream(m.rotations[j], writeRotationStream);
  }
  const rootOffset = w.wordLength;
  if (m.offsets) for (const t of m.offsets) stream(t, writePositionStream);
  const moveOffset = w.wordLength;
  if (m.move) writeMoveStream(w, m.move);
  const turnOffset = w.wordLength;
  if (m.turn !== null) {
    w.write(m.turn, U16_BITS);
  }
  const fixOffset = w.wordLength;
  if (m.fix) {
    w.write(m.fix.length, U16_BITS);
    for (const r of m.fix) {
      w.write(r.firstFrame, U16_BITS);
      w.write(r.lastFrame, U16_BITS);
      w.write(r.joint, U16_BITS);
    }
  }
  const pack = w.toWords();

  const dataOffset = mt3DataOffset(J);
  const dataSize = pack.length * 2;
  const out = new Uint8Array(dataOffset + dataSize);
  const dv = new DataView(out.buffer);
  dv.setUint32(MT3_HDR_NAME, m.name, true);
  dv.setUint32(MT3_HDR_FLAGS, mt3FlagsFor(m), true);
  dv.setUint32(MT3_HDR_BASE_TICK, m.baseTick, true);
  dv.setUint32(MT3_HDR_NUM_FRAMES, m.numFrames, true);
  dv.setUint32(MT3_HDR_DATA_OFFSET, dataOffset, true);
  dv.setUint32(MT3_HDR_DATA_SIZE, dataSize, true);
  dv.setUint32(MT3_HDR_NUM_JOINTS, J, true);
  dv.setUint32(MT3_HDR_ROOT_OFFSET, rootOffset, true);
  dv.setUint32(MT3_HDR_MOVE_OFFSET, moveOffset, true);
  dv.setUint32(MT3_HDR_TURN_OFFSET, turnOffset, true);
  dv.setUint32(MT3_HDR_FIX_OFFSET, fixOffset, true);
  for (let j = 0; j < J; j++) dv.setUint32(MT3_HDR_QUAT_OFFSETS + 4 * j, quatOffsets[j], true);
  for (let i = 0; i < pack.length; i++) dv.setUint16(dataOffset + 2 * i, pack[i], true);
  return out;
}

/** Origin h16 x3, then records d8 delta, h16 p x3, h16 v x3; word-aligned end. */
function writePositionStream(w: BitWriter, t: PositionTrack): void {
  for (let c = 0; c < 3; c++) w.write(t.origin[c], H16_BITS);
  const K = t.frames.length;
  for (let k = 0; k < K; k++) {
    w.write(k === 0 ? 0 : t.frames[k] - t.frames[k - 1], D8_BITS);
    for (let c = 0; c < 3; c++) w.write(t.position[3 * k + c], H16_BITS);
    for (let c = 0; c < 3; c++) w.write(t.velocity[3 * k + c], H16_BITS);
  }
  w.align();
}

/** Records d8 delta, s12 q x4, s12 a x4; word-aligned end. */
function writeRotationStream(w: BitWriter, t: RotationTrack): void {
  const K = t.frames.length;
  for (let k = 0; k < K; k++) {
    w.write(k === 0 ? 0 : t.frames[k] - t.frames[k - 1], D8_BITS);
    for (let c = 0; c < 4; c++) w.write(s12ToBits(t.rotation[4 * k + c]), S12_BITS);
    for (let c = 0; c < 4; c++) w.write(s12ToBits(t.inner[4 * k + c]), S12_BITS);
  }
  w.align();
}

/** Records u16 delta, h16 x3 (already word-aligned: 64 bits each). */
function writeMoveStream(w: BitWriter, t: TraceTrack): void {
  const K = t.frames.length;
  for (let k = 0; k < K; k++) {
    w.write(k === 0 ? 0 : t.frames[k] - t.frames[k - 1], U16_BITS);
    for (let c = 0; c < 3; c++) w.write(t.position[3 * k + c], H16_BITS);
  }
  w.align();
}

/**
 * A copy of an encoded MT3 under another name hash (header word 0): the same
 * streams, byte for byte, as a project alias reuses a motion's compressed data.
 */
export function withMt3Name(bytes: Uint8Array, nameHash: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(MT3_HDR_NAME, nameHash >>> 0, true);
  return out;
}
