import { beforeEach, describe, expect, it } from 'vitest';
import type { DroppedFileOutcome } from '../../shared/ipc';
import { writeMtn } from '../../shared/mtn/write';
import { emptyMotion } from '../../shared/motion/types';
import { importOptionsStore } from '../interchange/importOptions';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { setAppApi } from './appApi';
import { installDropTarget, openDroppedFiles } from './dropFiles';
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

  it('holds a file dropped during start-up until the start-up file has opened, then opens it (the start-up open does not replace it)', async () => {
    const calls = dropApi(granted);
    documentStore.getState().close();
    const win = new EventTarget();
    let startedUp: () => void = () => {};
    const stop = installDropTarget(win as unknown as Window, new Promise<void>((done) => (startedUp = done)));
    const drop = (names: string[]) => {
      const files = names.map((name) => new File([], name));
      const e = Object.assign(new Event('drop', { cancelable: true }), {
        dataTransfer: { types: ['Files'], files, items: files.map(() => ({ kind: 'file' })) },
      });
      win.dispatchEvent(e);
      expect(e.defaultPrevented).toBe(true); // never the browser's own open
    };
    drop(['run.mtn']);
    drop(['notes.txt']); // refused at once, held for nothing
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 1));
    expect(calls).toEqual([]);
    expect(messages()).toEqual([
      'info: run.mtn was dropped during start-up: it waits until the start-up file has opened.',
      expect.stringMatching(/^error: notes\.txt: ActGuy cannot open this kind of file/),
    ]);
    // Start-up opens its file meanwhile, then says it is done: the dropped file opens after it.
    await openPath('/ws/walk.mtn', false);
    startedUp();
    for (let i = 0; i < 50 && documentStore.getState().name !== 'run'; i++) await new Promise((r) => setTimeout(r, 1));
    expect(calls).toEqual(['openMotion /ws/walk.mtn', 'drop run.mtn', 'openMotion /home/u/run.mtn']);
    expect(documentStore.getState()).toMatchObject({ name: 'run', dirty: false });
    // After start-up a drop opens at once.
    drop(['take.mtn']);
    for (let i = 0; i < 50 && documentStore.getState().name !== 'take'; i++) await new Promise((r) => setTimeout(r, 1));
    expect(calls.slice(3)).toEqual(['drop take.mtn', 'openMotion /home/u/take.mtn']);
    stop();
  });
});
