/**
 * Named extreme motions (docs/compression.md#extreme-motions-2026-12-04), each compressed classic, refined (the
 * default) and skeleton-aware at the usual tolerances, at the precision floor, below it and at zero, and checked by
 * the independent decoder as the adversarial harness does (guaranteeViolations: every frame that is not a key within
 * its channel's tolerance, user keys written, keys over tolerance named by a warning, nothing NaN), each channel's
 * tolerance the one asked for, and the same bytes from a second run.
 */
import { describe, expect, it } from 'vitest';
import { KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../motion/types';
import { guaranteeViolations } from '../testing/hostileMotions';
import { axisAngle, quatProduct, setRotation } from '../testing/quaternions';
import { seededRandom } from '../testing/random';
import { toleranceMismatches } from '../testing/toleranceMismatches';
import { compressChannelShare, compressMotion, compressWithShares } from './compress';
import type { CompressOptions } from './types';

const J = 3;
const chain = (n = J): JointInfo[] =>
  Array.from({ length: n }, (_, j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 }));

/** The rotation of Euler angles (degrees) applied X, then Y, then Z (about fixed axes), as a BVH or FBX XYZ source. */
export function eulerXyz(x: number, y: number, z: number): number[] {
  return quatProduct(axisAngle([0, 0, 1], z), quatProduct(axisAngle([0, 1, 0], y), axisAngle([1, 0, 0], x)));
}

/** A motion of N frames whose joint j has rotation rot(f, j), root translation root(f) and offsets off(f, j). */
export function build(
  N: number,
  rot: (f: number, j: number) => number[],
  root: (f: number) => number[] = (f) => [Math.sin(f * 0.05) * 20, 90, f * 0.5],
  off?: (f: number, j: number) => number[],
  joints = J,
): Motion {
  const m = emptyMotion(N, chain(joints), 30);
  if (off) m.flags |= MotionFlag.OFFSETS;
  for (let f = 0; f <= N; f++) {
    m.translation.set([...root(f), 0], f * 4);
    for (let j = 0; j < joints; j++) {
      setRotation(m, f, j, rot(f, j));
      m.offset.set([...(off ? off(f, j) : [0, j ? 20 : 0, 0]), 0], (f * joints + j) * 4);
    }
  }
  return m;
}

const smooth = (f: number, j: number) => axisAngle([1, 0.3 * j, 0.5], 60 * Math.sin(f * 0.07 + j));

/** The named motions (docs/compression.md#extreme-motions-2026-12-04). */
export function extremeMotions(): { name: string; motion: Motion }[] {
  const r = seededRandom(20261204);
  const noiseQ = () => {
    // A uniformly random rotation (Shoemake).
    const [u1, u2, u3] = [r(), r(), r()];
    const a = Math.sqrt(1 - u1),
      b = Math.sqrt(u1);
    return [
      a * Math.sin(2 * Math.PI * u2),
      a * Math.cos(2 * Math.PI * u2),
      b * Math.sin(2 * Math.PI * u3),
      b * Math.cos(2 * Math.PI * u3),
    ];
  };
  const N = 120;
  const out: { name: string; motion: Motion }[] = [
    { name: 'sign flip every frame', motion: build(N, (f, j) => smooth(f, j).map((c) => (f % 2 ? -c : c))) },
    { name: 'through 180 degrees slowly', motion: build(N, (f, j) => axisAngle([0, 1, j * 0.2], 3 * f + 90 * j)) },
    {
      name: 'near half turns between frames',
      motion: build(N, (f, j) => axisAngle([0.2 * j, 1, 0], [179, 180, 181][j] * f)),
    },
    {
      name: 'gimbal-locked Euler source',
      // Y at 90 degrees (give or take a hair): X and Z swing wildly against each other, the rotation barely moves.
      motion: build(N, (f, j) =>
        eulerXyz(170 * Math.sin(f * 0.3), 90 - j * 1e-4 * (f % 2), -170 * Math.sin(f * 0.3) + 5 * Math.sin(f * 0.05)),
      ),
    },
    {
      name: 'Euler source flipping through the lock',
      // The same rotation written as (x, y, z) and as (x + 180, 180 - y, z + 180) on alternate frames near y = 90.
      motion: build(N, (f) => {
        const [x, y, z] = [20 * Math.sin(f * 0.1), 89 + 2 * Math.sin(f * 0.2), 10];
        return f % 2 ? eulerXyz(x + 180, 180 - y, z + 180) : eulerXyz(x, y, z);
      }),
    },
    {
      name: 'constant channels',
      motion: build(
        N,
        (_, j) => axisAngle([1, 2, 3], 33 * j + 1),
        () => [5, 90, -7],
      ),
    },
    {
      name: 'single spike frame',
      motion: build(
        N,
        (f, j) => (f === 60 ? quatProduct(axisAngle([0, 0, 1], 120), smooth(f, j)) : smooth(f, j)),
        (f) => (f === 60 ? [1000, -500, 250] : [Math.sin(f * 0.05) * 20, 90, f * 0.5]),
        (f, j) => (f === 61 ? [0, j ? 300 : 0, 0] : [0, j ? 20 : 0, 0]),
      ),
    },
    {
      name: 'white noise',
      motion: build(
        N,
        () => noiseQ(),
        () => [r() * 200 - 100, r() * 200 - 100, r() * 200 - 100],
        () => [r() * 40 - 20, r() * 40 - 20, r() * 40 - 20],
      ),
    },
    { name: 'two frames (frameCount 1)', motion: build(1, (f, j) => axisAngle([0, 1, 0], 170 * f + j)) },
    { name: 'three frames (frameCount 2)', motion: build(2, (f, j) => axisAngle([1, 0, 0], f === 1 ? 179 : -j)) },
    {
      name: 'huge translations (1e6)',
      motion: build(
        N,
        smooth,
        (f) => [1e6 + 30 * Math.sin(f * 0.05), -1e6, 1e6 - f],
        (f, j) => [j ? 1e6 + f : 0, j ? -1e6 : 0, 0.5 * f],
      ),
    },
  ];
  // User keys at every frame of every channel; locks and trace keys on the first and last frames.
  const keys = build(N, smooth);
  keys.jointKeyInfo.forEach((_, i) => i % 4 === 0 && (keys.jointKeyInfo[i] |= KeyFlag.KEY));
  keys.translationKeyInfo.forEach((_, i) => i % 4 === 0 && (keys.translationKeyInfo[i] |= KeyFlag.KEY));
  out.push({ name: 'user keys at every frame', motion: keys });
  const ends = build(N, (f, j) => smooth(f, j).map((c) => (f % 3 ? c : -c)));
  for (const f of [0, N]) {
    ends.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
    ends.jointKeyInfo[(f * J + (f ? 2 : 0)) * 4] |= KeyFlag.LOCK;
  }
  ends.jointKeyInfo[(1 * J + 1) * 4] |= KeyFlag.LOCK;
  ends.translationKeyInfo[(N - 1) * 4] |= KeyFlag.TRACE | KeyFlag.KEY;
  out.push({ name: 'locks and trace keys on the first and last frames', motion: ends });
  return out;
}

