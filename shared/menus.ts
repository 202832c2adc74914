/**
 * The menu model: the menus both the native menu (electron/menu.ts) and the in-page menu bar
 * (renderer/components/MenuBar.tsx) show, their commands, labels, order and separators, written once. Each surface
 * fills the slots with what only it has (Electron roles and Open Recent; the page's view toggles, Close and recent
 * files) and takes accelerators from the one shortcut table (shared/shortcuts.ts).
 */
import type { MenuCommandId } from './ipc/menu';
import { EVENTS_MENU, type EventsMenuItem } from './eventsMenu';

/** Where a surface puts its own items. */
export type MenuSlot = 'openRecent' | 'fileEnd' | 'editEnd' | 'viewStart' | 'viewEnd' | 'playbackEnd';

export interface MenuCommandItem {
  command: MenuCommandId;
  label: string;
  /** The in-page menu bar's label where it differs from the native one. */
  pageLabel?: string;
  /** Shown by one surface only. */
  only?: 'native' | 'page';
  /** An Events command's event key, shown as a hint (shared/eventsMenu.ts). */
  key?: EventsMenuItem['key'];
}

export type MenuEntry = MenuCommandItem | 'separator' | { slot: MenuSlot };

export interface MenuModel {
  title: 'File' | 'Edit' | 'Events' | 'View' | 'Playback';
  entries: readonly MenuEntry[];
}

export const MENUS: readonly MenuModel[] = [
  {
    title: 'File',
    entries: [
      { command: 'file.open', label: 'Open…' },
      { slot: 'openRecent' },
      'separator',
      { command: 'file.save', label: 'Save' },
      { command: 'file.saveAs', label: 'Save As…' },
      { command: 'file.exportMt3', label: 'Export .mt3…' },
      'separator',
      { command: 'file.import', label: 'Import Motion (BVH, glTF, FBX)…' },
      { command: 'file.exportGltfSource', label: 'Export glTF (source)…' },
      { command: 'file.exportGltfCompressed', label: 'Export glTF (compressed)…' },
      { command: 'file.exportMsh', label: 'Export MSH…' },
      'separator',
      { command: 'project.open', label: 'Open Project…' },
      { command: 'project.save', label: 'Save Project' },
      { command: 'project.build', label: 'Build Archives (.mar, .sar)…' },
      { command: 'project.exportAllMsh', label: 'Export All as MSH…' },
      { command: 'project.exportAllGltf', label: 'Export All as glTF…' },
      { command: 'sev.open', label: 'Open .sev…' },
      'separator',
      { slot: 'fileEnd' },
    ],
  },
  {
    title: 'Edit',
    entries: [
      { command: 'edit.undo', label: 'Undo' },
      { command: 'edit.redo', label: 'Redo' },
      'separator',
      { slot: 'editEnd' },
    ],
  },
  { title: 'Events', entries: EVENTS_MENU },
  {
    title: 'View',
    entries: [
      { command: 'view.resetCamera', label: 'Reset Camera', only: 'native' },
      { command: 'view.zoomToFit', label: 'Zoom to Fit', only: 'native' },
      { slot: 'viewStart' },
      'separator',
      { command: 'view.maximizeTuning', label: 'Maximize Tuning' },
      { command: 'view.maximizeSev', label: 'Maximize Sound Events' },
      { command: 'view.maximizeProject', label: 'Maximize Project' },
      { command: 'view.showAllPanels', label: 'Show All Panels' },
      { command: 'view.resetLayout', label: 'Reset Layout' },
      'separator',
      { slot: 'viewEnd' },
    ],
  },
  {
    title: 'Playback',
    entries: [
      { command: 'playback.togglePlay', label: 'Play / Pause', pageLabel: 'Play' },
      { command: 'playback.stepForward', label: 'Next Frame', pageLabel: 'Step forward' },
      { command: 'playback.stepBack', label: 'Previous Frame', pageLabel: 'Step back' },
      { command: 'playback.firstFrame', label: 'First Frame', pageLabel: 'First frame' },
      { command: 'playback.lastFrame', label: 'Last Frame', pageLabel: 'Last frame' },
      { slot: 'playbackEnd' },
    ],
  },
];

/**
 * One surface's view of a menu: its items in order with that surface's labels, each slot replaced by what
 * `fill` gives for it (nothing when it gives nothing).
 */
export function menuEntriesFor<T>(
  menu: MenuModel,
  surface: 'native' | 'page',
  item: (i: MenuCommandItem & { label: string }) => T,
  separator: T,
  fill: (slot: MenuSlot) => readonly T[],
): T[] {
  const out: T[] = [];
  for (const e of menu.entries) {
    if (e === 'separator') out.push(separator);
    else if ('slot' in e) out.push(...fill(e.slot));
    else if (!e.only || e.only === surface)
      out.push(item({ ...e, label: surface === 'page' ? (e.pageLabel ?? e.label) : e.label }));
  }
  return out;
}
