import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from './documentStore';
import { sevStore } from '../sev/sevStore';
import { MESSAGE_LIMIT, createSessionStore, messageActionFor, messageShownFor } from './sessionStore';

/** A .sev of walk: one SE, one event. */
const SEV_TEXT = 'sev 1\nmotion walk\nse 0 SE_FOOT_L\nevent 3 0 -\n';

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

  it('offers a message’s action only over the document it was raised on, not over its file reopened', () => {
    const s = createSessionStore();
    open('d1', 'walk', '/w/walk.mtn');
    const run = () => undefined;
    s.getState().notify('warning', 'walk: lock refused', 'document', { label: 'Move lock to hips', run });
    s.getState().notify('error', 'project could not be saved', 'app', { label: 'Retry', run });
    const [lock, app] = s.getState().messages;
    expect(messageActionFor(lock, 'd1')?.label).toBe('Move lock to hips');
    expect(messageActionFor(app, 'd1')?.label).toBe('Retry');
    // walk reopened (or its changes discarded): the message is shown again, its action is not offered
    open('d3', 'walk', '/w/walk.mtn');
    expect(shownNow(s)).toEqual(['walk: lock refused', 'project could not be saved']);
    expect(messageActionFor(lock, 'd3')).toBeNull();
    expect(messageActionFor(app, 'd3')?.label).toBe('Retry');
    expect(messageActionFor({ ...lock, owner: { documentId: null, path: null, name: 'x' } }, null)).toBeNull();
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

  it('shows a name’s hidden characters as \\uXXXX, its line breaks and tabs as they are (docs/security.md, round 52)', () => {
    // A received folder's file, motion, SE or joint name, or a path main sent in a value (an export's folder, a
    // build's warning): raw, its U+202E showed the rest of the line reversed, its ESC and zero-width space hidden.
    const s = createSessionStore();
    const name = 'walk\u202eves.\u001b[2J\u200bsev';
    s.getState().notify('info', `Exported 1 motion into /w/${name}:\n\t1 file.`, 'app');
    s.getState().notifyGroup('warning', { text: `${name}: 1 warning`, details: [`joint ${name}\ttoo long`] }, 'app');
    const [exported, group] = s.getState().messages;
    expect(exported.text).toBe('Exported 1 motion into /w/walk\\u202eves.\\u001b[2J\\u200bsev:\n\t1 file.');
    expect(group.text).toBe('walk\\u202eves.\\u001b[2J\\u200bsev: 1 warning');
    expect(group.details).toEqual(['joint walk\\u202eves.\\u001b[2J\\u200bsev\ttoo long']);
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

describe('a refused edit’s warning goes once the user moves on', () => {
  /** walk open with a refused lock of joint 0 on frames 4..6, the playhead at 5; returns the store. */
  function refusedOnWalk() {
    const s = createSessionStore();
    open('r1', 'walk', '/w/walk.mtn');
    s.getState().select(0);
    s.getState().setPlayhead(5);
    s.getState().refuse('Lock refused: frame 5 is already locked', { edit: 'lock', joint: 0, first: 4, last: 6 });
    s.getState().notify('warning', 'walk: a plain warning');
    return s;
  }
  const texts = (s: ReturnType<typeof createSessionStore>) => s.getState().messages.map((m) => m.text);
  const plainOnly = ['walk: a plain warning'];

  it('stays while it applies: no timer, the playhead within its frames, its joint selected again', () => {
    const s = refusedOnWalk();
    s.getState().setPlayhead(6.4);
    s.getState().setPlayhead(4);
    s.getState().select(0);
    expect(texts(s)).toHaveLength(2);
    expect(s.getState().messages[0]).toMatchObject({
      level: 'warning',
      refusal: { edit: 'lock', joint: 0, first: 4, last: 6 },
    });
  });

  it('goes when the playhead leaves its frames', () => {
    const s = refusedOnWalk();
    s.getState().setPlayhead(7);
    expect(texts(s)).toEqual(plainOnly);
  });

  it('goes when another joint is selected', () => {
    const s = refusedOnWalk();
    s.getState().select(-1);
    expect(texts(s)).toEqual(plainOnly);
  });

  it('goes when the next edit of its motion succeeds, and with an undo', () => {
    const s = refusedOnWalk();
    documentStore.getState().trace.toggle(2);
    expect(texts(s)).toEqual(plainOnly);
    s.getState().refuse('Lock refused again', { edit: 'lock', joint: 0, first: 5, last: 5 });
    documentStore.getState().history.undo();
    expect(texts(s)).toEqual(plainOnly);
  });

  it('a refusal made while the playhead is elsewhere stays when the playhead moves elsewhere again', () => {
    const s = refusedOnWalk();
    s.getState().setPlayhead(1);
    s.getState().refuse('Lock refused on 4..6', { edit: 'lock', joint: 0, first: 4, last: 6 });
    s.getState().setPlayhead(2);
    expect(texts(s)).toEqual([...plainOnly, 'Lock refused on 4..6']);
  });

  it('a refused SEV edit goes with the next SEV edit, undo or redo that works; a motion edit leaves it, and the lock’s', () => {
    const s = refusedOnWalk();
    sevStore.getState().load('/w/walk.sev', 'walk', SEV_TEXT, { documentId: 'r1', path: '/w/walk.mtn' });
    expect(sevStore.getState().file?.doc?.events).toHaveLength(1);
    s.getState().refuse('Nudge refused: past the end.', { edit: 'sev' });
    documentStore.getState().trace.toggle(2);
    expect(texts(s)).toEqual([...plainOnly, 'Nudge refused: past the end.']);
    s.getState().refuse('Lock refused on 5', { edit: 'lock', joint: 0, first: 5, last: 5 });
    sevStore.getState().edit('Move event', (doc) => ({ ...doc, events: doc.events.map((e) => ({ ...e, frame: 4 })) }));
    expect(texts(s)).toEqual([...plainOnly, 'Lock refused on 5']);
    s.getState().refuse('Paste refused: nothing copied.', { edit: 'sev' });
    sevStore.getState().undo();
    expect(texts(s)).toEqual([...plainOnly, 'Lock refused on 5']);
    // Another .sev loaded is no edit of this one.
    s.getState().refuse('Copy refused: nothing selected.', { edit: 'sev' });
    sevStore.getState().load('/w/other.sev', 'walk', SEV_TEXT, { documentId: 'r1', path: '/w/walk.mtn' });
    expect(texts(s)).toEqual([...plainOnly, 'Lock refused on 5', 'Copy refused: nothing selected.']);
    sevStore.getState().close();
  });

  it('over another motion, or over its file reopened, it is kept until dismissed', () => {
    const s = refusedOnWalk();
    open('r2', 'cmu', '/w/cmu.mtn');
    s.getState().select(-1);
    s.getState().setPlayhead(9);
    open('r3', 'walk', '/w/walk.mtn');
    s.getState().setPlayhead(0);
    documentStore.getState().trace.toggle(2);
    expect(texts(s)).toHaveLength(2);
  });
});
