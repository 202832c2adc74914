import type { CliCommand } from './command';
import { compressCommand } from './commands/compress';
import { runCommand } from './runCommand';

/** Commands and the runner from the same bundle (a chunk's commands throw its own copies of our error classes). */
export interface CommandSet {
  commands: readonly CliCommand[];
  run: (cmd: CliCommand, argv: string[]) => Promise<number>;
}

/**
 * Every subcommand of the actguy CLI. compress lives in the CLI bundle itself: it runs once per file, so its
 * process loads nothing more. The others are in the lazy chunk moreCommands.ts (cliCommands.cjs beside the
 * bundle), loaded by the first command that needs it. Add a command by creating `commands/<name>.ts` exporting a
 * CliCommand and listing it in moreCommands.ts.
 */
const inBundle: CommandSet = { commands: [compressCommand], run: runCommand };

let more: Promise<CommandSet> | undefined;

/** The lazy chunk's commands; a chunk missing beside the bundle is an error naming it. */
function loadMoreCommands(): Promise<CommandSet> {
  more ??= import('./moreCommands').then(
    (m) => ({ commands: m.moreCommands, run: m.runCommand }),
    (e: unknown) => {
      more = undefined;
      throw new Error(
        `cannot load the CLI's commands chunk (cliCommands.cjs, beside the actguy bundle): ${(e as Error)?.message ?? String(e)}`,
      );
    },
  );
  return more;
}

/** The command named `name` and the runner of its bundle; undefined for a name no command has. compress is found without loading the chunk. */
export async function findCommand(name: string): Promise<{ cmd: CliCommand; set: CommandSet } | undefined> {
  const own = inBundle.commands.find((c) => c.name === name);
  if (own) return { cmd: own, set: inBundle };
  const set = await loadMoreCommands();
  const cmd = set.commands.find((c) => c.name === name);
  return cmd && { cmd, set };
}

/** Every command, in the order `actguy help` lists them (loads the chunk). */
export async function allCommands(): Promise<CliCommand[]> {
  return [...inBundle.commands, ...(await loadMoreCommands()).commands];
}
