import { beforeEach, describe, expect, it } from 'vitest';
import { addEvent, moveEvent, removeEvent, removeSeDefinition, setSeDefinition } from '../../shared/sev/edit';
import { emptySevDocument } from '../../shared/sev/types';
import { serializeSev } from '../../shared/sev/serialize';
import { documentStore } from '../state/documentStore';
import { emptyMotion } from '../../shared/motion/types';
import { createSevStore, HISTORY_LIMIT, isSevDirty, sevStore, sevTextToSave } from './sevStore';
import { latestRedoLabel, latestUndoLabel, redoLatest, resetUndoOrderForTests, undoLatest } from './undoOrder';

const TEXT = '# my notes\nsev 1\nmotion walk\nse 0 SE_A  # heel\nevent 5 0 17  # strike\n';

beforeEach(() => resetUndoOrderForTests());

describe('SEV store', () => {
  it('edits are undoable, a drag is one step, and undoing to the file clears dirty', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    expect(isSevDirty(s.getState().file)).toBe(false);
    expect(s.getState().edit('Add event', (d) => addEvent(d, { frame: 10, se: 0, joint: null }))).toBeNull();
    s.getState().begin('Move event');
    for (const f of [11, 12, 13]) s.getState().edit('Move event', (d) => moveEvent(d, 1, { frame: f }));
    s.getState().commit();
    expect(s.getState().file!.past.map((p) => p.label)).toEqual(['Add event', 'Move event']);
    expect(s.getState().file!.doc!.events[1].frame).toBe(13);
    s.getState().undo();
    expect(s.getState().file!.doc!.events[1].frame).toBe(10);
    s.getState().undo();
    expect(isSevDirty(s.getState().file)).toBe(false);
    s.getState().redo();
    expect(s.getState().file!.doc!.events).toHaveLength(2);
    // comments survive the round trip through edits
    expect(serializeSev(s.getState().file!.doc!)).toContain('event 5 0 17  # strike');
    expect(serializeSev(s.getState().file!.doc!)).toContain('# my notes');
  });

  it('a refused edit changes nothing and says why', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    expect(s.getState().edit('Add event', (d) => addEvent(d, { frame: 1, se: 9, joint: null }))).toMatch(
      /SE index 9 is not defined/,
    );
    expect(s.getState().file!.past).toEqual([]);
  });

  it('keeps a file that does not parse as text with its errors, and adopts it once fixed', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', 'sev 1\nse 0 SE_A\nevent x 0 1\n');
    const f = s.getState().file!;
    expect(f.doc).toBeNull();
    expect(f.parseErrors[0]).toMatchObject({ line: 3, column: 7 });
    expect(f.brokenText).toBe('sev 1\nse 0 SE_A\nevent x 0 1\n');
    s.getState().setBrokenText('sev 1\nse 0 SE_A\nevent 4 0 1\n');
    expect(s.getState().file!.doc!.events[0].frame).toBe(4);
    expect(isSevDirty(s.getState().file)).toBe(true);
  });

  it('Ctrl+Z undoes SEV and motion edits in the order they were made', () => {
    const m = emptyMotion(
      10,
      [0, 1].map((j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 })),
    );
    documentStore
      .getState()
      .load({ documentId: 'd', path: '/p/walk.mtn', name: 'walk', kind: 'mtn', readOnly: false, motion: m });
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    documentStore.getState().keys.toggle(0, 3); // motion edit 1
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: 1 })); // SEV edit
    documentStore.getState().keys.toggle(1, 4); // motion edit 2
    expect(latestUndoLabel()).toBe('Add user key (j1, frame 4)');
    undoLatest();
    expect(documentStore.getState().past).toHaveLength(1);
    expect(sevStore.getState().file!.doc!.events).toHaveLength(2);
    expect(latestUndoLabel()).toBe('Add event');
    undoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(1);
    expect(documentStore.getState().past).toHaveLength(1);
    undoLatest();
    expect(documentStore.getState().past).toHaveLength(0);
    redoLatest();
    redoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(2);
    expect(documentStore.getState().past).toHaveLength(1);
    redoLatest();
    expect(documentStore.getState().past).toHaveLength(2);
  });
});

describe('SEV store: a selection of the same events keeps its array (renderer review, round 12)', () => {
  it('selecting the selected event again, or the same set, hands the same array; another set a new one', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 10, se: 0, joint: null }));
    s.getState().selectEvent(0);
    const one = s.getState().selectedEvents;
    expect(one).toEqual([0]);
    // The pick button selects its own row again: what reads the selection (the event track) must see no change.
    s.getState().selectEvent(0);
    expect(s.getState().selectedEvents).toBe(one);
    s.getState().selectEvents([1, 0], 1);
    const two = s.getState().selectedEvents;
    expect(two).toEqual([0, 1]);
    expect(s.getState().selectedEvent).toBe(1);
    s.getState().selectEvents([0, 1, 1], 0);
    expect(s.getState().selectedEvents).toBe(two);
    expect(s.getState().selectedEvent).toBe(0);
    s.getState().selectEvent(1);
    expect(s.getState().selectedEvents).toEqual([1]);
    s.getState().selectEvent(null);
    const none = s.getState().selectedEvents;
    expect(none).toEqual([]);
    s.getState().selectEvent(null);
    expect(s.getState().selectedEvents).toBe(none);
  });
});

