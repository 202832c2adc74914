import { describe, expect, it } from 'vitest';
import { evaluateIntegerExpression, parseSeDefine } from './define';
import { parseSls } from './sls';
import { explainUnknownSeName, mergeSeTables, seCodeOf, seNameOf } from './table';

const msgs = (xs: { message: string }[]) => xs.map((x) => x.message);
const codes = (r: { entries: { name: string; code: number }[] }) =>
  Object.fromEntries(r.entries.map((e) => [e.name, e.code]));

describe('parseSls', () => {
  it('reads NAME CODE and NAME = CODE with every comment style', () => {
    const r = parseSls(
      '; resident SEs\nSE_A 1\nSE_B = 0x1F  # hex\n  SE_C=300 // c\n\r\n# SE_D 4\nSE_E\t7\n',
      'default.sls',
    );
    expect(r.errors).toEqual([]);
    expect(codes(r)).toEqual({ SE_A: 1, SE_B: 0x1f, SE_C: 300, SE_E: 7 });
    expect(r.entries[2].place).toEqual({ file: 'default.sls', line: 4, column: 3 });
  });

  it('reports every bad line with line:column', () => {
    const r = parseSls(
      'SE_A 1\n1BAD 2\nSE_B\nSE_C 0x10000\nSE_D 12abc\nSE_E 1 2\nSE_A 3\nSE_F 65535\nSE_A 1\n= 4\nSE_G =\nSE_H = = 1\n',
      'default.sls',
    );
    expect(msgs(r.errors)).toEqual([
      'default.sls:2:1: invalid SE name `1BAD`: names match [A-Za-z_][A-Za-z0-9_]*',
      'default.sls:3:5: `SE_B` has no code: expected `NAME CODE` or `NAME = CODE`',
      'default.sls:4:6: code of SE_C is 0x10000, outside the u16 SE code range 0..0xFFFE',
      'default.sls:5:6: code of SE_D must be a decimal or 0x hex integer, found `12abc`',
      'default.sls:6:8: unexpected `2` after the code of SE_E',
      'default.sls:7:1: SE_A is defined again as 0x0003; it was 0x0001 at default.sls:1',
      'default.sls:8:6: code of SE_F is 0xFFFF, which a SAR uses for "no SE"',
      'default.sls:10:1: expected an SE name before `=`',
      'default.sls:11:7: `SE_G` has no code: expected `NAME CODE` or `NAME = CODE`',
      'default.sls:12:8: `SE_H` has no code: expected `NAME CODE` or `NAME = CODE`',
    ]);
    expect(msgs(r.warnings)).toEqual(['default.sls:9:1: SE_A is listed again with the same code (first at line 1)']);
  });
});

