/**
 * File > Open in a worker of its own (motionLoad.ts, the real bundle of motionLoadWorker.ts): the outcome is the one
 * loadMotionFile gives on the calling thread (a motion, an archive's entry list, a skeleton asked for, a bad file's
 * FormatError with its kind and place), and a Cancel ends the thread wherever it is, so that a decode of a large
 * archive is not waited for. Mutations that fail: the loader not terminating its worker on abort (the thread then
 * ends by itself after its answer: exit code 0, not 1), a FormatError crossing as a plain Error (kind and place
 * lost), the handler not using its loader (the handler test opens the archive instead of cancelling).
 */
import {
  closeSync,
  copyFileSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FormatError } from '../shared/errors';
import { writeMar } from '../shared/mar/write';
import { randomMt3 } from '../shared/mt3/testFixtures';
import { withMt3Name, writeMt3 } from '../shared/mt3/write';
import { readMtn } from '../shared/mtn/read';
import { useBundledWorker } from './compress/buildWorkerForTests';
import { inProcessMotionLoader, workerMotionLoader, type MotionLoadJob } from './motionLoad';
import { SAMPLE_MTN, tempWorkspace, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';

const workerPath = useBundledWorker(resolve(__dirname, 'motionLoadWorker.ts'));
const compress = useCompressClientPerTest();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-motion-load-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const joints = readMtn(readFileSync(SAMPLE_MTN)).joints.length;

/** An archive of `entries` random motions of the sample's joint count, with the sample beside it as `<base>.mtn`. */
function archive(name: string, entries: number, frames = 60): string {
  const path = join(dir, `${name}.mar`);
  // One motion under as many names (the archive's names must differ): made once, not `entries` times.
  const one = writeMt3(randomMt3(entries, { numJoints: joints, numFrames: frames }));
  const mt3s = Array.from({ length: entries }, (_, k) => withMt3Name(one, k + 1));
  writeFileSync(path, writeMar(mt3s));
  copyFileSync(SAMPLE_MTN, join(dir, `${name}.mtn`));
  return path;
}

const job = (path: string, more: Partial<MotionLoadJob> = {}): MotionLoadJob => ({
  path,
  readableBeside: null,
  ...more,
});

/** The outcome or the error of a load, in a form toEqual compares (an error: its class, kind, place and message). */
async function settled(p: Promise<unknown>): Promise<unknown> {
  try {
    return await p;
  } catch (e) {
    return e instanceof FormatError
      ? { formatError: true, kind: e.kind, place: e.place, message: e.message }
      : { error: (e as Error).message };
  }
}

describe('the open worker', () => {
  it('answers as the calling thread does: a motion, an entry list, a chosen entry, a skeleton asked for, a bad file', async () => {
    const loader = workerMotionLoader(workerPath());
    const mar = archive('take', 3);
    const beside = join(dir, 'take.mtn');
    const mt3 = join(dir, 'alone.mt3');
    writeFileSync(mt3, writeMt3(randomMt3(9, { numJoints: joints, numFrames: 20 })));
    const bad = join(dir, 'bad.mtn');
    const walk = readFileSync(SAMPLE_MTN);
    writeFileSync(bad, walk.subarray(0, walk.byteLength - 7));
    const jobs = [
      job(SAMPLE_MTN),
      job(mar, { readableBeside: beside }),
      job(mar, { readableBeside: beside, marEntry: 2 }),
      job(mar, { readableBeside: null, marEntry: 1 }),
      job(mt3),
      job(bad),
      job(join(dir, 'none.mtn')),
    ];
    for (const j of jobs) {
      const there = await settled(loader(j));
      expect(there).toEqual(await settled(inProcessMotionLoader(j)));
    }
    // The cases are what they claim to be (not, say, seven equal failures).
    const kinds = await Promise.all(jobs.map((j) => settled(loader(j))));
    expect(
      kinds.map((k) => (k as { status?: string }).status ?? ('formatError' in (k as object) ? 'bad' : 'error')),
    ).toEqual(['loaded', 'chooseMarEntry', 'loaded', 'needsSkeleton', 'needsSkeleton', 'bad', 'error']);
    expect(kinds[5]).toMatchObject({ formatError: true, kind: 'MTN' });
  });

  // Round 29: Open Recent's judged motion is read through the descriptor main opened and judged, in the worker too
  // (descriptors are the process's). Mutation that fails: readFileBytes without the job's `fd` (the path is read).
  it('reads the descriptor the job gives, not what its path names now, and leaves it open for main to close', async () => {
    const judged = join(dir, 'judged.mtn');
    copyFileSync(SAMPLE_MTN, judged);
    const fd = openSync(judged, 'r');
    try {
      // Swapped at the path after the judgement: another motion there now.
      renameSync(judged, `${judged}.was`);
      copyFileSync(resolve(__dirname, '..', 'assets', 'cmu_01_01.mtn'), judged);
      for (const loader of [workerMotionLoader(workerPath()), inProcessMotionLoader]) {
        const got = await loader(job(judged, { fd }));
        expect(got.status === 'loaded' && Buffer.from(got.motion.mtnBytes).equals(readFileSync(SAMPLE_MTN))).toBe(true);
      }
      expect(fstatSync(fd).isFile()).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('a cancel ends the thread wherever it is: the load rejects with an AbortError and the thread is terminated', async () => {
    // About 40 MB: its decode takes far longer than the turn in which the cancel arrives.
    const mar = archive('long', 160, 1200);
    const abort = new AbortController();
    let exited: Promise<number> | undefined;
    const loader = workerMotionLoader(workerPath(), (w: Worker) => {
      exited = new Promise((done) => w.once('exit', done));
      w.once('online', () => setImmediate(() => abort.abort()));
    });
    const e = await loader(job(mar, { readableBeside: join(dir, 'long.mtn'), marEntry: 0 }), abort.signal).catch(
      (x: Error) => x,
    );
    expect(e).toMatchObject({ name: 'AbortError', message: `Opening ${mar} was cancelled` });
    // terminate() ends a thread with exit code 1; one that finished its job and let its event loop empty ends with 0.
    expect(await exited).toBe(1);
  });

  it("the handler's Cancel reaches the worker: the open answers cancelled and nothing is opened or remembered", async () => {
    const { dir: root, workspace } = tempWorkspace('actguy-motion-load-handler-');
    try {
      const mar = join(workspace, 'long.mar');
      copyFileSync(archive('long', 160, 1200), mar);
      copyFileSync(SAMPLE_MTN, join(workspace, 'long.mtn'));
      const handlers = testHandlers({
        app: { samplePath: SAMPLE_MTN, startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
        recentDir: root,
        compress: compress(),
        loadMotion: workerMotionLoader(workerPath(), (w) =>
          w.once('online', () => setImmediate(() => void handlers.cancelOpenMotion(undefined))),
        ),
      });
      const recentBefore = await handlers.getRecentFiles(undefined);
      expect(await handlers.openMotion({ path: mar, marEntry: 0 })).toEqual({ status: 'cancelled' });
      expect(await handlers.getRecentFiles(undefined)).toEqual(recentBefore);
      expect(await handlers.cancelOpenMotion(undefined)).toEqual({ cancelled: 0 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
