import { MSH_KEY_BYTES, MSH_RES19_ATTR3, MSH_RES8_ATTR3 } from './constants';
import type { MshAnimation } from './types';
import { validateMshAnimation } from './validate';

/** The two resource payloads with the attributes their NRes entries carry. */
export interface MshResources {
  res8: { bytes: Uint8Array; attr1: number; attr3: number };
  res19: { bytes: Uint8Array; attr1: number; attr2: number; attr3: number };
}

/** Serialises Res8 (24 bytes per key, little-endian) and Res19 (u16 words) after validating. */
export function writeMshResources(a: MshAnimation): MshResources {
  validateMshAnimation(a);
  const res8 = new Uint8Array(a.keys.length * MSH_KEY_BYTES);
  const v = new DataView(res8.buffer);
  a.keys.forEach((k, i) => {
    const o = i * MSH_KEY_BYTES;
    v.setFloat32(o, k.position[0], true); // offset 0: position x, y, z
    v.setFloat32(o + 4, k.position[1], true);
    v.setFloat32(o + 8, k.position[2], true);
    v.setFloat32(o + 12, k.time, true); // offset 12: time in frames
    for (let c = 0; c < 4; c++) v.setInt16(o + 16 + c * 2, k.quatWXYZ[c], true); // offset 16: w, x, y, z
  });
  const res19 = new Uint8Array(a.mapWords.length * 2);
  const w = new DataView(res19.buffer);
  a.mapWords.forEach((word, i) => w.setUint16(i * 2, word, true));
  return {
    res8: { bytes: res8, attr1: a.keys.length, attr3: MSH_RES8_ATTR3 },
    res19: { bytes: res19, attr1: a.mapWords.length, attr2: a.frameCount, attr3: MSH_RES19_ATTR3 },
  };
}
