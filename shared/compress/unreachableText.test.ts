/**
 * The summary's words (unreachableText.ts) on small summaries made by hand, where each number and plural is known:
 * unreachable.test.ts checks them on a compression, whose channels are many and whose keys over are several each.
 * Mutation audit 2026-12-05 (docs/testing.md): ties among tolerance-0 channels not ordered by error, "(1 keys over
 * it)", "; and 0 more channels", and the singular forms passed unreachable.test.ts; each fails here.
 */
import { describe, expect, it } from 'vitest';
import type { UnreachableChannel, UnreachableSummary } from './unreachable';
import { objectBoundLine, unreachableLines, worstChannels } from './unreachableText';

const channel = (
  kind: UnreachableChannel['kind'],
  joint: number,
  tolerance: number,
  frames: number[],
  errors: number[],
): UnreachableChannel => {
  const worst = errors.indexOf(Math.max(...errors));
  return { kind, joint, tolerance, frames, errors, worstFrame: frames[worst], worstError: errors[worst] };
};

const names = ['root', 'hips', 'knee', 'foot'];
const STORE =
  'h16/s12 cannot store the source that closely there (stored precision limit); every frame that is not a key is within its tolerance';

describe('the summary of keys over their tolerance', () => {
  // Two rotations at a tolerance of 0 (the lesser error listed first in the summary) and the root translation.
  const s: UnreachableSummary = {
    channels: [
      channel('rotation', 1, 0, [5], [0.01]),
      channel('translation', 0, 0.001, [3], [0.002]),
      channel('rotation', 2, 0, [7, 9], [0.015, 0.02]),
    ],
    keys: 4,
    totalKeys: 40,
    floor: { position: 0.00125, rotationDeg: 0.0055, offset: null, object: null },
  };

  it('orders channels by error over tolerance, then by error (tolerance-0 channels among themselves too)', () => {
    expect(worstChannels(s).map((c) => [c.kind, c.joint])).toEqual([
      ['rotation', 2],
      ['rotation', 1],
      ['translation', 0],
    ]);
  });

  it('says each number once, a channel with one key over without a count, and no "more" when all are shown', () => {
    expect(unreachableLines(s, names, 'KEPT')).toEqual([
      `tolerance not reachable at 4 of 40 keys, in 3 channels (the root translation, 2 joint rotations): ${STORE}`,
      'worst: rotation of joint 2 knee at frame 9, 0.02 deg against 0 deg (2 keys over it); ' +
        'rotation of joint 1 hips at frame 5, 0.01 deg against 0 deg; root translation at frame 3, 0.002 units against 0.001 units',
      'h16/s12 store every frame of this motion within 0.00125 units (root translation), 0.0055 deg (rotations): ' +
        'tolerances from there are met everywhere; KEPT',
    ]);
  });

  it('in the singular, with an offset floor, the object-space bound and the bound asked', () => {
    const one: UnreachableSummary = {
      channels: [channel('offset', 3, 0.5, [1], [1])],
      keys: 1,
      totalKeys: 9,
      floor: { position: 0.002, rotationDeg: 0.006, offset: 0.0004, object: 0.0125 },
    };
    expect(unreachableLines(one, names, 'KEPT', 0.0125, 0.001)).toEqual([
      `tolerance not reachable at 1 of 9 keys, in 1 channel (1 joint offset, at the tolerances the object-space bound 0.0125 gives them): ${STORE}`,
      'worst: offset of joint 3 foot at frame 1, 1 units against 0.5 units',
      'h16/s12 store every frame of this motion within 0.002 units (root translation), 0.006 deg (rotations), 0.0004 units (offsets): ' +
        'tolerances from there are met everywhere; the smallest object-space bound it can be held to is about 0.0125 ' +
        '(its object-space error with every frame a key; the bound asked is 0.001); KEPT',
    ]);
    // One rotation; without a bound, nothing said of one.
    const rot = { ...one, channels: [channel('rotation', 2, 0.1, [4, 6], [0.2, 0.3])] };
    const lines = unreachableLines(rot, names, 'KEPT');
    expect(lines[0]).toBe(`tolerance not reachable at 1 of 9 keys, in 1 channel (1 joint rotation): ${STORE}`);
    expect(lines[2]).toContain('is about 0.0125 (its object-space error with every frame a key); KEPT');
    // Four channels: three named, and one more.
    const four = { ...s, channels: [...s.channels, channel('offset', 3, 1, [2], [1.5])] };
    expect(unreachableLines(four, names, 'KEPT')[1]).toMatch(/; and 1 more channel$/);
  });
});

describe('objectBoundLine', () => {
  it('says the bound asked, the floor it was held to, and whether every frame meets it', () => {
    expect(objectBoundLine({ objectTolerance: 0.0125, requestedObjectTolerance: 0.001, met: true })).toBe(
      'object-space bound 0.001 is below 0.0125, the least h16/s12 can hold this motion to (its object-space error ' +
        'with every frame a key): held to 0.0125 instead, which every frame meets',
    );
    expect(objectBoundLine({ objectTolerance: 0.0125, requestedObjectTolerance: 0.001, met: false })).toMatch(
      /held to 0\.0125 instead, NOT met$/,
    );
    expect(objectBoundLine({ objectTolerance: 0.0125, met: true })).toBeUndefined();
  });
});
