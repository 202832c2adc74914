/**
 * GV_StrCode: the 24-bit name hash MGS2 stores instead of motion names
 * (FORMATS.md 2.6). For each byte c: id = ((id >> 19) | (id << 5)) + c, masked
 * to 24 bits; a final 0 becomes 1.
 */
export function gvStrCode(name: string): number {
  let id = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) & 0xff;
    id = (((id >>> 19) | (id << 5)) + c) & 0xffffff;
  }
  return id === 0 ? 1 : id;
}

/** Formats a name hash the way tools print unknown names: `0x1a2b3c`. */
export function formatStrCode(code: number): string {
  return `0x${code.toString(16).padStart(6, '0')}`;
}
