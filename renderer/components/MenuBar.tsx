import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useDocument, usePreferences, useSession } from '../state/hooks';
import { undoLabel, redoLabel } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { cycleSpeed, zoomTimeToFit } from '../app/playhead';
import { openPath, closeDocument } from '../app/motionFiles';
import {
  TUNING_EDITS_HIDDEN_REASON,
  toggleKeyAtPlayhead,
  toggleLockAtPlayhead,
  toggleTraceAtPlayhead,
} from '../app/keyEdits';
import { getApi } from '../transport';
import type { MenuCommandId, RecentFile } from '../../shared/ipc';
import { acceleratorLabel, eventShortcutLabel, primaryShortcut } from '../../shared/shortcuts';
import { isModalOpen, runCommand } from '../app/commands';
import { openRecent } from '../app/appCommands';
import { recentLabels } from '../app/recentLabels';
import { currentShortcutPlatform } from '../app/shortcuts';
import { latestRedoLabel, latestUndoLabel, subscribeUndoOrder } from '../sev/undoOrder';
import { useSyncExternalStore } from 'react';
import { useProject, useSev } from '../sev/hooks';
import { isEventsMenuCommand } from '../../shared/eventsMenu';
import { eventsCommandsEnabled } from '../sev/eventsMenu';
import { MENUS, menuEntriesFor, type MenuCommandItem, type MenuSlot } from '../../shared/menus';
import { isCommandEnabled } from '../app/commandRegistry';
import { importOptionsStore } from '../interchange/importOptions';
import { projectStore } from '../project/projectStore';
import { PANELS, PANEL_TITLES, panelStates, projectLayoutStore } from '../project/layout';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { MenuItemButton } from './ContextMenu';

interface Item {
  label: string;
  shortcut?: string;
  run: () => void;
  disabled?: boolean;
  /** Why a disabled item cannot run now and what makes it available (its tooltip). */
  why?: string;
  checked?: boolean;
  testid?: string;
  /** The tooltip of an item that can run (a recent file: its whole path). */
  title?: string;
}
type Entry = Item | 'separator';

/** What a greyed command waits for, in the user's terms: a newcomer saw Save Project greyed with no reason. */
function whyDisabled(id: MenuCommandId, hasMotion: boolean, readOnly: boolean): string {
  if (id === 'project.save') return 'Open a project first (File › Open Project…)';
  // Looking for the .mar and .sar to export, a cold user found this item greyed with no word of how to get them.
  if (id === 'project.build')
    return 'Open a project first (File › Open Project…): the .mar and .sar are built from the motions and .sev files it lists';
  if (id === 'project.exportAllMsh' || id === 'project.exportAllGltf')
    return 'Open a project first (File › Open Project…): every motion it lists is exported into one folder';
  if (id === 'edit.undo') return 'Nothing to undo yet';
  if (id === 'edit.redo') return 'Nothing to redo';
  if (!hasMotion) return 'Open a motion first (File › Open…, Ctrl+O)';
  if (isEventsMenuCommand(id)) {
    if (!eventsCommandsEnabled()['events.addSe']) return 'Open the .sev of the motion shown (File › Open .sev…)';
    if (id === 'events.saveSev') return 'The .sev has no unsaved changes';
    if (id === 'events.paste') return 'Copy or cut events first';
    if (id === 'events.addAtPlayhead') return 'Define an SE first (Events › Add SE Definition)';
    if (id === 'events.selectAll') return 'The .sev has no events yet';
    return 'Select events first: click a diamond on the event row or a row of the event list';
  }
  if (readOnly) return 'A decoded .mt3 / .mar motion is shown, not edited: Save As… writes it as an .mtn you can edit';
  return 'Not available now';
}

