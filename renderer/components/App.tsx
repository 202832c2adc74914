import { DropOverlay } from './DropOverlay';
import { memo, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { MenuBar } from './MenuBar';
import { pageDrawsMenuBar } from '../app/shortcuts';
import { Viewport } from './Viewport';
import { CurveView } from './CurveView';
import { TimelineView } from './TimelineView';
import { TuningPanel } from '../tuner/TuningPanel';
import { StatusBar } from './StatusBar';
import { ConfirmDialog, FilePicker } from './Dialogs';
import { ImportOptionsDialog } from '../interchange/ImportOptionsDialog';
import { MshExportDialog } from '../interchange/MshExportDialog';
import { TuningContextMenu } from './TuningContextMenu';
import { tuningMenuStore } from '../app/tuningMenu';
import { hideShortcuts, ShortcutsDialog } from './ShortcutsDialog';
import { sessionStore } from '../state/sessionStore';
import { closeBuildDialog } from '../project/projectBuild';
import { importOptionsStore } from '../interchange/importOptions';
import { mshExportOptionsStore } from '../interchange/mshExportOptions';
import { Splitter } from './Splitter';
import { BarBoundary, DialogBoundary, PanelBoundary } from './PanelBoundary';
import { installModalFocusReturn, installModalFocusTrap } from './modalFocus';
import { keepKeyboardShown, leftByItself } from './keyboardHome';
import { LayoutModes, PanelModeButton, PanelStrip, PanelToggle } from './PanelControls';
import { usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { ProjectPanel } from '../project/ProjectPanel';
import { BuildDialog } from '../project/BuildDialog';
import { ProjectExportDialog } from '../project/ProjectExportDialog';
import { ProjectExportGltfDialog } from '../project/ProjectExportGltfDialog';
import { closeProjectExportDialog, gltfSourceStore } from '../project/projectExport';
import {
  PANEL_MIN,
  PANEL_TITLES,
  ROWS,
  SIDE_MAX,
  SIDE_MIN,
  arrangementOf,
  defaultBesideWidth,
  CENTER_MIN,
  SPLITTER,
  panelStates,
  planColumns,
  planRows,
  resizeRow,
  rowHeights,
  useProjectLayout,
  type PanelId,
  type PanelState,
  type RowHeights,
  type RowId,
  type RowInput,
  type WorkMode,
} from '../project/layout';
import { useProject, useSev } from '../sev/hooks';
import { SevEditor } from '../sev/SevEditor';

/** Height (px) of the SEV editor's header row without a .sev (it wraps to two lines in narrow windows). */
const SEV_HEADER_ONLY = 56;

/**
 * The main window: menu, viewport over curves over timeline beside the tuning panel, the project column on the
 * left, the SEV editor under them, status bar. Every panel can be collapsed to its header (or a strip), and a
 * work mode can take the window (renderer/project/layout.ts plans the sizes). In a window too short for those
 * rows stacked (a 1280x800 laptop) the full layout with a .sev goes side by side: the viewport over the project
 * panel on the left, the curves over the timeline in the centre (isSideBySide).
 */
/**
 * The dialogs, each in its boundary (DialogBoundary), in the order they stack; with what the boundary's Close
 * answers when one threw: its Cancel.
 */
const DIALOGS: readonly { Dialog: () => ReactNode; name: string; closeSays: string; onClose: () => void }[] = [
  {
    Dialog: FilePicker,
    name: 'file picker',
    closeSays: 'Close chooses no file',
    onClose: () => sessionStore.getState().picker?.resolve(null),
  },
  { Dialog: BuildDialog, name: 'Build archives dialog', closeSays: 'Close closes it', onClose: closeBuildDialog },
  {
    Dialog: ProjectExportDialog,
    name: 'Export All dialog',
    closeSays: 'Close closes it',
    onClose: closeProjectExportDialog,
  },
  {
    Dialog: ConfirmDialog,
    name: 'question',
    closeSays: 'Close answers it as Cancel does',
    onClose: () => sessionStore.getState().confirm?.resolve('cancel'),
  },
  {
    Dialog: ImportOptionsDialog,
    name: 'Import dialog',
    closeSays: 'Close imports nothing',
    onClose: () => importOptionsStore.getState().request?.resolve(null),
  },
  {
    Dialog: ProjectExportGltfDialog,
    name: 'Export All as glTF dialog',
    closeSays: 'Close exports nothing',
    onClose: () => gltfSourceStore.getState().request?.resolve(null),
  },
  {
    Dialog: MshExportDialog,
    name: 'Export MSH dialog',
    closeSays: 'Close exports nothing',
    onClose: () => mshExportOptionsStore.getState().request?.resolve(null),
  },
  { Dialog: ShortcutsDialog, name: 'shortcut list', closeSays: 'Close closes it', onClose: hideShortcuts },
  {
    Dialog: TuningContextMenu,
    name: 'right-click menu',
    closeSays: 'Close closes it',
    onClose: () => tuningMenuStore.setState({ open: null }),
  },
];

/**
 * The panels, bars and dialogs, made once: App re-renders at every pointer move of a splitter drag (it lays the
 * panels out from the sizes), and an element that is the same object as at the last render is not rendered again, so
 * a drag re-renders App, the areas whose state changed (memo) and the splitters, not the panels (docs/architecture.md,
 * "Renderer review, round 4"). The panels follow their own sizes through their canvases' ResizeObservers.
 */
const PANEL = {
  menu: <MenuBar />,
  viewport: <Viewport />,
  tuning: <TuningPanel />,
  curves: <CurveView />,
  timeline: <TimelineView />,
  project: <ProjectPanel />,
  sev: <SevEditor />,
  status: <StatusBar />,
  drop: <DropOverlay />,
};
const DIALOG_ELEMENTS = DIALOGS.map(({ Dialog, name, closeSays, onClose }) => (
  <DialogBoundary key={name} name={name} closeSays={closeSays} onClose={onClose}>
    <Dialog />
  </DialogBoundary>
));

export function App() {
  const tunerLayout = usePreferences((p) => p.layout);
  const pl = useProjectLayout();
  // The SEV editor takes a full, resizable row whenever it shows a .sev: with a project, or a motion's own .sev
  // (the one beside the .mtn, or one opened with File > Open .sev) without one.
  const withProject = useProject((p) => p.path !== null);
  const sevOpen = useSev((s) => s.file !== null);
  const sevPanel = withProject || sevOpen;
  const win = useWindowSize();
  useEffect(() => installModalFocusTrap(document), []);
  useEffect(() => installModalFocusReturn(document), []);
  const states = panelStates(pl);
  // A work mode or a collapsed panel that hides the control with the keyboard hands it to the mode's panel.
  const root = useRef<HTMLDivElement>(null);
  const lastFocused = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = root.current;
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement) lastFocused.current = e.target;
    };
    // Focus given up to nothing while the control is still shown is the user's (or code's) doing: not handed back.
    const onBlur = (e: FocusEvent) => {
      if (e.relatedTarget === null && e.target === lastFocused.current && leftByItself(e.target))
        lastFocused.current = null;
    };
    el?.addEventListener('focusin', onFocus);
    el?.addEventListener('focusout', onBlur);
    return () => {
      el?.removeEventListener('focusin', onFocus);
      el?.removeEventListener('focusout', onBlur);
    };
  }, []);
  const shownKey = `${pl.maximized}|${Object.values(states).join(',')}`;
  useLayoutEffect(
    () => keepKeyboardShown(root.current, `area-${pl.maximized ?? 'viewport'}`, lastFocused.current),
    [shownKey],
  );
  // The tuner-only full layout keeps the curve and timeline heights it always had (preferences); a .sev or a
  // work mode has its own (the SEV editor's room must not change the tuner-only layout the user set).
  const ownHeights = sevPanel || pl.maximized !== null;
  // The arrangement follows the window and the panels' states, never the heights (a drag does not flip it).
  const arrangement = arrangementOf(win, states, { maximized: pl.maximized, sevPanel });
  const heights = ownHeights
    ? rowHeights(pl, pl.maximized ?? 'all', win.height, arrangement)
    : { ...tunerLayout, sevHeight: 0 };
  const rows: Record<RowId, RowInput> = {
    viewport: { state: states.viewport, wanted: 0, min: 0 },
    curves: { state: states.curves, wanted: heights.curvesHeight, min: PANEL_MIN.curves },
    timeline: { state: states.timeline, wanted: heights.timelineHeight, min: PANEL_MIN.timeline },
    sev: {
      state: states.sev,
      wanted: heights.sevHeight,
      min: PANEL_MIN.sev,
      // The sound-events mode is for the event list: a short window (1280x650) takes the timeline's room first.
      keep: pl.maximized === 'sev',
      ...(sevPanel ? {} : { autoHeight: SEV_HEADER_ONLY }),
    },
  };
  const side = arrangement === 'side-by-side';
  // Beside, the viewport has its own column and the rows under it are planned as side by side (no viewport row).
  const beside = arrangement === 'beside';
  const besideWanted = pl.besideWidth ?? defaultBesideWidth(win.width);
  // Saved sizes are what the user asked for; a short window shrinks the panels (never below their minimums) so the
  // viewport keeps room, and a drag moves the splitter under the pointer (the other panels give way).
  const plan = planRows(win.height, rows, side || beside);
  // The full layout shrank a panel below the size the user gave it: the work modes are the way to more room.
  const squeezed =
    pl.maximized === null && ROWS.some((id) => plan[id].height !== null && plan[id].height! < rows[id].wanted);
  const cols = planColumns(beside ? win.width - besideWanted - SPLITTER : win.width, {
    // Side by side the left column holds the viewport over the project panel: its own width and limits.
    project: side
      ? { state: states.project, wanted: pl.sideWidth, min: SIDE_MIN, max: SIDE_MAX }
      : { state: states.project, wanted: pl.projectWidth },
    tuning: { state: states.tuning, wanted: tunerLayout.tuningWidth },
  });
  // The viewport column's width beside the curves: what the user set (or the window's share), the centre keeping
  // CENTER_MIN.
  const besideMax = Math.max(
    SIDE_MIN,
    Math.min(SIDE_MAX, win.width - cols.project.width - cols.tuning.width - 3 * SPLITTER - CENTER_MIN),
  );
  const besideWidth = Math.min(besideMax, Math.max(SIDE_MIN, besideWanted));
  const resize = (id: RowId, size: number) => {
    const next = resizeRow(win.height, rows, id, size, side || beside);
    const patch: Partial<RowHeights> = {};
    if (next.curves !== undefined) patch.curvesHeight = next.curves;
    if (next.timeline !== undefined) patch.timelineHeight = next.timeline;
    if (next.sev !== undefined) patch.sevHeight = next.sev;
    if (ownHeights) pl.setHeights(patch);
    else {
      const { sevHeight: _sev, ...tuner } = patch;
      preferencesStore.getState().set({ layout: { ...preferencesStore.getState().layout, ...tuner } });
    }
  };
  const setTuningWidth = (tuningWidth: number) =>
    preferencesStore.getState().set({ layout: { ...preferencesStore.getState().layout, tuningWidth } });
  const split = (show: boolean) => (show ? '5px' : '0px');
  return (
    <div
      ref={root}
      className={`app with-project${side ? ' side-by-side' : ''}${beside ? ' beside' : ''}`}
      data-maximized={pl.maximized ?? 'none'}
      data-arrangement={arrangement}
      style={{
        gridTemplateColumns: beside
          ? `${cols.project.width}px ${split(cols.project.splitter)} ${besideWidth}px ${split(true)} minmax(0, 1fr) ${split(cols.tuning.splitter)} ${cols.tuning.width}px`
          : `${cols.project.width}px ${split(cols.project.splitter)} minmax(0, 1fr) ${split(cols.tuning.splitter)} ${cols.tuning.width}px`,
        // Side by side the curves' splitter moves under them (row 6: the timeline, the flexible row, has none).
        gridTemplateRows:
          side || beside
            ? `auto auto 0px 0px ${plan.curves.track} ${split(plan.curves.splitter)} ${plan.timeline.track} ${split(plan.sev.splitter)} ${plan.sev.track} auto`
            : `auto auto ${plan.viewport.track} ${split(plan.curves.splitter)} ${plan.curves.track} ${split(plan.timeline.splitter)} ${plan.timeline.track} ${split(plan.sev.splitter)} ${plan.sev.track} auto`,
      }}
    >
      <div className="area-menu">
        {pageDrawsMenuBar() && (
          <BarBoundary part="menu bar" id="menu">
            {PANEL.menu}
          </BarBoundary>
        )}
        <LayoutModes squeezed={squeezed} />
      </div>
      <div className="area-messages" />
      <RowArea id="viewport" state={states.viewport}>
        {PANEL.viewport}
      </RowArea>
      <div className="area-split-w">
        {beside && (
          <Splitter
            orientation="vertical"
            label="Resize viewport"
            size={besideWidth}
            min={SIDE_MIN}
            max={besideMax}
            onResize={(v) => pl.set({ besideWidth: v })}
          />
        )}
      </div>
      <div className={`area-split-v${cols.tuning.splitter ? '' : ' area-hidden'}`}>
        <Splitter
          orientation="vertical"
          label="Resize tuning panel"
          size={cols.tuning.width}
          invert
          min={cols.tuning.min}
          max={cols.tuning.max}
          onResize={setTuningWidth}
        />
      </div>
      <ColumnArea id="tuning" state={states.tuning}>
        {PANEL.tuning}
      </ColumnArea>
      <div className={`area-split-h1${plan.curves.splitter ? '' : ' area-hidden'}`}>
        <Splitter
          orientation="horizontal"
          label="Resize curve view"
          size={plan.curves.height ?? 0}
          invert={!(side || beside)}
          min={plan.curves.min}
          max={plan.curves.max}
          onResize={(v) => resize('curves', v)}
        />
      </div>
      <RowArea id="curves" state={states.curves}>
        {PANEL.curves}
      </RowArea>
      <div className={`area-split-h2${plan.timeline.splitter ? '' : ' area-hidden'}`}>
        <Splitter
          orientation="horizontal"
          label="Resize timeline"
          size={plan.timeline.height ?? 0}
          invert
          min={plan.timeline.min}
          max={plan.timeline.max}
          onResize={(v) => resize('timeline', v)}
        />
      </div>
      <RowArea id="timeline" state={states.timeline}>
        {PANEL.timeline}
      </RowArea>
      <ColumnArea id="project" state={states.project}>
        {PANEL.project}
      </ColumnArea>
      <div className={`area-split-p${cols.project.splitter ? '' : ' area-hidden'}`}>
        <Splitter
          orientation="vertical"
          label={side ? 'Resize viewport and project panel' : 'Resize project panel'}
          size={cols.project.width}
          min={cols.project.min}
          max={cols.project.max}
          onResize={(v) => pl.set(side ? { sideWidth: v } : { projectWidth: v })}
        />
      </div>
      <div className={`area-split-h3${plan.sev.splitter ? '' : ' area-hidden'}`}>
        <Splitter
          orientation="horizontal"
          label="Resize sound-event editor"
          size={plan.sev.height ?? 0}
          invert
          min={plan.sev.min}
          max={plan.sev.max}
          onResize={(v) => resize('sev', v)}
        />
      </div>
      <RowArea id="sev" state={states.sev} mode={sevPanel ? 'sev' : undefined}>
        {PANEL.sev}
      </RowArea>
      <div className="area-status">
        <BarBoundary part="status bar" id="status">
          {PANEL.status}
        </BarBoundary>
      </div>
      {DIALOG_ELEMENTS}
      {PANEL.drop}
    </div>
  );
}

