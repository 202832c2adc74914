import { dialog, type BrowserWindow } from 'electron';
import type { DialogPort } from './dialogPort';

/**
 * Native open/save/folder/confirm dialogs, modal to the app window, one at a time. The page asks for each over IPC, and a
 * second ask can come while one is on screen (⌘O from the menu during a Save As sheet, which macOS still delivers; a
 * page in a loop): Electron would stack or queue the second, shown the moment the first is answered, for a command
 * the user gave while a dialog was open. A dialog asked for while one is open is answered as cancelled (nothing is
 * opened, saved or discarded); main's own questions (close, crash) do not pass here.
 */
export function createNativeDialogPort(window: () => BrowserWindow | null): DialogPort {
  let open = false;
  /** Runs `show` unless a dialog is on screen, in which case the ask is answered `cancelled`. */
  const oneAtATime = async <T>(cancelled: T, show: () => Promise<T>): Promise<T> => {
    if (open) return cancelled;
    open = true;
    try {
      return await show();
    } finally {
      open = false;
    }
  };
  const port: DialogPort = {
    async chooseFileToOpen({ title, filters, defaultPath }) {
      const win = window();
      const options: Electron.OpenDialogOptions = { title, filters, defaultPath, properties: ['openFile'] };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    },
    async chooseFilesToOpen({ title, filters, defaultPath }) {
      const win = window();
      const options: Electron.OpenDialogOptions = {
        title,
        filters,
        defaultPath,
        properties: ['openFile', 'multiSelections'],
      };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths;
    },
    async chooseFileToSave({ title, filters, defaultPath }) {
      const win = window();
      const options: Electron.SaveDialogOptions = {
        title,
        filters,
        defaultPath,
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseFolder({ title, buttonLabel, defaultPath }) {
      const win = window();
      // createDirectory: macOS's New Folder button (Windows and Linux dialogs have their own).
      const options: Electron.OpenDialogOptions = {
        title,
        buttonLabel,
        defaultPath,
        properties: ['openDirectory', 'createDirectory'],
      };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    },
    async confirm({ title, message, detail, confirmLabel, cancelLabel }) {
      const win = window();
      const options: Electron.MessageBoxOptions = {
        type: 'warning',
        title,
        message,
        detail,
        buttons: [confirmLabel, cancelLabel],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      };
      const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return r.response === 0;
    },
  };
  return {
    chooseFileToOpen: (options) => oneAtATime(null, () => port.chooseFileToOpen(options)),
    chooseFilesToOpen: (options) => oneAtATime(null, () => port.chooseFilesToOpen!(options)),
    chooseFileToSave: (options) => oneAtATime(null, () => port.chooseFileToSave(options)),
    chooseFolder: (options) => oneAtATime(null, () => port.chooseFolder!(options)),
    confirm: (options) => oneAtATime(false, () => port.confirm(options)),
  };
}
