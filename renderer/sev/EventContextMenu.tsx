import { useEffect, useState } from 'react';
import { EVENTS_MENU, type EventsMenuCommand, type EventsMenuItem } from '../../shared/eventsMenu';
import { ContextMenu, type ContextMenuEntry } from '../components/ContextMenu';
import { eventShortcutLabel } from '../../shared/shortcuts';
import { currentShortcutPlatform } from '../app/shortcuts';
import { eventsCommandsEnabled, runEventsCommand } from './eventsMenu';
import { revealEvent } from './sevActions';
import { playheadFrame } from '../app/playhead';
import { sevStore } from './sevStore';
import { seLabel } from './sevLabels';

/**
 * The Events menu's commands on the events themselves (Cut … Nudge Later), in its order and words: what a right-click
 * on an event shows. A Maya or MotionBuilder user right-clicked an event and nothing happened (tried cold, round 15).
 */
export const EVENT_CONTEXT_ITEMS: readonly (EventsMenuItem | 'separator')[] = (() => {
  const from = EVENTS_MENU.findIndex((e) => e !== 'separator' && e.command === 'events.cut');
  const to = EVENTS_MENU.findIndex((e) => e !== 'separator' && e.command === 'events.nudgeLater');
  return EVENTS_MENU.slice(from, to + 1);
})();

/** What a right-click on the event row away from the events shows: adding and pasting at the frame pointed at. */
const SPOT_COMMANDS: readonly EventsMenuCommand[] = ['events.addAtPlayhead', 'events.paste', 'events.selectAll'];
const SPOT_ITEMS = EVENTS_MENU.filter(
  (e): e is EventsMenuItem => e !== 'separator' && SPOT_COMMANDS.includes(e.command),
);

interface Open {
  x: number;
  y: number;
  /** What had the keyboard before the menu: it gets it back when the menu closes. */
  back: HTMLElement | null;
  /** On the event row away from the events (the playhead brought there): add or paste there. */
  spot: boolean;
}

/** The event (its index) a right-click landed on: a marker on the event row or a row of the event list. */
function eventUnder(target: EventTarget | null): { index: number; scope: HTMLElement | null } | null {
  const el =
    target instanceof Element
      ? target.closest<HTMLElement>('[data-testid="sev-marker"], [data-testid="sev-event-row"]')
      : null;
  const index = Number(el?.dataset.index);
  if (!el || !Number.isInteger(index)) return null;
  return { index, scope: el.closest<HTMLElement>('[data-sev-events]') };
}

/**
 * A right-click on an event selects it (or keeps the selection it is part of) and opens the event commands at the
 * pointer, each with its key; a command runs as the Events menu's does (one undo step). Escape, a click elsewhere or
 * a command closes it and hands the keyboard to the event row or list, where the event keys act.
 */
export function EventContextMenu() {
  const [open, setOpen] = useState<Open | null>(null);

  useEffect(() => {
    const onContext = (e: MouseEvent) => {
      const hit = eventUnder(e.target);
      const track =
        !hit && e.target instanceof Element && !e.target.closest('.sev-track-gutter')
          ? e.target.closest<HTMLElement>('[data-testid="sev-track"]')
          : null;
      if (!hit && !track) return;
      e.preventDefault();
      if (hit && !sevStore.getState().selectedEvents.includes(hit.index)) revealEvent(hit.index);
      setOpen({ x: e.clientX, y: e.clientY, back: hit ? hit.scope : track, spot: !hit });
    };
    document.addEventListener('contextmenu', onContext);
    return () => document.removeEventListener('contextmenu', onContext);
  }, []);

  if (!open) return null;
  const enabled = eventsCommandsEnabled();
  const platform = currentShortcutPlatform();
  const clipboard = sevStore.getState().clipboard;
  // The menu bar's words: Paste says how many events it adds.
  const words = (e: EventsMenuItem) =>
    e.command === 'events.paste' && clipboard
      ? `Paste ${clipboard.events.length} Event${clipboard.events.length === 1 ? '' : 's'} at Playhead`
      : e.label;
  // Away from the events the playhead went to the frame pointed at: the items name it, and Add names the SE it adds
  // (the SE picker's, as the toolbar button's tooltip does; round 16 said "Add Event" and left the user to guess).
  const doc = sevStore.getState().file?.doc;
  const se = sevStore.getState().selectedSe;
  const spotWords = (e: EventsMenuItem) =>
    e.command === 'events.addAtPlayhead' && doc?.ses.some((d) => d.index === se)
      ? `Add ${seLabel(doc, se)} at Playhead`
      : words(e);
  const label = (e: EventsMenuItem) =>
    open.spot ? spotWords(e).replace('at Playhead', `at Frame ${playheadFrame()}`) : words(e);
  const entries: ContextMenuEntry[] = (open.spot ? SPOT_ITEMS : EVENT_CONTEXT_ITEMS).map((e) =>
    e === 'separator'
      ? e
      : {
          id: `sev-context-${e.command.replace('events.', '')}`,
          label: label(e),
          // Add Event at Playhead has no event key: M, a page key, does it anywhere.
          shortcut: e.key ? eventShortcutLabel(e.key, platform) : e.command === 'events.addAtPlayhead' ? 'M' : '',
          disabled: !enabled[e.command],
          why:
            e.command === 'events.paste'
              ? 'Copy or cut events first'
              : e.command === 'events.addAtPlayhead'
                ? 'Define an SE first (Events › Add SE Definition)'
                : undefined,
          run: () => void runEventsCommand(e.command),
        },
  );
  return (
    <ContextMenu
      key={`${open.x},${open.y}`}
      at={open}
      entries={entries}
      label="Event commands"
      testid="sev-context-menu"
      onClose={(giveBack) => {
        setOpen(null);
        if (giveBack) open.back?.focus({ preventScroll: true });
      }}
    />
  );
}
