/**
 * Renderer entry: registers the features' commands, connects the stores to the main-process API, registers the
 * in-app dialogs (loopback has no native ones), starts the playback clock and
 * the shortcuts, renders the window and opens the start-up motion.
 */
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { getApi, setInAppDialogs } from './transport';
import { documentStore } from './state/documentStore';
import { compressionStore, connectCompression } from './state/compressionStore';
import { withCompressDeltas } from './state/compressDeltas';
import { sessionStore } from './state/sessionStore';
import { openPath } from './app/motionFiles';
import { setAppApi } from './app/appApi';
import { openSystemFile, runCommand } from './app/commands';
import { anyUnsaved, reportDocumentStateOnChange } from './app/unsaved';
import { registerFeatures } from './app/features';
import { backupUnsavedOnChange, restoreHeldBackups } from './app/backups';
import { askChoice, pickPathInApp, pickPathsInApp } from './app/dialogs';
import { rememberPickerFolder, startFolderFor } from './app/pickerFolders';
import { installShortcuts } from './app/shortcuts';
import { installDropTarget } from './app/dropFiles';
import { startPlaybackClock } from './app/playback';
import { onSettingsWriteFailure, preferencesReadWarning } from './state/preferencesStore';
import { layoutReadWarning } from './project/layout';
import './styles.css';

function start(): void {
  // Every feature's commands and savable parts, before any menu, key or file can run one.
  registerFeatures();
  createRoot(document.getElementById('root')!).render(<App />);
  // index.html's "did not start", for a script that never ran: this one ran, and the first paint waits for it.
  document.getElementById('did-not-start')?.remove();
  installShortcuts();
  startPlaybackClock();
  // Native menu commands, files the OS handed to main and files dropped on the window run once the start-up motion
  // (and any unsaved work brought back) is open, so that one cannot replace them.
  let startedUp: () => void = () => {};
  const startup = new Promise<void>((done) => (startedUp = done));
  // Files dragged over the window: the overlay, and a drop opens one (never the browser's own open in place of the app).
  installDropTarget(window, startup);

  let api;
  try {
    api = getApi();
  } catch (err) {
    sessionStore.getState().notify('error', err instanceof Error ? err.message : String(err), 'app');
    startedUp(); // a drop then says what is missing instead of waiting for ever
    return;
  }
  setAppApi(api);
  setInAppDialogs({
    // Each picker starts where the user last was for that kind of file (or the document's folder) and remembers
    // where they chose (renderer/app/pickerFolders.ts).
    pickPath: async ({ mode, title, extensions, defaultName, listing, willWrite }) => {
      const path = await pickPathInApp({
        mode,
        title,
        extensions,
        defaultName: defaultName ?? '',
        root: listing.root,
        files: listing.files,
        folders: listing.folders,
        startFolder: startFolderFor(extensions, listing),
        ...(willWrite && { willWrite }),
        makeFolder: async (parent, name) => (await api.makeWorkspaceFolder({ parent, name })).relativePath,
        incomplete: listing.incomplete,
      });
      if (path) rememberPickerFolder(extensions, listing.root, path, mode === 'folder');
      return path;
    },
    pickPaths: async ({ title, extensions, listing }) => {
      const paths = await pickPathsInApp({
        title,
        extensions,
        defaultName: '',
        root: listing.root,
        files: listing.files,
        folders: listing.folders,
        startFolder: startFolderFor(extensions, listing),
        incomplete: listing.incomplete,
      });
      if (paths?.length) rememberPickerFolder(extensions, listing.root, paths[0]);
      return paths;
    },
    confirm: async ({ title, message, confirmLabel }) =>
      (await askChoice({
        title,
        text: message,
        buttons: [
          { id: 'yes', label: confirmLabel, primary: true },
          { id: 'cancel', label: 'Cancel' },
        ],
      })) === 'yes',
  });
  // Answers after the first come as changes from the previous one (a key toggle changes one channel of 32).
  connectCompression(
    documentStore,
    compressionStore,
    withCompressDeltas((req) => api.compressMotion(req)),
  );
  reportDocumentStateOnChange();
  // Native menu commands and files the OS handed to main (renderer/app/commands.ts: respects an open modal).
  // Main sends the files it kept during start-up right after the app info below (they wait for `startup` too).
  api.onMenuCommand((cmd) => void startup.then(() => runCommand(cmd)));

  // A stored setting whose write fails (storage full or blocked) lasts for this window only: said once, not found
  // out at the next start.
  onSettingsWriteFailure((text) => sessionStore.getState().notify('warning', text, 'app'));

  // Browser (loopback) mode: the tab itself asks before leaving with unsaved edits. Not under Electron: there
  // main asks on the window's close event (reportDocumentState), and a cancelled beforeunload would silently
  // keep the window open after the user chose to discard.
  if (!window.actguy) {
    window.addEventListener('beforeunload', (e) => {
      if (anyUnsaved()) e.preventDefault(); // the motion, the SEV or the project
    });
  }

  void (async () => {
    try {
      const info = await api.getAppInfo();
      // What main found damaged in its user-data folder (the recent files) is said at once, before the start-up open.
      for (const w of info.startupWarnings ?? []) sessionStore.getState().notify('warning', w, 'app');
      // And what the page set aside of its own stored settings (the preferences, the panel layout): read as input,
      // a damaged value keeps its default and is named here, never dropped in silence (docs/tuner.md).
      for (const w of [preferencesReadWarning(), layoutReadWarning()])
        if (w) sessionStore.getState().notify('warning', w, 'app');
      if (info.startupPath) await openPath(info.startupPath, false);
      for (const f of info.startupFiles ?? []) await openSystemFile(f.path, f.projectPath);
      if (info.startupNotice) sessionStore.getState().notify('info', info.startupNotice, 'app');
    } catch (err) {
      sessionStore
        .getState()
        .notify('error', `Start-up failed: ${err instanceof Error ? err.message : String(err)}`, 'app');
    }
    // Unsaved work a crashed page or app left with main comes back as unsaved documents; from now on every
    // unsaved part is copied to main shortly after it changes (renderer/app/backups.ts).
    let restored: Awaited<ReturnType<typeof restoreHeldBackups>> = [];
    try {
      restored = await restoreHeldBackups(api);
    } catch (err) {
      sessionStore
        .getState()
        .notify(
          'error',
          `Restoring unsaved changes failed: ${err instanceof Error ? err.message : String(err)}`,
          'app',
        );
    }
    backupUnsavedOnChange(api, { held: restored });
    startedUp();
  })();
}

start();
