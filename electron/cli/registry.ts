import type { CliCommand } from './command';
import { compressCommand } from './commands/compress';

/**
 * Every subcommand of the actguy CLI. Add a command by creating
 * `commands/<name>.ts` exporting a CliCommand and listing it here.
 */
export const commands: CliCommand[] = [
  compressCommand,
];
