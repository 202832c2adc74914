/**
 * The summary of keys over their tolerance (unreachable.ts, docs/compression.md#the-guarantee): its list is the
 * warnings' keys with their errors, its precision floor is what a compression keyed on every frame measures (the
 * compressor's errors and the independent decoder's), and its lines have the shape `actguy compress` prints.
 *
 * Mutations that fail here: precisionFloor leaving out the normalisation of the rounded quaternion, or taking the
 * offsets' floor from the root; unreachableSummary taking errors at the wrong frames (frames.map(f => errors[f+1]));
 * worstChannels sorting by error alone (the ratio dropped); unreachableLines dropping the "and N more" count;
 * objectFloorUpperBound without its shell lever, or without the offsets in the levers
 * (under the floor; electron/compress/belowFloor.test.ts holds it near the floor on the captures).
 */
import { describe, expect, it } from 'vitest';
import { independentChannel, independentErrors } from '../testing/independentDecode';
import { independentObjectErrors } from '../testing/independentFk';
import { syntheticMotion } from '../testing/syntheticMotion';
import { deepChainMotion, roundFiveCase } from '../testing/roundFiveMotions';
import { compressMotion, objectFloorCeiling } from './compress';
import { defaultShell } from './objectError';
import { precisionFloor, unreachableLines, unreachableSummary, worstChannels, WORST_SHOWN } from './unreachable';

const motion = syntheticMotion({ frames: 90, joints: 8, seed: 21, offsets: true, noise: 0.02 });
const names = motion.joints.map((j) => j.name);

describe('the precision floor', () => {
  // Tolerance 0: every frame whose rounding is not exact becomes a key, so each channel's worst error is its
  // worst rounding, and the object-space error is that of the source rounded at every frame.
  const zero = compressMotion(motion, {
    name: 'zero',
    positionTolerance: 0,
    rotationToleranceDeg: 0,
    offsetTolerance: 0,
    method: 'classic',
    shell: 0.5,
  });
  const floor = precisionFloor(motion, 0.5);
  const ind = independentErrors(motion, zero.bytes);
  const worst = (rows: number[][]) => Math.max(...rows.map((r) => Math.max(...r)));

  it('is each kind of channel’s worst rounding, by the compressor’s errors and by the independent decoder', () => {
    const max = (kind: string) => Math.max(...zero.channels.filter((c) => c.kind === kind).map((c) => c.maxError));
    expect(floor.position).toBe(max('translation'));
    expect(floor.rotationDeg).toBe(max('rotation'));
    expect(floor.offset).toBe(max('offset'));
    expect(floor.position).toBeCloseTo(Math.max(...ind.root), 9);
    expect(floor.rotationDeg).toBeCloseTo(worst(ind.rot), 6);
    expect(floor.offset).toBeCloseTo(worst(ind.off!), 9);
    expect(floor.rotationDeg).toBeGreaterThan(0.01);
  });

  it('in object space is the error of every frame a key, by the independent FK', () => {
    expect(floor.object).toBeCloseTo(zero.objectError!.maxError, 12);
    expect(floor.object).toBeCloseTo(worst(independentObjectErrors(motion, zero.mt3, 0.5)), 9);
    expect(precisionFloor(motion).object).toBeNull();
  });

  it('is a tolerance every channel meets, in the classic and the refined mode', () => {
    for (const method of ['classic', 'refined'] as const) {
      const r = compressMotion(motion, {
        name: 'floor',
        positionTolerance: floor.position,
        rotationToleranceDeg: floor.rotationDeg,
        offsetTolerance: floor.offset!,
        method,
      });
      expect(r.warnings, method).toEqual([]);
      expect(unreachableSummary(motion, r), method).toBeUndefined();
    }
  });
});