/**
 * A row of the centre column. Its panel stays mounted whatever the state (painters, the SEV editor's keys and
 * audition keep running): collapsed shows only its header, hidden (another work mode has the window) nothing.
 */
const RowArea = memo(function RowArea(props: { id: PanelId; state: PanelState; mode?: WorkMode; children: ReactNode }) {
  const cls = props.state === 'hidden' ? ' area-hidden' : props.state === 'collapsed' ? ' collapsed-row' : '';
  const area = useRef<HTMLDivElement>(null);
  const header = usePanelHeader(area);
  const buttons = (
    <>
      {props.mode && <PanelModeButton mode={props.mode} />}
      <PanelToggle panel={props.id} collapsed={props.state === 'collapsed'} />
    </>
  );
  return (
    <div
      ref={area}
      className={`area-${props.id} panel-area${cls}${props.mode ? ' with-mode' : ''}`}
      data-testid={`area-${props.id}`}
      data-state={props.state}
    >
      <PanelBoundary id={props.id} title={PANEL_TITLES[props.id]}>
        {props.children}
      </PanelBoundary>
      {header ? createPortal(buttons, header) : buttons}
    </div>
  );
});

/**
 * The header of the panel in `area` (its own or its failure's), where the panel's collapse and mode buttons go in
 * the page's order: after the panel, they came after all of its controls to Tab, the viewport's collapse button
 * after the playback bar under the view, far from the header's right end where it shows (tried cold, rounds 23 and
 * 24). They keep their place on screen (absolute in the area, which the header's overflow does not clip).
 */
