/**
 * The app's record of the last build is written off the main thread (writeLastBuildAsync, docs/architecture.md#electron):
 * the same file writeLastBuild makes, byte for byte and with the same time, its temp written in Node's thread pool and
 * not flushed, the old record removed when the write fails, a removal asked after a write never undone by it, and
 * every such write among those a quit waits for.
 *
 * Mutations, each failing this file: writeLastBuildAsync back to the synchronous write (nothing reaches the thread
 * pool); `durable: false` dropped (an fsync); the catch's forget dropped (the old record stays after a failed write);
 * recordTurns not waited for (the removal runs first and the write lands after it).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asyncWriteIo } from '../fsutil';
import { writesInFlight } from '../writeTurns';
import type { FileStamp } from './fileStamp';
import { writeLastBuild, writeLastBuildAsync, type BuildSummary, type PendingLastBuild } from './lastBuild';

const real = { ...asyncWriteIo };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-last-build-async-'));
});
afterEach(() => {
  Object.assign(asyncWriteIo, real);
  rmSync(dir, { recursive: true, force: true });
});

const target = { project: '/p/stage.actguy.json', outputs: ['/p/out/stage.mar'] };
const stamps: FileStamp[] = [{ size: 3, mtimeNs: '1', ctimeNs: '2', ino: '3', dev: '4' }];
const pending: PendingLastBuild = {
  plan: 'plan',
  inputs: ['a'.repeat(64)],
  parts: [null],
  summary: { outputs: {}, totals: {}, warnings: [] } as unknown as BuildSummary,
  recentAt: Date.UTC(2026, 0, 2),
};
const records = () => join(dir, 'state', 'last-builds');

/** Holds every open in the thread pool until `release`. */
function holdOpens(): { reached: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const held = new Promise<void>((r) => (release = r));
  let reached = (): void => undefined;
  const atOpen = new Promise<void>((r) => (reached = r));
  asyncWriteIo.open = async (path, flags, mode) => {
    reached();
    await held;
    return real.open(path, flags, mode);
  };
  return { reached: atOpen, release };
}

describe('the record of the last build, written off the main thread', () => {
  it("is writeLastBuild's file, byte for byte and with its time, written in the thread pool and counted for a quit", async () => {
    const file = join(records(), 'a.json');
    const hold = holdOpens();
    let fsyncs = 0;
    asyncWriteIo.fsync = async (fd) => {
      fsyncs++;
      return real.fsync(fd);
    };
    const writing = writeLastBuildAsync(file, target, pending, stamps);
    await hold.reached;
    expect(existsSync(file)).toBe(false);
    expect(writesInFlight.size).toBeGreaterThan(0);
    hold.release();
    await writing;
    await new Promise((r) => setImmediate(r));
    expect(writesInFlight.size).toBe(0);
    writeLastBuild(join(records(), 'b.json'), target, pending, stamps);
    expect(readFileSync(file).equals(readFileSync(join(records(), 'b.json')))).toBe(true);
    expect(statSync(file).mtimeMs).toBe(pending.recentAt);
    // Not flushed, as the synchronous record: a short one does not parse, and the next build runs in full.
    expect(fsyncs).toBe(0);
    expect(readdirSync(records()).sort()).toEqual(['a.json', 'b.json']);
  });

  it('a write that fails halfway removes the old record and leaves no temp', async () => {
    const file = join(records(), 'a.json');
    writeLastBuild(file, target, pending, stamps);
    expect(existsSync(file)).toBe(true);
    asyncWriteIo.write = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await writeLastBuildAsync(file, target, { ...pending, plan: 'another' }, stamps);
    expect(readdirSync(records())).toEqual([]);
  });

  it('a removal asked after a write ends after it: no record is left', async () => {
    const file = join(records(), 'a.json');
    const hold = holdOpens();
    const write = writeLastBuildAsync(file, target, pending, stamps);
    // An output not installed: the record goes.
    const removal = writeLastBuildAsync(file, target, pending, [undefined]);
    await hold.reached;
    hold.release();
    await Promise.all([write, removal]);
    expect(readdirSync(records())).toEqual([]);
  });

  // Mutation audit 2026-12-05 (docs/testing.md): a write that ended removing the turn of the one queued behind it (the
  // map's entry deleted whatever it held) passed the case above, which asks its removal before the first write ends.
  it('a removal asked while a second write waits for the first ends after the second too', async () => {
    const file = join(records(), 'a.json');
    const gates = [0, 1].map(() => {
      let arrive = (): void => undefined;
      let release = (): void => undefined;
      const reached = new Promise<void>((r) => (arrive = r));
      const open = new Promise<void>((r) => (release = r));
      return { reached, arrive, open, release };
    });
    let opens = 0;
    asyncWriteIo.open = async (path, flags, mode) => {
      const gate = gates[opens++];
      if (gate) {
        gate.arrive();
        await gate.open;
      }
      return real.open(path, flags, mode);
    };
    const first = writeLastBuildAsync(file, target, pending, stamps);
    const second = writeLastBuildAsync(file, target, { ...pending, plan: 'second' }, stamps);
    await gates[0].reached;
    gates[0].release();
    await first;
    expect(existsSync(file)).toBe(true);
    // The second write is at its open; the removal is asked now, and must wait for it.
    await gates[1].reached;
    const removal = writeLastBuildAsync(file, target, pending, [undefined]);
    gates[1].release();
    await Promise.all([second, removal]);
    expect(readdirSync(records())).toEqual([]);
  });

  it('no pending record removes the old one, and nothing is written', async () => {
    const file = join(records(), 'a.json');
    writeLastBuild(file, target, pending, stamps);
    writeFileSync(join(dir, 'marker'), '');
    await writeLastBuildAsync(file, target, undefined, stamps);
    expect(readdirSync(records())).toEqual([]);
  });
});