describe('the summary', () => {
  const r = compressMotion(motion, {
    name: 'tight',
    positionTolerance: 0.0005,
    rotationToleranceDeg: 0.02,
    offsetTolerance: 0.0005,
    rotationToleranceOverridesDeg: { 3: 0 },
  });
  const s = unreachableSummary(motion, r)!;

  it('lists every key over its tolerance with its error in the written file', () => {
    expect(s.channels.length).toBe(r.warnings.length);
    expect(s.channels.length).toBeGreaterThan(WORST_SHOWN + 1);
    const ind = independentErrors(motion, r.bytes);
    let keys = 0;
    for (const c of s.channels) {
      const { errors: errs, frames } = independentChannel(ind, c.kind, c.joint)!;
      const over = errs.flatMap((e, f) => (e > c.tolerance + 1e-9 ? [f] : []));
      expect(c.frames, `${c.kind} ${c.joint}`).toEqual(over);
      for (const f of c.frames) expect(Array.from(frames)).toContain(f);
      c.frames.forEach((f, k) => expect(Math.abs(c.errors[k] - errs[f])).toBeLessThan(1e-6));
      expect(c.worstError).toBe(Math.max(...c.errors));
      expect(c.errors[c.frames.indexOf(c.worstFrame)]).toBe(c.worstError);
      keys += c.frames.length;
    }
    expect(s.keys).toBe(keys);
    expect(s.totalKeys).toBe(r.totalKeys);
    expect(s.floor.object).toBeNull();
  });

  it('names the worst channels by error over tolerance (a tolerance of 0 first)', () => {
    const w = worstChannels(s);
    expect(w[0]).toMatchObject({ kind: 'rotation', joint: 3, tolerance: 0 });
    const ratio = (c: (typeof w)[number]) => c.worstError / c.tolerance;
    for (let k = 2; k < w.length; k++) expect(ratio(w[k - 1])).toBeGreaterThanOrEqual(ratio(w[k]));
  });

  it('is three lines: the count, the worst few with their real frames, the floor and where the list is', () => {
    const lines = unreachableLines(s, names, 'the report r.json lists every key over its tolerance');
    expect(lines).toHaveLength(3);
    const kinds = new Set(s.channels.map((c) => c.kind));
    expect(kinds).toEqual(new Set(['translation', 'rotation', 'offset']));
    const rot = s.channels.filter((c) => c.kind === 'rotation').length;
    const off = s.channels.filter((c) => c.kind === 'offset').length;
    expect(lines[0]).toBe(
      `tolerance not reachable at ${s.keys} of ${r.totalKeys} keys, in ${s.channels.length} channels (the root translation, ${rot} joint rotations, ${off} joint offsets): ` +
        'h16/s12 cannot store the source that closely there (stored precision limit); every frame that is not a key is within its tolerance',
    );
    const w = worstChannels(s)[0];
    expect(lines[1]).toMatch(
      new RegExp(
        `^worst: rotation of joint 3 joint_3 at frame ${w.worstFrame}, [0-9.e-]+ deg against 0 deg( \\(${w.frames.length} keys over it\\))?; `,
      ),
    );
    expect(lines[1].split('; ')).toHaveLength(WORST_SHOWN + 1);
    expect(lines[1]).toMatch(new RegExp(`; and ${s.channels.length - WORST_SHOWN} more channels$`));
    expect(lines[2]).toMatch(
      /^h16\/s12 store every frame of this motion within [0-9.e-]+ units \(root translation\), [0-9.e-]+ deg \(rotations\), [0-9.e-]+ units \(offsets\): tolerances from there are met everywhere; the report r\.json lists every key over its tolerance$/,
    );
    const withObject = unreachableLines({ ...s, floor: { ...s.floor, object: 0.0123456 } }, names, 'x', 0.001);
    expect(withObject[0]).toContain(
      `(the root translation, ${rot} joint rotations, ${off} joint offsets, at the tolerances the object-space bound 0.001 gives them): `,
    );
    expect(withObject[2]).toContain(
      'the smallest object-space bound it can be held to is about 0.01235 (its object-space error with every frame a key; the bound asked is 0.001); x',
    );
  });
});

describe('the object-space floor ceiling (objectFloorCeiling)', () => {
  it('is at or above the floor on every round-5 motion, a deep chain and offsets', () => {
    const motions = [
      ...Array.from({ length: 24 }, (_, seed) => roundFiveCase(seed).motion),
      deepChainMotion(200, 24),
      motion,
      // One joint: its rotation's rounding times the shell is all of its points' error.
      syntheticMotion({ frames: 60, joints: 1, seed: 5, noise: 0.02 }),
    ];
    for (const [i, m] of motions.entries())
      for (const shell of [0, 0.5, defaultShell(m), 100]) {
        const floor = precisionFloor(m, shell).object!;
        expect(objectFloorCeiling(m, shell), `motion ${i}, shell ${shell}`).toBeGreaterThanOrEqual(floor);
      }
  });
});
