import type { DragEvent as ReactDragEvent } from 'react';
import { createStore } from 'zustand/vanilla';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from './sevStore';
import { events } from './sevActions';

/**
 * An SE dragged from the SE table (its "#" cell) to be added as an event (docs/user-guide.md, "Tried cold", rounds 29
 * and 30). Where it can be dropped and at what frame:
 * - the event row and the timeline: the frame under the pointer, which the playhead (and the pose) follows while the
 *   drag passes over them, so the sound is dropped on the frame the motion is seen to need it;
 * - the event list: the playhead's frame from before the drag (the list's rows have no frame between them; "at the
 *   playhead" is M's place too), the playhead going back there while the drag is over the list.
 * A drop is one undo step (events.addAt). A drag given up (Escape, or let go where nothing takes it) adds nothing and
 * puts the playhead back where it was: it was moved only to show what a drop would add.
 */
export const SE_DRAG_TYPE = 'application/x-actguy-se';

/** Where an SE being dragged would be dropped. */
export type SeDropPlace = 'row' | 'timeline' | 'list';

interface SeDragState {
  /** The SE being dragged, or null (a dragover cannot read the drag's data). */
  readonly se: number | null;
  /** The playhead when the drag began: where a drop on the list adds, and where a drag given up leaves it. */
  readonly playheadBefore: number;
  /** The frame and place a drop would add at now, or null where the pointer is over nothing that takes it. */
  readonly at: { readonly frame: number; readonly place: SeDropPlace } | null;
  /** Whether the drag ended in a drop (the dragend that follows keeps the playhead at the event). */
  readonly dropped: boolean;
}

const IDLE: SeDragState = { se: null, playheadBefore: 0, at: null, dropped: false };
export const seDragStore = createStore<SeDragState>()(() => IDLE);

/** The SE table's handle was picked up. */
export function beginSeDrag(e: ReactDragEvent<HTMLElement>, se: number): void {
  e.dataTransfer.setData(SE_DRAG_TYPE, String(se));
  e.dataTransfer.effectAllowed = 'copy';
  seDragStore.setState({ ...IDLE, se, playheadBefore: sessionStore.getState().playhead });
}

/** The drag ended (dropped or given up): one given up puts the playhead back. */
export function endSeDrag(): void {
  const s = seDragStore.getState();
  if (s.se !== null && !s.dropped) sessionStore.getState().setPlayhead(s.playheadBefore);
  seDragStore.setState(IDLE);
}

/** Whether this drag event carries an SE from the SE table. */
function carriesSe(e: ReactDragEvent<HTMLElement>): boolean {
  return seDragStore.getState().se !== null && e.dataTransfer.types.includes(SE_DRAG_TYPE);
}

/**
 * A dragenter or dragover on a place that takes an SE (Chromium fires only a dragenter on a move onto another element,
 * and a drag let go right after one was refused when only dragover accepted it), `frame` being the frame under the pointer (ignored on the list: the drop
 * goes to the playhead from before the drag), or null where this part of the place takes none (the timeline's names).
 */
export function seDragOver(e: ReactDragEvent<HTMLElement>, place: SeDropPlace, frame: number | null): void {
  if (!carriesSe(e)) return;
  const s = seDragStore.getState();
  const f = place === 'list' ? s.playheadBefore : frame;
  if (f === null) {
    if (s.at) seDragStore.setState({ at: null });
    return;
  }
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
  if (s.at?.frame === f && s.at.place === place) return;
  seDragStore.setState({ at: { frame: f, place } });
  sessionStore.getState().setPlaying(false);
  sessionStore.getState().setPlayhead(f);
}

/** The pointer left a place that takes an SE (not for one of its own children). */
export function seDragLeave(e: ReactDragEvent<HTMLElement>, place: SeDropPlace): void {
  if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
  if (seDragStore.getState().at?.place === place) seDragStore.setState({ at: null });
}

/** A drop on a place that takes an SE: adds the event at the frame shown (one undo step). */
export function seDropHere(e: ReactDragEvent<HTMLElement>, place: SeDropPlace, frame: number | null): void {
  if (!carriesSe(e)) return;
  const s = seDragStore.getState();
  const se = Number(e.dataTransfer.getData(SE_DRAG_TYPE));
  const f = place === 'list' ? s.playheadBefore : frame;
  seDragStore.setState({ at: null });
  if (f === null || !Number.isInteger(se)) return;
  e.preventDefault();
  seDragStore.setState({ dropped: true });
  sevStore.getState().selectSe(se);
  sessionStore.getState().setPlayhead(f);
  events.addAt(se, f);
}
