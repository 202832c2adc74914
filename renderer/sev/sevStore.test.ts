import { beforeEach, describe, expect, it } from 'vitest';
import { addEvent, moveEvent } from '../../shared/sev/edit';
import { serializeSev } from '../../shared/sev/serialize';
import { documentStore } from '../state/documentStore';
import { emptyMotion } from '../../shared/motion/types';
import { createSevStore, HISTORY_LIMIT, isSevDirty, sevStore } from './sevStore';
import { latestUndoLabel, redoLatest, resetUndoOrderForTests, undoLatest } from './undoOrder';

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
    expect(s.getState().edit('Add event', (d) => addEvent(d, { frame: 1, se: 9, joint: null }))).toMatch(/SE index 9 is not defined/);
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
    const m = emptyMotion(10, [0, 1].map((j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 })));
    documentStore.getState().load({ documentId: 'd', path: '/p/walk.mtn', name: 'walk', kind: 'mtn', readOnly: false, motion: m });
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    documentStore.getState().keys.toggle(0, 3); // motion edit 1
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: 1 })); // SEV edit
    documentStore.getState().keys.toggle(1, 4); // motion edit 2
    expect(latestUndoLabel()).toBe('Toggle key');
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

describe('undo order with undo made elsewhere', () => {
  it('keeps step with motion undo/redo done directly on the document store', () => {
    resetUndoOrderForTests();
    const m = emptyMotion(10, [0, 1].map((j) => ({ name: `j${j}`, parent: j - 1, mirror: j, part: 0, reserved: 0 })));
    documentStore.getState().load({ documentId: 'e', path: '/p/walk.mtn', name: 'walk', kind: 'mtn', readOnly: false, motion: m });
    sevStore.getState().load('/p/walk.sev', 'walk', TEXT);
    sevStore.getState().edit('Add event', (d) => addEvent(d, { frame: 7, se: 0, joint: 1 }));
    documentStore.getState().keys.toggle(0, 3);
    documentStore.getState().history.undo(); // e.g. a component that calls the store directly
    expect(latestUndoLabel()).toBe('Add event');
    documentStore.getState().history.redo();
    expect(latestUndoLabel()).toBe('Toggle key');
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
