import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentStateReport } from '../../shared/ipc';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from '../sev/sevStore';
import { projectStore } from '../project/projectStore';
import { openPath } from './motionFiles';
import { setAppApi } from './appApi';
import { anyUnsaved, confirmUnsaved, reportUnsavedStateOnChange, saveAllAndClose, unsavedNames } from './unsaved';
import walkSevText from '../../assets/walk.sev?raw';
import sampleProjectText from '../../assets/sample.actguy.json?raw';
import { fakeApi } from './fakeApiForTests';
import { registerFeatures } from './features';
import { openFakeMotion } from '../testing/fakeMotions';

// The app registers every feature's commands and savable parts at start-up (renderer/main.tsx).
registerFeatures();

function editSev(): void {
  expect(
    sevStore.getState().edit('move event', (doc) => ({
      ...doc,
      events: doc.events.map((e, i) => (i === 0 ? { ...e, frame: e.frame + 1 } : e)),
    })),
  ).toBeNull();
}

function editProject(): void {
  const json = projectStore.getState().json!;
  projectStore.getState().setJson({ ...json, motions: [...json.motions].reverse() });
}

/** Answers the next in-window question with `id` and returns its text. */
async function answer(id: string): Promise<string> {
  for (let i = 0; i < 50 && !sessionStore.getState().confirm; i++) await new Promise((r) => setTimeout(r, 1));
  const q = sessionStore.getState().confirm!;
  q.resolve(id);
  return q.text;
}

beforeEach(() => {
  documentStore.getState().close();
  sevStore.getState().close();
  projectStore.getState().close();
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 0, playhead: 0 });
  sevStore.getState().load('/ws/walk.sev', 'walk', walkSevText);
  projectStore.getState().adopt('/ws/sample.actguy.json', sampleProjectText);
});

describe('unsaved work across the motion, the SEV and the project', () => {
  it('main hears the combined dirty state and every unsaved name, not only the motion', async () => {
    await openFakeMotion();
    const reports: DocumentStateReport[] = [];
    const off = reportUnsavedStateOnChange({ reportDocumentState: async (r) => void reports.push(r) });
    expect(reports.at(-1)).toMatchObject({ documentName: 'walk', dirty: false, unsaved: [] });
    // Only the SEV changed: the motion is clean, yet closing the window must ask.
    editSev();
    expect(reports.at(-1)).toMatchObject({ dirty: true, unsaved: ['walk.sev'] });
    editProject();
    expect(reports.at(-1)).toMatchObject({ dirty: true, unsaved: ['walk.sev', 'the project'] });
    documentStore.getState().keys.toggle(1, 5);
    expect(reports.at(-1)).toMatchObject({ dirty: true, unsaved: ['walk.mtn', 'walk.sev', 'the project'] });
    const count = reports.length;
    sessionStore.getState().setPlayhead(3); // unrelated changes send nothing new
    expect(reports.length).toBe(count);
    off();
  });

  it('the page’s title shows a received file’s hidden characters as \\uXXXX (docs/security.md, round 52)', async () => {
    // The browser build's tab: raw, the U+202E showed the rest of the title reversed; main's window title escapes it already.
    const page = { title: '' };
    vi.stubGlobal('document', page);
    try {
      await openFakeMotion();
      const off = reportUnsavedStateOnChange({ reportDocumentState: async () => undefined });
      documentStore.setState({ name: 'walk\u202eves.\u001b[2J\u200b' });
      expect(page.title).toBe('walk\\u202eves.\\u001b[2J\\u200b — ActGuy');
      off();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('one question names everything the action would lose; cancel keeps it all, discard goes on', async () => {
    await openFakeMotion();
    documentStore.getState().keys.toggle(1, 5);
    editSev();
    editProject();
    expect(anyUnsaved()).toBe(true);
    const asked = confirmUnsaved('open another project', ['motion', 'sev', 'project']);
    expect(await answer('cancel')).toBe(
      'walk.mtn, walk.sev and the project have unsaved changes. Save them before you open another project?',
    );
    expect(await asked).toBe(false);
    expect(unsavedNames()).toEqual(['walk.mtn', 'walk.sev', 'the project']);
    // Opening another motion replaces the motion and the SEV, not the project: only those are named.
    const motionOnly = confirmUnsaved('open another motion', ['motion', 'sev']);
    expect(await answer('discard')).toMatch(/^walk\.mtn and walk\.sev have unsaved changes\./);
    expect(await motionOnly).toBe(true);
  });

  it('opening another motion from the File menu asks about the motion only (the SEV and project stay open)', async () => {
    await openFakeMotion();
    editSev();
    // The SEV is dirty but File > Open does not replace it: no question.
    await openPath('/ws/walk.mtn');
    expect(sessionStore.getState().confirm).toBeNull();
    documentStore.getState().keys.toggle(1, 5);
    const opening = openPath('/ws/walk.mtn');
    expect(await answer('cancel')).toBe(
      'walk.mtn has unsaved changes. Save it before you open another motion? (walk.sev keeps its unsaved changes: it ' +
        'stays open, and this question neither saves nor discards it.)',
    );
    await opening;
    expect(documentStore.getState().dirty).toBe(true);
  });

  // Mutation that fails: the failed save not telling main `keptOpen` (main would keep the Cmd+Q that asked as asked).
  it("the native close question's Save saves everything, tells main it is clean, then closes; a failed save keeps the window and says so", async () => {
    await openFakeMotion();
    const reports: DocumentStateReport[] = [];
    let closed = 0;
    const close = () => closed++;
    const api = { reportDocumentState: async (r: DocumentStateReport) => void reports.push(r) };
    documentStore.getState().keys.toggle(1, 5);
    setAppApi(fakeApi({ saveMotion: () => Promise.reject(new Error('/ws/walk.mtn: disk full')) }));
    expect(await saveAllAndClose(api, close)).toBe(false);
    expect(closed).toBe(0);
    expect(unsavedNames()).toEqual(['walk.mtn']);
    expect(reports.splice(0)).toEqual([
      expect.objectContaining({ dirty: true, unsaved: ['walk.mtn'], keptOpen: true }),
    ]);
    setAppApi(
      fakeApi({
        saveMotion: async () => ({ status: 'saved', file: { path: '/ws/walk.mtn', name: 'walk', byteLength: 10 } }),
      }),
    );
    expect(await saveAllAndClose(api, close)).toBe(true);
    expect(closed).toBe(1);
    expect(reports).toEqual([expect.objectContaining({ documentName: 'walk', dirty: false, unsaved: [] })]);
  });
});
