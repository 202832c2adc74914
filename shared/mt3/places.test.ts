import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { MotionFlag, emptyMotion } from '../motion/types';
import { BitReader, BitWriter } from './bitstream';
import { decodeMt3, decompressMt3, sampleOffset, sampleRootTranslation, sampleRotation, sampleTrace } from './decode';
import { randomMt3 } from './testFixtures';
import { mt3StreamSpans, readMt3, readMt3Header } from './read';
import { Mt3Flag, type Mt3Motion, type PositionTrack, type RotationTrack } from './types';
import { validateMt3 } from './validate';
import { withMt3Name, writeMt3 } from './write';

/**
 * Every refusal of the MT3 reader and validator names the part of the file
 * (header field, stream and key, fix entry) and, for bytes, the offset, so a
 * user can find it with a hex editor. The fixture has every stream:
 * N = 2, J = 2; pack words: root 0..16, rotation 0 16..36, rotation 1 36..56,
 * joint offsets 56..88, move 88..96, turn 96..97, fix 97..101; dataOffset 64
 * (52-byte header, padded), 266 bytes in all.
 */
const ID = [0, 0, 0, 2047];
const position = (): PositionTrack => ({
  origin: Uint16Array.from([0x3c00, 0, 0]),
  frames: Uint16Array.from([0, 2]),
  position: new Uint16Array(6),
  velocity: new Uint16Array(6),
});
const rotation = (): RotationTrack => ({
  frames: Uint16Array.from([0, 1, 2]),
  rotation: Int16Array.from([...ID, ...ID, ...ID]),
  inner: Int16Array.from([...ID, ...ID, ...ID]),
});
const motion = (): Mt3Motion => ({
  name: 0x123456,
  flags: 0,
  baseTick: 7,
  numFrames: 2,
  root: position(),
  rotations: [rotation(), rotation()],
  offsets: [position(), position()],
  move: { frames: Uint16Array.from([0, 2]), position: new Uint16Array(6) },
  turn: 1,
  fix: [{ firstFrame: 0, lastFrame: 1, joint: 1 }],
});
const ALL_STREAMS = Mt3Flag.ROOT | Mt3Flag.MOVE | Mt3Flag.TURN | Mt3Flag.FIX;
const GOOD = writeMt3(motion());
const DATA = 64;

/** A copy of the fixture with `set` applied to its bytes. */
function patched(set: (dv: DataView, b: Uint8Array) => void, from: Uint8Array = GOOD): Uint8Array {
  const b = from.slice();
  set(new DataView(b.buffer), b);
  return b;
}
const u32At = (at: number, v: number) => patched((dv) => dv.setUint32(at, v, true));
/** Pack word `w` of the fixture set to `v`. */
const wordAt = (w: number, v: number) => patched((dv) => dv.setUint16(DATA + 2 * w, v, true));

describe('the MT3 fixture', () => {
  it('has the layout described above and reads back field by field', () => {
    expect(GOOD.byteLength).toBe(266);
    const h = readMt3Header(GOOD);
    expect([h.dataOffset, h.dataSize, h.quatOffsets, h.rootOffset, h.moveOffset, h.turnOffset, h.fixOffset]).toEqual([
      64,
      202,
      [16, 36],
      56,
      88,
      96,
      97,
    ]);
    expect(readMt3(GOOD)).toEqual({ ...motion(), flags: ALL_STREAMS });
  });

  it('mt3StreamSpans lists every stream in pack order with its words', () => {
    expect(mt3StreamSpans(readMt3Header(GOOD))).toEqual([
      { name: 'root translation', start: 0, end: 16 },
      { name: 'rotation joint 0', start: 16, end: 36 },
      { name: 'rotation joint 1', start: 36, end: 56 },
      { name: 'root (joint offsets)', start: 56, end: 88 },
      { name: 'move (trace)', start: 88, end: 96 },
      { name: 'turn', start: 96, end: 97 },
      { name: 'fix', start: 97, end: 101 },
    ]);
  });
});

