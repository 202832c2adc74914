/**
 * The keyboard shortcut sheet (Help › Keyboard Shortcuts, Ctrl+/): every key of the app in one list, read from the
 * tables that own the keys (shared/shortcuts.ts) and the menus that name the commands (shared/menus.ts,
 * shared/eventsMenu.ts), so a key added there is listed here without a second list to keep. Before it, the keys of the
 * page that no menu shows (↑ / ↓ between keys, Page Up / Page Down between joints, Shift+← / → by ten frames, [ / ])
 * were in docs/tuner.md only (tried cold, round 14).
 */
import type { MenuCommandId } from './ipc/menu';
import { EVENTS_MENU } from './eventsMenu';
import { MENUS } from './menus';
import {
  EVENT_SHORTCUTS,
  PLAIN_KEYS,
  SHIFT_KEYS,
  acceleratorLabel,
  shortcutsFor,
  type EventAction,
  type PageAction,
  type ShortcutPlatform,
} from './shortcuts';

export interface ShortcutRow {
  /** The keys, each as the menus show it ("Ctrl+Shift+O", "Page Down"). */
  keys: string[];
  /** What they do. */
  does: string;
}

export interface ShortcutSection {
  title: string;
  /** Where the keys act, when not everywhere. */
  note?: string;
  rows: ShortcutRow[];
}

/** What each page key does, in the words of the menus that show some of them (Edit, View, Playback). */
export const PAGE_ACTION_LABELS: Readonly<Record<PageAction, string>> = {
  toggleKey: 'Toggle user key at playhead (selected joint)',
  toggleLock: 'Toggle lock at playhead (selected joint)',
  toggleTrace: 'Toggle trace key at playhead',
  frameAll: 'Frame all (viewport)',
  showAllFrames: 'Show all frames (curves, timeline)',
  channelEuler: 'Curves: rotation as Euler angles',
  channelQuat: 'Curves: rotation as quaternion',
  channelOffset: 'Curves: joint offset',
  slower: 'Slower playback',
  faster: 'Faster playback',
  step10Forward: '10 frames forward',
  step10Back: '10 frames back',
  previousJoint: 'Previous joint',
  nextJoint: 'Next joint',
  previousKey: 'Previous key of the shown channel',
  nextKey: 'Next key of the shown channel',
  deleteKeys: 'Delete the user keys selected in the curves',
  copyEvents: 'Copy the selected events',
  cutEvents: 'Cut the selected events',
  pasteEvents: 'Paste the copied events at the playhead (also into another motion’s .sev)',
  selectAllEvents: 'Select every event',
  deleteEvents: 'Delete the selected events',
  nudgeEventsBack: 'Nudge the selected events 1 frame earlier',
  nudgeEventsForward: 'Nudge the selected events 1 frame later',
};

/** Labels of the commands no menu model lists (the Help menu is each surface's own). */
const OTHER_COMMAND_LABELS: Partial<Record<MenuCommandId, string>> = {
  'help.shortcuts': 'Keyboard Shortcuts (this list)',
};

/** A DOM key name as the menus write it ("↑", "Page Down", "K"). */
export function keyLabel(key: string): string {
  const named: Record<string, string> = {
    ArrowUp: '↑',
    ArrowDown: '↓',
    ArrowLeft: '←',
    ArrowRight: '→',
    PageUp: 'Page Up',
    PageDown: 'Page Down',
    ' ': 'Space',
  };
  return named[key] ?? (key.length === 1 ? key.toUpperCase() : key);
}

/** A menu command's label: the in-page menu's words where they differ ("Play", not "Play / Pause"), else the menu's. */
function commandLabel(command: MenuCommandId): string {
  for (const menu of MENUS)
    for (const e of menu.entries)
      if (e !== 'separator' && 'command' in e && e.command === command) {
        const label = e.pageLabel ?? e.label;
        return menu.title === 'Events' || label.includes(menu.title) ? label : `${menu.title}: ${label}`;
      }
  return OTHER_COMMAND_LABELS[command] ?? command;
}

/** Rows of one action each, its keys gathered in table order. */
function rowsOf<A extends string>(pairs: readonly [A, string][], label: (a: A) => string): ShortcutRow[] {
  const rows = new Map<A, ShortcutRow>();
  for (const [action, key] of pairs) {
    const row = rows.get(action) ?? { keys: [], does: label(action) };
    if (!row.keys.includes(key)) row.keys.push(key);
    rows.set(action, row);
  }
  return [...rows.values()];
}

/** The sheet on a platform (Cmd on macOS, Ctrl elsewhere). */
export function shortcutSheet(platform: ShortcutPlatform): ShortcutSection[] {
  const commands = rowsOf(
    shortcutsFor(platform).map((b): [MenuCommandId, string] => [b.command, acceleratorLabel(b.accelerator, platform)]),
    commandLabel,
  );
  const page = rowsOf(
    [
      ...Object.entries(PLAIN_KEYS).map(([k, a]): [PageAction, string] => [a, keyLabel(k)]),
      ...Object.entries(SHIFT_KEYS).map(([k, a]): [PageAction, string] => [a, `Shift+${keyLabel(k)}`]),
    ],
    (a) => PAGE_ACTION_LABELS[a],
  );
  const events = rowsOf(
    EVENT_SHORTCUTS.map((b): [EventAction, string] => [b.action, acceleratorLabel(b.accelerator, platform)]),
    (a) => EVENTS_MENU.flatMap((e) => (e !== 'separator' && e.key === a ? [e.label] : []))[0] ?? PAGE_ACTION_LABELS[a],
  );
  return [
    { title: 'Commands', note: 'Also in the menus, beside each item.', rows: commands },
    {
      title: 'Tuning keys',
      note: 'Away from text fields; a slider keeps its arrow keys.',
      rows: page,
    },
    {
      title: 'Sound events',
      note: 'In the event list or the event row (after a click there), not in one of their fields.',
      rows: events,
    },
    {
      title: 'Pointer over the curves',
      rows: [
        { keys: ['Home'], does: 'Frame all: every frame, values fitted' },
        { keys: ['F'], does: 'Frame the selected user keys' },
        { keys: ['N'], does: 'Normalize the curves (-1..1)' },
        {
          keys: ['Menu', 'Shift+F10'],
          does: 'The right-click menu at the frame under the pointer (over the timeline too)',
        },
      ],
    },
    {
      title: 'Anywhere',
      rows: [
        { keys: ['Escape'], does: 'Close a menu, dialog or list; in a field, put back the value it had' },
        { keys: ['Tab', 'Shift+Tab'], does: 'Next / previous control' },
      ],
    },
  ];
}
