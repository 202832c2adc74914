/**
 * How an FBX file starts (docs/formats.md): enough to tell one apart without loading the FBX reader and
 * its inflate library (importMotion checks every imported file with it; the reader loads only for an FBX).
 */
import { decodeUtf8 } from '../gltf/glb';

export const BINARY_MAGIC = 'Kaydara FBX Binary  \0';

/** True when the bytes start with `magic` (Latin-1 characters). */
export function startsWith(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

/** True when the bytes start like a binary FBX, or like an ASCII one (a `; FBX` comment or an FBXHeaderExtension). */
export function isFbx(bytes: Uint8Array): boolean {
  if (startsWith(bytes, BINARY_MAGIC)) return true;
  const head = decodeUtf8(bytes.subarray(0, 256));
  return /^\uFEFF?\s*;\s*FBX\b/.test(head) || /^\uFEFF?\s*FBXHeaderExtension\s*:/.test(head);
}
