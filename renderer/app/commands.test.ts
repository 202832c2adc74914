import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeMtn } from '../../shared/mtn/write';
import { emptyMotion } from '../../shared/motion/types';
import type { OpenMotionOutcome } from '../../shared/ipc';
import { importOptionsStore } from '../interchange/importOptions';
import { projectStore } from '../project/projectStore';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { runCommand } from './commands';
import { setAppApi } from './appApi';
import { fakeApi } from './fakeApiForTests';
import { registerFeatures } from './features';
import { registerCommands, registeredCommandIds, runRegisteredCommand } from './commandRegistry';
import { MENUS } from '../../shared/menus';

// The app registers every feature's commands and savable parts at start-up (renderer/main.tsx).
registerFeatures();

const joints = [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }];
const opened = (path: string): OpenMotionOutcome => ({
  status: 'opened',
  motion: {
    documentId: path,
    path,
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    mtnBytes: writeMtn(emptyMotion(10, joints)),
    skeletonPath: null,
    marEntry: null,
  },
});

function recordingApi() {
  const calls: string[] = [];
  setAppApi(
    fakeApi({
      openMotionDialog: async () => {
        calls.push('openMotionDialog');
        return { status: 'cancelled' };
      },
      openMotion: async ({ path }) => {
        calls.push(`openMotion ${path}`);
        return opened(path);
      },
    }),
  );
  return calls;
}

const question = {
  title: 'Unsaved changes',
  text: 'walk has unsaved changes.',
  buttons: [{ id: 'cancel', label: 'Cancel' }],
  resolve: () => {},
};

afterEach(() => {
  sessionStore.getState().setConfirm(null);
  importOptionsStore.setState({ request: null });
  projectStore.getState().setBuild(null);
  documentStore.getState().close();
});

describe('menu commands and an open modal', () => {
  it('a command does not run behind an open question, and runs once it is answered', async () => {
    const calls = recordingApi();
    sessionStore.getState().setConfirm(question);
    await runCommand({ command: 'file.open' });
    expect(calls).toEqual([]);
    sessionStore.getState().setConfirm(null);
    await runCommand({ command: 'file.open' });
    await vi.waitFor(() => expect(calls).toEqual(['openMotionDialog']));
  });

  it('the import options and the build dialog are modal too', async () => {
    const calls = recordingApi();
    importOptionsStore.setState({ request: { initial: { fps: 30, scale: 1 } as never, resolve: () => {} } });
    await runCommand({ command: 'file.open' });
    importOptionsStore.setState({ request: null });
    projectStore.getState().setBuild({ starting: true, status: null } as never);
    await runCommand({ command: 'file.open' });
    expect(calls).toEqual([]);
  });

  it('a file the OS hands over while a question is open is opened after it is answered, not dropped', async () => {
    const calls = recordingApi();
    sessionStore.getState().setConfirm(question);
    await runCommand({ command: 'file.openFromSystem', path: '/ws/run.mtn' });
    expect(calls).toEqual([]);
    sessionStore.getState().setConfirm(null);
    await vi.waitFor(() => expect(documentStore.getState().path).toBe('/ws/run.mtn'));
    expect(calls).toEqual(['openMotion /ws/run.mtn']);
  });

  it('a file the OS hands over opens by its kind; an unknown kind says what ActGuy opens', async () => {
    const calls = recordingApi();
    await runCommand({ command: 'file.openFromSystem', path: '/ws/walk.MTN' });
    expect(calls).toEqual(['openMotion /ws/walk.MTN']);
    await runCommand({ command: 'file.openFromSystem', path: '/ws/notes.txt' });
    expect(sessionStore.getState().messages.at(-1)?.text).toMatch(/notes\.txt: ActGuy opens motions/);
    await runCommand({ command: 'file.openFromSystem', path: '/ws/lonely.sev' });
    expect(sessionStore.getState().messages.at(-1)?.text).toMatch(
      /lonely\.sev: a \.sev is edited in the project that lists it/,
    );
    expect(calls).toEqual(['openMotion /ws/walk.MTN']);
  });
});

describe('File › Open Recent', () => {
  // Mutation that fails: file.openRecent opening every path as a motion (openPath), or a project by path
  // (openProject, which main grants nothing for): the project must go through main's own recent list.
  it('a recent project opens as File › Open Project opens it (the project panel shows it), a motion as a motion', async () => {
    const calls: string[] = [];
    const project = JSON.stringify({ version: 1, fps: 30, motions: [{ name: 'walk', mtn: 'walk.mtn' }] });
    setAppApi(
      fakeApi({
        openRecentProject: async ({ path }) => {
          calls.push(`openRecentProject ${path}`);
          return { status: 'opened', project: { path, text: project } };
        },
        openMotion: async ({ path }) => {
          calls.push(`openMotion ${path}`);
          return opened(path);
        },
        readProjectText: async ({ path }) => ({ path, text: null }),
      }),
    );
    await runCommand({ command: 'file.openRecent', path: '/p/game.actguy.json' });
    await vi.waitFor(() => expect(projectStore.getState().path).toBe('/p/game.actguy.json'));
    expect(projectStore.getState().json?.motions.map((m) => m.name)).toEqual(['walk']);
    // Its first motion opens with it, as after a pick in the dialog.
    await vi.waitFor(() => expect(documentStore.getState().path).toBe('/p/walk.mtn'));
    expect(calls.slice(0, 2)).toEqual(['openRecentProject /p/game.actguy.json', 'openMotion /p/walk.mtn']);
    await runCommand({ command: 'file.openRecent', path: '/ws/run.mt3' });
    await vi.waitFor(() => expect(calls.at(-1)).toBe('openMotion /ws/run.mt3'));
    expect(calls.filter((c) => c.startsWith('openRecentProject'))).toEqual(['openRecentProject /p/game.actguy.json']);
    projectStore.getState().close();
  });
});

describe('the command registry', () => {
  it('every command of the menu model and of the Events menu has a registered action', () => {
    const ids = MENUS.flatMap((m) =>
      m.entries.flatMap((e) => (e !== 'separator' && 'command' in e ? [e.command] : [])),
    );
    expect(ids.length).toBeGreaterThan(30);
    for (const id of [...ids, 'file.openRecent', 'file.openFromSystem', 'help.about', 'app.saveAllAndClose'] as const)
      expect(registeredCommandIds()).toContain(id);
  });

  it('a command registered twice is refused, and one nobody registered fails loudly', async () => {
    expect(() => registerCommands([{ id: 'file.open', run: () => undefined }])).toThrow(
      'Command file.open is registered twice.',
    );
    await expect(runRegisteredCommand({ command: 'nope' as never })).rejects.toThrow('No command nope is registered.');
  });
});
