/**
 * The CLI's fallback exit is armed only once stdout and stderr have taken everything (exitOnceFlushed.ts): on a clock
 * the test drives, a stream that has not flushed keeps it unarmed however long that takes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT_FALLBACK_MS, exitOnceFlushed, type FlushedStream } from './exitOnceFlushed';

/** A stream whose writes are handled when the test says (a pipe whose reader has not read yet). */
function heldStream() {
  const held: ((error?: Error | null) => void)[] = [];
  const stream: FlushedStream = { write: (_chunk, callback) => held.push(callback) };
  return { stream, flush: (error?: Error) => held.splice(0).forEach((cb) => cb(error)) };
}

/** A stream that has nothing left to write (a file, a terminal, a reader that kept up). */
const flushedStream: FlushedStream = { write: (_chunk, callback) => setImmediate(() => callback()) };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('exitOnceFlushed', () => {
  it('arms the fallback only once the slow stream has flushed, then exits with the code after EXIT_FALLBACK_MS', async () => {
    const stdout = heldStream();
    const exit = vi.fn();
    const arm = vi.fn((fallback: () => void, ms: number) => setTimeout(fallback, ms));
    const done = exitOnceFlushed(3, { streams: [stdout.stream, flushedStream], exit, arm });
    // The reader does not read for a minute: nothing is armed, nothing exits.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(arm).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
    stdout.flush();
    await done;
    expect(arm).toHaveBeenCalledWith(expect.any(Function), EXIT_FALLBACK_MS);
    await vi.advanceTimersByTimeAsync(EXIT_FALLBACK_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(3);
  });

  it('waits for every stream (stderr held, stdout flushed), and a write that failed counts as flushed', async () => {
    const stderr = heldStream();
    const arm = vi.fn();
    const done = exitOnceFlushed(0, { streams: [flushedStream, stderr.stream], exit: vi.fn(), arm });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(arm).not.toHaveBeenCalled();
    stderr.flush(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await done;
    expect(arm).toHaveBeenCalledTimes(1);
  });
});
