/**
 * A lock another live run holds beside the outputs fails a build before its work (commitLock.ts lockRefusedBeforeBuild),
 * as a failure outside the inputs: `build --watch` retries it with its waits, and each retry under `--no-cache`
 * compressed every motion again before meeting the lock at the commit (docs/security.md, round 24). The commit's own
 * lock (commit.test.ts) is still what keeps two runs apart.
 * Mutation that fails these tests: build.ts without `if (lock) throw lock`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { host, processStart } from '../tempFiles';
import { writeBuiltWalkProject } from '../testing/builtProject';
import { buildProject } from './build';
import { inProcessCompressor, type MotionCompressor } from './compressPool';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;
let template: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-lock-before-'));
  template = join(dir, 'template');
  mkdirSync(template);
  writeBuiltWalkProject(template);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function project(): string {
  const proj = join(dir, `proj${++copies}`);
  cpSync(template, proj, { recursive: true });
  return proj;
}

/**
 * A lock naming the live process `pid` with its start, as a holder's lock does. A build in this process is refused
 * by its parent's (the test runner's) lock: a lock naming this process that it does not hold is one it left earlier.
 */
function holdLock(proj: string, pid: number): { path: string; text: string } {
  const path = join(proj, 'out', 'stage.mar.actguy-lock');
  const text = `${host()} ${pid} ${Date.now()} ${processStart(pid)}`;
  writeFileSync(path, text);
  return { path, text };
}

function countingCompressor(): { compressor: MotionCompressor; count: () => number } {
  let compressed = 0;
  const real = inProcessCompressor();
  return {
    count: () => compressed,
    compressor: {
      jobs: 1,
      compress: (...a) => {
        compressed++;
        return real.compress(...a);
      },
      verifyOrCompress: (...a) => {
        compressed++;
        return real.verifyOrCompress(...a);
      },
      close: () => real.close(),
    },
  };
}

describe('a lock another live run holds, before the build', () => {
  it.each([
    ['--no-cache', null],
    ['a cache', 'cache'],
  ] as const)(
    'with %s: refused naming the holder, no motion compressed, the lock and outputs left',
    async (_, cache) => {
      const proj = project();
      const lock = holdLock(proj, process.ppid);
      const mar = readFileSync(join(proj, 'out', 'stage.mar'));
      const { compressor, count } = countingCompressor();
      await expect(
        buildProject(join(proj, 'p.actguy.json'), {
          compressor,
          cacheDir: cache === null ? null : join(proj, cache),
          stateDir: join(proj, 'state'),
        }),
      ).rejects.toThrow(`was taken by process ${process.ppid} on this machine `);
      expect(count()).toBe(0);
      expect(readFileSync(lock.path, 'utf8')).toBe(lock.text);
      expect(readFileSync(join(proj, 'out', 'stage.mar'))).toEqual(mar);
    },
  );

  // Round 26, held. A stranger's lock that is a FIFO (a read would wait for a writer), a 3 GB sparse file or a folder
  // fails the build at once, before any motion is compressed, naming it. Mutation that fails: lockRefusedBeforeBuild
  // passing a lock it cannot read as a lock (the commit then refuses it, after the compression).
  it('a lock that is a FIFO, a 3 GB sparse file or a folder fails the build at once, before its work', async () => {
    const proj = project();
    const lock = join(proj, 'out', 'stage.mar.actguy-lock');
    for (const [plant, why] of [
      [() => expect(spawnSync('mkfifo', [lock]).status).toBe(0), 'it is not a plain file'],
      [() => (writeFileSync(lock, ''), truncateSync(lock, 3 * 2 ** 30)), 'it is 3221225472 bytes, more than the 512'],
      [() => mkdirSync(lock), 'it is a folder'],
    ] as const) {
      plant();
      const { compressor, count } = countingCompressor();
      await expect(
        buildProject(join(proj, 'p.actguy.json'), { compressor, cacheDir: null, stateDir: join(proj, 'state') }),
      ).rejects.toThrow(`${lock} is not an ActGuy lock (${why}`);
      expect(count()).toBe(0);
      rmSync(lock, { recursive: true });
    }
  });

  it('a lock whose holder is gone is no refusal: the commit takes it over and the build writes', async () => {
    const proj = project();
    const lock = join(proj, 'out', 'stage.mar.actguy-lock');
    writeFileSync(lock, `${host()} 999999999 ${Date.now()}`);
    const { compressor, count } = countingCompressor();
    const outcome = await buildProject(join(proj, 'p.actguy.json'), {
      compressor,
      cacheDir: null,
      stateDir: join(proj, 'state'),
    });
    expect(outcome.ok).toBe(true);
    expect(count()).toBe(1);
  });

  it('`build --watch --no-cache` retries it with its waits without compressing, and builds once it is released', async () => {
    const proj = project();
    // The CLI is another process: this test process is the live holder.
    const lock = holdLock(proj, process.pid);
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--no-cache', '--jobs', '1'], {
      cwd: proj,
      env: { ...process.env, ACTGUY_STATE_DIR: join(proj, 'state') },
    });
    let out = '';
    let err = '';
    // Standard output and error are two pipes: what the CLI wrote to one before the other may arrive after it, so
    // each wait names the stream it reads.
    const waiters: { re: RegExp; on: 'out' | 'err'; resolve: () => void }[] = [];
    const check = () => {
      for (const w of [...waiters])
        if (w.re.test(w.on === 'out' ? out : err)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    };
    child.stdout.on('data', (d) => {
      out += d;
      check();
    });
    child.stderr.on('data', (d) => {
      err += d;
      check();
    });
    const seen = (re: RegExp, on: 'out' | 'err' = 'out') =>
      new Promise<void>((resolve) => {
        waiters.push({ resolve, re, on });
        check();
      });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await seen(/trying the build again \(retry 1\)\n(?:[^\n]*\n)*?[^\n]*trying the build again in 2 s\n/);
      await seen(/actguy build: failed again, as above/, 'err');
      expect(err).toContain(`was taken by process ${process.pid} on this machine `);
      expect(err).toContain('actguy build: failed again, as above');
      // Not-a-TTY progress prints a line per motion compressed: none was.
      expect(out).not.toMatch(/\[1\/1\] walk:/);
      expect(readFileSync(lock.path, 'utf8')).toBe(lock.text);
      rmSync(lock.path);
      await seen(/built 1 motion[^\n]*\n/);
      expect(out).toMatch(/\[1\/1\] walk: \d+ keys/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
