import type { HeadVerdict, ImpliedSize } from '../binarySize';
import { FormatError } from '../errors';
import { formatStrCode } from '../strcode';
import {
  SAR_ALIGN,
  SAR_ENTRY_HEADER,
  SAR_EVENT_SIZE,
  SAR_HEADER_SIZE,
  SAR_MAGIC,
  SAR_MAX_SE,
  SAR_NO_CODE,
  SAR_TABLE_ENTRY,
  SAR_VARIANTS,
  alignSar,
  sarEntrySize,
} from './constants';
import type { SarEntry, SarEvent } from './types';

/** What readSar returns: the entries plus the layout numbers `info` shows. */
export interface SarArchive {
  entries: SarEntry[];
  dataBase: number;
}

/**
 * The SAR header and table check (docs/formats.md 6): magic, reserved word, count, dataBase, every entry's range
 * against the file size, and the size the table implies, the end of the last entry rounded up to 16
 * (shared/binarySize.ts). It asks for the 16-byte header, then for the table. readSar runs it first; the main
 * process runs it before it reads the entries.
 */
export function sarSizeFromHead(head: Uint8Array, fileSize: number): HeadVerdict {
  const fail = (detail: string, offset?: number, where?: string): never => {
    throw new FormatError('SAR', detail, { offset, where });
  };
  if (fileSize < SAR_HEADER_SIZE)
    fail(`file is ${fileSize} bytes, shorter than the ${SAR_HEADER_SIZE}-byte header`, 0, 'header');
  if (head.byteLength < SAR_HEADER_SIZE) return { needHead: SAR_HEADER_SIZE };
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const magic = dv.getUint32(0, true);
  if (magic !== SAR_MAGIC) {
    const found = Array.from(head.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    fail(`bad magic: expected "SARa" (53 41 52 61), found ${found}`, 0, 'header');
  }
  const reserved = dv.getUint32(4, true);
  if (reserved !== 0) fail(`reserved word is ${reserved}, expected 0`, 4, 'header');
  const M = dv.getUint32(8, true);
  const dataBase = dv.getUint32(12, true);
  const tableEnd = SAR_HEADER_SIZE + M * SAR_TABLE_ENTRY;
  if (tableEnd > fileSize)
    fail(`entry count ${M} needs a ${M * SAR_TABLE_ENTRY}-byte table, but the file is ${fileSize} bytes`, 8, 'header');
  if (dataBase % SAR_ALIGN !== 0) fail(`dataBase ${dataBase} is not a multiple of ${SAR_ALIGN}`, 12, 'header');
  if (dataBase < tableEnd)
    fail(`dataBase ${dataBase} lies inside the ${M}-entry table (which ends at ${tableEnd})`, 12, 'header');
  if (dataBase > fileSize) fail(`dataBase ${dataBase} is past the end of the ${fileSize}-byte file`, 12, 'header');
  if (head.byteLength < tableEnd) return { needHead: tableEnd };
  let implied = dataBase;
  for (let i = 0; i < M; i++) {
    const where = `entry ${i}`;
    const t = SAR_HEADER_SIZE + i * SAR_TABLE_ENTRY;
    const offset = dv.getUint32(t, true);
    const size = dv.getUint32(t + 4, true);
    if (offset % SAR_ALIGN !== 0) fail(`offset ${offset} is not a multiple of ${SAR_ALIGN}`, t, where);
    const start = dataBase + offset;
    if (size < SAR_ENTRY_HEADER || start + size > fileSize)
      fail(
        `range ${start}..${start + size} (size ${size}) does not fit in the ${fileSize}-byte file with an ${SAR_ENTRY_HEADER}-byte entry header`,
        t,
        where,
      );
    implied = Math.max(implied, dataBase + alignSar(offset + size));
  }
  return {
    size: implied,
    disagree: (actual) =>
      new FormatError('SAR', `file is ${actual} bytes but its table implies ${implied} bytes`, { where: 'table' }),
  };
}

/**
 * Reads a SAR (docs/formats.md 6). Checks the magic, the reserved word, that the
 * table fits before allocating from its count, every entry range (aligned,
 * inside the file, not overlapping, size equal to what S and E imply), that
 * the file size equals the size the table implies, that names are unique
 * 24-bit codes, and that every event is sorted by frame and uses a defined SE
 * index. Throws FormatError (kind SAR) with the offset and entry.
 */
export function readSar(bytes: Uint8Array): SarArchive {
  const fail = (detail: string, offset?: number, where?: string): never => {
    throw new FormatError('SAR', detail, { offset, where });
  };
  const implied = sarSizeFromHead(bytes, bytes.byteLength) as ImpliedSize;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const M = dv.getUint32(8, true);
  const dataBase = dv.getUint32(12, true);

  const ranges: { start: number; end: number; index: number }[] = [];
  const entries: SarEntry[] = [];
  const nameIndex = new Map<number, number>();
  for (let i = 0; i < M; i++) {
    const where = `entry ${i}`;
    const t = SAR_HEADER_SIZE + i * SAR_TABLE_ENTRY;
    // Aligned and inside the file, with room for the entry header: sarSizeFromHead checked every entry above.
    const offset = dv.getUint32(t, true);
    const size = dv.getUint32(t + 4, true);
    const start = dataBase + offset;
    const name = dv.getUint32(start, true);
    const S = dv.getUint16(start + 4, true);
    const E = dv.getUint16(start + 6, true);
    if (name < 1 || name > 0xffffff) fail(`name ${formatStrCode(name)} is not a 24-bit GV_StrCode`, start, where);
    const prev = nameIndex.get(name);
    if (prev !== undefined)
      fail(`entries ${prev} and ${i} have the same motion name ${formatStrCode(name)}`, start, where);
    nameIndex.set(name, i);
    if (S > SAR_MAX_SE) fail(`SE count ${S} exceeds ${SAR_MAX_SE} (SE indices are u8)`, start + 4, where);
    const expected = sarEntrySize(S, E);
    if (size !== expected)
      fail(`size ${size} differs from the ${expected} bytes its ${S} SEs and ${E} events imply`, t + 4, where);
    ranges.push({ start, end: start + size, index: i });

    const seCodes = new Uint16Array(S * SAR_VARIANTS);
    let p = start + SAR_ENTRY_HEADER;
    for (let k = 0; k < seCodes.length; k++, p += 2) seCodes[k] = dv.getUint16(p, true);
    const events: SarEvent[] = [];
    let lastFrame = 0;
    for (let k = 0; k < E; k++, p += SAR_EVENT_SIZE) {
      const frame = dv.getUint16(p, true);
      const se = bytes[p + 2];
      const joint = bytes[p + 3];
      if (frame < lastFrame)
        fail(
          `event ${k} at frame ${frame} comes after an event at frame ${lastFrame} (events are sorted by frame)`,
          p,
          where,
        );
      if (se >= S) fail(`event ${k} uses SE index ${se}, but the entry has ${S}`, p + 2, where);
      let defined = false;
      for (let a = 0; a < SAR_VARIANTS; a++) if (seCodes[se * SAR_VARIANTS + a] !== SAR_NO_CODE) defined = true;
      if (!defined) fail(`event ${k} uses SE index ${se}, which the entry leaves undefined (0xFFFF)`, p + 2, where);
      lastFrame = frame;
      events.push({ frame, se, joint });
    }
    entries.push({ name, seCodes, events });
  }
  ranges.sort((a, b) => a.start - b.start);
  for (let k = 1; k < ranges.length; k++) {
    if (ranges[k].start < ranges[k - 1].end)
      fail(
        `entries ${ranges[k - 1].index} and ${ranges[k].index} overlap (${ranges[k - 1].start}..${ranges[k - 1].end} and ${ranges[k].start}..${ranges[k].end})`,
        undefined,
        'table',
      );
  }
  if (bytes.byteLength !== implied.size) throw implied.disagree(bytes.byteLength);
  return { entries, dataBase };
}

/**
 * Checks that a SAR belongs to a MAR: the same count and, at every index, the
 * same motion name. Returns every mismatch (empty when they pair).
 */
export function checkSarPairsWithMar(
  sarNames: readonly number[],
  marNames: readonly number[],
  sarFile = 'SAR',
  marFile = 'MAR',
): string[] {
  const problems: string[] = [];
  if (sarNames.length !== marNames.length)
    problems.push(`${sarFile} has ${sarNames.length} entries but ${marFile} has ${marNames.length}`);
  const n = Math.min(sarNames.length, marNames.length);
  for (let i = 0; i < n; i++)
    if (sarNames[i] !== marNames[i])
      problems.push(
        `entry ${i}: ${sarFile} has ${formatStrCode(sarNames[i])}, ${marFile} has ${formatStrCode(marNames[i])}`,
      );
  return problems;
}
