/**
 * The tuner's commands (File, Edit, View, Playback, Help) and its savable part, the motion: registered at start-up
 * (renderer/app/features.ts). `enabled` is what the in-page menu bar greys out.
 */
import { basenameOf } from '../../shared/project/paths';
import { systemFileKindOfPath } from '../../shared/systemFiles';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { projectLayoutStore } from '../project/layout';
import { openRecentProject } from '../project/projectFiles';
import { latestRedoLabel, latestUndoLabel, redoLatest, undoLatest } from '../sev/undoOrder';
import { askChoice } from './dialogs';
import { requireApi } from './appApi';
import { registerCommands } from './commandRegistry';
import { registerSavablePart } from './savableParts';
import { saveAllAndCloseWindow } from './unsaved';
import { exportMt3, openDialog, openPath, save, saveAs } from './motionFiles';
import { exportGltf, exportMsh, importMotion } from './interchange';
import { gotoFrame, step, togglePlay, zoomTimeToFit } from './playhead';
import { showShortcuts } from '../components/ShortcutsDialog';

const hasMotion = () => !!documentStore.getState().motion;
const editable = () => hasMotion() && !documentStore.getState().readOnly;

async function showAbout(): Promise<void> {
  let version = '';
  try {
    version = (await requireApi().getAppInfo()).version;
  } catch {
    /* about still shows without a version */
  }
  await askChoice({
    title: 'About ActGuy',
    text: `ActGuy ${version}: motion-compression tuner for .mtn → .mt3 (MGS2-style pipeline).`,
    buttons: [{ id: 'ok', label: 'OK', primary: true }],
  });
}

/**
 * Opens an entry of File › Open Recent: a project as File › Open Project opens it (main grants it only when its own
 * recent list holds that project), a motion as File › Open does.
 */
export function openRecent(path: string): Promise<void> {
  return systemFileKindOfPath(path) === 'project' ? openRecentProject(path) : openPath(path);
}

export function registerAppCommands(): void {
  registerCommands([
    { id: 'file.open', run: () => openDialog() },
    { id: 'file.openRecent', run: (cmd) => (cmd.path ? openRecent(cmd.path) : undefined) },
    { id: 'file.save', run: () => save(), enabled: editable },
    { id: 'file.saveAs', run: () => saveAs(), enabled: hasMotion },
    { id: 'file.exportMt3', run: () => exportMt3(), enabled: editable },
    { id: 'file.import', run: () => importMotion() },
    { id: 'file.exportGltfSource', run: () => exportGltf('source'), enabled: hasMotion },
    { id: 'file.exportGltfCompressed', run: () => exportGltf('compressed'), enabled: editable },
    { id: 'file.exportMsh', run: () => exportMsh(), enabled: hasMotion },
    { id: 'edit.undo', run: () => undoLatest(), enabled: () => !!latestUndoLabel() },
    { id: 'edit.redo', run: () => redoLatest(), enabled: () => !!latestRedoLabel() },
    {
      id: 'view.resetCamera',
      run: () => {
        sessionStore.getState().requestFrameAll();
        zoomTimeToFit();
      },
    },
    {
      id: 'view.zoomToFit',
      run: () => {
        sessionStore.getState().requestFrameAll();
        zoomTimeToFit();
      },
    },
    { id: 'view.maximizeTuning', run: () => projectLayoutStore.getState().toggleMaximized('tuning') },
    { id: 'view.maximizeSev', run: () => projectLayoutStore.getState().toggleMaximized('sev') },
    { id: 'view.maximizeProject', run: () => projectLayoutStore.getState().toggleMaximized('project') },
    { id: 'view.showAllPanels', run: () => projectLayoutStore.getState().showAllPanels() },
    { id: 'view.resetLayout', run: () => projectLayoutStore.getState().resetLayout() },
    { id: 'playback.togglePlay', run: () => togglePlay(), enabled: hasMotion },
    { id: 'playback.stepForward', run: () => step(1), enabled: hasMotion },
    { id: 'playback.stepBack', run: () => step(-1), enabled: hasMotion },
    { id: 'playback.firstFrame', run: () => gotoFrame(0), enabled: hasMotion },
    {
      id: 'playback.lastFrame',
      run: () => gotoFrame(documentStore.getState().motion?.frameCount ?? 0),
      enabled: hasMotion,
    },
    { id: 'help.about', run: () => showAbout() },
    { id: 'help.shortcuts', run: () => showShortcuts() },
    { id: 'app.saveAllAndClose', run: () => saveAllAndCloseWindow() },
  ]);
  registerSavablePart({
    part: 'motion',
    isDirty: () => {
      const doc = documentStore.getState();
      return !!doc.motion && doc.dirty;
    },
    name: () => {
      const doc = documentStore.getState();
      return doc.path ? basenameOf(doc.path) : doc.name;
    },
    save: () => save(),
  });
}
