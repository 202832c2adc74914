/**
 * File > Open's Cancel in the main process (handlers.ts openMotion / cancelOpenMotion, motionFiles.ts loadMotionFile):
 * the read of a large file stops at its next read, a load cancelled between its stages (read, parse, decode) stops
 * there, the open answers `cancelled`, and nothing changes: no document is opened, the recent files stay as they
 * were, the document already open stays open. The cancel comes as a separate turn of the event loop, as an IPC
 * request does. Whether the rest of the file was read is asserted by the bytes the reads returned, never by time.
 * Mutations that fail: openMotion not passing its signal to loadMotionFile (the read test: the whole 78 MB is read
 * and the open fails on the zeros instead), nextStage not giving the event loop a turn or not checking the signal
 * (the stage test: the .mt3 loads), cancelOpenMotion not aborting (both).
 */
import { copyFileSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import { randomMt3 } from '../shared/mt3/testFixtures';
import { writeMt3 } from '../shared/mt3/write';
import { mtnByteSize } from '../shared/mtn/constants';
import { readMtn } from '../shared/mtn/read';
import type { ApiHandlers } from './handlers';
import { binaryReadIo, READ_CHUNK_BYTES } from './io/readBinary';
import { loadMotionFile } from './motionFiles';
import {
  SAMPLE_MTN,
  openedMotion,
  tempWorkspace,
  testHandlers,
  useCompressClientPerTest,
} from './testing/handlerHarness';

const compress = useCompressClientPerTest();

let dir: string;
let workspace: string;
let handlers: ApiHandlers;
beforeEach(() => {
  ({ dir, workspace } = tempWorkspace('actguy-open-cancel-'));
  handlers = testHandlers({
    app: { samplePath: SAMPLE_MTN, startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    recentDir: dir,
    compress: compress(),
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A valid MTN header (N frames, J joints) of a sparse file of the size it implies: the rest is zeros. */
function bigMtn(name: string): { path: string; size: number } {
  const [N, J] = [40_000, 40];
  const head = new Uint8Array(32);
  const dv = new DataView(head.buffer);
  head.set([0x4d, 0x54, 0x4e, 0]);
  dv.setUint32(4, 1, true);
  dv.setUint32(8, N, true);
  dv.setUint32(12, J, true);
  dv.setInt32(20, -1, true);
  dv.setFloat32(24, 30, true);
  const path = join(workspace, name);
  writeFileSync(path, head);
  const size = mtnByteSize(N, J);
  truncateSync(path, size);
  return { path, size };
}

/** What the reads of the code under test returned: in all, and per file. */
const read = { bytes: 0, of: new Map<string, number>() };

/**
 * Sends cancelOpenMotion as the next turn of the event loop (as an IPC request arrives), once `when` is true after
 * a read returned.
 */
function cancelWhen(
  when: () => boolean,
  cancel: () => Promise<{ cancelled: number }> | void = () => handlers.cancelOpenMotion(undefined),
): { answers: Promise<{ cancelled: number } | void>[] } {
  vi.restoreAllMocks();
  read.bytes = 0;
  read.of = new Map();
  const answers: Promise<{ cancelled: number } | void>[] = [];
  const pathOf = new Map<unknown, string>();
  const realOpen = binaryReadIo.open;
  vi.spyOn(binaryReadIo, 'open').mockImplementation(async (path, flags) => {
    const fh = await realOpen(path, flags);
    pathOf.set(fh, path);
    return fh;
  });
  const realRead = binaryReadIo.read;
  vi.spyOn(binaryReadIo, 'read').mockImplementation(async (...args: Parameters<typeof realRead>) => {
    const got = await realRead(...args);
    read.bytes += got;
    const path = pathOf.get(args[0]) ?? '?';
    read.of.set(path, (read.of.get(path) ?? 0) + got);
    if (answers.length === 0 && when())
      answers.push(new Promise<{ cancelled: number } | void>((resolve) => setImmediate(() => resolve(cancel()))));
    return got;
  });
  return { answers };
}

describe('cancelOpenMotion', () => {
  it('stops the read of a large .mtn at its next read: cancelled, no document, the open one and the recent files unchanged', async () => {
    const walk = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const recentBefore = await handlers.getRecentFiles(undefined);
    const { path, size } = bigMtn('big.mtn');
    expect(size).toBeGreaterThan(4 * READ_CHUNK_BYTES);
    const cancel = cancelWhen(() => read.bytes > 32);
    expect(await handlers.openMotion({ path })).toEqual({ status: 'cancelled' });
    expect(await cancel.answers[0]).toEqual({ cancelled: 1 });
    // The header and the chunk or two read while the cancel was on its way: never the whole file.
    expect(read.bytes).toBeLessThanOrEqual(32 + 2 * READ_CHUNK_BYTES);
    expect(await handlers.getRecentFiles(undefined)).toEqual(recentBefore);
    // The motion open before is still open in main (its compressions are answered).
    const req = compressRequestForMotion(readMtn(walk.mtnBytes), walk.documentId, 1);
    expect((await handlers.compressMotion(req)).status).toBe('done');
    // Nothing left to cancel; a later open of the same file is not cancelled by the old request.
    expect(await handlers.cancelOpenMotion(undefined)).toEqual({ cancelled: 0 });
  });

  it('stops a .mt3 between its stages (the skeleton parsed, the decode): the load rejects, nothing opened', async () => {
    const joints = readMtn(readFileSync(SAMPLE_MTN)).joints.length;
    const mt3Path = join(workspace, 'take.mt3');
    writeFileSync(mt3Path, writeMt3(randomMt3(7, { numJoints: joints, numFrames: 40 })));
    const skeleton = join(workspace, 'take.mtn');
    copyFileSync(SAMPLE_MTN, skeleton);
    // The file itself loads (control): the same request without a cancel is a read-only motion.
    expect((await loadMotionFile({ path: mt3Path }, new AbortController().signal)).status).toBe('loaded');
    // Aborted (as the next turn of the event loop) once the skeleton's last read has returned: no read is left to
    // check the signal, so what stops the load is the check between its stages, before the decode.
    const skeletonSize = readFileSync(skeleton).byteLength;
    const abort = new AbortController();
    cancelWhen(
      () => read.of.get(skeleton) === skeletonSize,
      () => abort.abort(),
    );
    const e = await loadMotionFile({ path: mt3Path }, abort.signal).catch((x: Error) => x);
    expect(e).toMatchObject({ name: 'AbortError', message: `the read of ${mt3Path} was cancelled` });
    // Through the handler: the open answers cancelled and the recent files stay as they were.
    const recentBefore = await handlers.getRecentFiles(undefined);
    const cancel = cancelWhen(() => read.of.get(skeleton) === skeletonSize);
    expect(await handlers.openMotion({ path: mt3Path })).toEqual({ status: 'cancelled' });
    expect(await cancel.answers[0]).toEqual({ cancelled: 1 });
    expect(await handlers.getRecentFiles(undefined)).toEqual(recentBefore);
  });

  it('an open that is not cancelled is not touched by a cancel that came before it', async () => {
    expect(await handlers.cancelOpenMotion(undefined)).toEqual({ cancelled: 0 });
    expect((await handlers.openMotion({ path: join(workspace, 'walk.mtn') })).status).toBe('opened');
  });
});
