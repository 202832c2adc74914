import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { BitReader, BitWriter } from './bitstream';
import { readMt3, readMt3Header } from './read';
import { seededRandom } from '../testing/random';
import { randomMt3 } from './testFixtures';
import { Mt3Flag, type Mt3Motion } from './types';
import { validateMt3 } from './validate';
import { writeMt3, type Mt3StreamMemo } from './write';

/**
 * A tiny MT3 (N = 2, J = 1, two keys per stream) whose pack words are
 * computed by hand below from the LSB-first rule of docs/formats.md 2.2.
 */
function tinyMt3(): Mt3Motion {
  return {
    name: 0xabcdef,
    flags: Mt3Flag.MIRROR_UPPER,
    baseTick: 0,
    numFrames: 2,
    root: {
      origin: Uint16Array.from([0x1234, 0x0000, 0xabcd]),
      frames: Uint16Array.from([0, 2]),
      position: Uint16Array.from([0x3c00, 0x4000, 0xc000, 0x3c01, 0x0001, 0x8001]),
      velocity: Uint16Array.from([0, 0, 0, 0x0100, 0, 0]),
    },
    rotations: [
      {
        frames: Uint16Array.from([0, 2]),
        rotation: Int16Array.from([0, 0, 0, 2047, 1, -1, 0, 2047]),
        inner: Int16Array.from([0, 0, 0, 2047, -2047, 0, 0, 0]),
      },
    ],
    offsets: null,
    move: { frames: Uint16Array.from([0, 2]), position: Uint16Array.from([1, 2, 3, 4, 5, 6]) },
    turn: 0,
    fix: [{ firstFrame: 0, lastFrame: 2, joint: 0 }],
  };
}

// Root translation stream: every field is a whole number of bytes, so the bit
// stream is the byte sequence
//   origin 34 12 00 00 cd ab
//   key 0  00 | 00 3c 00 40 00 c0 | 00 00 00 00 00 00
//   key 1  02 | 01 3c 01 00 01 80 | 00 01 00 00 00 00
// and each word is two consecutive bytes, little-endian (32 bytes, 16 words).
const ROOT_WORDS = [
  0x1234, 0x0000, 0xabcd, 0x0000, 0x003c, 0x0040, 0x00c0, 0x0000, 0x0000, 0x0200, 0x3c01, 0x0001, 0x8001, 0x0100,
  0x0000, 0x0000,
];
// Rotation stream: 4-bit nibbles, lowest first; d8 = 2 nibbles, s12 = 3 nibbles.
//   key 0: d 0,0 | q 000 000 000 ff7 | a 000 000 000 ff7
//   key 1: d 2,0 | q 100 fff 000 ff7 | a 108 000 000 000   (-2047 = 0x801 -> 1,0,8)
// 52 nibbles, 4 per word (first nibble lowest): 13 words.
const ROT_WORDS = [
  0x0000, 0x0000, 0xf000, 0x007f, 0x0000, 0xf000, 0x027f, 0xf001, 0x00ff, 0x7ff0, 0x0801, 0x0000, 0x0000,
];
// Move: u16 delta then 3 h16 per record; turn: one word; fix: count then (first, last, joint).
const MOVE_WORDS = [0, 1, 2, 3, 2, 4, 5, 6];
const TURN_WORDS = [0];
const FIX_WORDS = [1, 0, 2, 0];

