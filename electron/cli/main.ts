import { version } from '../../package.json';
import { FormatError } from '../../shared/errors';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { commands } from './registry';

/** `actguy help`: every command on one line (name and summary), then how to get a command's options. */
export function commandList(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: actguy <command> [options]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "actguy <command> --help: the command's options · actguy --version: the version",
  ].join('\n');
}

/** `actguy COMMAND --help`: its usage line and what it does. */
export function commandHelp(cmd: CliCommand): string {
  return `usage: actguy ${cmd.usage}\n\n${cmd.summary}`;
}

const isHelp = (a: string): boolean => a === '--help' || a === '-h';

/** Runs the CLI on argv (without node and the script); returns the exit status. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(`actguy ${version}`);
    return 0;
  }
  if (!name || name === 'help' || isHelp(name)) {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    if (name === 'help' && rest[0] && !topic) {
      console.error(`actguy help: unknown command ${JSON.stringify(rest[0])}`);
      console.log(commandList());
      return 2;
    }
    console.log(topic ? commandHelp(topic) : commandList());
    return name ? 0 : 2;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    console.error(`actguy: unknown command ${JSON.stringify(name)} (try: actguy help)`);
    return 2;
  }
  // `--help` anywhere before a `--` asks for help, whatever else the line holds.
  const ddash = rest.indexOf('--');
  if ((ddash < 0 ? rest : rest.slice(0, ddash)).some(isHelp)) {
    console.log(commandHelp(cmd));
    return 0;
  }
  try {
    return await cmd.run([...rest]);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`actguy ${name}: ${e.message}\nusage: actguy ${cmd.usage}`);
      return 2;
    }
    if (e instanceof FormatError) {
      console.error(`actguy ${name}: ${e.message}`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    // A raw Node error (`ENOENT: ..., open 'x'`) gets words; one of ours (`cannot write x: ...`) already has them.
    if (err && typeof err.code === 'string' && err.path && err.message.startsWith(`${err.code}:`)) {
      console.error(`actguy ${name}: ${err.path}: ${describeFsError(err)}`);
      return 1;
    }
    console.error(`actguy ${name}: ${err?.message ?? String(e)}`);
    return 1;
  }
}

function describeFsError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a path component is not a directory';
    default:
      return err.message;
  }
}
