/** MTN v1 constants (docs/formats.md 1). Assigned values never change. */
export const MTN_MAGIC = 0x004e544d; // "MTN\0" read as little-endian u32
export const MTN_VERSION = 1;
export const MTN_HEADER_SIZE = 32;
export const MTN_SKELETON_ENTRY = 16;
export const MTN_NAME_SIZE = 32;
export const MTN_VECTOR = 16;
export const MTN_MAX_FRAMES = 65535;
export const MTN_MAX_JOINTS = 1024;

/** Byte size of an MTN with N frames (N+1 samples) and J joints. */
export function mtnByteSize(frameCount: number, jointCount: number): number {
  const S = frameCount + 1;
  return (
    MTN_HEADER_SIZE +
    jointCount * (MTN_SKELETON_ENTRY + MTN_NAME_SIZE) +
    S * MTN_VECTOR * (1 + 2 * jointCount) + // translation, rotation, offset
    S * MTN_VECTOR * (1 + jointCount) // translation key info, joint key info
  );
}
