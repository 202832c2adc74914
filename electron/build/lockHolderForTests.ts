/**
 * A second ActGuy process for the lock tests (commit.test.ts): it commits
 * `<dir>/out/stage.mar` and `stage.sar` with the real commitOutputs, and at
 * its first step (holding the lock) writes `<dir>/ready` and waits until
 * `<dir>/go` exists. Run as `node lockHolderForTests.cjs <dir>` once bundled.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitOutputs } from './commit';

const dir = process.argv[2];
const pause = new Int32Array(new SharedArrayBuffer(4));
const te = new TextEncoder();
commitOutputs(
  [
    { path: join(dir, 'out', 'stage.mar'), bytes: te.encode('mar other') },
    { path: join(dir, 'out', 'stage.sar'), bytes: te.encode('sar other') },
  ],
  {
    onStep: (n) => {
      if (n !== 1) return;
      writeFileSync(join(dir, 'ready'), String(process.pid));
      while (!existsSync(join(dir, 'go'))) Atomics.wait(pause, 0, 0, 20);
    },
  },
);
