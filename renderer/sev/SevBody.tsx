import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { Splitter } from '../components/Splitter';
import { SEV_LIST_SHARE, projectLayoutStore } from '../project/layout';
import { useRowRestAfterUserScroll } from './rowRest';
import { seDragLeave, seDragOver, seDragStore, seDropHere } from './seDrop';
import { useSev } from './hooks';

/** Least widths (px) a drag of the divider leaves the event list (frame, SE, joint, row tools) and the SE table. */
export const SEV_LIST_MIN = 280;
export const SEV_TABLE_MIN = 220;
/** Width (px) of the divider. */
const DIVIDER = 5;

/**
 * The SEV editor's lower half: the event list and the SE table side by side, with a divider between them that a
 * drag, or the arrow keys once it has the focus, moves; double-click or Enter puts back the default split for the
 * editor's width (sev.css). The list's share of the width is remembered with the window layout
 * (ProjectLayout.sevListShare), so a window of another size keeps the same proportions.
 */
export function SevBody(props: { list: ReactNode; table: ReactNode; tableFoot?: ReactNode }) {
  const share = useStore(projectLayoutStore, (s) => s.sevListShare);
  const body = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const defs = useRef<HTMLDivElement>(null);
  useRowRestAfterUserScroll(list);
  useRowRestAfterUserScroll(defs);
  const [widths, setWidths] = useState({ body: 0, list: 0 });
  // An SE dragged from the SE table onto the event list (its rows and the room under them) adds it at the playhead
  // (seDrop.ts): the list has no frame between its rows, and the playhead is where M adds (tried cold, round 30).
  const dropFrame = useStore(seDragStore, (d) => (d.at?.place === 'list' ? d.at.frame : null));
  const dropSe = useStore(seDragStore, (d) => d.se);
  const dropName = useSev((s) => s.file?.doc?.ses.find((d) => d.index === dropSe)?.name ?? `SE ${dropSe}`);
  useLayoutEffect(() => {
    const el = body.current;
    const col = list.current;
    if (!el || !col) return;
    const measure = () => {
      const next = { body: el.clientWidth, list: Math.round(col.getBoundingClientRect().width) };
      setWidths((w) => (w.body === next.body && w.list === next.list ? w : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    ro.observe(col);
    return () => ro.disconnect();
  }, []);
  const room = Math.max(1, widths.body - DIVIDER);
  const min = Math.round(Math.max(Math.min(SEV_LIST_MIN, room / 2), room * SEV_LIST_SHARE.min));
  const max = Math.round(Math.max(min, Math.min(room - SEV_TABLE_MIN, room * SEV_LIST_SHARE.max)));
  // A share set in a wider editor keeps both sides their least widths in a narrower one (the saved share stays).
  const shown = share === null || widths.body === 0 ? share : Math.max(min, Math.min(max, share * room)) / room;
  // The divider steps from the split as stored, not as last measured: the list is measured again a frame or more after
  // it moves, and keys pressed before that (a loaded machine) stepped from a stale width, losing steps.
  const resize = (px: number) =>
    projectLayoutStore.getState().set({ sevListShare: Math.max(min, Math.min(max, px)) / room });
  return (
    <div
      className="sev-body"
      ref={body}
      data-testid="sev-body"
      data-split={share === null ? 'default' : 'user'}
      style={
        shown === null
          ? undefined
          : { gridTemplateColumns: `minmax(0, ${shown}fr) ${DIVIDER}px minmax(0, ${1 - shown}fr)` }
      }
    >
      <div
        className={`sev-col events${dropFrame !== null ? ' sev-drop-target' : ''}`}
        ref={list}
        onDragEnter={(e) => seDragOver(e, 'list', null)}
        onDragOver={(e) => seDragOver(e, 'list', null)}
        onDragLeave={(e) => seDragLeave(e, 'list')}
        onDrop={(e) => seDropHere(e, 'list', null)}
      >
        {props.list}
        {dropFrame !== null && (
          <div className="sev-list-drop" data-testid="sev-list-drop">
            {`Drop to add ${dropName} at frame ${dropFrame} (the playhead)`}
          </div>
        )}
      </div>
      <Splitter
        orientation="vertical"
        label="Resize event list and SE table"
        title="Drag (or ←/→ when focused) to share the width between the event list and the SE table · double-click or Enter: default split"
        testid="sev-divider"
        size={shown === null ? widths.list : shown * room}
        min={min}
        max={max}
        onResize={resize}
        onReset={() => projectLayoutStore.getState().set({ sevListShare: null })}
      />
      {/* The SE column's foot (SeTablesMissing) stays under it, out of its scroll: it covers nothing (round 24). */}
      <div className="sev-defs-side">
        <div className="sev-col defs" ref={defs}>
          {props.table}
        </div>
        {props.tableFoot}
      </div>
    </div>
  );
}
