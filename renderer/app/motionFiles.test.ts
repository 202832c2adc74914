import { describe, it, expect, beforeEach } from 'vitest';
import type { OpenedMotion, SaveMotionRequest, ExportMt3DialogRequest } from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { KeyFlag, jointFlagsAt } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { cancelOpen, carryJointSelection, exportMt3, openPath, save } from './motionFiles';
import { setAppApi } from './appApi';
import { toggleKeyAtPlayhead, toggleLockAtPlayhead } from './keyEdits';
import { fakeApi } from './fakeApiForTests';
import { FAKE_JOINTS, fakeOpenedMotion } from '../testing/fakeMotions';

/** The hips with a foot and a hand under them. */
const JOINTS = [...FAKE_JOINTS, { parent: 0, mirror: 2, part: 0, reserved: 0, name: 'hand' }];
const opened = (id: string, name: string) => fakeOpenedMotion(id, name, JOINTS);

beforeEach(() => {
  documentStore.getState().close();
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 0, playhead: 0 });
});

/** Waits until `cond` holds (it follows awaited API calls). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!cond()) throw new Error('condition not reached');
}

// Mutations that fail: cancelOpen not calling cancelOpenMotion (the first test: the open never ends), followOpen
// not checking openCancelled (the second: the late motion is shown), StatusBar without its Cancel (e2e/open-cancel).
describe('Cancel of an open in progress', () => {
  it('is busy "Open" while main reads; Cancel stops it there, says so, and leaves the document and its edits', async () => {
    let answer: ((o: { status: 'cancelled' }) => void) | undefined;
    let cancels = 0;
    setAppApi(
      fakeApi({
        openMotion: async ({ path }) =>
          path.endsWith('walk.mtn')
            ? { status: 'opened', motion: opened('d1', 'walk') }
            : new Promise((resolve) => (answer = resolve)),
        cancelOpenMotion: async () => {
          cancels++;
          answer!({ status: 'cancelled' });
          return { cancelled: 1 };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    documentStore.getState().keys.toggle(1, 5);
    const done = openPath('/ws/huge.mar', false);
    await until(() => answer !== undefined);
    expect(sessionStore.getState().busy).toBe('Open');
    await cancelOpen();
    await done;
    expect(cancels).toBe(1);
    expect(sessionStore.getState().busy).toBeNull();
    expect(documentStore.getState().name).toBe('walk');
    expect(documentStore.getState().dirty).toBe(true);
    expect(sessionStore.getState().messages.at(-1)).toMatchObject({
      level: 'info',
      text: 'Open cancelled: huge.mar was not opened. Nothing was changed; walk stays open.',
    });
  });

  it('a motion main finished opening just before the Cancel reached it is not shown, and is closed in main', async () => {
    let answer: ((o: { status: 'opened'; motion: OpenedMotion }) => void) | undefined;
    const closed: string[] = [];
    setAppApi(
      fakeApi({
        openMotion: () => new Promise((resolve) => (answer = resolve)),
        cancelOpenMotion: async () => ({ cancelled: 0 }),
        closeDocument: async ({ documentId }) => void closed.push(documentId),
      }),
    );
    const done = openPath('/ws/late.mtn', false);
    await until(() => answer !== undefined);
    await cancelOpen();
    answer!({ status: 'opened', motion: opened('d9', 'late') });
    await done;
    expect(documentStore.getState().motion).toBeNull();
    expect(closed).toEqual(['d9']);
    expect(sessionStore.getState().messages.at(-1)?.text).toBe(
      'Open cancelled: late.mtn was not opened. Nothing was changed.',
    );
    // The next open is not cancelled by the old Cancel.
    const next = openPath('/ws/next.mtn', false);
    await until(() => sessionStore.getState().busy === 'Open');
    answer!({ status: 'opened', motion: opened('d10', 'next') });
    await next;
    expect(documentStore.getState().name).toBe('next');
  });
});

describe('motion files and edits at the playhead', () => {
  it('a failed open shows the main process message and keeps the document and its edits', async () => {
    setAppApi(
      fakeApi({
        openMotion: async ({ path }) => {
          if (path.endsWith('bad.mtn')) throw new Error('/ws/bad.mtn [MTN] (header): bad magic');
          return { status: 'opened', motion: opened('d1', 'walk') };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    documentStore.getState().keys.toggle(1, 5);
    await openPath('/ws/bad.mtn', false);
    expect(documentStore.getState().name).toBe('walk');
    expect(documentStore.getState().dirty).toBe(true);
    const msg = sessionStore.getState().messages.at(-1)!;
    expect(msg.level).toBe('error');
    expect(msg.text).toContain('/ws/bad.mtn [MTN] (header): bad magic');
  });

  it('an open that first finished a save killed mid-write says so, as a warning naming the motion', async () => {
    const note =
      'walk.mtn: an interrupted save was completed: /ws/walk.mtn, /ws/walk.mtn.actguy-tuning.json hold its outputs.';
    setAppApi(
      fakeApi({ openMotion: async () => ({ status: 'opened', motion: { ...opened('d1', 'walk'), recovered: note } }) }),
    );
    await openPath('/ws/walk.mtn', false);
    expect(documentStore.getState().name).toBe('walk');
    expect(sessionStore.getState().messages.map((m) => [m.level, m.text])).toContainEqual(['warning', note]);
  });

  it('save sends the edited motion as MTN bytes and clears dirty; a failed save keeps it dirty and says why', async () => {
    const saved: SaveMotionRequest[] = [];
    let refuse = false;
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1', 'walk') }),
        saveMotion: async (req) => {
          if (refuse) throw new Error('/ws/walk.mtn: EACCES: permission denied');
          saved.push(req);
          return { status: 'saved', file: { path: req.path, name: 'walk', byteLength: req.mtnBytes.byteLength } };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    sessionStore.getState().select(2);
    sessionStore.getState().setPlayhead(7);
    toggleKeyAtPlayhead();
    expect(await save()).toBe(true);
    expect(documentStore.getState().dirty).toBe(false);
    expect(jointFlagsAt(readMtn(saved[0].mtnBytes), 7, 2) & KeyFlag.KEY).toBe(KeyFlag.KEY);
    expect(saved[0].documentId).toBe('d1');

    refuse = true;
    toggleLockAtPlayhead();
    expect(await save()).toBe(false);
    expect(documentStore.getState().dirty).toBe(true);
    expect(sessionStore.getState().messages.at(-1)!.text).toContain('Save failed: /ws/walk.mtn: EACCES');
  });

  it('a refused lock at the playhead is reported with frame and joint', async () => {
    setAppApi(fakeApi({ openMotion: async () => ({ status: 'opened', motion: opened('d1', 'walk') }) }));
    await openPath('/ws/walk.mtn', false);
    sessionStore.getState().select(1);
    sessionStore.getState().setPlayhead(3);
    toggleLockAtPlayhead();
    sessionStore.getState().select(2);
    toggleLockAtPlayhead();
    const msg = sessionStore.getState().messages.at(-1)!;
    expect(msg.level).toBe('warning');
    expect(msg.text).toContain('frame 3 is already locked by joint 1 "foot"');
  });

  it('export compresses the current state (flags and tolerances of this revision)', async () => {
    const requests: ExportMt3DialogRequest[] = [];
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d9', 'walk') }),
        exportMt3Dialog: async (req) => {
          requests.push(req);
          return {
            status: 'exported',
            file: { path: '/ws/walk.mt3', name: 'walk', byteLength: 100, totalKeys: 9, ratio: 3 },
          };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    documentStore.getState().trace.toggle(4);
    documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: 2 });
    await exportMt3();
    const c = requests[0].compress;
    expect(c.documentId).toBe('d9');
    expect(c.translationKeyFlags[4] & KeyFlag.TRACE).toBe(KeyFlag.TRACE);
    expect(c.tolerances.rotationToleranceDeg).toBe(2);
    expect(requests[0].defaultName).toBe('walk.mt3');
    expect(sessionStore.getState().messages.at(-1)!.text).toContain('Exported /ws/walk.mt3');
  });

  it('carries the joint selection to another motion by name, not by index', () => {
    const walk = ['Hips', 'Spine', 'LeftFoot', 'RightFoot'].map((name) => ({ name }));
    const cmu = ['Hips', 'LHipJoint', 'RightFoot', 'LeftFoot', 'Head'].map((name) => ({ name }));
    expect(carryJointSelection(3, walk, cmu)).toBe(2); // RightFoot stays RightFoot
    expect(carryJointSelection(2, walk, cmu)).toBe(3);
    expect(carryJointSelection(1, walk, cmu)).toBe(0); // no Spine: the root, never joint 1 (LHipJoint)
    expect(carryJointSelection(-1, walk, cmu)).toBe(-1); // root translation stays
    expect(carryJointSelection(7, null, cmu)).toBe(4); // first motion: the index, clamped
    expect(carryJointSelection(0, walk, [])).toBe(-1);
  });
});
