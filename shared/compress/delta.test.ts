import { describe, expect, it } from 'vitest';
import type { CompressResponse } from './request';
import { KeyFlag, type Motion } from '../motion/types';
import { syntheticMotion } from '../testing/syntheticMotion';
import { CompressCache } from './cache';
import { compressMotion } from './compress';
import { applyCompressDelta, deltaPossible, diffCompressResponse } from './delta';
import type { CompressOptions } from './types';

const options: CompressOptions = {
  positionTolerance: 0.3,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.3,
  name: 'delta',
  method: 'classic',
};

/** A compression as the worker answers it (electron/compress/apply.ts shapes the same fields). */
function answer(m: Motion, revision: number, cache?: CompressCache, o: CompressOptions = options): CompressResponse {
  const r = compressMotion(m, o, cache);
  return {
    status: 'done',
    documentId: 'doc',
    revision,
    mt3: r.mt3,
    channels: r.channels,
    warnings: r.warnings,
    totalKeys: r.totalKeys,
    mt3Bytes: r.mt3Bytes,
    mtnBytes: r.mtnBytes,
    ratio: r.ratio,
    method: r.method,
    objectError: r.objectError,
    compressMs: r.ms,
  };
}

describe('compress deltas', () => {
  it('after a key toggle sends only the touched channel and track, and rebuilds the very answer a fresh run gives', () => {
    for (const offsets of [false, true]) {
      const m = syntheticMotion({ frames: 200, joints: 5, seed: 3, offsets, noise: 0.02 });
      const cache = new CompressCache();
      const first = answer(m, 1, cache);
      let frame = 90;
      while (first.channels.find((c) => c.kind === 'rotation' && c.joint === 2)!.keyFrames.includes(frame)) frame++;
      m.jointKeyInfo[(frame * 5 + 2) * 4] |= KeyFlag.KEY;
      const second = answer(m, 2, cache);
      const delta = diffCompressResponse(first, second);
      expect(delta).toMatchObject({ status: 'delta', baseRevision: 1, revision: 2 });
      // The rotation (and offset) channel of joint 2 only.
      const sent = delta.channels.flatMap((c, i) =>
        c ? [`${second.channels[i].kind}:${second.channels[i].joint}`] : [],
      );
      expect(sent).toEqual(offsets ? ['rotation:2', 'offset:2'] : ['rotation:2']);
      expect(delta.mt3.root).toBeNull();
      expect(delta.mt3.rotations.map((t) => t !== null)).toEqual([false, false, true, false, false]);
      if (offsets) expect(delta.mt3.offsets!.map((t) => t !== null)).toEqual([false, false, true, false, false]);
      else expect(delta.mt3.offsets).toBeNull();
      const rebuilt = applyCompressDelta(first, delta);
      const fresh = answer(m, 2);
      expect({ ...rebuilt, compressMs: 0 }).toEqual({ ...fresh, compressMs: 0 });
      expect(rebuilt.totalKeys).toBe(first.totalKeys + 1);
    }
  });

  it('sends every channel when nothing was reused, and nothing when nothing changed', () => {
    const m = syntheticMotion({ frames: 80, joints: 3, seed: 9 });
    const cache = new CompressCache();
    const a = answer(m, 1, cache);
    const loose = diffCompressResponse(a, answer(m, 2, cache, { ...options, rotationToleranceDeg: 2 }));
    expect(loose.channels.filter((c) => c !== null).map((c) => c!.kind)).toEqual(['rotation', 'rotation', 'rotation']);
    expect(loose.mt3.rotations.every((t) => t !== null)).toBe(true);
    const b = answer(m, 3, cache, { ...options, rotationToleranceDeg: 2 });
    const same = diffCompressResponse(answer(m, 2, cache, { ...options, rotationToleranceDeg: 2 }), b);
    expect(same.channels.every((c) => c === null)).toBe(true);
    expect(same.mt3.rotations.every((t) => t === null)).toBe(true);
    // An equal-looking answer made without the cache shares no arrays: it is sent whole, never matched by value.
    const uncached = diffCompressResponse(b, answer(m, 4, undefined, { ...options, rotationToleranceDeg: 2 }));
    expect(uncached.channels.every((c) => c !== null)).toBe(true);
  });

  it('refuses to compare or apply across documents, methods and revisions', () => {
    const m = syntheticMotion({ frames: 60, joints: 2, seed: 1 });
    const cache = new CompressCache();
    const a = answer(m, 1, cache);
    const b = answer(m, 2, cache);
    expect(() => diffCompressResponse(a, { ...b, documentId: 'other' })).toThrow(/cannot be compared/);
    expect(() => diffCompressResponse(a, { ...b, method: 'refined' })).toThrow(/cannot be compared/);
    const delta = diffCompressResponse(a, b);
    expect(() => applyCompressDelta(b, delta)).toThrow(
      /made against doc\/classic revision 1, applied to doc\/classic revision 2/,
    );
    expect(() => applyCompressDelta({ ...a, channels: a.channels.slice(1) }, delta)).toThrow(/same channels/);
    expect(() => diffCompressResponse(a, { ...b, channels: b.channels.slice(1) })).toThrow(/same channels/);
    // The offsets flag switched on adds a channel per joint: no delta.
    const withOffsets = syntheticMotion({ frames: 60, joints: 2, seed: 1, offsets: true });
    const c = answer(withOffsets, 3);
    expect(deltaPossible(a, b)).toBe(true);
    expect(deltaPossible(a, c)).toBe(false);
    expect(deltaPossible(a, { ...b, channels: b.channels.map((x, i) => (i === 1 ? { ...x, joint: 7 } : x)) })).toBe(
      false,
    );
    expect(() => diffCompressResponse(a, c)).toThrow(/same channels/);
  });
});
