/**
 * A problem in an input outside the folder of what the user ran is told by its file and place only
 * (docs/security.md, round 34): a received project naming `../../.ssh/id_rsa` as its `.sev`, SE table or `.mtn` (by
 * `../`, by its absolute path, or through a link in its folder), or a received motion whose tuning file is a link to
 * it, printed the start of each line of that file (`skipped a line that is not a preprocessor directive: \`ssh-rsa
 * AAAA…\``, `found 73 73 68 2d`) on the terminal of `actguy build`, `build --watch`, `info` and `compress`, and in
 * the app's Build: into the log of a CI job that builds what it is sent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FormatError } from '../shared/errors';
import { OUTSIDE_DETAIL, OUTSIDE_MOTION_DETAIL, outsideRedactor } from './outsideQuotes';
import { testProjectHandlers } from './testing/projectHarness';

const root = join(__dirname, '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
const ASSETS = join(root, 'assets');
/** The secret's lines, and the hex of its first four bytes (an .mtn's bad magic is quoted so). */
const SECRET = 'ssh-rsa AAAAB3NzaSECRETKEY user@host';
const SECRET_HEX = '73 73 68 2d';
const leaks = (text: string) => text.includes('SECRET') || text.includes('ssh-rsa') || text.includes(SECRET_HEX);

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A home folder with a secret, and a received project folder in it holding walk.mtn, walk.sev and the tables. */
function home(): { home: string; secret: string; dir: string } {
  const h = mkdtempSync(join(tmpdir(), 'actguy-outside-quotes-'));
  dirs.push(h);
  mkdirSync(join(h, '.ssh'));
  const secret = join(h, '.ssh', 'id_rsa');
  writeFileSync(secret, `${SECRET}\nsecond line SECRET2 = x\n`);
  const dir = join(h, 'Downloads', 'proj');
  mkdirSync(dir, { recursive: true });
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
  return { home: h, secret, dir };
}

/** Writes `p.actguy.json` naming `inputs` over a one-motion project of walk.mtn (no .sev unless given) and the tables. */
function project(dir: string, inputs: { mtn?: string; sev?: string; sls?: string; seDefine?: string }): string {
  const file = join(dir, 'p.actguy.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: inputs.mtn ?? 'walk.mtn', ...(inputs.sev !== undefined && { sev: inputs.sev }) }],
      seTables: { sls: inputs.sls ?? 'default.sls', seDefine: inputs.seDefine ?? 'se_define.h' },
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    }),
  );
  return file;
}

function run(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ACTGUY_STATE_DIR: join(cwd, '..', 'state') },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The three ways a received project names the secret: `../`, its absolute path, a link in its folder. */
const namings = [
  ['by ../', () => '../../.ssh/id_rsa'],
  ['by its absolute path', (secret: string) => secret],
  [
    'through a link in the folder',
    (secret: string, dir: string) => {
      symlinkSync(secret, join(dir, 'linked.h'));
      return 'linked.h';
    },
  ],
] as const;

