import { FormatError } from '../errors';
import { formatStrCode } from '../strcode';
import { readMt3Header } from '../mt3/read';
import {
  MAR_HDR_DATA_BASE,
  MAR_HDR_MAGIC,
  MAR_HDR_MAX_JOINT,
  MAR_HDR_NUM_MOTION,
  MAR_HEADER_SIZE,
  MAR_MAGIC,
  MAR_TABLE_ENTRY,
  align16,
  marDataBase,
} from './constants';

/**
 * Packs MT3 files into a MAR (docs/formats.md 3), in the given order (the order is
 * the motion index used by the game and the paired .sar). Each MT3's header is
 * checked; entries are 16-aligned with zero padding, and the file ends on a
 * 16-byte boundary. maxJoint is the largest numJoints. Two entries whose
 * names hash alike are refused, naming both indices.
 */
export function writeMar(mt3Files: Uint8Array[]): Uint8Array {
  const M = mt3Files.length;
  const dataBase = marDataBase(M);
  const offsets: number[] = [];
  const seen = new Map<number, number>();
  let maxJoint = 0;
  let cursor = 0;
  for (let i = 0; i < M; i++) {
    let h;
    try {
      h = readMt3Header(mt3Files[i]);
    } catch (e) {
      if (e instanceof FormatError)
        throw new FormatError('MAR', `entry ${i}: ${e.detail}`, { where: `entry ${i}`, offset: e.place.offset });
      throw e;
    }
    const prev = seen.get(h.name);
    if (prev !== undefined)
      throw new FormatError(
        'MAR',
        `entries ${prev} and ${i} have the same name hash ${formatStrCode(h.name)}; motion names in one archive must hash differently`,
        { where: `entry ${i}` },
      );
    seen.set(h.name, i);
    maxJoint = Math.max(maxJoint, h.numJoints);
    offsets.push(cursor);
    cursor = align16(cursor + mt3Files[i].byteLength);
  }
  const out = new Uint8Array(dataBase + cursor);
  const dv = new DataView(out.buffer);
  dv.setUint32(MAR_HDR_MAGIC, MAR_MAGIC, true);
  dv.setUint32(MAR_HDR_MAX_JOINT, maxJoint, true);
  dv.setUint32(MAR_HDR_NUM_MOTION, M, true);
  dv.setUint32(MAR_HDR_DATA_BASE, dataBase, true);
  for (let i = 0; i < M; i++) {
    dv.setUint32(MAR_HEADER_SIZE + MAR_TABLE_ENTRY * i, offsets[i], true);
    dv.setUint32(MAR_HEADER_SIZE + MAR_TABLE_ENTRY * i + 4, mt3Files[i].byteLength, true);
    out.set(mt3Files[i], dataBase + offsets[i]);
  }
  return out;
}
