import { MenuBar } from './MenuBar';
import { Viewport } from './Viewport';
import { CurveView } from './CurveView';
import { TimelineView } from './TimelineView';
import { TuningPanel } from './TuningPanel';
import { StatusBar } from './StatusBar';
import { ConfirmDialog, FilePicker } from './Dialogs';
import { Splitter } from './Splitter';
import { usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { ProjectPanel } from '../project/ProjectPanel';
import { BuildDialog } from '../project/BuildDialog';
import { useProjectLayout } from '../project/layout';
import { useProject } from '../sev/hooks';
import { SevEditor } from '../sev/SevEditor';

/** The main window: menu, messages, viewport + curves | tuning, timeline, status bar. */
export function App() {
  const layout = usePreferences((p) => p.layout);
  const setTunerLayout = (patch: Partial<typeof layout>) => preferencesStore.getState().set({ layout: { ...preferencesStore.getState().layout, ...patch } });
  // Project column on the left and the SEV editor under the timeline (issue 5). While a project is open the
  // curve view and timeline keep their own heights, so the SEV editor's room does not change the tuner-only layout.
  const pl = useProjectLayout();
  const withProject = useProject((p) => p.path !== null);
  const curvesHeight = withProject ? pl.curvesHeight : layout.curvesHeight;
  const timelineHeight = withProject ? pl.timelineHeight : layout.timelineHeight;
  const setLayout = (patch: Partial<typeof layout>) => {
    const { tuningWidth, ...heights } = patch;
    if (tuningWidth !== undefined) setTunerLayout({ tuningWidth });
    if (withProject) pl.set(heights);
    else if (Object.keys(heights).length) setTunerLayout(heights);
  };
  return (
    <div
      className="app with-project"
      style={{
        gridTemplateColumns: `${pl.projectWidth}px 5px minmax(0, 1fr) 5px ${layout.tuningWidth}px`,
        gridTemplateRows: `auto auto minmax(120px, 1fr) 5px ${curvesHeight}px 5px ${timelineHeight}px 5px ${withProject ? pl.sevHeight : 30}px auto`,
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
        <Splitter orientation="horizontal" label="Resize curve view" size={curvesHeight} invert min={140} max={900} onResize={(v) => setLayout({ curvesHeight: v })} />
      </div>
      <div className="area-curves"><CurveView /></div>
      <div className="area-split-h2">
        <Splitter orientation="horizontal" label="Resize timeline" size={timelineHeight} invert min={100} max={900} onResize={(v) => setLayout({ timelineHeight: v })} />
      </div>
      <div className="area-timeline"><TimelineView /></div>
      <div className="area-project"><ProjectPanel /></div>
      <div className="area-split-p">
        <Splitter orientation="vertical" label="Resize project panel" size={pl.projectWidth} min={180} max={520} onResize={(v) => pl.set({ projectWidth: v })} />
      </div>
      <div className="area-split-h3">
        {withProject && <Splitter orientation="horizontal" label="Resize sound-event editor" size={pl.sevHeight} invert min={120} max={900} onResize={(v) => pl.set({ sevHeight: v })} />}
      </div>
      <div className="area-sev"><SevEditor /></div>
      <div className="area-status"><StatusBar /></div>
      <FilePicker />
      <BuildDialog />
      <ConfirmDialog />
    </div>
  );
}
