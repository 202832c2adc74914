/**
 * The one error type every reader, parser and validator throws for bad input.
 * It carries what a user needs to find the problem: the file kind, the file
 * (when known), and a place (byte offset, section/frame/joint, or line:column).
 */
export type FileKind = 'MTN' | 'MT3' | 'MAR' | 'SEV' | 'SLS' | 'SE_DEFINE' | 'SAR' | 'PROJECT' | 'BVH' | 'GLTF';

export interface FormatErrorPlace {
  /** Byte offset from the start of the file, for binary formats. */
  offset?: number;
  /** 1-based line and column, for text formats. */
  line?: number;
  column?: number;
  /** A readable place such as "rotation frame 12 joint 3". */
  where?: string;
}

export class FormatError extends Error {
  readonly kind: FileKind;
  readonly place: FormatErrorPlace;
  /** The message without file or place prefix. */
  readonly detail: string;
  file: string | undefined;

  constructor(kind: FileKind, detail: string, place: FormatErrorPlace = {}, file?: string) {
    super(FormatError.compose(kind, detail, place, file));
    this.name = 'FormatError';
    this.kind = kind;
    this.detail = detail;
    this.place = place;
    this.file = file;
  }

  /** Returns a copy of this error that names the file it came from. */
  withFile(file: string): FormatError {
    return new FormatError(this.kind, this.detail, this.place, file);
  }

  private static compose(kind: FileKind, detail: string, place: FormatErrorPlace, file?: string): string {
    const head = file ?? kind;
    if (place.line !== undefined) return `${head}:${place.line}:${place.column ?? 1}: ${detail}`;
    const parts: string[] = [];
    if (place.where) parts.push(place.where);
    if (place.offset !== undefined) parts.push(`offset ${place.offset}`);
    const at = parts.length ? ` (${parts.join(', ')})` : '';
    return `${head}${file ? ` [${kind}]` : ''}${at}: ${detail}`;
  }
}

/** Adds the file name to a FormatError; rethrows anything else unchanged. */
export function inFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof FormatError) throw e.withFile(file);
    throw e;
  }
}
