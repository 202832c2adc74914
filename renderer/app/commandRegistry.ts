/**
 * The renderer's commands, registered by each feature at start-up (renderer/app/features.ts): what a menu item, a
 * native menu accelerator or a file the OS handed over runs, and whether it can run now. renderer/app/commands.ts
 * runs them (respecting an open modal); the menus read `enabled` to grey out what cannot run. Features never import
 * each other to run a command, which keeps the renderer free of import cycles.
 */
import type { MenuCommand, MenuCommandId } from '../../shared/ipc';

export interface AppCommand {
  id: MenuCommandId;
  /** Runs the command; `cmd` carries its path where it has one (file.openRecent, file.openFromSystem). */
  run(cmd: MenuCommand): void | Promise<unknown>;
  /** Whether it can run now; always when absent. */
  enabled?: () => boolean;
}

const commands = new Map<MenuCommandId, AppCommand>();

/** Registers commands; an id registered twice is a programming error. */
export function registerCommands(list: readonly AppCommand[]): void {
  for (const c of list) {
    if (commands.has(c.id)) throw new Error(`Command ${c.id} is registered twice.`);
    commands.set(c.id, c);
  }
}

/** Runs a registered command (not checking `enabled`: the menus grey out what cannot run, the command itself copes). */
export async function runRegisteredCommand(cmd: MenuCommand): Promise<void> {
  const c = commands.get(cmd.command);
  if (!c) throw new Error(`No command ${cmd.command} is registered.`);
  await c.run(cmd);
}

/** Whether a command can run now. */
export function isCommandEnabled(id: MenuCommandId): boolean {
  return commands.get(id)?.enabled?.() ?? true;
}

/** The commands among `ids` that cannot run now, in the order given. */
export function disabledCommandsAmong<T extends MenuCommandId>(ids: readonly T[]): T[] {
  return ids.filter((id) => !isCommandEnabled(id));
}

/** Whether anything is registered yet (start-up registers once). */
export function hasCommands(): boolean {
  return commands.size > 0;
}

/** Every registered command id. */
export function registeredCommandIds(): MenuCommandId[] {
  return [...commands.keys()];
}
