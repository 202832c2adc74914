/**
 * The keyboard shortcuts of the menu commands, in one table both owners read.
 *
 * One owner per shortcut: under Electron the native menu owns every binding
 * marked `native` (its accelerator fires only when the page did not take the
 * key, so the page must leave those keys alone); in the browser build there
 * is no native menu and the page's key handler owns them all. Bindings that
 * are not `native` (Space, arrows, a second spelling of Redo) belong to the
 * page in both builds; the native menu only shows them as hints.
 *
 * Accelerators use Electron's syntax ("CmdOrCtrl+Shift+O"): modifiers
 * `CmdOrCtrl`, `Cmd`, `Ctrl`, `Shift`, `Alt`, then one key. A chord matches
 * a key press only when every modifier is exactly as written, so
 * Ctrl+Shift+O (Open Project) is never Ctrl+O (Open).
 */
import type { MenuCommandId } from './ipc/menu';

export type ShortcutPlatform = 'mac' | 'other';

export interface ShortcutBinding {
  command: MenuCommandId;
  /** Electron accelerator syntax. */
  accelerator: string;
  /** Registered on the native menu under Electron; otherwise the page owns it in both builds. */
  native: boolean;
  /** Only on this platform (Redo is Cmd+Shift+Z on macOS and Ctrl+Y elsewhere). */
  platform?: ShortcutPlatform;
}

export const SHORTCUTS: readonly ShortcutBinding[] = [
  { command: 'file.open', accelerator: 'CmdOrCtrl+O', native: true },
  { command: 'file.save', accelerator: 'CmdOrCtrl+S', native: true },
  { command: 'file.saveAs', accelerator: 'CmdOrCtrl+Shift+S', native: true },
  { command: 'file.exportMt3', accelerator: 'CmdOrCtrl+E', native: true },
  { command: 'file.import', accelerator: 'CmdOrCtrl+I', native: true },
  { command: 'project.open', accelerator: 'CmdOrCtrl+Shift+O', native: true },
  { command: 'project.save', accelerator: 'CmdOrCtrl+Alt+S', native: true },
  { command: 'project.build', accelerator: 'CmdOrCtrl+B', native: true },
  // Work modes take the window (Blender's Ctrl+Space maximizes an area; Unity numbers its windows Ctrl+1..).
  { command: 'view.maximizeTuning', accelerator: 'CmdOrCtrl+1', native: true },
  { command: 'view.maximizeSev', accelerator: 'CmdOrCtrl+2', native: true },
  { command: 'view.maximizeProject', accelerator: 'CmdOrCtrl+3', native: true },
  { command: 'edit.undo', accelerator: 'CmdOrCtrl+Z', native: true },
  { command: 'edit.redo', accelerator: 'Cmd+Shift+Z', native: true, platform: 'mac' },
  { command: 'edit.redo', accelerator: 'Ctrl+Y', native: true, platform: 'other' },
  // Second spellings of Redo: a menu item carries one accelerator, so the page takes these.
  { command: 'edit.redo', accelerator: 'Ctrl+Shift+Z', native: false, platform: 'other' },
  { command: 'edit.redo', accelerator: 'Cmd+Y', native: false, platform: 'mac' },
  { command: 'playback.togglePlay', accelerator: 'Space', native: false },
  { command: 'playback.stepForward', accelerator: 'Right', native: false },
  { command: 'playback.stepBack', accelerator: 'Left', native: false },
  { command: 'playback.firstFrame', accelerator: 'Home', native: false },
  { command: 'playback.lastFrame', accelerator: 'End', native: false },
  // A plain key, so events go in while the motion plays and the hands stay on the keyboard (Space, M, M, Space):
  // the button alone was the only way, a pointer trip per event (tried cold, round 8). M for marker, as in DAWs.
  { command: 'events.addAtPlayhead', accelerator: 'M', native: false },
  // Help › Keyboard Shortcuts (Ctrl+/ as in many editors; F1 is the browser's own help in the browser build).
  { command: 'help.shortcuts', accelerator: 'CmdOrCtrl+/', native: true },
];

/** The bindings that apply on a platform. */
export function shortcutsFor(platform: ShortcutPlatform): ShortcutBinding[] {
  return SHORTCUTS.filter((b) => !b.platform || b.platform === platform);
}

/** The binding a menu item shows (the native one when there is one). */
export function primaryShortcut(command: MenuCommandId, platform: ShortcutPlatform): ShortcutBinding | undefined {
  const all = shortcutsFor(platform).filter((b) => b.command === command);
  return all.find((b) => b.native) ?? all[0];
}

/**
 * A key press reduced to what a shortcut compares: `primary` is Cmd on macOS
 * and Ctrl elsewhere; `key` is lower case for letters, else the DOM key name
 * ("ArrowRight", " ", "Home").
 */
