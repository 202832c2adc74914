import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';

/** One command of a right-click menu: its words, its key (as the menus show it), and why it is greyed. */
export interface ContextMenuItem {
  /** The item's test id (data-testid). */
  id: string;
  label: string;
  shortcut?: string;
  disabled?: boolean;
  /** A greyed item's tooltip: what it waits for. */
  why?: string;
  /** A toggle: shown with its check mark. */
  checked?: boolean;
  run: () => void;
}
export type ContextMenuEntry = ContextMenuItem | 'separator';

/** One item of a menu (the menu bar's or a right-click menu): its check mark, its words and its key. */
export function MenuItemButton(props: {
  label: string;
  shortcut?: string;
  checked?: boolean;
  disabled?: boolean;
  title?: string;
  testid?: string;
  onClick: (e: ReactMouseEvent) => void;
}) {
  return (
    <button
      type="button"
      role={props.checked !== undefined ? 'menuitemcheckbox' : 'menuitem'}
      aria-checked={props.checked}
      className="menu-item"
      disabled={props.disabled}
      title={props.title}
      data-testid={props.testid}
      onClick={props.onClick}
    >
      <span className="menu-check">{props.checked ? '✓' : ''}</span>
      <span className="menu-label">{props.label}</span>
      <span className="menu-shortcut">{props.shortcut ?? ''}</span>
    </button>
  );
}

/**
 * A right-click menu at the pointer (client coordinates), drawn as the menu bar's menus are. It opens inside the
 * window (to the left or above near its right or bottom edge), takes the keyboard on its first command (↑ / ↓,
 * Home / End, Enter), and closes with Escape, Tab, a command or a press elsewhere. `onClose(giveBack)`: whether
 * the keyboard goes back to where the menu was opened from (not on a press elsewhere, which has its own target).
 */
export function ContextMenu({
  at,
  entries,
  label,
  testid,
  onClose,
}: {
  at: { x: number; y: number };
  entries: readonly ContextMenuEntry[];
  label: string;
  testid: string;
  onClose: (giveBack: boolean) => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  // The latest onClose, so the window listeners are set once per menu.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      closeRef.current(true);
    };
    const onDown = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node)) closeRef.current(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('mousedown', onDown, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('mousedown', onDown, true);
    };
  }, []);

  // Inside the window: a right-click near its right or bottom edge opens the menu to the left or above.
  useLayoutEffect(() => {
    if (!menu.current) return;
    const r = menu.current.getBoundingClientRect();
    setPlace({
      left: Math.max(0, Math.min(at.x, window.innerWidth - r.width)),
      top: Math.max(0, at.y + r.height > window.innerHeight ? at.y - r.height : at.y),
    });
  }, [at]);
  // The keyboard goes to the first command once the menu is placed (a hidden one takes no focus).
  useEffect(() => {
    if (place) menu.current?.querySelector<HTMLButtonElement>('.menu-item:not(:disabled)')?.focus();
  }, [place]);

  const onKey = (e: ReactKeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('.menu-item:not(:disabled)') ?? []);
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown') items[(i + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(i - 1 + items.length) % items.length]?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else if (e.key === 'Tab') return onClose(true);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      ref={menu}
      className="menu-dropdown context-menu"
      role="menu"
      aria-label={label}
      data-testid={testid}
      style={{
        position: 'fixed',
        left: place?.left ?? at.x,
        top: place?.top ?? at.y,
        visibility: place ? 'visible' : 'hidden',
      }}
      onKeyDown={onKey}
      onContextMenu={(e) => e.preventDefault()}
    >
      {entries.map((e, i) =>
        e === 'separator' ? (
          <div key={i} className="menu-sep" role="separator" />
        ) : (
          <MenuItemButton
            key={e.id}
            label={e.label}
            shortcut={e.shortcut}
            checked={e.checked}
            disabled={e.disabled}
            title={e.disabled ? e.why : undefined}
            testid={e.id}
            onClick={() => {
              onClose(true);
              e.run();
            }}
          />
        ),
      )}
    </div>
  );
}
