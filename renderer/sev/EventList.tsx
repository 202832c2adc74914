import { escapeControlsKeepingLines } from '../../shared/errors';
import { Fragment, useEffect, useRef, useState } from 'react';
import { eventsByFrame } from '../../shared/sev/serialize';
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
import { applyFocusedField } from '../app/fieldUndo';

/** How an event row's controls name their event: "event 1 (SE 0)", as the SEV's problems number events. */
function eventWho(index: number, se: number): string {
  return `event ${index} (SE ${se})`;
}

/** The picker's value for an event without a joint. */
const NO_JOINT = -1;
const NO_JOINT_EXTRA = [{ value: NO_JOINT, label: '– (none)' }];

/**
 * The events as a list (frame, SE, joint, what plays on the selected floor), in frame order, in sync with the
 * track. Click selects an event, Ctrl+click adds or removes one, Shift+click selects a range; the keyboard then
 * copies, pastes, deletes and nudges the selection (shared/shortcuts.ts EVENT_SHORTCUTS). An event whose SE has
 * floor variants opens a preview of what each of the 8 floors plays, each with a play button.
 */
export function EventList() {
  const doc = useSev((s) => s.file?.doc ?? null);
  const path = useSev((s) => s.file?.path ?? null);
  const selected = useSev((s) => s.selectedEvent);
  const selection = useSev((s) => s.selectedEvents);
  const picking = useSev((s) => s.pickingJoint);
  const floor = useSev((s) => s.floor);
  const table = useProject((p) => p.tables?.table ?? null);
  const motion = useMotionShape();
  const motionLabel = useDocument((d) => d.name);
  const body = useRef<HTMLTableSectionElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const [floorsOpen, setFloorsOpen] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => setFloorsOpen(new Set()), [path]);

  // The selected event's frame: a frame typed in its row moves the row to its place in frame order, out of view.
  const selectedFrame = useSev((s) =>
    s.selectedEvent === null ? null : (s.file?.doc?.events[s.selectedEvent]?.frame ?? null),
  );

  useEffect(() => {
    if (selected === null) return;
    body.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected, selectedFrame]);

  if (!doc) return null;
  const order = eventsByFrame(doc.events.map((e, index) => ({ ...e, index }))) as ((typeof doc.events)[number] & {
    index: number;
  })[];
  const ses = doc.ses.slice().sort((a, b) => a.index - b.index);
  const joints = motion?.joints ?? [];

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
        <tbody ref={body}>
          {order.map((ev) => {
            const def = doc.ses.find((d) => d.index === ev.se);
            const name = def ? nameOnFloor(def, floor) : '';
            const r = resolveName(table, name);
            const pastEnd = motion && ev.frame > motion.frameCount;
            const badJoint = motion && ev.joint !== null && ev.joint >= joints.length;
            const isSel = selected === ev.index;
            const inSel = selection.includes(ev.index);
            const floorsShown = floorsOpen.has(ev.index) && !!def?.variants;
            // Every control of the row names its event as the frame field does: by index and SE, not by frame,
            // which two events can share (docs/architecture.md, "Renderer review, round 9").
            const who = eventWho(ev.index, ev.se);
            return (
              <Fragment key={ev.index}>
                <tr
                  data-testid="sev-event-row"
                  data-index={ev.index}
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
                        s.selectEventRange(
                          ev.index,
                          order.map((o) => o.index),
                        );
                      else s.toggleEventSelected(ev.index);
                      return;
                    }
                    // A right-click on a row of the selection keeps it: its menu acts on them all (EventContextMenu).
                    if (e.button === 2 && s.selectedEvents.includes(ev.index)) return;
                    if (s.selectedEvent !== ev.index || s.selectedEvents.length > 1) revealEvent(ev.index);
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
                      title={
                        pastEnd ? `frame ${ev.frame} is past the end of the motion (0..${motion!.frameCount})` : 'Frame'
                      }
                      onCommit={(v) => events.setFrame(ev.index, v)}
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
                      title={ses.find((d) => d.index === ev.se)?.name ?? `SE ${ev.se}`}
                      onPick={(se) => events.setSe(ev.index, se)}
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
                      onPick={(j) => events.setJoint(ev.index, j === NO_JOINT ? null : j)}
                    />
                  </td>
                  <td
                    className={r.error ? 'bad' : ''}
                    title={escapeControlsKeepingLines(
                      r.error ??
                        `plays ${name}${r.codeText && ` ${r.codeText}`} on floor ${floor} (${FLOOR_NAMES[floor]})`,
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
                        onClick={() =>
                          setFloorsOpen((o) => {
                            const n = new Set(o);
                            if (n.has(ev.index)) n.delete(ev.index);
                            else n.add(ev.index);
                            return n;
                          })
                        }
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
                      onClick={() => playEvent(ev.index)}
                    >
                      ▶
                    </button>
                    <button
                      type="button"
                      className={`tool small hit${picking && isSel ? ' armed' : ''}`}
                      data-testid="sev-pick-joint"
                      aria-label={`Pick the joint of ${who}`}
                      title="Pick the joint: the next joint selected in the viewport, curve view or timeline becomes this event's joint"
                      onClick={() => {
                        sevStore.getState().selectEvent(ev.index);
                        sevStore.getState().setPickingJoint(!(picking && isSel));
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
                        events.remove(ev.index);
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
                  <tr className="sev-floors-row" data-testid="sev-event-floors" data-index={ev.index}>
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
          })}
          {!order.length && (
            <tr>
              <td colSpan={5} className="dim sev-empty" data-testid="sev-events-empty">
                {ses.length
                  ? 'No events. Move the playhead, pick an SE and a joint, then “Add event at playhead”.'
                  : `No events. ${NO_SE_DEFINED_YET}`}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
