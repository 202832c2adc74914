import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { RecentFile } from '../shared/ipc/documents';
import type { MenuCommand, MenuCommandId } from '../shared/ipc/menu';
import { EVENT_SHORTCUTS, primaryShortcut } from '../shared/shortcuts';
import { EVENTS_MENU } from '../shared/eventsMenu';

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
  /** Commands the renderer says cannot run now (DocumentStateReport.disabledCommands): their items are greyed out. */
  disabledCommands?: readonly MenuCommandId[];
}

/** The native menu (see appMenuTemplate). */
export function buildAppMenu(o: AppMenuOptions): Menu {
  return Menu.buildFromTemplate(appMenuTemplate(o));
}

/**
 * The native menu's items. Every item works: commands the renderer performs
 * are sent to it; the rest are Electron roles. Accelerators come from the one
 * shortcut table (shared/shortcuts.ts): the menu registers the `native` ones
 * and owns them (the page leaves those keys alone under Electron); keys the
 * page handles itself (Space, arrows, Home/End) are shown as hints but not
 * registered, so typing in a text field is never hijacked. macOS registers
 * every accelerator a menu item carries (`registerAccelerator: false` works
 * only on Windows and Linux), so there those items carry none.
 */
export function appMenuTemplate(o: AppMenuOptions): MenuItemConstructorOptions[] {
  const platform = o.isMac ? 'mac' : 'other';
  const disabled = new Set(o.disabledCommands ?? []);
  // A key the page owns is shown on the item without being registered; macOS ignores registerAccelerator (the
  // menu would take Space from a text field), so there the item carries no accelerator at all.
  const hint = (accelerator: string, registered: boolean): MenuItemConstructorOptions =>
    registered ? { accelerator } : o.isMac ? {} : { accelerator, registerAccelerator: false };
  const item = (label: string, command: MenuCommandId): MenuItemConstructorOptions => {
    const binding = primaryShortcut(command, platform);
    return {
      label,
      ...(binding ? hint(binding.accelerator, binding.native) : {}),
      ...(disabled.has(command) ? { enabled: false } : {}),
      click: () => o.send({ command }),
    };
  };
  // The Events menu: its keys (Ctrl+C, Delete, Alt+←, ...) act only while the SEV editor's event list or row has
  // the keyboard, so the page owns them; the menu shows them as hints and never registers them (Ctrl+C stays
  // Edit › Copy elsewhere). On macOS it cannot show them without registering them: they are left off.
  const eventsMenu: MenuItemConstructorOptions[] = EVENTS_MENU.map((e): MenuItemConstructorOptions => {
    if (e === 'separator') return { type: 'separator' };
    const key = e.key && EVENT_SHORTCUTS.find((b) => b.action === e.key);
    return { ...item(e.label, e.command), ...(key ? hint(key.accelerator, false) : {}) };
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
        item('Open…', 'file.open'),
        { label: 'Open Recent', submenu: recent },
        { type: 'separator' },
        item('Save', 'file.save'),
        item('Save As…', 'file.saveAs'),
        item('Export .mt3…', 'file.exportMt3'),
        { type: 'separator' },
        item('Import Motion (BVH, glTF, FBX)…', 'file.import'),
        item('Export glTF (source)…', 'file.exportGltfSource'),
        item('Export glTF (compressed)…', 'file.exportGltfCompressed'),
        item('Export MSH…', 'file.exportMsh'),
        { type: 'separator' },
        item('Open Project…', 'project.open'),
        item('Save Project', 'project.save'),
        item('Build Archives…', 'project.build'),
        item('Open .sev…', 'sev.open'),
        { type: 'separator' },
        o.isMac ? { role: 'close' } : { role: 'quit', label: 'Exit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        item('Undo', 'edit.undo'),
        item('Redo', 'edit.redo'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'Events', submenu: eventsMenu },
    {
      label: 'View',
      submenu: [
        item('Reset Camera', 'view.resetCamera'),
        item('Zoom to Fit', 'view.zoomToFit'),
        { type: 'separator' },
        item('Maximize Tuning', 'view.maximizeTuning'),
        item('Maximize Sound Events', 'view.maximizeSev'),
        item('Maximize Project', 'view.maximizeProject'),
        item('Show All Panels', 'view.showAllPanels'),
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
        item('Play / Pause', 'playback.togglePlay'),
        item('Next Frame', 'playback.stepForward'),
        item('Previous Frame', 'playback.stepBack'),
        item('First Frame', 'playback.firstFrame'),
        item('Last Frame', 'playback.lastFrame'),
      ],
    },
    { label: 'Help', submenu: [{ label: `About ${o.appName}`, click: () => o.showAbout() }] },
  );
  return template;
}
