/**
 * Start-up: each feature registers its commands and savable parts (renderer/app/commandRegistry.ts,
 * renderer/app/savableParts.ts). Called once by renderer/main.tsx before any command can run, and by tests.
 */
import { registerCommands, hasCommands } from './commandRegistry';
import { registerAppCommands } from './appCommands';
import { openSystemFile } from './commands';
import { registerProjectCommands } from '../project/projectCommands';
import { registerSevCommands } from '../sev/eventsMenu';

/** Registers every feature's commands and savable parts; a second call does nothing. */
export function registerFeatures(): void {
  if (hasCommands()) return;
  registerAppCommands();
  registerProjectCommands();
  registerSevCommands();
  registerCommands([
    { id: 'file.openFromSystem', run: (cmd) => (cmd.path ? openSystemFile(cmd.path, cmd.projectPath) : undefined) },
  ]);
}
