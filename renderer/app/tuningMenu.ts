/**
 * The right-click menu of the curve view and the timeline (tried cold, round 16: a right-click there did nothing,
 * where a Maya or MotionBuilder user looks first for "key here", "lock here"). A right-click (the right button
 * released where it was pressed: a right-drag still pans) or the Menu key / Shift+F10 over them goes to the frame
 * under the pointer, as a click does, selects the joint of the timeline row under it, and opens the tuning edits
 * at that frame: each is the Edit menu's command at the playhead (K / L / T), one undo step.
 */
import { createStore } from 'zustand/vanilla';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { framesSpanLabel, lockRangesOf, traceFramesOf, userKeysOf } from '../state/keyInfo';
import { hasKey } from '../curves/keyIndex';
import { playheadFrame } from './playhead';
import type { ChainGroup } from '../timeline/jointFilter';
import { TUNING_EDITS_HIDDEN_REASON, tuningEditsShown } from './keyEdits';

export type TuningMenuPanel = 'curves' | 'timeline';

export interface TuningMenuOpen {
  panel: TuningMenuPanel;
  /** Where the menu opens (client coordinates). */
  x: number;
  y: number;
  /** What gets the keyboard back when the menu closes. */
  back: HTMLElement | null;
  /**
   * A grouped timeline's chain header right-clicked: the menu folds and shows chains, as an outliner's does, in place
   * of the edits (tried cold, round 17: the headers opened no menu).
   */
  chain?: ChainGroup;
}

export const tuningMenuStore = createStore<{ open: TuningMenuOpen | null }>()(() => ({ open: null }));

// The menu's commands act on the motion it was opened over: when that motion goes (closed, replaced by an open or an
// import that lands meanwhile) the menu goes too. It stayed open and empty until Escape (round 16, left open).
documentStore.subscribe((doc, before) => {
  if (doc.documentId !== before.documentId && tuningMenuStore.getState().open) tuningMenuStore.setState({ open: null });
});

/**
 * Opens the menu of `panel` at the pointer for `frame`: the playhead goes there (playback stops), and `joint` (a
 * timeline row's; undefined over the curves or a pinned row) becomes the selected joint.
 */
export function openTuningMenu(
  panel: TuningMenuPanel,
  at: { x: number; y: number },
  frame: number,
  joint: number | undefined,
  back: HTMLElement | null,
): void {
  if (!documentStore.getState().motion) return;
  const s = sessionStore.getState();
  if (joint !== undefined && joint !== s.selectedJoint) s.select(joint);
  s.setPlaying(false);
  s.setPlayhead(frame);
  tuningMenuStore.setState({ open: { panel, x: at.x, y: at.y, back } });
}

/** Opens the chain menu of a grouped timeline's header `chain` at the pointer (the playhead stays where it is). */
export function openChainMenu(at: { x: number; y: number }, chain: ChainGroup, back: HTMLElement | null): void {
  if (!documentStore.getState().motion) return;
  tuningMenuStore.setState({ open: { panel: 'timeline', x: at.x, y: at.y, back, chain } });
}

/** What the tuning edits at the playhead would do, in the words of their undo steps, or why they cannot. */
export interface TuningEditsHere {
  frame: number;
  jointName: string;
  /** Why the edits are greyed (no editable motion, a work mode hiding the tuning panel); null: offered. */
  why: string | null;
  userKey: boolean;
  /** The selected joint's lock over the playhead (its frames), or null. */
  lock: { first: number; last: number } | null;
  /** The root translation is selected: it cannot be locked. */
  root: boolean;
  trace: boolean;
  /** The first or last frame: their trace key is fixed, only the file's flag changes. */
  traceFixed: boolean;
}

export function tuningEditsHere(): TuningEditsHere | null {
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m) return null;
  const joint = sessionStore.getState().selectedJoint;
  const frame = playheadFrame();
  const lock =
    joint >= 0 ? lockRangesOf(m).find((r) => r.joint === joint && r.first <= frame && frame <= r.last) : null;
  return {
    frame,
    jointName: joint < 0 ? 'root translation' : (m.joints[joint]?.name ?? `joint ${joint}`),
    why: doc.readOnly
      ? 'A decoded .mt3 / .mar motion is shown, not edited: Save As… writes it as an .mtn you can edit'
      : tuningEditsShown()
        ? null
        : TUNING_EDITS_HIDDEN_REASON,
    userKey: hasKey(userKeysOf(m, joint), frame),
    lock: lock ? { first: lock.first, last: lock.last } : null,
    root: joint < 0,
    trace: traceFramesOf(m).includes(frame),
    traceFixed: frame === 0 || frame === m.frameCount,
  };
}

/** The menu's words for the three edits at the playhead, and the whole lock's. */
export function tuningEditLabels(h: TuningEditsHere): {
  key: string;
  lock: string;
  wholeLock: string | null;
  trace: string;
} {
  const at = `at Frame ${h.frame}`;
  return {
    key: `${h.userKey ? 'Remove' : 'Add'} User Key ${at}`,
    lock: `${h.lock ? 'Unlock' : 'Lock'} ${h.jointName} ${at}`,
    wholeLock:
      h.lock && h.lock.last > h.lock.first
        ? `Unlock ${h.jointName}, ${framesSpanLabel(h.lock.first, h.lock.last)}`
        : null,
    trace: h.traceFixed
      ? `${h.trace ? 'Clear' : 'Set'} Trace Flag ${at} (a fixed trace key)`
      : `${h.trace ? 'Remove' : 'Add'} Trace Key ${at}`,
  };
}
