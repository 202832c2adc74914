/**
 * `actguy build --watch` through the built CLI, as a user runs it (docs/cli.md#watch): the first build, a rebuild
 * after an input is saved (byte for byte what a one-shot build of the same inputs writes, from the same warm pool),
 * a broken project reported while the watch goes on and built again once fixed, and Ctrl+C ending it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { watchStopper } from './commands/build';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

const project = JSON.stringify({
  version: 1,
  motions: [
    { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' },
    { name: 'w60', mtn: 'walk_60fps.mtn', resample: true },
  ],
  seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
  outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
});

function copyProject(to: string): void {
  mkdirSync(to, { recursive: true });
  for (const f of ['walk.mtn', 'walk.sev', 'walk_60fps.mtn', 'default.sls', 'se_define.h'])
    copyFileSync(join(root, 'assets', f), join(to, f));
  writeFileSync(join(to, 'p.actguy.json'), project);
}

/** Moves the root of every frame of walk.mtn in `folder` (a save of the motion). */
function editWalk(folder: string): void {
  const m = readMtn(new Uint8Array(readFileSync(join(folder, 'walk.mtn'))));
  for (let f = 0; f < m.frameCount; f++) m.translation[f * 3] += 0.75;
  writeFileSync(join(folder, 'walk.mtn'), writeMtn(m));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-build-watch-'));
  copyProject(join(dir, 'watched'));
  copyProject(join(dir, 'once'));
});
/** Every watch started: a test that times out never reaches its `finally`, and its watch would run on. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The watching CLI's output, and waits for the next text that matches on stdout or on stderr. The two are separate
 * pipes: a line the CLI wrote to stderr before a stdout line can arrive here after it, so a test waits for each.
 */