describe('undo order: a new edit ends every redo', () => {
  it('undo a SEV edit, then edit keys: redo does not re-apply the SEV edit', () => {
    const m = emptyMotion(
      10,
      [0, 1].map((j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 })),
    );
    documentStore
      .getState()
      .load({ documentId: 'r', path: '/p/walk.mtn', name: 'walk', kind: 'mtn', readOnly: false, motion: m });
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: 1 }));
    undoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(1);
    expect(latestRedoLabel()).toBe('Add event');
    documentStore.getState().keys.toggle(0, 3); // a new edit, of the motion
    expect(latestRedoLabel()).toBeNull();
    redoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(1);
    expect(documentStore.getState().past).toHaveLength(1);
    expect(latestUndoLabel()).toBe('Add user key (j0, frame 3)');
  });
});

describe('undo order with undo made elsewhere', () => {
  it('keeps step with motion undo/redo done directly on the document store', () => {
    resetUndoOrderForTests();
    const m = emptyMotion(
      10,
      [0, 1].map((j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 })),
    );
    documentStore
      .getState()
      .load({ documentId: 'e', path: '/p/walk.mtn', name: 'walk', kind: 'mtn', readOnly: false, motion: m });
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: 1 }));
    documentStore.getState().keys.toggle(0, 3);
    documentStore.getState().history.undo(); // e.g. a component that calls the store directly
    expect(latestUndoLabel()).toBe('Add event');
    documentStore.getState().history.redo();
    expect(latestUndoLabel()).toBe('Add user key (j0, frame 3)');
    undoLatest();
    undoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(1);
    expect(documentStore.getState().past).toHaveLength(0);
  });
});

describe('SEV history cap', () => {
  it('a full history drops its oldest step, never the newest (plain edits and drag transactions)', () => {
    for (const viaTransaction of [false, true]) {
      const s = createSevStore();
      s.getState().load('/p/walk.sev', 'walk', TEXT);
      const frameOf = () => s.getState().file!.doc!.events[0].frame;
      for (let i = 1; i <= HISTORY_LIMIT + 1; i++) {
        if (viaTransaction) s.getState().begin('Move event');
        s.getState().edit('Move event', (d) => moveEvent(d, 0, { frame: 100 + i }));
        if (viaTransaction) s.getState().commit();
      }
      expect(s.getState().file!.past).toHaveLength(HISTORY_LIMIT);
      s.getState().undo();
      expect(frameOf()).toBe(100 + HISTORY_LIMIT);
      for (let i = 1; i < HISTORY_LIMIT; i++) s.getState().undo();
      expect(frameOf()).toBe(101);
      s.getState().undo();
      expect(frameOf()).toBe(101);
    }
  });
});

const TWO_SES =
  'sev 1\nse 3 SE_C\nse 1 SE_B variants F0 F1 F2 F3 F4 F5 F6 F7\nevent 5 3 -\nevent 9 1 2\nevent 12 1 -\n';

