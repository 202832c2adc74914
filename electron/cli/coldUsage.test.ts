/**
 * The command line tried cold (docs/cli.md, "Usage errors"): what a first-time user or a CI script types wrong is
 * refused before anything runs, with the option or command it most likely meant, and no file named after the mistake.
 *
 * Mutations, each failing this file: closestName's suggestion dropped from parseArgs' unknown option; the command
 * suggestion dropped from main.ts; the `--` check on a valued option's next argument removed (`-o --quiet` wrote a file
 * called --quiet); refuseDash removed (`-o -` wrote a file called -); jobsOption back to Number(text) (`--jobs 0x10`
 * ran 16 jobs); stringOption taking "" (`--report ""` wrote no report, exit 0); readFileHead's own ENOTREG throw back (a folder given to info printed `ENOTREG: …, open 'DIR'`).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './main';
import { closestName, jobsOption, liveTerminal, parseArgs } from './args';

let err: string[];
beforeEach(() => {
  err = [];
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-cold-usage-'));
  copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI, expects exit 2 (bad usage), returns the first line it printed on stderr. */
async function usageError(argv: string[]): Promise<string> {
  err = [];
  expect(await runCli(argv), argv.join(' ')).toBe(2);
  return err.join('\n').split('\n')[0];
}

describe('a misspelt option or command is named with the one meant', () => {
  it('suggests the option: a letter missing or swapped, _ for -, letter case; none for a name far from all', async () => {
    const walk = join(dir, 'walk.mtn');
    const out = join(dir, 'w.mt3');
    expect(await usageError(['compress', walk, '-o', out, '--rottol', '1'])).toBe(
      'actguy compress: unknown option "--rottol" (did you mean --rot-tol?)',
    );
    expect(await usageError(['compress', walk, '-o', out, '--rot_tol', '1'])).toContain('(did you mean --rot-tol?)');
    expect(await usageError(['compress', walk, '-o', out, '--quite'])).toContain('(did you mean --quiet?)');
    expect(await usageError(['build', 'p.actguy.json', '--job', '2'])).toContain('(did you mean --jobs?)');
    expect(await usageError(['import', 'a.bvh', '-o', 'a.mtn', '--bvh-position', 'local'])).toContain(
      '(did you mean --bvh-positions?)',
    );
    expect(await usageError(['compress', walk, '-o', out, '--zz'])).toBe('actguy compress: unknown option "--zz"');
    expect(existsSync(out)).toBe(false);
    expect(closestName('cache-max', ['cache', 'cache-max-mb'])).toBe('cache-max-mb');
    expect(closestName('export', ['export-gltf', 'export-msh'])).toBeUndefined();
    expect(closestName('frobnicate', ['fps', 'scale'])).toBeUndefined();
  });

  it('suggests the command, also after help', async () => {
    expect(await usageError(['compres', 'x.mtn'])).toBe(
      'actguy: unknown command "compres" (did you mean compress? try: actguy help)',
    );
    expect(await usageError(['pack_mar'])).toContain('did you mean pack-mar?');
    expect(await usageError(['Build'])).toContain('did you mean build?');
    expect(await usageError(['help', 'biuld'])).toBe('actguy help: unknown command "biuld" (did you mean build?)');
    expect(await usageError(['xyzzy'])).toBe('actguy: unknown command "xyzzy" (try: actguy help)');
  });
});

// The bundle itself, run in the scratch folder: a value taken wrongly would be written there as a file, not in the repo.
function cli(...args: string[]): { rc: number | null; err: string } {
  const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { rc: r.status, err: r.stderr.split('\n')[0] };
}

describe('an option value is never the next option, nor "-"', () => {
  it('`-o --quiet` is a missing value, not an output called --quiet', () => {
    expect(cli('compress', 'walk.mtn', '-o', '--quiet')).toEqual({
      rc: 2,
      err: 'actguy compress: option -o needs a value, got the option "--quiet"',
    });
    expect(cli('compress', 'walk.mtn', '-o')).toEqual({ rc: 2, err: 'actguy compress: option -o needs a value' });
    // A negative number (one dash) is still a value, refused by the option's own rule; `=` takes anything.
    expect(cli('compress', 'walk.mtn', '-o', 'n.mt3', '--pos-tol', '-1')).toEqual({
      rc: 2,
      err: 'actguy compress: --pos-tol must be >= 0, got -1',
    });
    expect(parseArgs(['--out=--x'], ['o'], [], { out: 'o' }).options.get('o')).toBe('--x');
    expect(readdirSync(dir).sort()).toEqual(['walk.mtn']);
  });

  // Mutation: stringOption's empty-value check removed: compress writes n.mt3 and no report, exit 0.
  it('an empty value (`--report "$UNSET"`) is refused, not taken as the option left out', () => {
    for (const report of [['--report='], ['--report', '']])
      expect(cli('compress', 'walk.mtn', '-o', 'n.mt3', ...report)).toEqual({
        rc: 2,
        err: 'actguy compress: option --report needs a value, got an empty one',
      });
    expect(cli('build', 'p.actguy.json', '--cache', '').err).toBe(
      'actguy build: option --cache needs a value, got an empty one',
    );
    expect(cli('compress', 'walk.mtn', '-o', '').err).toBe(
      'actguy compress: option -o needs a value, got an empty one',
    );
    // A number keeps its own message (docs/cli.md, Numbers).
    expect(cli('compress', 'walk.mtn', '-o', 'n.mt3', '--pos-tol=').err).toBe(
      'actguy compress: option --pos-tol needs a number, got ""',
    );
    expect(readdirSync(dir).sort()).toEqual(['walk.mtn']);
  });

  it('`-o -` and an input `-` are refused (no stdin or stdout), not read or written as a file called -', () => {
    const said =
      'actguy reads and writes named files, not standard input or output; name a file (./- for a file called -)';
    expect(cli('compress', 'walk.mtn', '-o', '-')).toEqual({
      rc: 2,
      err: `actguy compress: the value of -o is "-": ${said}`,
    });
    expect(cli('import', 'walk.bvh', '--out=-').err).toContain('the value of -o is "-"');
    expect(cli('info', '-')).toEqual({ rc: 2, err: `actguy info: an argument is "-": ${said}` });
    expect(readdirSync(dir).sort()).toEqual(['walk.mtn']);
    // After `--` a `-` is still refused: it is no file name a user means either.
    expect(() => parseArgs(['--', '-'], [])).toThrow('an argument is "-"');
  });
});

