/**
 * The API family of menu events (shared/ipc/api.ts): the commands the native menu sends the renderer.
 */

/**
 * Commands from the native menu (and accelerators the menu owns). The renderer
 * performs them so undo, dirty-checks and in-app dialogs stay in one place.
 */
export type MenuCommandId =
  | 'file.open'
  | 'file.openRecent'
  /** A file the OS handed over (motion, .sev or project); `path` names it, `projectPath` the project of a .sev. */
  | 'file.openFromSystem'
  | 'file.save'
  | 'file.saveAs'
  | 'file.exportMt3'
  | 'file.import'
  | 'file.exportGltfSource'
  | 'file.exportGltfCompressed'
  /** File › Export MSH…: the motion as MSH animation (.res8, .res19, .nodes.json). */
  | 'file.exportMsh'
  | 'edit.undo'
  | 'edit.redo'
  | 'view.resetCamera'
  | 'view.zoomToFit'
  /** Window layout: a work mode takes the whole window (again: the full layout comes back). */
  | 'view.maximizeTuning'
  | 'view.maximizeSev'
  | 'view.maximizeProject'
  /** Window layout: every panel shown and restored from collapsed, in the full layout. */
  | 'view.showAllPanels'
  /** Window layout: every mode's panels back to the sizes and states of a first start. */
  | 'view.resetLayout'
  | 'playback.togglePlay'
  | 'playback.stepForward'
  | 'playback.stepBack'
  | 'playback.firstFrame'
  | 'playback.lastFrame'
  | 'help.about'
  /** Help › Keyboard Shortcuts: every key of the app, read from the shortcut tables (shared/shortcuts.ts). */
  | 'help.shortcuts'
  /** The Save of the native close question (Electron): save every unsaved part, then close the window. */
  | 'app.saveAllAndClose'
  | 'project.open'
  | 'project.save'
  | 'project.build'
  /** Every motion and alias of the project as MSH animation / as glTF, into one folder (docs/interchange.md). */
  | 'project.exportAllMsh'
  | 'project.exportAllGltf'
  /** File › Open .sev…: a .sev with its motion, with or without a project. */
  | 'sev.open'
  /** The Events menu (shared/eventsMenu.ts): the SEV editor's actions on the open .sev, one undo step each. */
  | 'events.addAtPlayhead'
  | 'events.suggestFootsteps'
  | 'events.cut'
  | 'events.copy'
  | 'events.paste'
  | 'events.delete'
  | 'events.selectAll'
  | 'events.nudgeEarlier'
  | 'events.nudgeLater'
  | 'events.addSe'
  | 'events.saveSev';

export interface MenuCommand {
  command: MenuCommandId;
  /** For 'file.openRecent' and 'file.openFromSystem': the file to open. */
  path?: string;
  /** For 'file.openFromSystem' of a .sev: the project (*.actguy.json) beside it that lists it, when main found one. */
  projectPath?: string;
}
