/**
 * Cancelling an import while its importer works (docs/import.md, "Cancel"): the app's import runs in a worker
 * (workerImportRunner, the runner File > Import, the batch import and `actguy import` use), and a cancel must stop
 * it in the middle of parsing a large BVH, GLB or FBX file, not when the parse would end. Each file here takes the
 * importer seconds of CPU time; the cancel is sent once the process has spent a quarter of a second of CPU time on
 * the import (the worker started and the importer is reading the file), and the import must answer `cancelled`.
 * No time is asserted: an importer that could not be stopped would answer `imported`, after the whole parse. (The
 * files take a few seconds to make, hence the longer test timeouts.)
 *
 * Mutation: workerImportRunner's signal not passed on to runOneShotWorker (`signal` dropped): each case answers
 * `imported` after the whole parse.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { fbxScene, writeFbxBinary } from '../../shared/interchange/fbx/testFixtures';
import { wideBvh } from '../../shared/testing/bvhFixtures';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { workerImportRunner } from './importRunner';

const importWorkerPath = useBundledWorker(resolve(__dirname, 'importWorker.ts'));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-import-cancel-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A BVH of `joints` joints under the root and `frames` frames (about 40 bytes a joint a frame), each frame its own. */
const bigBvh = (joints: number, frames: number) =>
  wideBvh(joints, frames, (f) =>
    Array.from({ length: 6 + 3 * joints }, (_, i) => (((f + i) % 360) - 180) * 0.5).join(' '),
  );

/** Process CPU time (every thread, the import worker's too) in milliseconds. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs the import and cancels it once the process has spent `afterCpuMs` of CPU time since it started. */
async function cancelWhileImporting(path: string, afterCpuMs = 250) {
  const run = workerImportRunner(importWorkerPath());
  const abort = new AbortController();
  const start = cpuMs();
  const state = { settled: false };
  const result = run({ path, fps: 30, scale: 1 }, abort.signal).finally(() => (state.settled = true));
  while (!state.settled && cpuMs() - start < afterCpuMs) await new Promise((r) => setTimeout(r, 5));
  const cancelledAfterMs = cpuMs() - start;
  const settledBeforeCancel = state.settled;
  abort.abort();
  return { result: await result, settledBeforeCancel, cancelledAfterMs };
}

describe('an import is cancelled while its importer parses a large file', () => {
  it('BVH (10,000 frames of 60 joints)', async () => {
    const path = join(dir, 'big.bvh');
    writeFileSync(path, bigBvh(60, 10_000));
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.result).toEqual({ status: 'cancelled' });
  }, 60_000);

  it('GLB (12,000 frames of 50 joints)', async () => {
    const path = join(dir, 'big.glb');
    writeFileSync(path, motionToGlb(syntheticMotion({ frames: 12_000, joints: 50, seed: 1 }), { boneMesh: false }));
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.result).toEqual({ status: 'cancelled' });
  }, 60_000);

  it('FBX (6,000 frames of 20 bones, compressed arrays)', async () => {
    const path = join(dir, 'big.fbx');
    writeFileSync(
      path,
      writeFbxBinary(fbxScene({ bones: Array.from({ length: 20 }, (_, i) => `b${i}`), frames: 6_000 }), 7400, true),
    );
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.result).toEqual({ status: 'cancelled' });
  }, 60_000);
});
