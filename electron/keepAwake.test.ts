import { describe, expect, it } from 'vitest';
import type { CompressClient } from './compressClient';
import type { ImportJobResult } from './interchange/importJob';
import {
  createKeepAwake,
  keepingAwakeDuringBuilds,
  keepingAwakeDuringImports,
  keepingAwakeDuringMshExports,
  keepingAwakeDuringTalk,
  type PowerSaveBlockerPort,
} from './keepAwake';
import type { BuildJobMessage } from './project/buildJob';
import type { BuildJobLauncher } from './project/buildRunner';
import type { WorkerTalk } from './oneShotWorker';

/** Electron's powerSaveBlocker as the OS sees it: the blockers on now, by id. */
function fakeBlocker() {
  const on = new Map<number, string>();
  let next = 0;
  const port: PowerSaveBlockerPort = {
    start: (type) => {
      on.set(++next, type);
      return next;
    },
    stop: (id) => on.delete(id),
  };
  return { port, on, started: () => next };
}

/** A build worker that runs until the test ends it: its message and crash callbacks, and whether it was stopped. */
function heldLauncher() {
  const jobs: { send: (m: BuildJobMessage) => void; crash: (message: string) => void; stopped: boolean }[] = [];
  const launch: BuildJobLauncher = (_req, onMessage, onCrash) => {
    const job = { send: onMessage, crash: onCrash, stopped: false };
    jobs.push(job);
    return () => {
      job.stopped = true;
    };
  };
  return { launch, jobs };
}

const request = { projectPath: '/p/s.actguy.json', projectText: '{}', sevTexts: [], cacheDir: null, dryRun: false };
const report = { motions: [] } as unknown as Extract<BuildJobMessage, { type: 'done' }>['report'];

