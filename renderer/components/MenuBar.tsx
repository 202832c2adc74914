import { useEffect, useRef, useState } from 'react';
import { useDocument, usePreferences, useSession } from '../state/hooks';
import { undoLabel, redoLabel } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { cycleSpeed, openPath, toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead, zoomTimeToFit, closeDocument } from '../app/controller';
import { getApi } from '../transport';
import type { MenuCommandId, RecentFile } from '../../shared/ipc';
import { acceleratorLabel, eventShortcutLabel, primaryShortcut } from '../../shared/shortcuts';
import { isModalOpen, runCommand } from '../app/commands';
import { currentShortcutPlatform } from '../app/shortcuts';
import { latestRedoLabel, latestUndoLabel, subscribeUndoOrder } from '../sev/undoOrder';
import { useSyncExternalStore } from 'react';
import { useProject, useSev } from '../sev/hooks';
import { eventsCommandsEnabled } from '../sev/eventsMenu';
import { EVENTS_MENU } from '../../shared/eventsMenu';
import { importOptionsStore } from '../interchange/importOptions';
import { projectStore } from '../project/projectStore';
import { PANELS, PANEL_TITLES, panelStates, projectLayoutStore, useProjectLayout } from '../project/layout';

interface Item {
  label: string;
  shortcut?: string;
  run: () => void;
  disabled?: boolean;
  checked?: boolean;
  testid?: string;
}
type Entry = Item | 'separator';

/** A menu command's run and shortcut label (from the one shortcut table, shared/shortcuts.ts). */
function command(id: MenuCommandId): Pick<Item, 'run' | 'shortcut'> {
  const platform = currentShortcutPlatform();
  const binding = primaryShortcut(id, platform);
  return { run: () => void runCommand({ command: id }), shortcut: binding ? acceleratorLabel(binding.accelerator, platform) : undefined };
}

