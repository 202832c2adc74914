/**
 * A quit waits (bounded) for the writes still running: a copy of unsaved work or a save is not cut off by Cmd+Q.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  createQuitGate,
  createStopSignals,
  createWorkersStop,
  stopWorkers,
  waitForWritesBeforeQuit,
} from './quitWaits';

/** A write that ends when the test says, counted in `pending` (and in `commits`, given: a commit) until then. */
function heldWrite(pending: Set<Promise<unknown>>, commits?: Set<Promise<unknown>>): () => void {
  let end = (): void => undefined;
  const p = new Promise<void>((r) => (end = r));
  const entry: Promise<unknown> = p.then(() => {
    pending.delete(entry);
    commits?.delete(entry);
  });
  pending.add(entry);
  commits?.add(entry);
  return end;
}

/** No commit running: the question about one is never asked. */
const noCommits = {
  commits: new Set<Promise<unknown>>(),
  quitDuringCommits: async () => {
    throw new Error('asked with no commit running');
  },
};

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true));

describe('quitting while writes run', () => {
  // Mutation that fails: the gate holding a quit with nothing running.
  it('nothing running: the quit goes ahead at once', () => {
    const quit = vi.fn();
    const gate = createQuitGate({ pending: new Set(), ...noCommits, quit, warn: vi.fn() });
    const event = { preventDefault: vi.fn() };
    expect(gate(event)).toBe(true);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(quit).not.toHaveBeenCalled();
  });

  // Mutations that fail: the quit not prevented while a write runs; quit again before the write ended; a second
  // will-quit while waiting let through; the quit never asked again.
  it('a write running holds the quit until it ends, then the app quits again and that quit goes ahead', async () => {
    const pending = new Set<Promise<unknown>>();
    const end = heldWrite(pending);
    const quit = vi.fn();
    const warn = vi.fn();
    const gate = createQuitGate({ pending, ...noCommits, quit, warn, timeoutMs: 60_000 });
    const first = { preventDefault: vi.fn() };
    expect(gate(first)).toBe(false);
    expect(first.preventDefault).toHaveBeenCalled();
    // Another will-quit meanwhile (a second Cmd+Q) waits with it.
    const second = { preventDefault: vi.fn() };
    expect(gate(second)).toBe(false);
    expect(second.preventDefault).toHaveBeenCalled();
    await new Promise((r) => setImmediate(r));
    expect(quit).not.toHaveBeenCalled();
    // A write that starts while the quit waits (a save answering the close question) is waited for as well.
    const endLater = heldWrite(pending);
    end();
    await new Promise((r) => setImmediate(r));
    expect(quit).not.toHaveBeenCalled();
    endLater();
    await until(() => quit.mock.calls.length === 1);
    const again = { preventDefault: vi.fn() };
    expect(gate(again)).toBe(true);
    expect(again.preventDefault).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  // Mutation that fails: waiting without a bound (the quit never comes).
  it('a write that does not end in time is left: the app quits all the same and says so', async () => {
    const pending = new Set<Promise<unknown>>();
    heldWrite(pending);
    const quit = vi.fn();
    const warn = vi.fn();
    const gate = createQuitGate({ pending, ...noCommits, quit, warn, timeoutMs: 1 });
    expect(gate({ preventDefault: vi.fn() })).toBe(false);
    await until(() => quit.mock.calls.length === 1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^quitting with a write still running after .*file it was replacing is as it was$/),
    );
    expect(gate({ preventDefault: vi.fn() })).toBe(true);
  });

  // Round 11 (maintainer's read). Mutations that fail: the wait's end not asking while a commit runs (the commit cut
  // without a word, the build's work lost); Wait not waiting for the commit; Quit now waiting all the same; a
  // question that fails taken for Quit now; a write that is no commit asked about; a quit asked again while waiting
  // not asking again, asking twice at once, or its Quit now not ending the wait.
  it('a commit still running when the wait runs out is not cut unasked: Wait holds the quit until it ends', async () => {
    const pending = new Set<Promise<unknown>>();
    const commits = new Set<Promise<unknown>>();
    const endWrite = heldWrite(pending);
    const endCommit = heldWrite(pending, commits);
    const asked: number[] = [];
    const quit = vi.fn();
    const warn = vi.fn();
    const gate = createQuitGate({
      pending,
      commits,
      quitDuringCommits: async (count) => (asked.push(count), false),
      quit,
      warn,
      timeoutMs: 1,
    });
    expect(gate({ preventDefault: vi.fn() })).toBe(false);
    await until(() => asked.length === 1);
    expect(asked).toEqual([1]);
    // Answered Wait: the quit waits for the commit, however long; the other write need not end.
    await new Promise((r) => setImmediate(r));
    expect(quit).not.toHaveBeenCalled();
    // A quit asked again meanwhile (a second Cmd+Q, the Dock's Quit) asks again, once while its question is up;
    // answered Wait again, it still waits.
    const again = { preventDefault: vi.fn() };
    expect(gate(again)).toBe(false);
    expect(gate({ preventDefault: vi.fn() })).toBe(false);
    expect(again.preventDefault).toHaveBeenCalled();
    await until(() => asked.length === 2);
    await new Promise((r) => setImmediate(r));
    expect(quit).not.toHaveBeenCalled();
    expect(asked).toEqual([1, 1]);
    endCommit();
    await until(() => quit.mock.calls.length === 1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^quitting with a write still running after/));
    endWrite();
  });

  it('Quit now cuts the commit, asked first or again; a question that fails waits; a write that is no commit is not asked about', async () => {
    const run = async (answer: () => Promise<boolean>, commit: boolean) => {
      const pending = new Set<Promise<unknown>>();
      const commits = new Set<Promise<unknown>>();
      const end = heldWrite(pending, commit ? commits : undefined);
      const asked = vi.fn(answer);
      const quit = vi.fn();
      const warn = vi.fn();
      const gate = createQuitGate({ pending, commits, quitDuringCommits: asked, quit, warn, timeoutMs: 1 });
      gate({ preventDefault: vi.fn() });
      return { end, asked, quit, warn, gate };
    };
    // Quit now: the app quits with the commit still running.
    const now = await run(async () => true, true);
    await until(() => now.quit.mock.calls.length === 1);
    expect(now.asked).toHaveBeenCalledWith(1, expect.any(AbortSignal));
    now.end();
    // The question could not be shown: the commit is waited for.
    const failing = await run(async () => {
      throw new Error('no box');
    }, true);
    await until(() => failing.warn.mock.calls.length === 1);
    expect(failing.warn).toHaveBeenCalledWith(expect.stringMatching(/could not be shown .*waiting for them$/));
    await new Promise((r) => setImmediate(r));
    expect(failing.quit).not.toHaveBeenCalled();
    failing.end();
    await until(() => failing.quit.mock.calls.length === 1);
    // Wait, then a quit asked again answered Quit now: the app quits with the commit still running.
    const answers = [false, true];
    const later = await run(async () => answers.shift()!, true);
    await until(() => later.asked.mock.calls.length === 1);
    await new Promise((r) => setImmediate(r));
    expect(later.quit).not.toHaveBeenCalled();
    later.gate({ preventDefault: vi.fn() });
    await until(() => later.quit.mock.calls.length === 1);
    expect(later.asked).toHaveBeenCalledTimes(2);
    later.end();
    // A write that is no commit (a copy of unsaved work): left as before, unasked.
    const plain = await run(async () => false, false);
    await until(() => plain.quit.mock.calls.length === 1);
    expect(plain.asked).not.toHaveBeenCalled();
    plain.end();
  });

  // Round 12 (maintainer's read). Mutations that fail: no question again after Wait (the quit held for good, on Windows
  // and Linux with no window left to quit again from); the question on screen not taken down once the commit ends (the
  // quit waits on a box nobody needs to answer); the question asked again after the commit ended.
  it('answered Wait, it asks again while the commit runs; the commit ending takes the question on screen down and quits', async () => {
    const pending = new Set<Promise<unknown>>();
    const commits = new Set<Promise<unknown>>();
    const endCommit = heldWrite(pending, commits);
    const signals: AbortSignal[] = [];
    const quit = vi.fn();
    const gate = createQuitGate({
      pending,
      commits,
      // Wait, twice; the third question stays on screen until its signal takes it down (as Electron's box answers
      // its cancel button, Wait).
      quitDuringCommits: (_count, signal) => {
        signals.push(signal);
        if (signals.length < 3) return Promise.resolve(false);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(false)));
      },
      quit,
      warn: vi.fn(),
      timeoutMs: 1,
      askAgainMs: 1,
    });
    expect(gate({ preventDefault: vi.fn() })).toBe(false);
    await until(() => signals.length === 3);
    expect(quit).not.toHaveBeenCalled();
    expect(signals[2].aborted).toBe(false);
    endCommit();
    await until(() => quit.mock.calls.length === 1);
    expect(signals[2].aborted).toBe(true);
  });

  // Round 12. Mutation that fails: the half minute's timer left running once the commits ended (it asks after the quit).
  it('a commit that ends while Wait holds asks nothing more', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pending = new Set<Promise<unknown>>();
      const commits = new Set<Promise<unknown>>();
      const endCommit = heldWrite(pending, commits);
      const asked = vi.fn(async () => false);
      const quit = vi.fn();
      const gate = createQuitGate({ pending, commits, quitDuringCommits: asked, quit, warn: vi.fn() });
      expect(gate({ preventDefault: vi.fn() })).toBe(false);
      await vi.advanceTimersByTimeAsync(5000);
      await until(() => asked.mock.calls.length === 1);
      // Answered Wait: the next question is due in half a minute; the commit ends first.
      await new Promise((r) => setImmediate(r));
      endCommit();
      await until(() => quit.mock.calls.length === 1);
      await vi.advanceTimersByTimeAsync(60_000);
      await new Promise((r) => setImmediate(r));
      expect(asked).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  // Round 11 (maintainer's read): the loopback server's stop (npm run web) has a terminal, no window. Mutations that
  // fail: its commits not waited for past the bound; the second Ctrl+C not ending the wait; nothing said.
  it("the web server's stop waits for a commit past its bound, says so, and a second Ctrl+C ends the wait", async () => {
    const pending = new Set<Promise<unknown>>();
    const commits = new Set<Promise<unknown>>();
    const endCommit = heldWrite(pending, commits);
    const said: string[] = [];
    let cut = (): void => undefined;
    const cutNow = new Promise<void>((r) => (cut = r));
    let stopped = false;
    const stopping = waitForWritesBeforeQuit(pending, (m) => said.push(m), 1, {
      inFlight: commits,
      cutNow: () => cutNow,
      howToCut: 'press Ctrl+C again',
    }).then(() => (stopped = true));
    await until(() => said.length === 1);
    expect(said[0]).toMatch(/^still putting files in place .*waiting for it; press Ctrl\+C again to stop now/);
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    cut();
    await stopping;
    expect(said[1]).toMatch(/^quitting with a write still running/);
    endCommit();
    // Its commit ending, the wait ends by itself.
    const pending2 = new Set<Promise<unknown>>();
    const commits2 = new Set<Promise<unknown>>();
    const end2 = heldWrite(pending2, commits2);
    const said2: string[] = [];
    let stopped2 = false;
    const stopping2 = waitForWritesBeforeQuit(pending2, (m) => said2.push(m), 1, {
      inFlight: commits2,
      cutNow: () => new Promise(() => undefined),
      howToCut: 'press Ctrl+C again',
    }).then(() => (stopped2 = true));
    await until(() => said2.length === 1);
    await new Promise((r) => setImmediate(r));
    expect(stopped2).toBe(false);
    end2();
    await stopping2;
    expect(said2).toHaveLength(1);
  });

  // Maintainer's read, round 18: one Ctrl+C of `npm run web` reaches the server three times (the terminal's to the
  // process group, and the copies npm and scripts/web.mjs pass on). Mutation that fails: a signal while stopping cuts
  // whenever it comes (the server's stop as it was: the copies cut the commit's wait before it began).
  it("the web server's stop: copies of the Ctrl+C that began it do not cut the commit's wait; a Ctrl+C after the message does", async () => {
    const pending = new Set<Promise<unknown>>();
    const commits = new Set<Promise<unknown>>();
    const endCommit = heldWrite(pending, commits);
    const said: string[] = [];
    let stopped = false;
    let stops = 0;
    let stopping: Promise<unknown> | undefined;
    const signals = createStopSignals(() => {
      stops++;
      stopping = waitForWritesBeforeQuit(pending, (m) => said.push(m), 1, {
        inFlight: commits,
        cutNow: signals.cutNow,
        howToCut: 'press Ctrl+C again',
      }).then(() => (stopped = true));
    });
    // One Ctrl+C: three signals at once; stdin's close as well.
    signals.signal();
    signals.signal();
    signals.signal();
    signals.stop();
    expect(stops).toBe(1);
    await until(() => said.length === 1);
    expect(said[0]).toMatch(/press Ctrl\+C again to stop now/);
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    // stdin's end is no answer to it either.
    signals.stop();
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    signals.signal();
    await stopping;
    expect(stopped).toBe(true);
    expect(stops).toBe(1);
    endCommit();
  });
});