describe('keeping the machine awake during long work (round 20)', () => {
  it('holds one blocker of the kind that lets the display sleep, for as long as any hold is open', () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const a = keepAwake.hold();
    const b = keepAwake.hold();
    expect([...blocker.on.values()]).toEqual(['prevent-app-suspension']);
    a();
    a(); // a second release of the same hold must not release another's
    expect(blocker.on.size).toBe(1);
    b();
    expect(blocker.on.size).toBe(0);
    expect(keepAwake.holds).toBe(0);
    keepAwake.hold();
    expect(blocker.on.size).toBe(1);
  });

  it('a build holds it until its end, whichever end: done, failed, up to date, a crashed worker, stopped', () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const { launch, jobs } = heldLauncher();
    const received: string[] = [];
    const launched = keepingAwakeDuringBuilds(launch, keepAwake);
    const ends: ((i: number) => void)[] = [
      (i) => jobs[i].send({ type: 'done', outputs: [], report, warnings: [] }),
      (i) => jobs[i].send({ type: 'failed', errors: [{ message: 'no' }], warnings: [] }),
      (i) => jobs[i].send({ type: 'upToDate', summary: {} as never, warnings: [], unchanged: [] }),
      (i) => jobs[i].crash('the build worker stopped unexpectedly (exit code 1)'),
    ];
    for (const [i, end] of ends.entries()) {
      launched(
        request,
        (m) => received.push(m.type),
        (message) => received.push(message),
      );
      jobs[i].send({ type: 'start', count: 2, names: ['a', 'b'] });
      jobs[i].send({ type: 'progress', motion: {} as never, etaMs: 1000 });
      expect(blocker.on.size, `job ${i} running`).toBe(1);
      end(i);
      expect(blocker.on.size, `job ${i} ended`).toBe(0);
    }
    expect(received.filter((m) => m !== 'start' && m !== 'progress')).toEqual([
      'done',
      'failed',
      'upToDate',
      'the build worker stopped unexpectedly (exit code 1)',
    ]);
    // Cancelled (the runner stops the worker): released; the worker's own late end releases nothing more.
    const other = keepAwake.hold();
    const stop = launched(
      request,
      () => {},
      () => {},
    );
    stop();
    expect(jobs.at(-1)!.stopped).toBe(true);
    // A stopped worker sends nothing more (workerLauncher ends it): the stop itself released.
    expect(keepAwake.holds).toBe(1);
    jobs.at(-1)!.send({ type: 'failed', errors: [], warnings: [] });
    expect(keepAwake.holds).toBe(1);
    other();
    expect(blocker.on.size).toBe(0);
  });

  it('a build whose runner throws on its end message still releases; a worker that cannot start holds nothing', () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const { launch, jobs } = heldLauncher();
    keepingAwakeDuringBuilds(launch, keepAwake)(
      request,
      () => {
        throw new Error('the commit failed');
      },
      () => {},
    );
    expect(() => jobs[0].send({ type: 'done', outputs: [], report, warnings: [] })).toThrow('the commit failed');
    expect(blocker.on.size).toBe(0);
    const failing: BuildJobLauncher = () => {
      throw new Error('no worker file');
    };
    expect(() =>
      keepingAwakeDuringBuilds(failing, keepAwake)(
        request,
        () => {},
        () => {},
      ),
    ).toThrow('no worker file');
    expect(blocker.on.size).toBe(0);
  });

  it('an import holds it until it settles, also when it fails or is cancelled', async () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    let finish: (r: ImportJobResult) => void = () => {};
    let fail: (e: Error) => void = () => {};
    const run = keepingAwakeDuringImports(
      (_req, signal) =>
        new Promise<ImportJobResult>((resolve, reject) => {
          finish = resolve;
          fail = reject;
          signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
      keepAwake,
    );
    const req = { path: '/p/walk.bvh', fps: 30, scale: 1, clip: 0 } as never;
    const done = run(req);
    expect(blocker.on.size).toBe(1);
    finish({ status: 'failed', message: 'bad file' } as ImportJobResult);
    await done;
    expect(blocker.on.size).toBe(0);
    const failed = run(req);
    fail(new Error('worker died'));
    await expect(failed).rejects.toThrow('worker died');
    expect(blocker.on.size).toBe(0);
    const abort = new AbortController();
    const cancelled = run(req, abort.signal);
    expect(blocker.on.size).toBe(1);
    abort.abort();
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(blocker.on.size).toBe(0);
  });

  it("an MSH export holds it until the worker's answer or failure", async () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const answers: { resolve: (v: never) => void; reject: (e: Error) => void }[] = [];
    const client = {
      exportMsh: () => new Promise((resolve, reject) => answers.push({ resolve, reject })),
    } as unknown as CompressClient;
    const wrapped = keepingAwakeDuringMshExports(client, keepAwake);
    const req = { documentId: 'd', options: {} as never, names: { source: 'walk.mtn', baseName: 'walk' } };
    const first = wrapped.exportMsh(req);
    expect(blocker.on.size).toBe(1);
    answers[0].reject(new Error('the compressor was stopped'));
    await expect(first).rejects.toThrow('the compressor was stopped');
    expect(blocker.on.size).toBe(0);
    const second = client.exportMsh(req);
    answers[1].resolve({} as never);
    await second;
    expect(blocker.on.size).toBe(0);
  });

  it('quitting releases every hold; work that ends afterwards releases nothing twice', () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const late = keepAwake.hold();
    keepAwake.hold();
    keepAwake.releaseAll();
    expect([blocker.on.size, keepAwake.holds]).toEqual([0, 0]);
    const fresh = keepAwake.hold();
    late();
    expect([blocker.on.size, keepAwake.holds]).toEqual([1, 1]);
    fresh();
    expect(blocker.on.size).toBe(0);
    expect(blocker.started()).toBe(2);
  });

  // Round 10 of the maintainer's read (docs/architecture.md). Mutations that fail: `close` or `release` not releasing
  // the hold; `release` dropped from the wrapped talk (the thread then never kept); the thread's own call left out.
  it("an Export All thread's talk holds it until it is closed or its thread released, once", () => {
    const blocker = fakeBlocker();
    const keepAwake = createKeepAwake(blocker.port);
    const calls: string[] = [];
    const talk = (): WorkerTalk => ({
      next: async () => ({ end: 'cancelled' }),
      send: () => calls.push('send'),
      close: () => calls.push('close'),
      release: () => calls.push('release'),
    });
    const closed = keepingAwakeDuringTalk(talk(), keepAwake);
    const released = keepingAwakeDuringTalk(talk(), keepAwake);
    expect([blocker.on.size, keepAwake.holds]).toEqual([1, 2]);
    closed.send('go');
    closed.close();
    closed.close();
    expect(keepAwake.holds).toBe(1);
    released.release!();
    expect([blocker.on.size, keepAwake.holds]).toEqual([0, 0]);
    released.close();
    expect(keepAwake.holds).toBe(0);
    expect(calls).toEqual(['send', 'close', 'close', 'release', 'close']);
    // A one-shot thread's talk has no release: the wrapped talk has none either.
    const { release: _none, ...oneShot } = talk();
    expect(keepingAwakeDuringTalk(oneShot, keepAwake).release).toBeUndefined();
  });
});