describe('MT3 bit layout (hand-computed fixture)', () => {
  it('writes the header and pack exactly', () => {
    const bytes = writeMt3(tinyMt3());
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const u32 = (o: number) => dv.getUint32(o, true);
    const pack = [...ROOT_WORDS, ...ROT_WORDS, ...MOVE_WORDS, ...TURN_WORDS, ...FIX_WORDS];
    expect(u32(0)).toBe(0xabcdef);
    expect(u32(4)).toBe(0x100 | Mt3Flag.MOVE | Mt3Flag.TURN | Mt3Flag.FIX);
    expect(u32(8)).toBe(0);
    expect(u32(12)).toBe(2);
    expect(u32(16)).toBe(48); // 44 + 4*1 = 48, already a multiple of 16
    expect(u32(20)).toBe(pack.length * 2);
    expect(u32(24)).toBe(1);
    expect(u32(28)).toBe(29); // rootOffset: 16 root words + 13 rotation words
    expect(u32(32)).toBe(29); // moveOffset: ROOT absent -> same as rootOffset
    expect(u32(36)).toBe(37); // turnOffset
    expect(u32(40)).toBe(38); // fixOffset
    expect(u32(44)).toBe(16); // quatOffset[0]
    expect(bytes.byteLength).toBe(48 + pack.length * 2);
    const words = Array.from({ length: pack.length }, (_, i) => dv.getUint16(48 + 2 * i, true));
    expect(words.map((w) => w.toString(16))).toEqual(pack.map((w) => w.toString(16)));
  });

  it('reads the fixture back to the same stored values', () => {
    const m = tinyMt3();
    const back = readMt3(writeMt3(m));
    expect(back).toEqual({ ...m, flags: 0x100 | Mt3Flag.MOVE | Mt3Flag.TURN | Mt3Flag.FIX });
  });

  it('pads a stream whose records end mid-word, and lays out joint offset streams (hand-computed)', () => {
    const base = tinyMt3();
    const id = [0, 0, 0, 2047];
    const m: Mt3Motion = {
      ...base,
      flags: 0,
      rotations: [
        {
          frames: Uint16Array.from([0, 1, 2]),
          rotation: Int16Array.from([...id, ...id, ...id]),
          inner: Int16Array.from([...id, ...id, ...id]),
        },
      ],
      offsets: [base.root],
      move: null,
      turn: null,
      fix: null,
    };
    // Three rotation records of 26 nibbles each (d8 = 0,1,1; q = a = identity 000 000 000 ff7):
    // 78 nibbles = 19.5 words, so the last word carries 2 zero padding nibbles.
    const rot3 = [
      0x0000, 0x0000, 0xf000, 0x007f, 0x0000, 0xf000, 0x017f, 0x0000, 0x0000, 0x7ff0, 0x0000, 0x0000, 0x7ff0, 0x0001,
      0x0000, 0xf000, 0x007f, 0x0000, 0xf000, 0x007f,
    ];
    const bytes = writeMt3(m);
    const dv = new DataView(bytes.buffer);
    const pack = [...ROOT_WORDS, ...rot3, ...ROOT_WORDS];
    expect(dv.getUint32(4, true)).toBe(Mt3Flag.ROOT);
    expect(dv.getUint32(20, true)).toBe(pack.length * 2);
    expect([28, 32, 36, 40, 44].map((o) => dv.getUint32(o, true))).toEqual([36, 52, 52, 52, 16]);
    const words = Array.from({ length: pack.length }, (_, i) => dv.getUint16(48 + 2 * i, true));
    expect(words.map((w) => w.toString(16))).toEqual(pack.map((w) => w.toString(16)));
    expect(readMt3(bytes)).toEqual({ ...m, flags: Mt3Flag.ROOT });
    // A set padding bit is refused.
    dv.setUint16(48 + 2 * 35, 0x107f, true);
    expect(() => readMt3(bytes)).toThrow(/unused bits of its last word must be zero/);
  });

  it('pads a stream to a word boundary with zero bits', () => {
    const w = new BitWriter(1);
    w.write(0b101, 3);
    w.align();
    w.write(0xffff, 16);
    w.write(0x3, 2);
    w.align();
    expect(Array.from(w.toWords())).toEqual([0b101, 0xffff, 0x3]);
  });

  it('reads fields that straddle words lowest bit first', () => {
    const w = new BitWriter(1);
    w.write(0xabc, 12);
    w.write(0xdef, 12);
    w.write(0x5a, 8);
    w.align();
    expect(Array.from(w.toWords())).toEqual([0xfabc, 0x5ade]);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint16(0, 0xfabc, true);
    new DataView(bytes.buffer).setUint16(2, 0x5ade, true);
    const r = new BitReader(new DataView(bytes.buffer), 0, 0, 2, 'test stream');
    expect(r.read(12)).toBe(0xabc);
    expect(r.read(12)).toBe(0xdef);
    expect(r.read(8)).toBe(0x5a);
    expect(() => r.read(1)).toThrow(FormatError);
  });
});

