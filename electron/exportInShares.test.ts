/**
 * The app's export of a long motion runs on the build's compression pool, in channel shares (docs/compression.md),
 * and writes the very bytes of a one-job export.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import type { CompressOutcome, CompressRequest } from '../shared/ipc/compress';
import type { MshExportFiles } from '../shared/msh/files';
import { KeyFlag } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { resampleMotion } from '../shared/motion/resample';
import { useBuiltCompressWorker, useBundledWorker } from './compress/buildWorkerForTests';
import { createCompressClient, type CompressClient } from './compressClient';
import { tempWorkspace, testHandlers, openedMotion } from './testing/handlerHarness';
import { inProcessTextChecker } from './project/textCheckJob';

const LONG = resolve(__dirname, '..', 'assets', 'cmu_01_01.mtn');
const workerPath = useBuiltCompressWorker();
const poolWorkerPath = useBundledWorker(resolve(__dirname, 'build', 'compressPoolWorker.ts'));

let dir: string;
let workspace: string;
const clients: CompressClient[] = [];

beforeEach(() => {
  ({ dir, workspace } = tempWorkspace('actguy-export-shares-'));
  copyFileSync(LONG, join(workspace, 'long.mtn'));
  // The capture at 120 fps (2,749 frames, 4.2 MB): long enough to start the pool for (docs/compression.md).
  writeFileSync(join(workspace, 'longer.mtn'), writeMtn(resampleMotion(readMtn(readFileSync(LONG)), 120)));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

/** Handlers over a real compress client whose exports may use a pool of `jobs`; `seen` gets every finished compression. */
function handlersWithPool(jobs: number) {
  const client = createCompressClient({ workerPath: workerPath(), pool: { workerPath: poolWorkerPath(), jobs } });
  clients.push(client);
  const seen: CompressOutcome[] = [];
  const mshSeen: MshExportFiles[] = [];
  const compress: CompressClient = {
    ...client,
    compress: async (req, options) => {
      const outcome = await client.compress(req, options);
      seen.push(outcome);
      return outcome;
    },
    exportMsh: async (req) => {
      const files = await client.exportMsh(req);
      mshSeen.push(files);
      return files;
    },
  };
  const handlers = testHandlers({
    app: { workspaceRoot: workspace, startupPath: join(workspace, 'long.mtn') },
    compress,
    checkText: inProcessTextChecker,
  });
  return { handlers, seen, mshSeen };
}

/** Opens a motion and makes an export request with user keys added on joint 3 (an edit the pool must see). */
async function openLong(
  handlers: ReturnType<typeof handlersWithPool>['handlers'],
  file = 'long.mtn',
): Promise<CompressRequest> {
  const opened = await openedMotion(handlers, join(workspace, file));
  const m = readMtn(opened.mtnBytes);
  const req = compressRequestForMotion(m, opened.documentId, 1);
  for (const f of [100, 101, 350]) req.jointKeyFlags[f * m.joints.length + 3] |= KeyFlag.KEY;
  return req;
}

