/**
 * A held thread counts as reached only once it waits in the FIFO's open, not when its note is written a statement
 * before (maintainer's read, round 19): a terminate landing between the two ended the thread, and a test meant to
 * see a held thread saw none.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { heldThread } from './heldThread';

const dir = mkdtempSync(join(tmpdir(), 'actguy-held-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the kernel names this process's threads' waits (a container may show every one as `0`). */
function waitsNamed(): boolean {
  return readdirSync(`/proc/${process.pid}/task`).some(
    (tid) => !['', '0'].includes(readFileSync(`/proc/${process.pid}/task/${tid}/wchan`, 'utf8').trim()),
  );
}

describe('a held thread', () => {
  // Mutation that fails: `reached` as the note alone (true before any thread waits in the open).
  it.runIf(process.platform === 'linux')('is reached once a thread waits in the open, not at its note', async () => {
    const held = heldThread(dir, 'one');
    // The note written with no thread in the open: where the kernel names the waits, not reached.
    writeFileSync(join(dir, 'one.reached'), '');
    expect(held.reached()).toBe(!waitsNamed());
    const worker = new Worker(held.hold, { eval: true });
    try {
      await vi.waitFor(() => expect(held.reached()).toBe(true), { timeout: 25_000 });
    } finally {
      held.release();
      await worker.terminate();
    }
  });
});
