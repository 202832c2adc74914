import { bidiWarnings } from '../bidiText';
import { ProblemList, quoteInput } from '../errors';
import { SE_CODE_MAX, SE_CODE_NONE, type SeTableEntry, type SeTableReadResult } from './types';

/** Longest se_define.h read (characters), and most #define lines: past either the file is refused at its place (docs/limits.md). */
export const SE_DEFINE_MAX_CHARS = 8 * 1024 * 1024;
export const SE_DEFINE_MAX_DEFINES = 65536;

/**
 * Reads `se_define.h`, the non-resident-SE table (docs/formats.md 5): every
 * `#define NAME VALUE` whose value is an integer constant expression is an
 * entry. Values may use decimal, hex and octal literals with u/l suffixes,
 * parentheses, unary `+ - ~`, `* / % + - << >> & ^ |` with C precedence, and
 * names defined earlier in the same file. Comments, include guards and other
 * directives are skipped; a define that is not an integer expression (or not
 * a u16 code) is skipped with a warning naming its line; a name redefined
 * with another value is an error naming both lines.
 */
export function parseSeDefine(text: string, file = 'se_define.h'): SeTableReadResult {
  const result: SeTableReadResult = { file, entries: [], rejected: [], errors: [], warnings: [] };
  const warnings = new ProblemList('SE_DEFINE', file);
  const errors = new ProblemList('SE_DEFINE', file);
  const warn = (line: number, column: number, detail: string) => warnings.add(line, column, detail);
  const err = (line: number, column: number, detail: string) => errors.add(line, column, detail);
  if (text.length > SE_DEFINE_MAX_CHARS) {
    err(
      1,
      1,
      `the file is ${text.length} characters long; an se_define.h is read up to ${SE_DEFINE_MAX_CHARS} (a table of every u16 code is about 2 MB)`,
    );
    result.errors = errors.done('errors');
    return result;
  }
  let defines = 0;

  const { code, unterminated } = blankComments(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (unterminated) err(unterminated.line, unterminated.column, 'unterminated /* comment');

  /** Every name whose value is known (entries and non-u16 integers), for later expressions. */
  const values = new Map<string, { value: bigint; line: number }>();
  let guardCandidate: string | undefined;

  for (const logical of logicalLines(code)) {
    const { text: l, line, columnOf } = logical;
    if (!l.trim()) continue;
    const d = /^([ \t]*)#[ \t]*([A-Za-z_]*)/.exec(l);
    if (!d) {
      const col = l.search(/\S/);
      warn(line, columnOf(col), `skipped a line that is not a preprocessor directive: \`${l.trim().slice(0, 40)}\``);
      continue;
    }
    const directive = d[2];
    if (directive === 'ifndef') {
      guardCandidate = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)/.exec(l.slice(d[0].length))?.[1];
      continue;
    }
    if (directive !== 'define') {
      // #include, #endif, #if, #pragma, #undef ...: the table only holds #define entries.
      if (directive === 'undef')
        warn(line, columnOf(d[1].length), '#undef is ignored: names keep the value they were first defined with');
      continue;
    }
    if (++defines > SE_DEFINE_MAX_DEFINES) {
      err(
        line,
        columnOf(d[1].length),
        `more than ${SE_DEFINE_MAX_DEFINES} #define lines; an SE table holds at most ${SE_CODE_MAX + 1} codes, so the rest of the file is not read`,
      );
      break;
    }
    const afterDefine = l.slice(d[0].length);
    const nm = /^[ \t]+([A-Za-z_][A-Za-z0-9_]*)(\(?)/.exec(afterDefine);
    if (!nm) {
      err(line, columnOf(d[0].length), '#define needs a name');
      continue;
    }
    const name = nm[1];
    const nameCol = columnOf(d[0].length + nm[0].indexOf(name));
    const wasGuard = guardCandidate === name;
    guardCandidate = undefined;
    if (nm[2]) {
      warn(line, nameCol, `skipped function-like macro ${name}`);
      continue;
    }
    const valueStart = d[0].length + nm[0].length;
    const valueText = l.slice(valueStart);
    if (!valueText.trim()) {
      if (!wasGuard) warn(line, nameCol, `skipped ${name}: it defines no value`);
      continue;
    }
    const evaluated = evaluateIntegerExpression(valueText, values);
    if ('error' in evaluated) {
      warn(
        line,
        columnOf(valueStart + evaluated.at),
        `skipped ${name}: not an integer constant expression (${evaluated.error})`,
      );
      result.rejected.push({
        name,
        place: { file, line, column: nameCol },
        reason: `not an integer constant expression (${evaluated.error})`,
      });
      continue;
    }
    const value = evaluated.value;
    const prev = values.get(name);
    if (prev) {
      if (prev.value !== value)
        err(line, nameCol, `${name} is redefined as ${value}; it was ${prev.value} at ${file}:${prev.line}`);
      continue;
    }
    values.set(name, { value, line });
    if (value < 0n || value > BigInt(SE_CODE_MAX)) {
      const reason =
        value === BigInt(SE_CODE_NONE)
          ? 'its value 0xFFFF means "no SE" in a SAR'
          : `its value ${value} is not a u16 SE code`;
      warn(line, nameCol, `${name} is not an SE entry: ${reason}`);
      result.rejected.push({ name, place: { file, line, column: nameCol }, reason });
      continue;
    }
    const entry: SeTableEntry = { name, code: Number(value), place: { file, line, column: nameCol } };
    result.entries.push(entry);
  }
  result.errors = errors.done('errors');
  result.warnings = [...warnings.done('warnings'), ...bidiWarnings(text, 'SE_DEFINE', file)];
  return result;
}

/** Characters where blankComments stops copying text through: a comment or literal may start, or a line ends. */
const COMMENT_OR_QUOTE_OR_NEWLINE = new Set(['/', '"', "'", '\n']);

/**
 * Replaces comments with spaces (newlines kept) so lines and columns stay
 * where they were; string and character literals are left alone so a `//`
 * inside quotes is not a comment.
 */
function blankComments(text: string): { code: string; unterminated?: { line: number; column: number } } {
  const out: string[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      // To the end of the line; a backslash-newline splices the next line into the comment (C joins lines
      // before it finds comments), so that line is blanked too. Newlines stay, so line numbers do.
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') {
        if (text[i] === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
          out.push(' ');
          i++;
          if (text[i] === '\r' && text[i + 1] === '\n') {
            out.push('\r');
            i++;
          }
          out.push(text[i]);
          if (text[i] === '\n') {
            line++;
            lineStart = i + 1;
          }
          i++;
          continue;
        }
        out.push(' ');
        i++;
      }
      continue;
    }
    if (c === '/' && n === '*') {
      const startLine = line;
      const startCol = i - lineStart + 1;
      out.push('  ');
      i += 2;
      let closed = false;
      while (i < text.length) {
        if (text[i] === '*' && text[i + 1] === '/') {
          out.push('  ');
          i += 2;
          closed = true;
          break;
        }
        // A comment is one space in C, so a directive goes on after one that spans lines: its line breaks become
        // backslash-newlines (joined by logicalLines), keeping line numbers and columns.
        if (text[i] === '\n' || text[i] === '\r') {
          out.push('\\');
          if (text[i] === '\r' && text[i + 1] === '\n') {
            out.push('\r');
            i++;
          }
          out.push(text[i]);
          if (text[i] === '\n') {
            line++;
            lineStart = i + 1;
          }
        } else out.push(' ');
        i++;
      }
      if (!closed) return { code: out.join(''), unterminated: { line: startLine, column: startCol } };
      continue;
    }
    if (c === '"' || c === "'") {
      out.push(c);
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\' && i + 1 < text.length && text[i + 1] !== '\n') {
          out.push(text[i], text[i + 1]);
          i += 2;
          continue;
        }
        out.push(text[i]);
        i++;
      }
      if (text[i] === c) {
        out.push(c);
        i++;
      }
      continue;
    }
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      out.push(c);
      i++;
      continue;
    }
    // A run of plain text in one piece: one array element per character cost 1.8 GB on a 23 MB file.
    let j = i + 1;
    while (j < text.length && !COMMENT_OR_QUOTE_OR_NEWLINE.has(text[j])) j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return { code: out.join('') };
}

