import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { gvStrCode } from '../strcode';
import { validateMt3 } from '../mt3/validate';
import { writeMt3 } from '../mt3/write';
import { randomMt3 } from '../mt3/testFixtures';
import { seededRandom } from '../testing/random';
import { MAR_MAGIC } from './constants';
import { motionNameOf, parseMotionNames } from './names';
import { readMar } from './read';
import { writeMar } from './write';

const mt3s = [
  writeMt3(randomMt3(1, { numFrames: 10, numJoints: 2, name: gvStrCode('stand') })),
  writeMt3(randomMt3(2, { numFrames: 33, numJoints: 5, name: gvStrCode('walk') })),
  writeMt3(randomMt3(3, { numFrames: 7, numJoints: 3, name: gvStrCode('run'), offsets: false, fix: false })),
];

function expectMarError(fn: () => unknown, re: RegExp): FormatError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`expected a FormatError, got ${String(e)}`);
    expect(e.kind).toBe('MAR');
    expect(e.message).toMatch(re);
    return e;
  }
  throw new Error('expected a FormatError, but reading succeeded');
}

describe('MAR layout and round trip', () => {
  it('writes header, table, 16-aligned entries with zero padding', () => {
    const mar = writeMar(mt3s);
    const dv = new DataView(mar.buffer);
    expect(dv.getUint32(0, true)).toBe(MAR_MAGIC);
    expect(Array.from(mar.subarray(0, 4), (b) => String.fromCharCode(b)).join('')).toBe('MARa');
    expect(dv.getUint32(4, true)).toBe(5); // maxJoint
    expect(dv.getUint32(8, true)).toBe(3);
    const dataBase = dv.getUint32(12, true);
    expect(dataBase).toBe(48); // 16 + 3*8 = 40 -> 48
    let expectOff = 0;
    for (let i = 0; i < 3; i++) {
      const off = dv.getUint32(16 + 8 * i, true);
      const size = dv.getUint32(20 + 8 * i, true);
      expect(off).toBe(expectOff);
      expect(off % 16).toBe(0);
      expect(size).toBe(mt3s[i].byteLength);
      expect(mar.subarray(dataBase + off, dataBase + off + size)).toEqual(mt3s[i]);
      const padEnd = Math.ceil((off + size) / 16) * 16;
      for (let p = off + size; p < padEnd; p++) expect(mar[dataBase + p]).toBe(0);
      expectOff = padEnd;
    }
    expect(mar.byteLength).toBe(dataBase + expectOff);
  });

  it('reads back every entry in order, and re-packing is byte-exact', () => {
    const mar = writeMar(mt3s);
    const back = readMar(mar);
    expect(back.maxJoint).toBe(5);
    expect(back.entries.map((e) => e.name)).toEqual(['stand', 'walk', 'run'].map(gvStrCode));
    expect(back.entries.map((e) => e.mt3.rotations.length)).toEqual([2, 5, 3]);
    back.entries.forEach((e, i) => expect(e.bytes).toEqual(mt3s[i]));
    expect(writeMar(back.entries.map((e) => e.bytes))).toEqual(mar);
  });

  it('handles an empty archive', () => {
    const mar = writeMar([]);
    expect(mar.byteLength).toBe(16);
    expect(readMar(mar).entries).toEqual([]);
  });

  it('refuses two motions with one name hash, naming both indices', () => {
    expect(gvStrCode('aaap')).toBe(gvStrCode('aac0'));
    const a = writeMt3(randomMt3(4, { name: gvStrCode('aaap') }));
    const b = writeMt3(randomMt3(5, { name: gvStrCode('aac0') }));
    expectMarError(() => writeMar([a, mt3s[0], b]), /entries 0 and 2 have the same name hash 0x321090/);
  });

  it('refuses a broken MT3 on write, naming the entry', () => {
    expectMarError(() => writeMar([mt3s[0], mt3s[1].subarray(0, 30)]), /entry 1: file is 30 bytes/);
  });
});

