import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { host, ownTempName, processStart, STALE_MS, sweepStaleTemps } from '../tempFiles';
import { commitOutputs, commitStepCount, recoverOutputs, type CommitFs } from './commit';
import { FOREIGN_LOCK_MS, mayHoldLock } from './commitLock';
import { readSmallFile, writeFileAtomic } from '../fsutil';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'actguy-commit-'));
  dirs.push(d);
  return d;
}

/** Every file under dir (recursively) with its text; folders left out. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const st = lstatSync(join(dir, f));
    if (st.isSymbolicLink()) out[f] = 'link';
    else if (!st.isDirectory()) out[f] = readFileSync(join(dir, f), 'utf8');
  }
  return out;
}

const te = new TextEncoder();
const set = (dir: string, tag: string) => [
  { path: join(dir, 'out', 'stage.mar'), bytes: te.encode(`mar ${tag}`) },
  { path: join(dir, 'out', 'stage.sar'), bytes: te.encode(`sar ${tag}`) },
  { path: join(dir, 'rep', 'stage.report.json'), bytes: te.encode(`report ${tag}`) },
];
const OLD = { 'out/stage.mar': 'mar old', 'out/stage.sar': 'sar old', 'rep/stage.report.json': 'report old' };
const NEW = { 'out/stage.mar': 'mar new', 'out/stage.sar': 'sar new', 'rep/stage.report.json': 'report new' };

describe('commitOutputs', () => {
  it('replaces every target and leaves no temp, lock or journal behind', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    expect(contents(dir)).toEqual(OLD);
    commitOutputs(set(dir, 'new'));
    expect(contents(dir)).toEqual(NEW);
  });

  it('an output given as pieces is written as their join: more pieces than one write takes, empty ones, any sizes', () => {
    const dir = tempDir();
    // 2,600 pieces (past writev's 1,024 buffers a call, and past the 512 the commit hands it at once), views into
    // one buffer at odd offsets as a rebuild's carried entries are, some of them empty.
    const source = Uint8Array.from({ length: 200_000 }, (_, k) => (k * 7 + (k >> 8)) & 0xff);
    const pieces: Uint8Array[] = [];
    for (let k = 0, at = 0; k < 2600; k++) {
      const n = k % 13 === 0 ? 0 : (k * 31) % 97;
      pieces.push(source.subarray(at % 150_000, (at % 150_000) + n));
      at += n + 3;
    }
    const joined = Buffer.concat(pieces);
    const mar = join(dir, 'out', 'stage.mar');
    commitOutputs([
      {
        path: mar,
        pieces,
        get bytes(): Uint8Array {
          throw new Error('the commit joined the pieces');
        },
      },
    ]);
    expect(readFileSync(mar).equals(joined)).toBe(true);
    // Written again over the old one (its backup and install steps as any output's).
    commitOutputs([{ path: mar, pieces: pieces.slice(1000), bytes: new Uint8Array() }]);
    expect(readFileSync(mar).equals(Buffer.concat(pieces.slice(1000)))).toBe(true);
  });

  it.runIf(process.platform !== 'win32')(
    'each output replaced keeps its permission bits (a 0600 .mar became 0644: its temp had 0666 less the umask)',
    () => {
      const dir = tempDir();
      commitOutputs(set(dir, 'old'));
      const modes = { 'out/stage.mar': 0o600, 'out/stage.sar': 0o640, 'rep/stage.report.json': 0o664 };
      for (const [f, m] of Object.entries(modes)) chmodSync(join(dir, f), m);
      commitOutputs(set(dir, 'new'));
      expect(contents(dir)).toEqual(NEW);
      for (const [f, m] of Object.entries(modes))
        expect((statSync(join(dir, f)).mode & 0o777).toString(8)).toBe(m.toString(8));
    },
  );

  it('an output named as the lock or journal of the first output, or as a temp, is refused and nothing is written (the lock and journal are deleted when the commit ends)', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const mar = join(dir, 'out/stage.mar');
    for (const name of [
      'stage.mar.actguy-lock',
      'stage.mar.actguy-commit',
      'Stage.Mar.Actguy-Commit',
      'stage.mar.actguy-old.h.1.x.tmp',
    ]) {
      const files = [
        { path: mar, bytes: te.encode('mar new') },
        { path: join(dir, 'out', name), bytes: te.encode('sar new') },
      ];
      expect(() => commitOutputs(files), name).toThrow(
        `cannot write ${join(dir, 'out', name)}: ${name} is a name ActGuy keeps for`,
      );
      expect(contents(dir)).toEqual(OLD);
      expect(() => writeFileAtomic(join(dir, 'out', name), 'x')).toThrow(`${name} is a name ActGuy keeps for`);
      expect(contents(dir)).toEqual(OLD);
    }
  });

  it('a failure at any step leaves the complete old set (or the complete new one once installed) and no temp file', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const steps: string[] = [];
    commitOutputs(set(dir, 'old'), { onStep: (_, label) => steps.push(label) });
    expect(steps.length).toBe(commitStepCount(3, 3));
    expect(steps).toEqual([
      'write 1',
      'write 2',
      'write 3',
      'backup 1',
      'backup 2',
      'backup 3',
      'journal',
      'install 1',
      'install 2',
      'install 3',
      'drop backup 1',
      'drop backup 2',
      'drop backup 3',
      'remove journal',
    ]);
    for (let k = 1; k <= steps.length; k++) {
      let thrown: unknown;
      try {
        commitOutputs(set(dir, 'new'), {
          onStep: (n) => {
            if (n === k) throw new Error(`disk trouble at step ${k}`);
          },
        });
      } catch (e) {
        thrown = e;
      }
      const installed = steps[k - 1].startsWith('drop') || steps[k - 1] === 'remove journal';
      if (installed) {
        // Tidying after the new set is in place may fail without undoing it; the next run finishes the tidying.
        expect(contents(dir)).toEqual(expect.objectContaining(NEW));
        recoverOutputs(set(dir, 'x').map((f) => f.path));
        expect(contents(dir)).toEqual(NEW);
      } else {
        expect(thrown, `step ${k}`).toBeInstanceOf(Error);
        expect((thrown as Error).message).toMatch(/disk trouble/);
        expect(contents(dir), `step ${k} (${steps[k - 1]})`).toEqual(OLD);
      }
      commitOutputs(set(dir, 'old'));
      expect(contents(dir)).toEqual(OLD);
    }
  });

  // Round 42 left open: a recovery that rolled back a commit said every output "hold[s] their previous contents",
  // also of the files the commit had put where none was before, which the roll-back removes. Mutation that fails:
  // the note naming every entry as kept (the removed list left empty).
  it('a rolled-back recovery says which outputs hold their previous contents and which it removed', () => {
    const dir = tempDir();
    const [mar, sar, report] = set(dir, 'new').map((f) => f.path);
    mkdirSync(join(dir, 'out'), { recursive: true });
    writeFileSync(mar, 'mar old');
    // Killed once every file is in place, before its tidying: the journal stays, with the backup of stage.mar.
    expect(() =>
      commitOutputs(set(dir, 'new'), {
        onStep: (_, label) => {
          if (label === 'drop backup 1') throw Object.assign(new Error('killed'), { name: 'CommitKilled' });
        },
      }),
    ).toThrow('killed');
    // As a kill during its roll-back leaves it: the journal says "back".
    const journal = `${mar}.actguy-commit`;
    writeFileSync(journal, JSON.stringify({ ...JSON.parse(readFileSync(journal, 'utf8')), state: 'back' }));
    expect(recoverOutputs([mar, sar, report])).toBe(
      `an interrupted build was rolled back: ${mar} holds its previous contents; ${sar}, ${report} were removed (none was there before it)`,
    );
    expect(contents(dir)).toEqual({ 'out/stage.mar': 'mar old' });
  });

  it("an unwritable output, a folder given as a file and a file given as a folder name the user's path, not a temp", () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    // Permissions do not stop root (CI), so the refusal is injected at the file-system seam.
    const denied: Partial<CommitFs> = {
      writeFileSync: (p, d, o) => {
        if (p.includes('stage.sar.actguy-new'))
          throw Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES', path: p });
        writeFileSync(p, d, o);
      },
    };
    expect(() => commitOutputs(set(dir, 'new'), { fs: denied })).toThrow(
      // Said as a temp that cannot be made beside the output (round 38), naming the output, never the temp.
      `cannot write ${join(dir, 'out', 'stage.sar')}: cannot create a temporary file beside it in ${join(dir, 'out')} (permission denied); nothing was written`,
    );
    expect(contents(dir)).toEqual(OLD);
    const full: Partial<CommitFs> = {
      writeFileSync: (p, d, o) => {
        if (p.includes('actguy-new'))
          throw Object.assign(new Error(`ENOSPC: no space left on device, write '${p}'`), { code: 'ENOSPC' });
        writeFileSync(p, d, o);
      },
    };
    expect(() => commitOutputs(set(dir, 'new'), { fs: full })).toThrow(
      `cannot write ${join(dir, 'out', 'stage.mar')}: no space left on the device; nothing was written`,
    );
    expect(contents(dir)).toEqual(OLD);
    // A rename that fails mid-install (after one target was replaced) rolls the installed one back.
    let renames = 0;
    const flaky: Partial<CommitFs> = {
      renameSync: (a, b) => {
        if (a.includes('actguy-new') && ++renames === 2)
          throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        return renameSync(a, b);
      },
    };
    expect(() => commitOutputs(set(dir, 'new'), { fs: flaky })).toThrow(
      /EIO: i\/o error; the previous files were kept/,
    );
    expect(contents(dir)).toEqual(OLD);

    mkdirSync(join(dir, 'folder.mar'));
    expect(() => commitOutputs([{ path: join(dir, 'folder.mar'), bytes: te.encode('x') }])).toThrow(
      `cannot write ${join(dir, 'folder.mar')}: it is a folder, not a file; nothing was written`,
    );
    writeFileSync(join(dir, 'plain'), 'a file');
    expect(() =>
      commitOutputs([
        { path: join(dir, 'out', 'ok.mar'), bytes: te.encode('x') },
        { path: join(dir, 'plain', 'sub', 'x.sar'), bytes: te.encode('y') },
      ]),
    ).toThrow(
      `cannot write ${join(dir, 'plain', 'sub', 'x.sar')}: ${join(dir, 'plain')} is a file, not a folder; nothing was written`,
    );
    expect(contents(dir)).toEqual({ ...OLD, plain: 'a file' });
  });

  // Round 47 (docs/security.md): a FIFO where the outputs' folder goes was said as "a file, not a folder". Mutation that
  // fails: entryKind answering 'a file' for every kind.
  it.runIf(process.platform !== 'win32')(
    'a named pipe where a folder goes is named as one, and nothing is written',
    () => {
      const dir = tempDir();
      expect(spawnSync('mkfifo', [join(dir, 'out')]).status).toBe(0);
      expect(() => commitOutputs([{ path: join(dir, 'out', 'stage.mar'), bytes: te.encode('x') }])).toThrow(
        `cannot write ${join(dir, 'out', 'stage.mar')}: ${join(dir, 'out')} is a named pipe (FIFO), not a folder; nothing was written`,
      );
      expect(readdirSync(dir)).toEqual(['out']);
    },
  );
});

describe('sweepStaleTemps', () => {
  it('removes our temps whose writer is gone or that are a day old, and nothing else', () => {
    const dir = tempDir();
    const target = join(dir, 'stage.mar');
    writeFileSync(target, 'keep');
    const mine = ownTempName(target, 'new');
    writeFileSync(mine, 'live writer: this process');
    const dead = mine.replace(`.${process.pid}.`, '.999999999.');
    writeFileSync(dead, 'writer died');
    const old = ownTempName(target, 'old').replace(/actguy-old\.[^.]*\./, 'actguy-old.otherhost.');
    writeFileSync(old, 'another machine, long ago');
    const fresh = ownTempName(target, 'old')
      .replace(/actguy-old\.[^.]*\./, 'actguy-old.otherhost.')
      .replace(/\.[0-9a-z]+\.tmp$/, '.zz.tmp');
    writeFileSync(fresh, 'another machine, now');
    const day = (Date.now() - 25 * 3600 * 1000) / 1000;
    utimesSync(old, day, day);
    writeFileSync(join(dir, 'stage.mar.user-notes.tmp'), 'not ours');
    writeFileSync(join(dir, 'other.mar.actguy-new.h.999999999.abc.tmp'), 'another target');
    expect(sweepStaleTemps([target]).sort()).toEqual([dead, old].sort());
    expect(readdirSync(dir).sort()).toEqual(
      [
        'other.mar.actguy-new.h.999999999.abc.tmp',
        'stage.mar.user-notes.tmp',
        mine.slice(dir.length + 1),
        fresh.slice(dir.length + 1),
        'stage.mar',
      ].sort(),
    );
  });
});

describe('commitOutputs: roll back and the lock', () => {
  it('a failure during install when no output existed before leaves no output at all, and says nothing was written', () => {
    const dir = tempDir();
    let renames = 0;
    const flaky: Partial<CommitFs> = {
      renameSync: (a, b) => {
        if (a.includes('actguy-new') && ++renames === 2)
          throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        return renameSync(a, b);
      },
    };
    // The first target was installed before the second rename failed: rolling back must remove it again.
    expect(() => commitOutputs(set(dir, 'new'), { fs: flaky })).toThrow(/EIO: i\/o error; nothing was written$/);
    expect(renames).toBe(2);
    expect(contents(dir)).toEqual({});
  });

  it('a lock held by a live process on this machine refuses, names the holder and leaves the lock and the outputs as they were', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    // The parent process (the test runner) is alive for the whole test; the lock names its start, as a holder's does.
    const held = `${host()} ${process.ppid} ${Date.now()} ${processStart(process.ppid)}`;
    writeFileSync(lock, held);
    expect(() => commitOutputs(set(dir, 'new'))).toThrow(
      new RegExp(
        `^another ActGuy run is writing these outputs now: the lock ${lock} was taken by process ${process.ppid} on this machine less than a minute ago \\(at [0-9T:.-]+Z\\); it lapses when that process ends, or at [0-9T:.-]+Z; try again when it has finished; if no ActGuy run is writing these outputs, delete ${lock} and try again$`,
      ),
    );
    expect(readFileSync(lock, 'utf8')).toBe(held);
    expect(contents(dir)).toEqual({ ...OLD, 'out/stage.mar.actguy-lock': held });
  });

  it('a lock of a process that died, or of this process id but not held now, is taken over', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    for (const pid of [999999999, process.pid]) {
      writeFileSync(lock, `${host()} ${pid} ${Date.now()}`);
      commitOutputs(set(dir, 'new'));
      expect(contents(dir)).toEqual(NEW);
      commitOutputs(set(dir, 'old'));
    }
  });

  it('a lock naming a live process id that is not the process that took it (pid 1, another start, no start) is taken over', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    expect(processStart(process.ppid)).toMatch(/^[0-9a-f-]+\.[0-9]+$/);
    const [boot, started] = processStart(process.ppid)!.split('.');
    const planted = [
      `${host()} 1 ${Date.now()}`,
      `${host()} 1 ${Date.now()} ${boot}.0`,
      `${host()} ${process.ppid} ${Date.now()}`,
      `${host()} ${process.ppid} ${Date.now()} ${boot}.${Number(started) + 1}`,
      `${host()} ${process.ppid} ${Date.now()} 00000000-0000-0000-0000-000000000000.${started}`,
    ];
    for (const text of planted) {
      writeFileSync(lock, text);
      commitOutputs(set(dir, 'new'));
      expect(contents(dir), text).toEqual(NEW);
      commitOutputs(set(dir, 'old'));
    }
  });

  it('a stale lock that another run takes over while this one judges it is not removed: this run is refused (round 37)', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    writeFileSync(lock, `${host()} 999999999 ${Date.now() - 1000}`);
    // Another run (the test runner, alive throughout) judged the same dead holder's lock, removed it and took the lock
    // while this run read it: this run's judgement is of a lock that is no longer there.
    const theirs = `${host()} ${process.ppid} ${Date.now()} ${processStart(process.ppid)}`;
    let reads = 0;
    const racing: Partial<CommitFs> = {
      readSmallFile: (p, max) => {
        const read = readSmallFile(p, max);
        if (p === lock && ++reads === 1) {
          rmSync(lock);
          writeFileSync(lock, theirs);
        }
        return read;
      },
    };
    expect(() => commitOutputs(set(dir, 'new'), { fs: racing })).toThrow(
      new RegExp(
        `^another ActGuy run is writing these outputs now: the lock ${lock} was taken by process ${process.ppid} `,
      ),
    );
    expect(readFileSync(lock, 'utf8')).toBe(theirs);
    expect(contents(dir)).toEqual({ ...OLD, 'out/stage.mar.actguy-lock': theirs });
    // Without the race, a dead holder's lock is still taken over.
    writeFileSync(lock, `${host()} 999999999 ${Date.now()}`);
    commitOutputs(set(dir, 'new'));
    expect(contents(dir)).toEqual(NEW);
  });

  it('a live holder whose start cannot be read (another user, /proc hidden) keeps its lock; a planted or later process does not', () => {
    // [recorded in the lock, read from the process now, this process's own] -> may hold
    expect(mayHoldLock('b.5', undefined, 'b.1')).toBe(true);
    expect(mayHoldLock('b.5', 'b.5', 'b.1')).toBe(true);
    expect(mayHoldLock('b.5', 'b.6', 'b.1')).toBe(false);
    expect(mayHoldLock(undefined, 'b.6', 'b.1')).toBe(false);
    expect(mayHoldLock(undefined, undefined, 'b.1')).toBe(false);
    // A system that records no starts: liveness alone decides.
    expect(mayHoldLock(undefined, undefined, undefined)).toBe(true);
  });

  const holder = useBundledWorker(join(__dirname, 'lockHolderForTests.ts'));
  it('two real processes committing the same outputs exclude each other: the second is refused while the first holds the lock', async () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    const child = spawn(process.execPath, [holder(), dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = once(child, 'exit');
    try {
      while (!existsSync(join(dir, 'ready'))) await sleep(20);
      expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${host()} ${child.pid} [0-9]+ [0-9a-f.-]+$`));
      expect(() => commitOutputs(set(dir, 'new'))).toThrow(
        new RegExp(
          `^another ActGuy run is writing these outputs now: the lock ${lock} was taken by process ${child.pid} on this machine `,
        ),
      );
      expect(contents(dir)['out/stage.mar']).toBe('mar old');
    } finally {
      writeFileSync(join(dir, 'go'), '');
    }
    expect(await exited).toEqual([0, null]);
    expect(contents(dir)['out/stage.mar']).toBe('mar other');
    expect(existsSync(lock)).toBe(false);
    // Released: the next run takes the lock.
    commitOutputs(set(dir, 'new'));
    expect(contents(dir)['out/stage.mar']).toBe('mar new');
  });

  it('a lock dated in the future or of another machine blocks only until an hour after it was taken, says whose it is, how old, when it lapses and what to delete, and is then taken over with a note', () => {
    // docs/security.md round 34: another machine's lock blocked for a day after its file changed (a received folder
    // holding one could not be built for a day after it was unpacked).
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    const future = Date.UTC(2999, 0, 1);
    writeFileSync(lock, `buildbox-7 4242 ${future}`);
    let message = '';
    try {
      commitOutputs(set(dir, 'new'));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(
      new RegExp(
        `^another ActGuy run is writing these outputs now: the lock ${lock} was taken by process 4242 on the machine buildbox-7 less than a minute ago \\(at (\\S+); the date it records is in the future, so its file time is taken\\); ` +
          `whether that run still runs cannot be asked from this machine: the lock lapses at (\\S+), an hour after it was taken; try again when it has finished; if no ActGuy run is writing these outputs, delete ${lock} and try again$`,
      ),
    );
    // "at" is the lock file's change time (now), not the year 2999; it lapses an hour later.
    const [, at, lapses] = /\(at (\S+);.* lapses at (\S+),/.exec(message)!;
    expect(Math.abs(Date.parse(at) - statSync(lock).ctimeMs)).toBeLessThan(1000);
    expect(Date.parse(lapses) - Date.parse(at)).toBe(FOREIGN_LOCK_MS);
    expect(contents(dir)).toEqual({ ...OLD, 'out/stage.mar.actguy-lock': `buildbox-7 4242 ${future}` });
    // An hour after its file last changed (the file's change time cannot be set back the way a date in it can), it
    // is taken over, and the commit's note says whose lock it took and how old it was.
    const aged = (ms: number): Partial<CommitFs> => ({
      readSmallFile: (p, max) => {
        const read = readSmallFile(p, max);
        return p === lock && read && 'text' in read ? { ...read, ctimeMs: Date.now() - ms } : read;
      },
    });
    // Just inside the hour it still blocks (the bound is an hour, not a day: 59 minutes blocks, 61 does not).
    expect(() => commitOutputs(set(dir, 'new'), { fs: aged(FOREIGN_LOCK_MS - 60_000) })).toThrow(/ 59 min ago /);
    const note = commitOutputs(set(dir, 'new'), { fs: aged(FOREIGN_LOCK_MS + 60_000) });
    expect(note).toMatch(
      new RegExp(
        `^took over the lock ${lock}, taken by process 4242 on the machine buildbox-7 1 h 1 min ago \\(at \\S+; the date it records is in the future, so its file time is taken\\): no commit holds its lock that long, so that run has ended$`,
      ),
    );
    expect(contents(dir)).toEqual(NEW);
    // A lock of another machine dated a week ago (its file unpacked just now) is that old: taken over at once.
    commitOutputs(set(dir, 'old'));
    writeFileSync(lock, `buildbox-7 4242 ${Date.now() - 7 * 24 * 3600 * 1000}`);
    expect(commitOutputs(set(dir, 'new'))).toMatch(/^took over the lock .* 168 h ago /);
    // An empty lock: another run is taking it this instant (or died doing so); it blocks for the hour too.
    commitOutputs(set(dir, 'old'));
    writeFileSync(lock, '');
    expect(() => commitOutputs(set(dir, 'new'))).toThrow(
      /^another ActGuy run is writing these outputs now: the lock \S+ was taken by a run that has not written its name yet less than a minute ago .* the lock lapses at \S+, an hour after it was taken; .*delete \S+ and try again$/,
    );
    expect(contents(dir)).toEqual({ ...OLD, 'out/stage.mar.actguy-lock': '' });
    // A live process of this machine that may hold it keeps it for a day: 2 hours old, it still blocks.
    writeFileSync(lock, `${host()} ${process.ppid} ${Date.now()} ${processStart(process.ppid)}`);
    expect(() => commitOutputs(set(dir, 'new'), { fs: aged(2 * 3600 * 1000) })).toThrow(
      /on this machine 2 h ago .* it lapses when that process ends, or at /,
    );
    expect(commitOutputs(set(dir, 'new'), { fs: aged(STALE_MS + 60_000) })).toMatch(
      new RegExp(`^took over the lock ${lock}, taken by process ${process.ppid} on this machine 24 h 1 min ago`),
    );
    expect(contents(dir)).toEqual(NEW);
  });

  it('a lock that is not of our shape, too big or a link is refused by name, untouched', () => {
    const dir = tempDir();
    commitOutputs(set(dir, 'old'));
    const lock = join(dir, 'out', 'stage.mar.actguy-lock');
    const cases: [() => void, RegExp][] = [
      [
        () => writeFileSync(lock, 'rm -rf / 1 2'),
        /is not an ActGuy lock \("rm -rf \/ 1 2"; a lock reads "<host> <process id> <time>"\)/,
      ],
      [
        () => writeFileSync(lock, 'x'.repeat(1 << 20)),
        /is not an ActGuy lock \(it is 1048576 bytes, more than the 512 it could be\)/,
      ],
      [() => symlinkSync(join(dir, 'out', 'stage.sar'), lock), /is not an ActGuy lock \(it is a symbolic link\)/],
      // A C1 control (U+009B, a terminal's CSI) is quoted escaped, as C0 is.
      [() => writeFileSync(lock, 'a\u009b2J\u001b'), /is not an ActGuy lock \("a\\u009b2J\\u001b"; a lock reads/],
    ];
    for (const [plant, why] of cases) {
      rmSync(lock, { force: true });
      plant();
      const before = contents(dir);
      expect(() => commitOutputs(set(dir, 'new'))).toThrow(why);
      expect(() => commitOutputs(set(dir, 'new'))).toThrow(`${lock}`);
      expect(() => commitOutputs(set(dir, 'new'))).toThrow(
        /nothing was changed; if no ActGuy run is writing these outputs, delete .* and try again$/,
      );
      expect(contents(dir)).toEqual(before);
    }
  });
});
