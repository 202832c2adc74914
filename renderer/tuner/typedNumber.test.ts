import { describe, expect, it } from 'vitest';
import { parseTypedNumber, parseTypedWholeNumber, quotedTyped, steppedText } from './typedNumber';

describe('parseTypedNumber', () => {
  it('reads a decimal comma as the decimal mark (a number field read "0,3" as 3)', () => {
    expect(parseTypedNumber('0,3')).toBe(0.3);
    expect(parseTypedNumber(' 1,25 ')).toBe(1.25);
    expect(parseTypedNumber(',5')).toBe(0.5);
    expect(parseTypedNumber('2,')).toBe(2);
  });
  it('reads plain numbers as Number does', () => {
    expect(parseTypedNumber('0.5')).toBe(0.5);
    expect(parseTypedNumber('.5')).toBe(0.5);
    expect(parseTypedNumber('2')).toBe(2);
    expect(parseTypedNumber('1e-2')).toBe(0.01);
    expect(parseTypedNumber('-1')).toBe(-1);
  });
  it('says no number for text that is not one, or is ambiguous', () => {
    for (const t of ['', ' ', '1e', '.', ',', 'abc', '1,000.5', '1.2.3', '0,3,4', '0x10', 'Infinity', '1 2'])
      expect(parseTypedNumber(t), t).toBeNaN();
  });
});

describe('steppedText', () => {
  it('steps the typed value, never below the least, without float noise', () => {
    expect(steppedText('0.5', 0.05, 0.001)).toBe('0.55');
    expect(steppedText('0,3', -0.05, 0.001)).toBe('0.25');
    expect(steppedText('0.02', -0.05, 0.001)).toBe('0.001');
  });
  it('leaves text that says no number as it is', () => {
    expect(steppedText('abc', 0.05, 0.001)).toBe('abc');
  });
});

describe('parseTypedWholeNumber', () => {
  it('reads whole numbers and refuses fractions (a frame typed "1,5" is not frame 15)', () => {
    expect(parseTypedWholeNumber('15')).toBe(15);
    expect(parseTypedWholeNumber(' 0 ')).toBe(0);
    expect(parseTypedWholeNumber('2,0')).toBe(2);
    for (const t of ['1,5', '1.5', '', 'abc', '1e']) expect(parseTypedWholeNumber(t), t).toBeNaN();
  });
  it('quotes refused text as typed', () => {
    expect(quotedTyped(' 1,5 ')).toBe('"1,5"');
    expect(quotedTyped('  ')).toBe('an empty field');
  });
});
