/**
 * A quit waits (bounded) for the writes still running: a copy of unsaved work or a save is not cut off by Cmd+Q.
 */
import { describe, expect, it, vi } from 'vitest';
import { createQuitGate } from './quitWaits';

/** A write that ends when the test says. */
function heldWrite(pending: Set<Promise<unknown>>): () => void {
  let end = (): void => undefined;
  const p = new Promise<void>((r) => (end = r));
  const entry: Promise<unknown> = p.then(() => pending.delete(entry));
  pending.add(entry);
  return end;
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true));

describe('quitting while writes run', () => {
  // Mutation that fails: the gate holding a quit with nothing running.
  it('nothing running: the quit goes ahead at once', () => {
    const quit = vi.fn();
    const gate = createQuitGate({ pending: new Set(), quit, warn: vi.fn() });
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
    const gate = createQuitGate({ pending, quit, warn, timeoutMs: 60_000 });
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
    const gate = createQuitGate({ pending, quit, warn, timeoutMs: 1 });
    expect(gate({ preventDefault: vi.fn() })).toBe(false);
    await until(() => quit.mock.calls.length === 1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^quitting with a write still running after .*file it was replacing is as it was$/),
    );
    expect(gate({ preventDefault: vi.fn() })).toBe(true);
  });
});
