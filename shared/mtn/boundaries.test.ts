import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { KeyFlag, cloneMotion, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { MTN_HEADER_SIZE, MTN_MAX_FRAMES, mtnByteSize } from './constants';
import { readMtn } from './read';
import { validateMotion } from './validate';
import { writeMtn } from './write';
import { BINARY_MAX_BYTES } from '../binarySize';

const joint = (parent: number, mirror: number, name: string): JointInfo => ({
  parent,
  mirror,
  part: 0,
  reserved: 0,
  name,
});
const three = (): Motion => emptyMotion(2, [joint(-1, 0, 'root'), joint(0, 2, 'l'), joint(1, 1, 'r')]);

/** The FormatError readMtn or validateMotion throws, or undefined. */
const errorOf = (fn: () => unknown): FormatError | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  return undefined;
};

describe('MTN reader errors name the section and byte offset', () => {
  const bytes = () => writeMtn(three()).slice();
  it.each([
    [
      'header',
      (b: Uint8Array) => b.subarray(0, 31),
      'MTN (header, offset 0): file is 31 bytes, shorter than the 32-byte header',
    ],
    [
      'magic',
      (b: Uint8Array) => {
        b[1] = 0xab;
        return b;
      },
      'MTN (header, offset 0): bad magic: expected "MTN\\0", found 4d ab 4e 00',
    ],
    [
      'version',
      (b: Uint8Array) => {
        b[4] = 0;
        return b;
      },
      'MTN (header, offset 4): unsupported version 0 (expected 1)',
    ],
    [
      'frames',
      (b: Uint8Array) => {
        new DataView(b.buffer).setUint32(8, MTN_MAX_FRAMES + 1, true);
        return b;
      },
      'MTN (header, offset 8): frameCount 65536 outside 1..65535',
    ],
    [
      'joints 0',
      (b: Uint8Array) => {
        new DataView(b.buffer).setUint32(12, 0, true);
        return b;
      },
      'MTN (header, offset 12): jointCount 0 outside 1..1024',
    ],
    [
      'joints 1025',
      (b: Uint8Array) => {
        new DataView(b.buffer).setUint32(12, 1025, true);
        return b;
      },
      'MTN (header, offset 12): jointCount 1025 outside 1..1024',
    ],
    [
      'size',
      (b: Uint8Array) => b.subarray(0, b.length - 4),
      `MTN (header): file is ${mtnByteSize(2, 3) - 4} bytes but its header (2 frames, 3 joints) implies ${mtnByteSize(2, 3)} bytes`,
    ],
    [
      'name 1 unterminated',
      (b: Uint8Array) => {
        b.fill(0x41, MTN_HEADER_SIZE + 48 + 32, MTN_HEADER_SIZE + 48 + 64);
        return b;
      },
      `MTN (names joint 1, offset ${MTN_HEADER_SIZE + 48 + 32}): joint 1 name is not NUL-terminated within 32 bytes`,
    ],
    [
      'name 2 padding',
      (b: Uint8Array) => {
        b[MTN_HEADER_SIZE + 48 + 64 + 31] = 1;
        return b;
      },
      `MTN (names joint 2, offset ${MTN_HEADER_SIZE + 48 + 64 + 31}): joint 2 name has bytes after its NUL terminator (names are NUL-padded)`,
    ],
    [
      'name control',
      (b: Uint8Array) => {
        b[MTN_HEADER_SIZE + 48 + 2] = 0x1f;
        return b;
      },
      `MTN (names joint 0, offset ${MTN_HEADER_SIZE + 48 + 2}): joint 0 name has a non-ASCII byte 0x1f`,
    ],
    [
      'name DEL',
      (b: Uint8Array) => {
        b[MTN_HEADER_SIZE + 48] = 0x7f;
        return b;
      },
      `MTN (names joint 0, offset ${MTN_HEADER_SIZE + 48}): joint 0 name has a non-ASCII byte 0x7f`,
    ],
  ])('%s', (_, edit, message) => {
    const e = errorOf(() => readMtn(edit(bytes())));
    expect(e?.kind).toBe('MTN');
    expect(e?.message).toBe(message);
  });

  it('checks the size before the counts it cannot hold: a bare header and counts at their limits', () => {
    const b = bytes();
    expect(errorOf(() => readMtn(b.subarray(0, 32)))?.message).toBe(
      `MTN (header): file is 32 bytes but its header (2 frames, 3 joints) implies ${mtnByteSize(2, 3)} bytes`,
    );
    const maxFrames = bytes();
    new DataView(maxFrames.buffer).setUint32(8, MTN_MAX_FRAMES, true);
    expect(errorOf(() => readMtn(maxFrames))?.message).toBe(
      `MTN (header): file is ${maxFrames.length} bytes but its header (65535 frames, 3 joints) implies ${mtnByteSize(65535, 3)} bytes`,
    );
    const maxJoints = bytes();
    new DataView(maxJoints.buffer).setUint32(12, 1024, true);
    expect(errorOf(() => readMtn(maxJoints))?.message).toBe(
      `MTN (header): file is ${maxJoints.length} bytes but its header (2 frames, 1024 joints) implies ${mtnByteSize(2, 1024)} bytes`,
    );
    const one = readMtn(writeMtn(emptyMotion(1, [joint(-1, 0, 'only')])));
    expect([one.frameCount, one.joints.length]).toEqual([1, 1]);
  });

  it('accepts the extremes of the printable range, a 31-character name and an empty one', () => {
    const m = three();
    m.joints[0].name = ' ~';
    m.joints[1].name = 'x'.repeat(31);
    m.joints[2].name = '';
    const back = readMtn(writeMtn(m));
    expect(back.joints.map((j) => j.name)).toEqual([' ~', 'x'.repeat(31), '']);
    expect(back.joints.map((j) => [j.parent, j.mirror])).toEqual([
      [-1, 0],
      [0, 2],
      [1, 1],
    ]);
  });

  it('reads every field of every joint and section from its own place', () => {
    const m = three();
    m.joints[1].part = 1;
    m.joints[2].reserved = 0xdeadbeef;
    m.headerReserved = 0x01020304;
    m.flags = 0x80000001;
    for (let i = 0; i < m.translation.length; i++) m.translation[i] = i + 0.5;
    for (let i = 0; i < m.offset.length; i++) m.offset[i] = -i;
    for (let i = 0; i < m.translationKeyInfo.length; i++) m.translationKeyInfo[i] = i % 4 === 0 ? KeyFlag.KEY : i;
    for (let i = 0; i < m.jointKeyInfo.length; i++) m.jointKeyInfo[i] = i % 4 === 0 ? KeyFlag.KEY : 1000 + i;
    m.rotation.set([0, 0, 0.6, 0.8], 4 * 4);
    const back = readMtn(writeMtn(m));
    expect(back).toEqual(m);
    expect(back.flags).toBe(0x80000001);
    expect(back.headerReserved).toBe(0x01020304);
  });
});

