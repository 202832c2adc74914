import { FormatError } from '../errors';
import { MSH_KEY_BYTES, MSH_RES19_ATTR3, MSH_RES8_ATTR3 } from './constants';
import type { MshAnimation, MshKey, MshNode } from './types';
import { validateMshAnimation } from './validate';

/** Resource attributes as an NRes directory (or ActGuy's .nodes.json) gives them. */
export interface MshResourceAttributes {
  res8: { attr1: number; attr3: number };
  res19: { attr1: number; attr2: number; attr3: number };
}

/**
 * Reads Res8 and Res19 payloads with their attributes and the nodes, checks
 * sizes against the attributes (Res8 size % 24 == 0, Res19 size even, counts
 * equal to attr1) and every validation rule. Throws FormatError (kind MSH).
 */
export function readMshAnimation(
  res8: Uint8Array,
  res19: Uint8Array,
  attrs: MshResourceAttributes,
  nodes: MshNode[],
): MshAnimation {
  if (res8.byteLength % MSH_KEY_BYTES !== 0)
    throw new FormatError('MSH', `Res8 size ${res8.byteLength} is not a multiple of ${MSH_KEY_BYTES}`, {
      where: 'res8',
    });
  if (res19.byteLength % 2 !== 0)
    throw new FormatError('MSH', `Res19 size ${res19.byteLength} is odd (u16 words)`, { where: 'res19' });
  const K = res8.byteLength / MSH_KEY_BYTES;
  const W = res19.byteLength / 2;
  if (attrs.res8.attr1 !== K)
    throw new FormatError('MSH', `Res8 attr1 (key count) is ${attrs.res8.attr1} but the payload holds ${K} keys`, {
      where: 'res8 attr1',
    });
  if (attrs.res8.attr3 !== MSH_RES8_ATTR3)
    throw new FormatError('MSH', `Res8 attr3 must be ${MSH_RES8_ATTR3}, found ${attrs.res8.attr3}`, {
      where: 'res8 attr3',
    });
  if (attrs.res19.attr1 !== W)
    throw new FormatError('MSH', `Res19 attr1 (word count) is ${attrs.res19.attr1} but the payload holds ${W} words`, {
      where: 'res19 attr1',
    });
  if (attrs.res19.attr3 !== MSH_RES19_ATTR3)
    throw new FormatError('MSH', `Res19 attr3 must be ${MSH_RES19_ATTR3}, found ${attrs.res19.attr3}`, {
      where: 'res19 attr3',
    });
  const v = new DataView(res8.buffer, res8.byteOffset, res8.byteLength);
  const keys: MshKey[] = [];
  for (let i = 0; i < K; i++) {
    const o = i * MSH_KEY_BYTES;
    keys.push({
      position: [v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true)],
      time: v.getFloat32(o + 12, true),
      quatWXYZ: [
        v.getInt16(o + 16, true),
        v.getInt16(o + 18, true),
        v.getInt16(o + 20, true),
        v.getInt16(o + 22, true),
      ],
    });
  }
  const w = new DataView(res19.buffer, res19.byteOffset, res19.byteLength);
  const mapWords = new Uint16Array(W);
  for (let i = 0; i < W; i++) mapWords[i] = w.getUint16(i * 2, true);
  const a: MshAnimation = { keys, mapWords, frameCount: attrs.res19.attr2, nodes };
  validateMshAnimation(a);
  return a;
}
