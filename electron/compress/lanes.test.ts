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
    // A new tolerance: every channel is refined again (hundreds of ms); its greedy answer takes tens.
    const refined = client.compress(request(2, 'refined', 0.3), { coalesce: false }).then((r) => order.push(`refined:${r.status}`));
    const classic = client.compress(request(3, 'classic', 0.2)).then((r) => order.push(`classic:${r.status}`));
    await Promise.all([refined, classic]);
    expect(order).toEqual(['classic:done', 'refined:done']);
  });

  it('stops the running refinement of an edit when a newer edit of the same motion asks to be refined', async () => {
    client = createCompressClient({ workerPath: workerPath() });
    const doc = client.open({ name: 'cmu_01_01', mtnBytes });
    const request = (revision: number, rotationToleranceDeg: number) =>
      compressRequestForMotion(motion, doc, revision, { ...DEFAULT_TOLERANCES, rotationToleranceDeg, method: 'refined' });
    const old = client.compress(request(1, 0.3));
    const newer = client.compress(request(2, 0.4));
    expect(await old).toEqual({ status: 'superseded', documentId: doc, revision: 1, supersededBy: 2 });
    const done = await newer;
    expect(done.status).toBe('done');
    if (done.status === 'done') expect(done.method).toBe('refined');
  });
});
