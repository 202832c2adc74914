/**
 * Many saves of one file asked while one is written (Ctrl+S held, or Save again and again during a large save's
 * flush): each sent the whole file, and inTurn (writeTurns.ts) held every one until its turn, memory without bound. Now a
 * later write of exactly the same files takes the place of the one waiting (docs/security.md, round 36): at most one
 * runs and one waits, every caller is answered with the outcome of the write that took its place, and the last bytes
 * asked for are what ends on disk. The first write is held at its open by the asyncWriteIo seam, never by timing.
 *
 * Mutation that fails: inTurn's `coalesce` ignored (51 and 26 writes are made, not 2).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitOutputsAsync } from './build/commit';
import { asyncWriteIo, writeFileAtomicAsync } from './fsutil';
import { holdFirstAsyncOpen } from './testing/holdAsyncOpen';

const realAsyncIo = { ...asyncWriteIo };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-save-queue-'));
});
afterEach(() => {
  Object.assign(asyncWriteIo, realAsyncIo);
  rmSync(dir, { recursive: true, force: true });
});

describe('many saves of one file asked while one is written', () => {
  it('a plain save: one runs, one waits, the last bytes land, every save says written', async () => {
    const path = join(dir, 'walk.sev');
    writeFileSync(path, 'sev 1\n');
    const hold = holdFirstAsyncOpen();
    const saves = [writeFileAtomicAsync(path, 'sev 1\n# 0\n')];
    await hold.reached;
    for (let k = 1; k <= 50; k++) saves.push(writeFileAtomicAsync(path, `sev 1\n# ${k}\n`));
    hold.release();
    expect(await Promise.all(saves)).toEqual(saves.map(() => true));
    expect(readFileSync(path, 'utf8')).toBe('sev 1\n# 50\n');
    expect(hold.opens.length).toBe(2);
    expect(readdirSync(dir)).toEqual(['walk.sev']);
  });

  it('a save of a motion with its tuning file (a commit of the pair): the same', async () => {
    const mtn = join(dir, 'walk.mtn');
    const tuning = join(dir, 'walk.mtn.actguy-tuning.json');
    const pair = (k: number) => [
      { path: mtn, bytes: new TextEncoder().encode(`motion ${k}`) },
      { path: tuning, bytes: new TextEncoder().encode(`{"k":${k}}`) },
    ];
    const hold = holdFirstAsyncOpen();
    const saves = [commitOutputsAsync(pair(0))];
    await hold.reached;
    for (let k = 1; k <= 25; k++) saves.push(commitOutputsAsync(pair(k)));
    // Another set of files (the motion alone) is not merged with the pair: it goes in its turn, after them.
    const alone = writeFileAtomicAsync(mtn, 'motion alone');
    hold.release();
    await Promise.all(saves);
    expect(readFileSync(tuning, 'utf8')).toBe('{"k":25}');
    expect(await alone).toBe(true);
    expect(readFileSync(mtn, 'utf8')).toBe('motion alone');
    // Two commits of two files each, then the motion alone.
    expect(hold.opens.length).toBe(5);
  });
});