describe('readMt3 names the header field and its offset', () => {
  it.each([
    [
      'shorter than the fixed header',
      GOOD.slice(0, 43),
      'MT3 (header, offset 0): file is 43 bytes, shorter than the 44-byte fixed header',
    ],
    [
      'the fixed header but not the joint offsets',
      GOOD.slice(0, 44),
      'MT3 (header, offset 0): file is 44 bytes, shorter than the 52-byte header of 2 joints',
    ],
    [
      'exactly the header of its joints',
      GOOD.slice(0, 52),
      'MT3 (header, offset 16): dataOffset 64 is past the end of the 52-byte file',
    ],
    [
      'a 25-bit name',
      u32At(0, 0x1000000),
      'MT3 (header, offset 0): name must be a 24-bit GV_StrCode (at most 0xffffff), found 0x1000000',
    ],
    ['no frames', u32At(12, 0), 'MT3 (header, offset 12): numFrames 0 outside 1..65535'],
    ['too many frames', u32At(12, 65536), 'MT3 (header, offset 12): numFrames 65536 outside 1..65535'],
    ['no joints', u32At(24, 0), 'MT3 (header, offset 24): numJoints 0 outside 1..1024'],
    ['too many joints', u32At(24, 1025), 'MT3 (header, offset 24): numJoints 1025 outside 1..1024'],
    [
      'the most joints, in too small a file',
      u32At(24, 1024),
      'MT3 (header, offset 0): file is 266 bytes, shorter than the 4140-byte header of 1024 joints',
    ],
    [
      'dataOffset off the 16-byte grid',
      u32At(16, 72),
      'MT3 (header, offset 16): dataOffset 72 is not a multiple of 16',
    ],
    [
      'dataOffset inside the header',
      u32At(16, 48),
      'MT3 (header, offset 16): dataOffset 48 lies inside the 52-byte header of 2 joints',
    ],
    ['an odd dataSize', u32At(20, 201), 'MT3 (header, offset 20): dataSize 201 is odd (the pack is 16-bit words)'],
    [
      'a dataSize that disagrees with the file',
      new Uint8Array([...GOOD, 0, 0]),
      'MT3 (header, offset 20): file is 268 bytes but its header (dataOffset 64 + dataSize 202) implies 266 bytes',
    ],
    [
      'nonzero padding',
      patched((_, b) => (b[60] = 1)),
      'MT3 (header, offset 60): header padding before dataOffset must be zero, found 0x1',
    ],
    [
      'an empty pack',
      patched((dv) => dv.setUint32(20, 0, true), GOOD.slice(0, 64)),
      'MT3 (header, offset 44): quatOffset[0] 16 is past the end of the 0-word pack',
    ],
    [
      'rotation streams out of order',
      u32At(48, 10),
      'MT3 (header, offset 48): quatOffset[1] 10 comes before quatOffset[0] at word 16; streams lie in the order root translation, rotation 0..J-1, root, move, turn, fix',
    ],
    [
      'rootOffset before a rotation stream',
      u32At(28, 30),
      'MT3 (header, offset 28): rootOffset 30 comes before quatOffset[1] at word 36',
    ],
    [
      'moveOffset before rootOffset',
      u32At(32, 50),
      'MT3 (header, offset 32): moveOffset 50 comes before rootOffset at word 56',
    ],
    [
      'turnOffset before moveOffset',
      u32At(36, 80),
      'MT3 (header, offset 36): turnOffset 80 comes before moveOffset at word 88',
    ],
    [
      'ROOT clear but present',
      u32At(4, ALL_STREAMS & ~Mt3Flag.ROOT),
      'MT3 (header, offset 28): the ROOT (joint offsets) flag is clear but its stream has 32 words (an absent stream has length 0)',
    ],
    [
      'MOVE clear but present',
      u32At(4, ALL_STREAMS & ~Mt3Flag.MOVE),
      'MT3 (header, offset 32): the MOVE (trace) flag is clear but its stream has 8 words',
    ],
    [
      'TURN clear but present',
      u32At(4, ALL_STREAMS & ~Mt3Flag.TURN),
      'MT3 (header, offset 36): the TURN flag is clear but its stream has 1 words',
    ],
  ])('%s', (_what, bytes, message) => {
    expect(() => readMt3(bytes)).toThrow(message);
  });

  it('a stream flag set over an empty stream is refused', () => {
    const noFix = writeMt3({ ...motion(), fix: null });
    const b = patched((dv) => dv.setUint32(4, ALL_STREAMS, true), noFix);
    expect(() => readMt3(b)).toThrow('MT3 (header, offset 40): the FIX flag is set but its stream is empty');
  });

  it('accepts the extreme header values: name 0xffffff and 65535 frames', () => {
    expect(readMt3(u32At(0, 0xffffff)).name).toBe(0xffffff);
    expect(readMt3Header(u32At(12, 65535)).numFrames).toBe(65535);
  });
});

