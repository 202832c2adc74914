import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { EVENTS_MENU, type EventsMenuCommand, type EventsMenuItem } from '../../shared/eventsMenu';
import { eventShortcutLabel } from '../../shared/shortcuts';
import { currentShortcutPlatform } from '../app/shortcuts';
import { eventsCommandsEnabled, runEventsCommand } from './eventsMenu';
import { revealEvent } from './sevActions';
import { sevStore } from './sevStore';

/**
 * The Events menu's commands on the events themselves (Cut … Nudge Later), in its order and words: what a right-click
 * on an event shows. A Maya or MotionBuilder user right-clicked an event and nothing happened (tried cold, round 15).
 */
export const EVENT_CONTEXT_ITEMS: readonly (EventsMenuItem | 'separator')[] = (() => {
  const from = EVENTS_MENU.findIndex((e) => e !== 'separator' && e.command === 'events.cut');
  const to = EVENTS_MENU.findIndex((e) => e !== 'separator' && e.command === 'events.nudgeLater');
  return EVENTS_MENU.slice(from, to + 1);
})();

interface Open {
  x: number;
  y: number;
  /** What had the keyboard before the menu: it gets it back when the menu closes. */
  back: HTMLElement | null;
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
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);

  useEffect(() => {
    const onContext = (e: MouseEvent) => {
      const hit = eventUnder(e.target);
      if (!hit) return;
      e.preventDefault();
      const s = sevStore.getState();
      if (!s.selectedEvents.includes(hit.index)) revealEvent(hit.index);
      setPlace(null);
      setOpen({ x: e.clientX, y: e.clientY, back: hit.scope });
    };
    document.addEventListener('contextmenu', onContext);
    return () => document.removeEventListener('contextmenu', onContext);
  }, []);

  const close = (o: Open | null) => {
    setOpen(null);
    o?.back?.focus({ preventScroll: true });
  };

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close(open);
    };
    const onDown = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node)) setOpen(null);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('mousedown', onDown, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('mousedown', onDown, true);
    };
  }, [open]);

  // Inside the window: a right-click near its right or bottom edge opens the menu to the left or above.
  useLayoutEffect(() => {
    if (!open || !menu.current) return;
    const r = menu.current.getBoundingClientRect();
    setPlace({
      left: Math.max(0, Math.min(open.x, window.innerWidth - r.width)),
      top: Math.max(0, open.y + r.height > window.innerHeight ? open.y - r.height : open.y),
    });
  }, [open]);
  // The keyboard goes to the first command once the menu is placed (a hidden one takes no focus).
  useEffect(() => {
    if (place) menu.current?.querySelector<HTMLButtonElement>('.menu-item:not(:disabled)')?.focus();
  }, [place]);

  if (!open) return null;
  const enabled = eventsCommandsEnabled();
  const platform = currentShortcutPlatform();
  const clipboard = sevStore.getState().clipboard;
  // The menu bar's words: Paste says how many events it adds.
  const label = (e: EventsMenuItem) =>
    e.command === 'events.paste' && clipboard
      ? `Paste ${clipboard.events.length} Event${clipboard.events.length === 1 ? '' : 's'} at Playhead`
      : e.label;
  const run = (command: EventsMenuCommand) => {
    close(open);
    void runEventsCommand(command);
  };
  const onKey = (e: ReactKeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('.menu-item:not(:disabled)') ?? []);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else if (e.key === 'Tab') return close(open);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      ref={menu}
      className="menu-dropdown event-context-menu"
      role="menu"
      aria-label="Event commands"
      data-testid="sev-context-menu"
      style={{
        position: 'fixed',
        left: place?.left ?? open.x,
        top: place?.top ?? open.y,
        visibility: place ? 'visible' : 'hidden',
      }}
      onKeyDown={onKey}
      onContextMenu={(e) => e.preventDefault()}
    >
      {EVENT_CONTEXT_ITEMS.map((e, i) =>
        e === 'separator' ? (
          <div key={i} className="menu-sep" role="separator" />
        ) : (
          <button
            key={e.command}
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={!enabled[e.command]}
            title={
              enabled[e.command] ? undefined : e.command === 'events.paste' ? 'Copy or cut events first' : undefined
            }
            data-testid={`sev-context-${e.command.replace('events.', '')}`}
            onClick={() => run(e.command)}
          >
            <span className="menu-check" />
            <span className="menu-label">{label(e)}</span>
            <span className="menu-shortcut">{e.key ? eventShortcutLabel(e.key, platform) : ''}</span>
          </button>
        ),
      )}
    </div>
  );
}