export interface KeyChord {
  key: string;
  primary: boolean;
  /** Ctrl on macOS (a different key from Cmd there); always false elsewhere, where Ctrl is `primary`. */
  macCtrl: boolean;
  shift: boolean;
  alt: boolean;
}

const NAMED_KEYS: Record<string, string> = {
  space: ' ',
  right: 'ArrowRight',
  left: 'ArrowLeft',
  up: 'ArrowUp',
  down: 'ArrowDown',
  home: 'Home',
  end: 'End',
  delete: 'Delete',
  backspace: 'Backspace',
  esc: 'Escape',
  escape: 'Escape',
  plus: '+',
};

/** The chord an accelerator means on a platform; throws for a spelling this table does not use. */
export function chordOfAccelerator(accelerator: string, platform: ShortcutPlatform): KeyChord {
  const parts = accelerator.split('+');
  const keyName = parts.pop()!;
  const chord: KeyChord = { key: '', primary: false, macCtrl: false, shift: false, alt: false };
  for (const m of parts) {
    const mod = m.toLowerCase();
    if (mod === 'cmdorctrl' || mod === 'commandorcontrol') chord.primary = true;
    else if (mod === 'cmd' || mod === 'command') {
      if (platform !== 'mac') throw new Error(`accelerator ${accelerator}: Cmd exists only on macOS`);
      chord.primary = true;
    } else if (mod === 'ctrl' || mod === 'control') {
      if (platform === 'mac') chord.macCtrl = true;
      else chord.primary = true;
    } else if (mod === 'shift') chord.shift = true;
    else if (mod === 'alt' || mod === 'option') chord.alt = true;
    else throw new Error(`accelerator ${accelerator}: unknown modifier ${m}`);
  }
  const named = NAMED_KEYS[keyName.toLowerCase()];
  if (named) chord.key = named;
  else if (keyName.length === 1) chord.key = keyName.toLowerCase();
  else if (/^F\d{1,2}$/.test(keyName)) chord.key = keyName;
  else throw new Error(`accelerator ${accelerator}: unknown key ${keyName}`);
  return chord;
}