describe('readMt3 names the stream, the key and the offset', () => {
  it.each([
    [
      'a root origin too short',
      u32At(44, 2),
      'MT3 (root translation stream, offset 64): root translation stream runs past its end: it has 32 bits, less than its 48-bit origin',
    ],
    [
      'a root with only its origin',
      u32At(44, 3),
      'MT3 (root translation stream, offset 70): root translation stream runs past its end before reaching frame N = 2 (last key at frame 0, 0 keys)',
    ],
    [
      'a first key with a delta',
      wordAt(3, 1),
      'MT3 (root translation stream key 0, offset 70): the first record must have delta 0, found 1',
    ],
    [
      'a NaN origin',
      wordAt(1, 0x7c00),
      'MT3 (root translation stream, offset 66): origin y is NaN or infinite (h16 bits 0x7c00)',
    ],
    [
      'a NaN position',
      wordAt(12, 0x7e00),
      'MT3 (root translation stream, offset 88): key 1 position z is NaN or infinite',
    ],
    [
      'a NaN velocity',
      wordAt(13, 0x7c << 8),
      'MT3 (root translation stream, offset 90): key 1 velocity x is NaN or infinite',
    ],
    [
      'a rotation key that does not advance',
      patched((_, b) => (b[DATA + 2 * 42 + 1] = 0)),
      'MT3 (rotation stream of joint 1 key 1, offset 148): frame delta 0 after the first record (frame 0); keys must advance',
    ],
    [
      'an offset key past N',
      patched((_, b) => (b[DATA + 2 * 81 + 1] = 9)),
      'MT3 (offset stream of joint 1 key 1, offset 226): key frame 9 is past N = 2; the last key must sit exactly on N',
    ],
    [
      'an unused word after the last offset stream',
      u32At(32, 89),
      'MT3 (offset 240): offset stream of joint 1 ends at pack word 88 but the next stream starts at word 89 (1 unused words; streams lie back to back)',
    ],
    [
      'a move key that does not advance',
      wordAt(92, 0),
      'MT3 (move (trace) stream key 1, offset 248): frame delta 0 after the first record (frame 0); keys must advance',
    ],
    [
      'a turn joint past the last joint',
      wordAt(96, 2),
      'MT3 (turn stream, offset 256): turn (waist) joint 2 outside 0..1',
    ],
    [
      'a fix count that disagrees with the stream',
      wordAt(97, 2),
      'MT3 (fix stream, offset 258): fix count 2 needs 6 words of entries but the stream has 3',
    ],
    [
      'a lock on a joint that does not exist',
      wordAt(100, 2),
      'MT3 (fix entry 0, offset 260): locked joint 2 outside 0..1',
    ],
  ])('%s', (_what, bytes, message) => {
    expect(() => readMt3(bytes)).toThrow(message);
  });

  // docs/formats.md 2.2 decodes every 12-bit value (s / 2047, then normalised); only the encoder clamps to +-2047.
  it('an s12 of -2048 (0x800, which ActGuy never writes) reads as written and re-writes byte for byte', () => {
    // rotation 0, key 0: delta bits 0..7, rotation x bits 8..19 (word 16 bits 8..15, word 17 bits 0..3)
    const b = patched((dv) => {
      dv.setUint16(DATA + 2 * 16, 0, true);
      dv.setUint16(DATA + 2 * 17, (dv.getUint16(DATA + 2 * 17, true) & 0xfff0) | 0x8, true);
    });
    const m = readMt3(b);
    expect(m.rotations[0].rotation[0]).toBe(-2048);
    expect(Array.from(writeMt3(m))).toEqual(Array.from(b));
    // Decoded at its key as the spec says: the stored vector over 2047, normalised.
    const stored = Array.from(m.rotations[0].rotation.subarray(0, 4), (v) => v / 2047);
    const len = Math.hypot(...stored);
    const q = sampleRotation(m, 0, 0, [0, 0, 0, 0]);
    stored.forEach((v, i) => expect(q[i]).toBeCloseTo(v / len, 12));
    // inner control w of key 0: bits 92..103 (word 21 bits 12..15, word 22 bits 0..7)
    const c = patched((dv) => {
      dv.setUint16(DATA + 2 * 21, dv.getUint16(DATA + 2 * 21, true) & 0x0fff, true);
      dv.setUint16(DATA + 2 * 22, (dv.getUint16(DATA + 2 * 22, true) & 0xff00) | 0x80, true);
    });
    expect(readMt3(c).rotations[0].inner[3]).toBe(-2048);
    expect(Array.from(writeMt3(readMt3(c)))).toEqual(Array.from(c));
  });
});

