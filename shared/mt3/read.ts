import type { HeadVerdict, ImpliedSize } from '../binarySize';
import { FormatError } from '../errors';
import { s12FromBits } from '../math/s12';
import { BitReader } from './bitstream';
import {
  D8_BITS,
  FIX_ENTRY_WORDS,
  H16_BITS,
  MOVE_RECORD_BITS,
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
  MT3_MAX_FRAMES,
  MT3_MAX_JOINTS,
  POSITION_ORIGIN_BITS,
  POSITION_RECORD_BITS,
  ROTATION_RECORD_BITS,
  S12_BITS,
  U16_BITS,
  mt3HeaderSize,
} from './constants';
import {
  Mt3Flag,
  type LockRange,
  type Mt3Motion,
  type PositionTrack,
  type RotationTrack,
  type TraceTrack,
} from './types';
import { isNonFiniteH16, validateLockRanges } from './validate';

/** The header fields of an MT3, as read (offsets in pack words). */
export interface Mt3Header {
  name: number;
  flags: number;
  baseTick: number;
  numFrames: number;
  /** Byte offset of the pack; a multiple of 16. */
  dataOffset: number;
  /** Byte length of the pack; even. */
  dataSize: number;
  numJoints: number;
  rootOffset: number;
  moveOffset: number;
  turnOffset: number;
  fixOffset: number;
  quatOffsets: number[];
}

/** One stream's place in the pack, in words: [start, end). */
export interface Mt3StreamSpan {
  name: string;
  start: number;
  end: number;
}

const HEADER_FIXED = MT3_HDR_QUAT_OFFSETS;

function failAt(detail: string, offset?: number, where?: string): never {
  throw new FormatError('MT3', detail, { offset, where });
}

/**
 * The MT3 header check that needs only its fixed 44 bytes (docs/formats.md 2.1): the name, the counts, dataOffset
 * and dataSize, and the size they imply, dataOffset + dataSize (shared/binarySize.ts). readMt3Header runs it first;
 * the main process runs it before it reads the rest of a file.
 */
export function mt3SizeFromHead(head: Uint8Array, size: number): HeadVerdict {
  if (size < HEADER_FIXED)
    failAt(`file is ${size} bytes, shorter than the ${HEADER_FIXED}-byte fixed header`, 0, 'header');
  if (head.byteLength < HEADER_FIXED) return { needHead: HEADER_FIXED };
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const name = dv.getUint32(MT3_HDR_NAME, true);
  if (name > 0xffffff)
    failAt(`name must be a 24-bit GV_StrCode (at most 0xffffff), found 0x${name.toString(16)}`, MT3_HDR_NAME, 'header');
  const numFrames = dv.getUint32(MT3_HDR_NUM_FRAMES, true);
  if (numFrames < 1 || numFrames > MT3_MAX_FRAMES)
    failAt(`numFrames ${numFrames} outside 1..${MT3_MAX_FRAMES}`, MT3_HDR_NUM_FRAMES, 'header');
  const numJoints = dv.getUint32(MT3_HDR_NUM_JOINTS, true);
  if (numJoints < 1 || numJoints > MT3_MAX_JOINTS)
    failAt(`numJoints ${numJoints} outside 1..${MT3_MAX_JOINTS}`, MT3_HDR_NUM_JOINTS, 'header');
  const headerSize = mt3HeaderSize(numJoints);
  if (size < headerSize)
    failAt(`file is ${size} bytes, shorter than the ${headerSize}-byte header of ${numJoints} joints`, 0, 'header');
  const dataOffset = dv.getUint32(MT3_HDR_DATA_OFFSET, true);
  if (dataOffset % 16 !== 0) failAt(`dataOffset ${dataOffset} is not a multiple of 16`, MT3_HDR_DATA_OFFSET, 'header');
  if (dataOffset < headerSize)
    failAt(
      `dataOffset ${dataOffset} lies inside the ${headerSize}-byte header of ${numJoints} joints`,
      MT3_HDR_DATA_OFFSET,
      'header',
    );
  if (dataOffset > size)
    failAt(`dataOffset ${dataOffset} is past the end of the ${size}-byte file`, MT3_HDR_DATA_OFFSET, 'header');
  const dataSize = dv.getUint32(MT3_HDR_DATA_SIZE, true);
  if (dataSize % 2 !== 0) failAt(`dataSize ${dataSize} is odd (the pack is 16-bit words)`, MT3_HDR_DATA_SIZE, 'header');
  const implied = dataOffset + dataSize;
  return {
    size: implied,
    disagree: (actual) =>
      new FormatError(
        'MT3',
        `file is ${actual} bytes but its header (dataOffset ${dataOffset} + dataSize ${dataSize}) implies ${implied} bytes`,
        { offset: MT3_HDR_DATA_SIZE, where: 'header' },
      ),
  };
}

