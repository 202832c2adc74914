import { describe, expect, it } from 'vitest';
import { exactBytes, sizeText } from './byteSize';

describe('sizeText', () => {
  it('writes bytes under 1 KiB, KiB with one decimal under 1 MiB, MiB with two from there', () => {
    expect([0, 1, 480, 1023].map(sizeText)).toEqual(['0 bytes', '1 byte', '480 bytes', '1023 bytes']);
    expect([1024, 84496, 1048524].map(sizeText)).toEqual(['1.0 KiB', '82.5 KiB', '1023.9 KiB']);
    expect([1048576, 1310720, 52428800].map(sizeText)).toEqual(['1.00 MiB', '1.25 MiB', '50.00 MiB']);
  });
  it('never writes 1024.0 KiB: what rounds to it is 1.00 MiB', () => {
    expect([1048575, 1048525].map(sizeText)).toEqual(['1.00 MiB', '1.00 MiB']);
  });
  it('writes what is over or under with its sign', () => {
    expect(sizeText(-2048)).toBe('-2.0 KiB');
  });
});

describe('exactBytes', () => {
  it('writes the count with thousands separators', () => {
    expect([1, 77200, 1048576].map(exactBytes)).toEqual(['1 byte', '77,200 bytes', '1,048,576 bytes']);
  });
});