describe('validateMt3 (the writer checks it first) names the part and the key', () => {
  type Edit = (m: Mt3Motion) => void;
  it.each<[string, Edit, string]>([
    ['a negative name', (m) => (m.name = -1), 'MT3 (header): name must be a 24-bit GV_StrCode (0..0xffffff), found -1'],
    [
      'a 25-bit name',
      (m) => (m.name = 0x1000000),
      'MT3 (header): name must be a 24-bit GV_StrCode (0..0xffffff), found 16777216',
    ],
    [
      'a fractional name',
      (m) => (m.name = 1.5),
      'MT3 (header): name must be a 24-bit GV_StrCode (0..0xffffff), found 1.5',
    ],
    ['negative flags', (m) => (m.flags = -1), 'MT3 (header): flags must be a u32, found -1'],
    ['flags past u32', (m) => (m.flags = 2 ** 32), 'MT3 (header): flags must be a u32, found 4294967296'],
    ['fractional flags', (m) => (m.flags = 0.5), 'MT3 (header): flags must be a u32, found 0.5'],
    ['a baseTick past u32', (m) => (m.baseTick = 2 ** 32), 'MT3 (header): baseTick must be a u32, found 4294967296'],
    ['no frames', (m) => (m.numFrames = 0), 'MT3 (header): numFrames 0 outside 1..65535'],
    ['too many frames', (m) => (m.numFrames = 65536), 'MT3 (header): numFrames 65536 outside 1..65535'],
    ['fractional frames', (m) => (m.numFrames = 2.5), 'MT3 (header): numFrames 2.5 outside 1..65535'],
    ['no rotation tracks', (m) => (m.rotations = []), 'MT3 (header): numJoints (rotation tracks) 0 outside 1..1024'],
    [
      'too many rotation tracks',
      (m) => (m.rotations = Array.from({ length: 1025 }, rotation)),
      'MT3 (header): numJoints (rotation tracks) 1025 outside 1..1024',
    ],
    [
      'a root with one key',
      (m) => (m.root = { ...m.root, frames: Uint16Array.from([0]) }),
      'MT3 (root translation): a stream needs at least 2 keys (frames 0 and 2), found 1',
    ],
    [
      'a root origin of 2 components',
      (m) => (m.root.origin = new Uint16Array(2)),
      'MT3 (root translation): origin must have 3 components, found 2',
    ],
    [
      'a root with too few positions',
      (m) => (m.root.position = new Uint16Array(5)),
      'MT3 (root translation): expected 6 position values for 2 keys, found 5',
    ],
    [
      'a root with too many velocities',
      (m) => (m.root.velocity = new Uint16Array(7)),
      'MT3 (root translation): expected 6 velocity values for 2 keys, found 7',
    ],
    [
      'a NaN origin',
      (m) => (m.root.origin[2] = 0x7c00),
      'MT3 (root translation origin key 0): origin component z is NaN or infinite (h16 bits 0x7c00)',
    ],
    [
      'a NaN position',
      (m) => (m.root.position[4] = 0xfe00),
      'MT3 (root translation key 1): position component y is NaN or infinite (h16 bits 0xfe00)',
    ],
    [
      'a NaN velocity',
      (m) => (m.root.velocity[5] = 0x7c01),
      'MT3 (root translation key 1): velocity component z is NaN or infinite (h16 bits 0x7c01)',
    ],
    [
      'a rotation key after N',
      (m) => (m.rotations[1].frames = Uint16Array.from([0, 1, 3])),
      'MT3 (rotation joint 1 key 2): the last key must be at frame N = 2, found 3',
    ],
    [
      'a rotation key that does not advance',
      (m) => (m.rotations[1].frames = Uint16Array.from([0, 1, 1])),
      'MT3 (rotation joint 1 key 2): frame delta must be 1..255, found 0 (frame 1 -> 1)',
    ],
    [
      'a rotation key not at 0',
      (m) => (m.rotations[0].frames = Uint16Array.from([1, 2, 2])),
      'MT3 (rotation joint 0 key 0): the first key must be at frame 0 (delta 0), found frame 1',
    ],
    [
      'too few rotation values',
      (m) => (m.rotations[0].rotation = new Int16Array(11)),
      'MT3 (rotation joint 0): expected 12 rotation values for 3 keys, found 11',
    ],
    [
      'too many inner values',
      (m) => (m.rotations[0].inner = new Int16Array(13)),
      'MT3 (rotation joint 0): expected 12 inner control values for 3 keys, found 13',
    ],
    [
      'an s12 of 2048',
      (m) => (m.rotations[0].rotation[3] = 2048),
      'MT3 (rotation joint 0 key 0): rotation component w = 2048 outside the s12 range -2048..2047',
    ],
    [
      'one offset track for two joints',
      (m) => (m.offsets = [position()]),
      'MT3 (root (joint offsets)): expected one offset track per joint (2), found 1',
    ],
    [
      'a bad offset track',
      (m) => (m.offsets![1].velocity = new Uint16Array(1)),
      'MT3 (offset joint 1): expected 6 velocity values for 2 keys, found 1',
    ],
    [
      'a trace key past N',
      (m) => (m.move!.frames = Uint16Array.from([0, 3])),
      'MT3 (move (trace) key 1): the last key must be at frame N = 2, found 3',
    ],
    [
      'a trace with too few positions',
      (m) => (m.move!.position = new Uint16Array(3)),
      'MT3 (move (trace)): expected 6 position values for 2 keys, found 3',
    ],
    [
      'a NaN trace position',
      (m) => (m.move!.position[3] = 0x7c00),
      'MT3 (move (trace) key 1): position component x is NaN or infinite (h16 bits 0x7c00)',
    ],
    ['a turn joint past the last', (m) => (m.turn = 2), 'MT3 (turn): waist joint 2 outside 0..1'],
    ['a negative turn joint', (m) => (m.turn = -1), 'MT3 (turn): waist joint -1 outside 0..1'],
    ['a fractional turn joint', (m) => (m.turn = 0.5), 'MT3 (turn): waist joint 0.5 outside 0..1'],
    [
      'a lock starting before 0',
      (m) => (m.fix = [{ firstFrame: -1, lastFrame: 1, joint: 0 }]),
      'MT3 (fix entry 0): lock range -1..1 must satisfy 0 <= first <= last <= N = 2',
    ],
    [
      'a lock ending before it starts',
      (m) => (m.fix = [{ firstFrame: 2, lastFrame: 1, joint: 0 }]),
      'MT3 (fix entry 0): lock range 2..1 must satisfy 0 <= first <= last <= N = 2',
    ],
    [
      'a fractional lock frame',
      (m) => (m.fix = [{ firstFrame: 0, lastFrame: 0.5, joint: 0 }]),
      'MT3 (fix entry 0): lock range 0..0.5 must satisfy',
    ],
    [
      'a lock on a joint past the last',
      (m) =>
        (m.fix = [
          { firstFrame: 0, lastFrame: 1, joint: 0 },
          { firstFrame: 2, lastFrame: 2, joint: 2 },
        ]),
      'MT3 (fix entry 1): locked joint 2 outside 0..1',
    ],
    [
      'a lock on a negative joint',
      (m) => (m.fix = [{ firstFrame: 0, lastFrame: 1, joint: -1 }]),
      'MT3 (fix entry 0): locked joint -1 outside 0..1',
    ],
    [
      'a lock on a fractional joint',
      (m) => (m.fix = [{ firstFrame: 0, lastFrame: 1, joint: 0.5 }]),
      'MT3 (fix entry 0): locked joint 0.5 outside 0..1',
    ],
  ])('%s', (_what, edit, message) => {
    const m = motion();
    edit(m);
    expect(() => validateMt3(m)).toThrow(message);
    expect(() => writeMt3(m)).toThrow(message);
  });

  it('accepts the extreme values: name 0 and 0xffffff, u32 flags and baseTick, 65535 frames, 1024 joints, s12 -2047..2047, turn and locks on the last joint', () => {
    const edits: ((m: Mt3Motion) => void)[] = [
      (m) => (m.name = 0),
      (m) => (m.name = 0xffffff),
      (m) => {
        m.flags = 0xffffffff;
        m.baseTick = 0xffffffff;
      },
      (m) => {
        m.flags = 0;
        m.baseTick = 0;
      },
      (m) => {
        m.rotations[0].rotation.set([-2047, 2047, -2047, 2047]);
        m.rotations[1].inner.set([2047, -2047, 0, 0], 8);
      },
      (m) => {
        m.turn = 0;
        m.fix = [
          { firstFrame: 0, lastFrame: 0, joint: 0 },
          { firstFrame: 2, lastFrame: 2, joint: 1 },
        ];
      },
    ];
    for (const edit of edits) {
      const m = motion();
      edit(m);
      expect(() => validateMt3(m)).not.toThrow();
    }
    const long: Mt3Motion = { ...motion(), numFrames: 65535, offsets: null, move: null, fix: null };
    const frames = Uint16Array.from({ length: 258 }, (_, k) => Math.min(255 * k, 65535));
    long.root = {
      origin: new Uint16Array(3),
      frames,
      position: new Uint16Array(3 * 258),
      velocity: new Uint16Array(3 * 258),
    };
    long.rotations = [{ frames, rotation: new Int16Array(4 * 258), inner: new Int16Array(4 * 258) }];
    long.turn = 0;
    expect(() => validateMt3(long)).not.toThrow();
    const wide: Mt3Motion = {
      ...motion(),
      offsets: null,
      turn: 1023,
      fix: null,
      rotations: Array.from({ length: 1024 }, rotation),
    };
    expect(() => validateMt3(wide)).not.toThrow();
  });
});