describe('MT3 round trip', () => {
  const variants = [
    { name: 'all streams', o: {} },
    { name: 'no optional streams', o: { offsets: false, move: false, turn: false, fix: false } },
    { name: 'offsets only', o: { move: false, turn: false, fix: false } },
    { name: 'fix only, one joint, N=1', o: { numFrames: 1, numJoints: 1, offsets: false, move: false, turn: false } },
    { name: 'long motion (700 frames, 5 joints)', o: { numFrames: 700, numJoints: 5 } },
  ];
  for (const { name, o } of variants) {
    it(`read(write(m)) equals m field by field and write(read(bytes)) is byte-exact: ${name}`, () => {
      for (let seed = 1; seed <= 5; seed++) {
        const m = randomMt3(seed, o);
        const bytes = writeMt3(m);
        const back = readMt3(bytes);
        expect(back.name).toBe(m.name);
        expect(back.flags).toBe(m.flags);
        expect(back.baseTick).toBe(m.baseTick);
        expect(back.numFrames).toBe(m.numFrames);
        expect(back.root).toEqual(m.root);
        expect(back.rotations).toEqual(m.rotations);
        expect(back.offsets).toEqual(m.offsets);
        expect(back.move).toEqual(m.move);
        expect(back.turn).toBe(m.turn);
        expect(back.fix).toEqual(m.fix);
        expect(writeMt3(back)).toEqual(bytes);
      }
    });
  }

  it('with a stream memo writes the same bytes, copying the streams of tracks it has seen', () => {
    for (const o of [{}, { offsets: false, move: false, turn: false, fix: false }]) {
      const a = randomMt3(21, { numFrames: 120, numJoints: 4, ...o });
      const b = randomMt3(22, { numFrames: 120, numJoints: 4, ...o });
      const memo: Mt3StreamMemo = new WeakMap();
      expect(writeMt3(a, memo)).toEqual(writeMt3(a));
      for (const t of [a.root, ...a.rotations, ...(a.offsets ?? [])]) expect(memo.has(t)).toBe(true);
      // Another motion sharing some of a's tracks (an edit that changed joint 2 and the root): the mix is exact.
      const mixed: Mt3Motion = {
        ...a,
        root: b.root,
        rotations: a.rotations.map((t, j) => (j === 2 ? b.rotations[2] : t)),
      };
      const seen = memo.get(a.rotations[0]);
      expect(writeMt3(mixed, memo)).toEqual(writeMt3(mixed));
      expect(memo.get(a.rotations[0])).toBe(seen);
      expect(readMt3(writeMt3(mixed, memo)).rotations[2]).toEqual(b.rotations[2]);
    }
  });

  it('appends words only at a word boundary', () => {
    const w = new BitWriter(1);
    w.write(1, 3);
    expect(() => w.appendWords(Uint16Array.of(7))).toThrow(/not at a word boundary/);
    w.align();
    w.appendWords(Uint16Array.of(7, 8, 9));
    expect(Array.from(w.toWords())).toEqual([1, 7, 8, 9]);
    expect(Array.from(w.wordsFrom(2))).toEqual([8, 9]);
  });

  it('keeps 255-frame gaps and unknown flag bits and baseTick', () => {
    const m = randomMt3(9, { numFrames: 510, numJoints: 1 });
    m.rotations[0].frames = Uint16Array.from([0, 255, 510]);
    m.rotations[0].rotation = m.rotations[0].rotation.slice(0, 12);
    m.rotations[0].inner = m.rotations[0].inner.slice(0, 12);
    m.flags |= 0x40000000;
    m.baseTick = 1234567;
    const back = readMt3(writeMt3(m));
    expect(back.rotations[0].frames).toEqual(Uint16Array.from([0, 255, 510]));
    expect(back.flags).toBe(m.flags);
    expect(back.baseTick).toBe(1234567);
  });
});

