/**
 * What a build says of a motion's keys over their tolerance (unmetLinesOf, the report's unmetTolerances and the build
 * record's lines): the held-bound line, the summary with the motion's joint names, the bound it compressed to and the
 * bound asked. electron/cli/unreachableBuild.test.ts runs it through a build, where the held motion also has keys over
 * and the lines are matched in part. Mutation audit 2026-12-05 (docs/testing.md): a held bound said only when keys
 * were over too, the joint names, the bound and the bound asked each left out, passed that test; each fails here.
 */
import { describe, expect, it } from 'vitest';
import type { UnreachableSummary } from '../compress/unreachable';
import type { CompressedMotion, PreparedBuild } from './plan';
import { unmetLinesOf } from './unmetLines';

const prepared = {
  motions: [{ joints: [{ name: 'root' }, { name: 'hips' }, { name: 'knee' }, { name: 'foot' }] }],
} as unknown as PreparedBuild;

const summary: UnreachableSummary = {
  channels: [{ kind: 'offset', joint: 3, tolerance: 0.5, frames: [1], errors: [1], worstFrame: 1, worstError: 1 }],
  keys: 1,
  totalKeys: 9,
  floor: { position: 0.002, rotationDeg: 0.006, offset: 0.0004, object: 0.0125 },
};

const result = (r: Partial<CompressedMotion>) =>
  ({ warnings: [{ message: 'a warning of the last build' }], ...r }) as unknown as CompressedMotion;
const held = { objectTolerance: 0.0125, requestedObjectTolerance: 0.001, met: true };

describe('unmetLinesOf', () => {
  it('a motion held at its floor with keys over: the held bound, then the summary at the bound held and the bound asked', () => {
    const lines = unmetLinesOf(prepared, 0, result({ skeleton: held as never, unreachable: summary }));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^object-space bound 0\.001 is below 0\.0125, .* held to 0\.0125 instead, which every frame meets$/,
    );
    expect(lines[1]).toContain('(1 joint offset, at the tolerances the object-space bound 0.0125 gives them)');
    expect(lines[2]).toBe('worst: offset of joint 3 foot at frame 1, 1 units against 0.5 units');
    expect(lines[3]).toContain(
      '(its object-space error with every frame a key; the bound asked is 0.001); the build report',
    );
  });

  it('a motion held at its floor with no key over: the held bound alone', () => {
    expect(unmetLinesOf(prepared, 0, result({ skeleton: held as never }))).toEqual([
      'object-space bound 0.001 is below 0.0125, the least h16/s12 can hold this motion to (its object-space error ' +
        'with every frame a key): held to 0.0125 instead, which every frame meets',
    ]);
  });

  it('a bound kept as asked: the summary says it as the bound asked; no skeleton, no bound; a carried motion its lines', () => {
    const kept = { objectTolerance: 0.02, met: true };
    const lines = unmetLinesOf(prepared, 0, result({ skeleton: kept as never, unreachable: summary }));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('at the tolerances the object-space bound 0.02 gives them');
    expect(lines[2]).toContain('the bound asked is 0.02)');
    const plain = unmetLinesOf(prepared, 0, result({ unreachable: summary }));
    expect(plain[0]).not.toContain('object-space bound');
    expect(plain[2]).toContain('is about 0.0125 (its object-space error with every frame a key); the build report');
    expect(unmetLinesOf(prepared, 0, result({}))).toEqual(['a warning of the last build']);
  });
});
