// Vitest global setup: bundles the CLI (dist/cli) once, before any test file runs.
//
// The CLI tests run `node dist/cli/actguy.cjs` as a user would. Each file used to rebuild the bundle in its own
// beforeAll; with files running in parallel, one file's esbuild rewrote actguy.cjs while another file's CLI process
// was loading it. One build here, before the workers start, gives every file the same complete bundle.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default function setup(): void {
  const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'cli', '--quiet'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`CLI build failed (node scripts/build.mjs cli): ${b.stderr || b.error}`);
}
