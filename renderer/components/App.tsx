import { MenuBar } from './MenuBar';
import { MessageBar } from './MessageBar';
import { Viewport } from './Viewport';
import { CurveView } from './CurveView';
import { TimelineView } from './TimelineView';
import { TuningPanel } from './TuningPanel';
import { StatusBar } from './StatusBar';
import { ConfirmDialog, FilePicker } from './Dialogs';
import { Splitter } from './Splitter';
import { usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';

/** The main window: menu, messages, viewport + curves | tuning, timeline, status bar. */
export function App() {
  const layout = usePreferences((p) => p.layout);
  const setLayout = (patch: Partial<typeof layout>) => preferencesStore.getState().set({ layout: { ...preferencesStore.getState().layout, ...patch } });
  return (
    <div
      className="app"
      style={{
        gridTemplateColumns: `minmax(0, 1fr) 5px ${layout.tuningWidth}px`,
        gridTemplateRows: `auto auto minmax(120px, 1fr) 5px ${layout.curvesHeight}px 5px ${layout.timelineHeight}px auto`,
      }}
    >
      <div className="area-menu"><MenuBar /></div>
      <div className="area-messages"><MessageBar /></div>
      <div className="area-viewport"><Viewport /></div>
      <div className="area-split-v">
        <Splitter orientation="vertical" label="Resize tuning panel" size={layout.tuningWidth} invert min={240} max={700} onResize={(v) => setLayout({ tuningWidth: v })} />
      </div>
      <div className="area-tuning"><TuningPanel /></div>
      <div className="area-split-h1">
        <Splitter orientation="horizontal" label="Resize curve view" size={layout.curvesHeight} invert min={140} max={900} onResize={(v) => setLayout({ curvesHeight: v })} />
      </div>
      <div className="area-curves"><CurveView /></div>
      <div className="area-split-h2">
        <Splitter orientation="horizontal" label="Resize timeline" size={layout.timelineHeight} invert min={100} max={900} onResize={(v) => setLayout({ timelineHeight: v })} />
      </div>
      <div className="area-timeline"><TimelineView /></div>
      <div className="area-status"><StatusBar /></div>
      <FilePicker />
      <ConfirmDialog />
    </div>
  );
}
