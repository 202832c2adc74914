import { describe, expect, it } from 'vitest';
import {
  isMotionName,
  MOTION_NAME_PATTERN,
  MOTION_NAME_RULE,
  motionNameProblem,
  suggestMotionName,
} from './motionName';
import schema from './project/project.schema.json';
import { gvStrCode, gvStrCodeBytes } from './strcode';

describe('motion names (docs/formats.md 2.6)', () => {
  it.each(['snake_walk', 'sna_mugen_bdn1', '131_01', '_x', 'a.b-c', 'A', '9', 'a234567890123456789012345678901'])(
    'accepts %j',
    (name) => {
      expect(isMotionName(name)).toBe(true);
      expect(motionNameProblem(name)).toBeUndefined();
    },
  );

  it.each([
    ['', 'a motion name cannot be empty'],
    ['.walk', 'starts with "."'],
    ['-walk', 'starts with "-"'],
    ['a2345678901234567890123456789012', 'is 32 characters long'],
    ['walk run', 'has whitespace'],
    ['walk\u0001', 'has a control character (0x01)'],
    ['walk/run', 'has the character "/"'],
    ['café', 'has the non-ASCII character "é" (U+00E9)'],
    ['歩', 'has the non-ASCII character "歩" (U+6B69)'],
    ['😀', 'has the non-ASCII character "😀" (U+1F600)'],
  ])('refuses %j: %s', (name, why) => {
    expect(isMotionName(name)).toBe(false);
    expect(motionNameProblem(name)).toContain(why);
  });

  it('counts a long name once, in its own characters', () => {
    const name = 'walk_with_a_very_long_motion_name_for_the_cutscene_take_0042';
    expect(motionNameProblem(name)).toBe(
      `motion name "walk_with_a_very_long_motion_nam"… is 60 characters long (motion names: ${MOTION_NAME_RULE})`,
    );
  });

  it('is the pattern the project schema gives motion names', () => {
    expect(schema.$defs.motion.properties.name.pattern).toBe(MOTION_NAME_PATTERN.source);
  });
});

describe('GV_StrCode hashes bytes', () => {
  it('hashes the bytes of an ASCII name', () => {
    expect(gvStrCode('walk')).toBe(gvStrCodeBytes([0x77, 0x61, 0x6c, 0x6b]));
    expect(gvStrCode('131_01')).toBe(gvStrCodeBytes([...'131_01'].map((c) => c.charCodeAt(0))));
  });

  it('never hashes a non-ASCII name as something else (歩 once collided with i)', () => {
    expect(() => gvStrCode('歩')).toThrow(/cannot hash: motion name "歩" has the non-ASCII character/);
    expect(() => gvStrCode('')).toThrow(RangeError);
    expect(gvStrCode('i')).toBe(gvStrCodeBytes([0x69]));
  });

  it('maps a zero hash to 1', () => {
    expect(gvStrCodeBytes([])).toBe(1);
    expect(gvStrCodeBytes([0])).toBe(1);
  });
});

describe('suggestMotionName', () => {
  it('keeps a valid base name, cleans the rest, and makes it unique', () => {
    expect(suggestMotionName('131_01')).toBe('131_01');
    expect(suggestMotionName('walk cycle (v2)')).toBe('walk_cycle__v2_');
    expect(suggestMotionName('.hidden')).toBe('hidden');
    expect(suggestMotionName('歩く')).toBe('__');
    expect(suggestMotionName('...')).toBe('motion');
    expect(suggestMotionName('walk', new Set(['walk', 'walk_2']))).toBe('walk_3');
    const long = 'a'.repeat(40);
    expect(suggestMotionName(long, new Set(['a'.repeat(31)]))).toBe(`${'a'.repeat(29)}_2`);
  });
});