function usePanelHeader(area: RefObject<HTMLDivElement | null>): HTMLElement | null {
  const [header, setHeader] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    // The panel replaced by its failure (or shown again) is a new child of the area: its header is found again.
    const find = () => setHeader(el.querySelector<HTMLElement>(':scope > .panel > .panel-header'));
    find();
    const observer = new MutationObserver(find);
    observer.observe(el, { childList: true });
    return () => observer.disconnect();
  }, [area]);
  return header;
}

/** A side column: collapsed, a strip with its title that restores it; its panel stays mounted, hidden. */
const ColumnArea = memo(function ColumnArea(props: { id: PanelId; state: PanelState; children: ReactNode }) {
  const cls = props.state === 'hidden' ? ' area-hidden' : props.state === 'collapsed' ? ' collapsed-column' : '';
  const area = useRef<HTMLDivElement>(null);
  const header = usePanelHeader(area);
  const toggle = props.state !== 'collapsed' && <PanelToggle panel={props.id} collapsed={false} />;
  return (
    <div
      ref={area}
      className={`area-${props.id} panel-area${cls}`}
      data-testid={`area-${props.id}`}
      data-state={props.state}
    >
      {props.state === 'collapsed' && <PanelStrip panel={props.id} />}
      <PanelBoundary id={props.id} title={PANEL_TITLES[props.id]}>
        {props.children}
      </PanelBoundary>
      {header && toggle ? createPortal(toggle, header) : toggle}
    </div>
  );
});

/** The window's inner size in px, updated on resize. */
function useWindowSize(): { width: number; height: number } {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const onResize = () =>
      setSize((s) =>
        s.width === window.innerWidth && s.height === window.innerHeight
          ? s
          : { width: window.innerWidth, height: window.innerHeight },
      );
    window.addEventListener('resize', onResize);
    // A resize between the first render and this effect fired no event we could hear: catch up now.
    onResize();
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}
