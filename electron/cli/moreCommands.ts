/**
 * Every command but compress: the CLI's lazy chunk (scripts/lazyChunks.mjs, docs/compression.md#cli-start-up),
 * loaded only through registry.ts's dynamic import, so `actguy compress` (run once per file) neither parses nor
 * sets up the project build, its worker pool, the importers or the archive readers. Only argv goes in and an exit
 * status comes out: the chunk runs its commands with its own runCommand.
 */
import type { CliCommand } from './command';
import { buildCommand } from './commands/build';
import { checkSevCommand } from './commands/check-sev';
import { decompressCommand } from './commands/decompress';
import { exportGltfCommand } from './commands/export-gltf';
import { exportMshCommand } from './commands/export-msh';
import { importCommand } from './commands/import';
import { infoCommand } from './commands/info';
import { packMarCommand } from './commands/packMar';
import { packSarCommand } from './commands/pack-sar';
import { unpackMarCommand } from './commands/unpackMar';

export { runCommand } from './runCommand';
// The paths the command took, for the code cache of the chunk (registry.ts, codeCache.ts).
export { codePathsRun } from './codePaths';
// A long motion's compression in a worker thread, for compress (in the bundle) to load with this chunk.
export { compressOffThread } from '../build/compressPool';

/** In the order `actguy help` lists them, after compress. */
export const moreCommands: CliCommand[] = [
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
