/**
 * File › Export glTF reads, decodes and encodes in a worker of the compress bundle, never on the main thread, where a
 * long capture's GLB held the window for most of a second (docs/architecture.md#electron). Main's copy of the GLB
 * encoder is counted here; the worker's is its own bundle's, which the count does not see.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressRequestForMotion } from '../../shared/compress/request';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { readMtn } from '../../shared/mtn/read';
import type { ApiHandlers } from '../handlers';
import { dispatchInvoke } from '../invokeReply';
import { openedMotion, tempWorkspace, testHandlers, useCompressClientPerTest } from '../testing/handlerHarness';
import { encodeGlbExport } from './glbExportJob';

const mainThread = vi.hoisted(() => ({ glbEncodes: 0 }));
vi.mock('../../shared/interchange/gltf/export', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/interchange/gltf/export')>();
  return {
    ...real,
    motionToGlb: (...args: Parameters<typeof real.motionToGlb>) => {
      mainThread.glbEncodes++;
      return real.motionToGlb(...args);
    },
  };
});

const compress = useCompressClientPerTest();
let dir: string;
let workspace: string;
let handlers: ApiHandlers;

beforeEach(() => {
  ({ dir, workspace } = tempWorkspace('actguy-glb-thread-'));
  handlers = testHandlers({
    app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    compress: compress(),
  });
  mainThread.glbEncodes = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('File › Export glTF off the main thread', () => {
  // Mutation that fails: the handler encoding in its own thread (encodeGlbExport) whatever the client offers.
  it('encodes the source and the compressed motion in the worker: the same GLB, and none made on the main thread', async () => {
    const opened = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const { documentId, mtnBytes } = opened;
    const source = await handlers.exportGltf({
      documentId,
      source: 'source',
      mtnBytes,
      path: join(workspace, 's.glb'),
    });
    const request = compressRequestForMotion(readMtn(mtnBytes), documentId, 1, DEFAULT_TOLERANCES);
    const compressed = await handlers.exportGltf({
      documentId,
      source: 'compressed',
      mtnBytes,
      compress: request,
      path: join(workspace, 'c.glb'),
    });
    expect(mainThread.glbEncodes).toBe(0);

    // What the worker wrote is what the job makes here.
    expect(new Uint8Array(readFileSync(join(workspace, 's.glb')))).toEqual(
      encodeGlbExport({ mtnBytes, animationName: 'walk', scale: 1 }).glb,
    );
    const outcome = await compress().compress({ ...request, includeBytes: false }, { coalesce: false });
    if (outcome.status !== 'done') throw new Error('compression did not finish');
    expect(new Uint8Array(readFileSync(join(workspace, 'c.glb')))).toEqual(
      encodeGlbExport({ mtnBytes, mt3: outcome.mt3, animationName: 'walk_compressed', scale: 1 }).glb,
    );
    expect(compressed).toMatchObject({
      status: 'exported',
      file: { source: 'compressed', totalKeys: outcome.totalKeys },
    });
    expect(source).toMatchObject({ status: 'exported', file: { jointCount: 23, totalKeys: null } });
  });

  // Mutations that fail: the worker's refusal passed on unwrapped (no file named); the job's own wording dropped.
  it('a motion that does not read is refused naming the export, and nothing is written', async () => {
    const opened = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const path = join(workspace, 'bad.glb');
    const r = await dispatchInvoke(handlers, 'exportGltf', {
      documentId: opened.documentId,
      source: 'source',
      mtnBytes: opened.mtnBytes.slice(0, 40),
      path,
    });
    expect(r).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(
          new RegExp(
            `^Could not export ${path.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: the motion is not a valid MTN file \\(.+\\); nothing was written$`,
          ),
        ),
      },
    });
    expect(mainThread.glbEncodes).toBe(0);
  });
});
