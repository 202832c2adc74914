/**
 * runOneShotWorker, each end a job can have (oneShotWorker.ts): its answer, a cancel (before the start too), a time
 * budget, a thread that threw (its message), one that exited without answering (its exit code, told apart from a
 * throw: compressOffThread words the two apart), one that did not start, and a refused bundle; the thread is ended
 * on every one of them.
 *
 * Mutations, each failing this file: `exitCode` left out of the exit's end; set on a thrown error's end too; the
 * thread not terminated once the answer came (it runs on: the exit never comes, the test times out); the abort not
 * heard (the held job never ends, the test times out).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keptWorkers, keptWorkerTalks, runOneShotWorker, startWorkerTalk, stopOneShotThreads } from './oneShotWorker';
import { heldThread, workerFile } from './testing/heldThread';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-oneshot-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker file whose code is `body`. */
function worker(name: string, body: string): string {
  const path = join(dir, `${name}.cjs`);
  writeFileSync(path, `const { parentPort, workerData } = require('node:worker_threads');\n${body}\n`);
  return path;
}

const HOLD = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);';

describe('runOneShotWorker', () => {
  // Mutation that fails: the progress hook not asked (the first step is taken for the answer).
  it('takes the messages the progress hook takes as steps, and the first it does not as the answer', async () => {
    const steps: unknown[] = [];
    const ended = await runOneShotWorker(
      worker(
        'steps',
        `parentPort.postMessage({ step: 1 });\nparentPort.postMessage({ step: 2 });\nparentPort.postMessage({ end: 3 });\n${HOLD}`,
      ),
      null,
      { progress: (m) => 'step' in (m as object) && steps.push(m) > 0 },
    );
    expect(ended).toEqual({ end: 'answer', value: { end: 3 } });
    expect(steps).toEqual([{ step: 1 }, { step: 2 }]);
  });

  it('resolves with the first answer and ends the thread, which would have gone on', async () => {
    let exited: Promise<number> | undefined;
    const ended = await runOneShotWorker(
      worker('answers', `parentPort.postMessage({ twice: workerData * 2 });\n${HOLD}`),
      21,
      { onWorker: (w: Worker) => (exited = new Promise((done) => w.once('exit', done))) },
    );
    expect(ended).toEqual({ end: 'answer', value: { twice: 42 } });
    expect(await exited).toBe(1); // terminated, not ended by itself
  });

  it('tells a thread that threw from one that exited without answering', async () => {
    expect(await runOneShotWorker(worker('throws', "throw new Error('no more memory');"), null)).toEqual({
      end: 'failed',
      started: true,
      detail: 'no more memory',
    });
    expect(await runOneShotWorker(worker('exits', 'process.exit(3);'), null)).toEqual({
      end: 'failed',
      started: true,
      detail: 'exit code 3',
      exitCode: 3,
    });
    expect(await runOneShotWorker(worker('quiet', ''), null)).toEqual({
      end: 'failed',
      started: true,
      detail: 'exit code 0',
      exitCode: 0,
    });
  });

  it('a refused bundle is its message; a thread that cannot start says so', async () => {
    expect(
      await runOneShotWorker(
        worker('refused', "throw Object.assign(new Error('bundle x refused'), { code: 'ACTGUY_BUNDLE_REFUSED' });"),
        null,
      ),
    ).toEqual({ end: 'refused', message: 'bundle x refused' });
    // workerData that cannot be cloned: the Worker constructor throws.
    const notStarted = await runOneShotWorker(worker('never', ''), { f: () => 1 });
    expect(notStarted).toMatchObject({ end: 'failed', started: false });
    expect('exitCode' in notStarted).toBe(false);
  });

  it('a cancel, before the start or while the job runs, and a time budget end it', async () => {
    const held = worker('held', HOLD);
    const before = new AbortController();
    before.abort();
    expect(await runOneShotWorker(held, null, { signal: before.signal })).toEqual({ end: 'cancelled' });
    const during = new AbortController();
    let exited: Promise<number> | undefined;
    const running = runOneShotWorker(held, null, {
      signal: during.signal,
      onWorker: (w: Worker) => {
        exited = new Promise((done) => w.once('exit', done));
        w.once('online', () => during.abort());
      },
    });
    expect(await running).toEqual({ end: 'cancelled' });
    expect(await exited).toBe(1);
    expect(await runOneShotWorker(held, null, { budgetMs: 1 })).toEqual({ end: 'overBudget' });
  });

  // Mutations that fail: a message that came while no turn waited dropped (the second turn never ends: the test times
  // out); `send` not posted; `close` not terminating the thread (its exit never comes).
  it('startWorkerTalk: turns in order, a message that came between turns kept for the next, main answering in between', async () => {
    let exited: Promise<number> | undefined;
    let early: Promise<void> | undefined;
    const talk = startWorkerTalk(
      worker(
        'talks',
        // Two answers at once (the second comes before main asks for it), then main's answer doubled, then a hold.
        `parentPort.postMessage({ plan: workerData });\nparentPort.postMessage({ early: 1 });\n` +
          `parentPort.once('message', (m) => { parentPort.postMessage({ step: 1 }); parentPort.postMessage({ done: m.n * 2 }); ${HOLD} });`,
      ),
      'p',
      {
        onWorker: (w: Worker) => {
          exited = new Promise((done) => w.once('exit', done));
          // The thread's second message, once main has it (the talk's own listener, after this one, takes it in the same turn).
          early = new Promise((done) => w.on('message', (m: object) => 'early' in m && done()));
        },
      },
    );
    expect(await talk.next()).toEqual({ end: 'answer', value: { plan: 'p' } });
    // Main's turn takes a while: the thread's next message waits for it. Waited for as an event: after a fixed 20 ms
    // a loaded machine could deliver it later, and the next() below took it as it came, not from the waiting ones.
    await early;
    expect(await talk.next()).toEqual({ end: 'answer', value: { early: 1 } });
    talk.send({ n: 21 });
    const steps: unknown[] = [];
    expect(await talk.next((m) => 'step' in (m as object) && steps.push(m) > 0)).toEqual({
      end: 'answer',
      value: { done: 42 },
    });
    expect(steps).toEqual([{ step: 1 }]);
    const waiting = talk.next();
    talk.close();
    expect(await waiting).toEqual({ end: 'cancelled' });
    expect(await exited).toBe(1);
    expect(await talk.next()).toEqual({ end: 'cancelled' });
  });
});

