import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand, MenuCommandId, RecentFile } from '../shared/ipc';

export interface AppMenuOptions {
  appName: string;
  isMac: boolean;
  recentFiles: RecentFile[];
  /** Delivers a command to the renderer (which owns undo, dirty checks and dialogs). */
  send(command: MenuCommand): void;
  clearRecentFiles(): void;
  showAbout(): void;
  /** Developer tools only outside a packaged build. */
  allowDevTools: boolean;
}

/**
 * The native menu. Every item works: commands the renderer performs are sent
 * to it; the rest are Electron roles. Keys the renderer handles itself (Space,
 * arrows, Home/End, K/L/T) are shown as hints but not registered, so typing in
 * a text field is never hijacked.
 */
export function buildAppMenu(o: AppMenuOptions): Menu {
  const item = (label: string, command: MenuCommandId, accelerator?: string, registerAccelerator = true): MenuItemConstructorOptions => ({
    label,
    accelerator,
    registerAccelerator,
    click: () => o.send({ command }),
  });
  const recent: MenuItemConstructorOptions[] =
    o.recentFiles.length === 0
      ? [{ label: 'No Recent Files', enabled: false }]
      : [
          ...o.recentFiles.map((f): MenuItemConstructorOptions => ({ label: `${f.name} — ${f.path}`, click: () => o.send({ command: 'file.openRecent', path: f.path }) })),
          { type: 'separator' },
          { label: 'Clear Recent', click: () => o.clearRecentFiles() },
        ];

  const template: MenuItemConstructorOptions[] = [];
  if (o.isMac) template.push({ label: o.appName, submenu: [{ label: `About ${o.appName}`, click: () => o.showAbout() }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] });
  template.push(
    {
      label: 'File',
      submenu: [
        item('Open…', 'file.open', 'CmdOrCtrl+O'),
        { label: 'Open Recent', submenu: recent },
        { type: 'separator' },
        item('Save', 'file.save', 'CmdOrCtrl+S'),
        item('Save As…', 'file.saveAs', 'CmdOrCtrl+Shift+S'),
        item('Export .mt3…', 'file.exportMt3', 'CmdOrCtrl+E'),
        { type: 'separator' },
        item('Import Motion (BVH, glTF)…', 'file.import', 'CmdOrCtrl+I'),
        item('Export glTF (source)…', 'file.exportGltfSource'),
        item('Export glTF (compressed)…', 'file.exportGltfCompressed'),
        { type: 'separator' },
        item('Open Project…', 'project.open', 'CmdOrCtrl+Shift+O'),
        item('Save Project', 'project.save', 'CmdOrCtrl+Alt+S'),
        item('Build Archives…', 'project.build', 'CmdOrCtrl+B'),
        { type: 'separator' },
        o.isMac ? { role: 'close' } : { role: 'quit', label: 'Exit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        item('Undo', 'edit.undo', 'CmdOrCtrl+Z'),
        item('Redo', 'edit.redo', o.isMac ? 'Cmd+Shift+Z' : 'Ctrl+Y'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        item('Reset Camera', 'view.resetCamera'),
        item('Zoom to Fit', 'view.zoomToFit'),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(o.allowDevTools ? [{ type: 'separator' } as const, { role: 'toggleDevTools' } as const] : []),
      ],
    },
    {
      label: 'Playback',
      submenu: [
        item('Play / Pause', 'playback.togglePlay', 'Space', false),
        item('Next Frame', 'playback.stepForward', 'Right', false),
        item('Previous Frame', 'playback.stepBack', 'Left', false),
        item('First Frame', 'playback.firstFrame', 'Home', false),
        item('Last Frame', 'playback.lastFrame', 'End', false),
      ],
    },
    { label: 'Help', submenu: [{ label: `About ${o.appName}`, click: () => o.showAbout() }] },
  );
  return Menu.buildFromTemplate(template);
}
