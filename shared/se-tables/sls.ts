import { bidiWarnings } from '../bidiText';
import { ProblemList, quoteInput } from '../errors';
import { splitLines } from '../sev/text';
import { SE_CODE_MAX, SE_CODE_NONE, formatSeCode, type SeTableEntry, type SeTableReadResult } from './types';

/**
 * Reads `default.sls`, the resident-SE table (docs/formats.md 5): one `NAME CODE`
 * or `NAME = CODE` per line, comments from `;`, `#` or `//` to the end of the
 * line. Codes are decimal or `0x` hex, 0..0xFFFE. Every error in the file is
 * reported at once with its line and column; a name given twice with
 * different codes names both lines.
 */
export function parseSls(text: string, file = 'default.sls'): SeTableReadResult {
  const result: SeTableReadResult = { file, entries: [], rejected: [], errors: [], warnings: [] };
  const errors = new ProblemList('SLS', file);
  const warnings = new ProblemList('SLS', file);
  const err = (line: number, column: number, detail: string) => errors.add(line, column, detail);
  const seen = new Map<string, SeTableEntry>();
  for (const { text: raw, line } of splitLines(text)) {
    const cut = raw.search(/;|#|\/\//);
    const code = cut >= 0 ? raw.slice(0, cut) : raw;
    if (!code.trim()) continue;
    const tokens: { text: string; column: number }[] = [];
    const re = /=|[^ \t=]+/g;
    for (let t = re.exec(code); t; t = re.exec(code)) tokens.push({ text: t[0], column: t.index + 1 });
    const [first, second] = tokens;
    if (first.text === '=') {
      err(line, first.column, 'expected an SE name before `=`');
      continue;
    }
    const name = first.text;
    const nameCol = first.column;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      err(line, nameCol, `invalid SE name ${quoteInput(name)}: names match [A-Za-z_][A-Za-z0-9_]*`);
      continue;
    }
    const valueToken = second?.text === '=' ? tokens[2] : second;
    if (!valueToken || valueToken.text === '=') {
      const at = valueToken ?? tokens[tokens.length - 1];
      err(
        line,
        at.column + (valueToken ? 0 : at.text.length),
        `${quoteInput(name)} has no code: expected \`NAME CODE\` or \`NAME = CODE\``,
      );
      continue;
    }
    const extra = tokens[tokens.indexOf(valueToken) + 1];
    if (extra) {
      err(line, extra.column, `unexpected ${quoteInput(extra.text)} after the code of ${name}`);
      continue;
    }
    const valueText = valueToken.text;
    const valueCol = valueToken.column;
    const value = /^0[xX][0-9a-fA-F]+$/.test(valueText)
      ? parseInt(valueText.slice(2), 16)
      : /^[0-9]+$/.test(valueText)
        ? Number(valueText)
        : NaN;
    if (Number.isNaN(value)) {
      err(line, valueCol, `code of ${name} must be a decimal or 0x hex integer, found ${quoteInput(valueText)}`);
      continue;
    }
    if (value > SE_CODE_MAX) {
      err(
        line,
        valueCol,
        value === SE_CODE_NONE
          ? `code of ${name} is 0xFFFF, which a SAR uses for "no SE"`
          : `code of ${name} is ${valueText}, outside the u16 SE code range 0..0xFFFE`,
      );
      continue;
    }
    const entry: SeTableEntry = { name, code: value, place: { file, line, column: nameCol } };
    const prev = seen.get(name);
    if (prev) {
      if (prev.code !== value)
        err(
          line,
          nameCol,
          `${name} is defined again as ${formatSeCode(value)}; it was ${formatSeCode(prev.code)} at ${file}:${prev.place.line}`,
        );
      else warnings.add(line, nameCol, `${name} is listed again with the same code (first at line ${prev.place.line})`);
      continue;
    }
    seen.set(name, entry);
    result.entries.push(entry);
  }
  result.errors = errors.done('errors');
  result.warnings = [...warnings.done('warnings'), ...bidiWarnings(text, 'SLS', file)];
  return result;
}
