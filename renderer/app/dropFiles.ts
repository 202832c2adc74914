/**
 * Drag and drop onto the window (docs/tuner.md#drag-and-drop). While files are dragged over the window an overlay
 * says what a drop will do; a drop of one file ActGuy opens hands the `File` to the API (never a path: under
 * Electron the preload asks where it lies and main grants it as a pick; the browser build answers that it cannot)
 * and opens it where its kind belongs, asking about unsaved edits exactly as File > Open, Import or Open Project
 * do. Several files, a kind ActGuy does not open, or a drop while a dialog is open are refused with a message.
 * Every drop is taken from the browser (preventDefault), so a file dropped on the page never replaces it.
 * A drop during start-up is held until the start-up file (and any unsaved work brought back) has opened, then opened:
 * opened at once, the start-up open replaced it moments later.
 */
import { createStore } from 'zustand/vanilla';
import { dropOverlayText, dropRefusal, shownName } from '../../shared/dropFiles';
import { sessionStore } from '../state/sessionStore';
import { failureText, requireApi } from './appApi';
import { isModalOpen, openSystemFile } from './commands';
import { importPath } from './interchange';
import { openPath } from './motionFiles';

/** What the drop overlay shows while files are dragged over the window, or null when none are. */
export interface DropHint {
  text: string;
  /** Whether dropping what is dragged opens something (else the text says why not). */
  ok: boolean;
}

export const dropStore = createStore<{ hint: DropHint | null }>()(() => ({ hint: null }));

/** Whether a drag carries files (not text or a link dragged inside the page). */
function carriesFiles(dt: DataTransfer | null): dt is DataTransfer {
  return !!dt && Array.from(dt.types ?? []).includes('Files');
}

/** How many files a drag carries and their names, when the browser shows them (a drag from another app: at the drop). */
function draggedFiles(dt: DataTransfer): { count: number; names: string[] } {
  const names = Array.from(dt.files ?? []).map((f) => f.name);
  const items = Array.from(dt.items ?? []).filter((i) => i.kind === 'file').length;
  return { count: Math.max(items, names.length), names };
}

/**
 * Opens the files of a drop: one file of a kind ActGuy opens, else a message saying why nothing was opened.
 * Resolves when the open (with its questions) has finished.
 */
export async function openDroppedFiles(files: readonly File[]): Promise<void> {
  const session = sessionStore.getState();
  const refusal = dropRefusal(files.map((f) => f.name));
  if (refusal) {
    session.notify('error', refusal, 'app');
    return;
  }
  const file = files[0];
  if (!file) return;
  if (isModalOpen()) {
    session.notify(
      'warning',
      `${shownName(file.name)}: answer the open dialog first, then drop the file again; nothing was opened.`,
      'app',
    );
    return;
  }
  let outcome;
  try {
    outcome = await requireApi().openDroppedFile(file);
  } catch (err) {
    session.notify('error', failureText(`Open ${shownName(file.name)}`, err), 'app');
    return;
  }
  if (outcome.status === 'unavailable') {
    session.notify('warning', outcome.message, 'app');
    return;
  }
  // The same flows (and unsaved-changes questions) as File > Open, Import and Open Project.
  if (outcome.kind === 'motion') await openPath(outcome.path);
  else if (outcome.kind === 'import') await importPath(outcome.path);
  else await openSystemFile(outcome.path, outcome.projectPath);
}

/**
 * Listens for drags over `win`: shows the overlay while files are over it and opens a dropped file. A file dropped
 * before `startedUp` resolves is held (a message says so) and opened after it, drops in the order they came; a drop
 * refused outright (several files, an unknown kind) is refused at once. Returns a function that stops listening.
 */
export function installDropTarget(win: Window, startedUp: Promise<void> = Promise.resolve()): () => void {
  let started = false;
  // Drops held during start-up open in turn, each after the one before has finished (its questions answered).
  let queue: Promise<void> = startedUp.then(
    () => void (started = true),
    () => void (started = true),
  );
  const open = (files: File[]) => {
    const first = files[0];
    // After start-up, or refused outright (the message says why nothing opens): at once, as before.
    if (started || !first || dropRefusal(files.map((f) => f.name))) {
      void openDroppedFiles(files);
      return;
    }
    sessionStore
      .getState()
      .notify(
        'info',
        `${shownName(first.name)} was dropped during start-up: it waits until the start-up file has opened.`,
        'app',
      );
    queue = queue
      .then(() => openDroppedFiles(files))
      .catch(
        (err) => void sessionStore.getState().notify('error', failureText(`Open ${shownName(first.name)}`, err), 'app'),
      );
  };
  // dragenter and dragleave fire for every element crossed: the overlay goes when the count of entries is back to 0.
  let depth = 0;
  const hide = () => {
    depth = 0;
    dropStore.setState({ hint: null });
  };
  const over = (e: DragEvent) => {
    if (!carriesFiles(e.dataTransfer)) return;
    // Taken from the browser: it would otherwise open the file in place of the app.
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    const { count, names } = draggedFiles(e.dataTransfer);
    const hint = dropOverlayText(count, names);
    const shown = dropStore.getState().hint;
    if (!shown || shown.text !== hint.text || shown.ok !== hint.ok) dropStore.setState({ hint });
  };
  const enter = (e: DragEvent) => {
    if (!carriesFiles(e.dataTransfer)) return;
    depth++;
    over(e);
  };
  const leave = (e: DragEvent) => {
    if (!carriesFiles(e.dataTransfer)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) hide();
  };
  const drop = (e: DragEvent) => {
    if (!carriesFiles(e.dataTransfer)) return;
    e.preventDefault();
    hide();
    open(Array.from(e.dataTransfer.files ?? []));
  };
  win.addEventListener('dragenter', enter);
  win.addEventListener('dragover', over);
  win.addEventListener('dragleave', leave);
  win.addEventListener('drop', drop);
  win.addEventListener('dragend', hide);
  // No pointer moves during a drag: one means the drag is over (a leave the count missed), so the overlay goes.
  const moved = () => {
    if (dropStore.getState().hint) hide();
  };
  win.addEventListener('pointermove', moved);
  win.addEventListener('blur', hide);
  return () => {
    win.removeEventListener('pointermove', moved);
    win.removeEventListener('blur', hide);
    win.removeEventListener('dragenter', enter);
    win.removeEventListener('dragover', over);
    win.removeEventListener('dragleave', leave);
    win.removeEventListener('drop', drop);
    win.removeEventListener('dragend', hide);
  };
}
