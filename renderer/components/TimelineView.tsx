import { escapeControls } from '../../shared/errors';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { TimelinePainter } from '../timeline/timelinePainter';
import { useMemo } from 'react';
import { useDocument, usePreferences, useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { chainGroupWord, JOINT_CHAINS, shownJointRows, timelineRows } from '../timeline/jointFilter';
import { useStore } from 'zustand';
import type { DragEvent as ReactDragEvent } from 'react';
import { frameUnder } from '../canvas/timeGestures';
import { frameToX } from '../canvas/timeAxis';
import { documentStore } from '../state/documentStore';
import { seDragLeave, seDragOver, seDragStore, seDropHere } from '../sev/seDrop';
import { useSev } from '../sev/hooks';

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
  const grouped = usePreferences((p) => p.timelineGrouped);
  const folded = usePreferences((p) => p.timelineFolded);
  const joints = useDocument((d) => d.motion?.joints);
  // The chain groups the rows have now (Group by chain), for their fold buttons.
  const groups = useMemo(
    () =>
      grouped && joints
        ? timelineRows(
            joints.map((j) => j.name),
            filter,
            { grouped, folded },
          ).flatMap((r) => (r.kind === 'group' ? [r] : []))
        : [],
    [grouped, joints, filter, folded],
  );
  const motionName = useDocument((d) => d.name);
  const drop = useTimelineSeDrop(host);
  // The filter outlives the motion it was typed for: on another skeleton (an imported BVH names its joints
  // otherwise) it may leave no row at all, an empty timeline that said only "0 of 22 rows" in small print.
  const nothingShown =
    !!joints &&
    shownJointRows(
      joints.map((j) => j.name),
      filter,
    ).length === 0;
  const setFolded = (group: string, fold: boolean) =>
    preferencesStore.getState().set({
      timelineFolded: fold ? [...folded.filter((g) => g !== group), group] : folded.filter((g) => g !== group),
    });
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
          placeholder="Filter"
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
              {chain ? chainGroupWord(chain) : 'All'}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="tool small"
          aria-pressed={grouped}
          data-testid="timeline-group"
          title="Group the rows by chain (spine, arms, legs, other) under headers that fold like an outliner's; click a header's name to fold it"
          onClick={() => preferencesStore.getState().set({ timelineGrouped: !grouped })}
        >
          Group
        </button>
        {groups.length > 0 && (
          <div className="segmented" role="group" aria-label="Fold chain groups" data-testid="timeline-folds">
            {groups.map((g) => (
              <button
                key={g.group}
                type="button"
                aria-expanded={!g.folded}
                data-testid={`timeline-fold-${g.group}`}
                title={`${g.folded ? 'Unfold' : 'Fold'} the ${g.group} rows (${g.joints.length})`}
                onClick={() => setFolded(g.group, !g.folded)}
              >
                {g.folded ? '▸' : '▾'} {chainGroupWord(g.group)}
              </button>
            ))}
          </div>
        )}
      </div>
      {!joints && (
        <div className="timeline-empty" data-testid="timeline-empty">
          No motion open: its joints&apos; keys, error, locks and trace keys show here. File › Open… (Ctrl+O)
        </div>
      )}
      <div
        className="timeline-scroll"
        ref={host}
        onDragEnter={drop.onDragOver}
        onDragOver={drop.onDragOver}
        onDragLeave={drop.onDragLeave}
        onDrop={drop.onDrop}
      />
      {drop.tip}
      {nothingShown && (
        <div className="timeline-empty timeline-none-shown" role="status" data-testid="timeline-none-shown">
          {filter.text.trim()
            ? `No joint of ${escapeControls(motionName)} has “${filter.text.trim()}” in its name${filter.chain ? ` among the ${filter.chain}` : ''}.`
            : `No joint of ${escapeControls(motionName)} is named as ${filter.chain} are (${filter.chain === 'legs' ? 'leg, knee, foot…' : filter.chain === 'arms' ? 'arm, elbow, hand…' : 'spine, chest, neck…'}).`}{' '}
          <button
            type="button"
            className="tool small"
            data-testid="timeline-clear-filter"
            onClick={() => sessionStore.getState().setTimelineFilter({ text: '', chain: null })}
          >
            Show every joint
          </button>
        </div>
      )}
      {/* Under the rows. A few words shorter than it was, so that the Project mode's timeline at 1280x800 (1007 px)
          has it on one line: "there" went alone to a second line (tried cold, round 24). Where the whole text does
          not fit on one line (the full layout's timeline, 580 px at 1280x800 and 745 px at 1920x1080: it wrapped
          to two), the short one shows, each gesture in fewer words, and the whole in the tooltip (round 25). */}
      <TimelineHint />
    </section>
  );
}

