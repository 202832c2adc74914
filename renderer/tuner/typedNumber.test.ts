import { describe, expect, it } from 'vitest';
import { parseTypedNumber, steppedText } from './typedNumber';

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
