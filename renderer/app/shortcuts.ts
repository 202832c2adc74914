/**
 * Keyboard shortcuts of the page. Space play, arrows step (Shift: 10 frames),
 * K key, L lock, T trace key, F frame all, A show all frames, E/Q/O curve
 * channel, [ / ] speed, Home/End, Up/Down jump to the previous/next key of the
 * selected channel, PageUp/PageDown select the previous/next joint, Delete removes the
 * selected user keys, and
 * in the SEV editor's event list or event row Ctrl+C / Ctrl+X / Ctrl+V copy, cut and paste events, Ctrl+A
 * selects them all, Delete removes them and Alt+Left / Alt+Right nudge them by a frame (EVENT_SHORTCUTS), and
 * the menu commands' shortcuts from shared/shortcuts.ts (Ctrl+O open,
 * Ctrl+Shift+O open project, Ctrl+S save, Ctrl+Alt+S save project, ...).
 *
 * One owner per shortcut: under Electron the native menu owns the menu
 * commands' accelerators, so the page leaves those keys alone (taking them
 * would keep the accelerator from firing); in the browser build the page
 * runs them. Ignored while a modal is open (keys belong to the dialog);
 * plain keys are ignored while typing in a field, and Undo/Redo there act on its typing (fieldUndo.ts).
 */
import {
  chordOfKeyPress,
  pageShortcutOf,
  type KeyPress,
  type PageAction,
  type ShortcutOwnerMode,
  type ShortcutPlatform,
} from '../../shared/shortcuts';
import { sessionStore } from '../state/sessionStore';
import { cycleSpeed, step, zoomTimeToFit } from './playhead';
import {
  deleteSelectedKeys,
  jumpToKey,
  selectNeighbourJoint,
  toggleKeyAtPlayhead,
  toggleLockAtPlayhead,
  toggleTraceAtPlayhead,
} from './keyEdits';
import { isModalOpen, isTypingTarget, runCommand } from './commands';
import { events } from '../sev/sevActions';
import { installFieldUndo } from './fieldUndo';

/** The SEV editor's event list and event row mark themselves with this attribute: the event keys apply inside. */
export const EVENT_SCOPE_ATTRIBUTE = 'data-sev-events';

