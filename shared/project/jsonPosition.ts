/**
 * Finds where JSON text first goes wrong, as a character offset, and what was
 * expected there. JSON.parse's messages differ between engines and some give
 * no position at all; a project-file error must still point at a line and column.
 */
import { findExcessiveNesting, nestedTooDeeply } from '../json/nesting';
import { lineColumnAt } from '../json/lineColumn';

export function findJsonSyntaxError(text: string): { offset: number; expected: string } | undefined {
  let i = 0;
  class Bad {
    constructor(
      readonly offset: number,
      readonly expected: string,
    ) {}
  }
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const expect = (what: string): never => {
    throw new Bad(i, what);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') expect('a "quoted" key');
        string();
        ws();
        if (text[i] !== ':') expect('`:` after the key');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        expect('`,` or `}`');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        expect('`,` or `]`');
      }
    }
    if (c === '"') return string();
    const lit = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/.exec(
      text.slice(i, i + 400),
    );
    if (lit && lit[0]) {
      i += lit[0].length;
      return;
    }
    expect('a value (object, array, string, number, true, false or null)');
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) expect('a closing `"` (strings cannot span lines)');
      if (text[i] === '\\') {
        const esc = /^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(text.slice(i, i + 6));
        if (!esc) expect('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
        i += esc![0].length;
      } else i++;
    }
    if (i >= text.length) expect('a closing `"`');
    i++;
  };
  try {
    value();
    ws();
    if (i < text.length) expect('the end of the file');
    return undefined;
  } catch (e) {
    if (e instanceof Bad) return { offset: e.offset, expected: e.expected };
    throw e;
  }
}

/**
 * Where text that JSON.parse refused goes wrong, in words for a message: `at line L, column C: expected X`, or where
 * it nests too deeply (checked first: findJsonSyntaxError recurses once per level). For the files ActGuy keeps for
 * itself, whose readers once said only "not JSON" (docs/testing.md, the user-profile fuzz targets).
 */
export function jsonSyntaxPlace(text: string): string {
  const deep = findExcessiveNesting(text);
  if (deep) return `at line ${deep.line}, column ${deep.column}: ${nestedTooDeeply()}`;
  const at = findJsonSyntaxError(text);
  const { line, column } = at ? lineColumnAt(text, at.offset) : { line: 1, column: 1 };
  return `at line ${line}, column ${column}${at ? `: expected ${at.expected}` : ''}`;
}

/**
 * The object a file ActGuy keeps for itself holds (the window state, the last folder), or why it holds none: `not
 * JSON at line L, column C: …` (not the engine's message, which quotes the text and some engines give no place),
 * or `not an object` (an array, a string, null).
 */
export function parseJsonObject(text: string): { object: Record<string, unknown> } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: `not JSON ${jsonSyntaxPlace(text)}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { problem: 'not an object' };
  return { object: v as Record<string, unknown> };
}