interface LogicalLine {
  text: string;
  /** Line number of its first physical line. */
  line: number;
  /** Maps an index in `text` to the column on the first physical line (continued parts map to their own column). */
  columnOf(index: number): number;
}

/**
 * Physical lines joined across backslash-newline, as the C preprocessor does
 * first. Linear in the file size: each physical line is looked at once, and
 * the joined text is built from its parts at the end.
 */
function logicalLines(code: string): LogicalLine[] {
  const physical = code.split(/\r\n|\n|\r/);
  const out: LogicalLine[] = [];
  /** Index of the backslash that continues this line (only spaces or tabs after it), or -1. */
  const continuation = (line: string): number => {
    let e = line.length - 1;
    while (e >= 0 && (line[e] === ' ' || line[e] === '\t')) e--;
    return e >= 0 && line[e] === '\\' ? e : -1;
  };
  for (let k = 0; k < physical.length; k++) {
    let first = k;
    const parts: string[] = [];
    const starts: number[] = [0];
    let length = 0;
    let line = physical[k];
    for (let cut = continuation(line); cut >= 0 && k + 1 < physical.length; cut = continuation(line)) {
      if (length === 0 && !line.slice(0, cut).trim()) {
        // Nothing but blanks so far (a comment that spans lines, blanked): the logical line starts on the next
        // physical line, where its first character is, as a C compiler reports it.
        line = physical[++k];
        first = k;
        continue;
      }
      parts.push(line.slice(0, cut), ' ');
      length += cut + 1;
      starts.push(length);
      line = physical[++k];
    }
    parts.push(line);
    out.push({
      text: parts.join(''),
      line: first + 1,
      columnOf: (index: number) => {
        // The last part that starts at or before index (binary search: a line may have thousands of parts).
        let lo = 0,
          hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (starts[mid] <= index) lo = mid;
          else hi = mid - 1;
        }
        return lo === 0 ? index + 1 : index - starts[lo] + 1;
      },
    });
  }
  return out;
}