describe('the bit stream names the stream and the byte offset', () => {
  it('a writer refuses a field width outside 1..16', () => {
    const w = new BitWriter(0);
    for (const n of [0, 17]) expect(() => w.write(0, n)).toThrow(`bit field width ${n} outside 1..16`);
    w.write(1, 1);
    w.write(0xffff, 16);
    w.align();
    expect(Array.from(w.toWords())).toEqual([0xffff, 0x1]);
  });

  it('a writer grows past its first word when a stream ends on a boundary', () => {
    const w = new BitWriter(1);
    w.write(0xabcd, 16);
    w.align();
    w.write(0x5, 4);
    w.align();
    expect(Array.from(w.toWords())).toEqual([0xabcd, 0x5]);
  });

  it('reading past the end, set padding bits and unused words each name the stream and the offset', () => {
    // a pack at byte 6 of the view: words 0x0001, 0x00f1, 0x0000
    const bytes = new Uint8Array(12);
    const dv = new DataView(bytes.buffer);
    dv.setUint16(6, 0x0001, true);
    dv.setUint16(8, 0x00f1, true);
    const past = new BitReader(dv, 6, 1, 2, 'turn stream');
    expect(past.read(12)).toBe(0x0f1);
    expect(() => past.read(5)).toThrow(
      new FormatError(
        'MT3',
        'turn stream runs past its end: needs 5 more bits at bit 12 of the stream but the stream ends at word 2 of the pack',
        { offset: 8 },
      ).message,
    );
    const pad = new BitReader(dv, 6, 1, 2, 'fix stream');
    pad.read(4);
    expect(() => pad.finish()).toThrow(
      'MT3 (offset 8): fix stream: the unused bits of its last word must be zero, found 0x00f1',
    );
    const unused = new BitReader(dv, 6, 0, 3, 'move (trace) stream');
    unused.read(1);
    expect(() => unused.finish()).toThrow(
      'MT3 (offset 8): move (trace) stream ends at pack word 1 but the next stream starts at word 3 (2 unused words; streams lie back to back)',
    );
    const exact = new BitReader(dv, 6, 0, 1, 'root translation stream');
    exact.read(16);
    expect(() => exact.finish()).not.toThrow();
  });
});

