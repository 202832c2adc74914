/**
 * How the CLI ends once its command is done (actguy.ts). Node exits by itself when the event loop empties, once stdout
 * and stderr are flushed; process.exit is only the fallback for a handle a command left open, EXIT_FALLBACK_MS after
 * that. The fallback is armed once both streams have taken everything written to them, never before: a pipe is written
 * asynchronously, and a reader that is slower than the fallback (`actguy info big.mar | (sleep 3; wc -c)`, a test
 * process starved on a loaded machine) had the listing cut at the pipe's 64 KiB with exit code 0 (docs/testing.md,
 * "Tests under load, round 3"). A reader that never reads keeps the CLI waiting, as it keeps any other tool.
 */

/** How long the CLI waits, once its command is done and its output flushed, for Node to exit by itself before it calls process.exit. */
export const EXIT_FALLBACK_MS = 1000;

/** The part of a write stream the flush needs: its callback comes once everything written before it was handled. */
export interface FlushedStream {
  write(chunk: string, callback: (error?: Error | null) => void): unknown;
}

interface ExitOnceFlushedOptions {
  streams: readonly FlushedStream[];
  exit: (code: number) => void;
  /** Arms the fallback; the timer must not keep the process alive by itself (Node's `.unref()`). */
  arm: (fallback: () => void, ms: number) => void;
}

/** Arms the fallback exit with `code` once every stream has flushed what the command wrote to it. */
export function exitOnceFlushed(code: number, { streams, exit, arm }: ExitOnceFlushedOptions): Promise<void> {
  // An empty write's callback follows every write before it (a stream handles its writes in order); an error (the
  // reader went: EPIPE, handled in actguy.ts) counts as flushed, there is nothing more to wait for.
  const flushed = streams.map((s) => new Promise<void>((done) => s.write('', () => done())));
  return Promise.all(flushed).then(() => arm(() => exit(code), EXIT_FALLBACK_MS));
}
