/**
 * `actguy build --jobs N` and `actguy export-msh --jobs N` through the built CLI (docs/cli.md, docs/compression.md
 * "Jobs: the calling thread as one of them"): build starts N worker threads, export-msh N-1 (the CLI's own thread is
 * its N-th job), and the files are the bytes of `--jobs 1` whatever N (build: short motions whole, a long one in
 * channel shares, a resampled one; export-msh: a long motion's nodes in shares).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-build-jobs-'));
  for (const f of ['walk.mtn', 'walk_60fps.mtn', 'cmu_01_01.mtn']) copyFileSync(join(root, 'assets', f), join(dir, f));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'cmu', mtn: 'cmu_01_01.mtn' },
        { name: 'walk', mtn: 'walk.mtn' },
        { name: 'walk_2', mtn: 'walk.mtn', tolerances: { rotationDeg: 2 } },
        { name: 'w60', mtn: 'walk_60fps.mtn', resample: true },
        { name: 'walk_tight', mtn: 'walk.mtn', tolerances: { rotationDeg: 0.25 } },
      ],
      outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
    }),
  );
  // Preloaded into the CLI: counts the worker threads it starts (the bundle reads Worker off the module at each use).
  writeFileSync(
    join(dir, 'countWorkers.cjs'),
    `const wt = require('node:worker_threads');
const Base = wt.Worker;
let started = 0;
wt.Worker = class extends Base { constructor(...a) { super(...a); started++; } };
process.on('exit', () => require('node:fs').writeSync(2, 'workers started: ' + started + '\\n'));
`,
  );
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with `args` and the worker count preloaded; the number of worker threads it started. */
function workersOf(args: string[]): number {
  const r = spawnSync(process.execPath, ['--require', join(dir, 'countWorkers.cjs'), cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`actguy ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const started = /workers started: (\d+)/.exec(r.stderr);
  if (!started) throw new Error(`no worker count in: ${r.stderr}`);
  return Number(started[1]);
}

/** Builds with `--jobs N` (no cache); the three outputs and the number of worker threads the CLI started. */
function build(jobs: number): { files: Buffer[]; workers: number } {
  const workers = workersOf(['build', 'p.actguy.json', '--no-cache', '--quiet', '--jobs', String(jobs)]);
  return { files: ['p.mar', 'p.sar', 'p.report.json'].map((f) => readFileSync(join(dir, 'out', f))), workers };
}

describe('actguy build --jobs', () => {
  it('starts N worker threads (the pure pool: see docs/compression.md) and writes the bytes of --jobs 1', () => {
    const one = build(1);
    expect(one.workers).toBe(0);
    for (const jobs of [2, 3]) {
      const many = build(jobs);
      expect(many.workers, `--jobs ${jobs}`).toBe(jobs);
      many.files.forEach((f, k) => expect(f.equals(one.files[k]), `--jobs ${jobs}, file ${k}`).toBe(true));
    }
  }, 120000);
});

describe('actguy export-msh --jobs', () => {
  it("fits a long motion's nodes on this thread and N-1 workers, writing the files of --jobs 1", () => {
    const exported = (jobs: number) => {
      const workers = workersOf(
        ['export-msh', 'cmu_01_01.mtn', '-o', `msh${jobs}/cmu`, '--rot-tol', '2', '--pos-tol', '2', '--quiet'].concat([
          '--jobs',
          String(jobs),
        ]),
      );
      return {
        workers,
        files: ['res8', 'res19', 'nodes.json'].map((e) => readFileSync(join(dir, `msh${jobs}`, `cmu.${e}`))),
      };
    };
    const one = exported(1);
    expect(one.workers).toBe(0);
    const two = exported(2);
    expect(two.workers).toBe(1);
    two.files.forEach((f, k) => expect(f.equals(one.files[k]), `file ${k}`).toBe(true));
  }, 120000);
});
