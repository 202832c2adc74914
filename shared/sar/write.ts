import { FormatError } from '../errors';
import { formatStrCode } from '../strcode';
import {
  SAR_EVENT_SIZE,
  SAR_HEADER_SIZE,
  SAR_MAGIC,
  SAR_MAX_SE,
  SAR_NO_JOINT,
  SAR_TABLE_ENTRY,
  SAR_VARIANTS,
  alignSar,
  sarEntrySize,
} from './constants';
import type { SarEntry } from './types';

/**
 * Writes a SAR (docs/formats.md 6). `marNames` are the motion names of the paired
 * .mar in archive order: the writer refuses a SAR whose entries do not match
 * them one for one, because the game pairs .sar index i with .mar index i.
 * Events are written sorted by frame, stable (file order breaks ties).
 * Entries start at 16-byte boundaries relative to dataBase; padding is zero
 * and the file ends on a 16-byte boundary.
 */
export function writeSar(entries: readonly SarEntry[], marNames: readonly number[]): Uint8Array {
  const fail = (detail: string, where?: string): never => {
    throw new FormatError('SAR', detail, { where });
  };
  if (entries.length !== marNames.length)
    fail(`the SAR would have ${entries.length} entries but the paired MAR has ${marNames.length} motions`);
  const firstIndex = new Map<number, number>();
  entries.forEach((e, i) => {
    const where = `entry ${i}`;
    if (e.name !== marNames[i])
      fail(`entry ${i} is motion ${formatStrCode(e.name)} but MAR entry ${i} is ${formatStrCode(marNames[i])}`, where);
    if (!Number.isInteger(e.name) || e.name < 1 || e.name > 0xffffff)
      fail(`name ${e.name} is not a 24-bit GV_StrCode`, where);
    const prev = firstIndex.get(e.name);
    if (prev !== undefined) fail(`entries ${prev} and ${i} have the same motion name ${formatStrCode(e.name)}`, where);
    firstIndex.set(e.name, i);
    if (e.seCodes.length % SAR_VARIANTS !== 0 || e.seCodes.length / SAR_VARIANTS > SAR_MAX_SE)
      fail(`seCodes has ${e.seCodes.length} codes; expected 8 per SE index, at most ${SAR_MAX_SE} indices`, where);
    const S = e.seCodes.length / SAR_VARIANTS;
    if (e.events.length > 0xffff) fail(`${e.events.length} events; at most 65535 fit`, where);
    e.events.forEach((ev, k) => {
      if (!Number.isInteger(ev.frame) || ev.frame < 0 || ev.frame > 0xffff)
        fail(`event ${k} frame ${ev.frame} is not a u16`, where);
      if (!Number.isInteger(ev.se) || ev.se < 0 || ev.se >= S)
        fail(`event ${k} uses SE index ${ev.se}, but the entry defines ${S}`, where);
      if (!Number.isInteger(ev.joint) || ev.joint < 0 || ev.joint > SAR_NO_JOINT)
        fail(`event ${k} joint ${ev.joint} is not a u8`, where);
    });
  });

  const dataBase = alignSar(SAR_HEADER_SIZE + entries.length * SAR_TABLE_ENTRY);
  const offsets: number[] = [];
  let cursor = 0;
  for (const e of entries) {
    offsets.push(cursor);
    cursor = alignSar(cursor + sarEntrySize(e.seCodes.length / SAR_VARIANTS, e.events.length));
  }
  const out = new Uint8Array(dataBase + cursor);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, SAR_MAGIC, true);
  dv.setUint32(4, 0, true); // reserved
  dv.setUint32(8, entries.length, true);
  dv.setUint32(12, dataBase, true);
  entries.forEach((e, i) => {
    const S = e.seCodes.length / SAR_VARIANTS;
    dv.setUint32(SAR_HEADER_SIZE + i * SAR_TABLE_ENTRY, offsets[i], true);
    dv.setUint32(SAR_HEADER_SIZE + i * SAR_TABLE_ENTRY + 4, sarEntrySize(S, e.events.length), true);
    let p = dataBase + offsets[i];
    dv.setUint32(p, e.name, true);
    dv.setUint16(p + 4, S, true);
    dv.setUint16(p + 6, e.events.length, true);
    p += 8;
    for (let k = 0; k < e.seCodes.length; k++, p += 2) dv.setUint16(p, e.seCodes[k], true);
    // stable: equal frames keep the order they were given in (SEV file order)
    const sorted = e.events.map((ev, k) => ({ ev, k })).sort((a, b) => a.ev.frame - b.ev.frame || a.k - b.k);
    for (const { ev } of sorted) {
      dv.setUint16(p, ev.frame, true);
      out[p + 2] = ev.se;
      out[p + 3] = ev.joint;
      p += SAR_EVENT_SIZE;
    }
  });
  return out;
}