/** Tolerances (units, degrees): usual, the h16 / s12 floor, below it, zero. */
const TOLERANCES = [
  [0.05, 0.5],
  [0.005, 0.05],
  [0.001, 0.01],
  [0, 0],
] as const;

export function extremeRuns(): { label: string; options: CompressOptions }[] {
  const runs: { label: string; options: CompressOptions }[] = [];
  for (const [p, deg] of TOLERANCES) {
    const base: CompressOptions = { positionTolerance: p, rotationToleranceDeg: deg, offsetTolerance: p, name: 'x' };
    runs.push({ label: `refined ${p}/${deg}`, options: base });
    runs.push({ label: `classic ${p}/${deg}`, options: { ...base, method: 'classic' } });
    runs.push({
      label: `refined ${p}/${deg}, overrides 0.001 / 179 / 0 deg`,
      options: { ...base, rotationToleranceOverridesDeg: { 0: 0.001, 1: 179, 2: 0 } },
    });
    if (p > 0) runs.push({ label: `skeleton-aware 0.1 at ${p}/${deg}`, options: { ...base, objectTolerance: 0.1 } });
  }
  return runs;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

describe('extreme motions keep the guarantee in every mode', () => {
  for (const { name, motion } of extremeMotions())
    it(
      name,
      () => {
        const failures: string[] = [];
        for (const run of extremeRuns()) {
          const res = compressMotion(motion, run.options);
          for (const v of guaranteeViolations(motion, res)) failures.push(`${run.label}: ${v}`);
          for (const v of toleranceMismatches(motion, run.options, res)) failures.push(`${run.label}: ${v}`);
          if (!same(compressMotion(motion, run.options).bytes, res.bytes))
            failures.push(`${run.label}: second run differs`);
        }
        expect(failures).toEqual([]);
      },
      120_000,
    );
});

describe('a 20,000-frame motion', () => {
  it('keeps the guarantee classic, refined and skeleton-aware, with the same bytes from a second run and from channel shares', () => {
    const r = seededRandom(7);
    // Smooth, with noise, a spike, a sign flip every frame on joint 1 and a half turn a frame on joint 2's axis.
    const m = build(
      20_000,
      (f, j) => {
        const q = quatProduct(smooth(f, j), axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], r() * 0.3));
        if (f === 12_345) return axisAngle([0, 0, 1], 150);
        return j === 1 && f % 2 ? q.map((c) => -c) : j === 2 ? quatProduct(axisAngle([0, 1, 0], 180 * (f % 2)), q) : q;
      },
      (f) => [Math.sin(f * 0.01) * 300, 90 + (r() - 0.5) * 0.02, f * 0.25],
    );
    m.jointKeyInfo[0] |= KeyFlag.LOCK;
    m.translationKeyInfo[20_000 * 4] |= KeyFlag.TRACE;
    const failures: string[] = [];
    for (const options of [
      { positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05, name: 'long' },
      { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005, name: 'long', method: 'classic' },
      { positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05, name: 'long', objectTolerance: 1 },
    ] as CompressOptions[]) {
      const res = compressMotion(m, options);
      const label = JSON.stringify(options);
      for (const v of guaranteeViolations(m, res)) failures.push(`${label}: ${v}`);
      if (!same(compressMotion(m, options).bytes, res.bytes)) failures.push(`${label}: second run differs`);
      if (options.objectTolerance === undefined) {
        const shares = [0, 1, 2].map((i) => compressChannelShare(m, options, i, 3));
        if (!same(compressWithShares(m, options, shares).bytes, res.bytes)) failures.push(`${label}: shares differ`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
