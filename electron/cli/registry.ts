import { join } from 'node:path';
import type { CliCommand } from './command';
import { compressCommand } from './commands/compress';
import { runCommand } from './runCommand';

/** Commands and the runner from the same bundle (a chunk's commands throw its own copies of our error classes). */
interface CommandSet {
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
/** Writes the chunk's code cache for the next run of the command (codeCache.ts), when this run did not use one. */
let saveCodeCache: (() => boolean) | undefined;

/**
 * The chunk beside the built CLI, compiled for `build` with the code cache of its last run (codeCache.ts); for the
 * other commands, and where there is no such file (the sources run by the tests), the import loads the module itself.
 */
async function chunkModule(command: string): Promise<typeof import('./moreCommands')> {
  // Only for `build`, which keeps its state in that folder anyway: the other commands neither make nor read it.
  if (command !== 'build') return import('./moreCommands');
  // Imported here, not at the top: what it imports (node:crypto, the state folder's checks) is no part of a compress
  // process (lazyChunks.test.ts).
  const { defaultStateDir, loadChunkWithCodeCache } = await import('./codeCache');
  let loaded: ReturnType<typeof loadChunkWithCodeCache> | undefined;
  try {
    loaded = loadChunkWithCodeCache(join(__dirname, 'cliCommands.cjs'), defaultStateDir(), command);
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT') throw e;
  }
  if (!loaded) return import('./moreCommands');
  const chunk = loaded.exports as typeof import('./moreCommands');
  const { save } = loaded;
  // Named with the paths the command took, so that a cache made on other paths is written again (codeCache.ts).
  saveCodeCache = () => save(chunk.codePathsRun());
  return chunk;
}

/**
 * After the command: the code cache for its next run, written only when this run had none it could use or took a
 * path the one it used was not made on.
 */
export function saveCommandsCodeCache(): void {
  saveCodeCache?.();
  saveCodeCache = undefined;
}

/** The lazy chunk's commands; a chunk missing beside the bundle is an error naming it. */
function loadMoreCommands(command = 'help'): Promise<CommandSet> {
  more ??= chunkModule(command).then(
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
  const set = await loadMoreCommands(name);
  const cmd = set.commands.find((c) => c.name === name);
  return cmd && { cmd, set };
}

/** Every command, in the order `actguy help` lists them (loads the chunk). */
export async function allCommands(): Promise<CliCommand[]> {
  return [...inBundle.commands, ...(await loadMoreCommands()).commands];
}