describe('actguy build quotes no text of an input outside the project folder', () => {
  for (const [how, name] of namings)
    it(`its warnings about an SE table named ${how}`, () => {
      // Mutation killed: buildProject returning its outcome unredacted (stderr held the secret's lines).
      const { secret, dir } = home();
      project(dir, { seDefine: name(secret, dir) });
      const r = run(dir, 'build', 'p.actguy.json', '--no-cache');
      expect(r.status).toBe(0);
      expect(leaks(r.out), r.out).toBe(false);
      // Each warning still names the file and the line.
      expect(r.out).toMatch(/(id_rsa|linked\.h):1:1: a problem in a file outside the project folder; its text/);
      expect(r.out).toMatch(/(id_rsa|linked\.h):2:1: /);
      // And the report as before (round 14).
      expect(leaks(readFileSync(join(dir, 'out', 's.report.json'), 'utf8'))).toBe(false);
    });

  it('its errors about a .sev, an SE table and an .mtn outside', () => {
    const { secret, dir } = home();
    project(dir, { sev: secret, sls: '../../.ssh/id_rsa' });
    const r = run(dir, 'build', 'p.actguy.json', '--no-cache');
    expect(r.status).toBe(1);
    expect(leaks(r.out), r.out).toBe(false);
    expect(r.out).toMatch(/id_rsa:1:1: a problem in a file outside the project folder/);
    expect(r.out).toMatch(/errors; nothing was written/);
    project(dir, { mtn: '../../.ssh/id_rsa' });
    const m = run(dir, 'build', 'p.actguy.json', '--no-cache');
    expect(m.status).toBe(1);
    expect(leaks(m.out), m.out).toBe(false);
    expect(m.out).toMatch(/id_rsa \[MTN\] \(offset 0\): a problem in a file outside the project folder/);
  });

  it('a problem in an input inside the folder is quoted as before', () => {
    // Mutation killed: the redactor taking every file for outside (the inside line's text is gone).
    const { dir } = home();
    writeFileSync(join(dir, 'se.h'), '#define SE_X 0x101\nnot a directive here\n');
    project(dir, { seDefine: 'se.h' });
    const r = run(dir, 'build', 'p.actguy.json', '--no-cache');
    expect(r.status).toBe(0);
    expect(r.out).toContain('se.h:2:1: skipped a line that is not a preprocessor directive: `not a directive here`');
  });

  it('build --watch', async () => {
    const { secret, dir } = home();
    project(dir, { sev: secret });
    const child = spawn(process.execPath, [cli, 'build', 'p.actguy.json', '--watch', '--no-cache', '--jobs', '1'], {
      cwd: dir,
      env: { ...process.env, ACTGUY_STATE_DIR: join(dir, '..', 'state') },
    });
    children.push(child);
    let out = '';
    await new Promise<void>((resolve) => {
      const seen = (d: Buffer) => {
        out += d;
        if (/watching \d+ files/.test(out)) resolve();
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
    });
    child.kill('SIGKILL');
    expect(leaks(out), out).toBe(false);
    expect(out).toMatch(/id_rsa:1:1: a problem in a file outside the project folder/);
  }, 60_000);
});

describe('actguy info and compress quote no text of an input outside', () => {
  it('info of a project: a motion file outside', () => {
    // Mutation killed: info's describeProjectFile giving projectDurations no `tell` (the magic's bytes were quoted).
    const { dir } = home();
    project(dir, { mtn: '../../.ssh/id_rsa' });
    const r = run(dir, 'info', 'p.actguy.json');
    expect(r.status).toBe(1);
    expect(leaks(r.out), r.out).toBe(false);
    expect(r.out).toMatch(/no duration: .*id_rsa \[MTN\] \(offset 0\): a problem in a file outside the project folder/);
  });

  it('info of a .sar with --project: the tables and motions the project names outside, not those the command line names', () => {
    // Mutation killed: loadSarDisplayNames not redacting (the table's first line, or the magic's bytes, quoted).
    const { secret, dir } = home();
    project(dir, {});
    expect(run(dir, 'build', 'p.actguy.json', '--no-cache', '--quiet').status).toBe(0);
    writeFileSync(
      join(dir, 'q.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn' }],
        seTables: { sls: '../../.ssh/id_rsa' },
        outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
      }),
    );
    const r = run(dir, 'info', 'out/s.sar', '--project', 'q.actguy.json');
    expect(r.status).toBe(1);
    expect(leaks(r.out), r.out).toBe(false);
    expect(r.out).toMatch(/id_rsa:1:1: a problem in a file outside the project folder/);
    // The user naming the file on the command line is told what is wrong with it.
    const named = run(dir, 'info', 'out/s.sar', '--project', 'q.actguy.json', '--sls', secret);
    expect(named.out).toContain('`ssh-rsa');
  });

  it("compress: a tuning file beside the motion that a link leads out of the motion's folder", () => {
    // Mutation killed: compress's readTuningFile not redacting (the JSON error quoted the secret's first line).
    const { secret, dir } = home();
    symlinkSync(secret, join(dir, 'walk.mtn.actguy-tuning.json'));
    const r = run(dir, 'compress', 'walk.mtn', '-o', 'walk.mt3');
    expect(r.status).not.toBe(0);
    expect(leaks(r.out), r.out).toBe(false);
    expect(r.out).toContain(OUTSIDE_MOTION_DETAIL);
    // A bad tuning file that is the motion's own is quoted as before.
    rmSync(join(dir, 'walk.mtn.actguy-tuning.json'));
    writeFileSync(join(dir, 'walk.mtn.actguy-tuning.json'), '{"version": 1, "SECRET_OWN": 2}');
    const own = run(dir, 'compress', 'walk.mtn', '-o', 'walk.mt3');
    expect(own.status).not.toBe(0);
    expect(own.out).toContain('SECRET_OWN');
  });
});

