import { dialog, type BrowserWindow } from 'electron';
import type { DialogPort } from './dialogPort';

/** Native open/save/confirm dialogs, modal to the app window. */
export function createNativeDialogPort(window: () => BrowserWindow | null): DialogPort {
  return {
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
}
