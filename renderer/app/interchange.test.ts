import { beforeEach, describe, expect, it } from 'vitest';
import type {
  ExportGltfDialogRequest,
  ExportMshDialogRequest,
  ImportMotionOutcome,
  ImportMotionRequest,
  ImportedMotion,
  SaveMotionAsRequest,
} from '../../shared/ipc';
import { emptyMotion } from '../../shared/motion/types';
import { writeMtn } from '../../shared/mtn/write';
import { importOptionsStore, parseImportOptions } from '../interchange/importOptions';
import { documentStore } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { cancelImport, exportGltf, exportMsh, importMotion } from './interchange';
import { exportMt3, openPath, save, saveAs } from './motionFiles';
import { toggleKeyAtPlayhead } from './keyEdits';
import { registerFeatures } from './features';
import { setAppApi } from './appApi';
import { MSH_EXPORT_DEFAULTS, mshExportOptionsStore, parseMshExportOptions } from '../interchange/mshExportOptions';
import { fakeApi } from './fakeApiForTests';
import { fakeOpenedMotion } from '../testing/fakeMotions';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { plainImportFailure } from '../../shared/fileProblem';

// The app registers every feature's savable parts at start-up (renderer/main.tsx): the unsaved question asks them.
registerFeatures();

const joints = [
  { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'Hips' },
  { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'Spine' },
];

function imported(id: string, name: string, clip: string | null = null): ImportedMotion {
  return {
    documentId: id,
    name,
    sourcePath: `/ws/${name}.bvh`,
    sourceKind: clip ? 'gltf' : 'bvh',
    clip,
    summary: null,
    mtnBytes: writeMtn(emptyMotion(12, joints, 30)),
    warnings: [
      {
        code: 'scale-unsupported',
        message: 'clip "Run" has 2 scale track(s); motions carry no scale, so they are ignored (rest scale used)',
      },
    ],
  };
}

const opened = (id: string) => fakeOpenedMotion(id, 'walk', joints);

