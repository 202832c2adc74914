import { FormatError } from '../../shared/errors';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { describeFsError } from '../fsErrors';

/**
 * Runs one command and turns what it throws into a message on stderr and the exit status (2 for a usage error, 1
 * otherwise). The lazy commands chunk (moreCommands.ts) carries its own copy of this function with its own copies of
 * the error classes, so each command's errors are told apart by the classes of the bundle that threw them.
 */
export async function runCommand(cmd: CliCommand, argv: string[]): Promise<number> {
  try {
    return await cmd.run(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`actguy ${cmd.name}: ${e.message}\nusage: actguy ${cmd.usage}`);
      return 2;
    }
    if (e instanceof FormatError) {
      console.error(`actguy ${cmd.name}: ${e.message}`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    // A raw Node error (`ENOENT: ..., open 'x'`) gets words; one of ours (`cannot write x: ...`) already has them.
    if (err && typeof err.code === 'string' && err.path && err.message.startsWith(`${err.code}:`)) {
      console.error(`actguy ${cmd.name}: ${err.path}: ${describeFsError(err)}`);
      return 1;
    }
    console.error(`actguy ${cmd.name}: ${err?.message ?? String(e)}`);
    return 1;
  }
}