describe('keptWorkerTalks', () => {
  /** Answers each job with it and its thread's id; `bye` answers, then exits by itself. */
  const echo = () =>
    worker(
      'echo',
      `const { threadId } = require('node:worker_threads');
parentPort.on('message', (m) => {
  parentPort.postMessage({ got: m, threadId });
  if (m === 'bye') setImmediate(() => process.exit(0));
});`,
    );
  const ask = async (talks: ReturnType<typeof keptWorkerTalks>, job: string, end: 'release' | 'close') => {
    let thread: Worker | undefined;
    const talk = talks.start(job, { onWorker: (w) => (thread = w) });
    const answer = await talk.next<{ got: string; threadId: number }>();
    if (end === 'release') talk.release!();
    else talk.close();
    if (answer.end !== 'answer') throw new Error(`no answer: ${JSON.stringify(answer)}`);
    return { ...answer.value, thread: thread! };
  };

  // Mutations that fail: release terminating the thread as close does; a kept thread handed out after it exited.
  it('hands a released thread the next job; one closed, exited by itself or not kept (keepMs 0) is not reused', async () => {
    const talks = keptWorkerTalks(keptWorkers(echo(), 60_000));
    const a = await ask(talks, 'a', 'release');
    const b = await ask(talks, 'b', 'release');
    expect([a.got, b.got]).toEqual(['a', 'b']);
    expect(b.threadId).toBe(a.threadId);
    // Closed (Cancel, a refusal): terminated, and the next job has a thread of its own.
    const c = await ask(talks, 'c', 'close');
    expect(c.threadId).toBe(a.threadId);
    const d = await ask(talks, 'd', 'release');
    expect(d.threadId).not.toBe(a.threadId);
    // Kept, then exited by itself: not handed out again.
    const exited = new Promise((done) => d.thread.once('exit', done));
    const bye = await ask(talks, 'bye', 'release');
    expect(bye.threadId).toBe(d.threadId);
    await exited;
    expect((await ask(talks, 'e', 'release')).threadId).not.toBe(d.threadId);
    // Not kept at all.
    const none = keptWorkerTalks(keptWorkers(echo(), 0));
    const f = await ask(none, 'f', 'release');
    const gone = new Promise((done) => f.thread.once('exit', done));
    expect((await ask(none, 'g', 'release')).threadId).not.toBe(f.threadId);
    await gone;
  });
});

/**
 * Maintainer's read, round 17: the quit's bounded stop (quitWaits.ts createWorkersStop) waits for every thread a job
 * had, not only the idle one kept. A job's end (a cancel, a close, a build stopped) terminates its thread and does not
 * wait; a thread held in native code then outlived the quit's wait, and the process's end waited for it unbounded.
 */
describe.skipIf(process.platform === 'win32')('the threads a quit waits for', () => {
  /** One turn of the event loop: a promise that did not wait for anything has settled by then. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  // Mutation that fails: dispose ending the kept thread only (as before round 17: it settled at once).
  it("keptWorkers' dispose ends and waits for the threads of jobs still running or just stopped, and the kept one", async () => {
    const held = heldThread(dir, 'kept-build');
    const workers = keptWorkers(
      workerFile(dir, 'heldBuild', `parentPort.once('message', () => { ${held.hold} });`),
      60_000,
    );
    // A build's thread, held in a read; its job stopped (the launcher terminates it without waiting).
    const building = workers.take();
    building.postMessage('job');
    await vi.waitFor(() => expect(held.reached()).toBe(true), { timeout: 25_000 });
    void building.terminate();
    // An idle thread kept for the next job.
    const idle = workers.take();
    workers.keep(idle);
    const idleGone = once(idle, 'exit');
    let disposed = false;
    const dispose = workers.dispose().then(() => (disposed = true));
    // The kept thread ends at once; the dispose still waits for the held one.
    await idleGone;
    await turn();
    expect(disposed).toBe(false);
    held.release();
    await dispose;
    expect(disposed).toBe(true);
    expect(workers.take()).not.toBe(idle);
  });

  // Mutation that fails: startWorkerTalk's threads not noted (stopOneShotThreads settled at once).
  it('stopOneShotThreads ends and waits for the one-shot threads, one whose job was cancelled and one still running', async () => {
    const cancelled = heldThread(dir, 'one-shot-cancelled');
    const running = heldThread(dir, 'one-shot-running');
    const talkA = startWorkerTalk(workerFile(dir, 'heldOpen', cancelled.hold), null);
    const talkB = startWorkerTalk(workerFile(dir, 'heldImport', running.hold), null);
    const endB = talkB.next();
    await vi.waitFor(() => expect([cancelled.reached(), running.reached()]).toEqual([true, true]), { timeout: 25_000 });
    talkA.close();
    let stopped = false;
    const stop = stopOneShotThreads().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    cancelled.release();
    await turn();
    expect(stopped).toBe(false);
    running.release();
    await stop;
    // The job still running ends as its thread's exit ends it.
    expect(await endB).toMatchObject({ end: 'failed', started: true });
  });
});