describe('export of a long motion', () => {
  it('is compressed in channel shares on the pool and writes the bytes of a one-job export', async () => {
    const one = handlersWithPool(1);
    const two = handlersWithPool(2);
    const exported = async (h: ReturnType<typeof handlersWithPool>, file: string, out: string) => {
      await h.handlers.exportMt3({ path: join(workspace, out), compress: await openLong(h.handlers, file) });
      return readFileSync(join(workspace, out));
    };
    // The longer motion starts the pool; the long one (under the start threshold) then uses it too.
    const longerWhole = await exported(one, 'longer.mtn', 'longer1.mt3');
    const longWhole = await exported(one, 'long.mtn', 'long1.mt3');
    expect(one.seen.map((o) => o.status === 'done' && o.channelShares)).toEqual([undefined, undefined]);
    expect((await exported(two, 'longer.mtn', 'longer2.mt3')).equals(longerWhole)).toBe(true);
    expect((await exported(two, 'long.mtn', 'long2.mt3')).equals(longWhole)).toBe(true);
    expect(two.seen.map((o) => o.status === 'done' && o.channelShares)).toEqual([2, 2]);
  }, 120_000);

  it('is left to the lane when it holds the channels, or when the motion is too short to start the pool for', async () => {
    const two = handlersWithPool(2);
    const req = await openLong(two.handlers);
    await two.handlers.exportMt3({ path: join(workspace, 'a.mt3'), compress: req });
    expect(two.seen[0]).toMatchObject({ status: 'done' });
    expect(two.seen[0]).not.toHaveProperty('channelShares');
    const longer = await openLong(two.handlers, 'longer.mtn');
    await two.handlers.exportMt3({ path: join(workspace, 'b.mt3'), compress: longer });
    expect(two.seen[1]).toMatchObject({ status: 'done', channelShares: 2 });
    // Exported again at the same settings: the lane's worker holds every channel now, so it only writes the file.
    await two.handlers.exportMt3({ path: join(workspace, 'c.mt3'), compress: { ...longer, revision: 2 } });
    expect(two.seen[2]).toMatchObject({ status: 'done' });
    expect(two.seen[2]).not.toHaveProperty('channelShares');
    expect(readFileSync(join(workspace, 'c.mt3')).equals(readFileSync(join(workspace, 'b.mt3')))).toBe(true);
  }, 120_000);

  it('is cancelled with the client, pool and all, and leaves no file', async () => {
    const client = createCompressClient({
      workerPath: workerPath(),
      pool: { workerPath: poolWorkerPath(), jobs: 2 },
    });
    const handlers = testHandlers({
      app: { workspaceRoot: workspace, startupPath: join(workspace, 'longer.mtn') },
      compress: client,
      checkText: inProcessTextChecker,
    });
    // A first export starts the lane's worker (the long motion is under the threshold: no pool yet).
    await handlers.exportMt3({ path: join(workspace, 'first.mt3'), compress: await openLong(handlers) });
    const tasks = () => readdirSync('/proc/self/task').length;
    const before = tasks();
    const req = await openLong(handlers, 'longer.mtn');
    const state = { settled: false };
    const exporting = handlers.exportMt3({ path: join(workspace, 'cancelled.mt3'), compress: req });
    exporting.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    // Wait until the lane's worker has started the pool's two threads (Linux /proc), so the cancel finds it running.
    while (!state.settled && tasks() < before + 2) await new Promise((r) => setTimeout(r, 5));
    expect(state.settled).toBe(false);
    const refused = expect(exporting).rejects.toThrow(/shut down/);
    await client.dispose();
    await refused;
    expect(existsSync(join(workspace, 'cancelled.mt3'))).toBe(false);
  }, 60_000);
});

describe('MSH export of a long motion', () => {
  it('fits its nodes in shares on the pool and writes the files of one thread', async () => {
    const files = async (jobs: number, prefix: string) => {
      const h = handlersWithPool(jobs);
      const opened = await openedMotion(h.handlers, join(workspace, 'long.mtn'));
      await h.handlers.exportMsh({
        documentId: opened.documentId,
        positionTolerance: 0.5,
        rotationToleranceDeg: 1,
        path: join(workspace, `${prefix}.res8`),
      });
      return {
        shares: h.mshSeen[0].nodeShares,
        bytes: ['res8', 'res19', 'nodes.json'].map((ext) => readFileSync(join(workspace, `${prefix}.${ext}`))),
      };
    };
    const one = await files(1, 'one');
    const two = await files(2, 'two');
    expect(one.shares).toBeUndefined();
    expect(two.shares).toBe(2);
    // The .nodes.json names its own payloads (one.res8, two.res8): compare it with the prefix replaced.
    expect(two.bytes[0].equals(one.bytes[0])).toBe(true);
    expect(two.bytes[1].equals(one.bytes[1])).toBe(true);
    expect(two.bytes[2].toString().replaceAll('two.', 'one.')).toBe(one.bytes[2].toString());
  }, 120_000);
});