describe('MT3 -> MTN decompression notes and flags', () => {
  it('maps only the flags the MT3 has, and notes dropped bits and zero offsets', () => {
    const m: Mt3Motion = { ...motion(), offsets: null, move: null, fix: null, flags: 0x80000400 | Mt3Flag.TURN };
    const { motion: out, notes } = decompressMt3(m);
    expect(out.flags).toBe(MotionFlag.DIRECTION);
    expect(out.waistJoint).toBe(1);
    expect(Array.from(out.offset).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.translationKeyInfo).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.jointKeyInfo).every((v) => v === 0)).toBe(true);
    expect(notes.slice(1)).toEqual([
      'the MT3 has no joint offset streams and no skeleton was given: joint offsets are zero',
      'MT3 flag bits 0x80000400 have no MTN equivalent and were dropped',
    ]);
    const read = decompressMt3(readMt3(GOOD));
    expect(read.motion.flags).toBe(MotionFlag.OFFSETS | MotionFlag.DIRECTION);
    expect(read.notes).toHaveLength(1);
  });

  it('a skeleton of another joint count is refused as the skeleton; a joint past the last is named', () => {
    const skel = emptyMotion(2, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' }]);
    expect(() => decompressMt3(motion(), skel)).toThrow('MTN (skeleton): skeleton has 1 joints but the MT3 has 2');
    const out = new Float64Array(4);
    expect(() => sampleRotation(motion(), 2, 0, out)).toThrow('joint 2 outside 0..1');
    expect(() => sampleOffset(motion(), 2, 0, out)).toThrow('joint 2 outside 0..1');
  });
});