type Evaluated = { value: bigint } | { error: string; at: number };

interface ExprToken {
  kind: 'num' | 'name' | 'op' | 'end';
  text: string;
  at: number;
  value?: bigint;
}

const INTEGER_LITERAL =
  /(?:0[xX]([0-9a-fA-F]+)|0([0-7]*)|([1-9][0-9]*))(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?(?![A-Za-z0-9_.])/y;
const BAD_LITERAL = /[0-9A-Za-z_.]+/y;
const SPACES = /[ \t]+/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPERATOR = /<<|>>|[-+*/%&|^~()]/y;

/** Matches a sticky regex at `at` (no slicing: the tokenizer stays linear on long values). */
function matchAt(re: RegExp, src: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(src);
}

function tokenizeExpression(src: string): ExprToken[] | { error: string; at: number } {
  const tokens: ExprToken[] = [];
  let i = 0;
  while (i < src.length) {
    const ws = matchAt(SPACES, src, i);
    if (ws) {
      i += ws[0].length;
      continue;
    }
    const c = src.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      const m = matchAt(INTEGER_LITERAL, src, i);
      if (!m) return { error: `\`${matchAt(BAD_LITERAL, src, i)![0].slice(0, 40)}\` is not an integer literal`, at: i };
      const value =
        m[1] !== undefined
          ? BigInt(`0x${m[1]}`)
          : m[2] !== undefined
            ? m[2]
              ? BigInt(`0o${m[2]}`)
              : 0n
            : BigInt(m[3]);
      tokens.push({ kind: 'num', text: m[0], at: i, value });
      i += m[0].length;
      continue;
    }
    const id = matchAt(IDENTIFIER, src, i);
    if (id) {
      tokens.push({ kind: 'name', text: id[0], at: i });
      i += id[0].length;
      continue;
    }
    const op = matchAt(OPERATOR, src, i);
    if (op) {
      tokens.push({ kind: 'op', text: op[0], at: i });
      i += op[0].length;
      continue;
    }
    return { error: `unexpected \`${String.fromCodePoint(src.codePointAt(i)!)}\``, at: i };
  }
  tokens.push({ kind: 'end', text: '', at: src.length });
  return tokens;
}

