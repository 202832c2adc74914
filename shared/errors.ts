/**
 * The one error type every reader, parser and validator throws for bad input.
 * It carries what a user needs to find the problem: the file kind, the file
 * (when known), and a place (byte offset, section/frame/joint, or line:column).
 */
export type FileKind =
  'MTN' | 'MT3' | 'MAR' | 'SEV' | 'SLS' | 'SE_DEFINE' | 'SAR' | 'PROJECT' | 'BVH' | 'GLTF' | 'FBX' | 'MSH' | 'TUNING';

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
    // A detail may name a file as a project's key spells it (`cannot read ${path}: …`), and a key may hold a
    // zero-width space or a soft hyphen (round 11 refuses control and bidi characters only): shown as `\uXXXX` here,
    // for every message made, its own line breaks and tabs kept (docs/security.md, round 53).
    detail = escapeControlsKeepingLines(clipDetail(detail));
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
    // The file's path is shown escaped too: a folder a received archive made may hold a line break or an ESC.
    const head = file !== undefined ? escapeControls(file) : kind;
    if (place.line !== undefined) return `${head}:${place.line}:${place.column ?? 1}: ${detail}`;
    const parts: string[] = [];
    // A place may hold a key or name from the file: its control characters are escaped as quoted input's are.
    // It may hold a key of any length too (a joint name 5 MB long as an override's key): cut as a path is.
    if (place.where) parts.push(clipMiddle(escapeControls(place.where), PLACE_MAX));
    if (place.offset !== undefined) parts.push(`offset ${place.offset}`);
    const at = parts.length ? ` (${parts.join(', ')})` : '';
    return `${head}${file ? ` [${kind}]` : ''}${at}: ${detail}`;
  }
}

/** The longest message detail, in characters (docs/limits.md): a message is a line a person reads. */
export const DETAIL_MAX = 1000;
/** The longest place (`where`) of a message, in characters: a key path through a file, as paths are cut. */
export const PLACE_MAX = 300;

/**
 * `detail` when it is at most DETAIL_MAX characters, else its start and end with the cut counted. A message quotes
 * input through quoteInput, which clips; this bounds the rest, such as a name or number from the file that the
 * message states as it is (an SE name valid but 20 MB long in `default.sls` made a 20 MB message), and keeps the end,
 * which says what is wrong.
 */
export function clipDetail(detail: string): string {
  return clipMiddle(detail, DETAIL_MAX);
}

/** `text` when it is at most `max` characters, else its first 60 % and last 30 % with the cut counted between. */
function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.floor(max * 0.6);
  let tail = text.length - Math.floor(max * 0.3);
  // Never half a surrogate pair at either cut.
  if (/[\udc00-\udfff]/.test(text[head])) head--;
  if (/[\udc00-\udfff]/.test(text[tail])) tail++;
  return `${text.slice(0, head)}… (${tail - head} characters not shown) …${text.slice(tail)}`;
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

/** How many problems a text reader lists for one file; past that it counts them (a user fixes the first ones first). */
export const MAX_LISTED_PROBLEMS = 100;

/**
 * The line that stands for the problems past the first `limit` (a reader's, a project's, a build's): `how` adds where
 * they all are.
 */
export function notListed(count: number, what: string, limit = MAX_LISTED_PROBLEMS, how?: string): string {
  return `${count} more ${what} not listed (only the first ${limit} are${how ? `; ${how}` : ''})`;
}

/**
 * Collects a text reader's errors or warnings at line:column, keeping the
 * first MAX_LISTED_PROBLEMS and counting the rest, so a mangled file of
 * 100,000 bad lines costs no more than reading it (building each error has a
 * cost of its own) and gives a list a person can read.
 */
export class ProblemList {
  readonly listed: FormatError[] = [];
  private unlisted = 0;
  constructor(
    private readonly kind: FileKind,
    private readonly file: string | undefined,
    private readonly limit = MAX_LISTED_PROBLEMS,
  ) {}

  add(line: number, column: number, detail: string): void {
    if (this.listed.length < this.limit)
      this.listed.push(new FormatError(this.kind, detail, { line, column }, this.file));
    else this.unlisted++;
  }