describe('parseSeDefine', () => {
  const header = `/* se_define.h: non-resident SEs
   #define IN_COMMENT 5
*/
#ifndef SE_DEFINE_H
#define SE_DEFINE_H

#include "se_base.h"
#define SE_BASE        0x100     // bank base
#define SE_DEC         42
#define SE_OCT         017
#define SE_SUFFIX      0x20uL
#define SE_SUFFIX2     7LLU
#define SE_PAREN       ((SE_BASE + 2) * 2)
#define SE_SHIFT       (1 << 4 | SE_BASE >> 8)
#define SE_AND         (0xFF0 & 0x0FF)
#define SE_NEG_PAREN   (SE_DEC - (-3))
#define SE_CONT        SE_BASE + \\
                       5
#define SE_STRING      "step"
#define SE_FLOAT       1.5f
#define SE_LATER       SE_UNDEFINED_YET
#define SE_FUNC(x)     ((x) + 1)
#define SE_BIG         0x10000
#define SE_MINUS       -1
#define SE_EMPTY
#define SE_COMMENTED   /* inline */ 9 // trailing
#define SE_DIV0        (1 / 0)
# define SE_SPACED     3
#define SE_DEC         42
#undef SE_DEC
int not_a_directive;
#endif /* SE_DEFINE_H */
`;

  it('evaluates integer constant expressions with earlier names', () => {
    const r = parseSeDefine(header, 'se_define.h');
    expect(r.errors).toEqual([]);
    expect(codes(r)).toEqual({
      SE_BASE: 0x100,
      SE_DEC: 42,
      SE_OCT: 15,
      SE_SUFFIX: 0x20,
      SE_SUFFIX2: 7,
      SE_PAREN: 0x204,
      SE_SHIFT: 16 | 1,
      SE_AND: 0xf0,
      SE_NEG_PAREN: 45,
      SE_CONT: 0x105,
      SE_COMMENTED: 9,
      SE_SPACED: 3,
    });
    expect(r.entries.find((e) => e.name === 'SE_CONT')!.place).toEqual({ file: 'se_define.h', line: 17, column: 9 });
  });

  it('skips non-integer defines, macros and other content with warnings naming the line', () => {
    const r = parseSeDefine(header, 'se_define.h');
    expect(msgs(r.warnings)).toEqual([
      'se_define.h:19:24: skipped SE_STRING: not an integer constant expression (unexpected `"`)',
      'se_define.h:20:24: skipped SE_FLOAT: not an integer constant expression (`1.5f` is not an integer literal)',
      'se_define.h:21:24: skipped SE_LATER: not an integer constant expression (SE_UNDEFINED_YET is not an integer defined earlier in this file)',
      'se_define.h:22:9: skipped function-like macro SE_FUNC',
      'se_define.h:23:9: SE_BIG is not an SE entry: its value 65536 is not a u16 SE code',
      'se_define.h:24:9: SE_MINUS is not an SE entry: its value -1 is not a u16 SE code',
      'se_define.h:25:9: skipped SE_EMPTY: it defines no value',
      'se_define.h:27:27: skipped SE_DIV0: not an integer constant expression (division by zero)',
      'se_define.h:30:1: #undef is ignored: names keep the value they were first defined with',
      'se_define.h:31:1: skipped a line that is not a preprocessor directive: `int not_a_directive;`',
    ]);
    // the include guard SE_DEFINE_H is skipped without a warning; the commented-out define is not read
    expect(codes(r)).not.toHaveProperty('SE_DEFINE_H');
    expect(codes(r)).not.toHaveProperty('IN_COMMENT');
  });

  it('refuses nesting deeper than 64 parentheses or unary operators at file:line:column, without overflowing the stack', () => {
    const r = parseSeDefine(
      `#define OK ${'('.repeat(60)}1${')'.repeat(60)}\n#define DEEP ${'('.repeat(5000)}1${')'.repeat(5000)}\n#define NEG ${'-'.repeat(100000)}1\n`,
      'x.h',
    );
    expect(codes(r)).toEqual({ OK: 1 });
    expect(msgs(r.warnings)).toEqual([
      'x.h:2:78: skipped DEEP: not an integer constant expression (nested too deeply (more than 64 levels of parentheses or unary operators))',
      'x.h:3:77: skipped NEG: not an integer constant expression (nested too deeply (more than 64 levels of parentheses or unary operators))',
    ]);
  });

  it('stops a value that grows past 64 bits (repeated squaring) at the operator', () => {
    const lines = ['#define A0 0xFFFF'];
    for (let k = 1; k < 40; k++) lines.push(`#define A${k} (A${k - 1} * A${k - 1})`);
    const r = parseSeDefine(lines.join('\n'), 'x.h');
    // A3 = 0xFFFF^8 needs 128 bits: stopped there, and every later one names an undefined A3, A4 ...
    expect(msgs(r.warnings).slice(1, 5)).toEqual([
      'x.h:2:9: A1 is not an SE entry: its value 4294836225 is not a u16 SE code',
      'x.h:3:9: A2 is not an SE entry: its value 18445618199572250625 is not a u16 SE code',
      'x.h:4:16: skipped A3: not an integer constant expression (the value does not fit in 64 bits)',
      'x.h:5:13: skipped A4: not an integer constant expression (A3 is not an integer defined earlier in this file)',
    ]);
    expect(evaluateIntegerExpression('1 << 63', new Map())).toEqual({ value: 1n << 63n });
    expect(evaluateIntegerExpression('(1 << 63) * 4', new Map())).toEqual({
      error: 'the value does not fit in 64 bits',
      at: 10,
    });
  });

  it('joins thousands of continuation lines into one value and places a late error on its own physical line', () => {
    const n = 20000;
    const text = `#define SUM 1 \\\n${'  + 1 \\\n'.repeat(n)}  + 1\n#define BAD 1 \\\n${'  + 1 \\\n'.repeat(n)}  + @\n`;
    const r = parseSeDefine(text, 'x.h');
    expect(r.entries.find((e) => e.name === 'SUM')?.code).toBe(n + 2);
    // The error is at the logical line's first line (C reports it there) and the column on the physical line of the `@`.
    expect(msgs(r.warnings)).toEqual([
      `x.h:${n + 3}:5: skipped BAD: not an integer constant expression (unexpected \`@\`)`,
    ]);
  });

  it('lists the first 100 problems of a mangled file and counts the rest', () => {
    const r = parseSeDefine('int x;\n'.repeat(1000), 'x.h');
    expect(r.warnings).toHaveLength(101);
    expect(r.warnings[100].message).toBe('x.h:100:1: 900 more warnings not listed (only the first 100 are)');
    const sls = parseSls('bad-name 1\n'.repeat(250), 'x.sls');
    expect(sls.errors).toHaveLength(101);
    expect(sls.errors[100].message).toBe('x.sls:100:1: 150 more errors not listed (only the first 100 are)');
  });

  it('reports a redefinition with another value, naming both lines', () => {
    const r = parseSeDefine('#define A 1\n#define B (A + 1)\n#define A 2\n', 'x.h');
    expect(msgs(r.errors)).toEqual(['x.h:3:9: A is redefined as 2; it was 1 at x.h:1']);
    expect(codes(r)).toEqual({ A: 1, B: 2 });
  });

  it('reports an unterminated block comment', () => {
    expect(msgs(parseSeDefine('#define A 1\n/* open\n#define B 2\n', 'x.h').errors)).toEqual([
      'x.h:2:1: unterminated /* comment',
    ]);
  });

  it('a value above u16 can still feed later expressions', () => {
    expect(codes(parseSeDefine('#define BANK 0x10000\n#define SE_X ((BANK >> 4) + 1)\n'))).toEqual({ SE_X: 0x1001 });
  });

  it('evaluates with C precedence and refuses malformed expressions', () => {
    const none = new Map<string, { value: bigint }>();
    const ev = (s: string) => evaluateIntegerExpression(s, none);
    expect(ev('1 + 2 * 3')).toEqual({ value: 7n });
    expect(ev('1 | 2 & 3 ^ 4')).toEqual({ value: 1n | ((2n & 3n) ^ 4n) });
    expect(ev('1 << 2 + 1')).toEqual({ value: 8n });
    expect(ev('~0 & 0xff')).toEqual({ value: 255n });
    expect(ev('-7 / 2')).toEqual({ value: -3n });
    expect(ev('0')).toEqual({ value: 0n });
    expect(ev('(1 + 2')).toEqual({ error: 'expected `)`, found the end of the value', at: 6 });
    expect(ev('1 +')).toEqual({ error: 'expected a number, a name or `(`, found the end of the value', at: 3 });
    expect(ev('1 2')).toEqual({ error: 'unexpected `2`', at: 2 });
    expect(ev('08')).toEqual({ error: '`08` is not an integer literal', at: 0 });
    expect(ev('1 << 64')).toEqual({ error: 'shift count 64 is outside 0..63', at: 2 });
  });
});

