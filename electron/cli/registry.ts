import type { CliCommand } from './command';
import { compressCommand } from './commands/compress';
import { decompressCommand } from './commands/decompress';
import { infoCommand } from './commands/info';
import { packMarCommand } from './commands/packMar';
import { unpackMarCommand } from './commands/unpackMar';
import { checkSevCommand } from './commands/check-sev';
import { packSarCommand } from './commands/pack-sar';
import { buildCommand } from './commands/build';
import { importCommand } from './commands/import';
import { exportGltfCommand } from './commands/export-gltf';
import { exportMshCommand } from './commands/export-msh';

/**
 * Every subcommand of the actguy CLI. Add a command by creating
 * `commands/<name>.ts` exporting a CliCommand and listing it here.
 */
export const commands: CliCommand[] = [
  compressCommand,
  decompressCommand,
  packMarCommand,
  unpackMarCommand,
  infoCommand,
  checkSevCommand,
  packSarCommand,
  buildCommand,
  importCommand,
  exportGltfCommand,
  exportMshCommand,
];
