/**
 * The right-click menu of the curve view and the timeline (renderer/app/tuningMenu.ts), below the page: what a
 * right-click does to the playhead and the selection, what the menu offers at the frame, in which words, and the menu
 * going with its motion. e2e/cold-round16.spec.ts walks it through the app; these hold each branch. Mutation audit,
 * round 3 (docs/testing.md): the mutants of tuningMenu.ts each fail one of these.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { projectLayoutStore } from '../project/layout';
import { emptyMotion } from '../../shared/motion/types';
import { FAKE_JOINTS, fakeOpenedMotion, openFakeMotion } from '../testing/fakeMotions';
import { toggleKeyAtPlayhead, toggleTraceAtPlayhead, TUNING_EDITS_HIDDEN_REASON } from './keyEdits';
import { openTuningMenu, tuningEditLabels, tuningEditsHere, tuningMenuStore } from './tuningMenu';

beforeEach(async () => {
  documentStore.getState().close();
  tuningMenuStore.setState({ open: null });
  projectLayoutStore.getState().showAllPanels();
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 1, playhead: 0 });
  await openFakeMotion();
  sessionStore.getState().select(1);
  sessionStore.getState().setPlayhead(3);
});

describe('openTuningMenu', () => {
  it('without a motion opens nothing and leaves the playhead', () => {
    documentStore.getState().close();
    sessionStore.setState({ playhead: 3, selectedJoint: 1, playing: true });
    openTuningMenu('curves', { x: 10, y: 20 }, 7, 0, null);
    expect(tuningMenuStore.getState().open).toBeNull();
    expect(sessionStore.getState().playhead).toBe(3);
    expect(sessionStore.getState().selectedJoint).toBe(1);
    expect(sessionStore.getState().playing).toBe(true);
  });

  it('puts the playhead on the frame, stops playback, selects the row’s joint, and opens where the pointer is', () => {
    sessionStore.getState().setPlaying(true);
    const back = {} as HTMLElement;
    openTuningMenu('timeline', { x: 10, y: 20 }, 7, 0, back);
    const s = sessionStore.getState();
    expect(s.playhead).toBe(7);
    expect(s.playing).toBe(false);
    expect(s.selectedJoint).toBe(0);
    expect(tuningMenuStore.getState().open).toEqual({ panel: 'timeline', x: 10, y: 20, back });
  });

  it('over the curves (no row) keeps the selected joint', () => {
    openTuningMenu('curves', { x: 1, y: 2 }, 4, undefined, null);
    expect(sessionStore.getState().selectedJoint).toBe(1);
    expect(sessionStore.getState().playhead).toBe(4);
    expect(tuningMenuStore.getState().open?.panel).toBe('curves');
  });

  it('closes when its motion goes, and stays while the same motion is edited', async () => {
    openTuningMenu('curves', { x: 1, y: 2 }, 4, undefined, null);
    toggleKeyAtPlayhead();
    expect(documentStore.getState().dirty).toBe(true);
    expect(tuningMenuStore.getState().open).not.toBeNull();
    await openFakeMotion({ openMotion: async () => ({ status: 'opened', motion: fakeOpenedMotion('d2', 'run') }) });
    expect(documentStore.getState().documentId).toBe('d2');
    expect(tuningMenuStore.getState().open).toBeNull();
  });
});

describe('tuningEditsHere and its words', () => {
  it('is null without a motion', () => {
    documentStore.getState().close();
    expect(tuningEditsHere()).toBeNull();
  });

  it('offers Add / Lock / Add at a plain frame, and Remove / Unlock / Remove once they are there', () => {
    const plain = tuningEditsHere()!;
    expect(plain).toEqual({
      frame: 3,
      jointName: 'foot',
      why: null,
      userKey: false,
      lock: null,
      root: false,
      trace: false,
      traceFixed: false,
    });
    expect(tuningEditLabels(plain)).toEqual({
      key: 'Add User Key at Frame 3',
      lock: 'Lock foot at Frame 3',
      wholeLock: null,
      trace: 'Add Trace Key at Frame 3',
    });
    toggleKeyAtPlayhead();
    toggleTraceAtPlayhead();
    expect(documentStore.getState().locks.setRange(1, 2, 5).ok).toBe(true);
    const set = tuningEditsHere()!;
    expect(set).toMatchObject({ userKey: true, lock: { first: 2, last: 5 }, trace: true });
    expect(tuningEditLabels(set)).toEqual({
      key: 'Remove User Key at Frame 3',
      lock: 'Unlock foot at Frame 3',
      wholeLock: 'Unlock foot, frames 2–5',
      trace: 'Remove Trace Key at Frame 3',
    });
  });

  it('a lock of one frame has no whole-lock item; another joint’s lock over the frame is not this joint’s', () => {
    expect(documentStore.getState().locks.setRange(1, 3, 3).ok).toBe(true);
    expect(tuningEditLabels(tuningEditsHere()!).wholeLock).toBeNull();
    expect(tuningEditsHere()!.lock).toEqual({ first: 3, last: 3 });
    sessionStore.getState().select(0);
    expect(tuningEditsHere()!.lock).toBeNull();
    expect(tuningEditsHere()!.jointName).toBe('hips');
  });

  it('a lock that ends before the frame or starts after it is not over it', () => {
    expect(documentStore.getState().locks.setRange(1, 0, 2).ok).toBe(true);
    expect(documentStore.getState().locks.setRange(1, 4, 6).ok).toBe(true);
    expect(tuningEditsHere()!.lock).toBeNull();
    sessionStore.getState().setPlayhead(2);
    expect(tuningEditsHere()!.lock).toEqual({ first: 0, last: 2 });
    sessionStore.getState().setPlayhead(4);
    expect(tuningEditsHere()!.lock).toEqual({ first: 4, last: 6 });
  });

  it('the root translation: named so, and no lock', () => {
    sessionStore.getState().select(-1);
    const h = tuningEditsHere()!;
    expect(h).toMatchObject({ jointName: 'root translation', root: true, lock: null });
    expect(tuningEditLabels(h).lock).toBe('Lock root translation at Frame 3');
  });

  it('the first and the last frame: a fixed trace key, its flag set or cleared', () => {
    for (const f of [0, 20]) {
      sessionStore.getState().setPlayhead(f);
      const h = tuningEditsHere()!;
      expect(h.traceFixed).toBe(true);
      const word = (flag: boolean) => `${flag ? 'Clear' : 'Set'} Trace Flag at Frame ${f} (a fixed trace key)`;
      expect(tuningEditLabels(h).trace).toBe(word(h.trace));
      toggleTraceAtPlayhead();
      const after = tuningEditsHere()!;
      expect(after.trace).toBe(!h.trace);
      expect(tuningEditLabels(after).trace).toBe(word(after.trace));
    }
    sessionStore.getState().setPlayhead(19);
    expect(tuningEditsHere()!.traceFixed).toBe(false);
    sessionStore.getState().setPlayhead(1);
    expect(tuningEditsHere()!.traceFixed).toBe(false);
  });

  it('says why the edits are greyed: a motion only shown, or a work mode that hides the tuning panel', () => {
    projectLayoutStore.getState().setMaximized('sev');
    expect(tuningEditsHere()!.why).toBe(TUNING_EDITS_HIDDEN_REASON);
    projectLayoutStore.getState().showAllPanels();
    documentStore.getState().load({
      documentId: 'd3',
      path: '/ws/walk.mt3',
      name: 'walk',
      kind: 'mt3',
      readOnly: true,
      motion: emptyMotion(20, FAKE_JOINTS),
    });
    expect(tuningEditsHere()!.why).toMatch(/^A decoded \.mt3 \/ \.mar motion is shown, not edited/);
  });
});
