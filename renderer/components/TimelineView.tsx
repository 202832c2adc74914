import { useEffect, useRef } from 'react';
import { TimelinePainter } from '../timeline/timelinePainter';
import { useDocument, useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { JOINT_CHAINS } from '../timeline/jointFilter';

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
  const filter = useSession((s) => s.timelineFilter);
  return (
    <section className="panel timeline-panel" aria-label="Timeline" data-testid="timeline">
      <div className="panel-header">
        <span className="panel-title">Timeline</span>
        <span className="dim">
          Selected: <b data-testid="timeline-selected">{name}</b>
        </span>
        <span className="spacer" />
        <input
          type="search"
          className="timeline-filter"
          placeholder="Filter joints"
          aria-label="Filter the joint rows by name"
          title="Show only the joints whose names contain one of these words (e.g. foot hand)"
          data-testid="timeline-filter"
          value={filter.text}
          onChange={(e) => sessionStore.getState().setTimelineFilter({ ...filter, text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') sessionStore.getState().setTimelineFilter({ ...filter, text: '' });
          }}
        />
        <div className="segmented" role="group" aria-label="Body chain">
          {[null, ...JOINT_CHAINS].map((chain) => (
            <button
              key={chain ?? 'all'}
              type="button"
              aria-pressed={filter.chain === chain}
              data-testid={`timeline-chain-${chain ?? 'all'}`}
              title={chain ? `Only the ${chain} joints (the others fold away)` : 'Every joint'}
              onClick={() => sessionStore.getState().setTimelineFilter({ ...filter, chain })}
            >
              {chain ? chain[0].toUpperCase() + chain.slice(1) : 'All'}
            </button>
          ))}
        </div>
      </div>
      <div className="timeline-scroll" ref={host} />
      {/* Under the rows and wrapping, so narrow windows show all of it (in the header it was cut off). */}
      <div className="hint" data-testid="timeline-hint">Lock row: drag to lock the joint (on a lock: clear) · Trace row: click · Ctrl+wheel: zoom · Shift+wheel: pan · Label: select (Ctrl/Shift: overlay its curves)</div>
    </section>
  );
}
