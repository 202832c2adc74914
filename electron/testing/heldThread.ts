/**
 * A worker thread held in native code, as one reading a network folder that stopped answering would be (maintainer's
 * reads, rounds 16 and 17): it opens a FIFO nobody writes to, and `terminate()` cannot end it until the open returns.
 * The test opens the FIFO's other end (`release`) when it has seen what it waits for; the thread then ends.
 * Not on Windows (no FIFO): the tests that use it skip there.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface HeldThread {
  /**
   * Statements for a worker's code: note that the thread is about to open the FIFO (a file, `reached`), then open it.
   * Put where the worker should be held (at its start, or after an answer).
   */
  hold: string;
  /** Whether the thread has reached the open (it wrote its note). */
  reached(): boolean;
  /** Opens the FIFO for writing: the held open returns. */
  release(): void;
  /**
   * As `release`, without waiting for a reader: for a thread that may have gone with its process (a killed server),
   * where `release` would wait for good.
   */
  releaseIfHeld(): void;
}

/** A FIFO named `name` in `dir` and the statements that hold a worker in its open. */
export function heldThread(dir: string, name: string): HeldThread {
  const fifo = join(dir, `${name}.fifo`);
  const note = join(dir, `${name}.reached`);
  execFileSync('mkfifo', [fifo]);
  return {
    hold:
      `require('node:fs').writeFileSync(${JSON.stringify(note)}, ''); ` +
      `require('node:fs').openSync(${JSON.stringify(fifo)}, 'r');`,
    reached: () => existsSync(note),
    release: () => closeSync(openSync(fifo, 'w')),
    releaseIfHeld: () => {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch (e) {
        // No reader (ENXIO): nothing is held.
        if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
      }
    },
  };
}

/** A worker file in `dir` whose code is `body` (`parentPort` and `workerData` declared). */
export function workerFile(dir: string, name: string, body: string): string {
  const path = join(dir, `${name}.cjs`);
  writeFileSync(path, `const { parentPort, workerData } = require('node:worker_threads');\n${body}\n`);
  return path;
}
