import { ProblemList, type FileKind, type FormatError } from './errors';

/** The bidirectional formatting characters (errors.ts's BIDI_CONTROL), every one, for a scan. */
const BIDI_ALL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The Unicode names of the bidirectional formatting characters, for a message a person can act on. */
const BIDI_NAMES: Record<string, string> = {
  '\u061c': 'ARABIC LETTER MARK',
  '\u200e': 'LEFT-TO-RIGHT MARK',
  '\u200f': 'RIGHT-TO-LEFT MARK',
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/**
 * A warning at every line of `text` that holds a bidirectional formatting character, placed at the first one (line and
 * column from 1; the column counts UTF-16 units, as the text readers' columns do; lines end at LF, CRLF or a lone CR,
 * after a leading BOM, as `splitLines` reads them). Such a character in a comment, or in a string a reader passes over,
 * changes how an editor, a diff or a code review displays the rest of its line ("Trojan Source", CVE-2021-42574): an
 * `event 12 0 -` can show as commented out, a comment as an event, a code's digits reversed, while ActGuy reads the
 * characters as they are. The text stays valid (these are warnings); at most MAX_LISTED_PROBLEMS lines are listed.
 * docs/security.md, round 12.
 */
export function bidiWarnings(text: string, kind: FileKind, file?: string): FormatError[] {
  const problems = new ProblemList(kind, file);
  // Cheap for the usual file: one search over the text, no line split unless a character is there.
  BIDI_ALL.lastIndex = 0;
  if (!BIDI_ALL.test(text)) return [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r\n|\n|\r/);
  lines.forEach((lineText, k) => {
    BIDI_ALL.lastIndex = 0;
    const first = BIDI_ALL.exec(lineText);
    if (!first) return;
    let more = 0;
    while (BIDI_ALL.exec(lineText)) more++;
    const c = first[0];
    const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    problems.add(
      k + 1,
      first.index + 1,
      `a bidirectional formatting character, ${code} ${BIDI_NAMES[c]}${more ? ` (and ${more} more on this line)` : ''}: other editors, diffs and reviews show the rest of this line reordered, so it may read otherwise than ActGuy reads it; remove it`,
    );
  });
  return problems.done('warnings');
}
