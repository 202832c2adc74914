/**
 * `npm run web`'s stop, step by step (webStop.ts; docs/architecture.md, "Maintainer's read, round 19"): a step that
 * throws no longer skips the ones after it, and an error nothing caught stops the server as a Ctrl+C does. The server
 * as it runs, its threads held for real, is serveStop.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createWebStop } from './webStop';

/** A stop's ends, noted in the order they were asked. */
function ends() {
  const log: string[] = [];
  return {
    log,
    say: (m: string) => void log.push(`said: ${m}`),
    kill: () => void log.push('kill'),
    exit: (code: number) => void log.push(`exit ${code}`),
  };
}

describe("npm run web's stop", () => {
  // Mutation that fails: the stop's steps awaited in a row with no catch of their own (as serve.ts had it: a throw in
  // server.close went to process.exit(1), past the threads' stop).
  it('a step that throws is said and the next steps run: the writes, then the threads; status 1', async () => {
    const e = ends();
    const stopped: string[] = [];
    const stop = createWebStop({
      ...e,
      closeServer: () => {
        throw new Error('stand-in: the server would not close');
      },
      waitForWrites: async () => {
        e.log.push('writes waited for');
        throw new Error('stand-in: the wait failed');
      },
      stops: () => [{ name: 'the open and import threads', stop: async () => void stopped.push('open') }],
      timeoutMs: 60_000,
    });
    stop.stop();
    await stop.ended;
    expect(stopped).toEqual(['open']);
    expect(e.log).toEqual([
      'said: closing the server failed (stand-in: the server would not close): stopping all the same',
      'writes waited for',
      'said: waiting for the writes failed (stand-in: the wait failed): stopping all the same',
      'exit 1',
    ]);
  });

  // Mutation that fails: the kill past the bound left out (the process would then join the held thread).
  it('after a step that throws, a thread still running at the bound is named and the process killed', async () => {
    const e = ends();
    const stop = createWebStop({
      ...e,
      closeServer: async () => {
        throw new Error('stand-in');
      },
      waitForWrites: async () => undefined,
      stops: () => [{ name: 'the text checker', stop: () => new Promise(() => undefined) }],
      timeoutMs: 1,
    });
    stop.stop();
    await stop.ended;
    expect(e.log.slice(1)).toEqual([
      'said: the text checker did not stop within 0.001 s of the stop: ending the process',
      'kill',
    ]);
  });

  // Mutations that fail: `uncaught` saying the error and not stopping (the server going on); every error while
  // stopping said (the EIO of a gone terminal's stderr would raise another for each).
  it('an error nothing caught is said with its stack and stops the server, status 1; another while stopping is said', async () => {
    const e = ends();
    let endWrites: (() => void) | undefined;
    const stop = createWebStop({
      ...e,
      closeServer: async () => undefined,
      waitForWrites: () => new Promise<void>((ok) => (endWrites = ok)),
      stops: () => [],
      timeoutMs: 60_000,
    });
    const thrown = new Error('stand-in: a listener failed');
    stop.uncaught('uncaughtException', thrown);
    await vi.waitFor(() => expect(endWrites).toBeDefined());
    expect(e.log[0]).toContain(
      `an error nothing caught (a bug in ActGuy; please report it with what follows): ${thrown.stack}`,
    );
    expect(e.log[1]).toBe(
      'said: stopping, as its state may now be wrong: the writes still running are waited for, then the threads; start it again with npm run web',
    );
    stop.uncaught('unhandledRejection', 'stand-in: a reason');
    stop.uncaught('uncaughtException', new Error('stand-in: write EIO'));
    stop.stop();
    stop.signal();
    endWrites!();
    await stop.ended;
    expect(e.log.slice(2)).toEqual([
      'said: a promise rejected with nothing to catch it while stopping (any more are not said): stand-in: a reason',
      'exit 1',
    ]);
  });

  // Mutation that fails: the status 1 of a failure kept for every stop.
  it('a stop with nothing failing ends with status 0', async () => {
    const e = ends();
    const stop = createWebStop({
      ...e,
      closeServer: async () => undefined,
      waitForWrites: async () => undefined,
      stops: () => [{ name: 'the compression workers', stop: async () => undefined }],
    });
    stop.signal();
    await stop.ended;
    expect(e.log).toEqual(['exit 0']);
  });
});
