import { motionNameProblem } from './motionName';

/**
 * GV_StrCode: the 24-bit name hash MGS2 stores instead of motion names
 * (docs/formats.md 2.6). For each byte c: id = ((id >> 19) | (id << 5)) + c, masked
 * to 24 bits; a final 0 becomes 1.
 */
export function gvStrCodeBytes(bytes: ArrayLike<number>): number {
  let id = 0;
  for (let i = 0; i < bytes.length; i++) id = (((id >>> 19) | (id << 5)) + (bytes[i] & 0xff)) & 0xffffff;
  return id === 0 ? 1 : id;
}

/**
 * GV_StrCode of a motion name. The hash is defined on bytes, so only names
 * that follow the motion-name rule (ASCII) are hashed; anything else throws
 * rather than hashing something the game would never see (callers check names
 * with motionNameProblem first and report the problem in their own words).
 */
export function gvStrCode(name: string): number {
  const problem = motionNameProblem(name);
  if (problem) throw new RangeError(`cannot hash: ${problem}`);
  const bytes = new Array<number>(name.length);
  for (let i = 0; i < name.length; i++) bytes[i] = name.charCodeAt(i);
  return gvStrCodeBytes(bytes);
}

/** Formats a name hash the way tools print unknown names: `0x1a2b3c`. */
export function formatStrCode(code: number): string {
  return `0x${code.toString(16).padStart(6, '0')}`;
}
