/**
 * The app's import of several files writes its .mtn files off the main thread (docs/architecture.md#electron): each
 * one alone through writeFileAtomicAsync, or all or nothing through commitOutputsAsync, both into the folder pinned
 * before the imports and checked again before the renames. `actguy import` keeps its synchronous writes (writeSync),
 * which its Ctrl+C handling counts on (cli/interrupt.ts).
 *
 * No time is measured: each write is held in the thread pool at its open, and the main thread's tick (a
 * setImmediate) and the state of the folder are looked at meanwhile; a write on the main thread never reaches the
 * hold, and the batch has ended before the tick.
 *
 * Mutations, each failing this file: batchImport's per-file write back to writeFileAtomic and its all-or-nothing
 * commit back to commitOutputs (writeSync ignored); the all-or-nothing commit's folder pin dropped (`folders`
 * undefined: the moved folder's files are written); the per-file write's `folder` dropped.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { writeMtn } from '../../shared/mtn/write';
import { asyncWriteIo, pinFolder } from '../fsutil';
import { writesInFlight } from '../writeTurns';
import { runBatchImport } from './batchImport';
import type { ImportRunner } from './importRunner';

const realOpen = asyncWriteIo.open;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-batch-thread-'));
  mkdirSync(join(dir, 'src'));
});
afterEach(() => {
  asyncWriteIo.open = realOpen;
  rmSync(dir, { recursive: true, force: true });
});

const mtn = writeMtn(syntheticMotion({ frames: 4, joints: 2, seed: 1 }));
/** Every file imports at once as the same small motion. */
const imported: ImportRunner = async () =>
  ({
    status: 'imported',
    mtnBytes: mtn,
    warnings: [],
    summary: null,
    buffers: [],
    sourceKind: 'bvh',
    clipName: null,
  }) as Awaited<ReturnType<ImportRunner>>;

/** Holds every write made in the thread pool at its open until `release`. */
function holdWrites(): { reached: Promise<'held'>; release: () => void } {
  let release = (): void => undefined;
  const held = new Promise<void>((r) => (release = r));
  let reached = (): void => undefined;
  const atOpen = new Promise<'held'>((r) => (reached = () => r('held')));
  asyncWriteIo.open = async (path, flags, mode) => {
    reached();
    await held;
    return realOpen(path, flags, mode);
  };
  return { reached: atOpen, release };
}

const inputs = () => [join(dir, 'src', 'walk.bvh'), join(dir, 'src', 'run.bvh')];
const batch = (allOrNothing: boolean, folder = pinFolder(join(dir, 'src'))) =>
  runBatchImport(inputs(), { fps: 30, scale: 1, outDir: join(dir, 'src'), allOrNothing, folder }, imported);

describe("the app's batch import writes off the main thread", () => {
  for (const allOrNothing of [false, true])
    it(`${allOrNothing ? 'all or nothing' : 'each file alone'}: a tick runs while the .mtn files are written, and they land`, async () => {
      const hold = holdWrites();
      const done = batch(allOrNothing);
      expect(await Promise.race([hold.reached, done.then(() => 'ended')])).toBe('held');
      const atTick = await new Promise<{ inFlight: number; files: string[] }>((r) =>
        setImmediate(() => r({ inFlight: writesInFlight.size, files: readdirSync(join(dir, 'src')) })),
      );
      // Under way in the thread pool, counted for the quit's wait, and nothing in place yet.
      expect(atTick.inFlight).toBe(1);
      expect(atTick.files.filter((f) => f.endsWith('.mtn'))).toEqual([]);
      hold.release();
      const outcome = await done;
      expect(outcome.failed).toBe(0);
      expect(outcome.written.sort()).toEqual([join(dir, 'src', 'run.mtn'), join(dir, 'src', 'walk.mtn')]);
      expect(readFileSync(join(dir, 'src', 'walk.mtn')).equals(Buffer.from(mtn))).toBe(true);
      expect(writesInFlight.size).toBe(0);
    });

  for (const allOrNothing of [false, true])
    it(`${allOrNothing ? 'all or nothing' : 'each file alone'}: a folder moved while the files are written gets none of them`, async () => {
      const hold = holdWrites();
      const done = batch(allOrNothing);
      await hold.reached;
      renameSync(join(dir, 'src'), join(dir, 'aside'));
      mkdirSync(join(dir, 'src'));
      hold.release();
      if (allOrNothing) {
        // The commit refuses as a whole, naming the files, as a failed write of the unit always did.
        await expect(done).rejects.toThrow(/changed after it was checked.*nothing was written/);
      } else {
        const outcome = await done;
        expect(outcome.written).toEqual([]);
        for (const item of outcome.items) expect(item.error).toMatch(/changed after it was checked/);
      }
      expect(readdirSync(join(dir, 'src'))).toEqual([]);
      expect(readdirSync(join(dir, 'aside')).filter((f) => f.endsWith('.mtn') || f.endsWith('.tmp'))).toEqual([]);
    });

  it('actguy import (writeSync) writes on its own thread: the batch has ended before any tick', async () => {
    const hold = holdWrites();
    const done = runBatchImport(inputs(), { fps: 30, scale: 1, outDir: join(dir, 'src'), writeSync: true }, imported);
    expect(await Promise.race([hold.reached, done.then(() => 'ended')])).toBe('ended');
    expect(existsSync(join(dir, 'src', 'walk.mtn'))).toBe(true);
  });
});