/**
 * Reads and checks an MT3 header (docs/formats.md 2.1) against the file size:
 * counts in range, dataOffset a multiple of 16 past the header, header padding
 * zero, dataSize even with dataOffset + dataSize = file size, and every stream
 * offset inside the pack in the order the spec fixes. Never allocates from an
 * unchecked field.
 */
export function readMt3Header(bytes: Uint8Array): Mt3Header {
  const size = bytes.byteLength;
  const implied = mt3SizeFromHead(bytes, size) as ImpliedSize;
  if (size !== implied.size) throw implied.disagree(size);
  // Read without a closure per field or a label per stream: a rebuild's .mar checks the header of every motion in
  // it (a thousand here), and the labels are made only for a message (streamLabel).
  const dv = new DataView(bytes.buffer, bytes.byteOffset, size);
  const name = dv.getUint32(MT3_HDR_NAME, true);
  const flags = dv.getUint32(MT3_HDR_FLAGS, true);
  const baseTick = dv.getUint32(MT3_HDR_BASE_TICK, true);
  const numFrames = dv.getUint32(MT3_HDR_NUM_FRAMES, true);
  const numJoints = dv.getUint32(MT3_HDR_NUM_JOINTS, true);
  const headerSize = mt3HeaderSize(numJoints);
  const dataOffset = dv.getUint32(MT3_HDR_DATA_OFFSET, true);
  const dataSize = dv.getUint32(MT3_HDR_DATA_SIZE, true);
  for (let o = headerSize; o < dataOffset; o++)
    if (bytes[o] !== 0)
      failAt(`header padding before dataOffset must be zero, found 0x${bytes[o].toString(16)}`, o, 'header');

  const packWords = dataSize / 2;
  const quatOffsets: number[] = [];
  // Stream offsets must be non-decreasing in the spec's order and inside the pack: stream s is quatOffset[s] for
  // s < numJoints, then the root, move, turn and fix offsets; -1 is the root translation stream (word 0).
  let prev = 0;
  let prevStream = -1;
  const checkOffset = (value: number, at: number, stream: number) => {
    if (value > packWords)
      failAt(`${streamLabel(stream, numJoints)} ${value} is past the end of the ${packWords}-word pack`, at, 'header');
    if (value < prev)
      failAt(
        `${streamLabel(stream, numJoints)} ${value} comes before ${streamLabel(prevStream, numJoints)} at word ${prev}; streams lie in the order root translation, rotation 0..J-1, root, move, turn, fix`,
        at,
        'header',
      );
    prev = value;
    prevStream = stream;
  };
  for (let j = 0; j < numJoints; j++) {
    const at = MT3_HDR_QUAT_OFFSETS + 4 * j;
    const v = dv.getUint32(at, true);
    checkOffset(v, at, j);
    quatOffsets.push(v);
  }
  const rootOffset = dv.getUint32(MT3_HDR_ROOT_OFFSET, true);
  checkOffset(rootOffset, MT3_HDR_ROOT_OFFSET, numJoints);
  const moveOffset = dv.getUint32(MT3_HDR_MOVE_OFFSET, true);
  checkOffset(moveOffset, MT3_HDR_MOVE_OFFSET, numJoints + 1);
  const turnOffset = dv.getUint32(MT3_HDR_TURN_OFFSET, true);
  checkOffset(turnOffset, MT3_HDR_TURN_OFFSET, numJoints + 2);
  const fixOffset = dv.getUint32(MT3_HDR_FIX_OFFSET, true);
  checkOffset(fixOffset, MT3_HDR_FIX_OFFSET, numJoints + 3);

  checkPresence(flags, Mt3Flag.ROOT, 'ROOT (joint offsets)', rootOffset, moveOffset, MT3_HDR_ROOT_OFFSET);
  checkPresence(flags, Mt3Flag.MOVE, 'MOVE (trace)', moveOffset, turnOffset, MT3_HDR_MOVE_OFFSET);
  checkPresence(flags, Mt3Flag.TURN, 'TURN', turnOffset, fixOffset, MT3_HDR_TURN_OFFSET);
  checkPresence(flags, Mt3Flag.FIX, 'FIX', fixOffset, packWords, MT3_HDR_FIX_OFFSET);
  return {
    name,
    flags,
    baseTick,
    numFrames,
    dataOffset,
    dataSize,
    numJoints,
    rootOffset,
    moveOffset,
    turnOffset,
    fixOffset,
    quatOffsets,
  };
}

