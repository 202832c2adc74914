/** The CLI's conventions: --version, help listing every command on one line, COMMAND --help / -h, exit codes. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { version } from '../../package.json';
import { runCli } from './main';
import { numberOption, parseArgs, refuseHiddenCharacters } from './args';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quoteJson } from '../../shared/errors';
import type { CliCommand } from './command';
import { jointOverrides } from './commands/compress';
import { allCommands } from './registry';

let out: string[];
let err: string[];
let commands: CliCommand[];
beforeEach(async () => {
  commands = await allCommands();
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

const stdout = () => out.join('\n');

describe('actguy CLI conventions', () => {
  it('answers --version and -V with the package version and exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      out = [];
      expect(await runCli([flag])).toBe(0);
      expect(stdout()).toBe(`actguy ${version}`);
    }
    expect(err).toEqual([]);
  });

  it('help lists every command on exactly one line with its summary, exit 0', async () => {
    expect(await runCli(['help'])).toBe(0);
    const lines = stdout().split('\n');
    for (const c of commands) {
      const mine = lines.filter((l) => l.trim().split(/\s+/)[0] === c.name);
      expect(mine, c.name).toHaveLength(1);
      expect(mine[0]).toContain(c.summary);
    }
    // --help and -h alone are the same list.
    for (const flag of ['--help', '-h']) {
      out = [];
      expect(await runCli([flag])).toBe(0);
      expect(stdout()).toBe(lines.join('\n'));
    }
  });

  it('COMMAND --help and -h print its usage and exit 0 without running it', async () => {
    for (const c of commands) {
      for (const flag of ['--help', '-h']) {
        out = [];
        // Other arguments (a missing input, an unknown option) do not matter once help is asked for.
        expect(await runCli([c.name, 'missing-input.xyz', flag]), `${c.name} ${flag}`).toBe(0);
        expect(stdout()).toContain(`usage: actguy ${c.usage}`);
        expect(stdout()).toContain(c.summary);
      }
    }
    expect(err).toEqual([]);
    out = [];
    expect(await runCli(['help', 'compress'])).toBe(0);
    expect(stdout()).toContain('usage: actguy compress IN.mtn');
  });

  it('an unknown command or option still fails with exit 2 and says so', async () => {
    expect(await runCli(['--versio'])).toBe(2);
    expect(err.join('\n')).toMatch(/unknown command "--versio"/);
    err = [];
    expect(await runCli(['compress', '--nope'])).toBe(2);
    expect(err.join('\n')).toMatch(/unknown option "--nope"\nusage: actguy compress/);
    expect(await runCli([])).toBe(2);
    expect(await runCli(['help', 'nope'])).toBe(2);
  });

  it("quotes the user's value in an argument error as the rest of ActGuy does: control characters escaped, clipped", async () => {
    // U+009B is a terminal's CSI: JSON.stringify leaves it as it is, quoteJson (shared/errors.ts) escapes it.
    const said = async (argv: string[]): Promise<string> => {
      err = [];
      expect(await runCli(argv)).toBe(2);
      return err.join('\n');
    };
    expect(await said(['ver\u009bsion'])).toContain('actguy: unknown command "ver\\u009bsion" (try: actguy help)');
    expect(await said(['help', 'x\u001b[2J'])).toContain('actguy help: unknown command "x\\u001b[2J"');
    expect(await said(['compress', '--no\u0007pe\u009b'])).toContain('unknown option "--no\\u0007pe\\u009b"');
    // An option's value holding a control character is refused as such (round 11), quoted escaped.
    expect(await said(['build', 'p.actguy.json', '--jobs', 'many\u009b'])).toContain(
      'argument "many\\u009b" holds a control character',
    );
    expect(await said(['build', 'p.actguy.json', '--budget', '1\u009b'])).toContain(
      'argument "1\\u009b" holds a control character',
    );
    // A huge value is clipped, and says how long it was.
    expect(await said(['info', 'x.mtn', '--fps', `${'9'.repeat(500)}x`])).toContain(
      `option --fps needs a number, got "${'9'.repeat(39)}… (503 characters)`,
    );
    expect(() => jointOverrides('3=0.2,7=\u009b')).toThrow('--joint-rot-tol entry "7=\\u009b" is not JOINT=DEGREES');
  });

  it('a number option is a decimal number: an empty or blank value, or a hex one, is refused, not read as 0 or 16', () => {
    // Number('') is 0: `--pos-tol "$UNSET"` silently asked for tolerance 0 (a key on every frame).
    for (const v of ['', ' ', '\t', '0x10', '0b1', '0o7', '1e', '.', '+']) {
      const args = parseArgs(['--pos-tol', v], ['pos-tol'], []);
      expect(() => numberOption(args, 'pos-tol', 0.5), JSON.stringify(v)).toThrow(
        `option --pos-tol needs a number, got ${quoteJson(v)}`,
      );
    }
    for (const [v, n] of [
      ['0', 0],
      ['-0.5', -0.5],
      ['+2', 2],
      ['.5', 0.5],
      ['5.', 5],
      ['1e-3', 0.001],
      ['2E2', 200],
    ] as const)
      expect(numberOption(parseArgs(['--pos-tol', v], ['pos-tol'], []), 'pos-tol', 9)).toBe(n);
  });
});

// Round 11 (docs/security.md): a received folder or file named with a line break, an ESC sequence or a bidi override.
// Mutation: the `refuseHiddenCharacters(argv)` call in parseArgs removed: the build runs, and its `built …` line and
// every message print the folder's name raw (ESC ]0; sets the terminal's title, the line break forges a line).
describe('arguments and current folder holding hidden characters', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const hostileCopy = (folder: string, file: string) => {
    const top = mkdtempSync(join(tmpdir(), 'actguy-names-'));
    dirs.push(top);
    const dir = join(top, folder);
    mkdirSync(dir);
    for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
      copyFileSync(join(__dirname, '..', '..', 'assets', f), join(dir, f));
    const project = {
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    };
    writeFileSync(join(dir, file), JSON.stringify(project));
    return { dir, project: join(dir, file) };
  };
  // eslint-disable-next-line no-control-regex
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/; // every hidden character but the message's own line breaks

  it('refuses a project path through a folder named with ESC and a line break, escaped, before anything runs', async () => {
    const { dir, project } = hostileCopy('x\u001b]0;owned\u0007\nbuilt 9 motions: ok', 'p.actguy.json');
    expect(await runCli(['build', project])).toBe(2);
    const said = err.join('\n');
    expect(said).toContain('holds a control character');
    expect(said).toContain('x\\u001b]0;owned\\u0007\\nbuilt 9 motions: ok');
    expect(said).not.toMatch(raw);
    expect(said.split('\n').some((l) => l.startsWith('built'))).toBe(false);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('refuses a file named with a bidi override and any option value holding a control character', async () => {
    const { project } = hostileCopy('plain', 'p\u202Enosj.yugtca.json');
    expect(await runCli(['build', project])).toBe(2);
    expect(await runCli(['compress', 'walk.mtn', '-o', 'a\rb.mt3'])).toBe(2);
    expect(err.join('\n')).not.toMatch(raw);
    expect(err.join('\n')).toContain('p\\u202enosj.yugtca.json');
  });

  it('refuses to run in a current folder holding one (relative paths would print it)', () => {
    expect(() => refuseHiddenCharacters(['p.actguy.json'], '/tmp/a\u001b[2Jb')).toThrow(
      /the current folder "\/tmp\/a\\u001b\[2Jb" holds a control character/,
    );
    expect(() => refuseHiddenCharacters(['p.actguy.json', '--jobs', '2'], '/tmp/café')).not.toThrow();
  });

  // Round 54: a project's keys refuse them (shared/project/validate.ts), and so does the command line. Mutation: the
  // check of CONTROL and BIDI_CONTROL alone (round 11's): each argument below is taken.
  it('refuses a zero-width space or joiner, a soft hyphen, U+2028 or a BOM in an argument, quoted escaped; a tab is taken', () => {
    for (const c of ['\u200b', '\u200d', '\u00ad', '\u2028', '\ufeff'])
      expect(() => refuseHiddenCharacters([`cm${c}u_01_01.sev`], '/tmp')).toThrow(
        `argument "cm\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}u_01_01.sev" holds a control character`,
      );
    expect(() => refuseHiddenCharacters(['build'], '/tmp/a\u200bb')).toThrow(/the current folder "\/tmp\/a\\u200bb"/);
    expect(() => refuseHiddenCharacters(['a\tb.sev', 'مشی.mtn', 'cafe\u0301.sev'], '/tmp')).not.toThrow();
  });
});