function follow(child: ChildProcess) {
  const streams = { out: { text: '', seen: 0 }, err: { text: '', seen: 0 } };
  const waiters: { on: keyof typeof streams; re: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const s = streams[w.on];
      const m = w.re.exec(s.text.slice(s.seen));
      if (m) {
        s.seen += m.index + m[0].length;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.on('data', (d) => {
    streams.out.text += d;
    check();
  });
  child.stderr!.on('data', (d) => {
    streams.err.text += d;
    check();
  });
  const wait = (on: keyof typeof streams, re: RegExp) =>
    new Promise<void>((resolve) => {
      waiters.push({ on, re, resolve });
      check();
    });
  return {
    out: () => streams.out.text,
    err: () => streams.err.text,
    next: (re: RegExp) => wait('out', re),
    nextErr: (re: RegExp) => wait('err', re),
  };
}

describe('actguy build --watch', () => {
  it('builds, rebuilds what a saved input changed, reports a broken project and goes on, and stops on Ctrl+C', async () => {
    const watched = join(dir, 'watched');
    const env = { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state') };
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--jobs', '2'], {
      cwd: watched,
      env,
    });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const io = follow(child);
    try {
      await io.next(/^built 2 motions[^\n]*\n[^\n]*watching 6 files for changes \(Ctrl\+C stops\)\n/m);
      const firstMar = readFileSync(join(watched, 'out', 'p.mar'));

      // A save of walk.mtn: built again, and what a one-shot build of the same files writes.
      editWalk(watched);
      await io.next(/walk\.mtn changed: building again\n/);
      await io.next(/^built 2 motions[^\n]*1 unchanged since the last build\n[^\n]*watching 6 files/m);
      const once = join(dir, 'once');
      editWalk(once);
      const r = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--quiet', '--no-cache'], {
        cwd: once,
        env: { ...env, ACTGUY_STATE_DIR: join(dir, 'state-once') },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      const rebuilt = readFileSync(join(watched, 'out', 'p.mar'));
      expect(rebuilt.equals(firstMar)).toBe(false);
      expect(rebuilt.equals(readFileSync(join(once, 'out', 'p.mar')))).toBe(true);
      expect(readFileSync(join(watched, 'out', 'p.sar')).equals(readFileSync(join(once, 'out', 'p.sar')))).toBe(true);

      // A project saved broken: its error, nothing written, and the watch goes on.
      writeFileSync(join(watched, 'p.actguy.json'), project.replace('"walk.sev"', '"missing.sev"'));
      await io.next(/p\.actguy\.json changed: building again\n/);
      await io.next(/watching 6 files/);
      await io.nextErr(/missing\.sev[\s\S]*1 error; nothing was written/);
      expect(readFileSync(join(watched, 'out', 'p.mar')).equals(rebuilt)).toBe(true);

      // Fixed: built again (up to date: the outputs are those of the same inputs).
      writeFileSync(join(watched, 'p.actguy.json'), project);
      await io.next(/p\.actguy\.json changed: building again\n(up to date|built)[^\n]*\n[^\n]*watching 6 files/);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('ends with status 3 when its last build failed after an earlier one was written (docs/cli.md, exit status)', async () => {
    // Mutation: watchProject returning the last build's status as it is (1) fails this.
    const folder = join(dir, 'partial');
    copyProject(folder);
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--jobs', '2'], {
      cwd: folder,
      env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state-partial') },
    });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const io = follow(child);
    try {
      await io.next(/^built 2 motions[^\n]*\n[^\n]*watching 6 files/m);
      writeFileSync(join(folder, 'p.actguy.json'), project.replace('"walk.sev"', '"missing.sev"'));
      await io.next(/p\.actguy\.json changed: building again\n[^\n]*watching 6 files/);
      await io.nextErr(/1 error; nothing was written/);
      child.kill('SIGINT');
      expect(await exited).toBe(3);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('builds the saves made in its folder after the folder was removed and made again', async () => {
    const folder = join(dir, 'remade');
    copyProject(folder);
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--jobs', '2'], {
      cwd: folder,
      env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state-remade') },
    });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const io = follow(child);
    try {
      await io.next(/^built 2 motions[^\n]*\n[^\n]*watching 6 files/m);
      // The project unzipped again over itself: the folder the watch runs in is removed, then one of its path made.
      rmSync(folder, { recursive: true });
      await io.next(/changed: building again\n[^\n]*watching 6 files/);
      copyProject(folder);
      editWalk(folder);
      await io.next(/changed: building again\n(?:[^\n]*\n)*?built 2 motions/);
      expect(readFileSync(join(folder, 'out', 'p.mar')).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('tries again by itself a build that failed outside its inputs', async () => {
    const folder = join(dir, 'blocked');
    copyProject(folder);
    // Where the outputs' folder goes lies a file: no input is wrong, and removing it changes none.
    writeFileSync(join(folder, 'out'), 'not a folder');
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--jobs', '2'], {
      cwd: folder,
      env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state-blocked') },
    });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const io = follow(child);
    try {
      await io.next(/watching 6 files for changes \(Ctrl\+C stops\); trying the build again in 1 s\n/);
      await io.nextErr(/out is a file, not a folder\n1 error; nothing was written/);
      await io.next(/trying the build again \(retry 1\)\n[^\n]*trying the build again in 2 s\n/);
      // The same failure again is said in one line.
      await io.nextErr(/actguy build: failed again, as above/);
      expect(io.err().match(/out is a file/g)).toHaveLength(1);
      rmSync(join(folder, 'out'));
      await io.next(
        /trying the build again \(retry 2\)\n(?:[^\n]*\n)*?built 2 motions[^\n]*\n[^\n]*for changes \(Ctrl\+C stops\)\n/,
      );
      expect(readFileSync(join(folder, 'out', 'p.mar')).length).toBeGreaterThan(0);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('ends after the build in progress at the first signal, and at once at a second, with 128 + its number', () => {
    const run = (signals: NodeJS.Signals[], building: boolean) => {
      const controller = new AbortController();
      const said: string[] = [];
      let status: number | undefined;
      const stop = watchStopper(
        controller,
        () => building,
        (s) => {
          status = s;
          throw new Error('exited');
        },
        (line) => said.push(line),
      );
      for (const signal of signals) {
        try {
          stop(signal);
        } catch {
          break;
        }
      }
      return { aborted: controller.signal.aborted, status, said };
    };
    expect(run(['SIGINT'], true)).toEqual({
      aborted: true,
      status: undefined,
      said: ['stopping after the build in progress (Ctrl+C again stops it now)'],
    });
    expect(run(['SIGTERM'], false)).toEqual({ aborted: true, status: undefined, said: [] });
    expect(run(['SIGINT', 'SIGINT'], true).status).toBe(130);
    expect(run(['SIGTERM', 'SIGTERM'], true).status).toBe(143);
    expect(run(['SIGINT', 'SIGTERM'], true).status).toBe(143);
  });

  it('ends quietly, status 0, when its reader stops reading (`| head -1`), not with an EPIPE error', async () => {
    const folder = join(dir, 'piped');
    copyProject(folder);
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--quiet'], {
      cwd: folder,
      env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state-piped') },
    });
    children.push(child);
    // 'close', not 'exit': what it said last on stderr may still be in the pipe at 'exit', and this checks it said nothing.
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const io = follow(child);
    try {
      await io.next(/watching 6 files/);
      child.stdout!.destroy(); // the reader is gone
      editWalk(folder); // the next build's lines find no one to read them
      expect(await closed).toBe(0);
      expect(io.err()).not.toMatch(/EPIPE|Error:|at /);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