describe('MT3 decoding of every component', () => {
  it('the trace is linear between its keys and clamped outside [0, N]', () => {
    const m = motion();
    m.move!.position.set([0x3c00, 0x4000, 0xbc00], 3); // key at frame 2: 1, 2, -1 (x 128)
    const out = new Float64Array(3);
    expect(Array.from(sampleTrace(m, 1, out))).toEqual([64, 128, -64]);
    expect(Array.from(sampleTrace(m, 2, out))).toEqual([128, 256, -128]);
    expect(Array.from(sampleTrace(m, 5, out))).toEqual([128, 256, -128]);
    expect(Array.from(sampleTrace(m, -1, out))).toEqual([0, 0, 0]);
    expect(() => sampleTrace({ ...m, move: null }, 1, out)).toThrow(
      'this MT3 has no trace (move) stream (MOVE flag clear)',
    );
  });

  it('decompression fills x, y, z (and w) of the root, every rotation and every offset from the samplers', () => {
    const m = randomMt3(41, { numFrames: 12, numJoints: 3 });
    const { motion: out, notes } = decompressMt3(m);
    expect(notes[0]).toBe(
      "no skeleton given: joints are named joint_0..joint_2 with a guessed chain hierarchy (each joint's parent is the one before it), no mirror pairs, all lower body, 30 fps; pass --skeleton to use real names and parents",
    );
    const v = new Float64Array(4);
    for (let f = 0; f <= 12; f++) {
      sampleRootTranslation(m, f, v);
      expect(Array.from(out.translation.subarray(f * 4, f * 4 + 3))).toEqual(Array.from(v.subarray(0, 3), Math.fround));
      for (let j = 0; j < 3; j++) {
        const o = (f * 3 + j) * 4;
        sampleRotation(m, j, f, v);
        expect(Array.from(out.rotation.subarray(o, o + 4))).toEqual(Array.from(v, Math.fround));
        sampleOffset(m, j, f, v);
        expect(Array.from(out.offset.subarray(o, o + 3))).toEqual(Array.from(v.subarray(0, 3), Math.fround));
      }
    }
  });

  it('decoded tracks are cached per motion object; refresh decodes an edited one again', () => {
    const m = motion();
    m.root.position[3] = 0x3c00; // key 1 x = 128
    const first = decodeMt3(m);
    expect(decodeMt3(m)).toBe(first);
    m.root.position[3] = 0x4000;
    expect(decodeMt3(m).root.p[3]).toBe(128);
    const again = decodeMt3(m, true);
    expect(again).not.toBe(first);
    expect(again.root.p[3]).toBe(256);
    expect(decodeMt3(m)).toBe(again);
  });
});

describe('withMt3Name', () => {
  it('gives a copy under another name hash, the streams byte for byte, and leaves the original as it was', () => {
    const before = GOOD.slice();
    const alias = withMt3Name(GOOD, 0xabcdef);
    expect(readMt3(alias)).toEqual({ ...readMt3(GOOD), name: 0xabcdef });
    expect(alias.subarray(4)).toEqual(GOOD.subarray(4));
    expect(GOOD).toEqual(before);
  });
});
