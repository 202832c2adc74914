/**
 * `npm run web`'s stop (serve.ts), in the steps the app's quit takes: the server closed to new requests, the writes
 * still running waited for (a commit until it ends or the user cuts it), then every worker thread stopped within
 * WORKERS_STOP_MS, and the process killed past it (docs/architecture.md, "Maintainer's read, rounds 18 and 19").
 *
 * Every step runs whatever the one before it did: a step that throws or rejects is said and the next runs, so a
 * failure early in the stop no longer skips the bounded stop of the threads (a held thread then kept the process from
 * ending: `process.exit` joins every thread). A stop that met a failure ends with status 1.
 *
 * An error nothing caught (`uncaughtException`, `unhandledRejection`) stops the server the same way, with status 1,
 * after saying what it was: Node's default ended the process at once, cutting a build's or an export's files being
 * put in place, and after such an error the server's state is unknown (Node's own advice: do not resume). Stopping,
 * not going on, also keeps a bug visible to e2e, whose page then loses its server.
 */
import { createStopSignals, stopWorkers, WORKERS_STOP_MS, type WorkerStop } from '../quitWaits';

interface WebStopOptions {
  /** Closes the server to new requests (server.close). */
  closeServer(): Promise<unknown>;
  /**
   * Waits for the writes still running (waitForWritesBeforeQuit), the commits until they end or `cutNow` settles (a
   * signal once the stop has said how to cut: createStopSignals).
   */
  waitForWrites(cutNow: () => Promise<void>): Promise<unknown>;
  /** The worker threads to stop (appWorkerStops). */
  stops(): readonly WorkerStop[];
  /** Says a line on the terminal (`actguy web: ` before it). */
  say(message: string): void;
  /** Ends the process without joining its threads (SIGKILL to itself). */
  kill(): void;
  /** Ends the process with the status (process.exit). */
  exit(code: number): void;
  timeoutMs?: number;
}

interface WebStop {
  /** SIGINT, SIGTERM: the first stops; one once the stop said how to cut the commits' wait cuts it (createStopSignals). */
  signal(): void;
  /** stdin's end (--exit-with-stdin): the stop, once; never a cut. */
  stop(): void;
  /** An error nothing caught: said, and the stop begun (status 1); during the stop, said and the status made 1. */
  uncaught(kind: 'uncaughtException' | 'unhandledRejection', thrown: unknown): void;
  /** Settles when the stop's steps have run and the process was asked to end (for tests). */
  readonly ended: Promise<void>;
}

export function createWebStop(options: WebStopOptions): WebStop {
  const { say } = options;
  let failed = false;
  let settle = (): void => undefined;
  const ended = new Promise<void>((ok) => (settle = ok));
  /** Runs one step; a throw or a rejection is said, and counts as the step's end. */
  const step = async (what: string, run: () => Promise<unknown>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      failed = true;
      say(`${what} failed (${errorText(e)}): stopping all the same`);
    }
  };
  const run = async (): Promise<void> => {
    await step('closing the server', options.closeServer);
    await step('waiting for the writes', () => options.waitForWrites(signals.cutNow));
    let stops: readonly WorkerStop[] = [];
    try {
      stops = options.stops();
    } catch (e) {
      failed = true;
      say(`listing the threads to stop failed (${errorText(e)}): ending the process`);
      options.kill();
      return;
    }
    const stuck = await stopWorkers(stops, say, options.timeoutMs ?? WORKERS_STOP_MS);
    if (stuck.length > 0) {
      say(
        `${stuck.join(', ')} did not stop within ${(options.timeoutMs ?? WORKERS_STOP_MS) / 1000} s of the stop: ` +
          'ending the process',
      );
      options.kill();
      return;
    }
    options.exit(failed ? 1 : 0);
  };
  let stopping = false;
  let saidWhileStopping = false;
  const signals = createStopSignals(() => {
    stopping = true;
    // run() catches each step; only kill or exit themselves throwing could reach here.
    void run()
      .catch((e: unknown) => {
        say(`stopping failed (${errorText(e)}): ending the process`);
        options.kill();
      })
      .finally(settle);
  });
  return {
    signal: signals.signal,
    stop: signals.stop,
    uncaught: (kind, thrown) => {
      failed = true;
      const what =
        kind === 'unhandledRejection' ? 'a promise rejected with nothing to catch it' : 'an error nothing caught';
      const detail = thrown instanceof Error ? (thrown.stack ?? thrown.message) : errorText(thrown);
      if (stopping) {
        // Said once: a write to a terminal that has gone (a closed terminal's SIGHUP) can fail with an error of its
        // own, which saying it would raise again, for as long as the stop waits for a commit.
        if (!saidWhileStopping) say(`${what} while stopping (any more are not said): ${detail}`);
        saidWhileStopping = true;
        return;
      }
      say(`${what} (a bug in ActGuy; please report it with what follows): ${detail}`);
      say(
        'stopping, as its state may now be wrong: the writes still running are waited for, then the threads; ' +
          'start it again with npm run web',
      );
      signals.stop();
    },
    ended,
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