/** Waits until a modal question or the import options are shown (they open after awaited API calls). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!cond()) throw new Error('condition not reached');
}

beforeEach(() => {
  documentStore.getState().close();
  importOptionsStore.setState({ request: null });
  preferencesStore
    .getState()
    .set({ importOptions: { fps: 30, scale: 1 }, mshExportOptions: { ...MSH_EXPORT_DEFAULTS }, gltfExportScale: null });
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 0, playhead: 0 });
});

describe('File > Import', () => {
  it('is busy "Import" while the main process imports, and Cancel ends it with no document and says so', async () => {
    let answer: ((o: { status: 'cancelled' }) => void) | undefined;
    let cancels = 0;
    setAppApi(
      fakeApi({
        importMotionDialog: () => new Promise((resolve) => (answer = resolve)),
        cancelImport: async () => {
          cancels++;
          answer!({ status: 'cancelled' });
          return { cancelled: 1 };
        },
      }),
    );
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await until(() => answer !== undefined);
    expect(sessionStore.getState().busy).toBe('Import');
    await cancelImport();
    await done;
    expect(cancels).toBe(1);
    expect(sessionStore.getState().busy).toBeNull();
    expect(documentStore.getState().motion).toBeNull();
    // Mutation that fails: followImport not reporting a Cancel (it ended as a closed dialog does, without a word).
    expect(sessionStore.getState().messages).toMatchObject([
      { level: 'info', text: 'Import cancelled: nothing was imported.' },
    ]);
  });

  it('a motion main finished importing just before the Cancel reached it is not shown, and is closed in main', async () => {
    let answer: ((o: ImportMotionOutcome) => void) | undefined;
    const closed: string[] = [];
    setAppApi(
      fakeApi({
        importMotionDialog: () => new Promise((resolve) => (answer = resolve)),
        cancelImport: async () => ({ cancelled: 0 }),
        closeDocument: async ({ documentId }) => void closed.push(documentId),
      }),
    );
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await until(() => answer !== undefined);
    await cancelImport();
    answer!({ status: 'imported', motion: imported('n7', 'late') });
    await done;
    // Mutation that fails: followImport not checking importCancelled (the late motion is shown).
    expect(documentStore.getState().motion).toBeNull();
    expect(closed).toEqual(['n7']);
    expect(sessionStore.getState().messages.at(-1)?.text).toBe('Import cancelled: nothing was imported.');
  });

  it('refuses Save and Save As of the motion a running import replaces, saying why; after a Cancel it saves as before', async () => {
    let answer: ((o: ImportMotionOutcome) => void) | undefined;
    const saves: string[] = [];
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
        importMotionDialog: () => new Promise((resolve) => (answer = resolve)),
        cancelImport: async () => {
          answer!({ status: 'cancelled' });
          return { cancelled: 1 };
        },
        saveMotion: async (req) => {
          saves.push(`save ${req.documentId}`);
          return { status: 'saved', file: { path: req.path, name: 'walk', byteLength: req.mtnBytes.byteLength } };
        },
        saveMotionAsDialog: async (req) => {
          saves.push(`save as ${req.documentId}`);
          return { status: 'cancelled' };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    sessionStore.getState().select(1);
    sessionStore.getState().setPlayhead(3);
    toggleKeyAtPlayhead();
    expect(documentStore.getState().dirty).toBe(true);
    const done = importMotion();
    await until(() => sessionStore.getState().confirm !== null);
    sessionStore.getState().confirm!.resolve('discard');
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await until(() => answer !== undefined);
    // Mutation that fails: save and saveAs not asking replacedByImport (the save reached main, which closes walk as
    // the import lands: "document d1 is not open").
    expect(await save()).toBe(false);
    expect(await saveAs()).toBe(false);
    expect(saves).toEqual([]);
    expect(sessionStore.getState().messages.at(-1)).toMatchObject({
      level: 'warning',
      text: 'walk was not saved: the import in progress replaces it (its changes were discarded for the import). To keep walk, cancel the import in the status bar, then save.',
    });
    expect(sessionStore.getState().busy).toBe('Import');
    // Cancelled, the import replaces nothing: walk keeps its edits and saves.
    await cancelImport();
    await done;
    expect(documentStore.getState()).toMatchObject({ documentId: 'd1', dirty: true });
    expect(await save()).toBe(true);
    expect(saves).toEqual(['save d1']);
    expect(documentStore.getState().dirty).toBe(false);
  });

  // Every export of the motion a running import replaces is refused as Save is, with the same message: it wrote what
  // the user had just discarded for the import, or failed halfway as main closed the motion. Mutations that fail (one
  // each): exportMt3, exportGltf, exportMsh not asking refusedWhileReplaced (the request reached main).
  const exportsOfReplaced: { name: string; run: () => Promise<void>; asks: () => void }[] = [
    { name: 'Export .mt3', run: () => exportMt3(), asks: () => undefined },
    {
      name: 'Export glTF (source)',
      run: () => exportGltf('source'),
      asks: () => sessionStore.getState().confirm?.resolve('as-is'),
    },
    {
      name: 'Export glTF (compressed)',
      run: () => exportGltf('compressed'),
      asks: () => sessionStore.getState().confirm?.resolve('as-is'),
    },
    {
      name: 'Export MSH',
      run: () => exportMsh(),
      asks: () => mshExportOptionsStore.getState().request?.resolve({ ...MSH_EXPORT_DEFAULTS }),
    },
  ];
  for (const x of exportsOfReplaced)
    it(`refuses ${x.name} of the motion a running import replaces, saying why; after a Cancel it exports`, async () => {
      let answer: ((o: ImportMotionOutcome) => void) | undefined;
      const sent: string[] = [];
      mshExportOptionsStore.setState({ request: null });
      setAppApi(
        fakeApi({
          openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
          importMotionDialog: () => new Promise((resolve) => (answer = resolve)),
          cancelImport: async () => {
            answer!({ status: 'cancelled' });
            return { cancelled: 1 };
          },
          exportMt3Dialog: async (req) => {
            sent.push(`mt3 ${req.compress.documentId}`);
            return { status: 'cancelled' };
          },
          exportGltfDialog: async (req) => {
            sent.push(`glTF ${req.source} ${req.documentId}`);
            return { status: 'cancelled' };
          },
          exportMshDialog: async (req) => {
            sent.push(`MSH ${req.documentId}`);
            return { status: 'cancelled' };
          },
        }),
      );
      await openPath('/ws/walk.mtn', false);
      sessionStore.getState().select(1);
      sessionStore.getState().setPlayhead(3);
      toggleKeyAtPlayhead();
      const done = importMotion();
      await until(() => sessionStore.getState().confirm !== null);
      sessionStore.getState().confirm!.resolve('discard');
      await until(() => importOptionsStore.getState().request !== null);
      importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
      await until(() => answer !== undefined);
      // Refused at once: no question (units, MSH tolerances) is asked and nothing reaches main.
      let settled = false;
      const refused = x.run().then(() => (settled = true));
      const asked = () => sessionStore.getState().confirm !== null || mshExportOptionsStore.getState().request !== null;
      await until(() => settled || asked() || sent.length > 0);
      const askedFirst = asked();
      if (askedFirst) x.asks();
      await refused;
      expect(askedFirst).toBe(false);
      expect(sent).toEqual([]);
      expect(sessionStore.getState().messages.at(-1)).toMatchObject({
        level: 'warning',
        text: 'walk was not exported: the import in progress replaces it (its changes were discarded for the import). To keep walk, cancel the import in the status bar, then export.',
      });
      expect(sessionStore.getState().busy).toBe('Import');
      // Cancelled, the import replaces nothing: walk keeps its edits and exports.
      await cancelImport();
      await done;
      expect(documentStore.getState()).toMatchObject({ documentId: 'd1', dirty: true });
      const again = x.run();
      await until(() => asked() || sent.length > 0);
      x.asks();
      await again;
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('d1');
    });

  it('puts a snapped BVH frame rate in the import summary, not among the warnings', async () => {
    const snapped: ImportedMotion = {
      ...imported('n9', 'cmu'),
      warnings: [
        {
          code: 'rate-snapped',
          message: 'Frame Time 0.0083333 s is 120.00048 fps, within 0.01% of 120 fps: read as exactly 120 fps',
        },
      ],
    };
    setAppApi(fakeApi({ importMotionDialog: async () => ({ status: 'imported', motion: snapped }) }));
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    expect(sessionStore.getState().messages.map((m) => `${m.level}: ${m.text}`)).toEqual([
      'info: Imported cmu.bvh: 2 joints, frames 0..12 at 30 fps (Frame Time 0.0083333 s is 120.00048 fps, within 0.01% of 120 fps: read as exactly 120 fps). Not saved yet: Save writes it as an .mtn.',
    ]);
  });

  it("gives 300 importer warnings as one message that lists the first hundred, and keeps the import's summary", async () => {
    const many: ImportedMotion = {
      ...imported('n10', 'crowd'),
      warnings: Array.from({ length: 300 }, (_, j) => ({
        code: j < 200 ? ('name-truncated' as const) : ('name-duplicate' as const),
        message: `joint ${j} name warning`,
      })),
    };
    sessionStore.getState().notify('error', 'an earlier failure', 'app');
    setAppApi(fakeApi({ importMotionDialog: async () => ({ status: 'imported', motion: many }) }));
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    const messages = sessionStore.getState().messages;
    // The earlier message and the summary are still there: 300 notifications pushed both out of the list.
    expect(messages.map((m) => `${m.level}: ${m.text}`)).toEqual([
      'error: an earlier failure',
      'info: Imported crowd.bvh: 2 joints, frames 0..12 at 30 fps. Not saved yet: Save writes it as an .mtn.',
      'warning: crowd.bvh: 300 warnings (200 joint names truncated, 100 duplicate joint names renamed)',
    ]);
    const details = messages[2]!.details!;
    expect(details).toHaveLength(101);
    expect(details[0]).toBe('joint 0 name warning');
    expect(details[99]).toBe('joint 99 name warning');
    expect(details[100]).toBe('200 more warnings not listed (only the first 100 are)');
  });

  it('asks fps, scale and BVH positions, imports a new unsaved motion with its warnings, and Save goes through Save As', async () => {
    const calls: unknown[] = [];
    const saveAs: SaveMotionAsRequest[] = [];
    setAppApi(
      fakeApi({
        importMotionDialog: async (req) => {
          calls.push(req);
          return { status: 'imported', motion: imported('n1', 'take') };
        },
        saveMotionAsDialog: async (req) => {
          saveAs.push(req);
          return { status: 'saved', file: { path: '/ws/take.mtn', name: 'take', byteLength: req.mtnBytes.byteLength } };
        },
      }),
    );
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    expect(importOptionsStore.getState().request!.initial).toEqual({ fps: 30, scale: 1, bvhPositions: 'auto' });
    importOptionsStore.getState().request!.resolve({ fps: 60, scale: 0.5, bvhPositions: 'local' });
    await done;
    expect(calls).toEqual([{ fps: 60, scale: 0.5, bvhPositions: 'local' }]);
    const doc = documentStore.getState();
    expect(doc.documentId).toBe('n1');
    expect(doc.path).toBeNull();
    expect(doc.name).toBe('take');
    expect(doc.readOnly).toBe(false);
    expect(doc.dirty).toBe(true);
    expect(doc.motion!.frameCount).toBe(12);
    const texts = sessionStore.getState().messages.map((m) => `${m.level}: ${m.text}`);
    expect(texts).toContain(
      'info: Imported take.bvh: 2 joints, frames 0..12 at 30 fps. Not saved yet: Save writes it as an .mtn.',
    );
    expect(texts.some((t) => t.startsWith('warning: take.bvh: clip "Run" has 2 scale track(s)'))).toBe(true);

    // A key toggled and undone leaves it modified: it was never saved.
    documentStore.getState().keys.toggle(1, 3);
    documentStore.getState().history.undo();
    expect(documentStore.getState().dirty).toBe(true);

    expect(await save()).toBe(true);
    expect(saveAs[0].documentId).toBe('n1');
    expect(saveAs[0].defaultName).toBe('take.mtn');
    expect(documentStore.getState().dirty).toBe(false);
    expect(documentStore.getState().path).toBe('/ws/take.mtn');
    // The next import starts from the rate and scale used last, kept in the preferences (so the next window has them
    // too); the BVH positions start at auto again: an override is for the file it was chosen for.
    expect(preferencesStore.getState().importOptions).toEqual({ fps: 60, scale: 0.5 });
    const again = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    expect(importOptionsStore.getState().request!.initial).toEqual({ fps: 60, scale: 0.5, bvhPositions: 'auto' });
    importOptionsStore.getState().request!.resolve(null);
    await again;
    expect(documentStore.getState().documentId).toBe('n1');
  });

  it('offers the clips of a multi-clip glTF and imports the pick with the same options', async () => {
    const requests: ImportMotionRequest[] = [];
    setAppApi(
      fakeApi({
        importMotionDialog: async () => ({
          status: 'chooseClip',
          path: '/ws/hero.glb',
          clips: [
            { index: 0, name: 'Walk', duration: 4.4 },
            { index: 1, name: 'Run', duration: 2 },
          ],
        }),
        importMotion: async (req) => {
          requests.push(req);
          return { status: 'imported', motion: imported('n2', 'hero_Run', 'Run') };
        },
      }),
    );
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await until(() => sessionStore.getState().confirm !== null);
    const q = sessionStore.getState().confirm!;
    expect(q.text).toBe('/ws/hero.glb holds 2 animation clips. Which one?');
    expect(q.buttons.map((b) => b.label)).toEqual(['#0 Walk  (4.40 s)', '#1 Run  (2.00 s)', 'Cancel']);
    q.resolve('1');
    await done;
    expect(requests).toEqual([{ path: '/ws/hero.glb', clip: 1, fps: 30, scale: 1 }]);
    expect(documentStore.getState().name).toBe('hero_Run');
  });

  it('a failed import shows the message and keeps the current document', async () => {
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
        importMotionDialog: async () => {
          throw new Error('/ws/broken.bvh [BVH] 12:3: expected 9 values, found 8');
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    expect(documentStore.getState().documentId).toBe('d1');
    expect(documentStore.getState().dirty).toBe(false);
    const msg = sessionStore.getState().messages.at(-1)!;
    expect(msg.level).toBe('error');
    expect(msg.text).toBe('Import failed: /ws/broken.bvh [BVH] 12:3: expected 9 values, found 8');
  });

  it('a broken file reads in plain words first, its reader message as Details (one import and a batch)', async () => {
    const plain = {
      file: 'broken.bvh',
      lead: 'it ends too soon at line 12: part of its data is missing (a copy or save that stopped part way?).',
      advice: 'Fix it at line 12 in a text editor, then import it again.',
    };
    const detail = '/ws/broken.bvh:12:3: file ends early (truncated): expected channel 2 of 6';
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
        importMotionDialog: async () => {
          throw new ActGuyApiError({ message: detail, formatKind: 'BVH', plain });
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    let done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    expect(sessionStore.getState().messages.at(-1)!.text).toBe(
      `Could not import broken.bvh: ${plain.lead} ${plain.advice}\nDetails: ${detail}`,
    );

    setAppApi(
      fakeApi({
        importMotionDialog: async () => ({ status: 'chosenMany', paths: ['/ws/broken.bvh', '/ws/run.bvh'] }),
        importMotionBatch: async () => ({
          status: 'done',
          failed: 1,
          written: [],
          conclusion: '1 of 2 failed; nothing was written (all or nothing)',
          items: [
            {
              sourcePath: '/ws/broken.bvh',
              clip: null,
              name: 'broken',
              mtnPath: null,
              error: detail,
              plain,
              shape: null,
              warnings: [],
            },
            {
              sourcePath: '/ws/run.bvh',
              clip: null,
              name: 'run',
              mtnPath: '/ws/run.mtn',
              error: null,
              shape: null,
              warnings: [],
            },
          ],
        }),
      }),
    );
    done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    // The batch's own message for the file, beside the single import's above.
    expect(
      sessionStore
        .getState()
        .messages.filter(
          (m) => m.text === `Could not import broken.bvh: ${plain.lead} ${plain.advice}\nDetails: ${detail}`,
        ),
    ).toHaveLength(2);
  });

  it("gives a batch's warnings, every file's, as one message naming each file in its list", async () => {
    const item = (name: string, codes: ('name-truncated' | 'scale-unsupported' | 'rate-snapped')[]) => ({
      sourcePath: `/ws/${name}.bvh`,
      clip: null,
      name,
      mtnPath: `/ws/${name}.mtn`,
      error: null,
      shape: null,
      warnings: codes.map((code, k) => ({ code, message: `${code} ${k}` })),
    });
    setAppApi(
      fakeApi({
        importMotionDialog: async () => ({ status: 'chosenMany', paths: ['/ws/a.bvh', '/ws/b.bvh'] }),
        importMotionBatch: async () => ({
          status: 'done',
          failed: 0,
          written: ['/ws/a.mtn', '/ws/b.mtn'],
          conclusion: 'wrote 2 motions',
          items: [item('a', ['name-truncated', 'rate-snapped', 'name-truncated']), item('b', ['scale-unsupported'])],
        }),
      }),
    );
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    const warnings = sessionStore.getState().messages.filter((m) => m.level === 'warning');
    expect(warnings.map((m) => m.text)).toEqual([
      'Import: 3 warnings (2 joint names truncated, 1 scale tracks ignored)',
    ]);
    expect(warnings[0]!.details).toEqual([
      'a.bvh: name-truncated 0',
      'a.bvh: name-truncated 2',
      'b.bvh: scale-unsupported 0',
    ]);
    expect(sessionStore.getState().messages.at(-1)!.text).toBe('Imported 2 motion(s): wrote 2 motions.');
  });

  it('a failure that already says "Could not import X" is not prefixed "Import failed:" a second time', async () => {
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
        importMotionDialog: async () => {
          throw new Error('Could not import /ws/take.bvh: the importer stopped (exit code 1)');
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    const done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    expect(sessionStore.getState().messages.at(-1)!.text).toBe(
      'Could not import /ws/take.bvh: the importer stopped (exit code 1)',
    );
  });

  it('an import that fails for another reason than a bad file reads alike in a single import and in a batch: plain words, then Details', async () => {
    // What main sends for an importer that stopped (electron/interchange/importRunner.ts withPlainFailures).
    const detail = 'Could not import /ws/take.bvh: the importer stopped (exit code 1)';
    const plain = plainImportFailure(detail, '/ws/take.bvh')!;
    const clipDetail = 'Could not import /ws/hero.glb: the importer stopped (exit code 134)';
    const expected = `Could not import take.bvh: ${plain.lead} ${plain.advice}\nDetails: ${detail}`;
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d1') }),
        importMotionDialog: async () => {
          throw new ActGuyApiError({ message: detail, plain });
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    let done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    expect(sessionStore.getState().messages.at(-1)!.text).toBe(expected);

    sessionStore.setState({ messages: [] });
    const item = { name: null, mtnPath: null, shape: null, warnings: [] };
    setAppApi(
      fakeApi({
        importMotionDialog: async () => ({
          status: 'chosenMany',
          paths: ['/ws/take.bvh', '/ws/hero.glb', '/ws/idle.fbx'],
        }),
        importMotionBatch: async () => ({
          status: 'done',
          failed: 3,
          written: [],
          conclusion: '3 of 3 failed; nothing was written (all or nothing)',
          items: [
            { ...item, sourcePath: '/ws/take.bvh', clip: null, error: detail, plain },
            {
              ...item,
              sourcePath: '/ws/hero.glb',
              clip: 'Run',
              error: clipDetail,
              plain: plainImportFailure(clipDetail, '/ws/hero.glb'),
            },
            // The batch's own refusal (no plain words of its own): still led by the file it is about.
            { ...item, sourcePath: '/ws/idle.fbx', clip: null, error: 'the project already has a motion named "idle"' },
          ],
        }),
      }),
    );
    done = importMotion();
    await until(() => importOptionsStore.getState().request !== null);
    importOptionsStore.getState().request!.resolve({ fps: 30, scale: 1 });
    await done;
    const texts = sessionStore.getState().messages.map((m) => m.text);
    expect(texts.slice(0, 3)).toEqual([
      expected,
      `Could not import hero.glb (clip "Run"): ${plain.lead} ${plain.advice}\nDetails: ${clipDetail}`,
      'Could not import idle.fbx: the project already has a motion named "idle"',
    ]);
  });

  it('parses the option fields and says what is wrong', () => {
    expect(parseImportOptions('24', '0.01')).toEqual({ fps: 24, scale: 0.01 });
    expect(parseImportOptions('0', '1')).toHaveProperty('error');
    expect(parseImportOptions('', '1')).toHaveProperty('error');
    expect(parseImportOptions('30', 'x')).toHaveProperty('error');
    expect(parseImportOptions('2000', '1')).toHaveProperty('error');
  });
});

describe('File > Export glTF', () => {
  it('sends the edited motion, and for the compressed one the current compress settings', async () => {
    const requests: ExportGltfDialogRequest[] = [];
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d3') }),
        exportGltfDialog: async (req) => {
          requests.push(req);
          return {
            status: 'exported',
            file: {
              path: `/ws/${req.defaultName}`,
              name: 'x',
              byteLength: 999,
              source: req.source,
              jointCount: 2,
              frameCount: 20,
              fps: 30,
              totalKeys: req.source === 'compressed' ? 7 : null,
            },
          };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: 3 });
    // Each export asks the units first; the choice made last is offered first.
    const answer = async (run: Promise<void>, expectedFirst: string, pick: string): Promise<void> => {
      await until(() => sessionStore.getState().confirm !== null);
      const q = sessionStore.getState().confirm!;
      expect(q.buttons.map((b) => b.id)).toEqual([
        expectedFirst,
        expectedFirst === 'metres' ? 'as-is' : 'metres',
        'cancel',
      ]);
      q.resolve(pick);
      await run;
    };
    await answer(exportGltf('source'), 'metres', 'as-is');
    // The choice is a preference, kept across restarts (it lived in this module's memory: a past review's finding).
    // Mutation that fails: askGltfScale not storing it (still null).
    expect(preferencesStore.getState().gltfExportScale).toBe(1);
    await answer(exportGltf('compressed'), 'as-is', 'metres');
    expect(preferencesStore.getState().gltfExportScale).toBe(0.01);
    await answer(exportGltf('source'), 'metres', 'cancel');
    expect(requests.map((r) => [r.source, r.defaultName, r.compress === undefined, r.scale])).toEqual([
      ['source', 'walk.glb', true, 1],
      ['compressed', 'walk_compressed.glb', false, 0.01],
    ]);
    expect(requests[1].compress!.tolerances.rotationToleranceDeg).toBe(3);
    expect(requests[1].compress!.documentId).toBe('d3');
    expect(sessionStore.getState().messages.at(-1)!.text).toBe(
      'Exported /ws/walk_compressed.glb: glTF of the compressed motion, 2 joints, frames 0..20, 7 keys, positions ×0.01, 999 bytes.',
    );
  });
});

describe('File > Export MSH', () => {
  it('asks the tolerances (the CLI defaults, then the last ones), sends them with the overrides when asked, and names the three files', async () => {
    const requests: ExportMshDialogRequest[] = [];
    mshExportOptionsStore.setState({ request: null });
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d4') }),
        exportMshDialog: async (req) => {
          requests.push(req);
          const p = `/ws/${req.defaultName!.replace(/\.res8$/, '')}`;
          return {
            status: 'exported',
            export: {
              files: { res8: `${p}.res8`, res19: `${p}.res19`, nodes: `${p}.nodes.json` },
              byteLengths: { res8: 24, res19: 42, nodes: 500 },
              totalKeys: 40,
              mapWords: 42,
              frameCount: 21,
              nodeCount: 2,
              animatedNodes: 1,
              warnings: ['node 1 (Spine): a key on every frame still misses the tolerance'],
            },
          };
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    documentStore.getState().tolerancesActions.setOverride(1, 0.2);
    const first = exportMsh();
    await until(() => mshExportOptionsStore.getState().request !== null);
    const ask = mshExportOptionsStore.getState().request!;
    expect(ask.initial).toEqual({ positionTolerance: 0.5, rotationToleranceDeg: 0.5, useJointOverrides: true });
    expect(ask.jointOverrideCount).toBe(1);
    ask.resolve({ positionTolerance: 0.25, rotationToleranceDeg: 1, useJointOverrides: true });
    await first;
    // The next export starts from the last choice; without the overrides none are sent; Cancel sends nothing.
    const second = exportMsh();
    await until(() => mshExportOptionsStore.getState().request !== null);
    expect(mshExportOptionsStore.getState().request!.initial).toEqual({
      positionTolerance: 0.25,
      rotationToleranceDeg: 1,
      useJointOverrides: true,
    });
    mshExportOptionsStore
      .getState()
      .request!.resolve({ positionTolerance: 0.25, rotationToleranceDeg: 1, useJointOverrides: false });
    await second;
    const third = exportMsh();
    await until(() => mshExportOptionsStore.getState().request !== null);
    // Without the overrides is remembered too (kept with the preferences), and Cancel forgets nothing.
    const last = { positionTolerance: 0.25, rotationToleranceDeg: 1, useJointOverrides: false };
    expect(mshExportOptionsStore.getState().request!.initial).toEqual(last);
    mshExportOptionsStore.getState().request!.resolve(null);
    await third;
    expect(preferencesStore.getState().mshExportOptions).toEqual(last);
    expect(
      requests.map((r) => [
        r.documentId,
        r.positionTolerance,
        r.rotationToleranceDeg,
        r.rotationToleranceOverridesDeg,
        r.defaultName,
      ]),
    ).toEqual([
      ['d4', 0.25, 1, { 1: 0.2 }, 'walk.res8'],
      ['d4', 0.25, 1, undefined, 'walk.res8'],
    ]);
    const texts = sessionStore.getState().messages.map((m) => `${m.level}: ${m.text}`);
    expect(texts).toContain(
      'info: Exported MSH animation: /ws/walk.res8 (40 keys), /ws/walk.res19 (42 map words, 21 frames) and /ws/walk.nodes.json (1 of 2 nodes animated).',
    );
    expect(texts).toContain('warning: MSH export: node 1 (Spine): a key on every frame still misses the tolerance');
    expect(sessionStore.getState().busy).toBeNull();
  });

  it('a failed export is an error message naming the files, and the document stays', async () => {
    mshExportOptionsStore.setState({ request: null });
    setAppApi(
      fakeApi({
        openMotion: async () => ({ status: 'opened', motion: opened('d5') }),
        exportMshDialog: async () => {
          throw new Error(
            'Could not export /ws/walk.{res8,res19,nodes.json}: cannot write /ws/walk.res19: no space left on the device; nothing was written',
          );
        },
      }),
    );
    await openPath('/ws/walk.mtn', false);
    const run = exportMsh();
    await until(() => mshExportOptionsStore.getState().request !== null);
    expect(mshExportOptionsStore.getState().request!.jointOverrideCount).toBe(0);
    mshExportOptionsStore.getState().request!.resolve({ ...MSH_EXPORT_DEFAULTS, useJointOverrides: false });
    await run;
    expect(sessionStore.getState().messages.map((m) => `${m.level}: ${m.text}`)).toEqual([
      'error: Could not export /ws/walk.{res8,res19,nodes.json}: cannot write /ws/walk.res19: no space left on the device; nothing was written',
    ]);
    expect(documentStore.getState().documentId).toBe('d5');
  });

  it('parses the dialog fields: tolerances of 0 or more', () => {
    expect(parseMshExportOptions('0.5', '0', true)).toEqual({
      positionTolerance: 0.5,
      rotationToleranceDeg: 0,
      useJointOverrides: true,
    });
    expect(parseMshExportOptions(' 2 ', '1.5', false)).toEqual({
      positionTolerance: 2,
      rotationToleranceDeg: 1.5,
      useJointOverrides: false,
    });
    expect(parseMshExportOptions('-1', '1', true)).toEqual({
      error: 'Position tolerance must be a number of motion units, 0 or more.',
    });
    expect(parseMshExportOptions('', '1', true)).toHaveProperty('error');
    expect(parseMshExportOptions('1', 'x', true)).toEqual({
      error: 'Rotation tolerance must be a number of degrees, 0 or more.',
    });
    expect(parseMshExportOptions('1', 'Infinity', true)).toHaveProperty('error');
  });
});