/**
 * An SE dragged from the SE table onto the timeline (seDrop.ts): the frame under the pointer in the rows' time span
 * (not over the joint names), which the playhead follows; a tip at its line names what a drop adds. A sound designer
 * drops a sound on the time line where the keys are, as on the event row under it (tried cold, round 30).
 */
function useTimelineSeDrop(host: React.RefObject<HTMLDivElement | null>) {
  const se = useStore(seDragStore, (d) => d.se);
  const frame = useStore(seDragStore, (d) => (d.at?.place === 'timeline' ? d.at.frame : null));
  const name = useSev((s) => s.file?.doc?.ses.find((d) => d.index === se)?.name ?? `SE ${se}`);
  const [tipAt, setTipAt] = useState<{ x: number; y: number } | null>(null);
  const frameAt = (e: ReactDragEvent<HTMLDivElement>): number | null => {
    const canvas = host.current?.querySelector<HTMLCanvasElement>('[data-testid="timeline-canvas"]');
    const motion = documentStore.getState().motion;
    if (!canvas || !motion || !canvas.dataset.plotLeft || !canvas.dataset.plotRight) return null;
    const r = canvas.getBoundingClientRect();
    const left = Number(canvas.dataset.plotLeft);
    const right = Number(canvas.dataset.plotRight);
    const x = e.clientX - r.left;
    if (x < left - 2) return null;
    const { viewStart, viewEnd } = sessionStore.getState();
    const axis = { viewStart, viewEnd, left, right };
    const f = frameUnder(axis, x, motion.frameCount);
    const lineX = r.left + frameToX(axis, f);
    const top = host.current!.getBoundingClientRect().top;
    setTipAt((t) => (t?.x === lineX && t.y === top ? t : { x: lineX, y: top }));
    return f;
  };
  const tip =
    frame !== null && se !== null && tipAt ? (
      <div className="timeline-se-drop" data-testid="timeline-se-drop" style={{ left: tipAt.x, top: tipAt.y }}>
        {`${name} at ${frame}`}
      </div>
    ) : null;
  return {
    onDragOver: (e: ReactDragEvent<HTMLDivElement>) => seDragOver(e, 'timeline', frameAt(e)),
    onDragLeave: (e: ReactDragEvent<HTMLDivElement>) => seDragLeave(e, 'timeline'),
    onDrop: (e: ReactDragEvent<HTMLDivElement>) => seDropHere(e, 'timeline', frameAt(e)),
    tip,
  };
}

const HINT_FULL =
  'Lock row: drag to lock (on one: clear) · Trace row: click · Ctrl+wheel: zoom · Shift+wheel: pan · Label: select ' +
  '(Ctrl/Shift: overlay) · Chain header: click folds · Right-click: key, lock, trace there';
const HINT_SHORT = 'Lock row: drag · Trace row: click · Ctrl/Shift+wheel: zoom/pan · Label: select · Right-click: more';

/**
 * The timeline's hint on one line: the whole text where it fits (measured, so whatever the font), else the short one
 * with the whole in its tooltip.
 */
function TimelineHint() {
  const el = useRef<HTMLDivElement>(null);
  const full = useRef<HTMLSpanElement>(null);
  const [short, setShort] = useState(false);
  useLayoutEffect(() => {
    const box = el.current;
    const text = full.current;
    if (!box || !text) return;
    const measure = () => {
      const st = getComputedStyle(box);
      const room = box.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
      // The whole text's own width: laid out (hidden) also while the short one shows.
      setShort(text.getBoundingClientRect().width > room + 0.5);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(box);
    return () => ro.disconnect();
  }, []);
  return (
    <div
      ref={el}
      className={`hint timeline-hint${short ? ' short' : ''}`}
      data-testid="timeline-hint"
      data-form={short ? 'short' : 'full'}
      title={short ? HINT_FULL : undefined}
    >
      {short && <span className="hint-short">{HINT_SHORT}</span>}
      {/* Shown, or laid out hidden in a box of no size (nothing to scroll), to be measured. */}
      <span className={short ? 'hint-measure' : 'hint-whole'} aria-hidden={short || undefined}>
        <span ref={full}>{HINT_FULL}</span>
      </span>
    </div>
  );
}
