import { FormatError, quoteJson } from '../errors';
import { motionNameProblem } from '../motionName';
import { formatStrCode, gvStrCode } from '../strcode';

/** A motion name known for a hash, with the 1-based line it came from. */
export interface KnownName {
  name: string;
  line: number;
}

/**
 * Parses a motion-names file: one name per line, `#` starts a comment (to the
 * end of the line), blank lines ignored, surrounding whitespace trimmed. Names
 * follow the motion-name rule (docs/formats.md 2.6). Returns hash -> name. A name listed twice
 * is harmless; two different names with one GV_StrCode are an error naming
 * both lines (docs/formats.md 2.6), since tools could not tell them apart.
 */
export function parseMotionNames(text: string): Map<number, KnownName> {
  const out = new Map<number, KnownName>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const hash = lines[i].indexOf('#');
    const raw = hash >= 0 ? lines[i].slice(0, hash) : lines[i];
    const name = raw.trim();
    if (name === '') continue;
    const column = raw.indexOf(name) + 1;
    const problem = motionNameProblem(name);
    if (problem) {
      // Point at the first character outside the rule (or the name itself when its length or first character is the problem).
      const bad = /[^A-Za-z0-9_.-]/.exec(name);
      throw new FormatError('MAR', `${problem}; a names file lists one name per line`, {
        line,
        column: column + (bad?.index ?? 0),
      });
    }
    const code = gvStrCode(name);
    const prev = out.get(code);
    if (prev) {
      if (prev.name === name) continue;
      throw new FormatError(
        'MAR',
        `names ${quoteJson(prev.name)} (line ${prev.line}) and ${quoteJson(name)} (line ${line}) have the same hash ${formatStrCode(code)}`,
        { line, column },
      );
    }
    out.set(code, { name, line });
  }
  return out;
}

/** The readable name of a hash: the known name, else `0x<hash>`. */
export function motionNameOf(code: number, names?: Map<number, KnownName>): string {
  return names?.get(code)?.name ?? formatStrCode(code);
}