/** The name a message gives stream `stream` of readMt3Header's order (-1: the root translation stream). */
function streamLabel(stream: number, numJoints: number): string {
  if (stream < 0) return 'the root translation stream (word 0)';
  if (stream < numJoints) return `quatOffset[${stream}]`;
  return ['rootOffset', 'moveOffset', 'turnOffset', 'fixOffset'][stream - numJoints];
}

/** A flagged stream holds words and an unflagged one none (its length is `end - start`). */
function checkPresence(flags: number, bit: number, label: string, start: number, end: number, at: number): void {
  if (!(flags & bit) && end !== start)
    failAt(
      `the ${label} flag is clear but its stream has ${end - start} words (an absent stream has length 0)`,
      at,
      'header',
    );
  if (flags & bit && end === start) failAt(`the ${label} flag is set but its stream is empty`, at, 'header');
}

/** The word spans of every stream, in pack order (for `info` and messages). */
export function mt3StreamSpans(h: Mt3Header): Mt3StreamSpan[] {
  const J = h.numJoints;
  const spans: Mt3StreamSpan[] = [{ name: 'root translation', start: 0, end: h.quatOffsets[0] }];
  for (let j = 0; j < J; j++)
    spans.push({
      name: `rotation joint ${j}`,
      start: h.quatOffsets[j],
      end: j + 1 < J ? h.quatOffsets[j + 1] : h.rootOffset,
    });
  spans.push({ name: 'root (joint offsets)', start: h.rootOffset, end: h.moveOffset });
  spans.push({ name: 'move (trace)', start: h.moveOffset, end: h.turnOffset });
  spans.push({ name: 'turn', start: h.turnOffset, end: h.fixOffset });
  spans.push({ name: 'fix', start: h.fixOffset, end: h.dataSize / 2 });
  return spans;
}

/**
 * Reads an MT3 (docs/formats.md 2) into stored values. Every bad input (truncated,
 * inconsistent header, a stream that runs past its end or never reaches N, a
 * key past N, a zero delta, NaN/inf h16, bad lock ranges)
 * throws FormatError kind MT3 with the byte offset and what was expected.
 * Reading never allocates more than the file size implies and always ends.
 */
