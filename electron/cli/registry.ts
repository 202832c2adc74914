import type { CliCommand } from './command';
import { compressCommand } from './commands/compress';
import { checkSevCommand } from './commands/check-sev';
import { packSarCommand } from './commands/pack-sar';
import { buildCommand } from './commands/build';

/**
 * Every subcommand of the actguy CLI. Add a command by creating
 * `commands/<name>.ts` exporting a CliCommand and listing it here.
 */
export const commands: CliCommand[] = [
  compressCommand,
  checkSevCommand,
  packSarCommand,
  buildCommand,
];
