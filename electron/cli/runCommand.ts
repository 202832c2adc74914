import { FormatError } from '../../shared/errors';
import { UsageError } from './args';
import { EXIT_FAILED, EXIT_USAGE, type CliCommand } from './command';
import { describeFsError } from '../fsErrors';
import { errorDocument, printJson, wantsJson } from './json';

/**
 * Runs one command and turns what it throws into a message on stderr and the exit status (EXIT_USAGE for a usage
 * error, EXIT_FAILED otherwise). The lazy commands chunk (moreCommands.ts) carries its own copy of this function with
 * its own copies of the error classes, so each command's errors are told apart by the classes of the bundle that
 * threw them.
 */
export async function runCommand(cmd: CliCommand, argv: string[]): Promise<number> {
  try {
    return await cmd.run(argv);
  } catch (e) {
    const { text, status } = commandError(cmd, e);
    console.error(text);
    // --json: the error is the one document on stdout too (json.ts), with the same status.
    if (wantsJson(argv) && cmd.json) printJson(errorDocument(e, cmd.usage, text));
    return status;
  }
}

/** What runCommand prints for an error a command threw, and the exit status (also `build --watch`'s, per build). */
export function commandError(cmd: CliCommand, e: unknown): { text: string; status: number } {
  if (e instanceof UsageError)
    return { text: `actguy ${cmd.name}: ${e.message}\nusage: actguy ${cmd.usage}`, status: EXIT_USAGE };
  if (e instanceof FormatError) return { text: `actguy ${cmd.name}: ${e.message}`, status: EXIT_FAILED };
  const err = e as NodeJS.ErrnoException;
  // A raw Node error (`ENOENT: ..., open 'x'`) gets words; one of ours (`cannot write x: ...`) already has them.
  if (err && typeof err.code === 'string' && err.path && err.message.startsWith(`${err.code}:`))
    return { text: `actguy ${cmd.name}: ${err.path}: ${describeFsError(err)}`, status: EXIT_FAILED };
  return { text: `actguy ${cmd.name}: ${err?.message ?? String(e)}`, status: EXIT_FAILED };
}
