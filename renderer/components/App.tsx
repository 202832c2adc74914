import { useEffect, useState } from 'react';
import { MenuBar } from './MenuBar';
import { Viewport } from './Viewport';
import { CurveView } from './CurveView';
import { TimelineView } from './TimelineView';
import { TuningPanel } from './TuningPanel';
import { StatusBar } from './StatusBar';
import { ConfirmDialog, FilePicker } from './Dialogs';
import { ImportOptionsDialog } from '../interchange/ImportOptionsDialog';
import { MshExportDialog } from '../interchange/MshExportDialog';
import { Splitter } from './Splitter';
import { usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { ProjectPanel } from '../project/ProjectPanel';
import { BuildDialog } from '../project/BuildDialog';
import { PANEL_MIN, fitPanelHeights, useProjectLayout } from '../project/layout';
import { useProject, useSev } from '../sev/hooks';
import { SevEditor } from '../sev/SevEditor';

/** The main window: menu, messages, viewport over curves over timeline beside the tuning panel, SEV editor, status bar. */
export function App() {
  const layout = usePreferences((p) => p.layout);
  const setTunerLayout = (patch: Partial<typeof layout>) => preferencesStore.getState().set({ layout: { ...preferencesStore.getState().layout, ...patch } });
  // Project column on the left and the SEV editor under the timeline (issue 5). While a project is open the
  // curve view and timeline keep their own heights, so the SEV editor's room does not change the tuner-only layout.
  const pl = useProjectLayout();
  // The SEV editor takes a full, resizable row whenever it shows a .sev: with a project, or a motion's own .sev
  // (the one beside the .mtn, or one opened with File > Open .sev) without one.
  const withProject = useProject((p) => p.path !== null);
  const sevOpen = useSev((s) => s.file !== null);
  const sevPanel = withProject || sevOpen;
  const windowHeight = useWindowHeight();
  // Saved sizes are what the user asked for; a short window shrinks the panels (never below their minimums) so the
  // viewport keeps room, and the curve view never gets too short for its labels.
  const [curvesHeight, timelineHeight, sevHeight] = sevPanel
    ? fitPanelHeights(windowHeight, [
        { wanted: pl.curvesHeight, min: PANEL_MIN.curves },
        { wanted: pl.timelineHeight, min: PANEL_MIN.timeline },
        { wanted: pl.sevHeight, min: PANEL_MIN.sev },
      ])
    : // Without a .sev the SEV row is only its header (auto height: it wraps to two lines in narrow windows).
      [...fitPanelHeights(windowHeight, [
        { wanted: layout.curvesHeight, min: PANEL_MIN.curves },
        { wanted: layout.timelineHeight, min: PANEL_MIN.timeline },
      ], 56), 0];
  const setLayout = (patch: Partial<typeof layout>) => {
    const { tuningWidth, ...heights } = patch;
    if (tuningWidth !== undefined) setTunerLayout({ tuningWidth });
    if (sevPanel) pl.set(heights);
    else if (Object.keys(heights).length) setTunerLayout(heights);
  };
  return (
    <div
      className="app with-project"
      style={{
        gridTemplateColumns: `${pl.projectWidth}px 5px minmax(0, 1fr) 5px ${layout.tuningWidth}px`,
        gridTemplateRows: `auto auto minmax(120px, 1fr) 5px ${curvesHeight}px 5px ${timelineHeight}px 5px ${sevPanel ? `${sevHeight}px` : 'auto'} auto`,
      }}
    >
      <div className="area-menu"><MenuBar /></div>
      <div className="area-messages" />
      <div className="area-viewport"><Viewport /></div>
      <div className="area-split-v">
        <Splitter orientation="vertical" label="Resize tuning panel" size={layout.tuningWidth} invert min={240} max={700} onResize={(v) => setLayout({ tuningWidth: v })} />
      </div>
      <div className="area-tuning"><TuningPanel /></div>
      <div className="area-split-h1">
        <Splitter orientation="horizontal" label="Resize curve view" size={curvesHeight} invert min={PANEL_MIN.curves} max={900} onResize={(v) => setLayout({ curvesHeight: v })} />
      </div>
      <div className="area-curves"><CurveView /></div>
      <div className="area-split-h2">
        <Splitter orientation="horizontal" label="Resize timeline" size={timelineHeight} invert min={PANEL_MIN.timeline} max={900} onResize={(v) => setLayout({ timelineHeight: v })} />
      </div>
      <div className="area-timeline"><TimelineView /></div>
      <div className="area-project"><ProjectPanel /></div>
      <div className="area-split-p">
        <Splitter orientation="vertical" label="Resize project panel" size={pl.projectWidth} min={180} max={520} onResize={(v) => pl.set({ projectWidth: v })} />
      </div>
      <div className="area-split-h3">
        {sevPanel && <Splitter orientation="horizontal" label="Resize sound-event editor" size={sevHeight} invert min={PANEL_MIN.sev} max={900} onResize={(v) => pl.set({ sevHeight: v })} />}
      </div>
      <div className="area-sev"><SevEditor /></div>
      <div className="area-status"><StatusBar /></div>
      <FilePicker />
      <BuildDialog />
      <ConfirmDialog />
      <ImportOptionsDialog />
      <MshExportDialog />
    </div>
  );
}

/** The window's inner height in px, updated on resize. */
function useWindowHeight(): number {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const onResize = () => setH(window.innerHeight);
    window.addEventListener('resize', onResize);
    // A resize between the first render and this effect fired no event we could hear: catch up now.
    onResize();
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return h;
}