/** The in-window menu bar (File / Edit / Events / View / Playback); the native menu sends the same commands. */
export function MenuBar() {
  const [open, setOpen] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentFile[]>([]);
  const bar = useRef<HTMLDivElement>(null);
  const hasMotion = useDocument((d) => !!d.motion);
  const readOnly = useDocument((d) => d.readOnly);
  // Undo/Redo follow one order over motion and SEV edits (renderer/sev/undoOrder.ts).
  useDocument(undoLabel);
  useDocument(redoLabel);
  const undo = useSyncExternalStore(subscribeUndoOrder, latestUndoLabel);
  const redo = useSyncExternalStore(subscribeUndoOrder, latestRedoLabel);
  const hasProject = useProject((p) => p.path !== null);
  const playing = useSession((s) => s.playing);
  const loop = usePreferences((p) => p.loop);
  const prefs = usePreferences((p) => p);
  const channel = useSession((s) => s.curveChannel);
  const editable = hasMotion && !readOnly;
  // The Events menu's items follow the SEV editor (its file, selection and copy) and the motion shown.
  useSev((s) => s.selectedEvents.length);
  useSev((s) => s.file);
  const clipboard = useSev((s) => s.clipboard);
  const eventsEnabled = eventsCommandsEnabled();
  const platform = currentShortcutPlatform();
  const eventKey = (a: Parameters<typeof eventShortcutLabel>[0]) => eventShortcutLabel(a, platform);
  const layout = useProjectLayout();
  const panels = panelStates(layout);

  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (bar.current && !bar.current.contains(e.target as Node)) setOpen(null);
    };
    window.addEventListener('mousedown', close);
    return () => window.removeEventListener('mousedown', close);
  }, []);
  // An open menu closes on Escape (before any other Escape handler) and when a dialog opens over it.
  useEffect(() => {
    if (open === null) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      setOpen(null);
    };
    const closeUnderModal = () => {
      if (isModalOpen()) setOpen(null);
    };
    window.addEventListener('keydown', onKey, true);
    const stops = [sessionStore.subscribe(closeUnderModal), projectStore.subscribe(closeUnderModal), importOptionsStore.subscribe(closeUnderModal)];
    const modals = new MutationObserver(closeUnderModal);
    modals.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-modal'] });
    return () => {
      window.removeEventListener('keydown', onKey, true);
      stops.forEach((stop) => stop());
      modals.disconnect();
    };
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

  const menus: Record<string, Entry[]> = {
    File: [
      { label: 'Open…', ...command('file.open'), testid: 'menu-open' },
      'separator',
      { label: 'Save', ...command('file.save'), disabled: !editable, testid: 'menu-save' },
      { label: 'Save As…', ...command('file.saveAs'), disabled: !hasMotion, testid: 'menu-save-as' },
      { label: 'Export MT3…', ...command('file.exportMt3'), disabled: !editable, testid: 'menu-export' },
      'separator',
      { label: 'Import Motion (BVH, glTF, FBX)…', ...command('file.import'), testid: 'menu-import' },
      { label: 'Export glTF (source)…', ...command('file.exportGltfSource'), disabled: !hasMotion, testid: 'menu-export-gltf-source' },
      { label: 'Export glTF (compressed)…', ...command('file.exportGltfCompressed'), disabled: !editable, testid: 'menu-export-gltf-compressed' },
      { label: 'Export MSH…', ...command('file.exportMsh'), disabled: !hasMotion, testid: 'menu-export-msh' },
      'separator',
      { label: 'Open Project…', ...command('project.open'), testid: 'menu-open-project' },
      { label: 'Save Project', ...command('project.save'), disabled: !hasProject, testid: 'menu-save-project' },
      { label: 'Build Archives…', ...command('project.build'), disabled: !hasProject, testid: 'menu-build' },
      { label: 'Open .sev…', ...command('sev.open'), testid: 'menu-open-sev' },
      'separator',
      { label: 'Close', run: () => void closeDocument(), disabled: !hasMotion, testid: 'menu-close' },
      // Recent files go last: they arrive asynchronously and must not shift the items above while the menu is open.
      ...(recent.length ? (['separator'] as Entry[]) : []),
      ...recent.slice(0, 8).map((r) => ({ label: `${r.name}.${r.kind}`, shortcut: 'recent', run: () => void openPath(r.path) })),
    ],
    Edit: [
      { label: undo ? `Undo ${undo}` : 'Undo', ...command('edit.undo'), disabled: !undo, testid: 'menu-undo' },
      { label: redo ? `Redo ${redo}` : 'Redo', ...command('edit.redo'), disabled: !redo, testid: 'menu-redo' },
      'separator',
      { label: 'Toggle user key at playhead', shortcut: 'K', run: toggleKeyAtPlayhead, disabled: !editable },
      { label: 'Toggle lock at playhead', shortcut: 'L', run: toggleLockAtPlayhead, disabled: !editable },
      { label: 'Toggle trace key at playhead', shortcut: 'T', run: toggleTraceAtPlayhead, disabled: !editable },
    ],
    // The SEV editor's actions, the same list and commands as the native Events menu (shared/eventsMenu.ts).
    Events: EVENTS_MENU.map((e): Entry => {
      if (e === 'separator') return 'separator';
      const label = e.command === 'events.paste' && clipboard ? `Paste ${clipboard.events.length} Event${clipboard.events.length === 1 ? '' : 's'} at Playhead` : e.label;
      return { label, ...command(e.command), shortcut: e.key ? eventKey(e.key) : undefined, disabled: !eventsEnabled[e.command], testid: `menu-${e.command.replace('.', '-')}` };
    }),
    View: [
      { label: 'Frame all (viewport)', shortcut: 'F', run: () => sessionStore.getState().requestFrameAll(), disabled: !hasMotion },
      { label: 'Show all frames (curves, timeline)', shortcut: 'A', run: zoomTimeToFit, disabled: !hasMotion },
      'separator',
      { label: 'Rotation as Euler angles', shortcut: 'E', run: () => sessionStore.getState().setCurveChannel('euler'), checked: channel === 'euler' },
      { label: 'Rotation as quaternion', shortcut: 'Q', run: () => sessionStore.getState().setCurveChannel('quat'), checked: channel === 'quat' },
      { label: 'Joint offset', shortcut: 'O', run: () => sessionStore.getState().setCurveChannel('offset'), checked: channel === 'offset' },
      'separator',
      { label: 'Source curves', run: () => preferencesStore.getState().set({ showSource: !prefs.showSource }), checked: prefs.showSource },
      { label: 'Decoded curves', run: () => preferencesStore.getState().set({ showDecoded: !prefs.showDecoded }), checked: prefs.showDecoded },
      { label: 'Error curve', run: () => preferencesStore.getState().set({ showError: !prefs.showError }), checked: prefs.showError },
      { label: 'Normalize curves (-1..1)', shortcut: 'N', run: () => preferencesStore.getState().set({ curveNormalize: !prefs.curveNormalize }), checked: prefs.curveNormalize, testid: 'menu-curve-normalize' },
      { label: 'Root trajectory', run: () => preferencesStore.getState().set({ showTrajectory: !prefs.showTrajectory }), checked: prefs.showTrajectory },
      { label: 'Trace path', run: () => preferencesStore.getState().set({ showTrace: !prefs.showTrace }), checked: prefs.showTrace },
      'separator',
      { label: 'Maximize Tuning', ...command('view.maximizeTuning'), checked: layout.maximized === 'tuning', testid: 'menu-maximize-tuning' },
      { label: 'Maximize Sound Events', ...command('view.maximizeSev'), checked: layout.maximized === 'sev', testid: 'menu-maximize-sev' },
      { label: 'Maximize Project', ...command('view.maximizeProject'), checked: layout.maximized === 'project', testid: 'menu-maximize-project' },
      { label: 'Show All Panels', ...command('view.showAllPanels'), testid: 'menu-show-all-panels' },
      'separator',
      // Collapse or restore each panel of the layout on screen (panels another work mode hides are greyed).
      ...PANELS.map((id) => ({
        label: `${PANEL_TITLES[id]} panel`,
        run: () => projectLayoutStore.getState().setCollapsed(id, panels[id] === 'open'),
        checked: panels[id] === 'open',
        disabled: panels[id] === 'hidden',
        testid: `menu-panel-${id}`,
      })),
    ],
    Playback: [
      { label: playing ? 'Pause' : 'Play', ...command('playback.togglePlay'), disabled: !hasMotion },
      { label: 'Step forward', ...command('playback.stepForward'), disabled: !hasMotion },
      { label: 'Step back', ...command('playback.stepBack'), disabled: !hasMotion },
      { label: 'First frame', ...command('playback.firstFrame'), disabled: !hasMotion },
      { label: 'Last frame', ...command('playback.lastFrame'), disabled: !hasMotion },
      'separator',
      { label: 'Loop', run: () => preferencesStore.getState().set({ loop: !loop }), checked: loop },
      { label: 'Faster', shortcut: ']', run: () => cycleSpeed(1) },
      { label: 'Slower', shortcut: '[', run: () => cycleSpeed(-1) },
    ],
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
          >
            {name}
          </button>
          {open === name && (
            <div className="menu-dropdown" role="menu" aria-label={name}>
              {entries.map((e, i) =>
                e === 'separator' ? (
                  <div key={i} className="menu-sep" role="separator" />
                ) : (
                  <button
                    key={i}
                    type="button"
                    role={e.checked !== undefined ? 'menuitemcheckbox' : 'menuitem'}
                    aria-checked={e.checked}
                    className="menu-item"
                    disabled={e.disabled}
                    data-testid={e.testid}
                    onClick={() => {
                      setOpen(null);
                      e.run();
                    }}
                  >
                    <span className="menu-check">{e.checked ? '✓' : ''}</span>
                    <span className="menu-label">{e.label}</span>
                    <span className="menu-shortcut">{e.shortcut ?? ''}</span>
                  </button>
                ),
              )}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