describe('MT3 writer validation', () => {
  const bad: [string, (m: Mt3Motion) => void, RegExp][] = [
    [
      'first frame not 0',
      (m) => {
        m.root.frames[0] = 1;
      },
      /first key must be at frame 0/,
    ],
    [
      'not reaching N',
      (m) => {
        m.rotations[0].frames[m.rotations[0].frames.length - 1] = m.numFrames - 1;
      },
      /frame delta must be|last key must be at frame N/,
    ],
    [
      'gap > 255',
      (m) => {
        m.numFrames = 300;
        m.root.frames = Uint16Array.from([0, 300]);
        m.root.position = m.root.position.slice(0, 6);
        m.root.velocity = m.root.velocity.slice(0, 6);
      },
      /frame delta must be 1..255, found 300/,
    ],
    [
      's12 out of range',
      (m) => {
        m.rotations[1].rotation[2] = 2048;
      },
      /outside the s12 range/,
    ],
    [
      'NaN h16',
      (m) => {
        m.root.position[4] = 0x7e00;
      },
      /NaN or infinite/,
    ],
    [
      'overlapping locks',
      (m) => {
        m.fix = [
          { firstFrame: 0, lastFrame: 5, joint: 0 },
          { firstFrame: 5, lastFrame: 6, joint: 1 },
        ];
      },
      /sorted, not overlapping/,
    ],
    [
      'unmerged locks',
      (m) => {
        m.fix = [
          { firstFrame: 0, lastFrame: 5, joint: 0 },
          { firstFrame: 6, lastFrame: 6, joint: 0 },
        ];
      },
      /form one entry/,
    ],
    [
      'lock past N',
      (m) => {
        m.fix = [{ firstFrame: 0, lastFrame: 31, joint: 0 }];
      },
      /last <= N/,
    ],
    [
      'turn joint out of range',
      (m) => {
        m.turn = 3;
      },
      /waist joint 3 outside/,
    ],
    [
      'wrong offsets count',
      (m) => {
        m.offsets = m.offsets!.slice(0, 2);
      },
      /one offset track per joint/,
    ],
    [
      'name too wide',
      (m) => {
        m.name = 0x1000000;
      },
      /24-bit/,
    ],
  ];
  for (const [label, mutate, re] of bad) {
    it(`refuses ${label}`, () => {
      const m = randomMt3(3);
      mutate(m);
      expect(() => validateMt3(m)).toThrow(re);
      expect(() => writeMt3(m)).toThrow(FormatError);
    });
  }

  it('writes the most lock entries a u16 count holds, and refuses one more (it wrapped to a count of 0)', () => {
    // N = 65535 and the lock changing joint every frame: one entry per frame, 65,536 of them.
    const N = 65535;
    const m = randomMt3(4, { numFrames: 1, numJoints: 2, offsets: false, move: false, turn: false, fix: false });
    // Tracks with as few keys as a d8 stream allows (random ones of 65,535 frames take seconds to write).
    const frames = Uint16Array.from({ length: Math.ceil(N / 255) + 1 }, (_, k) => Math.min(k * 255, N));
    const K = frames.length;
    m.numFrames = N;
    m.root = { origin: new Uint16Array(3), frames, position: new Uint16Array(K * 3), velocity: new Uint16Array(K * 3) };
    const still = () => ({
      frames,
      rotation: new Int16Array(K * 4).fill(2047),
      inner: new Int16Array(K * 4).fill(2047),
    });
    m.rotations = [still(), still()];
    const fix = Array.from({ length: N + 1 }, (_, f) => ({ firstFrame: f, lastFrame: f, joint: f % 2 }));
    m.fix = fix.slice(0, N); // 65,535 entries: frames 0..65534
    const back = readMt3(writeMt3(m)).fix!;
    expect(back.length).toBe(N);
    expect(back[N - 1]).toEqual({ firstFrame: N - 1, lastFrame: N - 1, joint: 0 });
    m.fix = fix;
    expect(() => validateMt3(m)).toThrow(/65536 lock entries; the fix stream's u16 count holds at most 65535/);
    expect(() => writeMt3(m)).toThrow(FormatError);
  });
});

/** Expects a FormatError (kind MT3) and nothing else. */
function expectFormatError(fn: () => unknown, re?: RegExp): FormatError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`expected a FormatError, got ${String(e)}`);
    if (re) expect(e.message).toMatch(re);
    return e;
  }
  throw new Error('expected a FormatError, but reading succeeded');
}

