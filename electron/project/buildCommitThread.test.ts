/**
 * The app's Build writes its outputs off the main thread (docs/architecture.md#electron): the build runner commits
 * with commitOutputsAsync, whose temps are written in Node's thread pool, so the main process answers the window
 * (its status polls, its timers) while a large .mar is written, with the commit's guarantees kept: all or nothing,
 * the lock, the output folder checked again before the renames, and a quit waiting for it (writesInFlight).
 *
 * No time is measured: the tick asserted is a setImmediate queued right after the worker's `done` reached main, and a
 * commit that wrote on the main thread had ended before it ran (it ran inside the message handler).
 *
 * Mutations, each failing this file: createBuildRunner's default writer back to commitOutputs (the tick finds the
 * build done, and nothing is held in the thread pool); `void commit(m)` made `await`-less synchronous by dropping the
 * await before `write` (the build is done before its outputs are); cancel no longer spared while writing (a cancelled
 * build whose files are then written); the commit's folder pins dropped (`folders: req.folders` removed: the moved
 * folder's .mar is written); the record of the build written with writeLastBuild again, or not awaited (the build is
 * done before its record is in place, or the record never reaches the thread pool); the lock released by path again,
 * whatever file lies there (the other run's lock in the folder now at the old path is removed).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../shared/ipc/project';
import { asyncWriteIo, pinFoldersOf } from '../fsutil';
import { commitsInFlight, writesInFlight } from '../writeTurns';
import { commitOutputsAsync } from '../build/commit';
import type { BuildJobMessage } from './buildJob';
import { createBuildRunner, type BuildJobLauncher } from './buildRunner';

const realOpen = asyncWriteIo.open;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-build-commit-'));
  mkdirSync(join(dir, 'out'));
});
afterEach(() => {
  asyncWriteIo.open = realOpen;
  rmSync(dir, { recursive: true, force: true });
});

/** A build worker that ends at once with `outputs` (the page's view of a real build's end). */
function finishingWith(
  outputs: { path: string; bytes: Uint8Array }[],
  lastBuild?: unknown,
): {
  launch: BuildJobLauncher;
  finish: () => void;
} {
  let send: (m: BuildJobMessage) => void = () => undefined;
  const launch: BuildJobLauncher = (_req, onMessage) => {
    send = onMessage;
    return () => undefined;
  };
  const finish = () => {
    send({ type: 'start', count: 1, names: ['walk'] } as BuildJobMessage);
    send({
      type: 'done',
      outputs,
      report: { outputs: { report: join(dir, 'out', 'stage.report.json') } },
      warnings: [],
      ...(lastBuild !== undefined && { lastBuild }),
    } as unknown as BuildJobMessage);
  };
  return { launch, finish };
}

/** Holds every write made in the thread pool at its open until `release`. */
function holdWrites(): { reached: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const held = new Promise<void>((r) => (release = r));
  let reached = (): void => undefined;
  const atOpen = new Promise<void>((r) => (reached = r));
  asyncWriteIo.open = async (path, flags, mode) => {
    reached();
    await held;
    return realOpen(path, flags, mode);
  };
  return { reached: atOpen, release };
}

