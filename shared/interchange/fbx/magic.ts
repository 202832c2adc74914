/**
 * How an FBX file starts (docs/formats.md): enough to tell one apart without loading the FBX reader and
 * its inflate library (importMotion checks every imported file with it; the reader loads only for an FBX).
 */
import type { HeadVerdict } from '../../binarySize';
import { FormatError } from '../../errors';
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

/** FBX versions read: 7.1 (FBX 2011) to 7.7 (FBX 2020), binary or ASCII, as Blender's importer reads them. */
export const FBX_MIN_VERSION = 7100;
export const FBX_MAX_VERSION = 7700;

/** Bytes of a binary FBX header: the magic, 0x1a 0x00, the u32 version. */
export const FBX_HEADER_BYTES = 27;

/** Throws the FBX error for a version ActGuy does not read. */
export function checkVersion(version: number, place: { offset?: number; line?: number; column?: number }): void {
  if (!(version >= FBX_MIN_VERSION && version <= FBX_MAX_VERSION)) {
    const shown = `${Math.floor(version / 1000)}.${Math.floor((version % 1000) / 100)} (FileVersion ${version})`;
    throw new FormatError(
      'FBX',
      `FBX ${shown} is not supported; ActGuy reads FBX 7.1 to 7.7 (FileVersion ${FBX_MIN_VERSION}-${FBX_MAX_VERSION}): export again as FBX 2011 or later (FBX 7.4 is the usual choice)`,
      place,
    );
  }
}

/**
 * The binary FBX header check (shared/binarySize.ts): the magic and the version, from the first 27 bytes. A binary
 * FBX declares no size of its own: any size agrees, up to the import limit. The container reader makes the same
 * checks (container.ts).
 */
export function fbxSizeFromHead(head: Uint8Array, fileSize: number): HeadVerdict {
  if (fileSize < FBX_HEADER_BYTES)
    throw new FormatError(
      'FBX',
      `the file ends after ${fileSize} bytes, inside the ${FBX_HEADER_BYTES}-byte header (truncated)`,
      { offset: fileSize },
    );
  if (head.byteLength < FBX_HEADER_BYTES) return { needHead: FBX_HEADER_BYTES };
  if (!startsWith(head, BINARY_MAGIC))
    throw new FormatError('FBX', 'not a binary FBX: it does not start with "Kaydara FBX Binary"', { offset: 0 });
  checkVersion(new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(23, true), { offset: 23 });
  return { anySize: true };
}