describe('numbers', () => {
  it('--jobs takes digits only, as --budget: hex, exponent, blanks and fractions are refused', () => {
    const jobs = (v: string) => jobsOption(parseArgs(['--jobs', v], ['jobs']));
    for (const v of ['0x10', '1e1', ' 2', '2.0', '+2', '0b11', '0', '257'])
      expect(() => jobs(v), JSON.stringify(v)).toThrow('--jobs needs a whole number from 1 to 256');
    expect(jobs('2')).toBe(2);
    expect(jobs('016')).toBe(16);
    expect(jobs('256')).toBe(256);
  });
});

describe('a folder where a file is read', () => {
  it('info DIR says it is a folder in words, naming the path', async () => {
    const folder = join(dir, 'a folder');
    mkdirSync(folder);
    try {
      expect(await runCli(['info', folder])).toBe(1);
      expect(err).toEqual([`actguy info: ${folder}: is a directory, not a file`]);
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});

// Mutation: build.ts and import.ts back to `Boolean(process.stdout.isTTY)`, or liveTerminal's TERM check removed:
// TERM=dumb gets `\r ESC[K` on every motion and file.
describe('progress on a terminal that draws no escapes (TERM=dumb)', () => {
  const BVH = [
    'HIERARCHY',
    'ROOT Hips',
    '{',
    '  OFFSET 0 0 0',
    '  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
    '  JOINT Spine',
    '  {',
    '    OFFSET 0 10 0',
    '    CHANNELS 3 Zrotation Xrotation Yrotation',
    '    End Site',
    '    {',
    '      OFFSET 0 10 0',
    '    }',
    '  }',
    '}',
    'MOTION',
    'Frames: 3',
    'Frame Time: 0.0333333',
    '0 0 0 0 0 0 0 0 0',
    '1 0 0 0 0 0 0 5 0',
    '2 0 0 0 0 0 0 10 0',
    '',
  ].join('\n');

  it('liveTerminal: a terminal, and not TERM=dumb', () => {
    expect(liveTerminal({ isTTY: true }, { TERM: 'xterm-256color' })).toBe(true);
    expect(liveTerminal({ isTTY: true }, {})).toBe(true);
    expect(liveTerminal({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(liveTerminal({ isTTY: false }, { TERM: 'xterm' })).toBe(false);
    expect(liveTerminal({}, { TERM: 'xterm' })).toBe(false);
  });

  it('build and a batch import print plain lines there, and the live bar on another terminal', () => {
    const work = mkdtempSync(join(tmpdir(), 'actguy-dumb-term-'));
    try {
      copyFileSync(join(dir, 'walk.mtn'), join(work, 'walk.mtn'));
      writeFileSync(
        join(work, 'p.actguy.json'),
        JSON.stringify({
          version: 1,
          motions: [{ name: 'walk', mtn: 'walk.mtn' }],
          outputs: { mar: 'o/p.mar', sar: 'o/p.sar' },
        }),
      );
      for (const f of ['a.bvh', 'b.bvh']) writeFileSync(join(work, f), BVH);
      // stdout a pipe that says it is a terminal, as a CI agent's pseudo-terminal is.
      const tty = join(work, 'tty.cjs');
      writeFileSync(tty, "Object.defineProperty(process.stdout, 'isTTY', { value: true });\n");
      const run = (term: string, ...args: string[]) => {
        const r = spawnSync(
          process.execPath,
          ['-r', tty, join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs'), ...args],
          {
            cwd: work,
            encoding: 'utf8',
            timeout: 60_000,
            env: { ...process.env, TERM: term },
          },
        );
        expect(r.status, r.stderr).toBe(0);
        return r.stdout;
      };
      const build = ['build', 'p.actguy.json', '--no-cache', '--jobs', '1'];
      const batch = (out: string) => ['import', 'a.bvh', 'b.bvh', '-o', out];
      expect(run('dumb', ...build)).toMatch(/^\[1\/1\] walk: \d+ keys/);
      expect(run('dumb', ...batch('dumb'))).toMatch(/^\[1\/2\] a; /);
      for (const out of [run('dumb', ...build), run('dumb', ...batch('dumb2'))]) expect(out).not.toContain('\x1b');
      expect(run('xterm', ...build)).toContain('\r\x1b[K[');
      expect(run('xterm', ...batch('xterm'))).toContain('\r\x1b[K[');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