describe('SEV store: loading and closing', () => {
  it('a missing file becomes an empty, new document named after the motion, with nothing to save yet', () => {
    const s = createSevStore();
    s.getState().load('/p/run.sev', 'run', null);
    const f = s.getState().file!;
    expect(f.isNew).toBe(true);
    expect(f.doc!.motion!.name).toBe('run');
    expect(f.doc!.events).toEqual([]);
    expect(f.savedDoc).toBe(f.doc);
    expect(f.brokenText).toBeNull();
    expect(f.parseErrors).toEqual([]);
    expect(f.motion).toEqual({ documentId: null, path: null });
    expect(isSevDirty(f)).toBe(false);
    expect(s.getState().selectedSe).toBe(0);
    expect(sevTextToSave(f)).toBe(serializeSev(f.doc!));
  });

  it('a loaded file resets selection, picking, drag, footsteps and history; the SE selected is the lowest index', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().selectEvent(0);
    s.getState().setPickingJoint(true);
    s.getState().setFootsteps({ contacts: [], accepted: [] });
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    s.getState().begin('Move event');
    const revision = s.getState().revision;
    const binding = { documentId: 'doc-7', path: '/p/walk.mtn' };
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES, binding);
    const st = s.getState();
    expect(st.revision).toBe(revision + 1);
    expect(st.file!.path).toBe('/p/walk2.sev');
    expect(st.file!.motionName).toBe('walk2');
    expect(st.file!.motion).toBe(binding);
    expect(st.file!.isNew).toBe(false);
    expect(st.file!.past).toEqual([]);
    expect(st.file!.future).toEqual([]);
    expect(st.file!.hiddenVariants).toEqual({});
    expect(st.file!.brokenTextEdited).toBe(false);
    expect(st.selectedEvent).toBeNull();
    expect(st.pickingJoint).toBe(false);
    expect(st.transaction).toBeNull();
    expect(st.footsteps).toBeNull();
    expect(st.selectedSe).toBe(1);
    expect(st.file!.doc!.ses.map((d) => d.index)).toEqual([3, 1]); // file order kept; the selection took the lowest
  });

  it('loading or closing forgets the SEV steps in the shared undo order', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    expect(latestUndoLabel()).toBe('Add event');
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    expect(latestUndoLabel()).toBeNull();
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    s.getState().close();
    expect(latestUndoLabel()).toBeNull();
  });

  it('close clears the file, the selection, picking, drag and footsteps, and bumps the revision', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().selectEvent(0);
    s.getState().setPickingJoint(true);
    s.getState().setFootsteps({ contacts: [], accepted: [] });
    s.getState().begin('Move event');
    const revision = s.getState().revision;
    s.getState().close();
    const st = s.getState();
    expect(st.file).toBeNull();
    expect(st.selectedEvent).toBeNull();
    expect(st.pickingJoint).toBe(false);
    expect(st.transaction).toBeNull();
    expect(st.footsteps).toBeNull();
    expect(st.revision).toBe(revision + 1);
    expect(isSevDirty(st.file)).toBe(false);
  });

  it('rebind points the file at another tuner document and keeps its edits; without a file it does nothing', () => {
    const s = createSevStore();
    s.getState().rebind({ documentId: 'x', path: '/p/x.mtn' });
    expect(s.getState().file).toBeNull();
    expect(s.getState().revision).toBe(0);
    s.getState().load('/p/walk.sev', 'walk', TEXT, { documentId: 'a', path: '/p/walk.mtn' });
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    const doc = s.getState().file!.doc;
    const revision = s.getState().revision;
    s.getState().rebind({ documentId: 'b', path: '/p/walk.mtn' });
    expect(s.getState().file!.motion).toEqual({ documentId: 'b', path: '/p/walk.mtn' });
    expect(s.getState().file!.doc).toBe(doc);
    expect(s.getState().file!.past).toHaveLength(1);
    expect(s.getState().revision).toBe(revision + 1);
  });
});

describe('SEV store: broken text', () => {
  it('places each parse error (1-based line and column) and keeps editing the text until it parses', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', 'sev 1\nse 0 SE_A\nevent x 0 1\n');
    expect(isSevDirty(s.getState().file)).toBe(false);
    expect(sevTextToSave(s.getState().file!)).toBeNull();
    expect(s.getState().file!.parseErrors[0].message).toMatch(/frame/i);
    expect(s.getState().selectedSe).toBe(0);
    s.getState().setBrokenText('sev 1\nse 0 SE_A\n\nevent 1 0 zz\n');
    const f = s.getState().file!;
    expect(f.doc).toBeNull();
    expect(f.brokenText).toBe('sev 1\nse 0 SE_A\n\nevent 1 0 zz\n');
    expect(f.brokenTextEdited).toBe(true);
    expect(f.parseErrors).toHaveLength(1);
    expect(f.parseErrors[0]).toMatchObject({ line: 4, column: 11 });
    expect(isSevDirty(f)).toBe(true);
    // Edits need a document: refused while the text does not parse.
    expect(s.getState().edit('Add event', (d) => d)).toBe('No sound-event file is open.');
  });

  it('text that parses becomes an unsaved document with a fresh history; a parsed file ignores setBrokenText', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', 'sev 1\nse 0 SE_A\nevent x 0 1\n');
    s.getState().setBrokenText('sev 1\nse 0 SE_A\nevent 4 0 1\n');
    const f = s.getState().file!;
    expect(f.savedDoc).toBeNull();
    expect(f.brokenText).toBeNull();
    expect(f.parseErrors).toEqual([]);
    expect(f.brokenTextEdited).toBe(false);
    expect(f.past).toEqual([]);
    expect(f.future).toEqual([]);
    const doc = f.doc;
    s.getState().setBrokenText('garbage');
    expect(s.getState().file!.doc).toBe(doc);
    expect(s.getState().file!.brokenText).toBeNull();
    expect(s.getState().file!.parseErrors).toEqual([]);
  });

  it('setBrokenText and markSaved without a file do nothing', () => {
    const s = createSevStore();
    s.getState().setBrokenText('sev 1\n');
    s.getState().markSaved(emptySevDocument('x'));
    s.getState().setHiddenVariants(1, ['A']);
    expect(s.getState().file).toBeNull();
    expect(s.getState().revision).toBe(0);
  });
});