  /** The listed problems, plus one at the last listed place that says how many more there are. */
  done(what: string): FormatError[] {
    if (this.unlisted) {
      const last = this.listed[this.listed.length - 1].place;
      this.listed.push(
        new FormatError(
          this.kind,
          notListed(this.unlisted, what, this.limit),
          { line: last.line, column: last.column },
          this.file,
        ),
      );
      this.unlisted = 0;
    }
    return this.listed;
  }
}

/** A character as its `\uXXXX` escape. */
function hex4(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Longest piece of a user's file a message quotes, in characters: a 10 MB token must not become a 10 MB message (docs/limits.md). */
export const QUOTED_INPUT_MAX = 40;

/**
 * A piece of input for a message, between `mark`s: control characters escaped (`\u0000`, so a terminal shows
 * them and is not driven by them), at most QUOTED_INPUT_MAX characters, then how long it was.
 */
export function quoteInput(text: string, mark = '`'): string {
  const shown = text.length > QUOTED_INPUT_MAX ? text.slice(0, QUOTED_INPUT_MAX) : text;
  const escaped = escapeControls(shown);
  return text.length > QUOTED_INPUT_MAX
    ? `${mark}${escaped}…${mark} (${text.length} characters)`
    : `${mark}${escaped}${mark}`;
}

/** A JSON value for a message: its JSON text, clipped past `max` as quoteInput clips (JSON already escapes control characters). */
export function quoteJson(value: unknown, max = QUOTED_INPUT_MAX): string {
  // JSON escapes U+0000..U+001F; DEL and the C1 controls (U+009B is a terminal's CSI) are escaped here too, and so
  // are the characters that hide or reorder text (HIDDEN_CHARACTERS).
  // A number past float64 (1e999 in a JSON file reads as Infinity) shows as Infinity, not as JSON's null.
  const json = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  const text = (json ?? String(value)).replace(HIDDEN_CHARACTERS_ALL, hex4);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * The bidirectional formatting characters: marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069). They change the order in which the text after them is displayed, so a name
 * holding one shows as another name: `x\u202Elqs.sev` displays as `xves.lqs`. No file name needs one.
 */
export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * What a message never shows raw: control characters (C0, DEL, C1: a terminal acts on them, a line break forges a
 * line), the bidirectional formatting characters (BIDI_CONTROL), characters that display as nothing (soft hyphen,
 * zero-width space, joiners, word joiner, invisible operators, the BOM, interlinear annotation marks: two names
 * differing only by one look alike) and the line and paragraph separators (U+2028, U+2029: a line break where text
 * is laid out). docs/security.md, round 11.
 */
export const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const HIDDEN_CHARACTERS_ALL = new RegExp(HIDDEN_CHARACTERS.source, 'g');

/**
 * `text` with its control characters (C0, DEL, C1) and the other characters that hide or reorder text
 * (HIDDEN_CHARACTERS) as `\uXXXX` escapes, so a message shows every name as the characters it holds.
 */
export function escapeControls(text: string): string {
  return text.replace(HIDDEN_CHARACTERS_ALL, hex4);
}

/**
 * `text` as escapeControls shows it, its line breaks and tabs aside: for a message that lists problems on lines of
 * their own (a reply's message, a message the page shows). docs/security.md, rounds 51 and 52.
 */
export function escapeControlsKeepingLines(text: string): string {
  return text.replace(/[^\n\t]+/g, escapeControls);
}

/**
 * The `code` of the error a packaged app's refused worker bundle fails with (electron/workerBundles.ts: a file of the
 * installation that is not the one this ActGuy was built with). It survives a worker's error event (Node copies an
 * error's own properties across the thread), so every caller, a thread or two up, tells a damaged installation from
 * a file's problem or a crashed worker, and says it as it is, once (docs/security.md, round 25).
 */
export const BUNDLE_REFUSED = 'ACTGUY_BUNDLE_REFUSED';

/** A refusal as an error this thread throws, or passes on from a worker's error event. */
export function bundleRefusedError(message: string): Error {
  return Object.assign(new Error(message), { code: BUNDLE_REFUSED });
}

/** Whether `e` is a worker bundle's refusal (thrown in this thread, or in a worker it started). */
export function isBundleRefusal(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === BUNDLE_REFUSED;
}
