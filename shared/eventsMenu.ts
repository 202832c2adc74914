/**
 * The Events menu: the SEV editor's actions on the open .sev (its buttons and its event keys), in the order both
 * menus show them. The native menu (electron/menu.ts) and the in-app menu bar (renderer/components/MenuBar.tsx)
 * read this one list, so they offer the same items; the renderer runs each command with the same store action
 * as the editor's button or key (one undo step each) and says which cannot run now.
 */
import type { MenuCommandId } from './ipc/menu';
import type { EventAction } from './shortcuts';

export type EventsMenuCommand = Extract<MenuCommandId, `events.${string}`>;

export interface EventsMenuItem {
  command: EventsMenuCommand;
  label: string;
  /** The event key that does the same in the event list or event row (EVENT_SHORTCUTS), shown as a hint. */
  key?: EventAction;
}

export const EVENTS_MENU: readonly (EventsMenuItem | 'separator')[] = [
  { command: 'events.addAtPlayhead', label: 'Add Event at Playhead' },
  { command: 'events.suggestFootsteps', label: 'Suggest Footsteps…' },
  'separator',
  { command: 'events.cut', label: 'Cut Events', key: 'cutEvents' },
  { command: 'events.copy', label: 'Copy Events', key: 'copyEvents' },
  { command: 'events.paste', label: 'Paste Events at Playhead', key: 'pasteEvents' },
  { command: 'events.delete', label: 'Delete Events', key: 'deleteEvents' },
  { command: 'events.selectAll', label: 'Select All Events', key: 'selectAllEvents' },
  'separator',
  { command: 'events.nudgeEarlier', label: 'Nudge Events 1 Frame Earlier', key: 'nudgeEventsBack' },
  { command: 'events.nudgeLater', label: 'Nudge Events 1 Frame Later', key: 'nudgeEventsForward' },
  'separator',
  { command: 'events.addSe', label: 'Add SE Definition' },
  { command: 'events.saveSev', label: 'Save .sev' },
];

/** Every command of the Events menu. */
export const EVENTS_MENU_COMMANDS: readonly EventsMenuCommand[] = EVENTS_MENU.flatMap((e) =>
  e === 'separator' ? [] : [e.command],
);

export function isEventsMenuCommand(command: string): command is EventsMenuCommand {
  return (EVENTS_MENU_COMMANDS as readonly string[]).includes(command);
}
