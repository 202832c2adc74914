/** SAR layout constants (docs/formats.md 6). Assigned values never change. */

/** The bytes `SARa` read as a little-endian u32. */
export const SAR_MAGIC = 0x61524153;
export const SAR_HEADER_SIZE = 16;
/** One table entry: u32 offset (relative to dataBase), u32 size. */
export const SAR_TABLE_ENTRY = 8;
/** dataBase and every entry offset are multiples of this. */
export const SAR_ALIGN = 16;
/** Entry payload header: u32 name, u16 S, u16 E. */
export const SAR_ENTRY_HEADER = 8;
/** Per SE index: 8 x u16 codes, one per floor/wall attribute. */
export const SAR_SE_SLOT = 16;
export const SAR_VARIANTS = 8;
/** Per event: u16 frame, u8 se index, u8 joint. */
export const SAR_EVENT_SIZE = 4;
/** Joint byte meaning "not attached to a joint" (`-` in a SEV). */
export const SAR_NO_JOINT = 0xff;
/** Code of an SE slot the SEV does not define. */
export const SAR_NO_CODE = 0xffff;
/** SE indices are u8 in events, so S is at most 256. */
export const SAR_MAX_SE = 256;

export function alignSar(n: number): number {
  return Math.ceil(n / SAR_ALIGN) * SAR_ALIGN;
}

export function sarEntrySize(seCount: number, eventCount: number): number {
  return SAR_ENTRY_HEADER + seCount * SAR_SE_SLOT + eventCount * SAR_EVENT_SIZE;
}
