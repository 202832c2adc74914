/**
 * Round 12 (docs/security.md): a bidirectional formatting character in a comment ("Trojan Source", CVE-2021-42574)
 * reorders how other editors, diffs and reviews show the rest of its line, while the readers pass it over: nothing
 * said so. Each text reader now warns at its line and column; the text stays valid.
 * Mutations that fail these tests: `bidiWarnings` returning [] (every test), the `warnings` of parseSev left out (the
 * SEV test), the bidiWarnings call left out of parseSls / parseSeDefine / parseProject (their tests).
 */
import { describe, expect, it } from 'vitest';
import { bidiWarnings } from './bidiText';
import { parseProject } from './project/validate';
import { parseSeDefine } from './se-tables/define';
import { parseSls } from './se-tables/sls';
import { parseSev } from './sev/parse';

const RLO = '\u202e';
const LRI = '\u2066';
const PDI = '\u2069';

describe('bidiWarnings', () => {
  it('is empty for text without one, letters of any script included', () => {
    expect(bidiWarnings('sev 1\n# ש café 漢字\nse 0 SE_STEP\n', 'SEV', 'walk.sev')).toEqual([]);
  });

  it('warns once a line, at the first character, counting the others, with LF, CRLF and CR lines and a BOM', () => {
    const text = `\ufeffa\r\nb # x${RLO}y${LRI}z${PDI}\rc\n  ${'\u200f'}d\n`;
    const w = bidiWarnings(text, 'SEV', 'walk.sev');
    expect(w.map((e) => [e.place.line, e.place.column])).toEqual([
      [2, 6],
      [4, 3],
    ]);
    expect(w[0].message).toMatch(
      /^walk\.sev:2:6: a bidirectional formatting character, U\+202E RIGHT-TO-LEFT OVERRIDE \(and 2 more on this line\)/,
    );
    expect(w[1].message).toContain('U+200F RIGHT-TO-LEFT MARK:');
    // The message itself never holds the character (a terminal would reorder the message).
    for (const e of w) expect(e.message).not.toMatch(/[\u202e\u2066\u2069\u200f]/);
  });

  it('lists at most 100 lines and counts the rest', () => {
    const w = bidiWarnings(`# ${RLO}\n`.repeat(250), 'SLS', 'default.sls');
    expect(w).toHaveLength(101);
    expect(w[100].message).toContain('150 more warnings not listed');
  });
});

describe('the text readers warn about a bidirectional character where nothing else looks', () => {
  it('a .sev comment: the event after it is kept, the file has no error, the warning is located', () => {
    // Shown by an editor as `event 12 0 - # step` with the rest reversed: the reader reads the characters.
    const r = parseSev(`sev 1\nse 0 SE_STEP\nevent 12 0 - # ${RLO} 0 0 21 tneve\n# ${LRI}note${PDI}\n`, 'walk.sev');
    expect(r.errors).toEqual([]);
    expect(r.doc.events).toHaveLength(1);
    expect(r.warnings.map((e) => e.message.slice(0, e.message.indexOf(': a')))).toEqual([
      'walk.sev:3:16',
      'walk.sev:4:3',
    ]);
  });

  it('a .sev name holding one stays an error (and is warned about at its place)', () => {
    const r = parseSev(`sev 1\nse 0 SE_${RLO}STEP\n`, 'walk.sev');
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^walk\.sev:2:6: invalid SE name `SE_\\u202eSTEP`/),
    ]);
    expect(r.warnings.map((e) => [e.place.line, e.place.column])).toEqual([[2, 9]]);
  });

  it('default.sls and se_define.h: a comment that reorders a code', () => {
    const sls = parseSls(`SE_STEP 0x100 ; ${RLO}001x0\n`, 'default.sls');
    expect(sls.errors).toEqual([]);
    expect(sls.entries.map((e) => e.code)).toEqual([0x100]);
    expect(sls.warnings.map((e) => e.message.slice(0, 20))).toEqual(['default.sls:1:17: a ']);
    const def = parseSeDefine(`#define SE_SWISH 0x101 /* ${RLO} 0x110 ${LRI} */\n`, 'se_define.h');
    expect(def.errors).toEqual([]);
    expect(def.entries.map((e) => e.code)).toEqual([0x101]);
    expect(def.warnings.map((e) => [e.place.line, e.place.column])).toEqual([[1, 27]]);
  });

  it('a project: a string no check refuses (`$schema`) reorders the line after it', () => {
    const text = `{\n  "$schema": "x${RLO}", "version": 1, "fps": 60,\n  "motions": [{ "name": "walk", "mtn": "walk.mtn" }],\n  "outputs": { "mar": "stage.mar", "sar": "stage.sar" }\n}\n`;
    const r = parseProject(text, '/p/p.actguy.json');
    expect(r.errors).toEqual([]);
    expect(r.resolved?.fps).toBe(60);
    expect(r.warnings?.map((e) => e.message.slice(0, e.message.indexOf(': a')))).toEqual(['/p/p.actguy.json:2:16']);
  });
});