describe('validateMotion', () => {
  const check = (edit: (m: Motion) => void) => {
    const m = three();
    edit(m);
    return errorOf(() => validateMotion(m))?.message;
  };

  it.each([
    [
      'frames 0',
      (m: Motion) => {
        m.frameCount = 0;
      },
      'MTN (header): frameCount 0 outside 1..65535',
    ],
    [
      'frames fractional',
      (m: Motion) => {
        m.frameCount = 1.5;
      },
      'MTN (header): frameCount 1.5 outside 1..65535',
    ],
    [
      'frames too many',
      (m: Motion) => {
        m.frameCount = 65536;
      },
      'MTN (header): frameCount 65536 outside 1..65535',
    ],
    [
      'no joints',
      (m: Motion) => {
        m.joints = [];
      },
      'MTN (header): jointCount 0 outside 1..1024',
    ],
    [
      'fps NaN',
      (m: Motion) => {
        m.fps = NaN;
      },
      'MTN (header): frames per second must be a finite number > 0, found NaN',
    ],
    [
      'fps infinite',
      (m: Motion) => {
        m.fps = Infinity;
      },
      'MTN (header): frames per second must be a finite number > 0, found Infinity',
    ],
    [
      'fps negative',
      (m: Motion) => {
        m.fps = -30;
      },
      'MTN (header): frames per second must be a finite number > 0, found -30',
    ],
    [
      'waist past the joints',
      (m: Motion) => {
        m.waistJoint = 3;
      },
      'MTN (header): waist joint 3 outside -1..2',
    ],
    [
      'waist -2',
      (m: Motion) => {
        m.waistJoint = -2;
      },
      'MTN (header): waist joint -2 outside -1..2',
    ],
    [
      'waist fractional',
      (m: Motion) => {
        m.waistJoint = 0.5;
      },
      'MTN (header): waist joint 0.5 outside -1..2',
    ],
    [
      'translation size',
      (m: Motion) => {
        m.translation = new Float32Array(8);
      },
      'MTN (translation): expected 12 values for 3 frames x 3 joints, found 8',
    ],
    [
      'rotation size',
      (m: Motion) => {
        m.rotation = new Float32Array(4);
      },
      'MTN (rotation): expected 36 values for 3 frames x 3 joints, found 4',
    ],
    [
      'offset size',
      (m: Motion) => {
        m.offset = new Float32Array(40);
      },
      'MTN (offset): expected 36 values for 3 frames x 3 joints, found 40',
    ],
    [
      'translation key info size',
      (m: Motion) => {
        m.translationKeyInfo = new Uint32Array(0);
      },
      'MTN (translation key info): expected 12 values for 3 frames x 3 joints, found 0',
    ],
    [
      'joint key info size',
      (m: Motion) => {
        m.jointKeyInfo = new Uint32Array(12);
      },
      'MTN (joint key info): expected 36 values for 3 frames x 3 joints, found 12',
    ],
    [
      'parent of joint 0',
      (m: Motion) => {
        m.joints[0].parent = 0;
      },
      'MTN (skeleton joint 0): joint 0 must have parent -1, found 0',
    ],
    [
      'parent is itself',
      (m: Motion) => {
        m.joints[2].parent = 2;
      },
      'MTN (skeleton joint 2): parent 2 must be a joint before it (0..1)',
    ],
    [
      'parent -1 below the root',
      (m: Motion) => {
        m.joints[1].parent = -1;
      },
      'MTN (skeleton joint 1): parent -1 must be a joint before it (0..0)',
    ],
    [
      'mirror past the joints',
      (m: Motion) => {
        m.joints[1].mirror = 3;
      },
      'MTN (skeleton joint 1): mirror joint 3 outside 0..2',
    ],
    [
      'mirror negative',
      (m: Motion) => {
        m.joints[2].mirror = -1;
      },
      'MTN (skeleton joint 2): mirror joint -1 outside 0..2',
    ],
    [
      'name too long',
      (m: Motion) => {
        m.joints[1].name = 'x'.repeat(32);
      },
      `MTN (names joint 1): name must be printable ASCII of at most 31 characters: "${'x'.repeat(32)}"`,
    ],
    [
      'name non-ASCII',
      (m: Motion) => {
        m.joints[2].name = 'é';
      },
      'MTN (names joint 2): name must be printable ASCII of at most 31 characters: "é"',
    ],
    [
      'offset infinite',
      (m: Motion) => {
        m.offset[(2 * 3 + 1) * 4 + 2] = -Infinity;
      },
      'MTN (offset frame 2 joint 1): value -Infinity is not finite (component z)',
    ],
    [
      'translation NaN',
      (m: Motion) => {
        m.translation[1 * 4 + 3] = NaN;
      },
      'MTN (translation frame 1): value NaN is not finite (component w)',
    ],
    [
      'rotation zero',
      (m: Motion) => {
        m.rotation.fill(0, (1 * 3 + 2) * 4, (1 * 3 + 3) * 4);
      },
      'MTN (rotation frame 1 joint 2): quaternion has zero length',
    ],
    [
      // A denormal quaternion is not of zero length: the message said so (2026-12-04).
      'rotation of denormal length',
      (m: Motion) => {
        m.rotation.set([1e-45, 0, 0, 1e-45], (1 * 3 + 2) * 4);
      },
      'MTN (rotation frame 1 joint 2): quaternion length 1.98e-45 is too close to zero (under 1e-6) to give a rotation',
    ],
    [
      'two locks',
      (m: Motion) => {
        m.jointKeyInfo[(2 * 3 + 0) * 4] = KeyFlag.LOCK;
        m.jointKeyInfo[(2 * 3 + 2) * 4] = KeyFlag.LOCK | KeyFlag.KEY;
      },
      'MTN (joint key info frame 2 joint 2): two joints locked on one frame (joints 0 and 2); at most one joint per frame',
    ],
  ])('refuses %s', (_, edit, message) => {
    expect(check(edit)).toBe(message);
  });

  it('accepts the limits: a waist on the last joint, a tiny rotation, one lock per frame, a lock on joint 0', () => {
    expect(
      check((m) => {
        m.waistJoint = 2;
      }),
    ).toBeUndefined();
    expect(
      check((m) => {
        m.waistJoint = 0;
        m.flags = 2;
      }),
    ).toBeUndefined();
    expect(
      check((m) => {
        m.rotation.set([0, 0, 0, 1.1e-6], 4);
      }),
    ).toBeUndefined();
    expect(
      check((m) => {
        for (let f = 0; f < 3; f++) m.jointKeyInfo[(f * 3 + f) * 4] = KeyFlag.LOCK;
      }),
    ).toBeUndefined();
    expect(
      check((m) => {
        m.jointKeyInfo[0] = KeyFlag.LOCK;
        m.jointKeyInfo[(1 * 3 + 0) * 4] = KeyFlag.LOCK;
      }),
    ).toBeUndefined();
    // unit quaternions along every axis are fine
    expect(
      check((m) => {
        m.rotation.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1]);
      }),
    ).toBeUndefined();
    // KEY bits on several joints of one frame are not locks
    expect(
      check((m) => {
        m.jointKeyInfo.fill(KeyFlag.KEY | KeyFlag.TRACE);
      }),
    ).toBeUndefined();
    const big = emptyMotion(
      1,
      Array.from({ length: 1024 }, (_, j) => joint(j - 1, j, `j${j}`)),
    );
    expect(errorOf(() => validateMotion(big))).toBeUndefined();
    expect(
      errorOf(() => validateMotion(cloneMotion({ ...big, joints: [...big.joints, joint(0, 0, 'x')] })))?.message,
    ).toBe('MTN (header): jointCount 1025 outside 1..1024');
  });
});

describe('writeMtn: nothing ActGuy would refuse to read back', () => {
  it('refuses a motion over the 1 GiB read limit from its counts, before looking at its samples', () => {
    // 1024 joints x 30,000 frames is about 1.5 GB: the counts alone decide; the sample arrays are never touched.
    const joints = Array.from({ length: 1024 }, (_, j) => joint(j - 1, j, `j${j}`));
    const big = { ...emptyMotion(1, joints.slice(0, 1)), frameCount: 30_000, joints } as Motion;
    expect(mtnByteSize(30_000, 1024)).toBeGreaterThan(BINARY_MAX_BYTES);
    const e = errorOf(() => writeMtn(big));
    expect(e?.kind).toBe('MTN');
    expect(e?.message).toMatch(/over the 1073741824 bytes \(1 GiB\) ActGuy reads back; nothing was written/);
    // The largest a 1024-joint motion may be still has a size readMtn takes.
    let frames = 1;
    while (mtnByteSize(frames + 1, 1024) <= BINARY_MAX_BYTES) frames++;
    expect(frames).toBeGreaterThan(20_000);
  });
});