describe('MT3 reader on corrupt input', () => {
  const good = writeMt3(randomMt3(11, { numFrames: 12, numJoints: 2 }));
  const dv = () => {
    const b = good.slice();
    return { b, dv: new DataView(b.buffer) };
  };

  it('rejects every truncation with a FormatError', () => {
    for (let n = 0; n < good.byteLength; n++) expectFormatError(() => readMt3(good.subarray(0, n)));
  });

  it('rejects a file longer than its header implies, naming both sizes', () => {
    const b = new Uint8Array(good.byteLength + 2);
    b.set(good);
    expectFormatError(
      () => readMt3(b),
      new RegExp(`file is ${good.byteLength + 2} bytes .* implies ${good.byteLength} bytes`),
    );
  });

  it('rejects a dataOffset that is not a multiple of 16 or past the end', () => {
    const x = dv();
    x.dv.setUint32(16, 72, true);
    expectFormatError(() => readMt3(x.b), /multiple of 16/);
    x.dv.setUint32(16, 0x7ffffff0, true);
    expectFormatError(() => readMt3(x.b), /past the end/);
  });

  it('rejects a huge numJoints without allocating from it', () => {
    const x = dv();
    x.dv.setUint32(24, 0xffffffff, true);
    expectFormatError(() => readMt3(x.b), /numJoints/);
    x.dv.setUint32(24, 1000, true);
    expectFormatError(() => readMt3(x.b), /header of 1000 joints/);
  });

  it('rejects stream offsets past the pack or out of order', () => {
    const x = dv();
    x.dv.setUint32(40, 0x10000, true);
    const e = expectFormatError(() => readMt3(x.b), /fixOffset 65536 is past the end/);
    expect(e.place.offset).toBe(40);
    const y = dv();
    y.dv.setUint32(48, 1, true); // quatOffset[1] before quatOffset[0]
    expectFormatError(() => readMt3(y.b), /comes before/);
  });

  it('rejects a stream that never reaches N', () => {
    const m = randomMt3(12, { numFrames: 12, numJoints: 2, offsets: false, move: false, turn: false, fix: false });
    const b = writeMt3(m);
    const h = readMt3Header(b);
    const view = new DataView(b.buffer);
    // numFrames N -> N + 100: every stream now ends before N and runs into the next one.
    view.setUint32(12, 112, true);
    expectFormatError(() => readMt3(b), /runs past its end/);
    view.setUint32(12, 12, true);
    // The first record's delta must be 0: set bits 48..55 (root key 0 delta) to 1.
    view.setUint8(h.dataOffset + 6, 1);
    expectFormatError(() => readMt3(b), /first record must have delta 0/);
  });

  it('rejects a zero delta after the first record (a stream that never advances)', () => {
    const m = randomMt3(13, { numFrames: 4, numJoints: 1, offsets: false, move: true, turn: false, fix: false });
    m.move = { frames: Uint16Array.from([0, 4]), position: new Uint16Array(6) };
    const b = writeMt3(m);
    const h = readMt3Header(b);
    new DataView(b.buffer).setUint16(h.dataOffset + h.moveOffset * 2 + 8, 0, true); // key 1 delta
    expectFormatError(() => readMt3(b), /delta 0 after the first record/);
  });

  it('rejects a key past N', () => {
    const m = randomMt3(14, { numFrames: 4, numJoints: 1, offsets: false, move: true, turn: false, fix: false });
    m.move = { frames: Uint16Array.from([0, 4]), position: new Uint16Array(6) };
    const b = writeMt3(m);
    const h = readMt3Header(b);
    new DataView(b.buffer).setUint16(h.dataOffset + h.moveOffset * 2 + 8, 9, true);
    expectFormatError(() => readMt3(b), /key frame 9 is past N = 4/);
  });

  it('rejects a fix count larger than the bytes available', () => {
    const m = randomMt3(15, { numFrames: 20, numJoints: 2 });
    const b = writeMt3(m);
    const h = readMt3Header(b);
    new DataView(b.buffer).setUint16(h.dataOffset + h.fixOffset * 2, 0xffff, true);
    expectFormatError(() => readMt3(b), /fix count 65535 needs/);
  });

  it('rejects a stream flag without its stream and a stream without its flag', () => {
    const x = dv();
    x.dv.setUint32(4, x.dv.getUint32(4, true) & ~Mt3Flag.FIX, true);
    expectFormatError(() => readMt3(x.b), /FIX flag is clear but its stream has/);
  });

  it('rejects NaN/inf h16 and nonzero header padding, with the offset, and reads an s12 of -2048', () => {
    const tiny = writeMt3(tinyMt3());
    const t = new DataView(tiny.buffer);
    // Move stream at pack word 29: record 0 is [delta, x, y, z]; x = 0x7e00 is a NaN.
    const a = tiny.slice();
    new DataView(a.buffer).setUint16(48 + 2 * 30, 0x7e00, true);
    expect(expectFormatError(() => readMt3(a), /position x is NaN or infinite/).place.offset).toBe(48 + 60);
    // Rotation stream at pack word 16: key 0 q.x is nibbles 2..4; 0x800 puts an 8 in word 17's low nibble.
    const b = tiny.slice();
    new DataView(b.buffer).setUint16(48 + 2 * 17, 0x0008, true);
    expect(readMt3(b).rotations[0].rotation[0]).toBe(-2048);
    expect(Array.from(writeMt3(readMt3(b)))).toEqual(Array.from(b));
    expect(t.getUint32(16, true)).toBe(48);
    // J = 2: header 52 bytes, padded to 64.
    const c = writeMt3(randomMt3(17, { numJoints: 2 }));
    c[60] = 1;
    expect(expectFormatError(() => readMt3(c), /header padding/).place.offset).toBe(60);
  });

  it('survives random byte flips: a FormatError or a valid, re-writable result', () => {
    const rnd = seededRandom(42);
    const base = writeMt3(randomMt3(16, { numFrames: 40, numJoints: 3 }));
    let rejected = 0;
    for (let trial = 0; trial < 1000; trial++) {
      const b = base.slice();
      const flips = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < flips; i++) b[Math.floor(rnd() * b.length)] ^= 1 << Math.floor(rnd() * 8);
      let m: Mt3Motion;
      try {
        m = readMt3(b);
      } catch (e) {
        if (!(e instanceof FormatError)) throw new Error(`trial ${trial}: ${String(e)}`);
        rejected++;
        continue;
      }
      // Accepted: it must be a valid MT3 that writes back to the same bytes.
      validateMt3(m);
      expect(writeMt3(m)).toEqual(b);
    }
    expect(rejected).toBeGreaterThan(100);
  });
});
