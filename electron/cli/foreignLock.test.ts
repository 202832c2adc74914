/**
 * A received folder holding another machine's lock beside its outputs (docs/security.md, round 34): `actguy build`
 * refuses it while it is younger than an hour, naming its holder, age, lapse and the file to delete, and takes it
 * over with a note once it is older (it blocked for a day after the folder was unpacked).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function received(lockText: string): { dir: string; lock: string } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-foreign-lock-'));
  dirs.push(dir);
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    }),
  );
  mkdirSync(join(dir, 'out'));
  const lock = join(dir, 'out', 's.mar.actguy-lock');
  writeFileSync(lock, lockText);
  return { dir, lock };
}

const build = (dir: string) =>
  spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--no-cache', '--jobs', '1'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state') },
  });

describe("actguy build and another machine's lock", () => {
  it('a fresh one refuses, saying whose it is, how old, when it lapses and what to delete', () => {
    const text = `buildbox-7 4242 ${Date.now()}`;
    const { dir, lock } = received(text);
    const r = build(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `the lock ${lock} was taken by process 4242 on the machine buildbox-7 less than a minute ago \\(at \\S+\\); ` +
          `whether that run still runs cannot be asked from this machine: the lock lapses at \\S+, an hour after it was taken; ` +
          `try again when it has finished; if no ActGuy run is writing these outputs, delete ${lock} and try again`,
      ),
    );
    expect(readFileSync(lock, 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'out', 's.mar'))).toBe(false);
  });

  it('one taken two hours ago is taken over, with a note, and the build writes its outputs', () => {
    // Mutation killed: FOREIGN_LOCK_MS back to STALE_MS (a day): the build was refused.
    const { dir, lock } = received(`buildbox-7 4242 ${Date.now() - 2 * 3600 * 1000}`);
    const r = build(dir);
    expect(r.stderr).toMatch(
      new RegExp(
        `note: took over the lock ${lock}, taken by process 4242 on the machine buildbox-7 2 h ago \\(at \\S+\\): no commit holds its lock that long, so that run has ended`,
      ),
    );
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'out', 's.mar'))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });
});