describe('SEV store: saving', () => {
  it('markSaved makes the saved document the clean one and the file no longer new', () => {
    const s = createSevStore();
    s.getState().load('/p/run.sev', 'run', null);
    s.getState().edit('Add SE', (d) => setSeDefinition(d, { index: 0, name: 'SE_A' }));
    expect(isSevDirty(s.getState().file)).toBe(true);
    const saved = s.getState().file!.doc!;
    s.getState().markSaved(saved);
    expect(s.getState().file!.isNew).toBe(false);
    expect(s.getState().file!.savedDoc).toBe(saved);
    expect(isSevDirty(s.getState().file)).toBe(false);
    expect(s.getState().file!.past).toHaveLength(1); // saving keeps the history
    expect(s.getState().file!.brokenTextEdited).toBe(false);
  });

  it('hidden floor variants survive a save only for SEs saved with variants', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    const names = ['F0', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7'];
    s.getState().setHiddenVariants(1, names);
    s.getState().setHiddenVariants(3, names);
    s.getState().setHiddenVariants(9, names);
    expect(Object.keys(s.getState().file!.hiddenVariants).sort()).toEqual(['1', '3', '9']);
    s.getState().markSaved(s.getState().file!.doc!);
    // SE 1 has variants in the saved file (kept), SE 3 has none and SE 9 does not exist (dropped).
    expect(s.getState().file!.hiddenVariants).toEqual({ 1: names });
  });

  it('setHiddenVariants keeps a copy and null forgets the SE', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    const names = ['A0', 'A1'];
    const revision = s.getState().revision;
    s.getState().setHiddenVariants(1, names);
    expect(s.getState().revision).toBe(revision + 1);
    names.push('changed later');
    expect(s.getState().file!.hiddenVariants[1]).toEqual(['A0', 'A1']);
    s.getState().setHiddenVariants(3, ['B']);
    s.getState().setHiddenVariants(1, null);
    expect(s.getState().file!.hiddenVariants).toEqual({ 3: ['B'] });
  });
});