async function ended(runner: ReturnType<typeof createBuildRunner>, id: string): Promise<BuildStatus> {
  for (;;) {
    const s = runner.status(id);
    if (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled') return s;
    await new Promise((r) => setImmediate(r));
  }
}

const start = (runner: ReturnType<typeof createBuildRunner>, folders = pinFoldersOf([join(dir, 'out', 'x')])) =>
  runner.start({
    projectPath: join(dir, 'p.actguy.json'),
    projectText: '{}',
    sevTexts: [],
    dryRun: false,
    folders,
  });

describe("the app's Build commits off the main thread", () => {
  it('a tick of the main thread runs while a large .mar is written, and the files land whole', async () => {
    const mar = new Uint8Array(48 * 1024 * 1024).map((_, i) => i * 7);
    const path = join(dir, 'out', 'stage.mar');
    const worker = finishingWith([{ path, bytes: mar }]);
    const runner = createBuildRunner(worker.launch);
    const { buildId } = start(runner);
    worker.finish();
    // What main does next (the window's status poll, a timer) while the commit writes.
    // Round 11 (maintainer's read): it counts as a commit too, which a quit does not cut unasked (quitWaits.ts).
    // Mutation that fails: commitOutputsAsync not marked a commit.
    const atTick = await new Promise<{ state: string; inFlight: number; commits: number; there: boolean }>((r) =>
      setImmediate(() =>
        r({
          state: runner.status(buildId).state,
          inFlight: writesInFlight.size,
          commits: commitsInFlight.size,
          there: existsSync(path),
        }),
      ),
    );
    expect(atTick).toEqual({ state: 'writing', inFlight: 1, commits: 1, there: false });
    const s = await ended(runner, buildId);
    expect(s.state).toBe('done');
    expect(s.written).toEqual([path]);
    // Its size, for the build dialog (docs/user-guide.md, fifteenth round).
    expect(s.writtenBytes).toEqual([mar.byteLength]);
    expect(readFileSync(path).equals(Buffer.from(mar))).toBe(true);
    expect([writesInFlight.size, commitsInFlight.size]).toEqual([0, 0]);
    expect(readdirSync(join(dir, 'out'))).toEqual(['stage.mar']);
  });

  it('a cancel while the outputs are written changes nothing: the commit ends, all of it', async () => {
    const path = join(dir, 'out', 'stage.mar');
    const worker = finishingWith([{ path, bytes: new Uint8Array([1, 2, 3]) }]);
    const runner = createBuildRunner(worker.launch);
    const hold = holdWrites();
    const { buildId } = start(runner);
    worker.finish();
    await hold.reached;
    expect(runner.cancel(buildId).state).toBe('writing');
    hold.release();
    const s = await ended(runner, buildId);
    expect(s.state).toBe('done');
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
  });

  it('an output folder moved while its temps were written is refused before the renames: nothing written', async () => {
    const path = join(dir, 'out', 'stage.mar');
    const worker = finishingWith([{ path, bytes: new Uint8Array([1, 2, 3]) }]);
    const runner = createBuildRunner(worker.launch);
    const hold = holdWrites();
    const { buildId } = start(runner);
    worker.finish();
    await hold.reached;
    // The folder goes aside and another takes its place while the write waits in the thread pool.
    renameSync(join(dir, 'out'), join(dir, 'aside'));
    mkdirSync(join(dir, 'out'));
    hold.release();
    const s = await ended(runner, buildId);
    expect(s.state).toBe('failed');
    expect(s.errors[0].message).toMatch(/changed after it was checked.*nothing was written/);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
    // No output, no temp and no lock where the folder went (the release goes through the folder checked, round 41).
    expect(readdirSync(join(dir, 'aside'))).toEqual([]);
  });

  it('the record of the build is written off the main thread too, before the build is done', async () => {
    const path = join(dir, 'out', 'stage.mar');
    const record = join(dir, 'state', 'last-builds', 'stage.json');
    const pending = { plan: 'plan', inputs: [], parts: [], summary: { outputs: {}, totals: {}, warnings: [] } };
    const worker = finishingWith([{ path, bytes: new Uint8Array([1, 2, 3]) }], {
      file: record,
      target: { project: join(dir, 'p.actguy.json'), outputs: [path] },
      pending,
    });
    const runner = createBuildRunner(worker.launch);
    // Only the record's write is held in the thread pool; the outputs' go on.
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reached = (): void => undefined;
    const atRecord = new Promise<string>((r) => (reached = () => r('held')));
    asyncWriteIo.open = async (p, flags, mode) => {
      if (p.startsWith(join(dir, 'state'))) {
        reached();
        await held;
      }
      return realOpen(p, flags, mode);
    };
    const { buildId } = start(runner);
    worker.finish();
    // Written on the main thread, the record never reaches the thread pool and the build ends first.
    expect(await Promise.race([atRecord, ended(runner, buildId).then(() => 'done')])).toBe('held');
    expect(runner.status(buildId).state).toBe('writing');
    expect([existsSync(path), existsSync(record)]).toEqual([true, false]);
    release();
    expect((await ended(runner, buildId)).state).toBe('done');
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ tool: 'actguy last build', plan: 'plan' });
  });

  it('a folder moved during the commit: its own lock is released where the folder went, the lock now at its path left alone', async () => {
    const path = join(dir, 'out', 'stage.mar');
    const worker = finishingWith([{ path, bytes: new Uint8Array([1, 2, 3]) }]);
    const runner = createBuildRunner(worker.launch);
    const hold = holdWrites();
    const { buildId } = start(runner);
    worker.finish();
    await hold.reached;
    renameSync(join(dir, 'out'), join(dir, 'aside'));
    mkdirSync(join(dir, 'out'));
    // Another run commits into the folder now at the old path, and holds its lock there.
    const theirs = `${hostname()} 999999 ${Date.now()}`;
    writeFileSync(join(dir, 'out', 'stage.mar.actguy-lock'), theirs);
    hold.release();
    expect((await ended(runner, buildId)).state).toBe('failed');
    // Released by path, the other run's lock was removed, letting a third run in beside it.
    expect(readFileSync(join(dir, 'out', 'stage.mar.actguy-lock'), 'utf8')).toBe(theirs);
    // The commit's own lock went with its folder, and the release, made through the folder it checked (round 41), removed
    // it there: nothing of the failed commit is left in either folder.
    expect(readdirSync(join(dir, 'aside'))).toEqual([]);
    // The next build there takes the lock, and writes.
    Object.assign(asyncWriteIo, { open: realOpen });
    await commitOutputsAsync([{ path: join(dir, 'aside', 'stage.mar'), bytes: new Uint8Array([4]) }]);
    expect(readdirSync(join(dir, 'aside'))).toEqual(['stage.mar']);
  });
});
