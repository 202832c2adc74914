import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompressRequest } from '../shared/ipc/compress';
import type { MshExportOptions } from '../shared/msh/export';
import { createCompressClient } from './compressClient';
import { heldThread, workerFile } from './testing/heldThread';

/**
 * A stand-in worker speaking the compress protocol, so the client's queueing,
 * coalescing and crash recovery are tested apart from the compressor: it
 * answers after `delayMs`, reports which documents it knows (to see replays
 * after a restart), and exits when asked to compress revision 666. Revision 100
 * never finishes by itself: it polls the shared abort word and answers
 * `aborted` once the client names its job there.
 */
const FAKE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const abort = workerData && workerData.abortWord ? new Int32Array(workerData.abortWord) : null;
const docs = new Set();
parentPort.on('message', (msg) => {
  if (msg.type === 'open') docs.add(msg.documentId);
  else if (msg.type === 'close') docs.delete(msg.documentId);
  else if (msg.type === 'compress') {
    const r = msg.request;
    if (r.revision === 666) process.exit(3);
    if (r.revision === 100) {
      const poll = setInterval(() => {
        if (abort && Atomics.load(abort, 0) === msg.jobId) {
          clearInterval(poll);
          parentPort.postMessage({ type: 'aborted', jobId: msg.jobId });
        }
      }, 2);
      return;
    }
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

const req = (documentId: string, revision: number, method?: 'classic' | 'refined'): CompressRequest => ({
  documentId,
  revision,
  translationKeyFlags: new Uint32Array(1),
  jointKeyFlags: new Uint32Array(1),
  motionFlags: 0,
  waistJoint: -1,
  tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1, ...(method ? { method } : {}) },
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
    expect(results.map((r) => `${r.documentId === a ? 'a' : 'b'}${r.revision}:${r.status}`)).toEqual([
      'a1:done',
      'a2:superseded',
      'b1:done',
      'a3:done',
      'a4:done',
      'a2:superseded',
    ]);
    await client.dispose();
  });

  it('answers a classic request while a refined one is still running (two lanes), and stops the running refined job when a newer one arrives', async () => {
    const client = createCompressClient({ workerPath });
    const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
    const order: string[] = [];
    const refinedOld = client.compress(req(a, 100, 'refined')).then((r) => (order.push(`refined100:${r.status}`), r));
    const classic = await client.compress(req(a, 99, 'classic'));
    order.push(`classic99:${classic.status}`);
    // The refined job of revision 100 never finishes by itself; revision 101 makes the client ask it to stop.
    const refinedNew = client.compress(req(a, 101)).then((r) => (order.push(`refined101:${r.status}`), r));
    const stopped = await refinedOld;
    expect(stopped).toEqual({ status: 'superseded', documentId: a, revision: 100, supersededBy: 101 });
    await refinedNew;
    expect(order).toEqual(['classic99:done', 'refined100:superseded', 'refined101:done']);
    await client.dispose();
  });

  for (const [what, coalesce, newer] of [
    ['a running export (coalesce: false), even for a newer revision', false, 'a'],
    ['a running job when another document gets a newer revision', true, 'b'],
  ] as const) {
    it(`never stops ${what}`, async () => {
      const client = createCompressClient({ workerPath });
      const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
      const b = client.open({ name: 'b', mtnBytes: new Uint8Array(1) });
      const held = client.compress(req(a, 100), { coalesce });
      let settled = false;
      held.then(
        () => (settled = true),
        () => undefined,
      );
      const later = client.compress(req(newer === 'a' ? a : b, 102));
      // A classic job on the other lane takes 30 ms, many polls of the held job's abort word.
      expect((await client.compress(req(b, 5, 'classic'))).status).toBe('done');
      const dispose = client.dispose();
      await expect(later).rejects.toThrow(/shut down/);
      await expect(held).rejects.toThrow(/shut down/);
      expect(settled).toBe(false);
      await dispose;
    });
  }

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

  // Mutation that fails: lost() putting the running job back in the queue (it restarts for good on a worker that
  // fails at load, and never settles).
  it('a worker that throws as it loads fails each job once with its error and is started again for the next', async () => {
    const broken = join(dir, 'brokenAtLoad.cjs');
    writeFileSync(broken, "throw new Error('broken at load');\n");
    const client = createCompressClient({ workerPath: broken });
    const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
    const first = client.compress(req(a, 1), { coalesce: false });
    const second = client.compress(req(a, 2), { coalesce: false });
    await expect(first).rejects.toThrow('the compressor stopped (broken at load); the next edit restarts it');
    await expect(second).rejects.toThrow('the compressor stopped (broken at load); the next edit restarts it');
    await expect(client.compress(req(a, 3))).rejects.toThrow('broken at load');
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

  // Maintainer's read, round 16: on Windows and Linux the last window's close disposes the client and the quit's
  // will-quit disposes it again, waiting (a bounded while) for its threads to end. Mutation that fails: dispose not
  // kept once (the second found no thread left and answered at once, while the first still waited for one).
  it.skipIf(process.platform === 'win32')(
    'a second dispose waits for the threads the first is stopping, one held in native code too',
    async () => {
      const fifo = join(dir, 'never-written');
      execFileSync('mkfifo', [fifo]);
      const reading = join(dir, 'reading');
      const stuckPath = join(dir, 'stuckWorker.cjs');
      // A compress job it reads a FIFO that no one writes to: terminate() cannot end the thread until the open returns.
      writeFileSync(
        stuckPath,
        "const { parentPort } = require('node:worker_threads'); const fs = require('node:fs');\n" +
          `parentPort.on('message', (msg) => { if (msg.type !== 'compress') return; fs.writeFileSync(${JSON.stringify(reading)}, ''); fs.openSync(${JSON.stringify(fifo)}, 'r'); });\n`,
      );
      const client = createCompressClient({ workerPath: stuckPath });
      const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
      const refused = expect(client.compress(req(a, 1))).rejects.toThrow(/shut down/);
      await vi.waitFor(() => expect(existsSync(reading)).toBe(true), { timeout: 25_000 });
      const ended: string[] = [];
      const first = client.dispose().then(() => ended.push('first'));
      const second = client.dispose().then(() => ended.push('second'));
      await refused;
      await new Promise((resolve) => setImmediate(resolve));
      expect(ended).toEqual([]);
      // The open returns once the FIFO has a writer; the thread then ends, and both disposes with it.
      closeSync(openSync(fifo, 'w'));
      await Promise.all([first, second]);
      expect(ended).toEqual(['first', 'second']);
    },
  );

  // Maintainer's read, round 17: an MSH or glTF export runs in a thread of its own, ended with its job, and the quit's
  // bounded stop (quitWaits.ts createWorkersStop) is this dispose. Mutation that fails: dispose waiting for the lanes'
  // threads only (the export threads terminated and not waited for, as before: it settled at once).
  it.skipIf(process.platform === 'win32')(
    'dispose fails the exports in flight and waits for their threads, each held in native code',
    async () => {
      const msh = heldThread(dir, 'msh-export');
      const glb = heldThread(dir, 'glb-export');
      const path = workerFile(
        dir,
        'heldExports',
        "parentPort.on('message', (msg) => {\n" +
          `  if (msg.type === 'exportMsh') { ${msh.hold} }\n` +
          `  if (msg.type === 'exportGlb') { ${glb.hold} }\n` +
          '});',
      );
      const client = createCompressClient({ workerPath: path });
      const a = client.open({ name: 'a', mtnBytes: new Uint8Array(1) });
      const names = { source: 'a.mtn', baseName: 'a' };
      const refused = [
        expect(client.exportMsh({ documentId: a, options: {} as MshExportOptions, names })).rejects.toThrow(
          /shut down/,
        ),
        expect(client.exportGlb!({ mtnBytes: new Uint8Array(1), animationName: 'a', scale: 1 })).rejects.toThrow(
          /shut down/,
        ),
      ];
      await vi.waitFor(() => expect([msh.reached(), glb.reached()]).toEqual([true, true]), { timeout: 25_000 });
      let disposed = false;
      const dispose = client.dispose().then(() => (disposed = true));
      await Promise.all(refused);
      await new Promise((resolve) => setImmediate(resolve));
      expect(disposed).toBe(false);
      // One let go: the dispose still waits for the other.
      msh.release();
      await new Promise((resolve) => setImmediate(resolve));
      expect(disposed).toBe(false);
      glb.release();
      await dispose;
      expect(disposed).toBe(true);
    },
  );
});
