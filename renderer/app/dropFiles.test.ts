import { beforeEach, describe, expect, it } from 'vitest';
import type { DroppedFileOutcome } from '../../shared/ipc';
import { writeMtn } from '../../shared/mtn/write';
import { emptyMotion } from '../../shared/motion/types';
import { importOptionsStore } from '../interchange/importOptions';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { setAppApi } from './appApi';
import { openDroppedFiles } from './dropFiles';
import { fakeApi } from './fakeApiForTests';
import { registerFeatures } from './features';
import { openPath } from './motionFiles';

registerFeatures();

const joints = [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }];

/** A fake main: each dropped File is granted as `grant` says; opens and imports are recorded. */
function dropApi(grant: (file: { name: string }) => DroppedFileOutcome) {
  const calls: string[] = [];
  setAppApi(
    fakeApi({
      openDroppedFile: async (file) => {
        calls.push(`drop ${file.name}`);
        return grant(file);
      },
      openMotion: async ({ path }) => {
        calls.push(`openMotion ${path}`);
        return {
          status: 'opened',
          motion: {
            documentId: path,
            path,
            name: path.replace(/^.*\/|\.mtn$/g, ''),
            kind: 'mtn',
            readOnly: false,
            mtnBytes: writeMtn(emptyMotion(20, joints)),
            skeletonPath: null,
            marEntry: null,
          },
        };
      },
      importMotion: async ({ path }) => {
        calls.push(`importMotion ${path}`);
        return { status: 'cancelled' };
      },
    }),
  );
  return calls;
}

const granted = (file: { name: string }): DroppedFileOutcome => ({
  status: 'granted',
  path: `/home/u/${file.name}`,
  kind: file.name.endsWith('.bvh') ? 'import' : 'motion',
});

/** Answers the next in-window question with `id` and returns its text. */
async function answer(id: string): Promise<string> {
  for (let i = 0; i < 50 && !sessionStore.getState().confirm; i++) await new Promise((r) => setTimeout(r, 1));
  const q = sessionStore.getState().confirm!;
  q.resolve(id);
  return q.text;
}

const messages = () => sessionStore.getState().messages.map((m) => `${m.level}: ${m.text}`);

beforeEach(async () => {
  documentStore.getState().close();
  sessionStore.setState({ messages: [], confirm: null, picker: null });
  importOptionsStore.setState({ request: null });
  dropApi(granted);
  await openPath('/ws/walk.mtn', false);
  sessionStore.setState({ messages: [] });
});

describe('a file dropped on the window', () => {
  it('opens a granted motion, asking first about unsaved edits exactly as File > Open does: Cancel keeps them', async () => {
    const calls = dropApi(granted);
    documentStore.getState().keys.toggle(0, 5);
    const dropping = openDroppedFiles([new File([], 'run.mtn')]);
    expect(await answer('cancel')).toBe('walk.mtn has unsaved changes. Save it before you open another motion?');
    await dropping;
    expect(calls).toEqual(['drop run.mtn']);
    expect(documentStore.getState()).toMatchObject({ name: 'walk', dirty: true });
    const again = openDroppedFiles([new File([], 'run.mtn')]);
    await answer('discard');
    await again;
    expect(calls).toEqual(['drop run.mtn', 'drop run.mtn', 'openMotion /home/u/run.mtn']);
    expect(documentStore.getState()).toMatchObject({ name: 'run', dirty: false });
  });

  it('imports a granted .bvh after the unsaved question and the import options, as File > Import does', async () => {
    const calls = dropApi(granted);
    documentStore.getState().keys.toggle(0, 5);
    const dropping = openDroppedFiles([new File([], 'take.bvh')]);
    expect(await answer('discard')).toMatch(/before you import another motion\?$/);
    for (let i = 0; i < 50 && !importOptionsStore.getState().request; i++) await new Promise((r) => setTimeout(r, 1));
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 } as never);
    await dropping;
    expect(calls).toEqual(['drop take.bvh', 'importMotion /home/u/take.bvh']);
  });

  it('refuses several files and unknown kinds with a message naming them, before asking main anything', async () => {
    const calls = dropApi(granted);
    await openDroppedFiles([new File([], 'a.mtn'), new File([], 'b.mtn')]);
    await openDroppedFiles([new File([], 'notes.txt')]);
    expect(calls).toEqual([]);
    expect(messages()).toEqual([
      expect.stringMatching(/^error: 2 files were dropped \(a\.mtn, b\.mtn\): ActGuy opens one file at a time/),
      expect.stringMatching(/^error: notes\.txt: ActGuy cannot open this kind of file; nothing was opened/),
    ]);
    expect(documentStore.getState().name).toBe('walk');
  });

  it('says why when the transport cannot open a drop (the browser build) or main refuses it; the motion stays', async () => {
    dropApi(() => ({ status: 'unavailable', message: 'run.mtn: opening a dropped file needs the ActGuy desktop app' }));
    documentStore.getState().keys.toggle(0, 5);
    await openDroppedFiles([new File([], 'run.mtn')]);
    expect(sessionStore.getState().confirm).toBeNull();
    setAppApi(
      fakeApi({
        openDroppedFile: async () => Promise.reject(new Error('run.mtn: the dropped file is not there any more')),
      }),
    );
    await openDroppedFiles([new File([], 'run.mtn')]);
    expect(messages()).toEqual([
      'warning: run.mtn: opening a dropped file needs the ActGuy desktop app',
      expect.stringMatching(/^error: .*run\.mtn: the dropped file is not there any more/),
    ]);
    expect(documentStore.getState()).toMatchObject({ name: 'walk', dirty: true });
  });
});
