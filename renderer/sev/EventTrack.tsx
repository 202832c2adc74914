import { escapeControlsKeepingLines } from '../../shared/errors';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent as ReactDragEvent,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { GUTTER, RIGHT_PAD } from '../canvas/timeAxis';
import { frameUnder, wheelPanView, wheelZoomView } from '../canvas/timeGestures';
import { useStore } from 'zustand';
import { useDocument, useMotionShape, useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { documentStore } from '../state/documentStore';
import { sevStore } from './sevStore';
import { useProject, useSev } from './hooks';
import { events, revealEvent } from './sevActions';
import { seDragLeave, seDragOver, seDragStore, seDropHere } from './seDrop';
import { nameOnFloor, placeEventLabels, resolveName, stackEvents } from './resolve';
import { playEvent } from './audition';
import { seColor } from './colors';
import { applyFocusedField } from '../app/fieldUndo';
import { WAVEFORM_COLUMNS, requestWaveform, waveformStore } from './waveform';
import { EVENT_SCOPE_ATTRIBUTE } from '../app/shortcuts';
import { soundPathOf } from '../project/projectStore';

/** Marker size and vertical step between events stacked on one frame, CSS px. */
const MARKER = 11;
const TRACK_H = 46;
/** Height (px) of an event's name line (.sev-marker-label). */
const LABEL_H = 13;

let measureContext: CanvasRenderingContext2D | null = null;
/** Width (px) of a name in the event row's label font (.sev-marker-label: 10px in the page's font). */
function labelWidth(text: string): number {
  measureContext ??= document.createElement('canvas').getContext('2d');
  if (!measureContext) return text.length * 6;
  measureContext.font = `10px ${getComputedStyle(document.body).fontFamily}`;
  return Math.ceil(measureContext.measureText(text).width) + 1;
}

/** How far (px) the event row's left edge may lie from the timeline's for the row to share its time axis. */
const UNDER_TIMELINE = 8;

/**
 * The horizontal span of the timeline's time axis in this element's
 * coordinates: read from the timeline canvas (it publishes its plot range),
 * so a marker sits exactly above the timeline's frame even with its scrollbar. Where the row does not lie under the
 * timeline (the beside arrangement, renderer/project/layout.ts), it spans its own width.
 */
function useAxis(host: React.RefObject<HTMLDivElement | null>): { left: number; right: number; width: number } {
  const [axis, setAxis] = useState({ left: GUTTER, right: 600, width: 800 });
  const viewStart = useSession((s) => s.viewStart);
  const viewEnd = useSession((s) => s.viewEnd);
  useLayoutEffect(() => {
    const measure = () => {
      const el = host.current;
      if (!el) return;
      const me = el.getBoundingClientRect();
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="timeline-canvas"]');
      let left = GUTTER;
      let right = me.width - RIGHT_PAD;
      const c = canvas?.getBoundingClientRect();
      // Only under the timeline (stacked, side by side): beside a wide window's viewport column the SEV editor starts
      // under the viewport, and the timeline's span was a third of its width, cutting the names (tried cold, round 10).
      if (c && canvas?.dataset.plotLeft && canvas.dataset.plotRight && Math.abs(c.left - me.left) <= UNDER_TIMELINE) {
        left = c.left - me.left + Number(canvas.dataset.plotLeft);
        right = c.left - me.left + Number(canvas.dataset.plotRight);
      }
      setAxis((a) =>
        a.left === left && a.right === right && a.width === me.width ? a : { left, right, width: me.width },
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    if (host.current) ro.observe(host.current);
    const canvas = document.querySelector('[data-testid="timeline-canvas"]');
    if (canvas) ro.observe(canvas);
    return () => ro.disconnect();
  }, [host, viewStart, viewEnd]);
  return axis;
}

/** Events in the order the row shows them (by frame, then document order): what a Shift+click range runs over. */
function frameOrder(doc: { events: readonly { frame: number }[] }): number[] {
  return doc.events.map((_, k) => k).sort((a, b) => doc.events[a].frame - doc.events[b].frame || a - b);
}

/**
 * The event row: one marker per event at its frame, aligned with the timeline. Click selects (Ctrl+click adds
 * or removes, Shift+click selects a range), dragging a marker moves it, or the whole selection when it is part
 * of one (snaps to frames, one undo step); dragging over empty row selects the events in the box (Ctrl/Shift: adds).
 */
export function EventTrack() {
  const host = useRef<HTMLDivElement>(null);
  const axis = useAxis(host);
  const axisRef = useRef(axis);
  axisRef.current = axis;
  const doc = useSev((s) => s.file?.doc ?? null);
  const selected = useSev((s) => s.selectedEvent);
  const selection = useSev((s) => s.selectedEvents);
  const floor = useSev((s) => s.floor);
  const table = useProject((p) => p.tables?.table ?? null);
  const viewStart = useSession((s) => s.viewStart);
  const viewEnd = useSession((s) => s.viewEnd);
  const motion = useMotionShape();
  /** A marker drag: `group` moves the whole selection. */
  const drag = useRef<{ index: number; x0: number; frame0: number; moved: boolean; group: boolean } | null>(null);
  /** A box selection over empty row: from x0 to x (host coordinates); `base` is kept (Ctrl/Shift held). */
  const box = useRef<{ x0: number; base: number[]; active: boolean } | null>(null);
  const [boxSpan, setBoxSpan] = useState<{ from: number; to: number } | null>(null);
  /** The event whose marker is under the pointer or has the focus: its name shows whole (a cut one too). */
  const [peek, setPeek] = useState<number | null>(null);
  const suggested = useSev((s) => s.footsteps);
  const sounds = useProject((p) => p.sounds);
  const fps = useDocument((d) => d.motion?.fps ?? 30);
  const waveforms = useStore(waveformStore, (w) => w.byPath);
  // The sound each event plays on the floor shown, where the audition folder has one: its waveform is drawn under it.
  const soundOf = (index: number): string | null => {
    const ev = doc?.events[index];
    const def = ev ? doc!.ses.find((d) => d.index === ev.se) : undefined;
    return def ? soundPathOf(sounds, nameOnFloor(def, floor)) : null;
  };
  const soundPaths = doc
    ? [...new Set(doc.events.map((_, k) => soundOf(k)).filter((p): p is string => p !== null))]
    : [];
  const soundKey = soundPaths.join('\n');
  useEffect(() => {
    for (const p of soundKey.split('\n')) if (p) requestWaveform(p);
  }, [soundKey]);

  const span = Math.max(1e-6, viewEnd - viewStart);
  const toX = (f: number) => axis.left + ((f - viewStart) / span) * (axis.right - axis.left);
  const toFrame = (x: number) => viewStart + ((x - axis.left) / (axis.right - axis.left)) * span;
  useEffect(() => {
    host.current?.setAttribute('data-plot-left', String(axis.left));
    host.current?.setAttribute('data-plot-right', String(axis.right));
  }, [axis]);

  const localX = (e: { clientX: number }) => e.clientX - host.current!.getBoundingClientRect().left;

  const onMarkerDown = (e: ReactPointerEvent<HTMLButtonElement>, index: number) => {
    // The field being typed in (an event's frame or note) applies first, to the event it was typed for (fieldUndo.ts).
    applyFocusedField(e.target);
    if (e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.focus();
    const s = sevStore.getState();
    if (e.ctrlKey || e.metaKey) return s.toggleEventSelected(index);
    if (e.shiftKey) return s.selectEventRange(index, s.file?.doc ? frameOrder(s.file.doc) : []);
    e.currentTarget.setPointerCapture(e.pointerId);
    // A marker of a multi-selection keeps the selection: dragging it moves them all (a click without a drag selects it alone).
    const group = s.selectedEvents.length > 1 && s.selectedEvents.includes(index);
    if (!group) revealEvent(index);
    drag.current = { index, x0: e.clientX, frame0: s.file?.doc?.events[index]?.frame ?? 0, moved: false, group };
  };
  /**
   * Frames the pointer has moved since the press. The move starts at half a frame (snapping to the nearest
   * frame) or at 3 px when frames are wider, so a one-frame drag counts at every zoom and a click's jitter does not.
   */
  const dragFrames = (clientX: number, d: { x0: number }): number | null => {
    const pxPerFrame = (axis.right - axis.left) / span;
    const dx = clientX - d.x0;
    if (Math.abs(dx) < Math.min(3, pxPerFrame / 2)) return null;
    return dx / pxPerFrame;
  };
  const onMarkerMove = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    const delta = dragFrames(e.clientX, d);
    if (!d.moved && delta === null) return;
    if (!d.moved) {
      d.moved = true;
      const n = sevStore.getState().selectedEvents.length;
      sevStore.getState().begin(d.group ? `Move ${n} events` : 'Move event');
      sessionStore.getState().setPlaying(false);
    }
    // Relative to the press: grabbing a marker off its centre does not make it jump to the pointer's frame.
    if (d.group) events.dragSelectionBy(delta ?? 0);
    else events.dragTo(d.index, d.frame0 + Math.round(delta ?? 0));
    // The pose follows the dragged marker, so a footstep is dropped on the frame the foot is seen to land: the
    // playhead came to the event only at the drop, and the viewport showed the frame of before throughout the drag
    // (tried cold, round 28).
    const f = sevStore.getState().file?.doc?.events[d.index]?.frame;
    if (f !== undefined) sessionStore.getState().setPlayhead(f);
  };
  const onMarkerUp = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    e.currentTarget.releasePointerCapture(e.pointerId);
    if (d.moved) {
      sevStore.getState().commit();
      const f = sevStore.getState().file?.doc?.events[d.index]?.frame;
      if (f !== undefined) sessionStore.getState().setPlayhead(f);
    } else {
      if (d.group) revealEvent(d.index);
      playEvent(d.index);
    }
  };

  const onTrackDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    // The field being typed in applies first: the click deselects the event whose note field had the text.
    applyFocusedField(e.target);
    if (e.button !== 0 || !motion) return;
    const additive = e.ctrlKey || e.metaKey || e.shiftKey;
    if (!additive) {
      const f = frameUnder({ viewStart, viewEnd, left: axis.left, right: axis.right }, localX(e), motion.frameCount);
      sessionStore.getState().setPlayhead(f);
      sevStore.getState().selectEvent(null);
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    box.current = { x0: localX(e), base: additive ? sevStore.getState().selectedEvents : [], active: false };
  };
  // A right-click on the row away from the events goes to that frame, as a click does, and stops playback: the menu
  // it opens (EventContextMenu) adds or pastes events at the playhead, which must stay where the user pointed.
  const onTrackContext = (e: ReactMouseEvent<HTMLDivElement>) => {
    const t = e.target as Element;
    if (!motion || t.closest('[data-testid="sev-marker"], .sev-track-gutter')) return;
    const f = frameUnder({ viewStart, viewEnd, left: axis.left, right: axis.right }, localX(e), motion.frameCount);
    sessionStore.getState().setPlaying(false);
    sessionStore.getState().setPlayhead(f);
    sevStore.getState().selectEvent(null);
  };
  // An SE dragged from the SE table (seDrop.ts): the playhead (and the pose) follows the pointer, so the sound is
  // dropped on the frame the motion is seen to need it; the drop adds it there (events.addAt, one undo step). The line
  // shows where a drop on the timeline above or the event list adds it too.
  const dragSe = useStore(seDragStore, (d) => d.se);
  const dropAt = useStore(seDragStore, (d) => d.at);
  const seDragFrame = (e: ReactDragEvent<HTMLDivElement>): number | null =>
    motion
      ? frameUnder({ viewStart, viewEnd, left: axis.left, right: axis.right }, localX(e), motion.frameCount)
      : null;
  const onSeDragOver = (e: ReactDragEvent<HTMLDivElement>) => seDragOver(e, 'row', seDragFrame(e));
  const onSeDragLeave = (e: ReactDragEvent<HTMLDivElement>) => seDragLeave(e, 'row');
  const onSeDrop = (e: ReactDragEvent<HTMLDivElement>) => seDropHere(e, 'row', seDragFrame(e));
  const onTrackMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const b = box.current;
    const d = sevStore.getState().file?.doc;
    if (!b || !d) return;
    const x = localX(e);
    if (!b.active && Math.abs(x - b.x0) < 3) return;
    b.active = true;
    const [lo, hi] = [toFrame(Math.min(b.x0, x)), toFrame(Math.max(b.x0, x))];
    setBoxSpan({ from: Math.min(b.x0, x), to: Math.max(b.x0, x) });
    const inside = d.events.flatMap((ev, k) => (ev.frame >= lo && ev.frame <= hi ? [k] : []));
    sevStore.getState().selectEvents([...b.base, ...inside], inside[0] ?? sevStore.getState().selectedEvent);
  };
  const onTrackUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!box.current) return;
    box.current = null;
    setBoxSpan(null);
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  // Same time navigation as the timeline: Ctrl/Alt + wheel zooms, wheel or Shift + wheel pans.
  useEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const onWheel = (e: WheelEvent) => {
      const m = documentStore.getState().motion;
      if (!m) return;
      e.preventDefault();
      const s = sessionStore.getState();
      const a = axisRef.current;
      const view = { start: s.viewStart, end: s.viewEnd };
      const axis = { viewStart: s.viewStart, viewEnd: s.viewEnd, left: a.left, right: a.right };
      const [v0, v1] =
        e.ctrlKey || e.altKey
          ? wheelZoomView(view, axis, e.clientX - el.getBoundingClientRect().left, e.deltaY, m.frameCount)
          : wheelPanView(view, e, m.frameCount);
      s.setView(v0, v1);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const stacked = doc ? stackEvents(doc) : [];
  const perFrame = new Map<number, number>();
  for (const s of stacked) perFrame.set(s.frame, Math.max(perFrame.get(s.frame) ?? 0, s.stack + 1));
  /** The top of an event's marker: centred alone, stacked from the top when its frame has more. */
  const markerTop = (frame: number, stack: number) => {
    const n = perFrame.get(frame) ?? 1;
    const step = Math.min(MARKER + 2, (TRACK_H - MARKER - 4) / Math.max(1, n - 1));
    return n > 1 ? 3 + stack * step : (TRACK_H - MARKER) / 2;
  };
  /** A frame with more events than whole name lines fit names only its first, with the count of the others. */
  const crowded = (frame: number) => {
    const n = perFrame.get(frame) ?? 1;
    return n > 1 && (TRACK_H - MARKER - 4) / (n - 1) < LABEL_H;
  };
  const nameOf = (i: number) => {
    const ev = doc!.events[i];
    const def = doc!.ses.find((d) => d.index === ev.se);
    return def ? nameOnFloor(def, floor) : `SE ${ev.se}?`;
  };
  // A crowded frame names its first event and counts the others (each marker's tooltip names its own).
  const labelText = new Map<number, string>();
  for (const { index, frame, stack } of stacked) {
    const more = crowded(frame) ? (perFrame.get(frame) ?? 1) - 1 : 0;
    if (more > 0 && stack > 0) continue;
    labelText.set(index, more > 0 ? `${nameOf(index)} +${more}` : nameOf(index));
  }
  // Each marker's name runs to the right up to the next marker its line would cross (UE's notify track); one that
  // would be cut there moves to the line above or below the markers.
  const labelPlaces = placeEventLabels(
    stacked
      .filter((st) => toX(st.frame) >= axis.left - MARKER && toX(st.frame) <= axis.width + MARKER)
      .map((st) => {
        const text = labelText.get(st.index);
        return {
          index: st.index,
          x: toX(st.frame),
          top: markerTop(st.frame, st.stack),
          stacked: (perFrame.get(st.frame) ?? 1) > 1,
          textWidth: text === undefined || toX(st.frame) < axis.left ? null : labelWidth(text),
        };
      }),
    { marker: MARKER, lineHeight: LABEL_H, height: TRACK_H, width: axis.width, minRoom: 24 },
  );

  return (
    <div
      className="sev-track sev-events-scope"
      ref={host}
      style={{ height: TRACK_H }}
      onPointerDown={onTrackDown}
      onPointerMove={onTrackMove}
      onPointerUp={onTrackUp}
      onPointerCancel={onTrackUp}
      onContextMenu={onTrackContext}
      onDragEnter={onSeDragOver}
      onDragOver={onSeDragOver}
      onDragLeave={onSeDragLeave}
      onDrop={onSeDrop}
      data-testid="sev-track"
      data-view-start={viewStart}
      data-view-end={viewEnd}
      // The time axis the markers were placed on, and the row width it was measured at (a ResizeObserver's, frames
      // after a resize): a test judges the markers once these are the new size's.
      data-axis-left={axis.left}
      data-axis-right={axis.right}
      data-axis-width={axis.width}
      tabIndex={-1}
      {...{ [EVENT_SCOPE_ATTRIBUTE]: '' }}
    >
      <div
        className="sev-track-gutter"
        style={{ width: axis.left }}
        onPointerDown={(e) => e.stopPropagation()}
        title="Click an event: select and play · Ctrl+click: add or remove · Shift+click: range · drag over the row: box select · drag events to move them (snaps to frames) · Ctrl+C / Ctrl+V: copy, paste at the playhead · Alt+←/→: nudge · Delete: remove · click the row: move the playhead · Ctrl+wheel: zoom, wheel: pan"
      >
        <span className="panel-title">Events</span>
        <span className="dim small">{doc ? `${doc.events.length}` : ''}</span>
      </div>
      {motion && <div className="sev-track-end" style={{ left: toX(motion.frameCount) + 1, right: 0 }} />}
      <TrackPlayhead left={axis.left} right={axis.right} />
      {boxSpan && (
        <div
          className="sev-box"
          data-testid="sev-box"
          style={{ left: boxSpan.from, width: boxSpan.to - boxSpan.from }}
        />
      )}
      {dropAt && dragSe !== null && doc && (
        <div
          className="sev-drop"
          data-testid="sev-drop"
          data-frame={dropAt.frame}
          data-place={dropAt.place}
          style={{ left: toX(dropAt.frame) }}
        >
          <span
            className="sev-drop-label"
            // Near the row's right end the words go to the line's left, whole.
            style={toX(dropAt.frame) > axis.width - 160 ? { left: 'auto', right: 4 } : undefined}
          >
            {`${doc.ses.find((d) => d.index === dragSe)?.name ?? `SE ${dragSe}`} at ${dropAt.frame}`}
          </span>
        </div>
      )}
      {doc && (
        <div className="sev-waves" style={{ left: axis.left }} aria-hidden="true">
          {doc.events.map((ev, index) => {
            const path = soundOf(index);
            const wave = path ? waveforms[path] : null;
            if (!wave) return null;
            const x0 = toX(ev.frame);
            const x1 = toX(ev.frame + wave.duration * fps);
            if (x1 < axis.left || x0 > axis.width) return null;
            return (
              <svg
                key={index}
                className="sev-wave"
                data-testid="sev-waveform"
                data-index={index}
                data-frames={(wave.duration * fps).toFixed(2)}
                style={{ left: x0 - axis.left, width: Math.max(1, x1 - x0) }}
                viewBox={`0 -1 ${WAVEFORM_COLUMNS} 2`}
                preserveAspectRatio="none"
              >
                <path d={wave.svgPath} fill={seColor(ev.se)} />
              </svg>
            );
          })}
        </div>
      )}
      {suggested?.contacts.map((c, k) => {
        const x = toX(c.frame);
        if (!suggested.accepted[k] || x < axis.left - MARKER || x > axis.width) return null;
        // Ghosts of suggested footsteps: left feet in the upper half, right feet in the lower half.
        return (
          <span
            key={`ghost${c.side}${c.frame}`}
            className="sev-ghost"
            style={{ left: x - MARKER / 2, top: c.side === 'L' ? 2 : TRACK_H - MARKER - 2 }}
            data-testid="sev-ghost"
            data-frame={c.frame}
            title={`suggested footstep ${c.side} at frame ${c.frame}`}
          >
            {c.side}
          </span>
        );
      })}
      {doc &&
        stacked.map(({ index, frame, stack }) => {
          const ev = doc.events[index];
          const def = doc.ses.find((d) => d.index === ev.se);
          const name = def ? nameOnFloor(def, floor) : `SE ${ev.se}?`;
          const r = resolveName(table, name);
          const x = toX(frame);
          if (x < axis.left - MARKER || x > axis.width) return null;
          const joint =
            ev.joint === null ? 'no joint' : `joint ${ev.joint} ${motion?.joints[ev.joint]?.name ?? '(missing)'}`;
          // Out of this motion's range (a file edited elsewhere): flagged in place, the build refuses it.
          const outOfRange = motion
            ? [
                ev.frame > motion.frameCount ? `frame ${frame} is past the end (0..${motion.frameCount})` : '',
                ev.joint !== null && ev.joint >= motion.joints.length
                  ? `joint ${ev.joint} is not in this motion (0..${motion.joints.length - 1})`
                  : '',
              ]
                .filter(Boolean)
                .join('; ')
            : '';
          return (
            <button
              key={index}
              type="button"
              className={`sev-marker${selection.includes(index) ? ' selected' : ''}${selected === index ? ' current' : ''}${r.error || outOfRange ? ' bad' : ''}`}
              data-out-of-range={outOfRange || undefined}
              style={{
                left: x - MARKER / 2,
                top: markerTop(frame, stack),
                background: seColor(ev.se),
              }}
              title={escapeControlsKeepingLines(
                `frame ${frame} · SE ${ev.se} ${name}${r.codeText ? ` (${r.codeText})` : ''} · ${joint}${ev.comments.trailing ? `\n#${ev.comments.trailing}` : ''}${r.error ? `\n${r.error}` : ''}${outOfRange ? `\n${outOfRange}: the build refuses this event` : ''}\nDrag to move · Ctrl+click: add to the selection · Delete removes · click plays`,
              )}
              data-testid="sev-marker"
              data-index={index}
              data-frame={frame}
              aria-label={`Event at frame ${frame}: ${name}, ${joint}`}
              aria-pressed={selection.includes(index)}
              onPointerEnter={() => setPeek(index)}
              onPointerLeave={() => setPeek((p) => (p === index ? null : p))}
              onFocus={() => setPeek(index)}
              onBlur={() => setPeek((p) => (p === index ? null : p))}
              onPointerDown={(e) => onMarkerDown(e, index)}
              onPointerMove={onMarkerMove}
              onPointerUp={onMarkerUp}
              onPointerCancel={() => {
                drag.current = null;
                sevStore.getState().cancel();
              }}
            >
              {ev.se}
            </button>
          );
        })}
      {doc &&
        stacked.map(({ index, frame }) => {
          const x = toX(frame);
          // A name cut to the room before the next marker (an ellipsis), or left out where there is none, shows whole
          // over its neighbours while its marker is hovered or focused (the marker's tooltip has it too).
          const full = peek === index;
          const place = labelPlaces.get(index) ?? (full ? { left: x + MARKER / 2 + 2, top: 1, room: 0 } : undefined);
          if (!place || x < axis.left || x > axis.width) return null;
          return (
            <span
              key={`label${index}`}
              className={`sev-marker-label${selection.includes(index) ? ' selected' : ''}${full ? ' full' : ''}`}
              data-testid="sev-marker-label"
              data-index={index}
              style={{ left: place.left, top: place.top, maxWidth: full ? undefined : place.room }}
            >
              {full ? nameOf(index) : labelText.get(index)}
            </span>
          );
        })}
    </div>
  );
}

/**
 * The playhead line over the event row, its own component: it alone re-renders as the playhead moves (at the
 * line's pixel, not at every animation frame between), not the track with its markers, waveforms and sound
 * look-ups (docs/architecture.md, "Renderer review, round 3").
 */
function TrackPlayhead({ left, right }: { left: number; right: number }) {
  const x = useSession((s) =>
    Math.round(left + ((s.playhead - s.viewStart) / Math.max(1e-6, s.viewEnd - s.viewStart)) * (right - left)),
  );
  return <div className="sev-track-playhead" style={{ left: x }} />;
}
