/**
 * Keyboard shortcuts. Space play, arrows step, K key, L lock, T trace key,
 * Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z) undo/redo, Ctrl+S save, Ctrl+Shift+S save as,
 * Ctrl+O open, Ctrl+E export, Ctrl+I import, F frame all, A show all frames, E/Q/O curve channel,
 * [ / ] speed, Home/End, Up/Down select the previous/next joint.
 * Ignored while typing in a field or while a modal is open.
 */
import { documentStore } from '../state/documentStore';
import { redoLatest, undoLatest } from '../sev/undoOrder';
import { sessionStore } from '../state/sessionStore';
import {
  cycleSpeed, exportMt3, gotoFrame, openDialog, save, saveAs, step, toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead,
  togglePlay, zoomTimeToFit, importMotion,
} from './controller';
import { importOptionsStore } from '../interchange/importOptions';
import { hasOwnUndo, isTyping } from './textFields';

export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    const s = sessionStore.getState();
    if (s.picker || s.confirm || importOptionsStore.getState().request) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const doc = documentStore.getState();
    if (mod) {
      // Inside a text field Ctrl+Z / Ctrl+Y are the field's own undo: an app undo there would revert a hidden edit.
      if ((key === 'z' || key === 'y') && hasOwnUndo(e.target)) return;
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
      case 'ArrowDown': {
        const m = doc.motion;
        if (!m) break;
        const next = s.selectedJoint + (e.key === 'ArrowUp' ? -1 : 1);
        s.select(Math.max(-1, Math.min(m.joints.length - 1, next)));
        break;
      }
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
