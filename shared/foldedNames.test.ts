import { describe, expect, it } from 'vitest';
import { foldName, foldedDifference, foldedTwins } from './foldedNames';

// The one fold of a build's outputs (shared/project/validate.ts) and Export All's entries
// (electron/build/projectExportPlan.ts); their own tests pin the words each says with it.
describe('names that fold alike', () => {
  // Mutation that fails: foldName without normalize('NFC') (an NFD `é` is another name).
  it('folds letter case and the Unicode form', () => {
    expect(foldName('Walk')).toBe('walk');
    expect(foldName('Cafe\u0301')).toBe(foldName('CAF\u00c9'));
    expect(foldName('walk')).not.toBe(foldName('walk_'));
  });

  // Round 55. Mutation that fails: foldName as NFC and toLowerCase() (round 54's), each pair two names; the second
  // half fails with the whole name upper-cased first (`STRASSE`) or lower-cased whole (a final `ς`).
  it('folds letters that share an upper case, one letter at a time, and keeps a letter whose upper case is two', () => {
    for (const [a, b] of [
      ['\u0131.mtn', 'I.mtn'], // dotless i
      ['\u03b1\u03c2.mtn', '\u0391\u03a3.MTN'], // final sigma, and a capital sigma before a dot and letters
      ['\u03b1\u03c2', '\u03b1\u03c3'],
      ['\u017f', 'S'], // long s
      ['\u00b5', '\u03bc'], // micro sign, mu
      ['\u03d0', '\u03b2'], // curled beta
      ['\u1e9e', '\u00df'], // capital sharp s
      ['\u01c5', '\u01c4'], // title case dz
    ])
      expect(foldName(a), `${a} ${b}`).toBe(foldName(b));
    expect(foldName('stra\u00dfe')).not.toBe(foldName('strasse'));
    expect(foldName('\u0130')).not.toBe(foldName('i'));
    expect(foldedDifference('\u0131dle', 'IDLE')).toBe('letter case');
  });

  // Mutations that fail: earlierTwin keeping the latest item instead of the first; earlierTwin keeping none.
  it('answers the first item whose name folds alike, and keeps the first', () => {
    const twins = foldedTwins<number>();
    expect(twins.earlierTwin('walk', 0)).toBeUndefined();
    expect(twins.earlierTwin('run', 1)).toBeUndefined();
    expect(twins.earlierTwin('Walk', 2)).toBe(0);
    expect(twins.earlierTwin('WALK', 3)).toBe(0);
    expect(twins.earlierTwin('RUN', 4)).toBe(1);
  });

  // Mutation that fails: foldedDifference comparing with normalize('NFC') first.
  it('says whether two twins differ in their Unicode form as well', () => {
    expect(foldedDifference('msh/walk.res8', 'msh/WALK.res8')).toBe('letter case');
    expect(foldedDifference('Caf\u00e9', 'CAFE\u0301')).toBe('letter case and Unicode form');
  });
});
