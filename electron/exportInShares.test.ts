/**
 * The app's export of a long motion runs on the build's compression pool, in channel shares (docs/compression.md),
 * and writes the very bytes of a one-job export.
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import type { CompressOutcome, CompressRequest } from '../shared/ipc/compress';
import { KeyFlag } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { useBuiltCompressWorker, useBundledWorker } from './compress/buildWorkerForTests';
import { createCompressClient, type CompressClient } from './compressClient';
import { tempWorkspace, testHandlers } from './testing/handlerHarness';
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
  const compress: CompressClient = {
    ...client,
    compress: async (req, options) => {
      const outcome = await client.compress(req, options);
      seen.push(outcome);
      return outcome;
    },
  };
  const handlers = testHandlers({
    app: { workspaceRoot: workspace, startupPath: join(workspace, 'long.mtn') },
    compress,
    checkText: inProcessTextChecker,
  });
  return { handlers, seen };
}

/** Opens long.mtn and makes an export request with user keys added on joint 3 (an edit the pool must see). */
async function openLong(handlers: ReturnType<typeof handlersWithPool>['handlers']): Promise<CompressRequest> {
  const opened = await handlers.openMotion({ path: join(workspace, 'long.mtn') });
  if (opened.status !== 'opened') throw new Error(`expected opened, got ${opened.status}`);
  const m = readMtn(opened.motion.mtnBytes);
  const req = compressRequestForMotion(m, opened.motion.documentId, 1);
  for (const f of [100, 101, 350]) req.jointKeyFlags[f * m.joints.length + 3] |= KeyFlag.KEY;
  return req;
}

describe('export of a long motion', () => {
  it('is compressed in channel shares on the pool and writes the bytes of a one-job export', async () => {
    const one = handlersWithPool(1);
    const wholeReq = await openLong(one.handlers);
    await one.handlers.exportMt3({ path: join(workspace, 'one.mt3'), compress: wholeReq });
    expect(one.seen[0]).toMatchObject({ status: 'done' });
    expect(one.seen[0]).not.toHaveProperty('channelShares');

    const two = handlersWithPool(2);
    const req = await openLong(two.handlers);
    await two.handlers.exportMt3({ path: join(workspace, 'two.mt3'), compress: req });
    expect(two.seen[0]).toMatchObject({ status: 'done', channelShares: 2 });
    const whole = readFileSync(join(workspace, 'one.mt3'));
    expect(readFileSync(join(workspace, 'two.mt3')).equals(whole)).toBe(true);

    // Exported again at the same settings: the lane's worker holds every channel now, so it only writes the file.
    await two.handlers.exportMt3({ path: join(workspace, 'again.mt3'), compress: { ...req, revision: 2 } });
    expect(two.seen[1]).toMatchObject({ status: 'done' });
    expect(two.seen[1]).not.toHaveProperty('channelShares');
    expect(readFileSync(join(workspace, 'again.mt3')).equals(whole)).toBe(true);
  }, 60_000);
});
