import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompressRequest } from '../shared/ipc';
import { createCompressClient } from './compressClient';

/**
 * A stand-in worker speaking the compress protocol, so the client's queueing,
 * coalescing and crash recovery are tested apart from the compressor: it
 * answers after `delayMs`, reports which documents it knows (to see replays
 * after a restart), and exits when asked to compress revision 666.
 */
const FAKE_WORKER = `
const { parentPort } = require('node:worker_threads');
const docs = new Set();
parentPort.on('message', (msg) => {
  if (msg.type === 'open') docs.add(msg.documentId);
  else if (msg.type === 'close') docs.delete(msg.documentId);
  else if (msg.type === 'compress') {
    const r = msg.request;
    if (r.revision === 666) process.exit(3);
    if (!docs.has(r.documentId)) {
      parentPort.postMessage({ type: 'error', jobId: msg.jobId, error: { message: 'not open: ' + r.documentId } });
      return;
    }
    setTimeout(() => parentPort.postMessage({ type: 'result', jobId: msg.jobId,
      response: { status: 'done', documentId: r.documentId, revision: r.revision, compressMs: 1, knownDocuments: [...docs] } }), 30);
  }
});
`;

let dir: string;
let workerPath: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-fakeworker-'));
  workerPath = join(dir, 'fakeWorker.cjs');
  writeFileSync(workerPath, FAKE_WORKER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const req = (documentId: string, revision: number): CompressRequest => ({
  documentId, revision, translationKeyFlags: new Uint32Array(1), jointKeyFlags: new Uint32Array(1), motionFlags: 0, waistJoint: -1,
  tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 },
});

describe('compress client', () => {
  it('coalesces per document only; exports (coalesce: false) always run; an older revision arriving late is superseded at once', async () => {
    const client = createCompressClient({ workerPath });
    const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
    const b = client.open({ name: 'b', mtnBytes: new Uint8Array(1) });
    const results = await Promise.all([
      client.compress(req(a, 1)),
      client.compress(req(a, 2)),
      client.compress(req(b, 1)),
      client.compress(req(a, 3), { coalesce: false }),
      client.compress(req(a, 4)),
      client.compress(req(a, 2)),
    ]);
    expect(results.map((r) => `${r.documentId === a ? 'a' : 'b'}${r.revision}:${r.status}`)).toEqual(
      ['a1:done', 'a2:superseded', 'b1:done', 'a3:done', 'a4:done', 'a2:superseded'],
    );
    await client.dispose();
  });

  it('restarts a worker that died, fails only the job that was running, and replays the open documents', async () => {
    const client = createCompressClient({ workerPath });
    const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
    const crash = client.compress(req(a, 666));
    await expect(crash).rejects.toThrow(/the compressor stopped \(exit code 3\)/);
    const after = (await client.compress(req(a, 667))) as unknown as { status: string; knownDocuments: string[] };
    expect(after.status).toBe('done');
    expect(after.knownDocuments).toEqual([a]);
    client.close(a);
    await expect(client.compress(req(a, 668))).rejects.toThrow(/not open/);
    await client.dispose();
  });

  it('rejects queued and new requests after dispose', async () => {
    const client = createCompressClient({ workerPath });
    const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
    const running = client.compress(req(a, 1));
    const queued = client.compress(req(a, 2), { coalesce: false });
    const checks = [expect(running).rejects.toThrow(/shut down/), expect(queued).rejects.toThrow(/shut down/)];
    await client.dispose();
    await Promise.all(checks);
    await expect(client.compress(req(a, 3))).rejects.toThrow(/shut down/);
  });
});
