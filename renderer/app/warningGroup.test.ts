import { describe, expect, it } from 'vitest';
import { MAX_LISTED_PROBLEMS } from '../../shared/errors';
import { listedLines, warningGroup } from './warningGroup';

describe('warningGroup', () => {
  it('says nothing for no warnings, and one warning as it is, with nothing to list', () => {
    expect(warningGroup('walk.bvh', [])).toBeNull();
    expect(warningGroup('walk.bvh', ['joint 3 name "x" truncated'], ['name-truncated'])).toEqual({
      text: 'walk.bvh: joint 3 name "x" truncated',
      details: [],
    });
  });

  it('counts several by kind in one line and lists them all', () => {
    expect(
      warningGroup('a.glb', ['one', 'two', 'three'], ['name-truncated', 'scale-unsupported', 'name-truncated']),
    ).toEqual({
      text: 'a.glb: 3 warnings (2 joint names truncated, 1 scale tracks ignored)',
      details: ['one', 'two', 'three'],
    });
    // Warnings without kinds (an MSH export's): a count only.
    expect(warningGroup('MSH export', ['a', 'b'])).toEqual({ text: 'MSH export: 2 warnings', details: ['a', 'b'] });
  });

  it('lists at most the first hundred and one line for the rest', () => {
    const lines = Array.from({ length: 5000 }, (_, k) => `w${k}`);
    const listed = listedLines(lines);
    expect(listed).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(listed.at(-2)).toBe(`w${MAX_LISTED_PROBLEMS - 1}`);
    expect(listed.at(-1)).toBe('4900 more warnings not listed (only the first 100 are)');
    // One past the limit lists them all: a "1 more not listed" line would take the place of the one it hides.
    expect(listedLines(lines.slice(0, MAX_LISTED_PROBLEMS + 1))).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(warningGroup('x', lines)!.details).toEqual(listed);
  });
});