describe('SEV store: floor variants kept aside go with their SE', () => {
  // Before: they were kept by index only, so a new SE at a deleted SE's index was offered the deleted sound's variants.
  const KEPT = ['F0', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7']; // SE_B's, as the Floors box keeps them
  const hidden = (s: ReturnType<typeof createSevStore>) => s.getState().file!.hiddenVariants;
  function deleted() {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().edit('Remove floor variants of SE_B', (d) => setSeDefinition(d, { index: 1, name: 'SE_B' }));
    s.getState().setHiddenVariants(1, KEPT);
    s.getState().edit('Delete SE_B', (d) => removeSeDefinition(d, 1, { removeEvents: true }));
    return s;
  }

  it('deleting the SE drops them: a new SE at its index is not offered them', () => {
    const s = deleted();
    expect(hidden(s)).toEqual({});
    s.getState().edit('Define SE 1 as SE_NEW', (d) => setSeDefinition(d, { index: 1, name: 'SE_NEW' }));
    expect(hidden(s)).toEqual({});
  });

  it('Undo of the deletion brings them back, Redo drops them again, and so on exactly', () => {
    const s = deleted();
    s.getState().undo();
    expect(hidden(s)).toEqual({ 1: KEPT });
    s.getState().redo();
    expect(hidden(s)).toEqual({});
    s.getState().undo();
    s.getState().undo(); // the untick: SE_B shows its variants again, still kept aside as they were
    expect(s.getState().file!.doc!.ses.find((d) => d.index === 1)?.variants).toEqual(KEPT);
    s.getState().redo();
    s.getState().redo();
    expect(hidden(s)).toEqual({});
    s.getState().undo();
    expect(hidden(s)).toEqual({ 1: KEPT });
  });

  it("a new SE's own kept variants leave with it on Undo of its definition and come back on Redo", () => {
    const s = deleted();
    s.getState().edit('Define SE 1 as SE_NEW', (d) =>
      setSeDefinition(d, { index: 1, name: 'SE_NEW', variants: Array(8).fill('N') }),
    );
    s.getState().edit('Remove floor variants of SE_NEW', (d) => setSeDefinition(d, { index: 1, name: 'SE_NEW' }));
    s.getState().setHiddenVariants(1, Array(8).fill('N'));
    s.getState().undo(); // the untick
    s.getState().undo(); // the definition: SE 1 is gone again, and so are SE_NEW's variants
    expect(hidden(s)).toEqual({});
    s.getState().undo(); // the deletion: SE_B's come back, not SE_NEW's
    expect(hidden(s)).toEqual({ 1: KEPT });
    s.getState().redo();
    s.getState().redo();
    expect(hidden(s)).toEqual({ 1: Array(8).fill('N') });
  });

  it('a drag that ends without the SE drops them too, and its Undo brings them back', () => {
    const s = deleted();
    s.getState().undo();
    s.getState().begin('Delete SE_B');
    s.getState().edit('Delete SE_B', (d) => removeSeDefinition(d, 1, { removeEvents: true }));
    s.getState().commit();
    expect(hidden(s)).toEqual({});
    s.getState().undo();
    expect(hidden(s)).toEqual({ 1: KEPT });
  });
});

describe('SEV store: edits, drags and undo', () => {
  it('an edit function that throws is refused with its message (the SEV (edit) prefix dropped), a non-Error as text', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    const doc = s.getState().file!.doc;
    expect(
      s.getState().edit('x', () => {
        throw new Error('SEV (edit): frame 99999 is out of range');
      }),
    ).toBe('frame 99999 is out of range');
    expect(
      s.getState().edit('x', () => {
        throw new Error('plain SEV (edit): kept');
      }),
    ).toBe('plain SEV (edit): kept');
    expect(
      s.getState().edit('x', () => {
        throw 'a string';
      }),
    ).toBe('a string');
    expect(s.getState().file!.doc).toBe(doc);
    expect(s.getState().file!.past).toEqual([]);
  });

  it('an edit that returns the same document is no step', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    const revision = s.getState().revision;
    expect(s.getState().edit('Nothing', (d) => d)).toBeNull();
    expect(s.getState().file!.past).toEqual([]);
    expect(s.getState().revision).toBe(revision);
    expect(latestUndoLabel()).toBeNull();
  });

  it('an edit clears the redo side and records its label in the shared undo order', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    s.getState().undo();
    expect(s.getState().file!.future).toHaveLength(1);
    expect(s.getState().file!.future[0].label).toBe('Add event');
    s.getState().edit('Remove event', (d) => removeEvent(d, 0));
    expect(s.getState().file!.future).toEqual([]);
    expect(s.getState().file!.past.map((p) => p.label)).toEqual(['Remove event']);
    expect(latestUndoLabel()).toBe('Remove event');
  });

  it('a drag shows its edits at once, records one step only when it changed something, and cancel restores the start', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    const start = s.getState().file!.doc;
    s.getState().begin('Move event');
    expect(s.getState().transaction).toEqual({ label: 'Move event', before: start });
    s.getState().edit('Move event', (d) => moveEvent(d, 0, { frame: 8 }));
    expect(s.getState().file!.doc!.events[0].frame).toBe(8);
    expect(s.getState().file!.past).toEqual([]);
    expect(latestUndoLabel()).toBeNull();
    // undo and redo wait for the drag to end
    s.getState().undo();
    expect(s.getState().file!.doc!.events[0].frame).toBe(8);
    s.getState().cancel();
    expect(s.getState().transaction).toBeNull();
    expect(s.getState().file!.doc).toBe(start);
    expect(s.getState().file!.past).toEqual([]);
    // a drag that ends where it began is no step
    s.getState().begin('Move event');
    s.getState().commit();
    expect(s.getState().transaction).toBeNull();
    expect(s.getState().file!.past).toEqual([]);
    expect(latestUndoLabel()).toBeNull();
    // commit and cancel without a drag change nothing
    const revision = s.getState().revision;
    s.getState().commit();
    s.getState().cancel();
    expect(s.getState().revision).toBe(revision);
    expect(s.getState().file!.doc).toBe(start);
  });

  it('a committed drag is one step labelled by the drag, clears redo, and records itself in the undo order', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    s.getState().undo();
    const start = s.getState().file!.doc;
    s.getState().begin('Drag event');
    s.getState().edit('Move event', (d) => moveEvent(d, 0, { frame: 8 }));
    s.getState().commit();
    expect(s.getState().file!.past).toEqual([{ label: 'Drag event', doc: start }]);
    expect(s.getState().file!.future).toEqual([]);
    expect(latestUndoLabel()).toBe('Drag event');
  });

  it('a drag renamed while open is recorded under its last name; without a drag a rename does nothing', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().renameTransaction('Nothing open');
    expect(s.getState().transaction).toBeNull();
    const start = s.getState().file!.doc;
    s.getState().begin('Move event');
    s.getState().edit('Move event', (d) => moveEvent(d, 0, { frame: 8 }));
    s.getState().renameTransaction('Move SE_A from frame 5 to 8');
    expect(s.getState().transaction).toEqual({ label: 'Move SE_A from frame 5 to 8', before: start });
    s.getState().commit();
    expect(s.getState().file!.past).toEqual([{ label: 'Move SE_A from frame 5 to 8', doc: start }]);
    expect(latestUndoLabel()).toBe('Move SE_A from frame 5 to 8');
  });

  it('beginning a drag while one is open commits the open one first', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().begin('First');
    s.getState().edit('Move event', (d) => moveEvent(d, 0, { frame: 8 }));
    const afterFirst = s.getState().file!.doc;
    s.getState().begin('Second');
    expect(s.getState().file!.past.map((p) => p.label)).toEqual(['First']);
    expect(s.getState().transaction).toEqual({ label: 'Second', before: afterFirst });
  });

  it('a new store has nothing open, nothing selected and no picking; an edit without a file is refused', () => {
    const s = createSevStore();
    expect(s.getState()).toMatchObject({
      file: null,
      selectedEvent: null,
      selectedSe: 0,
      floor: 0,
      pickingJoint: false,
      transaction: null,
      footsteps: null,
      revision: 0,
    });
    expect(s.getState().edit('Add event', (d) => d)).toBe('No sound-event file is open.');
    s.getState().selectEvent(0);
    expect(s.getState().selectedEvent).toBe(0);
    expect(s.getState().selectedSe).toBe(0);
  });

  it('selecting in a file that does not parse selects the row only', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', 'sev 1\nevent x\n');
    s.getState().selectEvent(1);
    expect(s.getState().selectedEvent).toBe(1);
    expect(s.getState().selectedSe).toBe(0);
  });

  it('undo keeps "no event selected" when events remain', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 20, se: 3, joint: null }));
    s.getState().selectEvent(null);
    s.getState().undo();
    expect(s.getState().selectedEvent).toBeNull();
  });

  it('picking armed for an event that undo took away ends when the selection is cleared', () => {
    const s = createSevStore();
    s.getState().load('/p/run.sev', 'run', null);
    s.getState().edit('Add SE', (d) => setSeDefinition(d, { index: 0, name: 'SE_A' }));
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 1, se: 0, joint: null }));
    s.getState().selectEvent(0);
    s.getState().setPickingJoint(true);
    s.getState().undo();
    expect(s.getState().selectedEvent).toBeNull();
    s.getState().selectEvent(null);
    expect(s.getState().pickingJoint).toBe(false);
  });

  it('begin without a document opens no drag', () => {
    const s = createSevStore();
    s.getState().begin('Move event');
    expect(s.getState().transaction).toBeNull();
    s.getState().load('/p/walk.sev', 'walk', 'sev 1\nevent x\n');
    s.getState().begin('Move event');
    expect(s.getState().transaction).toBeNull();
  });

  it('undo and redo with nothing to undo or redo change nothing', () => {
    const s = createSevStore();
    s.getState().undo();
    s.getState().redo();
    expect(s.getState().file).toBeNull();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    const doc = s.getState().file!.doc;
    const revision = s.getState().revision;
    s.getState().undo();
    s.getState().redo();
    expect(s.getState().file!.doc).toBe(doc);
    expect(s.getState().revision).toBe(revision);
  });

  it('redo waits for an open drag', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 2, se: 0, joint: null }));
    s.getState().undo();
    s.getState().begin('Move event');
    s.getState().redo();
    expect(s.getState().file!.doc!.events).toHaveLength(1);
    expect(s.getState().file!.future).toHaveLength(1);
    s.getState().cancel();
    s.getState().redo();
    expect(s.getState().file!.doc!.events).toHaveLength(2);
    expect(s.getState().file!.past.map((p) => p.label)).toEqual(['Add event']);
    expect(s.getState().file!.future).toEqual([]);
  });

  it('undo and redo keep the selection inside the document: an event undo took away leaves it', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 20, se: 3, joint: null }));
    s.getState().selectEvents([1, 3], 3);
    s.getState().undo();
    expect(s.getState().selectedEvents).toEqual([1]);
    expect(s.getState().selectedEvent).toBe(1);
    s.getState().selectEvent(1);
    s.getState().redo();
    expect(s.getState().selectedEvent).toBe(1);
    // undoing to no events at all clears the selection
    s.getState().load('/p/run.sev', 'run', null);
    s.getState().edit('Add SE', (d) => setSeDefinition(d, { index: 0, name: 'SE_A' }));
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 1, se: 0, joint: null }));
    s.getState().selectEvent(0);
    s.getState().undo();
    expect(s.getState().selectedEvent).toBeNull();
    s.getState().redo();
    s.getState().selectEvent(null);
    s.getState().undo();
    expect(s.getState().selectedEvent).toBeNull();
  });
});