/** Binary operators by C precedence, loosest first. */
const LEVELS: string[][] = [['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

/** Deepest nesting of parentheses and unary operators in one value. */
export const SE_DEFINE_MAX_DEPTH = 64;
/** Largest magnitude an intermediate value may reach: C's widest integer is 64 bits. */
const MAGNITUDE_LIMIT = 1n << 64n;

/**
 * How the evaluator stops at an error (caught in evaluateIntegerExpression). Declared once here, not in the function:
 * a class declared per call cost V8 a new constructor and prototype for each #define, whose collection grew faster
 * than the file (64,000 defines x14.3 the time of 8,000; docs/testing.md, round 5).
 */
class Stop {
  constructor(
    readonly error: string,
    readonly at: number,
  ) {}
}

/**
 * Evaluates a C integer constant expression exactly (BigInt, so nothing
 * overflows silently). Names resolve through `names` (defines earlier in the file).
 * Bounded work: nesting deeper than SE_DEFINE_MAX_DEPTH and any intermediate
 * value beyond 64 bits stop the evaluation with an error (repeated squaring
 * would otherwise grow numbers to megabytes).
 */
export function evaluateIntegerExpression(src: string, names: ReadonlyMap<string, { value: bigint }>): Evaluated {
  const toks = tokenizeExpression(src);
  if (!Array.isArray(toks)) return toks;
  let p = 0;
  const peek = () => toks[p];
  const describe = (t: ExprToken) => (t.kind === 'end' ? 'the end of the value' : quoteInput(t.text));

  let depth = 0;
  const bounded = (v: bigint, at: number): bigint => {
    if (v >= MAGNITUDE_LIMIT || v <= -MAGNITUDE_LIMIT) throw new Stop('the value does not fit in 64 bits', at);
    return v;
  };
  const primary = (): bigint => {
    const t = toks[p++];
    if (t.kind === 'op' && (t.text === '(' || t.text === '-' || t.text === '+' || t.text === '~')) {
      if (++depth > SE_DEFINE_MAX_DEPTH)
        throw new Stop(
          `nested too deeply (more than ${SE_DEFINE_MAX_DEPTH} levels of parentheses or unary operators)`,
          t.at,
        );
      try {
        return nested(t);
      } finally {
        depth--;
      }
    }
    if (t.kind === 'num') return bounded(t.value!, t.at);
    if (t.kind === 'name') {
      const v = names.get(t.text);
      if (!v) throw new Stop(`${t.text} is not an integer defined earlier in this file`, t.at);
      return v.value;
    }
    throw new Stop(`expected a number, a name or \`(\`, found ${describe(t)}`, t.at);
  };
  /** `( expr )` or a unary operator applied to a primary. */
  const nested = (t: ExprToken): bigint => {
    if (t.text === '(') {
      const v = binary(0);
      const close = toks[p++];
      if (close.text !== ')' || close.kind !== 'op')
        throw new Stop(`expected \`)\`, found ${describe(close)}`, close.at);
      return v;
    }
    const v = primary();
    return t.text === '-' ? -v : t.text === '~' ? ~v : v;
  };
  const binary = (level: number): bigint => {
    if (level === LEVELS.length) return primary();
    let left = binary(level + 1);
    for (;;) {
      const t = peek();
      if (t.kind !== 'op' || !LEVELS[level].includes(t.text)) return left;
      p++;
      const right = binary(level + 1);
      switch (t.text) {
        case '|':
          left |= right;
          break;
        case '^':
          left ^= right;
          break;
        case '&':
          left &= right;
          break;
        case '<<':
        case '>>':
          if (right < 0n || right > 63n) throw new Stop(`shift count ${right} is outside 0..63`, t.at);
          left = t.text === '<<' ? left << right : left >> right;
          break;
        case '+':
          left += right;
          break;
        case '-':
          left -= right;
          break;
        case '*':
          left *= right;
          break;
        case '/':
        case '%':
          if (right === 0n) throw new Stop('division by zero', t.at);
          left = t.text === '/' ? left / right : left % right;
          break;
      }
      left = bounded(left, t.at);
    }
  };
  try {
    const value = binary(0);
    const t = peek();
    if (t.kind !== 'end') return { error: `unexpected ${describe(t)}`, at: t.at };
    return { value };
  } catch (e) {
    if (e instanceof Stop) return { error: e.error, at: e.at };
    throw e;
  }
}
