/**
 * "No click destroys work" (docs/tuner.md#every-edit-and-its-undo-step): every way of replacing or closing the
 * motion, its .sev or the project while they hold unsaved edits asks first, once. Cancel leaves everything as it was
 * (nothing is read, opened or closed); "Discard changes" goes on without asking the same thing a second time.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { writeMtn } from '../../shared/mtn/write';
import { serializeSev } from '../../shared/sev/serialize';
import type { ActGuyApi } from '../../shared/ipc';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from '../sev/sevStore';
import { events } from '../sev/sevActions';
import { createSevForTuner, openSevDialog } from '../sev/sevMotion';
import { projectStore } from '../project/projectStore';
import { clearProjectHistory } from '../project/projectHistory';
import * as projectMotions from '../project/projectMotions';
import { openProjectDialog } from '../project/projectFiles';
import { importOptionsStore } from '../interchange/importOptions';
import { resetUndoOrderForTests } from '../sev/undoOrder';
import { closeDocument, openDialog, openPath } from './motionFiles';
import { importMotion, importPath } from './interchange';
import { openSystemFile } from './commands';
import { setAppApi } from './appApi';
import { fakeApi } from './fakeApiForTests';
import { registerFeatures } from './features';
import { sevJoint as joint, WALK_SEV } from '../testing/fakeMotions';
import sampleProjectText from '../../assets/sample.actguy.json?raw';

registerFeatures();

const JOINTS = [joint('Hips', -1), joint('LeftFoot'), joint('RightFoot')];

/** The sample project on its first motion (walk) with walk's .sev, as the project panel opens them. */
function openAll(): void {
  documentStore.getState().close();
  sevStore.getState().close();
  projectStore.getState().close();
  resetUndoOrderForTests();
  projectStore.getState().adopt('/ws/sample.actguy.json', sampleProjectText);
  clearProjectHistory();
  documentStore.getState().load({
    documentId: 'walk',
    path: '/ws/walk.mtn',
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    motion: emptyMotion(60, JOINTS),
  });
  sevStore.getState().load('/ws/walk.sev', 'walk', WALK_SEV, { documentId: 'walk', path: '/ws/walk.mtn' });
  projectStore.getState().setCurrent(0, 'walk');
  sessionStore.setState({ messages: [], playhead: 30, selectedJoint: 1, selectedKeys: [], confirm: null });
  importOptionsStore.setState({ request: null });
}

/** What unsaved work there is, and what is shown. */
function snapshot(): string {
  const d = documentStore.getState();
  const f = sevStore.getState().file;
  return JSON.stringify({
    documentId: d.documentId,
    keys: d.motion ? Array.from(d.motion.jointKeyInfo) : null,
    dirty: d.dirty,
    sev: f ? [f.path, f.doc ? serializeSev(f.doc) : null] : null,
    project: [projectStore.getState().path, projectStore.getState().text],
  });
}

/** Every call the fake main process got, by member name. */
let calls: string[] = [];

function recordingApi(): ActGuyApi {
  const opened = (path: string) => ({
    status: 'opened' as const,
    motion: {
      documentId: `doc:${path}`,
      path,
      name: path.replace(/^.*\/|\.mtn$/g, ''),
      kind: 'mtn' as const,
      readOnly: false,
      mtnBytes: writeMtn(emptyMotion(60, JOINTS)),
      skeletonPath: null,
      marEntry: null,
    },
  });
  const api: Partial<ActGuyApi> = {
    openMotion: async ({ path }) => opened(path),
    openMotionDialog: async () => opened('/ws/run.mtn'),
    importMotionDialog: async () => ({ status: 'cancelled' }),
    importMotion: async () => ({ status: 'cancelled' }),
    openProject: async ({ path }) => ({ status: 'opened', project: { path, text: sampleProjectText } }),
    openProjectDialog: async () => ({
      status: 'opened',
      project: { path: '/ws/other.actguy.json', text: sampleProjectText },
    }),
    chooseProjectFileDialog: async () => ({ status: 'cancelled' }),
    readProjectText: async ({ path }) => ({ path, text: path.endsWith('.sev') ? WALK_SEV : null }),
    listSounds: async ({ folder }) => ({ folder, sounds: [] }),
    startBuild: async () => {
      throw new Error('no builds here');
    },
  };
  return fakeApi(
    new Proxy(api, {
      get: (t, k: string) => {
        const f = (t as Record<string, unknown>)[k];
        if (typeof f !== 'function') return f;
        return (...a: unknown[]) => {
          calls.push(k);
          return (f as (...x: unknown[]) => unknown)(...a);
        };
      },
      has: (t, k) => k in t,
    }) as Partial<ActGuyApi>,
  );
}

