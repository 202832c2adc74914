import { version } from '../../package.json';
import { quoteJson } from '../../shared/errors';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliCommand } from './command';
import { allCommands, findCommand, saveCommandsCodeCache } from './registry';
import { closestName } from './args';

/** `actguy help`: every command on one line (name and summary), then how to get a command's options. */
export function commandList(commands: readonly CliCommand[]): string {
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
    return EXIT_OK;
  }
  let found: Awaited<ReturnType<typeof findCommand>>;
  try {
    if (!name || name === 'help' || isHelp(name)) {
      const commands = await allCommands();
      const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
      if (name === 'help' && rest[0] && !topic) {
        const meant = closestName(
          rest[0],
          commands.map((c) => c.name),
        );
        console.error(`actguy help: unknown command ${quoteJson(rest[0])}${meant ? ` (did you mean ${meant}?)` : ''}`);
        console.log(commandList(commands));
        return EXIT_USAGE;
      }
      console.log(topic ? commandHelp(topic) : commandList(commands));
      return name ? EXIT_OK : EXIT_USAGE;
    }
    found = await findCommand(name);
  } catch (e) {
    // The commands chunk could not be loaded (registry.ts says which file).
    console.error(`actguy ${name ?? 'help'}: ${(e as Error)?.message ?? String(e)}`);
    return EXIT_FAILED;
  }
  if (!found) {
    // A misspelt command (`compres`, `pack_mar`, `Build`) is named, as a misspelt option is (args.ts).
    const meant = closestName(
      name,
      (await allCommands().catch(() => [])).map((c) => c.name),
    );
    console.error(
      `actguy: unknown command ${quoteJson(name)} (${meant ? `did you mean ${meant}? ` : ''}try: actguy help)`,
    );
    return EXIT_USAGE;
  }
  const { cmd, set } = found;
  // `--help` anywhere before a `--` asks for help, whatever else the line holds.
  const ddash = rest.indexOf('--');
  if ((ddash < 0 ? rest : rest.slice(0, ddash)).some(isHelp)) {
    console.log(commandHelp(cmd));
    return EXIT_OK;
  }
  const status = await set.run(cmd, [...rest]);
  saveCommandsCodeCache();
  return status;
}
