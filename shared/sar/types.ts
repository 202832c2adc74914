/**
 * SAR content (docs/formats.md 6): one entry per motion of the paired .mar, in the
 * same order, holding the SE codes per floor attribute and the frame events.
 */

/** One sound event as the game reads it. */
export interface SarEvent {
  /** Motion frame 0..65535. */
  frame: number;
  /** SE index 0..S-1 of this entry. */
  se: number;
  /** Joint 0..254, or SAR_NO_JOINT (0xFF) for none. */
  joint: number;
}

export interface SarEntry {
  /** GV_StrCode of the motion: equal to the name of the MT3 at the same .mar index. */
  name: number;
  /**
   * S x 8 codes, index-major: codes[i*8 + a] is SE index i on floor/wall
   * attribute a. An index the SEV does not define is 0xFFFF x 8. length = 8 S.
   */
  seCodes: Uint16Array;
  /** Events sorted by frame; equal frames keep SEV file order. */
  events: SarEvent[];
}

/** An entry for a motion without a SEV: S = 0, E = 0. */
export function emptySarEntry(name: number): SarEntry {
  return { name, seCodes: new Uint16Array(0), events: [] };
}
