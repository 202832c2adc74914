import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { writeMt3 } from '../mt3/write';
import { randomMt3 } from '../mt3/testFixtures';
import { gvStrCode } from '../strcode';
import { readMar } from './read';
import { writeMar } from './write';

const names = ['stand', 'walk', 'run'];
const good = writeMar([
  writeMt3(randomMt3(1, { numFrames: 10, numJoints: 2, name: gvStrCode('stand') })),
  writeMt3(randomMt3(2, { numFrames: 33, numJoints: 5, name: gvStrCode('walk') })),
  writeMt3(randomMt3(3, { numFrames: 7, numJoints: 3, name: gvStrCode('run'), offsets: false, fix: false })),
]);
const size = good.byteLength;
const gdv = new DataView(good.buffer);
const dataBase = gdv.getUint32(12, true);
const entry = (i: number) => ({ off: gdv.getUint32(16 + 8 * i, true), len: gdv.getUint32(20 + 8 * i, true) });

const edited = (edit: (dv: DataView, b: Uint8Array) => Uint8Array | void): Uint8Array => {
  const b = good.slice();
  return edit(new DataView(b.buffer), b) ?? b;
};
const messageOf = (b: Uint8Array): string | undefined => {
  try {
    readMar(b);
  } catch (e) {
    if (e instanceof FormatError && e.kind === 'MAR') return e.message;
    throw e;
  }
  return undefined;
};

describe('MAR reader messages name the place of each problem', () => {
  it('header', () => {
    expect(dataBase).toBe(48);
    expect(messageOf(good.subarray(0, 15))).toBe(
      'MAR (header, offset 0): file is 15 bytes, shorter than the 16-byte header',
    );
    expect(
      messageOf(
        edited((_, b) => {
          b.set([0x7e, 0x1f, 0x20, 0x7f]);
        }),
      ),
    ).toBe('MAR (header, offset 0): bad magic: expected "MARa", found "~\\x1f \\x7f"');
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(8, 300, true);
        }),
      ),
    ).toBe(`MAR (header, offset 8): numMotion 300 needs a 2400-byte table but the file is ${size} bytes`);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(12, 40, true);
        }),
      ),
    ).toBe('MAR (header, offset 12): dataBase 40 is not a multiple of 16');
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(12, 32, true);
        }),
      ),
    ).toBe('MAR (header, offset 12): dataBase 32 lies inside the header and table (which end at 40)');
    const past = size + 16 - (size % 16);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(12, past, true);
        }),
      ),
    ).toBe(`MAR (header, offset 12): dataBase ${past} is past the end of the ${size}-byte file`);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(4, 4, true);
        }),
      ),
    ).toBe("MAR (header, offset 4): entry 1 has 5 joints but the header's maxJoint is 4");
  });

  it('table', () => {
    const e1 = entry(1);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(24, e1.off + 8, true);
        }),
      ),
    ).toBe(`MAR (table entry 1, offset 24): entry 1 offset ${e1.off + 8} is not a multiple of 16`);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(20, 0, true);
        }),
      ),
    ).toBe('MAR (table entry 0, offset 20): entry 0 has size 0');
    const e0 = entry(0);
    expect(
      messageOf(
        edited((dv) => {
          dv.setUint32(24, 0, true);
        }),
      ),
    ).toBe(`MAR (table, offset 24): entries 0 (bytes 48..${48 + e0.len}) and 1 (bytes 48..${48 + e1.len}) overlap`);
    const longer = new Uint8Array(size + 16);
    longer.set(good);
    const last = entry(2);
    const lastEnd = dataBase + last.off + last.len;
    expect(messageOf(longer)).toBe(
      `MAR (table): file is ${size + 16} bytes but its table implies ${size} bytes (last entry ends at ${lastEnd}, padded to 16)`,
    );
  });

  it('an entry that ends exactly at the end of the file is in range (its MT3 is then checked)', () => {
    const e2 = entry(2);
    const start = dataBase + e2.off;
    expect(start + e2.len).toBeLessThan(size); // the writer padded it
    const message = messageOf(
      edited((dv) => {
        dv.setUint32(36, size - start, true);
      }),
    );
    // the MT3 error keeps its own place, moved to the archive's offsets
    expect(message).toMatch(
      new RegExp(
        `^MAR \\(entry 2 MT3 header, offset ${start + 20}\\): entry 2: file is ${size - start} bytes but its header`,
      ),
    );
  });

  it('entries may lie in the file in another order than the table', () => {
    const swapped = edited((dv) => {
      const a = entry(0);
      const c = entry(2);
      dv.setUint32(16, c.off, true);
      dv.setUint32(20, c.len, true);
      dv.setUint32(32, a.off, true);
      dv.setUint32(36, a.len, true);
    });
    const mar = readMar(swapped);
    expect(mar.entries.map((e) => e.name)).toEqual([names[2], names[1], names[0]].map(gvStrCode));
    expect(mar.entries[0].fileOffset).toBe(dataBase + entry(2).off);
  });

  it('two entries with one name hash are refused at the second', () => {
    const b = edited((dv) => {
      const a = entry(0);
      dv.setUint32(32, a.off, true);
      dv.setUint32(36, a.len, true);
    });
    // entry 2 now is entry 0's bytes, so it overlaps entry 0: the overlap is found first
    expect(messageOf(b)).toMatch(/^MAR \(table, offset 32\): entries 0 .* and 2 .* overlap$/);
  });
});
