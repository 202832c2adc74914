import { Menu, type MenuItemConstructorOptions } from 'electron';
import { escapeControls } from '../shared/errors';
import type { RecentFile } from '../shared/ipc/documents';
import type { MenuCommand, MenuCommandId } from '../shared/ipc/menu';
import { EVENT_SHORTCUTS, primaryShortcut } from '../shared/shortcuts';
import { MENUS, menuEntriesFor, type MenuCommandItem, type MenuSlot } from '../shared/menus';

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
  /**
   * No window is open (macOS, where the app outlives it): only the commands that open something stay (they make the
   * window again: appWindow.ts createMenuDelivery); the others, which act on a document, are greyed out.
   */
  noWindow?: boolean;
}

/** The commands that open something: with no window (macOS) they make one; every other command is greyed out. */
const OPENING_COMMANDS: ReadonlySet<MenuCommandId> = new Set([
  'file.open',
  'file.import',
  'project.open',
  'sev.open',
  'help.shortcuts',
]);

/** The native menu (see appMenuTemplate). */
export function buildAppMenu(o: AppMenuOptions): Menu {
  return Menu.buildFromTemplate(appMenuTemplate(o));
}

/**
 * The native menu's items, in the order and with the labels of the one menu model (shared/menus.ts). Every item works: commands the renderer performs
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
  const greyed = (command: MenuCommandId) => disabled.has(command) || (o.noWindow && !OPENING_COMMANDS.has(command));
  // A key the page owns is shown on the item without being registered; macOS ignores registerAccelerator (the
  // menu would take Space from a text field), so there the item carries no accelerator at all.
  const hint = (accelerator: string, registered: boolean): MenuItemConstructorOptions =>
    registered ? { accelerator } : o.isMac ? {} : { accelerator, registerAccelerator: false };
  const item = (label: string, command: MenuCommandId): MenuItemConstructorOptions => {
    const binding = primaryShortcut(command, platform);
    return {
      label,
      ...(binding ? hint(binding.accelerator, binding.native) : {}),
      ...(greyed(command) ? { enabled: false } : {}),
      click: () => o.send({ command }),
    };
  };
  // Events items carry their event key (Ctrl+C, Delete, Alt+←, ...), which acts only while the SEV editor's event
  // list or row has the keyboard, so the page owns it; the menu shows it as a hint and never registers it (Ctrl+C
  // stays Edit › Copy elsewhere). On macOS it cannot show them without registering them: they are left off.
  const commandItem = (e: MenuCommandItem): MenuItemConstructorOptions => {
    const key = e.key && EVENT_SHORTCUTS.find((b) => b.action === e.key);
    return { ...item(e.label, e.command), ...(key ? hint(key.accelerator, false) : {}) };
  };
  const recent: MenuItemConstructorOptions[] =
    o.recentFiles.length === 0
      ? [{ label: 'No Recent Files', enabled: false }]
      : [
          ...o.recentFiles.map((f): MenuItemConstructorOptions => ({
            // A name or path may hold a line break or a bidi override; a project says it is one.
            label: escapeControls(`${f.name}${f.kind === 'project' ? ' (project)' : ''} — ${f.path}`),
            click: () => o.send({ command: 'file.openRecent', path: f.path }),
          })),
          { type: 'separator' },
          { label: 'Clear Recent', click: () => o.clearRecentFiles() },
        ];
  // What only the native menu has: Electron's roles and the Open Recent submenu.
  const slots: Record<MenuSlot, MenuItemConstructorOptions[]> = {
    openRecent: [{ label: 'Open Recent', submenu: recent }],
    fileEnd: [o.isMac ? { role: 'close' } : { role: 'quit', label: 'Exit' }],
    editEnd: [{ role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    viewStart: [],
    viewEnd: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(o.allowDevTools ? [{ type: 'separator' } as const, { role: 'toggleDevTools' } as const] : []),
    ],
    playbackEnd: [],
  };

  const template: MenuItemConstructorOptions[] = [];
  if (o.isMac)
    template.push({
      label: o.appName,
      submenu: [
        { label: `About ${o.appName}`, click: () => o.showAbout() },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  for (const menu of MENUS)
    template.push({
      label: menu.title,
      submenu: menuEntriesFor<MenuItemConstructorOptions>(
        menu,
        'native',
        commandItem,
        { type: 'separator' },
        (slot) => slots[slot],
      ),
    });
  // macOS's standard Window menu (Minimize ⌘M, Zoom, Bring All to Front): without it ⌘M does nothing.
  if (o.isMac) template.push({ role: 'windowMenu' });
  template.push({
    label: 'Help',
    submenu: [
      item('Keyboard Shortcuts', 'help.shortcuts'),
      { type: 'separator' },
      { label: `About ${o.appName}`, click: () => o.showAbout() },
    ],
  });
  return template;
}
