import type { HeadVerdict, ImpliedSize } from '../binarySize';
import { FormatError } from '../errors';
import { formatStrCode } from '../strcode';
import { readMt3 } from '../mt3/read';
import type { Mt3Motion } from '../mt3/types';
import {
  MAR_ALIGN,
  MAR_HDR_DATA_BASE,
  MAR_HDR_MAX_JOINT,
  MAR_HDR_NUM_MOTION,
  MAR_HEADER_SIZE,
  MAR_MAGIC,
  MAR_TABLE_ENTRY,
  align16,
} from './constants';

export interface MarEntry {
  /** 24-bit GV_StrCode of the motion name (from its MT3 header). */
  name: number;
  /** Byte offset of the MT3 in the archive file. */
  fileOffset: number;
  /** The MT3 file bytes (a view into the archive). */
  bytes: Uint8Array;
  mt3: Mt3Motion;
}

export interface MarArchive {
  /** Header maxJoint: at least the numJoints of every motion. */
  maxJoint: number;
  /** Byte offset where the MT3 data starts. */
  dataBase: number;
  /** Entries in table order: the motion index. */
  entries: MarEntry[];
}

function fail(detail: string, offset?: number, where?: string): never {
  throw new FormatError('MAR', detail, { offset, where });
}

/** What the header and table of a MAR say: the size they imply and each entry's range in the file. */
export interface MarLayout extends ImpliedSize {
  ranges: { index: number; start: number; end: number }[];
}

/**
 * The MAR header and table check (docs/formats.md 3): magic, count, dataBase, every entry's range against the
 * file size, and the size the table implies, the end of the last entry rounded up to 16 (shared/binarySize.ts).
 * It asks for the 16-byte header, then for the table. readMar runs it first; the main process runs it before it
 * reads the entries.
 */
export function marSizeFromHead(head: Uint8Array, size: number): HeadVerdict {
  if (size < MAR_HEADER_SIZE)
    fail(`file is ${size} bytes, shorter than the ${MAR_HEADER_SIZE}-byte header`, 0, 'header');
  if (head.byteLength < MAR_HEADER_SIZE) return { needHead: MAR_HEADER_SIZE };
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const magic = dv.getUint32(0, true);
  if (magic !== MAR_MAGIC) {
    const found = Array.from(head.subarray(0, 4), (b) =>
      b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`,
    ).join('');
    fail(`bad magic: expected "MARa", found "${found}"`, 0, 'header');
  }
  const M = dv.getUint32(MAR_HDR_NUM_MOTION, true);
  const dataBase = dv.getUint32(MAR_HDR_DATA_BASE, true);
  const tableEnd = MAR_HEADER_SIZE + MAR_TABLE_ENTRY * M;
  if (tableEnd > size)
    fail(
      `numMotion ${M} needs a ${MAR_TABLE_ENTRY * M}-byte table but the file is ${size} bytes`,
      MAR_HDR_NUM_MOTION,
      'header',
    );
  if (dataBase % MAR_ALIGN !== 0)
    fail(`dataBase ${dataBase} is not a multiple of ${MAR_ALIGN}`, MAR_HDR_DATA_BASE, 'header');
  if (dataBase < tableEnd)
    fail(
      `dataBase ${dataBase} lies inside the header and table (which end at ${tableEnd})`,
      MAR_HDR_DATA_BASE,
      'header',
    );
  if (dataBase > size)
    fail(`dataBase ${dataBase} is past the end of the ${size}-byte file`, MAR_HDR_DATA_BASE, 'header');
  if (head.byteLength < tableEnd) return { needHead: tableEnd };

  const ranges: { index: number; start: number; end: number }[] = [];
  let dataEnd = dataBase;
  for (let i = 0; i < M; i++) {
    const at = MAR_HEADER_SIZE + MAR_TABLE_ENTRY * i;
    const off = dv.getUint32(at, true);
    const len = dv.getUint32(at + 4, true);
    const where = `table entry ${i}`;
    if (off % MAR_ALIGN !== 0) fail(`entry ${i} offset ${off} is not a multiple of ${MAR_ALIGN}`, at, where);
    const start = dataBase + off;
    const end = start + len;
    if (end > size) fail(`entry ${i} (bytes ${start}..${end}) runs past the end of the ${size}-byte file`, at, where);
    if (len === 0) fail(`entry ${i} has size 0`, at + 4, where);
    ranges.push({ index: i, start, end });
    if (end > dataEnd) dataEnd = end;
  }
  const expected = align16(dataEnd);
  const layout: MarLayout = {
    size: expected,
    ranges,
    disagree: (actual) =>
      new FormatError(
        'MAR',
        `file is ${actual} bytes but its table implies ${expected} bytes (last entry ends at ${dataEnd}, padded to 16)`,
        { where: 'table' },
      ),
  };
  return layout;
}

/**
 * Reads a MAR (docs/formats.md 3): magic, counts and every range checked against
 * the file size before anything is allocated, entry ranges 16-aligned and not
 * overlapping, the file size equal to the end of the last entry rounded up to
 * 16, every MT3 fully read and checked (errors name the entry index and the
 * archive offset), maxJoint holding for each, and no two names hashing alike.
 */
export function readMar(bytes: Uint8Array): MarArchive {
  const size = bytes.byteLength;
  const layout = marSizeFromHead(bytes, size) as MarLayout;
  const { ranges } = layout;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  for (let k = 1; k < sorted.length; k++)
    if (sorted[k].start < sorted[k - 1].end)
      fail(
        `entries ${sorted[k - 1].index} (bytes ${sorted[k - 1].start}..${sorted[k - 1].end}) and ${sorted[k].index} (bytes ${sorted[k].start}..${sorted[k].end}) overlap`,
        MAR_HEADER_SIZE + MAR_TABLE_ENTRY * sorted[k].index,
        'table',
      );
  if (size !== layout.size) throw layout.disagree(size);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, size);
  const maxJoint = dv.getUint32(MAR_HDR_MAX_JOINT, true);
  const dataBase = dv.getUint32(MAR_HDR_DATA_BASE, true);

  const entries: MarEntry[] = [];
  const names = new Map<number, number>();
  for (const { index, start, end } of ranges) {
    const sub = bytes.subarray(start, end);
    let mt3: Mt3Motion;
    try {
      mt3 = readMt3(sub);
    } catch (e) {
      if (e instanceof FormatError) {
        const where = `entry ${index} MT3${e.place.where ? ` ${e.place.where}` : ''}`;
        throw new FormatError('MAR', `entry ${index}: ${e.detail}`, {
          where,
          offset: e.place.offset !== undefined ? start + e.place.offset : start,
        });
      }
      throw e;
    }
    const J = mt3.rotations.length;
    if (J > maxJoint)
      fail(`entry ${index} has ${J} joints but the header's maxJoint is ${maxJoint}`, MAR_HDR_MAX_JOINT, 'header');
    const prev = names.get(mt3.name);
    if (prev !== undefined)
      fail(`entries ${prev} and ${index} have the same name hash ${formatStrCode(mt3.name)}`, start, `entry ${index}`);
    names.set(mt3.name, index);
    entries.push({ name: mt3.name, fileOffset: start, bytes: sub, mt3 });
  }
  return { maxJoint, dataBase, entries };
}
