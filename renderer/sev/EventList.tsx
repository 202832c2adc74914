import { escapeControlsKeepingLines } from '../../shared/errors';
import { Fragment, memo, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { SevEvent, SevSeDefinition } from '../../shared/sev/types';
import type { SeNameTable } from '../../shared/se-tables/table';
import type { MotionShape } from '../state/hooks';
import { useDocument, useMotionShape } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from './sevStore';
import { useProject, useSev } from './hooks';
import { events, revealEvent } from './sevActions';
import { FLOOR_NAMES, floorNameShort, nameOnFloor, resolveName } from './resolve';
import { playEvent, playSeName } from './audition';
import { EVENT_SCOPE_ATTRIBUTE } from '../app/shortcuts';
import { seColor } from './colors';
import { NumberField } from './NumberField';
import { NO_SE_DEFINED_YET } from './sevLabels';
import { SePicker } from './SePicker';
import { JointTreePicker } from '../components/JointTreePicker';
import { FloorButton } from './FloorButton';
import { eventsInFrameOrder, seDefinitionsOf, selectionSetOf } from './eventRows';
import { applyFocusedField } from '../app/fieldUndo';

/** How an event row's controls name their event: "event 1 (SE 0)", as the SEV's problems number events. */
function eventWho(index: number, se: number): string {
  return `event ${index} (SE ${se})`;
}

/** The picker's value for an event without a joint. */
const NO_JOINT = -1;
const NO_JOINT_EXTRA = [{ value: NO_JOINT, label: '– (none)' }];
/** The events whose floor previews are open, by index, in the SEV file of `path`. */
interface FloorsOpen {
  readonly path: string | null;
  readonly open: ReadonlySet<number>;
}
const NO_FLOORS_OPEN: FloorsOpen = { path: null, open: new Set() };

/**
 * The events as a list (frame, SE, joint, what plays on the selected floor), in frame order, in sync with the
 * track. Click selects an event, Ctrl+click adds or removes one, Shift+click selects a range; the keyboard then
 * copies, pastes, deletes and nudges the selection (shared/shortcuts.ts EVENT_SHORTCUTS). An event whose SE has
 * floor variants opens a preview of what each of the 8 floors plays, each with a play button.
 */
export const EventList = memo(function EventList() {
  const doc = useSev((s) => s.file?.doc ?? null);
  const path = useSev((s) => s.file?.path ?? null);
  // The list reads no selection, and is a memo of no props: the editor around it renders at each click (its toolbar
  // reads the selection). Each row asks the store for its own (EventRow), so a click renders the rows whose selection
  // changed and not the list, which made every row's elements for `memo` to compare (docs/architecture.md, "Renderer
  // review, round 11").
  const floor = useSev((s) => s.floor);
  const table = useProject((p) => p.tables?.table ?? null);
  const motion = useMotionShape();
  const motionLabel = useDocument((d) => d.name);
  const wrap = useRef<HTMLDivElement>(null);
  // The open floor previews are those of one file: another file (a new path) shows none open. Held with their path
  // and read for the path shown; those of another path are dropped in this render (React runs it again before it
  // commits anything), where an effect at every new path, at the mount too, set an empty set and rendered the list a
  // second time (docs/architecture.md, "Renderer review, round 11").
  const [floors, setFloors] = useState<FloorsOpen>(NO_FLOORS_OPEN);
  if (floors.path !== path && floors.open.size) setFloors(NO_FLOORS_OPEN);
  const floorsOpen = floors.path === path ? floors.open : NO_FLOORS_OPEN.open;
  const toggleFloors = useCallback(
    (index: number) =>
      setFloors((o) => {
        const n = new Set(o.path === path ? o.open : undefined);
        if (n.has(index)) n.delete(index);
        else n.add(index);
        return { path, open: n };
      }),
    [path],
  );

  if (!doc) return null;
  // Read once for each array of events and of SE definitions (eventRows.ts), and each row a memo of its own event:
  // a click on a row re-rendered every row, each sorting nothing but looking its SE up twice by a linear search;
  // now the rows whose selection changed render (docs/architecture.md, "Renderer review, round 10").
  const order = eventsInFrameOrder(doc.events);
  const ses = seDefinitionsOf(doc.ses);

  return (
    <div className="sev-list-wrap sev-events-scope" ref={wrap} tabIndex={-1} {...{ [EVENT_SCOPE_ATTRIBUTE]: '' }}>
      <table className="sev-table sev-events" data-testid="sev-event-list" aria-multiselectable="true">
        <thead>
          <tr>
            <th style={{ width: 62 }}>Frame</th>
            <th>SE</th>
            <th>Joint</th>
            <th title={`What each event plays on floor ${floor} (${FLOOR_NAMES[floor]})`}>
              <span className="sev-wide-only">Plays on floor</span>
              <span className="sev-narrow-only">Floor</span> {floor}
            </th>
            <th style={{ width: 100 }} />
          </tr>
        </thead>
        <tbody>
          {order.map(({ event, index }) => (
            <EventRow
              key={index}
              ev={event}
              index={index}
              def={ses.byIndex.get(event.se)}
              ses={ses.sorted}
              floor={floor}
              table={table}
              motion={motion}
              motionLabel={motionLabel}
              floorsOpen={floorsOpen.has(index)}
              onToggleFloors={toggleFloors}
              wrap={wrap}
            />
          ))}
          {!order.length && (
            <tr>
              <td colSpan={5} className="dim sev-empty" data-testid="sev-events-empty">
                {ses.sorted.length
                  ? 'No events. Move the playhead, pick an SE and a joint, then “Add event at playhead”.'
                  : `No events. ${NO_SE_DEFINED_YET}`}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
});

/**
 * One event's row (and its floors' row when open). A memo: its props are the event's own (the event object is kept by
 * the SEV edits that do not change it), its selection and the list's shared views, so a click renders the rows whose
 * selection changed and an edit the rows of the events it changed.
 */
const EventRow = memo(function EventRow({
  ev,
  index,
  def,
  ses,
  floor,
  table,
  motion,
  motionLabel,
  floorsOpen,
  onToggleFloors,
  wrap,
}: {
  ev: SevEvent;
  index: number;
  /** The definition of the event's SE, if any. */
  def: SevSeDefinition | undefined;
  /** The document's SE definitions by index. */
  ses: readonly SevSeDefinition[];
  floor: number;
  table: SeNameTable | null;
  motion: MotionShape | null;
  motionLabel: string;
  floorsOpen: boolean;
  onToggleFloors: (index: number) => void;
  wrap: RefObject<HTMLDivElement | null>;
}) {
  // Its own selection, read from the store: the event is the selected one (the current row), in the selection, and
  // its joint is being picked (round 11: the list read the selection and rendered at each click).
  const isSel = useSev((s) => s.selectedEvent === index);
  const inSel = useSev((s) => selectionSetOf(s.selectedEvents).has(index));
  const picking = useSev((s) => s.pickingJoint && s.selectedEvent === index);
  const rowRef = useRef<HTMLTableRowElement>(null);
  // The current row is scrolled into view when it becomes current and when its frame moves it in frame order (a
  // frame typed in it: out of view), as the list did for the selected event and its frame.
  useEffect(() => {
    if (isSel) rowRef.current?.scrollIntoView({ block: 'nearest' });
  }, [isSel, ev.frame]);
  const name = def ? nameOnFloor(def, floor) : '';
  const r = resolveName(table, name);
  const pastEnd = motion && ev.frame > motion.frameCount;
  const badJoint = motion && ev.joint !== null && ev.joint >= motion.joints.length;
  const floorsShown = floorsOpen && !!def?.variants;
  // Every control of the row names its event as the frame field does: by index and SE, not by frame,
  // which two events can share (docs/architecture.md, "Renderer review, round 9").
  const who = eventWho(index, ev.se);
  return (
    <Fragment>
      <tr
        ref={rowRef}
        data-testid="sev-event-row"
        data-index={index}
        data-frame={ev.frame}
        aria-selected={inSel}
        className={`${inSel ? 'selected' : ''}${isSel ? ' current' : ''}`}
        onMouseDown={(e) => {
          // The field being typed in (another event's note) applies first, before the selection moves.
          applyFocusedField(e.target);
          const onControl = (e.target as HTMLElement).closest('input, select, button, textarea') !== null;
          const s = sevStore.getState();
          if ((e.ctrlKey || e.metaKey || e.shiftKey) && !onControl) {
            // No text selection; the keyboard comes to the list (copy, delete, nudge act on the selection).
            e.preventDefault();
            wrap.current?.focus({ preventScroll: true });
            if (e.shiftKey)
              // The order as the list shows it: that of the document in the store, this row's own.
              s.selectEventRange(
                index,
                eventsInFrameOrder(s.file!.doc!.events).map((o) => o.index),
              );
            else s.toggleEventSelected(index);
            return;
          }
          // A right-click on a row of the selection keeps it: its menu acts on them all (EventContextMenu).
          if (e.button === 2 && s.selectedEvents.includes(index)) return;
          if (s.selectedEvent !== index || s.selectedEvents.length > 1) revealEvent(index);
        }}
      >
        <td>
          <NumberField
            value={ev.frame}
            min={0}
            max={motion?.frameCount ?? 65535}
            className={pastEnd ? 'bad' : ''}
            testid="sev-event-frame"
            // Its tooltip named every row's field "Frame": the event's index (as the SEV's problems
            // write it) and its SE tell the rows apart (docs/architecture.md, "Renderer review, round 8").
            label={`Frame of ${who}`}
            what={`Event frame (${motionLabel})`}
            onInvalid={(why) => sessionStore.getState().refuse(why, { edit: 'sev' })}
            title={pastEnd ? `frame ${ev.frame} is past the end of the motion (0..${motion!.frameCount})` : 'Frame'}
            onCommit={(v) => events.setFrame(index, v)}
          />
        </td>
        <td>
          <span className="sev-swatch" style={{ background: seColor(ev.se) }} />
          <SePicker
            defs={ses}
            value={ev.se}
            testId="sev-event-se"
            label={`SE of ${who}`}
            // The column is narrow when every panel shows: the whole name on hover.
            title={def?.name ?? `SE ${ev.se}`}
            onPick={(se) => events.setSe(index, se)}
          />
        </td>
        <td>
          <JointTreePicker
            joints={motion?.joints}
            value={ev.joint ?? NO_JOINT}
            extras={NO_JOINT_EXTRA}
            label={`Joint of ${who}`}
            testId="sev-event-joint"
            bad={!!badJoint}
            missingLabel={(j) => `${j} (not in this motion)`}
            onPick={(j) => events.setJoint(index, j === NO_JOINT ? null : j)}
          />
        </td>
        <td
          className={r.error ? 'bad' : ''}
          title={escapeControlsKeepingLines(
            r.error ?? `plays ${name}${r.codeText && ` ${r.codeText}`} on floor ${floor} (${FLOOR_NAMES[floor]})`,
          )}
          data-testid="sev-event-resolved"
        >
          <span className="sev-wide-only">{name}</span>
          <span className="sev-narrow-only">{def ? floorNameShort(def, name) : name}</span>
          <span className="dim sev-code"> {r.codeText}</span>
        </td>
        <td className="sev-row-tools">
          {def?.variants && (
            <button
              type="button"
              className={`tool small hit sev-floors-toggle${floorsShown ? ' armed' : ''}`}
              data-testid="sev-event-floors-toggle"
              aria-expanded={floorsShown}
              aria-label={`8 floor variants of ${who}`}
              title={
                floorsShown
                  ? 'Hide what each floor plays'
                  : `SE ${def.index} ${def.name} plays another SE on each floor: show all 8 and play them`
              }
              onClick={() => onToggleFloors(index)}
            >
              {floorsShown ? '▴' : '▾'} 8
            </button>
          )}
          <button
            type="button"
            className="tool small hit"
            data-testid="sev-event-play"
            title="Play this event's SE (audition)"
            aria-label={`Play the SE of ${who}`}
            onClick={() => playEvent(index)}
          >
            ▶
          </button>
          <button
            type="button"
            className={`tool small hit${picking ? ' armed' : ''}`}
            data-testid="sev-pick-joint"
            aria-label={`Pick the joint of ${who}`}
            // Armed, it waits for a joint: said to a screen reader as its box says it on screen (round 10).
            aria-pressed={picking}
            title="Pick the joint: the next joint selected in the viewport, curve view or timeline becomes this event's joint"
            onClick={() => {
              sevStore.getState().selectEvent(index);
              sevStore.getState().setPickingJoint(!picking);
            }}
          >
            <svg width="11" height="11" viewBox="0 0 12 12" aria-hidden="true">
              <circle cx="6" cy="6" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.3" />
              <path d="M6 0v3M6 9v3M0 6h3M9 6h3" stroke="currentColor" strokeWidth="1.3" />
            </svg>
          </button>
          <button
            type="button"
            className="tool small hit"
            data-testid="sev-event-delete"
            title="Delete this event (Delete deletes the selected events, from the event list or row)"
            aria-label={`Delete ${who}`}
            onClick={() => {
              events.remove(index);
              // Rows are keyed by event index, so the next event takes over this very row and its ✕ would
              // keep the keyboard: a second Enter or Space would delete it too. The list takes the keyboard
              // instead (nothing selected, so no key there deletes anything).
              wrap.current?.focus({ preventScroll: true });
            }}
          >
            ✕
          </button>
        </td>
      </tr>
      {floorsShown && (
        <tr className="sev-floors-row" data-testid="sev-event-floors" data-index={index}>
          <td colSpan={5}>
            <div className="sev-floor-preview" role="group" aria-label={`What each floor plays for ${who}`}>
              {FLOOR_NAMES.map((floorName, k) => {
                const v = def!.variants![k];
                const rv = resolveName(table, v);
                return (
                  <span
                    key={k}
                    className={`sev-floor-chip${k === floor ? ' current' : ''}${rv.error ? ' bad' : ''}`}
                    data-testid="sev-event-floor"
                    data-floor={k}
                    title={escapeControlsKeepingLines(
                      rv.error ?? `floor ${k} (${floorName}) plays ${v} ${rv.codeText}`,
                    )}
                  >
                    <FloorButton floor={k} shown={floor} className="link" />
                    <span data-testid="sev-event-floor-name">{v}</span>
                    <span className="sev-code">{rv.error ? 'unknown' : rv.codeText}</span>
                    <button
                      type="button"
                      className="tool small"
                      data-testid="sev-event-floor-play"
                      title={`Play ${v} (audition)`}
                      aria-label={`Play ${v} (floor ${k}, ${floorName})`}
                      onClick={() => void playSeName(v)}
                    >
                      ▶
                    </button>
                  </span>
                );
              })}
            </div>
          </td>
        </tr>
      )}
    </Fragment>
  );
});
