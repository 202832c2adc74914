import { bidiWarnings } from '../bidiText';
import { ProblemList, quoteInput, type FormatError } from '../errors';
import { motionNameProblem } from '../motionName';
import { splitLines, trimEndBlanks } from './text';
import {
  SEV_MAX_FRAME,
  SEV_MAX_JOINT,
  SEV_MAX_SE_INDEX,
  SEV_NAME_PATTERN,
  SEV_VARIANT_COUNT,
  SEV_VERSION,
  type SevComments,
  type SevDocument,
  type SevEvent,
  type SevLocation,
  type SevSeDefinition,
} from './types';

/** The outcome of parsing a SEV: the statements that parsed, and every error in the file. */
export interface SevParseResult {
  /** The document built from every statement that had no error. */
  doc: SevDocument;
  /** All errors, ordered by line then column; empty when the file is clean. */
  errors: FormatError[];
  /**
   * What the file allows but hides from a reader: a bidirectional formatting character (most likely in a comment,
   * where nothing else checks it), located (bidiWarnings, docs/security.md round 12). A name holding one is an error.
   */
  warnings: FormatError[];
}

interface Token {
  text: string;
  /** 1-based column of the token's first character. */
  column: number;
}

/** Splits the code part of a line (before `#`) into tokens separated by spaces or tabs. */
function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  const re = /[^ \t]+/g;
  for (let m = re.exec(code); m; m = re.exec(code)) tokens.push({ text: m[0], column: m.index + 1 });
  return tokens;
}

/** Comment text after `#`, without trailing whitespace (the serializer writes `#` + this). */
function commentText(raw: string): string {
  return trimEndBlanks(raw);
}

/**
 * Parses SEV v1 text (docs/formats.md 4). Never throws for content errors: every
 * problem in the file is collected with its line and column, so a user fixes
 * them all in one pass. `file` names the file in messages (`walk.sev:12:7: ...`).
 */
