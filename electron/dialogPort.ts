/**
 * The dialogs the handlers need, as a port: Electron implements it with native
 * dialogs (electron/nativeDialogs.ts); over loopback there is no native UI and
 * the renderer-side client serves the dialog members with its in-app picker,
 * so the loopback port refuses with a message saying so.
 */
export interface FileFilter {
  /** Shown in the dialog, e.g. "Motion (.mtn)". */
  name: string;
  /** Extensions without the dot. */
  extensions: string[];
}

export interface DialogPort {
  /** Resolves the chosen absolute path, or null when cancelled. */
  chooseFileToOpen(options: { title: string; filters: FileFilter[]; defaultPath?: string }): Promise<string | null>;
  /** Several files at once (File > Import); resolves the chosen absolute paths, or null when cancelled. Without it, one file is asked for. */
  chooseFilesToOpen?(options: { title: string; filters: FileFilter[]; defaultPath?: string }): Promise<string[] | null>;
  /** Resolves the chosen absolute path, or null when cancelled. */
  chooseFileToSave(options: { title: string; filters: FileFilter[]; defaultPath?: string }): Promise<string | null>;
  /**
   * A folder (Export All: every motion's files go into it); resolves its absolute path, or null when cancelled. Without
   * it, a file in the folder is asked for with chooseFileToSave.
   */
  chooseFolder?(options: { title: string; buttonLabel: string; defaultPath?: string }): Promise<string | null>;
  /** Resolves true when the user confirms. */
  confirm(options: {
    title: string;
    message: string;
    detail?: string;
    confirmLabel: string;
    cancelLabel: string;
  }): Promise<boolean>;
}

/** The loopback transport's port: every dialog is the renderer's in-app picker, never the server's. */
export const loopbackDialogPort: DialogPort = {
  chooseFileToOpen: () => Promise.reject(new Error(noNativeDialogs)),
  chooseFileToSave: () => Promise.reject(new Error(noNativeDialogs)),
  confirm: () => Promise.reject(new Error(noNativeDialogs)),
};

const noNativeDialogs =
  'there are no native dialogs over the loopback transport; the page serves file dialogs with its in-app picker (listWorkspace)';
