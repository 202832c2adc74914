/**
 * Nesting depth of JSON-like text, measured in one linear pass before the
 * text is parsed: readers that walk a parsed tree recursively (or hand it to
 * a library that does, such as JSON.stringify) would overflow the stack on a
 * few kilobytes of `[[[[...`. Brackets inside strings do not count.
 */

/** The deepest nesting a project file or glTF may have: real files stay below 20. */
export const MAX_JSON_DEPTH = 128;

/** Where the text first nests deeper than `maxDepth`: offset, 1-based line and column; undefined when it does not. */
export function findExcessiveNesting(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
): { offset: number; line: number; column: number } | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      else if (c === 0x0a) {
        line++;
        lineStart = i + 1;
      }
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return { offset: i, line, column: i - lineStart + 1 };
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/** The message for it, in the words every reader uses. */
export const nestedTooDeeply = (maxDepth = MAX_JSON_DEPTH) =>
  `nested too deeply (more than ${maxDepth} levels of [ ] or { })`;