function runAction(action: PageAction): void {
  const s = sessionStore.getState();
  switch (action) {
    case 'toggleKey':
      return toggleKeyAtPlayhead();
    case 'toggleLock':
      return toggleLockAtPlayhead();
    case 'toggleTrace':
      return toggleTraceAtPlayhead();
    case 'frameAll':
      return s.requestFrameAll();
    case 'showAllFrames':
      return zoomTimeToFit();
    case 'channelEuler':
      return s.setCurveChannel('euler');
    case 'channelQuat':
      return s.setCurveChannel('quat');
    case 'channelOffset':
      return s.setCurveChannel('offset');
    case 'slower':
      return cycleSpeed(-1);
    case 'faster':
      return cycleSpeed(1);
    case 'step10Forward':
      return step(10);
    case 'step10Back':
      return step(-10);
    case 'previousJoint':
      return selectNeighbourJoint(-1);
    case 'nextJoint':
      return selectNeighbourJoint(1);
    case 'previousKey':
      return jumpToKey(-1);
    case 'nextKey':
      return jumpToKey(1);
    case 'deleteKeys':
      return deleteSelectedKeys();
    case 'copyEvents':
      return void events.copySelected();
    case 'cutEvents':
      return events.cutSelected();
    case 'pasteEvents':
      return void events.pasteAtPlayhead();
    case 'selectAllEvents':
      return events.selectAll();
    case 'deleteEvents':
      return events.removeSelected();
    case 'nudgeEventsBack':
      return events.nudgeSelected(-1);
    case 'nudgeEventsForward':
      return events.nudgeSelected(1);
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** macOS or not, as the shortcut table distinguishes them. */
export function currentShortcutPlatform(): ShortcutPlatform {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent) ? 'mac' : 'other';
}

/** Under Electron (the preload's API is there) the native menu owns the command shortcuts. */
export function currentOwnerMode(): ShortcutOwnerMode {
  return window.actguy ? 'native-menu' : 'page';
}

/**
 * Whether the page draws its own menu bar. Not on macOS under Electron: there the app's menu is the native one
 * at the top of the screen, and a second one inside the window would only take room. Windows and Linux hide the
 * native bar (electron/main.ts) and show the page's; the browser build has no other.
 */
export function pageDrawsMenuBar(
  platform: ShortcutPlatform = currentShortcutPlatform(),
  mode: ShortcutOwnerMode = currentOwnerMode(),
): boolean {
  return !(platform === 'mac' && mode === 'native-menu');
}

/** The input types that Space presses or ticks. */
const SPACE_INPUTS = ['checkbox', 'radio', 'button', 'submit', 'reset'];

/**
 * Whether Space belongs to the focused control: an enabled button or box that the keyboard is on (Tab, or a focus
 * handed on after a key press), not one that `pointerFocused`, the control a pointer press last gave the focus to (a
 * click leaves it on the button: Space plays then, and lets go of the button it would click). The browser's
 * `:focus-visible` cannot tell them apart here: a key pressed on a clicked button makes it match before the keydown.
 */
function takesSpaceItself(target: EventTarget | null, pointerFocused: Element | null): boolean {
  const control =
    target instanceof HTMLButtonElement || (target instanceof HTMLInputElement && SPACE_INPUTS.includes(target.type));
  return control && !target.disabled && target !== pointerFocused;
}

/**
 * Follows which control a pointer gave the focus to: a focus that comes while the last input was a pointer press
 * (the press itself, or a focus a click's handler handed on) is the pointer's; one after a key press (Tab, Enter on a
 * ✕ whose list hands the focus on) is the keyboard's.
 */
function trackPointerFocus(target: Window): { pointerFocused: () => Element | null; stop: () => void } {
  let lastInput: 'pointer' | 'key' = 'key';
  let focusedByPointer: Element | null = null;
  const onPointer = () => {
    lastInput = 'pointer';
  };
  const onKey = () => {
    lastInput = 'key';
  };
  const onFocus = (e: FocusEvent) => {
    focusedByPointer = lastInput === 'pointer' && e.target instanceof Element ? e.target : null;
  };
  target.addEventListener('pointerdown', onPointer, true);
  target.addEventListener('keydown', onKey, true);
  target.addEventListener('focusin', onFocus, true);
  return {
    pointerFocused: () => focusedByPointer,
    stop: () => {
      target.removeEventListener('pointerdown', onPointer, true);
      target.removeEventListener('keydown', onKey, true);
      target.removeEventListener('focusin', onFocus, true);
    },
  };
}

export function installShortcuts(): () => void {
  const platform = currentShortcutPlatform();
  const mode = currentOwnerMode();
  const pointer = trackPointerFocus(window);
  const onKey = (e: KeyboardEvent) => {
    if (isModalOpen()) return;
    const target = e.target as HTMLInputElement | null;
    const scope = target instanceof Element ? target.closest<HTMLElement>(`[${EVENT_SCOPE_ATTRIBUTE}]`) : null;
    // Undo and Redo in a field: its typing, else the app's (runCommand). The browser's own undo went from field to
    // field across the page (renderer/app/fieldUndo.ts). Under Electron the native menu owns them and runs runCommand.
    if (isTypingTarget(target)) {
      const chord = chordOfKeyPress(e as KeyPress, platform);
      const own = pageShortcutOf(chord, { typing: false, onSlider: false }, platform, mode);
      if (own && 'command' in own && (own.command === 'edit.undo' || own.command === 'edit.redo')) {
        e.preventDefault();
        void runCommand({ command: own.command });
        return;
      }
    }
    // Space on a button or box the keyboard is on is that control's: it presses the ✕, ticks the box. Only a
    // control a click gave the focus to lets Space play (docs/architecture.md, "Renderer review, round 7").
    if (e.key === ' ' && !e.ctrlKey && !e.metaKey && !e.altKey && takesSpaceItself(target, pointer.pointerFocused()))
      return;
    const shortcut = pageShortcutOf(
      chordOfKeyPress(e as KeyPress, platform),
      { typing: isTypingTarget(target), onSlider: target?.type === 'range', inEvents: scope !== null },
      platform,
      mode,
    );
    if (!shortcut) return;
    e.preventDefault();
    if ('command' in shortcut) runCommand({ command: shortcut.command });
    else runAction(shortcut.action);
    // Keep Space from also "clicking" a button focused by a click (a button acts on Space's key-up, which no keydown
    // handler can prevent); any other key leaves the keyboard where it is (a work mode's Ctrl+2 dropped it to the page's start).
    if (e.key === ' ' && document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
    // The keyboard stays in the event list or row (a deleted marker took the focus with it): the next nudge or paste goes there too.
    if (scope?.isConnected && (document.activeElement === null || document.activeElement === document.body))
      scope.focus({ preventScroll: true });
  };
  window.addEventListener('keydown', onKey);
  const handBack = installSelectHandback(window);
  const fieldUndo = installFieldUndo(document);
  return () => {
    window.removeEventListener('keydown', onKey);
    handBack();
    fieldUndo();
    pointer.stop();
  };
}

/**
 * A choice made with the pointer in a drop-down (the SE to add, an event's SE, the playback speed, the Euler order)
 * hands the keyboard back to the app, as a joint picked with a click does: the select kept it, so Space (play), M,
 * K and the arrows went to the select instead (tried cold, round 8: an SE picked, Space played nothing). A choice
 * made from the keyboard (Tab, then ↑ / ↓ or type-ahead) leaves it there, and so does one in a dialog, which keeps
 * its focus inside.
 */
export function installSelectHandback(target: Window): () => void {
  let pointed: HTMLSelectElement | null = null;
  const onPointer = (e: Event) => {
    pointed = e.target instanceof HTMLSelectElement ? e.target : null;
  };
  const onKey = (e: Event) => {
    if (e.target === pointed) pointed = null;
  };
  const onChange = (e: Event) => {
    const el = e.target;
    if (!(el instanceof HTMLSelectElement) || el !== pointed) return;
    pointed = null;
    if (el.closest('[role="dialog"], [aria-modal="true"]') || isModalOpen()) return;
    el.blur();
  };
  target.addEventListener('pointerdown', onPointer, true);
  target.addEventListener('keydown', onKey, true);
  target.addEventListener('change', onChange, true);
  return () => {
    target.removeEventListener('pointerdown', onPointer, true);
    target.removeEventListener('keydown', onKey, true);
    target.removeEventListener('change', onChange, true);
  };
}
