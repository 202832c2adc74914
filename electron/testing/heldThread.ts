/**
 * A worker thread held in native code, as one reading a network folder that stopped answering would be (maintainer's
 * reads, rounds 16 and 17): it opens a FIFO nobody writes to, and `terminate()` cannot end it until the open returns.
 * The test opens the FIFO's other end (`release`) when it has seen what it waits for; the thread then ends.
 * Not on Windows (no FIFO): the tests that use it skip there.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface HeldThread {
  /**
   * Statements for a worker's code: note that the thread is about to open the FIFO (a file, `reached`), then open it.
   * Put where the worker should be held (at its start, or after an answer).
   */
  hold: string;
  /**
   * Whether the thread waits in the open: it wrote its note and, on Linux, as many threads of its process wait in a
   * FIFO's open as there are held threads of that process with a note (threadsInFifoOpen).
   */
  reached(): boolean;
  /** Opens the FIFO for writing: the held open returns. */
  release(): void;
  /**
   * As `release`, without waiting for a reader: for a thread that may have gone with its process (a killed server),
   * where `release` would wait for good.
   */
  releaseIfHeld(): void;
}

/** Every held thread of this test process's tests: a thread is counted in its process while noted and not let go. */
const heldThreads: { pid: () => number | undefined; noted: () => boolean; letGo: boolean }[] = [];

/**
 * A FIFO named `name` in `dir` and the statements that hold a worker in its open. `pid`: the process whose thread it
 * holds, once known (a server's child); this test process unless given.
 */
export function heldThread(dir: string, name: string, pid: () => number | undefined = () => process.pid): HeldThread {
  const fifo = join(dir, `${name}.fifo`);
  const note = join(dir, `${name}.reached`);
  execFileSync('mkfifo', [fifo]);
  const held = { pid, noted: () => existsSync(note), letGo: false };
  heldThreads.push(held);
  return {
    hold:
      `require('node:fs').writeFileSync(${JSON.stringify(note)}, ''); ` +
      `require('node:fs').openSync(${JSON.stringify(fifo)}, 'r');`,
    reached: () => {
      const of = pid();
      if (of === undefined || !held.noted()) return false;
      const noted = heldThreads.filter((h) => !h.letGo && h.pid() === of && h.noted()).length;
      return threadsInFifoOpen(of, noted);
    },
    release: () => {
      held.letGo = true;
      closeSync(openSync(fifo, 'w'));
    },
    releaseIfHeld: () => {
      held.letGo = true;
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

/**
 * Whether at least `count` threads of process `pid` wait in a FIFO's open, on Linux: a thread's
 * `/proc/<pid>/task/<tid>/wchan` names the kernel's wait, `wait_for_partner` (in `fifo_open`). A held thread writes its
 * note a statement before that open, so a note alone can be seen while the thread has not reached the open, and a
 * terminate landing then ends it (maintainer's reads, rounds 16 to 19). True where this cannot be read (not Linux, or
 * every wchan hidden as `0`): the note is then all there is.
 */
function threadsInFifoOpen(pid: number, count: number): boolean {
  if (process.platform !== 'linux') return true;
  let waits: string[];
  try {
    waits = readdirSync(`/proc/${pid}/task`).map((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').trim();
      } catch {
        return '';
      }
    });
  } catch {
    return true;
  }
  if (waits.every((w) => w === '' || w === '0')) return true;
  return waits.filter((w) => w === 'wait_for_partner' || w === 'fifo_open').length >= count;
}