/** The test ids of the page's command items (Events items are `menu-events-<name>`). */
const PAGE_TEST_IDS: Partial<Record<MenuCommandId, string>> = {
  'file.open': 'menu-open',
  'file.save': 'menu-save',
  'file.saveAs': 'menu-save-as',
  'file.exportMt3': 'menu-export',
  'file.import': 'menu-import',
  'file.exportGltfSource': 'menu-export-gltf-source',
  'file.exportGltfCompressed': 'menu-export-gltf-compressed',
  'file.exportMsh': 'menu-export-msh',
  'project.open': 'menu-open-project',
  'project.save': 'menu-save-project',
  'project.build': 'menu-build',
  'project.exportAllMsh': 'menu-export-all-msh',
  'project.exportAllGltf': 'menu-export-all-gltf',
  'sev.open': 'menu-open-sev',
  'edit.undo': 'menu-undo',
  'edit.redo': 'menu-redo',
  'view.maximizeTuning': 'menu-maximize-tuning',
  'view.maximizeSev': 'menu-maximize-sev',
  'view.maximizeProject': 'menu-maximize-project',
  'view.showAllPanels': 'menu-show-all-panels',
  'view.resetLayout': 'menu-reset-layout',
  'help.shortcuts': 'menu-shortcuts',
  'help.about': 'menu-about',
};

/** A menu command's run and shortcut label (from the one shortcut table, shared/shortcuts.ts). */
function command(id: MenuCommandId): Pick<Item, 'run' | 'shortcut'> {
  const platform = currentShortcutPlatform();
  const binding = primaryShortcut(id, platform);
  return {
    run: () => void runCommand({ command: id }),
    shortcut: binding ? acceleratorLabel(binding.accelerator, platform) : undefined,
  };
}

/**
 * The in-window menu bar (File / Edit / Events / View / Playback): the menus of the one menu model (shared/menus.ts)
 * that the native menu shows too, with the same commands; an item is greyed out when its command cannot run now.
 */
/** What the closed menu bar holds for the panels' states: it draws no item that reads them. */
const PANELS_UNREAD = Object.fromEntries(PANELS.map((id) => [id, 'open'])) as ReturnType<typeof panelStates>;