const tick = () => new Promise((r) => setTimeout(r, 1));

/** Runs `run`, answering each question with the next of `answers`; returns the questions' texts. */
async function runAnswering(run: () => Promise<unknown>, answers: string[]): Promise<string[]> {
  const asked: string[] = [];
  const state = { done: false };
  const p = run().finally(() => (state.done = true));
  for (let i = 0; i < 500 && !state.done; i++) {
    const q = sessionStore.getState().confirm;
    if (q) {
      asked.push(q.text);
      q.resolve(answers[asked.length - 1] ?? 'cancel');
    } else if (importOptionsStore.getState().request)
      importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await tick();
  }
  await p;
  return asked;
}

type Part = 'motion' | 'sev' | 'project';

const EDIT: Record<Part, () => void> = {
  motion: () => documentStore.getState().keys.toggle(1, 10),
  sev: () => events.setFrame(0, 7),
  project: () => projectMotions.moveMotion(2, 0),
};

interface DiscardCase {
  name: string;
  /** The unsaved work the action would throw away. */
  part: Part;
  run: () => Promise<unknown>;
}

const CASES: DiscardCase[] = [
  { name: 'File › Open', part: 'motion', run: () => openDialog() },
  { name: 'Open Recent / a path', part: 'motion', run: () => openPath('/ws/run.mtn') },
  { name: 'File › Close', part: 'motion', run: () => closeDocument() },
  { name: 'File › Import', part: 'motion', run: () => importMotion() },
  { name: 'a dropped .bvh', part: 'motion', run: () => importPath('/ws/take.bvh') },
  { name: 'another project motion', part: 'motion', run: () => projectMotions.selectMotion(1) },
  { name: 'another project motion', part: 'sev', run: () => projectMotions.selectMotion(1) },
  { name: 'File › Open .sev', part: 'sev', run: () => openSevDialog() },
  { name: 'Create .sev', part: 'sev', run: () => createSevForTuner() },
  { name: 'File › Open Project', part: 'project', run: () => openProjectDialog() },
  { name: 'File › Open Project', part: 'motion', run: () => openProjectDialog() },
  { name: 'a project the OS hands over', part: 'project', run: () => openSystemFile('/ws/other.actguy.json') },
  { name: 'a project the OS hands over', part: 'motion', run: () => openSystemFile('/ws/other.actguy.json') },
  { name: 'a project the OS hands over', part: 'sev', run: () => openSystemFile('/ws/other.actguy.json') },
  { name: 'a motion the OS hands over', part: 'motion', run: () => openSystemFile('/ws/run.mtn') },
];

beforeEach(() => {
  calls = [];
  setAppApi(recordingApi());
  openAll();
});

describe('every way of throwing unsaved work away asks first, once', () => {
  for (const c of CASES) {
    it(`${c.name}, unsaved ${c.part}: Cancel keeps everything as it was, and nothing is opened`, async () => {
      EDIT[c.part]();
      const before = snapshot();
      calls = [];
      const asked = await runAnswering(c.run, ['cancel']);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/unsaved changes/);
      expect(snapshot()).toBe(before);
      expect(calls.filter((k) => k !== 'readProjectText')).toEqual([]);
    });

    it(`${c.name}, unsaved ${c.part}: "Discard changes" goes on without a second question`, async () => {
      EDIT[c.part]();
      const before = snapshot();
      calls = [];
      const asked = await runAnswering(c.run, ['discard']);
      expect(asked).toHaveLength(1);
      // It went on: something was replaced or closed, or main was asked for the file to open.
      expect(snapshot() !== before || calls.some((k) => k !== 'readProjectText')).toBe(true);
    });
  }
});
