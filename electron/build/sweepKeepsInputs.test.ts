/**
 * The sweep of stale temps beside an output removes files by their names (tempFiles.ts); a name alone never makes a
 * file ActGuy's own. A received project whose `walk.sev` is a link to `out/s.mar.actguy-new.otherhost.1234.abcdef.tmp`
 * (a day old, as an archive keeps its dates) had that file read as the SEV and then removed as a stale temp by the
 * commit: the next build said the input was missing (docs/security.md, round 14's open item, fixed in round 17).
 * Through `actguy build`, `actguy compress`, the app's Build in its worker thread, and the sweep itself.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSETS } from '../testing/handlerHarness';
import { settleBuild, testProjectHandlers } from '../testing/projectHarness';
import { pieceOfWork, pieceOfWorkSync } from '../testing/pieceOfWork';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { host, identityOf, noteInputRead, plainIdentityFields, sweepStaleTemps } from '../tempFiles';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

const TEMP = 'out/s.mar.actguy-new.otherhost.1234.abcdef.tmp';
const OLD = new Date('2020-01-01T00:00:00Z');

/** A received folder whose walk.sev is a link to a file named as a stale temp of its `.mar`. */
function received(): { dir: string; project: string; text: string; sev: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
  dirs.push(dir);
  for (const f of ['walk.mtn', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
  mkdirSync(join(dir, 'out'));
  const sev = readFileSync(join(ASSETS, 'walk.sev'));
  writeFileSync(join(dir, TEMP), sev);
  utimesSync(join(dir, TEMP), OLD, OLD);
  symlinkSync(TEMP, join(dir, 'walk.sev'));
  const text = JSON.stringify({
    version: 1,
    motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
    seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
    outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
  });
  const project = join(dir, 'p.actguy.json');
  writeFileSync(project, text);
  return { dir, project, text, sev };
}

/**
 * A CLI run as one piece of work: bounded by its own 120 s (a synchronous case cannot be ended by the test's limit,
 * only failed after it returns), and named when it runs out. The cases have no limit on the whole; at load 21 the one
 * with two builds took 12.7 s of the 20 s it had (docs/testing.md, "Tests under load, round 5").
 */
function cliPiece(dir: string, args: string[], env?: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return pieceOfWorkSync(`actguy ${args.join(' ')}`, process.execPath, [cli, ...args], { cwd: dir, env });
}
const actguy = (dir: string, ...args: string[]) => cliPiece(dir, args);

describe('the sweep beside an output keeps the inputs it read', () => {
  it('actguy build: an input reached through a link to a temp-named file is kept, and builds again', () => {
    const { dir, sev } = received();
    const first = actguy(dir, 'build', 'p.actguy.json', '--quiet', '--jobs', '1');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(readFileSync(join(dir, TEMP))).toEqual(sev);
    const again = actguy(dir, 'build', 'p.actguy.json', '--quiet', '--jobs', '1');
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
  }, 0); // each piece bounded on its own (cliPiece, pieceOfWork)

  it('actguy build: a motion the local verdicts know (its stamp taken, not read) through such a link is kept', () => {
    // The second build takes the motion file's stamp alone (compressMotions.ts fileStamp) and notes its identity from
    // that one exact stat: it must be the identity the sweep makes of the file with a plain stat.
    const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'out'));
    const temp = 'out/s.mar.actguy-new.otherhost.1234.abcdef.tmp';
    const mtn = readFileSync(join(ASSETS, 'walk.mtn'));
    writeFileSync(join(dir, temp), mtn);
    utimesSync(join(dir, temp), OLD, OLD);
    symlinkSync(temp, join(dir, 'walk.mtn'));
    writeFileSync(
      join(dir, 'p.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn' }],
        outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
      }),
    );
    const build = () =>
      cliPiece(dir, ['build', 'p.actguy.json', '--jobs', '1', '--cache', 'cache'], {
        ...process.env,
        ACTGUY_STATE_DIR: join(dir, '..', `${basename(dir)}-state`),
      });
    dirs.push(join(dir, '..', `${basename(dir)}-state`));
    expect(build().status).toBe(0);
    // An output touched: the next build runs and commits (and sweeps), its motion known from the verdicts.
    const now = new Date();
    utimesSync(join(dir, 'out', 's.mar'), now, now);
    const again = build();
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/cache: 1 reused/);
    expect(readFileSync(join(dir, temp))).toEqual(mtn);
  }, 0); // each piece bounded on its own (cliPiece, pieceOfWork)

  it('actguy compress: the motion read through such a link is kept (the single write sweeps too)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
    dirs.push(dir);
    const temp = `w.mt3.actguy-new.otherhost.1234.abcdef.tmp`;
    copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, temp));
    utimesSync(join(dir, temp), OLD, OLD);
    symlinkSync(temp, join(dir, 'walk.mtn'));
    const r = actguy(dir, 'compress', 'walk.mtn', '-o', 'w.mt3', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, temp))).toEqual(readFileSync(join(ASSETS, 'walk.mtn')));
  }, 0); // each piece bounded on its own (cliPiece, pieceOfWork)

  const worker = useBundledWorker(resolve(__dirname, '..', 'project', 'buildWorker.ts'));
  it("the app's Build: the worker read the input, main's commit keeps it", async () => {
    const { workerLauncher } = await import('../project/buildRunner');
    const { dir, project, sev } = received();
    const { h, openPicked } = testProjectHandlers({ launchBuild: workerLauncher(worker()) });
    const projectText = await openPicked(project);
    const started = await h.startBuild({ projectPath: project, projectText });
    const done = await pieceOfWork(
      'the build ended',
      settleBuild(() => h.getBuildStatus({ buildId: started.buildId })),
    );
    expect(done.errors).toEqual([]);
    expect(done.state).toBe('done');
    expect(readFileSync(join(dir, TEMP))).toEqual(sev);
  }, 0); // each piece bounded on its own (cliPiece, pieceOfWork)

  it("the app's Build of the editor's unsaved SEV: the file on disk, not read, is kept as well", async () => {
    const { workerLauncher } = await import('../project/buildRunner');
    const { dir, project, sev } = received();
    const { h, openPicked } = testProjectHandlers({ launchBuild: workerLauncher(worker()) });
    const projectText = await openPicked(project);
    const sevPath = join(dir, 'walk.sev');
    const started = await h.startBuild({
      projectPath: project,
      projectText,
      sevTexts: [{ path: sevPath, text: sev.toString('utf8') }],
    });
    const done = await pieceOfWork(
      'the build ended',
      settleBuild(() => h.getBuildStatus({ buildId: started.buildId })),
    );
    expect(done.errors).toEqual([]);
    expect(done.state).toBe('done');
    expect(readFileSync(join(dir, TEMP))).toEqual(sev);
  }, 0); // each piece bounded on its own (cliPiece, pieceOfWork)

  it('sweepStaleTemps: a temp that took the inode number of a file read before (and deleted since) still goes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
    dirs.push(dir);
    const temp = join(dir, 'x.mar.actguy-new.otherhost.7.abcdef.tmp');
    writeFileSync(temp, 'stale');
    utimesSync(temp, OLD, OLD);
    // The file read earlier had this device and inode number, and changed last a minute before this one was made.
    const st = lstatSync(temp);
    noteInputRead({ dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs - 60_000 });
    expect(sweepStaleTemps([join(dir, 'x.mar')])).toEqual([temp]);
  });

  it('sweepStaleTemps: a link of a temp name and a file kept by identity stay, a stale plain temp goes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
    dirs.push(dir);
    const target = join(dir, 'x.mar');
    const name = (k: number) => join(dir, `x.mar.actguy-new.otherhost.${k}.abcdef.tmp`);
    writeFileSync(join(dir, 'elsewhere'), 'mine');
    symlinkSync('elsewhere', name(1));
    writeFileSync(name(2), 'kept');
    writeFileSync(name(3), 'stale');
    for (const k of [2, 3]) utimesSync(name(k), OLD, OLD);
    // The link's own date is old as well, so only its kind keeps it.
    lutimesSync(name(1), OLD, OLD);
    const removed = sweepStaleTemps([target], {}, [identityOf(lstatSync(name(2)))!]);
    expect(removed).toEqual([name(3)]);
    expect(lstatSync(name(1)).isSymbolicLink()).toBe(true);
    expect(readFileSync(name(2), 'utf8')).toBe('kept');
    expect(host()).not.toBe('otherhost');
  });

  // Round 27: fileStamp notes a motion's identity from its one exact stat (plainIdentityFields), and the sweep
  // compares it with the identity a plain stat gives. Had the two differed by a rounding, a motion the verdicts know,
  // named as a stale temp, would be removed (the test above through `actguy build` needs the CLI built to see it).
  // Mutation that fails: plainIdentityFields making ctimeMs as Number(ctimeNs) / 1e6 (a quarter of nanosecond ctimes
  // round otherwise; seen where the kernel gives fine-grained ctimes, Linux 6.13 on, as here).
  it('sweepStaleTemps: a file noted from its exact stat alone is kept, as one noted from a plain stat', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-sweep-input-'));
    dirs.push(dir);
    const names = Array.from({ length: 40 }, (_, k) => join(dir, `x.mar.actguy-new.otherhost.${k + 10}.abcdef.tmp`));
    for (const [k, name] of names.entries()) {
      writeFileSync(name, `input ${k}`);
      // A look before the change: a kernel with fine-grained timestamps then gives the change a ctime to the
      // nanosecond (untouched between looks, ctimes take the coarse clock's, whose fractions repeat).
      statSync(name);
      utimesSync(name, OLD, OLD);
    }
    for (const name of names) {
      const exact = plainIdentityFields(statSync(name, { bigint: true }))!;
      expect(identityOf(exact), name).toBe(identityOf(statSync(name)));
      noteInputRead(exact);
    }
    expect(sweepStaleTemps([join(dir, 'x.mar')])).toEqual([]);
    // Before 1970 it gives none, and the reader takes a plain stat instead.
    expect(plainIdentityFields({ dev: 1n, ino: 2n, ctimeNs: -1n })).toBeUndefined();
  });
});
