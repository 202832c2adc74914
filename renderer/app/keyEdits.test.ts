/**
 * K / L / T where the work mode hides the tuning panel (tried cold, round 6: K in Sound events mode did nothing,
 * silently). Mutations that fail: tuningEditAllowed without its notify (no message); without its check for the same
 * message up (a second press adds another); tuningEditsShown answering true (the key is added unseen).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { projectLayoutStore } from '../project/layout';
import { openFakeMotion } from '../testing/fakeMotions';
import { toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead, tuningEditHiddenMessage } from './keyEdits';

beforeEach(async () => {
  documentStore.getState().close();
  projectLayoutStore.getState().showAllPanels();
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 1, playhead: 0 });
  await openFakeMotion();
  sessionStore.getState().select(1);
  sessionStore.getState().setPlayhead(5);
});

const texts = () => sessionStore.getState().messages.map((m) => m.text);

describe('K / L / T in a work mode that hides the tuning panel', () => {
  it('change nothing and say why and how to get the tuning panel back, once while that is up', () => {
    projectLayoutStore.getState().setMaximized('sev');
    const past = documentStore.getState().past;
    toggleKeyAtPlayhead();
    toggleKeyAtPlayhead();
    toggleLockAtPlayhead();
    toggleTraceAtPlayhead();
    expect(documentStore.getState().past).toBe(past);
    expect(documentStore.getState().dirty).toBe(false);
    expect(texts()).toEqual([tuningEditHiddenMessage('K'), tuningEditHiddenMessage('L'), tuningEditHiddenMessage('T')]);
    expect(texts()[0]).toBe(
      'K toggles a user key at the playhead in the tuning panel, which this work mode hides: ' +
        'View › Maximize Tuning (Ctrl+1) or Show All Panels brings it back.',
    );
    expect(sessionStore.getState().messages.every((m) => m.level === 'info')).toBe(true);
  });

  it('work as before with the tuning panel shown, and say nothing', () => {
    projectLayoutStore.getState().setMaximized('tuning');
    toggleKeyAtPlayhead();
    expect(documentStore.getState().dirty).toBe(true);
    expect(texts()).toEqual([]);
  });
});