describe('MAR reader on corrupt input', () => {
  const good = writeMar(mt3s);
  const copy = () => {
    const b = good.slice();
    return { b, dv: new DataView(b.buffer) };
  };

  it('rejects wrong magic', () => {
    const x = copy();
    x.b[3] = 0x41;
    expectMarError(() => readMar(x.b), /bad magic: expected "MARa", found "MARA"/);
  });

  it('rejects every truncation', () => {
    for (let n = 0; n < good.byteLength; n++) {
      try {
        readMar(good.subarray(0, n));
      } catch (e) {
        if (!(e instanceof FormatError)) throw new Error(`truncated to ${n}: ${String(e)}`);
        continue;
      }
      throw new Error(`truncated to ${n}: accepted`);
    }
  });

  it('rejects a count whose table runs past the file without allocating it', () => {
    const x = copy();
    x.dv.setUint32(8, 0xffffffff, true);
    expectMarError(() => readMar(x.b), /numMotion 4294967295 needs/);
  });

  it('rejects misaligned or out-of-file offsets and overlaps', () => {
    let x = copy();
    x.dv.setUint32(12, 40, true);
    expectMarError(() => readMar(x.b), /dataBase 40 is not a multiple of 16/);
    x = copy();
    x.dv.setUint32(24, 0x100000, true);
    expectMarError(() => readMar(x.b), /entry 1 .* runs past the end/);
    x = copy();
    x.dv.setUint32(24, 0, true);
    expectMarError(() => readMar(x.b), /entries 0 .* and 1 .* overlap/);
  });

  it('rejects two entries with one name hash (written by another tool), naming both', () => {
    // writeMar refuses this, so the archive is patched: entry 2 takes entry 0's name.
    const x = copy();
    const dataBase = x.dv.getUint32(12, true);
    const off2 = x.dv.getUint32(16 + 8 * 2, true);
    x.dv.setUint32(dataBase + off2, gvStrCode('stand'), true);
    const e = expectMarError(
      () => readMar(x.b),
      new RegExp(`entries 0 and 2 have the same name hash 0x${gvStrCode('stand').toString(16).padStart(6, '0')}`),
    );
    expect(e.place.offset).toBe(dataBase + off2);
  });

  it('rejects a maxJoint that does not hold', () => {
    const x = copy();
    x.dv.setUint32(4, 4, true);
    expectMarError(() => readMar(x.b), /entry 1 has 5 joints but the header's maxJoint is 4/);
  });

  it('names the entry and archive offset of a broken MT3', () => {
    const x = copy();
    const dataBase = x.dv.getUint32(12, true);
    const off1 = x.dv.getUint32(24, true);
    x.dv.setUint32(dataBase + off1 + 12, 0, true); // entry 1 numFrames = 0
    const e = expectMarError(() => readMar(x.b), /entry 1: numFrames 0 outside/);
    expect(e.place.offset).toBe(dataBase + off1 + 12);
    expect(e.place.where).toMatch(/^entry 1/);
  });

  it('rejects a file size that differs from the table, naming both', () => {
    const b = new Uint8Array(good.byteLength + 16);
    b.set(good);
    expectMarError(
      () => readMar(b),
      new RegExp(`file is ${good.byteLength + 16} bytes but its table implies ${good.byteLength} bytes`),
    );
  });

  it('survives random byte flips: a FormatError, or an archive whose entries validate and re-pack', () => {
    const rnd = seededRandom(99);
    let rejected = 0;
    let accepted = 0;
    for (let trial = 0; trial < 800; trial++) {
      const b = good.slice();
      b[Math.floor(rnd() * b.length)] ^= 1 << Math.floor(rnd() * 8);
      let m;
      try {
        m = readMar(b);
      } catch (e) {
        if (!(e instanceof FormatError)) throw new Error(`trial ${trial}: ${String(e)}`);
        rejected++;
        continue;
      }
      accepted++;
      expect(m.entries.length).toBe(3);
      expect(new Set(m.entries.map((e) => e.name)).size).toBe(3);
      for (const e of m.entries) validateMt3(e.mt3);
      // What was accepted packs again into an archive that reads back to the same MT3 bytes.
      const again = readMar(writeMar(m.entries.map((e) => e.bytes)));
      again.entries.forEach((e, i) => expect(e.bytes).toEqual(m.entries[i].bytes));
    }
    // Most flips land in key data the format cannot check; header, table and stream flips must be caught.
    expect(rejected).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('motion names file', () => {
  it('maps hashes to names, skipping comments and blank lines', () => {
    const names = parseMotionNames('# motions of stage 1\nstand\n\n  walk   # the walk\r\nrun\nwalk\n');
    expect(names.get(gvStrCode('walk'))).toEqual({ name: 'walk', line: 4 });
    expect(names.size).toBe(3);
    expect(motionNameOf(gvStrCode('run'), names)).toBe('run');
    expect(motionNameOf(0x123456, names)).toBe('0x123456');
  });

  it('refuses two names with one hash, naming both lines', () => {
    expect(() => parseMotionNames('aaap\n# x\naac0\n')).toThrow(
      /names "aaap" \(line 1\) and "aac0" \(line 3\) have the same hash 0x321090/,
    );
    let thrown: unknown;
    try {
      parseMotionNames('aaap\naac0');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(FormatError);
    expect((thrown as FormatError).place.line).toBe(2);
  });

  it('refuses names with inner whitespace or non-ASCII characters', () => {
    expect(() => parseMotionNames('ok\nbad name\n')).toThrow(/:2:4: .*whitespace/);
    expect(() => parseMotionNames('caf\u00e9\n')).toThrow(/:1:4: motion name "caf\u00e9" has the non-ASCII character/);
    expect(() => parseMotionNames('walk\n  \u6b69\n')).toThrow(/:2:3: .*U\+6B69/);
    expect(() => parseMotionNames('walk:0x1\n')).toThrow(/:1:5: .*":"/);
    expect(() => parseMotionNames('.hidden\n')).toThrow(/:1:1: .*starts with "\."/);
  });

  it('reads every name of the motion-name rule, digits first included', () => {
    const names = parseMotionNames('131_01\nsna-mugen.bdn1\n');
    expect(names.get(gvStrCode('131_01'))?.name).toBe('131_01');
    expect(names.get(gvStrCode('sna-mugen.bdn1'))?.name).toBe('sna-mugen.bdn1');
  });
});
