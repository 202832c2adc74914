/**
 * Keyboard shortcuts. Space play, arrows step, K key, L lock, T trace key,
 * Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z) undo/redo, Ctrl+S save, Ctrl+Shift+S save as,
 * Ctrl+O open, Ctrl+E export, Ctrl+I import, F frame all, A show all frames, E/Q/O curve channel,
 * [ / ] speed, Home/End, Up/Down jump to the previous/next key of the selected channel,
 * PageUp/PageDown select the previous/next joint, Delete/Backspace delete the selected user keys.
 * Ignored while typing in a field or while a modal is open.
 */
import { documentStore } from '../state/documentStore';
import { redoLatest, undoLatest } from '../sev/undoOrder';
import { sessionStore } from '../state/sessionStore';
import {
  cycleSpeed, exportMt3, gotoFrame, openDialog, save, saveAs, step, toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead,
  togglePlay, zoomTimeToFit, importMotion, jumpToKey, selectNeighbourJoint, deleteSelectedKeys,
} from './controller';
import { importOptionsStore } from '../interchange/importOptions';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'range', 'button'].includes(type);
  }
  return false;
}

export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    const s = sessionStore.getState();
    if (s.picker || s.confirm || importOptionsStore.getState().request) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const doc = documentStore.getState();
    if (mod) {
      let handled = true;
      // One undo order over motion and SEV edits (renderer/sev/undoOrder.ts).
      if (key === 'z' && !e.shiftKey) undoLatest();
      else if (key === 'y' || (key === 'z' && e.shiftKey)) redoLatest();
      else if (key === 's' && e.shiftKey) void saveAs();
      else if (key === 's') void save();
      else if (key === 'o') void openDialog();
      else if (key === 'e') void exportMt3();
      else if (key === 'i') void importMotion();
      else handled = false;
      if (handled) e.preventDefault();
      return;
    }
    if (isTyping(e.target) || e.altKey) return;
    // A focused slider keeps its arrow keys.
    if (e.key.startsWith('Arrow') && (e.target as HTMLInputElement | null)?.type === 'range') return;
    let handled = true;
    switch (e.key) {
      case ' ':
        togglePlay();
        break;
      case 'ArrowRight':
        step(e.shiftKey ? 10 : 1);
        break;
      case 'ArrowLeft':
        step(e.shiftKey ? -10 : -1);
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        jumpToKey(e.key === 'ArrowUp' ? -1 : 1);
        break;
      case 'PageUp':
      case 'PageDown':
        selectNeighbourJoint(e.key === 'PageUp' ? -1 : 1);
        break;
      case 'Delete':
      case 'Backspace':
        deleteSelectedKeys();
        break;
      case 'Home':
        gotoFrame(0);
        break;
      case 'End':
        gotoFrame(doc.motion?.frameCount ?? 0);
        break;
      case '[':
        cycleSpeed(-1);
        break;
      case ']':
        cycleSpeed(1);
        break;
      default:
        switch (key) {
          case 'k':
            toggleKeyAtPlayhead();
            break;
          case 'l':
            toggleLockAtPlayhead();
            break;
          case 't':
            toggleTraceAtPlayhead();
            break;
          case 'f':
            s.requestFrameAll();
            break;
          case 'a':
            zoomTimeToFit();
            break;
          case 'e':
            s.setCurveChannel('euler');
            break;
          case 'q':
            s.setCurveChannel('quat');
            break;
          case 'o':
            s.setCurveChannel('offset');
            break;
          default:
            handled = false;
        }
    }
    if (handled) {
      e.preventDefault();
      // Keep Space from also "clicking" a focused button.
      if (document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
    }
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