export function parseSev(text: string, file?: string): SevParseResult {
  const problems = new ProblemList('SEV', file);
  const err = (line: number, column: number, detail: string) => problems.add(line, column, detail);
  const doc: SevDocument = { header: { leading: [] }, ses: [], events: [], trailingComments: [] };

  let pending: string[] = [];
  let statements = 0;
  let sevLine = 0;
  let motionLine = 0;
  /** Index -> line of its first `se` statement, including ones with other errors (no double reports). */
  const seLines = new Map<number, number>();
  /** Events whose SE index is checked once every `se` line is known (definitions may follow events). */
  const eventRefs: { se: number; line: number; column: number }[] = [];

  for (const { text: lineText, line } of splitLines(text)) {
    const hash = lineText.indexOf('#');
    const code = hash >= 0 ? lineText.slice(0, hash) : lineText;
    const comment = hash >= 0 ? commentText(lineText.slice(hash + 1)) : undefined;
    const tokens = tokenize(code);
    if (tokens.length === 0) {
      if (comment !== undefined) pending.push(comment);
      continue;
    }
    const comments: SevComments = { leading: pending };
    if (comment !== undefined) comments.trailing = comment;
    pending = [];
    const loc: SevLocation = { line, columns: tokens.map((t) => t.column) };
    const [kw, ...args] = tokens;
    const first = statements === 0;
    // Stryker disable next-line UpdateOperator: only `statements === 0` is ever asked, and ++ and -- both leave it non-zero after the first statement
    statements++;

    if (first && kw.text !== 'sev') {
      err(line, kw.column, `the first statement must be \`sev ${SEV_VERSION}\`, found ${quoteInput(kw.text)}`);
    }

    /** Reports surplus tokens after `n` arguments; true when the count is right. */
    const arity = (n: number, shape: string): boolean => {
      if (args.length < n) {
        const at = args.length
          ? args[args.length - 1].column + args[args.length - 1].text.length
          : kw.column + kw.text.length;
        err(
          line,
          at,
          `${quoteInput(kw.text)} needs ${n} argument${n === 1 ? '' : 's'} (${shape}), found ${args.length}`,
        );
        return false;
      }
      if (args.length > n) {
        err(line, args[n].column, `unexpected ${quoteInput(args[n].text)} after \`${shape}\``);
        return false;
      }
      return true;
    };
    const int = (t: Token, what: string, max: number): number | undefined => {
      if (!/^[0-9]+$/.test(t.text) || Number(t.text) > max) {
        err(line, t.column, `${what} must be an integer 0..${max}, found ${quoteInput(t.text)}`);
        return undefined;
      }
      return Number(t.text);
    };
    const name = (t: Token, what: string): string | undefined => {
      if (!SEV_NAME_PATTERN.test(t.text)) {
        err(line, t.column, `invalid ${what} ${quoteInput(t.text)}: names match [A-Za-z_][A-Za-z0-9_]*`);
        return undefined;
      }
      return t.text;
    };

    switch (kw.text) {
      case 'sev': {
        if (!first) {
          err(
            line,
            kw.column,
            sevLine ? `\`sev\` given twice (first at line ${sevLine})` : '`sev` must be the first statement',
          );
          break;
        }
        sevLine = line;
        doc.header = comments;
        doc.headerLoc = loc;
        if (!arity(1, 'sev <version>')) break;
        if (args[0].text !== String(SEV_VERSION))
          err(
            line,
            args[0].column,
            `unsupported SEV version ${quoteInput(args[0].text)} (this tool reads version ${SEV_VERSION})`,
          );
        break;
      }
      case 'motion': {
        if (motionLine) {
          err(line, kw.column, `\`motion\` given twice (first at line ${motionLine})`);
          break;
        }
        motionLine = line;
        if (!arity(1, 'motion <name>')) break;
        // A motion name follows the motion-name rule (docs/formats.md 2.6), not the SE-name rule: `motion 131_01` pairs with 131_01.mtn.
        const problem = motionNameProblem(args[0].text);
        if (problem) err(line, args[0].column, problem);
        else doc.motion = { name: args[0].text, comments, loc };
        break;
      }
      case 'se': {
        if (args.length < 2) {
          arity(2, 'se <index> <name>');
          if (args.length === 1 && /^[0-9]+$/.test(args[0].text))
            seLines.set(Number(args[0].text), seLines.get(Number(args[0].text)) ?? line);
          break;
        }
        const index = int(args[0], 'SE index', SEV_MAX_SE_INDEX);
        let ok = index !== undefined;
        if (index !== undefined) {
          const prev = seLines.get(index);
          if (prev !== undefined) {
            err(line, args[0].column, `SE index ${index} defined twice (first at line ${prev})`);
            ok = false;
          } else seLines.set(index, line);
        }
        const base = name(args[1], 'SE name');
        if (base === undefined) ok = false;
        let variants: string[] | undefined;
        if (args.length > 2) {
          if (args[2].text !== 'variants') {
            err(
              line,
              args[2].column,
              `expected \`variants\` or the end of the line after the SE name, found ${quoteInput(args[2].text)}`,
            );
            ok = false;
          } else {
            const names = args.slice(3);
            if (names.length !== SEV_VARIANT_COUNT) {
              const at = names.length > SEV_VARIANT_COUNT ? names[SEV_VARIANT_COUNT].column : args[2].column;
              err(
                line,
                at,
                `\`variants\` needs exactly ${SEV_VARIANT_COUNT} names (one per floor/wall attribute 0..7), found ${names.length}`,
              );
              ok = false;
            }
            variants = [];
            for (const t of names) {
              const v = name(t, 'variant SE name');
              if (v === undefined) ok = false;
              else variants.push(v);
            }
          }
        }
        if (ok) {
          const def: SevSeDefinition = { index: index!, name: base!, comments, loc };
          if (variants) def.variants = variants;
          doc.ses.push(def);
        }
        break;
      }
      case 'event': {
        if (!arity(3, 'event <frame> <se index> <joint | ->')) break;
        const frame = int(args[0], 'event frame', SEV_MAX_FRAME);
        const se = int(args[1], 'SE index', SEV_MAX_SE_INDEX);
        let joint: number | null | undefined = null;
        if (args[2].text !== '-') {
          joint =
            /^[0-9]+$/.test(args[2].text) && Number(args[2].text) <= SEV_MAX_JOINT ? Number(args[2].text) : undefined;
          if (joint === undefined)
            err(
              line,
              args[2].column,
              `joint must be an integer 0..${SEV_MAX_JOINT} or \`-\` (no joint), found ${quoteInput(args[2].text)}`,
            );
        }
        if (se !== undefined) eventRefs.push({ se, line, column: args[1].column });
        if (frame === undefined || se === undefined || joint === undefined) break;
        const ev: SevEvent = { frame, se, joint, comments, loc };
        doc.events.push(ev);
        break;
      }
      default:
        err(line, kw.column, `unknown statement ${quoteInput(kw.text)} (expected sev, motion, se or event)`);
    }
  }
  doc.trailingComments = pending;
  if (statements === 0) err(1, 1, `the file has no statements: a SEV starts with \`sev ${SEV_VERSION}\``);
  for (const r of eventRefs) {
    if (!seLines.has(r.se)) err(r.line, r.column, `event uses undefined SE index ${r.se}`);
  }
  const errors = problems
    .done('errors')
    .sort((a, b) => a.place.line! - b.place.line! || a.place.column! - b.place.column!);
  return { doc, errors, warnings: bidiWarnings(text, 'SEV', file) };
}

/** Parses a SEV and throws its first error (for callers that cannot go on with a broken file). */
export function parseSevStrict(text: string, file?: string): SevDocument {
  const { doc, errors } = parseSev(text, file);
  if (errors.length) throw errors[0];
  return doc;
}
