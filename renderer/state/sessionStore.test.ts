import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from './documentStore';
import { MESSAGE_LIMIT, createSessionStore, messageShownFor } from './sessionStore';

const joints = [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }];

function open(documentId: string, name: string, path: string | null): void {
  documentStore
    .getState()
    .load({ documentId, kind: 'mtn', readOnly: false, name, path, motion: emptyMotion(10, joints) });
}

function shownNow(s: ReturnType<typeof createSessionStore>): string[] {
  return s
    .getState()
    .messages.filter((m) => messageShownFor(m, documentStore.getState()))
    .map((m) => m.text);
}

describe('messages belong to their document', () => {
  it('shows a motion’s message only over that motion (again when its file is reopened), app messages over every motion', () => {
    const s = createSessionStore();
    open('d1', 'walk', '/w/walk.mtn');
    s.getState().notify('warning', 'walk: frame 5 is already locked');
    s.getState().notify('error', 'project could not be saved', 'app');
    expect(shownNow(s)).toEqual(['walk: frame 5 is already locked', 'project could not be saved']);
    expect(s.getState().messages[0].owner).toEqual({ documentId: 'd1', path: '/w/walk.mtn', name: 'walk' });

    open('d2', 'cmu_01_01', '/w/cmu_01_01.mtn');
    expect(shownNow(s)).toEqual(['project could not be saved']);
    s.getState().notify('warning', 'cmu: refused');

    // walk reopened: a new document of the same file, its message is back and cmu's is hidden
    open('d3', 'walk', '/w//walk.mtn');
    expect(shownNow(s)).toEqual(['walk: frame 5 is already locked', 'project could not be saved']);
  });

  it('an imported motion (no file) owns its messages by document only', () => {
    const s = createSessionStore();
    open('i1', 'capture', null);
    s.getState().notify('warning', 'import refused');
    open('i2', 'other', null);
    expect(shownNow(s)).toEqual([]);
  });

  it('with no motion open a message belongs to the app', () => {
    const s = createSessionStore();
    documentStore.getState().close();
    s.getState().notify('error', 'start-up failed');
    expect(s.getState().messages[0].owner).toBeNull();
    open('d9', 'walk', '/w/walk.mtn');
    expect(shownNow(s)).toEqual(['start-up failed']);
  });

  it('stacks messages, dismisses one or many, and keeps the newest MESSAGE_LIMIT', () => {
    const s = createSessionStore();
    open('d1', 'walk', '/w/walk.mtn');
    const a = s.getState().notify('warning', 'a');
    const b = s.getState().notify('warning', 'b');
    const c = s.getState().notify('warning', 'c');
    s.getState().dismiss(b);
    expect(s.getState().messages.map((m) => m.text)).toEqual(['a', 'c']);
    s.getState().dismissMany([a, c]);
    expect(s.getState().messages).toEqual([]);
    for (let k = 0; k < MESSAGE_LIMIT + 3; k++) s.getState().notify('info', `m${k}`);
    expect(s.getState().messages).toHaveLength(MESSAGE_LIMIT);
    expect(s.getState().messages[0].text).toBe('m3');
  });
});

describe('curve overlay and solo', () => {
  it('toggles extra joints, never the selected one or the root translation, and drops a joint once it is selected', () => {
    const s = createSessionStore();
    s.getState().select(2);
    s.getState().toggleOverlayJoint(5);
    s.getState().toggleOverlayJoint(7);
    s.getState().toggleOverlayJoint(2);
    s.getState().toggleOverlayJoint(-1);
    expect(s.getState().overlayJoints).toEqual([5, 7]);
    s.getState().toggleOverlayJoint(5);
    expect(s.getState().overlayJoints).toEqual([7]);
    s.getState().select(7);
    expect(s.getState().overlayJoints).toEqual([]);
    s.getState().toggleOverlayJoint(3);
    s.getState().resetForDocument(10);
    expect(s.getState().overlayJoints).toEqual([]);
  });

  it('solos one component, restores all on a second click, and forgets the solo when the channel changes', () => {
    const s = createSessionStore();
    s.getState().toggleSolo(1);
    expect(s.getState().soloComponent).toBe(1);
    s.getState().toggleSolo(2);
    expect(s.getState().soloComponent).toBe(2);
    s.getState().toggleSolo(2);
    expect(s.getState().soloComponent).toBeNull();
    s.getState().toggleSolo(0);
    s.getState().setCurveChannel('quat');
    expect(s.getState().soloComponent).toBeNull();
  });
});
