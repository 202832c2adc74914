/**
 * The one way a menu command runs in the renderer, whoever sent it: the
 * native menu (Electron), the page's key handler (browser build), the
 * in-window menu bar, or the main process handing over a file the OS gave it.
 * What each command does is registered by its feature (renderer/app/commandRegistry.ts).
 *
 * Every path respects an open modal: while a question, a file picker, the
 * import options or the build dialog is open, commands do not run behind it
 * (the native menu's accelerators still fire under Electron, so the check is
 * here and not only in the key handler). A file the OS handed over meanwhile
 * is kept and opened once the dialog is answered.
 */
import type { MenuCommand } from '../../shared/ipc';
import { systemFileKindOfPath } from '../../shared/systemFiles';
import { basenameOf } from '../../shared/project/paths';
import { importOptionsStore } from '../interchange/importOptions';
import { projectStore } from '../project/projectStore';
import { openProject, openProjectForSev } from '../project/projectFiles';
import { sessionStore } from '../state/sessionStore';
import { openPath } from './motionFiles';
import { ALL_PARTS, confirmUnsaved } from './unsaved';
import { runRegisteredCommand } from './commandRegistry';
import { fieldUndo, isOneLineField } from './fieldUndo';

/** A text field that has its own keys and its own undo. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el !== 'object' || !('tagName' in el)) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT') return !['checkbox', 'radio', 'range', 'button'].includes((el as HTMLInputElement).type);
  return false;
}

/**
 * Commits a value still being typed: the fields take what was typed on blur (or Enter), so a command run from the
 * keyboard while one has the focus (Ctrl+S, Ctrl+E, Ctrl+B: no click moved the focus away) worked on the value before
 * it, said "Saved", and the typed value became an edit after the save (tried cold, round 3). A select holds nothing
 * uncommitted and keeps the focus.
 */
export function commitFieldBeingTyped(): void {
  if (typeof document === 'undefined') return;
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.tagName !== 'SELECT' && isTypingTarget(active)) active.blur();
}

/** Whether an in-app modal dialog is open (its keys and answers come first). */
export function isModalOpen(): boolean {
  const s = sessionStore.getState();
  if (s.picker || s.confirm || importOptionsStore.getState().request || projectStore.getState().build) return true;
  // Any other dialog marked modal in the page.
  return typeof document !== 'undefined' && document.querySelector('[aria-modal="true"]') !== null;
}

/** Files handed over by the OS while a modal was open, opened in order once it closes. */
const waitingForModal: MenuCommand[] = [];
let watching = false;

function openWhenModalCloses(cmd: MenuCommand): void {
  waitingForModal.push(cmd);
  if (watching) return;
  watching = true;
  const stops: (() => void)[] = [];
  const check = () => {
    if (isModalOpen()) return;
    stops.forEach((stop) => stop());
    watching = false;
    const next = waitingForModal.splice(0);
    void (async () => {
      for (const c of next) await runCommand(c);
    })();
  };
  stops.push(sessionStore.subscribe(check), importOptionsStore.subscribe(check), projectStore.subscribe(check));
}

/**
 * Opens a file the OS handed over, in the place its kind belongs: a motion in
 * the tuner, a project in the project panel, a .sev in the project that lists
 * it (`projectPath`, which main found beside it).
 */
export async function openSystemFile(path: string, projectPath?: string): Promise<void> {
  const kind = systemFileKindOfPath(path);
  if (kind === 'motion') return openPath(path);
  if (kind === 'project') {
    if (await confirmUnsaved('open another project', ALL_PARTS)) await openProject(path, true);
    return;
  }
  if (kind === 'sev') {
    if (projectPath) {
      if (await confirmUnsaved('open another project', ALL_PARTS)) await openProjectForSev(projectPath, path);
      return;
    }
    sessionStore
      .getState()
      .notify(
        'warning',
        `${basenameOf(path)}: a .sev is edited in the project that lists it, and no project (*.actguy.json) beside it does. Open or create that project (File › Open Project…).`,
        'app',
      );
    return;
  }
  sessionStore
    .getState()
    .notify(
      'error',
      `${basenameOf(path)}: ActGuy opens motions (.mtn, .mt3, .mar), .sev files and projects (.actguy.json).`,
      'app',
    );
}

/**
 * Runs a menu command. Undo/Redo while typing in a field act on what was typed there (fieldUndo), or, in a field
 * holding nothing typed, are the app's, the keyboard staying in the field; anything else waits for (files) or is
 * ignored under (commands) an open modal. Resolves when the command has finished.
 */
export async function runCommand(cmd: MenuCommand): Promise<void> {
  if (
    (cmd.command === 'edit.undo' || cmd.command === 'edit.redo') &&
    typeof document !== 'undefined' &&
    isTypingTarget(document.activeElement)
  ) {
    const active = document.activeElement;
    const which = cmd.command === 'edit.undo' ? 'undo' : 'redo';
    // A text area (the .sev text view) keeps the browser's undo, line by line.
    if (!isOneLineField(active) && !(active instanceof HTMLSelectElement)) {
      document.execCommand(which);
      return;
    }
    if (fieldUndo(active, which) || isModalOpen()) return;
    await runRegisteredCommand(cmd);
    return;
  }
  if (isModalOpen()) {
    if (cmd.command === 'file.openFromSystem') openWhenModalCloses(cmd);
    return;
  }
  commitFieldBeingTyped();
  await runRegisteredCommand(cmd);
}
