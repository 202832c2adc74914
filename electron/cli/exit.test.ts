/**
 * The CLI exits by itself once its command is done (electron/cli/actguy.ts): the event loop empties and Node tears
 * the isolate down in order. process.exit there could hang forever (once in about 300 runs: a V8 background compile
 * job waiting for a garbage collection the exiting thread never ran; docs/testing.md), so it is only a fallback for
 * a handle a command left open. `--trace-exit` makes Node print a stack whenever process.exit ends the process: no
 * command, whatever its outcome and however many worker threads it used, may need it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-exit-'));
  cpSync(join(root, 'assets'), dir, { recursive: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { rc: number | null; err: string } {
  const r = spawnSync(process.execPath, ['--trace-exit', cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { rc: r.status, err: r.stderr };
}

describe('the CLI ends without process.exit', () => {
  it.each([
    ['compress', ['compress', 'walk.mtn', '-o', 'walk.mt3', '--quiet'], 0],
    ['build with two worker threads', ['build', 'sample.actguy.json', '--jobs', '2', '--no-cache', '--quiet'], 0],
    [
      'export-msh with two worker threads',
      ['export-msh', 'cmu_01_01.mtn', '-o', 'msh/cmu', '--jobs', '2', '--quiet'],
      0,
    ],
    ['info', ['info', 'walk.mtn'], 0],
    ['a command that fails', ['compress', 'nothing.mtn', '-o', 'x.mt3'], 1],
    ['a usage error', ['compress', 'walk.mtn'], 2],
  ])(
    '%s',
    (_name, args, rc) => {
      const r = run(...args);
      expect(r.rc, r.err).toBe(rc);
      expect(r.err).not.toMatch(/Exited the environment with code/);
    },
    90_000,
  );

  it('--trace-exit does tell a process.exit (the check above can fail)', () => {
    writeFileSync(join(dir, 'exits.cjs'), 'process.exit(3);\n');
    const r = spawnSync(process.execPath, ['--trace-exit', join(dir, 'exits.cjs')], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/Exited the environment with code 3/);
  });
});