export function MenuBar() {
  const [open, setOpen] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentFile[]>([]);
  const bar = useRef<HTMLDivElement>(null);
  // A menu opened from the keyboard puts the focus on its first item (a click leaves the focus where it was).
  const focusOnOpen = useRef<'first' | 'last' | null>(null);
  const hasMotion = useDocument((d) => !!d.motion);
  const readOnly = useDocument((d) => d.readOnly);
  // Undo/Redo follow one order over motion and SEV edits (renderer/sev/undoOrder.ts).
  useDocument(undoLabel);
  useDocument(redoLabel);
  const undo = useSyncExternalStore(subscribeUndoOrder, latestUndoLabel);
  const redo = useSyncExternalStore(subscribeUndoOrder, latestRedoLabel);
  // Re-rendered when a project opens or closes (Save Project and Build Archives need one).
  useProject((p) => p.path !== null);
  const playing = useSession((s) => s.playing);
  const loop = usePreferences((p) => p.loop);
  // The View menu's checks; not the whole store, which a tuning-panel splitter drag changes at each pointer move.
  const prefs = usePreferences(
    useShallow((p) => ({
      showSource: p.showSource,
      showDecoded: p.showDecoded,
      showError: p.showError,
      curveNormalize: p.curveNormalize,
      showTrajectory: p.showTrajectory,
      showTrace: p.showTrace,
    })),
  );
  const channel = useSession((s) => s.curveChannel);
  const editable = hasMotion && !readOnly;
  // The Events menu's items follow the SEV editor (its file, selection and copy) and the motion shown.
  useSev((s) => s.selectedEvents.length);
  useSev((s) => s.file);
  const clipboard = useSev((s) => s.clipboard);
  const platform = currentShortcutPlatform();
  const eventKey = (a: Parameters<typeof eventShortcutLabel>[0]) => eventShortcutLabel(a, platform);
  // The panels' states and the work mode, not the whole layout (whose sizes change at each pointer move of a drag);
  // and only while a menu is open: a closed bar draws its titles alone, and each collapse or work mode re-rendered
  // it (docs/architecture.md, "Renderer review, round 5").
  const panels = useStore(
    projectLayoutStore,
    useShallow((l) => (open === null ? PANELS_UNREAD : panelStates(l))),
  );
  const maximized = useStore(projectLayoutStore, (l) => (open === null ? null : l.maximized));

  // An open menu closes on a press outside the bar, on Escape (before any other Escape handler) and when a dialog
  // opens over it. Listened for only while a menu is open: every press anywhere set the state to null and re-rendered
  // the menu bar (React renders once before it finds a state unchanged), a splitter drag's among them.
  useEffect(() => {
    if (open === null) return undefined;
    const close = (e: MouseEvent) => {
      if (bar.current && !bar.current.contains(e.target as Node)) setOpen(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      // From the keyboard, the focus goes back to the menu's title, not to the page's start.
      if (bar.current?.contains(document.activeElement)) titleOf(open)?.focus();
      setOpen(null);
    };
    const closeUnderModal = () => {
      if (isModalOpen()) setOpen(null);
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', onKey, true);
    const stops = [
      sessionStore.subscribe(closeUnderModal),
      projectStore.subscribe(closeUnderModal),
      importOptionsStore.subscribe(closeUnderModal),
    ];
    const modals = new MutationObserver(closeUnderModal);
    modals.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-modal'],
    });
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', onKey, true);
      stops.forEach((stop) => stop());
      modals.disconnect();
    };
  }, [open]);
  useEffect(() => {
    const where = focusOnOpen.current;
    focusOnOpen.current = null;
    if (open === null || where === null) return;
    const items = itemsOf(open);
    (where === 'first' ? items[0] : items[items.length - 1])?.focus();
  }, [open]);
  const documentId = useDocument((d) => d.documentId);
  useEffect(() => {
    // Refreshed when a document opens and when the File menu opens.
    if (open !== 'File' && open !== null) return;
    let api;
    try {
      api = getApi();
    } catch {
      return; // no main process: the message bar already says why
    }
    api
      .getRecentFiles()
      .then(setRecent)
      .catch(() => setRecent([]));
  }, [open, documentId]);

  // The tuning edits at the playhead are greyed, with the reason, where the work mode hides the tuning panel.
  const tuningShown = panels.tuning !== 'hidden';
  const tuningEdit = (what: string): Pick<Item, 'disabled' | 'why' | 'testid'> => ({
    disabled: !editable || !tuningShown,
    why: !tuningShown ? TUNING_EDITS_HIDDEN_REASON : undefined,
    testid: `menu-toggle-${what}`,
  });
  // What only the in-page menu has, in the slots of the one menu model (shared/menus.ts).
  const slots: Record<MenuSlot, Entry[]> = {
    openRecent: [],
    fileEnd: [
      { label: 'Close', run: () => void closeDocument(), disabled: !hasMotion, testid: 'menu-close' },
      // Recent files go last: they arrive asynchronously and must not shift the items above while the menu is open.
      ...(recent.length ? (['separator'] as Entry[]) : []),
      // Two of one name are told apart by their folders; each names its whole path in its tooltip.
      ...recentLabels(recent.slice(0, 8)).map(({ label, title }, i) => {
        const r = recent[i];
        return r.kind === 'project'
          ? { label, title, shortcut: 'project', run: () => void openRecent(r.path) }
          : { label, title, shortcut: 'recent', run: () => void openPath(r.path) };
      }),
    ],
    editEnd: [
      { label: 'Toggle user key at playhead', shortcut: 'K', run: toggleKeyAtPlayhead, ...tuningEdit('key') },
      { label: 'Toggle lock at playhead', shortcut: 'L', run: toggleLockAtPlayhead, ...tuningEdit('lock') },
      { label: 'Toggle trace key at playhead', shortcut: 'T', run: toggleTraceAtPlayhead, ...tuningEdit('trace') },
    ],
    viewStart: [
      {
        label: 'Frame all (viewport)',
        shortcut: 'F',
        run: () => sessionStore.getState().requestFrameAll(),
        disabled: !hasMotion,
      },
      { label: 'Show all frames (curves, timeline)', shortcut: 'A', run: zoomTimeToFit, disabled: !hasMotion },
      'separator',
      {
        label: 'Rotation as Euler angles',
        shortcut: 'E',
        run: () => sessionStore.getState().setCurveChannel('euler'),
        checked: channel === 'euler',
      },
      {
        label: 'Rotation as quaternion',
        shortcut: 'Q',
        run: () => sessionStore.getState().setCurveChannel('quat'),
        checked: channel === 'quat',
      },
      {
        label: 'Joint offset',
        shortcut: 'O',
        run: () => sessionStore.getState().setCurveChannel('offset'),
        checked: channel === 'offset',
      },
      'separator',
      {
        label: 'Source curves',
        run: () => preferencesStore.getState().set({ showSource: !prefs.showSource }),
        checked: prefs.showSource,
      },
      {
        label: 'Decoded curves',
        run: () => preferencesStore.getState().set({ showDecoded: !prefs.showDecoded }),
        checked: prefs.showDecoded,
      },
      {
        label: 'Error curve',
        run: () => preferencesStore.getState().set({ showError: !prefs.showError }),
        checked: prefs.showError,
      },
      {
        label: 'Normalize curves (-1..1)',
        shortcut: 'N',
        run: () => preferencesStore.getState().set({ curveNormalize: !prefs.curveNormalize }),
        checked: prefs.curveNormalize,
        testid: 'menu-curve-normalize',
      },
      {
        label: 'Root trajectory',
        run: () => preferencesStore.getState().set({ showTrajectory: !prefs.showTrajectory }),
        checked: prefs.showTrajectory,
      },
      {
        label: 'Trace path',
        run: () => preferencesStore.getState().set({ showTrace: !prefs.showTrace }),
        checked: prefs.showTrace,
      },
    ],
    // Collapse or restore each panel of the layout on screen (panels another work mode hides are greyed).
    viewEnd: PANELS.map((id) => ({
      label: `${PANEL_TITLES[id]} panel`,
      run: () => projectLayoutStore.getState().setCollapsed(id, panels[id] === 'open'),
      checked: panels[id] === 'open',
      disabled: panels[id] === 'hidden',
      why: 'This work mode hides the panel: View › Show All Panels shows every panel',
      testid: `menu-panel-${id}`,
    })),
    playbackEnd: [
      'separator',
      { label: 'Loop', run: () => preferencesStore.getState().set({ loop: !loop }), checked: loop },
      { label: 'Faster', shortcut: ']', run: () => cycleSpeed(1) },
      { label: 'Slower', shortcut: '[', run: () => cycleSpeed(-1) },
    ],
  };
  // Labels that follow the state: what Undo / Redo would undo, how many events Paste adds, Play or Pause.
  const labels: Partial<Record<MenuCommandId, string>> = {
    'edit.undo': undo ? `Undo ${undo}` : 'Undo',
    'edit.redo': redo ? `Redo ${redo}` : 'Redo',
    'events.paste': clipboard
      ? `Paste ${clipboard.events.length} Event${clipboard.events.length === 1 ? '' : 's'} at Playhead`
      : undefined,
    'playback.togglePlay': playing ? 'Pause' : 'Play',
  };
  const checked: Partial<Record<MenuCommandId, boolean>> = {
    'view.maximizeTuning': maximized === 'tuning',
    'view.maximizeSev': maximized === 'sev',
    'view.maximizeProject': maximized === 'project',
  };
  const commandEntry = (e: MenuCommandItem): Entry => ({
    label: labels[e.command] ?? e.label,
    ...command(e.command),
    // An Events item shows its event key (it acts in the event list or row), or its own page key (M adds an event).
    ...(isEventsMenuCommand(e.command) && e.key ? { shortcut: eventKey(e.key) } : {}),
    ...(e.command in checked ? { checked: checked[e.command] } : {}),
    disabled: !isCommandEnabled(e.command),
    why: isCommandEnabled(e.command) ? undefined : whyDisabled(e.command, hasMotion, readOnly),
    testid:
      PAGE_TEST_IDS[e.command] ?? (isEventsMenuCommand(e.command) ? `menu-${e.command.replace('.', '-')}` : undefined),
  });
  const menus: Record<string, Entry[]> = Object.fromEntries(
    MENUS.map((menu) => [
      menu.title,
      menuEntriesFor<Entry>(menu, 'page', commandEntry, 'separator', (slot) => slots[slot]),
    ]),
  );
  // Help, last as in the native menu (electron/menu.ts): the browser build had no list of its keys at all (tried
  // cold, round 14).
  menus.Help = [
    commandEntry({ command: 'help.shortcuts', label: 'Keyboard Shortcuts' }),
    'separator',
    commandEntry({ command: 'help.about', label: 'About ActGuy' }),
  ];

  const titleOf = (name: string | null) =>
    name === null ? null : bar.current?.querySelector<HTMLButtonElement>(`[data-testid="menu-${name.toLowerCase()}"]`);
  /** The items of the open menu that can run (a greyed one takes no focus, as in a native menu). */
  const itemsOf = (name: string) =>
    Array.from(titleOf(name)?.parentElement?.querySelectorAll<HTMLButtonElement>('.menu-item:not(:disabled)') ?? []);
  const names = Object.keys(menus);
  const openFromKeyboard = (name: string, where: 'first' | 'last') => {
    focusOnOpen.current = where;
    setOpen(name);
  };
  // The browser build has no other menu: without these keys a keyboard reached the titles with Tab but Enter opened
  // nothing, so Export MSH, Open .sev… and Close had no way in (tried cold, round 5). Keys as in a native menu bar.
  const onTitleKey = (e: ReactKeyboardEvent, name: string) => {
    const at = names.indexOf(name);
    const next = (step: number) => names[(at + step + names.length) % names.length];
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') openFromKeyboard(name, 'first');
    else if (e.key === 'ArrowUp') openFromKeyboard(name, 'last');
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const to = next(e.key === 'ArrowRight' ? 1 : -1);
      titleOf(to)?.focus();
      // An open menu with no item that can run keeps the focus on its title: the neighbour opens in its place.
      if (open !== null) openFromKeyboard(to, 'first');
    } else return;
    e.preventDefault();
    e.stopPropagation(); // not also a page shortcut (Space plays, the arrows step frames)
  };
  const onMenuKey = (e: ReactKeyboardEvent, name: string) => {
    const items = itemsOf(name);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const neighbour = names[(names.indexOf(name) + (e.key === 'ArrowRight' ? 1 : -1) + names.length) % names.length];
    if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      titleOf(neighbour)?.focus();
      openFromKeyboard(neighbour, 'first');
    } else if (e.key === 'Tab') {
      setOpen(null); // Tab leaves the menu and goes on from its title
      titleOf(name)?.focus();
      return;
    } else if (e.key === ' ' || e.key === 'Enter') {
      (document.activeElement as HTMLButtonElement | null)?.click();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div className="menubar" role="menubar" ref={bar} aria-label="Main menu">
      {Object.entries(menus).map(([name, entries]) => (
        <div key={name} className="menu">
          <button
            type="button"
            role="menuitem"
            aria-haspopup="menu"
            aria-expanded={open === name}
            className={open === name ? 'menu-title open' : 'menu-title'}
            data-testid={`menu-${name.toLowerCase()}`}
            onMouseDown={(e) => {
              e.preventDefault();
              setOpen(open === name ? null : name);
            }}
            onMouseEnter={() => open && setOpen(name)}
            onKeyDown={(e) => onTitleKey(e, name)}
          >
            {name}
          </button>
          {open === name && (
            <div className="menu-dropdown" role="menu" aria-label={name} onKeyDown={(e) => onMenuKey(e, name)}>
              {entries.map((e, i) =>
                e === 'separator' ? (
                  <div key={i} className="menu-sep" role="separator" />
                ) : (
                  <MenuItemButton
                    key={i}
                    label={e.label}
                    shortcut={e.shortcut}
                    checked={e.checked}
                    disabled={e.disabled}
                    title={e.disabled ? (e.why ?? (hasMotion ? undefined : 'Open a motion first')) : e.title}
                    testid={e.testid}
                    onClick={(click) => {
                      // From the keyboard (no pointer: detail 0) the focus goes back to the title, not to the page's
                      // start, when the item goes; a dialog the command opens takes it from there.
                      if (click.detail === 0) titleOf(name)?.focus();
                      setOpen(null);
                      e.run();
                    }}
                  />
                ),
              )}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
