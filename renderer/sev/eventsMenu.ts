/**
 * The Events menu in the renderer: which of its commands can run now, and running them with the same store
 * actions as the SEV editor's buttons and event keys (one undo step each). The native menu greys out what
 * disabledEventsCommands lists (the renderer reports it with the document state); the in-app menu bar reads the
 * same availability.
 */
import { EVENTS_MENU_COMMANDS, type EventsMenuCommand } from '../../shared/eventsMenu';
import { documentStore } from '../state/documentStore';
import { basenameOf } from '../../shared/project/paths';
import { registerCommands } from '../app/commandRegistry';
import { registerSavablePart } from '../app/savableParts';
import { events, footsteps, ses } from './sevActions';
import { sevBelongsTo } from './sevBinding';
import { saveSev } from './sevFiles';
import { openSevDialog } from './sevMotion';
import { isSevDirty, sevStore } from './sevStore';

/** Whether each Events command can run now: the editor shows the open .sev against its own motion, and what the command acts on exists. */
export function eventsCommandsEnabled(): Record<EventsMenuCommand, boolean> {
  const s = sevStore.getState();
  const doc = s.file?.doc ?? null;
  const tuner = documentStore.getState();
  // Edits need the .sev shown against its own motion (the editor hides another motion's events).
  const own = !!doc && !!tuner.motion && sevBelongsTo(s.file, tuner);
  const selected = own && s.selectedEvents.length > 0;
  return {
    'events.addAtPlayhead': own && doc.ses.length > 0,
    'events.suggestFootsteps': own,
    'events.cut': selected,
    'events.copy': selected,
    'events.paste': own && s.clipboard !== null,
    'events.delete': selected,
    'events.selectAll': own && doc.events.length > 0,
    'events.nudgeEarlier': selected,
    'events.nudgeLater': selected,
    'events.addSe': own,
    // A parked .sev (another motion's) can still be saved, as its banner offers.
    'events.saveSev': !!doc && isSevDirty(s.file),
  };
}

/** The Events commands that cannot run now, in menu order. */
export function disabledEventsCommands(): EventsMenuCommand[] {
  const enabled = eventsCommandsEnabled();
  return EVENTS_MENU_COMMANDS.filter((c) => !enabled[c]);
}

/** Each Events command's action: the editor's own, one undo step each. */
const EVENTS_ACTIONS: Record<EventsMenuCommand, () => unknown> = {
  'events.addAtPlayhead': () => events.addAtPlayhead(),
  'events.suggestFootsteps': () => footsteps.suggest(),
  'events.cut': () => events.cutSelected(),
  'events.copy': () => void events.copySelected(),
  'events.paste': () => events.pasteAtPlayhead(),
  'events.delete': () => events.removeSelected(),
  'events.selectAll': () => events.selectAll(),
  'events.nudgeEarlier': () => events.nudgeSelected(-1),
  'events.nudgeLater': () => events.nudgeSelected(1),
  'events.addSe': () => ses.add(),
  'events.saveSev': () => saveSev(),
};

/** Runs an Events command with the editor's own action. */
export async function runEventsCommand(command: EventsMenuCommand): Promise<void> {
  await EVENTS_ACTIONS[command]();
}

/**
 * The SEV editor's commands (the Events menu and File › Open .sev…) and its savable part, the open .sev:
 * registered at start-up (renderer/app/features.ts).
 */
export function registerSevCommands(): void {
  registerCommands([
    ...EVENTS_MENU_COMMANDS.map((id) => ({
      id,
      run: () => runEventsCommand(id),
      enabled: () => eventsCommandsEnabled()[id],
    })),
    { id: 'sev.open', run: () => openSevDialog() },
  ]);
  registerSavablePart({
    part: 'sev',
    isDirty: () => isSevDirty(sevStore.getState().file),
    name: () => basenameOf(sevStore.getState().file!.path),
    save: () => saveSev(),
  });
}
