/**
 * The compress client with the real worker on the bundled CMU capture: an
 * edit's classic (greedy) answer never waits behind the refinement of the
 * previous edit, and a refinement the user has already replaced stops early.
 * Assertions are on order and outcome, never on elapsed time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../../shared/compress/request';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { applyCompressDelta } from '../../shared/compress/delta';
import { KeyFlag, MotionFlag } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { createCompressClient, type CompressClient } from '../compressClient';
import { useBuiltCompressWorker } from './buildWorkerForTests';

const workerPath = useBuiltCompressWorker();
const mtnBytes = new Uint8Array(readFileSync(join(__dirname, '..', '..', 'assets', 'cmu_01_01.mtn')));
const motion = readMtn(mtnBytes);
let client: CompressClient | null = null;
afterEach(async () => {
  await client?.dispose();
  client = null;
});

describe('compress lanes with the real worker (cmu_01_01)', () => {
  it('answers the classic request of an edit while the refinement of the edit before still runs', async () => {
    client = createCompressClient({ workerPath: workerPath() });
    const doc = client.open({ name: 'cmu_01_01', mtnBytes });
    const request = (revision: number, method: 'classic' | 'refined', rotationToleranceDeg: number) =>
      compressRequestForMotion(motion, doc, revision, { ...DEFAULT_TOLERANCES, rotationToleranceDeg, method });
    // Start both workers (and their caches) first.
    await Promise.all([client.compress(request(1, 'classic', 0.5)), client.compress(request(1, 'refined', 0.5))]);
    const order: string[] = [];
    // A new tolerance: every channel is refined again (150-400 ms); the next edit's greedy answer is at the
    // tolerance the classic lane answered above, so every channel comes from that worker's cache (a few ms). Far
    // enough apart that a loaded machine does not swap them: only a classic answer queued behind the refinement
    // would come second.
    const refined = client
      .compress(request(2, 'refined', 0.3), { coalesce: false })
      .then((r) => order.push(`refined:${r.status}`));
    const classic = client.compress(request(3, 'classic', 0.5)).then((r) => order.push(`classic:${r.status}`));
    await Promise.all([refined, classic]);
    expect(order).toEqual(['classic:done', 'refined:done']);
  });

  it('stops the running refinement of an edit when a newer edit of the same motion asks to be refined', async () => {
    client = createCompressClient({ workerPath: workerPath() });
    const doc = client.open({ name: 'cmu_01_01', mtnBytes });
    const request = (revision: number, rotationToleranceDeg: number) =>
      compressRequestForMotion(motion, doc, revision, {
        ...DEFAULT_TOLERANCES,
        rotationToleranceDeg,
        method: 'refined',
      });
    const old = client.compress(request(1, 0.3));
    const newer = client.compress(request(2, 0.4));
    expect(await old).toEqual({ status: 'superseded', documentId: doc, revision: 1, supersededBy: 2 });
    const done = await newer;
    expect(done.status).toBe('done');
    if (done.status === 'done') expect(done.method).toBe('refined');
  });

  it('answers with a delta against the revision the caller names, and whole otherwise', async () => {
    client = createCompressClient({ workerPath: workerPath() });
    const doc = client.open({ name: 'cmu_01_01', mtnBytes });
    const J = motion.joints.length;
    const request = (revision: number, keyFrame: number | null, knownRevision?: number) => {
      const r = compressRequestForMotion(motion, doc, revision, { ...DEFAULT_TOLERANCES, method: 'classic' });
      if (keyFrame !== null) r.jointKeyFlags[keyFrame * J + 5] |= KeyFlag.KEY;
      return knownRevision === undefined ? r : { ...r, knownRevision };
    };
    const first = await client.compress(request(1, null));
    expect(first.status).toBe('done');
    // A key on joint 5, against revision 1: only that joint's channel comes back.
    const delta = await client.compress(request(2, 301, 1));
    if (delta.status !== 'delta' || first.status !== 'done') throw new Error(`expected a delta, got ${delta.status}`);
    expect(delta.baseRevision).toBe(1);
    expect(delta.channels.flatMap((c) => (c ? [`${c.kind}:${c.joint}`] : []))).toEqual(['rotation:5']);
    const rebuilt = applyCompressDelta(first, delta);
    expect(rebuilt.channels.find((c) => c.joint === 5 && c.kind === 'rotation')!.userKeyFrames).toEqual([301]);
    // The same request whole (no base named) is what the delta stands for.
    const whole = await client.compress(request(3, 301));
    if (whole.status !== 'done') throw new Error(`expected a whole answer, got ${whole.status}`);
    expect({ ...rebuilt, revision: 3, compressMs: 0 }).toEqual({ ...whole, compressMs: 0 });
    // A base the worker did not send last (revision 2 was replaced by 3) gets a whole answer.
    expect((await client.compress(request(4, 301, 2))).status).toBe('done');
    expect((await client.compress(request(5, null, 4))).status).toBe('delta');
    // The offsets flag adds a channel per joint: the answer goes whole, however the base was named.
    const withOffsets = { ...request(6, null, 5), motionFlags: motion.flags | MotionFlag.OFFSETS };
    const flagged = await client.compress(withOffsets);
    expect(flagged.status).toBe('done');
    if (flagged.status === 'done') expect(flagged.channels.filter((c) => c.kind === 'offset')).toHaveLength(J);
  });
});
