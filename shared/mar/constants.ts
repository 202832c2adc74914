/** MAR constants (docs/formats.md 3). Assigned values never change. */

/** The bytes "MARa" read as a little-endian u32. */
export const MAR_MAGIC = 0x6152414d;
export const MAR_HDR_MAGIC = 0;
export const MAR_HDR_MAX_JOINT = 4;
export const MAR_HDR_NUM_MOTION = 8;
export const MAR_HDR_DATA_BASE = 12;
/** Fixed header size; the table follows. */
export const MAR_HEADER_SIZE = 16;
/** One table entry: u32 offset (relative to dataBase), u32 size. */
export const MAR_TABLE_ENTRY = 8;
/** dataBase and every entry offset are multiples of this. */
export const MAR_ALIGN = 16;

export function align16(n: number): number {
  return Math.ceil(n / MAR_ALIGN) * MAR_ALIGN;
}

/** dataBase our writer uses for M motions: header + table rounded up to 16. */
export function marDataBase(numMotion: number): number {
  return align16(MAR_HEADER_SIZE + MAR_TABLE_ENTRY * numMotion);
}
