/** The CLI's conventions: --version, help listing every command on one line, COMMAND --help / -h, exit codes. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { version } from '../../package.json';
import { runCli } from './main';
import { numberOption, parseArgs } from './args';
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
    expect(await said(['build', 'p.actguy.json', '--jobs', 'many\u009b'])).toContain(
      '--jobs needs a whole number from 1 to 256, got "many\\u009b"',
    );
    expect(await said(['build', 'p.actguy.json', '--budget', '1\u009b'])).toContain(
      '--budget needs a whole number of bytes from 1 to 4294967295, got "1\\u009b"',
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
