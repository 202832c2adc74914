import { useEffect, useRef } from 'react';
import { TimelinePainter } from '../timeline/timelinePainter';
import { useDocument, useSession } from '../state/hooks';

/** Timeline panel: rows per joint, lock row, trace row (canvas in TimelinePainter). */
export function TimelineView() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const p = new TimelinePainter(host.current);
    return () => p.dispose();
  }, []);
  const joint = useSession((s) => s.selectedJoint);
  const name = useDocument((d) => (joint < 0 ? 'Root translation' : (d.motion?.joints[joint]?.name ?? '')));
  return (
    <section className="panel timeline-panel" aria-label="Timeline" data-testid="timeline">
      <div className="panel-header">
        <span className="panel-title">Timeline</span>
        <span className="dim">
          Selected: <b data-testid="timeline-selected">{name}</b>
        </span>
      </div>
      <div className="timeline-scroll" ref={host} />
      {/* Under the rows and wrapping, so narrow windows show all of it (in the header it was cut off). */}
      <div className="hint" data-testid="timeline-hint">Lock row: drag to lock the joint (on a lock: clear) · Trace row: click · Ctrl+wheel: zoom · Shift+wheel: pan · Label: select (Ctrl/Shift: overlay its curves)</div>
    </section>
  );
}
