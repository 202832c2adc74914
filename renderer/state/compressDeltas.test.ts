import { describe, expect, it } from 'vitest';
import { CompressCache } from '../../shared/compress/cache';
import { compressMotion } from '../../shared/compress/compress';
import { diffCompressResponse } from '../../shared/compress/delta';
import { compressRequestForMotion } from '../../shared/compress/request';
import type { CompressOutcome, CompressRequest, CompressResponse } from '../../shared/ipc/compress';
import { KeyFlag } from '../../shared/motion/types';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { withCompressDeltas } from './compressDeltas';

/**
 * A fake compressor that behaves as the worker does: compresses with a channel cache, remembers the last answer
 * per method, and answers a request naming that answer's revision with a delta.
 */
function fakeWorker() {
  const m = syntheticMotion({ frames: 120, joints: 4, seed: 6, noise: 0.02 });
  const cache = new CompressCache();
  const sent = new Map<string, CompressResponse>();
  const requests: CompressRequest[] = [];
  const compress = async (req: CompressRequest): Promise<CompressOutcome> => {
    requests.push(req);
    for (let i = 0; i < req.jointKeyFlags.length; i++) m.jointKeyInfo[i * 4] = req.jointKeyFlags[i];
    const r = compressMotion(
      m,
      {
        positionTolerance: 0.3,
        rotationToleranceDeg: 0.5,
        offsetTolerance: 0.3,
        name: 'fake',
        method: req.tolerances.method,
      },
      cache,
    );
    const response: CompressResponse = {
      status: 'done',
      documentId: req.documentId,
      revision: req.revision,
      mt3: r.mt3,
      channels: r.channels,
      warnings: r.warnings,
      totalKeys: r.totalKeys,
      mt3Bytes: r.mt3Bytes,
      mtnBytes: r.mtnBytes,
      ratio: r.ratio,
      method: r.method,
      objectError: r.objectError,
      compressMs: 0,
    };
    const base = sent.get(r.method);
    if (!req.includeBytes) sent.set(r.method, response);
    return base && req.knownRevision === base.revision && !req.includeBytes
      ? diffCompressResponse(base, response)
      : response;
  };
  const request = (
    revision: number,
    keyFrame: number | null,
    extra: Partial<CompressRequest> = {},
  ): CompressRequest => {
    const req = {
      ...compressRequestForMotion(m, 'doc', revision, {
        positionTolerance: 0.3,
        rotationToleranceDeg: 0.5,
        offsetTolerance: 0.3,
        method: 'classic',
      }),
      ...extra,
    };
    if (keyFrame !== null) req.jointKeyFlags[keyFrame * 4 + 1] |= KeyFlag.KEY;
    return req;
  };
  return { compress, requests, request, sent };
}

describe('withCompressDeltas', () => {
  it('names the answer it holds, rebuilds the delta, and returns what a whole answer would be', async () => {
    const w = fakeWorker();
    const answered: string[] = [];
    const compress = withCompressDeltas(async (req) => {
      const out = await w.compress(req);
      answered.push(out.status);
      return out;
    });
    const first = await compress(w.request(1, null));
    expect(first.status).toBe('done');
    expect(w.requests[0].knownRevision).toBeUndefined();
    const second = await compress(w.request(2, 61));
    expect(w.requests[1].knownRevision).toBe(1);
    // The worker answered with a delta; the wrapper turned it back into a whole answer.
    expect(answered).toEqual(['done', 'delta']);
    expect(second.status).toBe('done');
    // Narrows the types only: both statuses are asserted above, so this never returns early.
    if (second.status !== 'done' || first.status !== 'done') throw new Error('asserted above');
    expect(second.channels.find((c) => c.joint === 1)!.userKeyFrames).toEqual([61]);
    // Untouched channels are the held answer's objects.
    expect(second.channels[0]).toBe(first.channels[0]);
    const whole = await withCompressDeltas(w.compress)(w.request(2, 61));
    expect({ ...second }).toEqual(whole);
  });

  it('asks again without a base when the answer a delta was made against is no longer held', async () => {
    const w = fakeWorker();
    const compress = withCompressDeltas(w.compress);
    await compress(w.request(1, null));
    // The worker answered revision 7 to someone else; the wrapper holds 1 only... then the worker forgets 1 and
    // deltas against a revision the wrapper never saw.
    const lying = async (req: CompressRequest): Promise<CompressOutcome> => {
      const out = await w.compress(req);
      return out.status === 'delta' ? { ...out, baseRevision: 99 } : out;
    };
    const wrapped = withCompressDeltas(lying);
    await wrapped(w.request(1, null));
    const r = await wrapped(w.request(2, 30));
    expect(r.status).toBe('done');
    expect(w.requests.map((q) => q.knownRevision)).toEqual([undefined, undefined, 1, undefined]);
    if (r.status === 'done') expect(r.channels.find((c) => c.joint === 1)!.userKeyFrames).toEqual([30]);
  });

  it('never asks for a delta with the file bytes, and passes superseded answers through', async () => {
    const w = fakeWorker();
    const compress = withCompressDeltas(w.compress);
    await compress(w.request(1, null));
    await compress(w.request(2, null, { includeBytes: true }));
    expect(w.requests[1].knownRevision).toBeUndefined();
    const superseded = withCompressDeltas(async (req) => ({
      status: 'superseded',
      documentId: req.documentId,
      revision: req.revision,
      supersededBy: req.revision + 1,
    }));
    expect((await superseded(w.request(3, null))).status).toBe('superseded');
  });
});