describe('SEV store: selection', () => {
  it('selecting an event selects its SE; clearing the selection keeps the SE', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().selectEvent(0);
    expect(s.getState().selectedEvent).toBe(0);
    expect(s.getState().selectedSe).toBe(3);
    s.getState().selectEvent(null);
    expect(s.getState().selectedEvent).toBeNull();
    expect(s.getState().selectedSe).toBe(3);
    s.getState().selectEvent(99); // no such event: its SE is unknown, the SE stays
    expect(s.getState().selectedSe).toBe(3);
    s.getState().selectSe(1);
    expect(s.getState().selectedSe).toBe(1);
  });

  it('the SE to add stays a defined one when an edit, undo or redo takes the chosen SE away', () => {
    const s = createSevStore();
    s.getState().load('/p/run.sev', 'run', null);
    for (const [index, name] of [
      [1, 'SE_A'],
      [4, 'SE_B'],
      [6, 'SE_C'],
    ] as const)
      s.getState().edit(`Add ${name}`, (d) => setSeDefinition(d, { index, name }));
    s.getState().selectSe(4);
    s.getState().edit('Delete SE_B', (d) => removeSeDefinition(d, 4, { removeEvents: true }));
    expect(s.getState().selectedSe).toBe(6); // the next defined SE
    s.getState().undo();
    s.getState().selectSe(4);
    s.getState().redo(); // the redo that left SE 4 chosen
    expect(s.getState().selectedSe).toBe(6);
    s.getState().undo();
    s.getState().selectSe(6);
    s.getState().edit('Delete SE_C', (d) => removeSeDefinition(d, 6, { removeEvents: true }));
    expect(s.getState().selectedSe).toBe(4); // none after it: the last
    s.getState().undo();
    expect(s.getState().selectedSe).toBe(4); // a defined choice is kept
  });

  it('joint picking needs a selected event and stays armed only for that event', () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().setPickingJoint(true);
    expect(s.getState().pickingJoint).toBe(false);
    s.getState().selectEvent(1);
    s.getState().setPickingJoint(true);
    expect(s.getState().pickingJoint).toBe(true);
    s.getState().selectEvent(1);
    expect(s.getState().pickingJoint).toBe(true);
    s.getState().selectEvent(2);
    expect(s.getState().pickingJoint).toBe(false);
    s.getState().setPickingJoint(true);
    s.getState().selectEvent(null);
    expect(s.getState().pickingJoint).toBe(false);
    s.getState().selectEvent(2);
    s.getState().setPickingJoint(true);
    s.getState().setPickingJoint(false);
    expect(s.getState().pickingJoint).toBe(false);
  });

  it('the floor attribute is an integer 0..7; anything else is ignored', () => {
    const s = createSevStore();
    s.getState().setFloor(7);
    expect(s.getState().floor).toBe(7);
    s.getState().setFloor(0);
    expect(s.getState().floor).toBe(0);
    s.getState().setFloor(3);
    for (const bad of [8, -1, 2.5, Number.NaN]) s.getState().setFloor(bad);
    expect(s.getState().floor).toBe(3);
  });

  it('footstep suggestions are kept as given and cleared with null', () => {
    const s = createSevStore();
    const f = { contacts: [], accepted: [true] };
    s.getState().setFootsteps(f);
    expect(s.getState().footsteps).toBe(f);
    s.getState().setFootsteps(null);
    expect(s.getState().footsteps).toBeNull();
  });

  it('the shared Ctrl+Z reaches the app-wide SEV store', () => {
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: null }));
    undoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(1);
    redoLatest();
    expect(sevStore.getState().file!.doc!.events).toHaveLength(2);
    sevStore.getState().close();
  });
});

