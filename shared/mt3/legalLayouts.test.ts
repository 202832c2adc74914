/**
 * Layouts that docs/formats.md sections 2 and 3 allow but ActGuy's writers never produce: another tool's
 * .mt3 or .mar may use them, and the readers must take them as the spec reads them (the 2026-12-04 audit,
 * docs/formats.md "Checked against the spec"). Each file is built here by moving bytes of a written one,
 * so what is read back can be compared with what was written.
 */
import { describe, expect, it } from 'vitest';
import { readMar } from '../mar/read';
import { writeMar } from '../mar/write';
import { gvStrCode } from '../strcode';
import { readMt3 } from './read';
import { randomMt3 } from './testFixtures';
import { writeMt3 } from './write';

const HDR_DATA_OFFSET = 16;

/** The same MT3 with `extra` more zero bytes of header padding before its pack (dataOffset stays 16-aligned). */
function withHeaderPadding(mt3: Uint8Array, extra: number): Uint8Array {
  const dataOffset = new DataView(mt3.buffer, mt3.byteOffset).getUint32(HDR_DATA_OFFSET, true);
  const out = new Uint8Array(mt3.length + extra);
  out.set(mt3.subarray(0, dataOffset));
  out.set(mt3.subarray(dataOffset), dataOffset + extra);
  new DataView(out.buffer).setUint32(HDR_DATA_OFFSET, dataOffset + extra, true);
  return out;
}

/** A MAR holding `mt3s` with its data starting at `dataBase` and each entry at the given offset from it. */
function marAt(mt3s: Uint8Array[], dataBase: number, offsets: number[]): Uint8Array {
  const end = Math.max(...mt3s.map((m, i) => Math.ceil((offsets[i] + m.length) / 16) * 16));
  const out = new Uint8Array(dataBase + end);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x6152414d, true);
  dv.setUint32(4, Math.max(...mt3s.map((m) => new DataView(m.buffer, m.byteOffset).getUint32(24, true))), true);
  dv.setUint32(8, mt3s.length, true);
  dv.setUint32(12, dataBase, true);
  mt3s.forEach((m, i) => {
    dv.setUint32(16 + 8 * i, offsets[i], true);
    dv.setUint32(20 + 8 * i, m.length, true);
    out.set(m, dataBase + offsets[i]);
  });
  return out;
}

const motion = randomMt3(7, { numFrames: 40, numJoints: 4, name: gvStrCode('legal_layout') });
const written = writeMt3(motion);

describe('MT3 layouts the spec allows and ActGuy does not write', () => {
  it('reads a header padded past its minimal dataOffset to the same motion', () => {
    const padded = withHeaderPadding(written, 48);
    const m = readMt3(padded);
    expect(m).toEqual(readMt3(written));
  });
});

describe('MAR layouts the spec allows and ActGuy does not write', () => {
  const mt3s = [
    written,
    writeMt3(randomMt3(8, { numFrames: 12, numJoints: 6, name: gvStrCode('second') })),
    writeMt3(randomMt3(9, { numFrames: 5, numJoints: 2, name: gvStrCode('third') })),
  ];
  const size16 = (i: number) => Math.ceil(mt3s[i].length / 16) * 16;

  it('reads a dataBase past the table, zero gaps between entries, and entries stored out of table order', () => {
    const layouts: [string, number, number[]][] = [
      ['dataBase 80 bytes past the table', 128, [0, size16(0), size16(0) + size16(1)]],
      ['a 64-byte gap after entry 0', 48, [0, size16(0) + 64, size16(0) + 64 + size16(1)]],
      ['entries stored in reverse order', 48, [size16(2) + size16(1), size16(2), 0]],
    ];
    for (const [label, dataBase, offsets] of layouts) {
      const mar = readMar(marAt(mt3s, dataBase, offsets));
      expect(mar.dataBase, label).toBe(dataBase);
      expect(
        mar.entries.map((e) => Array.from(e.bytes)),
        label,
      ).toEqual(mt3s.map((m) => Array.from(m)));
    }
  });

  it('the archive ActGuy writes is the tight layout of the same entries', () => {
    expect(Array.from(writeMar(mt3s))).toEqual(Array.from(marAt(mt3s, 48, [0, size16(0), size16(0) + size16(1)])));
  });
});
