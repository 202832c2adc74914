import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyFlag, type Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { readMt3 } from '../../shared/mt3/read';
import { withMt3Name, writeMt3 } from '../../shared/mt3/write';
import { compressedMotionOf, type CompressedMotion } from '../../shared/project/plan';
import { gvStrCode } from '../../shared/strcode';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { compressMotion } from '../../shared/compress/compress';
import { DEFAULT_TOLERANCES, type CompressOptions } from '../../shared/compress/types';
import { verifyCompressed } from '../../shared/compress/verify';

const ASSETS = join(__dirname, '..', '..', 'assets');
const walk = readMtn(new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn'))));
const cmu = readMtn(new Uint8Array(readFileSync(join(ASSETS, 'cmu_01_01.mtn'))));

/** A compression and its summary without the bytes (what a cache entry claims). */
function compressed(
  m: Motion,
  options: CompressOptions,
): { value: CompressedMotion; claim: Omit<CompressedMotion, 'bytes'> } {
  const value = compressedMotionOf(compressMotion(m, options));
  const { bytes: _b, ...claim } = value;
  return { value, claim };
}

function expectRejected(outcome: ReturnType<typeof verifyCompressed>, reason: RegExp): void {
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) expect(outcome.reason).toMatch(reason);
}

describe('verifyCompressed', () => {
  const cases: [string, Motion, CompressOptions][] = [
    ['walk, refined', walk, { ...DEFAULT_TOLERANCES, name: 'walk' }],
    [
      'walk, classic, overrides',
      walk,
      { ...DEFAULT_TOLERANCES, name: 'walk', method: 'classic', rotationToleranceOverridesDeg: { 2: 0.1, 5: 2 } },
    ],
    ['cmu, loose', cmu, { positionTolerance: 1, rotationToleranceDeg: 2, offsetTolerance: 1, name: 'cmu_01_01' }],
    ['cmu, skeleton-aware', cmu, { ...DEFAULT_TOLERANCES, name: 'cmu', objectTolerance: 2 }],
    [
      'synthetic with offsets, user keys, locks and traces',
      syntheticMotion({ frames: 80, joints: 6, seed: 4, offsets: true, userKeys: 3, locks: 1, traceKeys: 2 }),
      { ...DEFAULT_TOLERANCES, name: 'synth' },
    ],
    // A tolerance below the stored precision: the compressor warns, and the check accepts the same warning.
    [
      'walk, unreachable tolerance',
      walk,
      { positionTolerance: 0, rotationToleranceDeg: 0, offsetTolerance: 0, name: 'walk', method: 'classic' },
    ],
  ];
  it.each(cases)(
    "accepts the compressor's own result and recomputes every figure it reports exactly (%s)",
    (_name, m, options) => {
      const { value, claim } = compressed(m, options);
      const outcome = verifyCompressed(m, options, value.bytes, claim);
      expect(outcome.ok).toBe(true);
      if (outcome.ok) expect({ ...outcome.value, ms: value.ms }).toEqual(value);
    },
  );

  it('recomputes the figures instead of reading them: a summary that lies is replaced by the truth', () => {
    const options = { ...DEFAULT_TOLERANCES, name: 'walk' };
    const { value, claim } = compressed(walk, options);
    const lie = {
      ...claim,
      totalKeys: 1,
      channels: claim.channels.map((c) => ({ ...c, maxError: 0 })),
      warnings: [],
      objectError: null,
    };
    const outcome = verifyCompressed(walk, options, value.bytes, lie);
    expect(outcome.ok && outcome.value.channels).toEqual(value.channels);
    expect(outcome.ok && outcome.value.totalKeys).toBe(value.totalKeys);
  });

  it("rejects another motion's MT3 even under this motion's name hash", () => {
    const options = { ...DEFAULT_TOLERANCES, name: 'walk' };
    const own = compressed(walk, options);
    // The same skeleton, frame count and root path, other rotations: only the recomputed errors tell them apart.
    const other = syntheticMotion({ frames: walk.frameCount, joints: walk.joints.length, seed: 9 });
    const impostor = {
      ...other,
      translation: walk.translation,
      joints: walk.joints,
      flags: walk.flags,
      waistJoint: walk.waistJoint,
      translationKeyInfo: walk.translationKeyInfo,
      jointKeyInfo: walk.jointKeyInfo,
    };
    const theirs = compressed(impostor, options);
    expectRejected(verifyCompressed(walk, options, theirs.value.bytes, own.claim), /off by/);
    expectRejected(
      verifyCompressed(
        walk,
        options,
        withMt3Name(compressed(cmu, { ...options, name: 'cmu' }).value.bytes, gvStrCode('walk')),
        own.claim,
      ),
      /joints|frames/,
    );
    expectRejected(
      verifyCompressed(walk, options, compressed(walk, { ...options, name: 'run' }).value.bytes, own.claim),
      /name hash/,
    );
  });

  it('rejects bytes compressed with looser tolerances than asked for', () => {
    const loose = compressed(walk, {
      positionTolerance: 5,
      rotationToleranceDeg: 10,
      offsetTolerance: 5,
      name: 'walk',
    });
    expectRejected(
      verifyCompressed(walk, { ...DEFAULT_TOLERANCES, name: 'walk' }, loose.value.bytes, loose.claim),
      /off by .* \(tolerance 0\.5\)/,
    );
  });

  it('rejects an MT3 that dropped a user key, and one with a changed trace or flags', () => {
    const keyed = syntheticMotion({ frames: 60, joints: 4, seed: 3, userKeys: 2, traceKeys: 1 });
    const options = { positionTolerance: 50, rotationToleranceDeg: 90, offsetTolerance: 50, name: 'keyed' };
    const { value, claim } = compressed(keyed, options);
    const mt3 = readMt3(value.bytes);
    const userFrame = (() => {
      for (let f = 1; f < keyed.frameCount; f++) if (keyed.jointKeyInfo[(f * 4 + 0) * 4] & KeyFlag.KEY) return f;
      return -1;
    })();
    expect(userFrame).toBeGreaterThan(0);
    const r0 = mt3.rotations[0];
    const k = r0.frames.indexOf(userFrame);
    const dropped = {
      ...mt3,
      rotations: [
        {
          frames: r0.frames.filter((_, i) => i !== k),
          rotation: r0.rotation.filter((_, i) => i >> 2 !== k),
          inner: r0.inner.filter((_, i) => i >> 2 !== k),
        },
        ...mt3.rotations.slice(1),
      ],
    };
    expectRejected(verifyCompressed(keyed, options, writeMt3(dropped), claim), /drops the user key/);
    expectRejected(verifyCompressed(keyed, options, writeMt3({ ...mt3, flags: mt3.flags | 0x100 }), claim), /flags/);
    const trace = { ...mt3.move!, position: mt3.move!.position.map((v, i) => (i === 0 ? v ^ 1 : v)) };
    expectRejected(verifyCompressed(keyed, options, writeMt3({ ...mt3, move: trace }), claim), /trace/);
  });

  it('rejects junk, truncated and non-canonical bytes and never throws, whatever the claim', () => {
    const options = { ...DEFAULT_TOLERANCES, name: 'walk' };
    const { value, claim } = compressed(walk, options);
    expectRejected(verifyCompressed(walk, options, new Uint8Array(64).fill(0xab), claim), /does not read/);
    expectRejected(
      verifyCompressed(walk, options, value.bytes.subarray(0, value.bytes.length - 3), claim),
      /does not read/,
    );
    const padded = new Uint8Array(value.bytes.length + 2);
    padded.set(value.bytes);
    expectRejected(verifyCompressed(walk, options, padded, claim), /.+/);
    for (const weird of [null, 7, 'x', [], { channels: null }, { channels: [{}], skeleton: null, ms: -1 }])
      expect(verifyCompressed(walk, options, value.bytes, weird).ok).toBe(true);
  });

  it('in the skeleton-aware mode, rejects bytes over the object tolerance and tolerances it did not derive', () => {
    const options = { ...DEFAULT_TOLERANCES, name: 'cmu', objectTolerance: 2 };
    const { value, claim } = compressed(cmu, options);
    const tighter = { ...options, objectTolerance: 0.05 };
    expectRejected(verifyCompressed(cmu, tighter, value.bytes, claim), /object|off by/);
    const stretched = {
      ...claim,
      channels: claim.channels.map((c) => (c.kind === 'rotation' ? { ...c, tolerance: 500 } : c)),
    };
    expectRejected(verifyCompressed(cmu, options, value.bytes, stretched), /not a derived one/);
    expectRejected(
      verifyCompressed(cmu, options, value.bytes, { ...claim, skeleton: { ...claim.skeleton, rounds: 99 } }),
      /round count/,
    );
  });
});
