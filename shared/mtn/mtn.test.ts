import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { KeyFlag, MotionFlag, cloneMotion, emptyMotion, type Motion } from '../motion/types';
import { seededRandom } from '../testing/random';
import { syntheticMotion } from '../testing/syntheticMotion';
import { MTN_HEADER_SIZE, mtnByteSize } from './constants';
import { readMtn } from './read';
import { validateMotion } from './validate';
import { writeMtn } from './write';

const sample = (): Motion => {
  const m = syntheticMotion({ frames: 12, joints: 4, seed: 9, offsets: true, userKeys: 2, locks: 1, traceKeys: 2 });
  m.joints[1].name = 'l_thigh';
  m.joints[2].mirror = 3;
  m.joints[3].mirror = 2;
  m.flags |= MotionFlag.DIRECTION | 0x100; // an unknown bit must survive
  m.waistJoint = 1;
  m.jointKeyInfo[(3 * 4 + 2) * 4] |= 0x80; // unknown key-info bit
  m.jointKeyInfo[(3 * 4 + 2) * 4 + 2] = 7; // a non-zero reserved word
  m.translation[5 * 4 + 3] = -0; // negative zero keeps its bits
  return m;
};

describe('MTN v1', () => {
  it('read -> write reproduces the bytes, and read(write(x)) the fields', () => {
    const m = sample();
    const bytes = writeMtn(m);
    expect(bytes.length).toBe(mtnByteSize(12, 4));
    const back = readMtn(bytes);
    expect(back.joints).toEqual(m.joints);
    expect(back.flags).toBe(m.flags);
    expect(back.waistJoint).toBe(1);
    expect(back.fps).toBe(30);
    expect(Array.from(back.rotation)).toEqual(Array.from(m.rotation));
    expect(Array.from(back.jointKeyInfo)).toEqual(Array.from(m.jointKeyInfo));
    expect(Object.is(back.translation[5 * 4 + 3], -0)).toBe(true);
    expect(Array.from(writeMtn(back))).toEqual(Array.from(bytes));
  });

  it('lays the header and sections out as docs/formats.md 1 says', () => {
    const m = emptyMotion(2, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }], 60);
    m.translation.set([1, 2, 3, 0], 4);
    m.translationKeyInfo[2 * 4] = KeyFlag.TRACE;
    const b = writeMtn(m);
    const dv = new DataView(b.buffer);
    expect(String.fromCharCode(b[0], b[1], b[2])).toBe('MTN');
    expect(b[3]).toBe(0);
    expect([dv.getUint32(4, true), dv.getUint32(8, true), dv.getUint32(12, true)]).toEqual([1, 2, 1]);
    expect(dv.getInt32(20, true)).toBe(-1);
    expect(dv.getFloat32(24, true)).toBe(60);
    expect(dv.getInt32(32, true)).toBe(-1); // skeleton: parent of joint 0
    expect(String.fromCharCode(...b.subarray(48, 52))).toBe('hips');
    const translation = 32 + 16 + 32;
    expect(dv.getFloat32(translation + 16 + 4, true)).toBe(2); // frame 1 y
    const rotation = translation + 3 * 16;
    expect(dv.getFloat32(rotation + 12, true)).toBe(1); // identity w
    const keyInfo = rotation + 3 * 16 * 2; // after rotation and offset
    expect(dv.getUint32(keyInfo + 2 * 16, true)).toBe(KeyFlag.TRACE);
  });

  const corrupt = (edit: (b: Uint8Array, dv: DataView) => Uint8Array | void, pattern: RegExp) => {
    const b = writeMtn(sample()).slice();
    const out = edit(b, new DataView(b.buffer)) ?? b;
    let err: unknown;
    try {
      readMtn(out);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toMatch(pattern);
  };

  it('rejects bad input with messages naming section, frame and joint', () => {
    corrupt((b) => b.subarray(0, 10), /shorter than the 32-byte header/);
    corrupt((b) => {
      b[0] = 0x58;
    }, /bad magic/);
    corrupt((_, dv) => {
      dv.setUint32(4, 2, true);
    }, /unsupported version 2/);
    corrupt((_, dv) => {
      dv.setUint32(8, 0, true);
    }, /frameCount 0/);
    corrupt((_, dv) => {
      dv.setUint32(12, 5000, true);
    }, /jointCount 5000/);
    corrupt((b) => b.subarray(0, b.length - 1), /implies \d+ bytes/);
    corrupt((b) => {
      const c = new Uint8Array(b.length + 16);
      c.set(b);
      return c;
    }, /file is \d+ bytes but its header/);
    corrupt((_, dv) => {
      dv.setInt32(MTN_HEADER_SIZE + 2 * 16, 3, true);
    }, /skeleton joint 2.*parent 3 must be a joint before it/);
    corrupt((_, dv) => {
      dv.setInt32(MTN_HEADER_SIZE, 0, true);
    }, /joint 0 must have parent -1/);
    corrupt((_, dv) => {
      dv.setInt32(20, 9, true);
    }, /waist joint 9/);
    corrupt((_, dv) => {
      dv.setInt32(20, -1, true);
    }, /DIRECTION is set but no waist joint/);
    corrupt((_, dv) => {
      dv.setFloat32(24, 0, true);
    }, /frames per second/);
  });

  it('rejects NaN and infinities naming the section, frame and joint', () => {
    const m = sample();
    const J = 4;
    const bytes = writeMtn(m).slice();
    const dv = new DataView(bytes.buffer);
    const rotationStart = MTN_HEADER_SIZE + J * 48 + 13 * 16;
    dv.setFloat32(rotationStart + ((7 * J + 2) * 4 + 1) * 4, NaN, true);
    expect(() => readMtn(bytes)).toThrowError(/rotation frame 7 joint 2.*not finite/);
    const m2 = cloneMotion(m);
    m2.translation[3 * 4] = Infinity;
    expect(() => writeMtn(m2)).toThrowError(/translation frame 3.*not finite/);
  });

  it('refuses two joint locks on one frame', () => {
    const m = sample();
    for (let j = 0; j < 4; j++) m.jointKeyInfo[(6 * 4 + j) * 4] &= ~KeyFlag.LOCK;
    m.jointKeyInfo[(6 * 4 + 1) * 4] |= KeyFlag.LOCK;
    m.jointKeyInfo[(6 * 4 + 3) * 4] |= KeyFlag.LOCK;
    expect(() => writeMtn(m)).toThrowError(
      /joint key info frame 6 joint 3.*two joints locked on one frame \(joints 1 and 3\)/,
    );
  });

  it('rejects names that are not NUL-padded ASCII', () => {
    corrupt((b) => {
      b.fill(0x41, MTN_HEADER_SIZE + 4 * 16, MTN_HEADER_SIZE + 4 * 16 + 32);
    }, /not NUL-terminated/);
    corrupt((b) => {
      b[MTN_HEADER_SIZE + 4 * 16 + 20] = 0x41;
    }, /bytes after its NUL/);
    corrupt((b) => {
      b[MTN_HEADER_SIZE + 4 * 16 + 1] = 0xff;
    }, /non-ASCII/);
  });

  it('on random corruption: a FormatError, or a motion that validates and writes back to the same bytes', () => {
    const good = writeMtn(sample());
    const rnd = seededRandom(5);
    let rejected = 0;
    let accepted = 0;
    for (let i = 0; i < 300; i++) {
      const b = good.slice();
      const n = 1 + Math.floor(rnd() * 4);
      for (let k = 0; k < n; k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      const cut = rnd() < 0.3 ? b.subarray(0, Math.floor(rnd() * b.length)) : b;
      let m: Motion;
      try {
        m = readMtn(cut);
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        rejected++;
        continue;
      }
      accepted++;
      validateMotion(m);
      expect(Array.from(writeMtn(m))).toEqual(Array.from(cut));
    }
    // Every truncation and most header/skeleton/name damage must be refused; float payload damage may pass.
    expect(rejected).toBeGreaterThan(90);
    expect(accepted).toBeGreaterThan(0);
  });
});