export function readMt3(bytes: Uint8Array): Mt3Motion {
  const h = readMt3Header(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const N = h.numFrames;
  const J = h.numJoints;
  const base = h.dataOffset;
  const packWords = h.dataSize / 2;
  const reader = (start: number, end: number, name: string) => new BitReader(dv, base, start, end, name);

  const rootEnd = h.quatOffsets[0];
  const r0 = reader(0, rootEnd, 'root translation stream');
  const root = readPositionStream(r0, N, 'root translation stream');
  r0.finish();

  const rotations: RotationTrack[] = [];
  for (let j = 0; j < J; j++) {
    const end = j + 1 < J ? h.quatOffsets[j + 1] : h.rootOffset;
    const name = `rotation stream of joint ${j}`;
    const r = reader(h.quatOffsets[j], end, name);
    rotations.push(readRotationStream(r, N, name));
    r.finish();
  }

  let offsets: PositionTrack[] | null = null;
  if (h.flags & Mt3Flag.ROOT) {
    offsets = [];
    // One bounded reader for the whole ROOT span: each joint's stream is word-aligned and follows the previous.
    for (let j = 0, start = h.rootOffset; j < J; j++) {
      const name = `offset stream of joint ${j}`;
      const r = reader(start, h.moveOffset, name);
      offsets.push(readPositionStream(r, N, name));
      if (j + 1 < J) {
        r.alignTo();
        start = r.position >>> 4;
      } else r.finish();
    }
  }

  let move: TraceTrack | null = null;
  if (h.flags & Mt3Flag.MOVE) {
    const r = reader(h.moveOffset, h.turnOffset, 'move (trace) stream');
    move = readMoveStream(r, N);
    r.finish();
  }

  let turn: number | null = null;
  if (h.flags & Mt3Flag.TURN) {
    const r = reader(h.turnOffset, h.fixOffset, 'turn stream');
    const at = r.fileOffset;
    turn = r.read(U16_BITS);
    if (turn >= J) failAt(`turn (waist) joint ${turn} outside 0..${J - 1}`, at, 'turn stream');
    r.finish();
  }

  let fix: LockRange[] | null = null;
  if (h.flags & Mt3Flag.FIX) {
    const r = reader(h.fixOffset, packWords, 'fix stream');
    const countAt = r.fileOffset;
    const count = r.read(U16_BITS);
    const wordsLeft = packWords - h.fixOffset - 1;
    if (count * FIX_ENTRY_WORDS !== wordsLeft)
      failAt(
        `fix count ${count} needs ${count * FIX_ENTRY_WORDS} words of entries but the stream has ${wordsLeft}`,
        countAt,
        'fix stream',
      );
    fix = [];
    const entryAt: number[] = [];
    for (let i = 0; i < count; i++) {
      entryAt.push(r.fileOffset);
      const firstFrame = r.read(U16_BITS);
      const lastFrame = r.read(U16_BITS);
      const joint = r.read(U16_BITS);
      fix.push({ firstFrame, lastFrame, joint });
    }
    r.finish();
    validateLockRanges(fix, N, J, (i, detail) => failAt(detail, entryAt[i], `fix entry ${i}`));
  }

  return {
    name: h.name,
    flags: h.flags,
    baseTick: h.baseTick,
    numFrames: N,
    root,
    rotations,
    offsets,
    move,
    turn,
    fix,
  };
}

/**
 * Reads keyed records until the accumulated frame reaches N. `readRecord`
 * reads one record's values for key k. The key arrays are sized by what the
 * stream's bounds can hold, never by a field.
 */
function readKeys(
  r: BitReader,
  N: number,
  recordBits: number,
  deltaBits: number,
  streamName: string,
  allocate: (maxKeys: number) => void,
  readRecord: (k: number) => void,
): Uint16Array {
  const maxKeys = Math.min(N + 1, Math.floor(r.bitsLeft / recordBits));
  const frames = new Uint16Array(Math.max(maxKeys, 0));
  allocate(Math.max(maxKeys, 0));
  let frame = 0;
  let k = 0;
  do {
    const at = r.fileOffset;
    if (k >= maxKeys) {
      failAt(
        `${streamName} runs past its end before reaching frame N = ${N} (last key at frame ${frame}, ${k} keys)`,
        at,
        streamName,
      );
    }
    const delta = r.read(deltaBits);
    if (k === 0 && delta !== 0) failAt(`the first record must have delta 0, found ${delta}`, at, `${streamName} key 0`);
    if (k > 0 && delta === 0)
      failAt(`frame delta 0 after the first record (frame ${frame}); keys must advance`, at, `${streamName} key ${k}`);
    frame += delta;
    if (frame > N)
      failAt(`key frame ${frame} is past N = ${N}; the last key must sit exactly on N`, at, `${streamName} key ${k}`);
    frames[k] = frame;
    readRecord(k);
    k++;
  } while (frame < N);
  return frames.slice(0, k);
}

function readH16(r: BitReader, streamName: string, what: string): number {
  const at = r.fileOffset;
  const bits = r.read(H16_BITS);
  if (isNonFiniteH16(bits)) failAt(`${what} is NaN or infinite (h16 bits 0x${bits.toString(16)})`, at, streamName);
  return bits;
}

function readPositionStream(r: BitReader, N: number, name: string): PositionTrack {
  if (r.bitsLeft < POSITION_ORIGIN_BITS)
    failAt(`${name} runs past its end: it has ${r.bitsLeft} bits, less than its 48-bit origin`, r.fileOffset, name);
  const origin = new Uint16Array(3);
  for (let c = 0; c < 3; c++) origin[c] = readH16(r, name, `origin ${'xyz'[c]}`);
  let position = new Uint16Array(0);
  let velocity = new Uint16Array(0);
  const frames = readKeys(
    r,
    N,
    POSITION_RECORD_BITS,
    D8_BITS,
    name,
    (n) => {
      position = new Uint16Array(3 * n);
      velocity = new Uint16Array(3 * n);
    },
    (k) => {
      for (let c = 0; c < 3; c++) position[3 * k + c] = readH16(r, name, `key ${k} position ${'xyz'[c]}`);
      for (let c = 0; c < 3; c++) velocity[3 * k + c] = readH16(r, name, `key ${k} velocity ${'xyz'[c]}`);
    },
  );
  const K = frames.length;
  return { origin, frames, position: position.slice(0, 3 * K), velocity: velocity.slice(0, 3 * K) };
}

/**
 * Every 12-bit value is a stored s12, -2048 included: docs/formats.md 2.2 decodes any `s / 2047` (the vector is
 * normalised) and only the encoder clamps to +-2047, so another tool's file holding 0x800 is read as written.
 */
function readS12(r: BitReader): number {
  return s12FromBits(r.read(S12_BITS));
}

function readRotationStream(r: BitReader, N: number, name: string): RotationTrack {
  let rotation = new Int16Array(0);
  let inner = new Int16Array(0);
  const frames = readKeys(
    r,
    N,
    ROTATION_RECORD_BITS,
    D8_BITS,
    name,
    (n) => {
      rotation = new Int16Array(4 * n);
      inner = new Int16Array(4 * n);
    },
    (k) => {
      for (let c = 0; c < 4; c++) rotation[4 * k + c] = readS12(r);
      for (let c = 0; c < 4; c++) inner[4 * k + c] = readS12(r);
    },
  );
  const K = frames.length;
  return { frames, rotation: rotation.slice(0, 4 * K), inner: inner.slice(0, 4 * K) };
}

function readMoveStream(r: BitReader, N: number): TraceTrack {
  const name = 'move (trace) stream';
  let position = new Uint16Array(0);
  const frames = readKeys(
    r,
    N,
    MOVE_RECORD_BITS,
    U16_BITS,
    name,
    (n) => {
      position = new Uint16Array(3 * n);
    },
    (k) => {
      for (let c = 0; c < 3; c++) position[3 * k + c] = readH16(r, name, `key ${k} position ${'xyz'[c]}`);
    },
  );
  return { frames, position: position.slice(0, 3 * frames.length) };
}