describe('SEV store: multi-select', () => {
  const loaded = () => {
    const s = createSevStore();
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES); // events: 0 on SE 3, 1 and 2 on SE 1
    return s;
  };

  it('starts, loads and closes with no event selected', () => {
    const s = createSevStore();
    expect(s.getState().selectedEvents).toEqual([]);
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    s.getState().selectEvents([0, 1]);
    s.getState().load('/p/walk2.sev', 'walk2', TWO_SES);
    expect(s.getState().selectedEvents).toEqual([]);
    s.getState().selectEvents([0, 1]);
    s.getState().close();
    expect(s.getState().selectedEvents).toEqual([]);
  });

  it('selectEvents keeps existing events once, sorted; the current one is the one given when selected, else the first', () => {
    const s = loaded();
    s.getState().selectEvents([2, 0, 2, 3, -1, 1.5], 2);
    expect(s.getState().selectedEvents).toEqual([0, 2]);
    expect(s.getState().selectedEvent).toBe(2);
    expect(s.getState().selectedSe).toBe(1);
    s.getState().selectEvents([2, 0], 1);
    expect(s.getState().selectedEvent).toBe(0);
    expect(s.getState().selectedSe).toBe(3);
    s.getState().selectEvents([1, 2], null);
    expect(s.getState().selectedEvent).toBe(1);
    s.getState().selectEvents([1, 2]);
    expect(s.getState().selectedEvent).toBe(1);
    s.getState().selectEvents([]);
    expect(s.getState().selectedEvent).toBeNull();
    expect(s.getState().selectedEvents).toEqual([]);
    expect(s.getState().selectedSe).toBe(1); // no event: the SE stays
  });

  it('joint picking survives reselecting its one event, and ends with a second event or another current one', () => {
    const s = loaded();
    s.getState().selectEvents([1]);
    s.getState().setPickingJoint(true);
    expect(s.getState().pickingJoint).toBe(true);
    s.getState().selectEvents([1], 1);
    expect(s.getState().pickingJoint).toBe(true);
    s.getState().selectEvents([1, 2], 1);
    expect(s.getState().pickingJoint).toBe(false);
    s.getState().setPickingJoint(true);
    expect(s.getState().pickingJoint).toBe(false); // several events: no joint to pick for
    s.getState().selectEvents([1]);
    s.getState().setPickingJoint(true);
    s.getState().selectEvents([2]);
    expect(s.getState().pickingJoint).toBe(false);
    s.getState().setPickingJoint(true);
    s.getState().selectEvents([]);
    expect(s.getState().pickingJoint).toBe(false);
  });

  it('Ctrl-click adds an event and goes to it, or takes it out and goes to the last one left', () => {
    const s = loaded();
    s.getState().selectEvent(0);
    s.getState().toggleEventSelected(2);
    expect(s.getState().selectedEvents).toEqual([0, 2]);
    expect(s.getState().selectedEvent).toBe(2);
    s.getState().toggleEventSelected(1);
    expect(s.getState().selectedEvents).toEqual([0, 1, 2]);
    s.getState().toggleEventSelected(1); // the current one goes: the last one left becomes current
    expect(s.getState().selectedEvents).toEqual([0, 2]);
    expect(s.getState().selectedEvent).toBe(2);
    s.getState().toggleEventSelected(0); // another one goes: the current one stays
    expect(s.getState().selectedEvents).toEqual([2]);
    expect(s.getState().selectedEvent).toBe(2);
    s.getState().toggleEventSelected(2);
    expect(s.getState().selectedEvents).toEqual([]);
    expect(s.getState().selectedEvent).toBeNull();
  });

  it('Shift-click selects the shown range from the current event; without a current one, or off the list, just the event', () => {
    const s = loaded();
    const order = [2, 0, 1]; // as shown (by frame, say)
    s.getState().selectEventRange(0, order);
    expect(s.getState().selectedEvents).toEqual([0]);
    expect(s.getState().selectedEvent).toBe(0);
    s.getState().selectEvent(2);
    s.getState().selectEventRange(1, order);
    expect(s.getState().selectedEvents).toEqual([0, 1, 2]);
    expect(s.getState().selectedEvent).toBe(2); // the anchor stays current
    s.getState().selectEvent(1);
    s.getState().selectEventRange(0, order);
    expect(s.getState().selectedEvents).toEqual([0, 1]);
    s.getState().selectEventRange(2, [0, 1]); // the event is not shown
    expect(s.getState().selectedEvents).toEqual([2]);
    expect(s.getState().selectedEvent).toBe(2);
    s.getState().selectEventRange(0, [0, 1]); // the anchor (2) is not shown
    expect(s.getState().selectedEvents).toEqual([0]);
    s.getState().selectEventRange(2, [2, 0]); // first place of the list
    expect(s.getState().selectedEvents).toEqual([0, 2]);
  });

  it('undo keeps a selection that still exists as it is', () => {
    const s = loaded();
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 20, se: 3, joint: null }));
    s.getState().selectEvents([0, 2], 0);
    s.getState().undo();
    expect(s.getState().selectedEvents).toEqual([0, 2]);
    expect(s.getState().selectedEvent).toBe(0);
    s.getState().redo();
    s.getState().selectEvents([2, 3], 2);
    s.getState().undo();
    expect(s.getState().selectedEvents).toEqual([2]);
    expect(s.getState().selectedEvent).toBe(2);
  });
});

describe('SEV store: a .sev that cannot be read', () => {
  it('is remembered with its reason until a .sev loads or the editor closes', () => {
    const s = createSevStore();
    s.getState().load('/w/walk.sev', 'walk', serializeSev(emptySevDocument('walk')));
    s.getState().closeUnreadable('/w/walk.sev', 'it holds bytes that are not text at line 3');
    expect(s.getState().file).toBeNull();
    expect(s.getState().unreadable).toEqual({
      path: '/w/walk.sev',
      reason: 'it holds bytes that are not text at line 3',
    });
    s.getState().load('/w/run.sev', 'run', null);
    expect(s.getState().unreadable).toBeNull();
    s.getState().closeUnreadable('/w/walk.sev', 'x');
    s.getState().close();
    expect(s.getState().unreadable).toBeNull();
  });
});