// Maintainer's read, round 16. Mutation that fails: a stop that fails not counted as ended (its rejection unhandled,
// the quit never asked again; a stop that throws as it is asked throwing out of will-quit).
describe('the workers stopped at the quit', () => {
  it('a stop that fails (a rejection, a throw) is said and counts as ended: the quit comes again', async () => {
    const said: string[] = [];
    let quits = 0;
    const stuck = vi.fn();
    const willQuit = createWorkersStop({
      stops: () => [
        { name: 'the compression workers', stop: () => Promise.reject(new Error('stand-in: refused')) },
        {
          name: 'the text checker',
          stop: () => {
            throw new Error('stand-in: thrown');
          },
        },
        { name: 'the build worker', stop: async () => undefined },
      ],
      quit: () => quits++,
      stuck,
      warn: (m) => said.push(m),
    });
    const first = { preventDefault: vi.fn() };
    expect(willQuit(first)).toBe(false);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(quits).toBe(1));
    expect(said).toEqual([
      'the compression workers did not stop cleanly: Error: stand-in: refused',
      'the text checker did not stop cleanly: Error: stand-in: thrown',
    ]);
    const again = { preventDefault: vi.fn() };
    expect(willQuit(again)).toBe(true);
    expect(again.preventDefault).not.toHaveBeenCalled();
    expect(stuck).not.toHaveBeenCalled();
  });

  // Maintainer's read, round 18 (the web server's stop uses it as it is). Mutations that fail: the bound not kept
  // (the wait settles only once all have stopped: never here); a stop that ended still named.
  it('stopWorkers settles at its bound with the names of those still stopping, none once all have', async () => {
    const held = stopWorkers(
      [
        { name: 'the compression workers', stop: async () => undefined },
        { name: 'the open and import threads', stop: () => new Promise(() => undefined) },
      ],
      () => undefined,
      1,
    );
    expect(await held).toEqual(['the open and import threads']);
    expect(
      await stopWorkers([{ name: 'the text checker', stop: async () => undefined }], () => undefined, 60_000),
    ).toEqual([]);
  });
});
