/**
 * Round 11 (docs/security.md): what a message shows of a name or path. Control characters were escaped already
 * (round 3); the characters that reorder or hide text were shown raw: a bidirectional override made `x\u202Elqs.sev`
 * display as `xves.lqs`, a zero-width space made `wa\u200Blk.sev` look like `walk.sev`, U+2028 broke a line where
 * text is laid out. And a FormatError printed its file's path raw: a folder a received archive made, named with a
 * line break and an ESC sequence, forged a line of the CLI's output and set the terminal's title.
 */
import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL, escapeControls, FormatError, HIDDEN_CHARACTERS, quoteInput, quoteJson } from './errors';

const HIDDEN_CHARACTERS_BUT_LINES = new RegExp(
  HIDDEN_CHARACTERS.source.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b-\\u001f'),
);

const HIDDEN = [
  '\u0000',
  '\n',
  '\u001b',
  '\u007f',
  '\u009b',
  '\u00ad',
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2060',
  '\u2064',
  '\u2066',
  '\u2069',
  '\u206f',
  '\ufeff',
  '\ufffb',
];

describe('messages show hidden characters escaped', () => {
  // Mutation: escapeControls back to C0/DEL/C1 only: every bidi, zero-width and separator case fails.
  it('escapeControls, quoteInput and quoteJson escape every control, bidi, zero-width and separator character', () => {
    for (const c of HIDDEN) {
      const hex = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      expect(escapeControls(`a${c}b`), hex).toBe(`a${hex}b`);
      expect(quoteInput(`a${c}b`), hex).toBe(`\`a${hex}b\``);
      expect(quoteJson(`a${c}b`), hex).not.toContain(c);
      expect(HIDDEN_CHARACTERS.test(c), hex).toBe(true);
    }
    // What a name may hold is shown as it is: letters of any script, a combining accent, an emoji.
    for (const ok of ['café.sev', 'cafe\u0301.sev', 'שלום.sev', 'walk 2.mtn', '\u{1F600}.mtn'])
      expect(escapeControls(ok)).toBe(ok);
  });

  it('BIDI_CONTROL matches the marks, embeddings, overrides and isolates, nothing else', () => {
    for (const c of [
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2069',
    ])
      expect(BIDI_CONTROL.test(c)).toBe(true);
    for (const c of ['\u200b', '\u200d', '\u2028', 'a', 'é', '\u0301']) expect(BIDI_CONTROL.test(c)).toBe(false);
  });

  // Mutation: FormatError.compose printing `file` raw again: the message holds the line break and the ESC.
  it("a FormatError shows its file's path escaped: a folder named with a line break cannot forge a line", () => {
    const file = '/tmp/x\u001b]0;owned\u0007\nbuilt 9 motions: ok/p\u202Enosj.json';
    for (const e of [
      new FormatError('PROJECT', 'bad', { where: 'motions[0]' }, file),
      new FormatError('SEV', 'bad', { line: 3, column: 4 }, file),
      new FormatError('MTN', 'bad').withFile(file),
    ]) {
      expect(e.message).not.toMatch(HIDDEN_CHARACTERS);
      expect(e.message).toContain('/tmp/x\\u001b]0;owned\\u0007\\u000abuilt 9 motions: ok/p\\u202enosj.json');
      expect(e.file).toBe(file); // the path itself is kept for the program
    }
  });

  // Round 53. Mutation: the FormatError constructor keeping `detail` raw: `actguy build` of a project whose key
  // `"sev": "cm\u200Bu_01_01.sev"` names a file that is not there printed `cannot read cm<U+200B>u_01_01.sev`, the
  // space unseen, reading as the sample's own cmu_01_01.sev.
  it("a FormatError's detail shows a name's hidden characters as \\uXXXX, its own line breaks and tabs kept", () => {
    const e = new FormatError('PROJECT', 'cannot read cm\u200bu_01_01.sev: no such file\n\tsecond \u00adline', {
      where: 'motions[1].sev',
    });
    expect(e.message).not.toMatch(HIDDEN_CHARACTERS_BUT_LINES);
    expect(e.detail).toBe('cannot read cm\\u200bu_01_01.sev: no such file\n\tsecond \\u00adline');
    // Already escaped text is said as it is.
    expect(new FormatError('PROJECT', e.detail).detail).toBe(e.detail);
  });
});