/** The fields of a DOM KeyboardEvent a chord is made from. */
export interface KeyPress {
  key: string;
  /** KeyboardEvent.code ("KeyO"): with Alt held macOS reports a composed character in `key`. */
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The chord of a key press on a platform. */
export function chordOfKeyPress(e: KeyPress, platform: ShortcutPlatform): KeyChord {
  let key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // Alt (Option) changes the character on macOS (Option+S is "ß"); the physical key names the letter.
  if (e.altKey && e.code && /^Key[A-Z]$/.test(e.code)) key = e.code.slice(3).toLowerCase();
  return platform === 'mac'
    ? { key, primary: e.metaKey, macCtrl: e.ctrlKey, shift: e.shiftKey, alt: e.altKey }
    : { key, primary: e.ctrlKey, macCtrl: false, shift: e.shiftKey, alt: e.altKey };
}

export function sameChord(a: KeyChord, b: KeyChord): boolean {
  return (
    a.key === b.key && a.primary === b.primary && a.macCtrl === b.macCtrl && a.shift === b.shift && a.alt === b.alt
  );
}

/** Who takes a command shortcut: Electron's native menu, or the page's key handler (the browser build). */
export type ShortcutOwnerMode = 'native-menu' | 'page';

/**
 * The command bound to a key press that the page must run itself, or null
 * (no binding, or under Electron a binding the native menu owns).
 */
export function pageCommandOf(
  chord: KeyChord,
  platform: ShortcutPlatform,
  mode: ShortcutOwnerMode,
): MenuCommandId | null {
  for (const b of shortcutsFor(platform)) {
    if (mode === 'native-menu' && b.native) continue;
    if (sameChord(chordOfAccelerator(b.accelerator, platform), chord)) return b.command;
  }
  return null;
}

/** How a menu shows an accelerator on a platform ("Ctrl+Shift+O", "⌘⇧O"). */
export function acceleratorLabel(accelerator: string, platform: ShortcutPlatform): string {
  const c = chordOfAccelerator(accelerator, platform);
  const keyText: Record<string, string> = {
    ' ': 'Space',
    ArrowRight: '→',
    ArrowLeft: '←',
    ArrowUp: '↑',
    ArrowDown: '↓',
  };
  const key = keyText[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key);
  if (platform === 'mac')
    return `${c.macCtrl ? '⌃' : ''}${c.alt ? '⌥' : ''}${c.shift ? '⇧' : ''}${c.primary ? '⌘' : ''}${key}`;
  return [c.primary && 'Ctrl', c.shift && 'Shift', c.alt && 'Alt', key].filter(Boolean).join('+');
}

/** Page keys that are not menu commands (plain keys, no Ctrl/Cmd/Alt). */
export type PageAction =
  | 'toggleKey'
  | 'toggleLock'
  | 'toggleTrace'
  | 'frameAll'
  | 'showAllFrames'
  | 'channelEuler'
  | 'channelQuat'
  | 'channelOffset'
  | 'slower'
  | 'faster'
  | 'step10Forward'
  | 'step10Back'
  | 'previousJoint'
  | 'nextJoint'
  | 'previousKey'
  | 'nextKey'
  | 'deleteKeys'
  | EventAction;

/** Keys of the SEV editor's events, while the keyboard is in its event list or event row. */
export type EventAction =
  | 'copyEvents'
  | 'cutEvents'
  | 'pasteEvents'
  | 'selectAllEvents'
  | 'deleteEvents'
  | 'nudgeEventsBack'
  | 'nudgeEventsForward';

/**
 * The event keys, in Electron accelerator syntax. They apply only while the keyboard is in the event list or
 * the event row (not in one of their fields), so elsewhere Ctrl+C / Ctrl+V stay the page's copy and paste,
 * Delete deletes curve keys, and Alt+Left / Alt+Right mean nothing. The first binding of an action is the one
 * menus show.
 */
export const EVENT_SHORTCUTS: readonly { action: EventAction; accelerator: string }[] = [
  { action: 'copyEvents', accelerator: 'CmdOrCtrl+C' },
  { action: 'cutEvents', accelerator: 'CmdOrCtrl+X' },
  { action: 'pasteEvents', accelerator: 'CmdOrCtrl+V' },
  { action: 'selectAllEvents', accelerator: 'CmdOrCtrl+A' },
  { action: 'deleteEvents', accelerator: 'Delete' },
  { action: 'deleteEvents', accelerator: 'Backspace' },
  { action: 'nudgeEventsBack', accelerator: 'Alt+Left' },
  { action: 'nudgeEventsForward', accelerator: 'Alt+Right' },
];

/** How a menu shows an event action's key on a platform ("Ctrl+C", "Alt+←"). */
export function eventShortcutLabel(action: EventAction, platform: ShortcutPlatform): string {
  const b = EVENT_SHORTCUTS.find((x) => x.action === action)!;
  return acceleratorLabel(b.accelerator, platform);
}

/** The plain keys of the page (no modifier) and what each does. Exported for the shortcut sheet (shared/shortcutSheet.ts). */
export const PLAIN_KEYS: Readonly<Record<string, PageAction>> = {
  k: 'toggleKey',
  l: 'toggleLock',
  t: 'toggleTrace',
  f: 'frameAll',
  a: 'showAllFrames',
  e: 'channelEuler',
  q: 'channelQuat',
  o: 'channelOffset',
  '[': 'slower',
  ']': 'faster',
  // Blender's habit: Up / Down jump between keys; joints move to PageUp / PageDown.
  ArrowUp: 'previousKey',
  ArrowDown: 'nextKey',
  PageUp: 'previousJoint',
  PageDown: 'nextJoint',
  Delete: 'deleteKeys',
  Backspace: 'deleteKeys',
};
/** The page's Shift+key actions. */
export const SHIFT_KEYS: Readonly<Record<string, PageAction>> = {
  ArrowRight: 'step10Forward',
  ArrowLeft: 'step10Back',
};

/** Where a key press lands, besides the chord itself. */
export interface KeyContext {
  /** Focus is in a text field (typing). */
  typing: boolean;
  /** Focus is on a slider (it keeps its arrow keys). */
  onSlider: boolean;
  /** Focus is in the SEV editor's event list or event row: the event keys apply (EVENT_SHORTCUTS). */
  inEvents?: boolean;
}

export type PageShortcut = { command: MenuCommandId } | { action: PageAction };

/**
 * What the page does with a key press: run a menu command, run a page
 * action, or nothing (the key belongs to a field, to the native menu, or to
 * no one). Pure, so the ownership of every key can be tested.
 */
export function pageShortcutOf(
  chord: KeyChord,
  ctx: KeyContext,
  platform: ShortcutPlatform,
  mode: ShortcutOwnerMode,
): PageShortcut | null {
  const modified = chord.primary || chord.macCtrl || chord.alt;
  if (ctx.onSlider && chord.key.startsWith('Arrow') && !modified) return null;
  if (ctx.inEvents && !ctx.typing) {
    const ev = EVENT_SHORTCUTS.find((b) => sameChord(chordOfAccelerator(b.accelerator, platform), chord));
    if (ev) return { action: ev.action };
  }
  const command = pageCommandOf(chord, platform, mode);
  if (command) {
    // A text field keeps its own undo, and its typed characters.
    if (ctx.typing && (!modified || command === 'edit.undo' || command === 'edit.redo')) return null;
    return { command };
  }
  if (modified || ctx.typing) return null;
  const action = chord.shift ? SHIFT_KEYS[chord.key] : PLAIN_KEYS[chord.key];
  return action ? { action } : null;
}
