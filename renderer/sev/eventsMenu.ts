/**
 * The Events menu in the renderer: which of its commands can run now, and running them with the same store
 * actions as the SEV editor's buttons and event keys (one undo step each). The native menu greys out what
 * disabledEventsCommands lists (the renderer reports it with the document state); the in-app menu bar reads the
 * same availability.
 */
import { EVENTS_MENU_COMMANDS, type EventsMenuCommand } from '../../shared/eventsMenu';
import { documentStore } from '../state/documentStore';
import { saveSev } from '../project/projectActions';
import { events, footsteps, ses } from './sevActions';
import { sevBelongsTo } from './sevMotion';
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

/** Runs an Events command with the editor's own action. */
export async function runEventsCommand(command: EventsMenuCommand): Promise<void> {
  switch (command) {
    case 'events.addAtPlayhead': return events.addAtPlayhead();
    case 'events.suggestFootsteps': return footsteps.suggest();
    case 'events.cut': return events.cutSelected();
    case 'events.copy': return void events.copySelected();
    case 'events.paste': return events.pasteAtPlayhead();
    case 'events.delete': return events.removeSelected();
    case 'events.selectAll': return events.selectAll();
    case 'events.nudgeEarlier': return events.nudgeSelected(-1);
    case 'events.nudgeLater': return events.nudgeSelected(1);
    case 'events.addSe': return ses.add();
    case 'events.saveSev': return void (await saveSev());
    default: {
      const never: never = command;
      return never;
    }
  }
}