describe("the app's Build quotes no text of an input outside the project folder", () => {
  it('its warnings and errors, as the Build dialog gets them', async () => {
    // Mutation killed: buildJob's listed problems and messages not redacted (the dialog held the secret's lines).
    const { dir } = home();
    const file = project(dir, { seDefine: '../../.ssh/id_rsa' });
    const { openPicked, build } = testProjectHandlers();
    // Picked in the dialog, the project's inputs are the user's choice, outside files included.
    const text = await openPicked(file);
    const done = await build(file, text);
    expect(done.state).toBe('done');
    expect(leaks(done.warnings.join('\n')), done.warnings.join('\n')).toBe(false);
    expect(done.warnings.join('\n')).toMatch(/id_rsa:2:1: a problem in a file outside the project folder/);
    const json = JSON.parse(text);
    json.motions[0].sev = '../../.ssh/id_rsa';
    writeFileSync(file, JSON.stringify(json));
    const hostile = await openPicked(file);
    const failed = await build(file, hostile);
    expect(failed.state).toBe('failed');
    const shown = JSON.stringify(failed.errors);
    expect(leaks(shown), shown).toBe(false);
    const first = failed.errors.find((e) => e.file?.endsWith('id_rsa'))!;
    expect(first).toMatchObject({ line: 1, column: 1 });
    expect(first.message).toContain(OUTSIDE_DETAIL);
    expect(first.where).toBeUndefined();
  }, 120_000);
});

describe('outsideRedactor', () => {
  it("keeps an error's file, line, column and offset, drops its words and its `where`, and leaves inside files alone", () => {
    const { secret, dir } = home();
    const redact = outsideRedactor(dir);
    const out = redact(
      new FormatError('TUNING', `unknown key ${SECRET}`, { where: SECRET, line: 3, column: 4 }, secret),
    );
    expect(out.message).toBe(`${secret}:3:4: ${OUTSIDE_DETAIL}`);
    expect(out.place).toEqual({ line: 3, column: 4 });
    const bin = redact(new FormatError('MTN', `found ${SECRET_HEX}`, { where: 'header', offset: 0 }, secret));
    expect(bin.message).toBe(`${secret} [MTN] (offset 0): ${OUTSIDE_DETAIL}`);
    const inside = new FormatError('SEV', 'found `x`', { line: 1 }, join(dir, 'walk.sev'));
    expect(redact(inside)).toBe(inside);
    // A missing file inside the folder, and an error naming no file, stay as they are.
    const missing = new FormatError('SEV', 'found `x`', { line: 1 }, join(dir, 'gone', 'x.sev'));
    expect(redact(missing)).toBe(missing);
    const none = new FormatError('SEV', 'found `x`');
    expect(redact(none)).toBe(none);
  });
});
