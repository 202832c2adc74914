/**
 * docs/cli.md against the code: every option a command parses is in its `--help` usage line and in the synopsis at
 * the top of docs/cli.md, and every option the synopsis names exists. Found missing before (the CLI tried cold,
 * 2026-12-04): compress's and check-sev's --quiet in their usage; export-gltf's --scale, --name, --no-mesh and info's
 * --names, --skeleton, --sls, --se-define, --project in the synopsis.
 *
 * The options are read from each command's one parseArgs call (valued, switches, aliases), so a new option is caught
 * here until both places name it. Mutation: `[--quiet]` removed from compress's usage, or `[--no-mesh]` from the
 * synopsis, fails it; so does a made-up `[--frobnicate]` added to the synopsis.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCommands } from './registry';
import { flagName } from './args';

const root = join(__dirname, '..', '..');
const quoted = (list: string | undefined) => [...(list ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);

/** Each command's option names, from the source of commands/*.ts: `parseArgs(argv, [valued], [switches], {aliases})`. */
function parsedOptions(): Map<string, string[]> {
  const byCommand = new Map<string, string[]>();
  const dir = join(__dirname, 'commands');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const src = readFileSync(join(dir, f), 'utf8');
    const name = /name: '([a-z-]+)'/.exec(src)?.[1];
    const call = /parseArgs\(\s*argv,\s*\[([^\]]*)\](?:,\s*\[([^\]]*)\])?/.exec(src);
    expect(name && call, `${f}: one command with a parseArgs(argv, [...], [...]) call`).toBeTruthy();
    byCommand.set(name!, [...quoted(call![1]), ...quoted(call![2])]);
  }
  return byCommand;
}

/** The flags a line names: `-o`, `--pos-tol`, … (not `--` alone). */
const flagsIn = (line: string) => new Set([...line.matchAll(/(?<![\w-])(--?[a-z][a-z0-9-]*)/g)].map((m) => m[1]));

/** The synopsis block at the top of docs/cli.md: its lines per command. */
function synopsis(): Map<string, string> {
  const doc = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
  const block = /```\n(actguy compress[\s\S]*?)```/.exec(doc)![1];
  const lines = new Map<string, string>();
  for (const line of block.split('\n')) {
    const m = /^actguy ([a-z-]+) /.exec(line);
    if (m) lines.set(m[1], `${lines.get(m[1]) ?? ''} ${line}`);
  }
  return lines;
}

describe('docs/cli.md and --help name every option, and only options that exist', () => {
  it('each command', async () => {
    const options = parsedOptions();
    const docs = synopsis();
    const commands = await allCommands();
    expect([...options.keys()].sort()).toEqual(commands.map((c) => c.name).sort());
    for (const cmd of commands) {
      const flags = options.get(cmd.name)!.map(flagName);
      const usage = flagsIn(cmd.usage);
      const documented = flagsIn(docs.get(cmd.name) ?? '');
      for (const flag of flags) {
        expect(usage.has(flag), `${cmd.name} --help names ${flag}`).toBe(true);
        expect(documented.has(flag), `docs/cli.md synopsis of ${cmd.name} names ${flag}`).toBe(true);
      }
      for (const flag of [...usage, ...documented])
        expect(flags, `${cmd.name}: ${flag} is documented; does it exist?`).toContain(flag);
    }
  });
});
