/**
 * The in-memory SEV v1 document (docs/formats.md 4): the SE definitions and the
 * frame events of one motion, with every statement's place in the file and
 * the comments that annotate it, so an edit-and-save keeps a user's notes on
 * the lines they were written for.
 */

/** Largest SE index (`se <index>`): stored as a u8 in SAR events. */
export const SEV_MAX_SE_INDEX = 255;
/** Largest joint number; 255 (0xFF in SAR) means "no joint" and is written `-`. */
export const SEV_MAX_JOINT = 254;
/** Largest event frame: stored as a u16 in SAR. */
export const SEV_MAX_FRAME = 65535;
/** Floor/wall attributes an SE may vary by (`variants` lists exactly this many names). */
export const SEV_VARIANT_COUNT = 8;
/** The only SEV version this tool reads and writes. */
export const SEV_VERSION = 1;

/** Names in SEV files: `[A-Za-z_][A-Za-z0-9_]*`. */
export const SEV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Where a statement came from: 1-based line, and the 1-based column of each of
 * its tokens (token 0 is the keyword). Absent on statements created by edits.
 */
export interface SevLocation {
  line: number;
  /** Column of every token of the statement, keyword first. */
  columns: number[];
}

/**
 * Comments attached to a statement. `leading` holds the full-line comments
 * directly above it (text after `#`, verbatim); `trailing` the comment at the
 * end of its own line (text after `#`). Blank lines between comments are not kept.
 */
export interface SevComments {
  leading: string[];
  trailing?: string;
}

/** `se <index> <name> [variants <8 names>]`. */
export interface SevSeDefinition {
  /** 0..255, unique within the document. */
  index: number;
  /** Base SE name, played on every attribute when there are no variants. */
  name: string;
  /** Exactly 8 names, one per floor/wall attribute 0..7, or undefined. */
  variants?: string[];
  comments: SevComments;
  loc?: SevLocation;
}

/** `event <frame> <se index> <joint | ->`. */
export interface SevEvent {
  /** Motion frame 0..65535 (and 0..N of the paired motion). */
  frame: number;
  /** An index defined by an `se` statement. */
  se: number;
  /** Joint 0..254, or null for `-` (not attached to a joint). */
  joint: number | null;
  comments: SevComments;
  loc?: SevLocation;
}

/** `motion <name>`: the motion the file belongs to (else the file's base name). */
export interface SevMotionStatement {
  name: string;
  comments: SevComments;
  loc?: SevLocation;
}

export interface SevDocument {
  /** Comments above and on the `sev 1` line. */
  header: SevComments;
  headerLoc?: SevLocation;
  motion?: SevMotionStatement;
  /** SE definitions in file order (the serializer writes them by index). */
  ses: SevSeDefinition[];
  /** Events in file order (the serializer and SAR sort them by frame, stable). */
  events: SevEvent[];
  /** Comment lines after the last statement. */
  trailingComments: string[];
}

/** What a SEV is checked against when its paired motion is known. */
export interface SevMotionShape {
  /** Motion name, for messages. */
  name: string;
  /** N: events must lie in frames 0..N. */
  frameCount: number;
  /** J: event joints must be 0..J-1. */
  jointCount: number;
}

export function emptySevDocument(motionName?: string): SevDocument {
  return {
    header: { leading: [] },
    motion: motionName === undefined ? undefined : { name: motionName, comments: { leading: [] } },
    ses: [],
    events: [],
    trailingComments: [],
  };
}