describe('mergeSeTables', () => {
  it('merges, maps both ways and reports cross-file conflicts naming both places', () => {
    const sls = parseSls('SE_A 1\nSE_B 2\nSE_ALIAS 2\n', 'default.sls');
    const def = parseSeDefine('#define SE_C 0x300\n#define SE_B 2\n#define SE_A 5\n#define SE_S "x"\n', 'se_define.h');
    const { table, errors } = mergeSeTables([sls, def]);
    expect(msgs(errors)).toEqual(['se_define.h:3:9: SE_A is 0x0005 here but 0x0001 at default.sls:1']);
    expect(seCodeOf(table, 'SE_C')).toBe(0x300);
    expect(seCodeOf(table, 'SE_A')).toBe(1);
    expect(seNameOf(table, 2)).toBe('SE_B');
    expect(table.byCode.get(2)!.map((e) => e.name)).toEqual(['SE_B', 'SE_ALIAS']);
    expect(seNameOf(table, 9)).toBeUndefined();
    expect(explainUnknownSeName(table, 'SE_Z')).toBe('SE name SE_Z is not defined in default.sls or se_define.h');
    expect(explainUnknownSeName(table, 'SE_S')).toBe(
      'SE name SE_S has no code: se_define.h:4 skips it (not an integer constant expression (unexpected `"`))',
    );
  });
});

describe('table readers on junk', () => {
  it('never throw, and every error and warning names file, line and column', () => {
    const pieces = [
      '#define',
      ' ',
      'SE_A',
      '0x1',
      '(',
      ')',
      '<<',
      '|',
      '/*',
      '*/',
      '//',
      '\n',
      '\\\n',
      '"',
      "'",
      '=',
      ';',
      '#',
      '08',
      '1u',
      'ul',
      '\t',
      'é',
    ];
    let seed = 99;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 300; k++) {
      let text = '';
      for (let n = Math.floor(rnd() * 40); n > 0; n--) text += pieces[Math.floor(rnd() * pieces.length)];
      for (const r of [parseSeDefine(text, 'j.h'), parseSls(text, 'j.sls')]) {
        for (const d of [...r.errors, ...r.warnings]) expect(d.message).toMatch(/^j\.(h|sls):\d+:\d+: /);
        for (const e of r.entries) expect(e.code).toBeLessThanOrEqual(0xfffe);
      }
    }
  });
});
