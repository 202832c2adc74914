/**
 * Cancelling an import while its importer works (docs/import.md, "Cancel"): the app's import runs in a worker
 * (workerImportRunner, the runner File > Import, the batch import and `actguy import` use), and a cancel must stop
 * it in the middle of parsing a large BVH, GLB or FBX file, not when the parse would end. Each file is first imported
 * whole, and the CPU time the process spent on it measured; the import is then run again and cancelled once the
 * process has spent half of that on it (the worker started and the importer half through the file), and must answer
 * `cancelled`. The moment is the machine's own: the fixed quarter of a second it was (round 7 of "Tests under load" in
 * docs/testing.md) is about a fifth of the GLB's whole import here (1.1 to 1.3 s of CPU time), so on a machine about
 * five times as fast the import could end before the cancel, and the test failed a right product. No time is
 * asserted: an importer that could not be stopped would answer `imported`, after the whole parse. (The files take a
 * few seconds to make and to import, hence the longer test timeouts.)
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

/** The CPU time the process spends (every thread) on the whole import of `path`, with no cancel. */
async function wholeImportCpuMs(path: string): Promise<number> {
  const start = cpuMs();
  const result = await workerImportRunner(importWorkerPath())({ path, fps: 30, scale: 1 });
  const spent = cpuMs() - start;
  expect(result.status, result.status === 'failed' ? result.message : '').toBe('imported');
  return spent;
}

/**
 * Runs the import and cancels it once the process has spent half the CPU time of the whole import (measured first,
 * on this machine) since it started.
 */
async function cancelWhileImporting(path: string) {
  const wholeCpuMs = await wholeImportCpuMs(path);
  const afterCpuMs = wholeCpuMs / 2;
  const run = workerImportRunner(importWorkerPath());
  const abort = new AbortController();
  const start = cpuMs();
  const state = { settled: false };
  const result = run({ path, fps: 30, scale: 1 }, abort.signal).finally(() => (state.settled = true));
  while (!state.settled && cpuMs() - start < afterCpuMs) await new Promise((r) => setTimeout(r, 5));
  const cancelledAfterMs = cpuMs() - start;
  const settledBeforeCancel = state.settled;
  abort.abort();
  const ended = await result;
  return { status: ended.status, settledBeforeCancel, wholeCpuMs, cancelledAfterMs };
}

describe('an import is cancelled while its importer parses a large file', () => {
  it('BVH (10,000 frames of 60 joints)', async () => {
    const path = join(dir, 'big.bvh');
    writeFileSync(path, bigBvh(60, 10_000));
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.status).toBe('cancelled');
  }, 120_000);

  it('GLB (12,000 frames of 50 joints)', async () => {
    const path = join(dir, 'big.glb');
    writeFileSync(path, motionToGlb(syntheticMotion({ frames: 12_000, joints: 50, seed: 1 }), { boneMesh: false }));
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.status).toBe('cancelled');
  }, 120_000);

  it('FBX (6,000 frames of 20 bones, compressed arrays)', async () => {
    const path = join(dir, 'big.fbx');
    writeFileSync(
      path,
      writeFbxBinary(fbxScene({ bones: Array.from({ length: 20 }, (_, i) => `b${i}`), frames: 6_000 }), 7400, true),
    );
    const r = await cancelWhileImporting(path);
    expect(r.settledBeforeCancel, JSON.stringify(r)).toBe(false);
    expect(r.status).toBe('cancelled');
  }, 120_000);
});
