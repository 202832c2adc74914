import { beforeEach, describe, expect, it } from 'vitest';
import type { BuildStatus, SaveProjectRequest, StartBuildRequest } from '../../shared/ipc';
import { emptyMotion } from '../../shared/motion/types';
import { setAppApi } from '../app/appApi';
import { fakeApi } from '../app/fakeApiForTests';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { isSevDirty, sevStore } from '../sev/sevStore';
import { isProjectDirty, projectStore } from './projectStore';
import { openProject, saveProject, saveProjectAndSev } from './projectFiles';
import { buildArchives, checkProject } from './projectBuild';
import { loadSounds } from './auditionSounds';
import { registerFeatures } from '../app/features';
import { saveAllAndClose } from '../app/unsaved';
import { messageTexts } from '../testing/sessionMessages';

const PROJECT = JSON.stringify({ version: 1, fps: 30, motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }] });
const WALK_SEV = 'sev 1\nmotion walk\nse 0 SE_FOOT_L\nevent 5 0 1\n';
const joint = (name: string, parent = 0) => ({ parent, mirror: 0, part: 0, reserved: 0, name });

const status = (over: Partial<BuildStatus>): BuildStatus => ({
  buildId: 'b1',
  dryRun: false,
  state: 'done',
  done: 1,
  count: 1,
  current: null,
  motions: [],
  errors: [],
  warnings: [],
  written: [],
  report: null,
  elapsedMs: 1200,
  ...over,
});

/** Reorders the motion list: the project is unsaved. */
function editProject(): void {
  const json = projectStore.getState().json!;
  projectStore.getState().setJson({ ...json, motions: [...json.motions, { name: 'run', mtn: 'run.mtn' }] });
}

function editSev(): void {
  expect(
    sevStore.getState().edit('move event', (doc) => ({ ...doc, events: doc.events.map((e) => ({ ...e, frame: 6 })) })),
  ).toBeNull();
}

beforeEach(() => {
  sessionStore.setState({ messages: [], confirm: null });
  projectStore.getState().close();
  projectStore.getState().adopt('/p/game.actguy.json', PROJECT);
  documentStore.getState().load({
    documentId: 'walk-1',
    path: '/p/walk.mtn',
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    motion: emptyMotion(60, [joint('Hips', -1), joint('LeftFoot')]),
  });
  sevStore.getState().load('/p/walk.sev', 'walk', WALK_SEV, { documentId: 'walk-1', path: '/p/walk.mtn' });
});

describe('saving the project through the API', () => {
  it('writes the edited project text to its path and marks it saved', async () => {
    const saved: SaveProjectRequest[] = [];
    setAppApi(
      fakeApi({
        saveProject: async (req) => (
          saved.push(req),
          { path: req.path, name: 'game.actguy.json', byteLength: req.text.length }
        ),
      }),
    );
    editProject();
    const text = projectStore.getState().text;
    expect(await saveProject()).toBe(true);
    expect(saved).toEqual([{ path: '/p/game.actguy.json', text }]);
    expect(JSON.parse(saved[0].text).motions.map((m: { name: string }) => m.name)).toEqual(['walk', 'run']);
    expect(isProjectDirty(projectStore.getState())).toBe(false);
  });

  it('a failed save keeps the project dirty and says why; a clean project is not written', async () => {
    setAppApi(fakeApi({ saveProject: () => Promise.reject(new Error('/p/game.actguy.json: read-only')) }));
    expect(await saveProject()).toBe(true);
    editProject();
    expect(await saveProject()).toBe(false);
    expect(isProjectDirty(projectStore.getState())).toBe(true);
    expect(messageTexts('error')).toEqual(['Save project failed: /p/game.actguy.json: read-only']);
  });

  it('saves asked for at once (Ctrl+S reaches the tuner and the SEV editor) write the project one after another, once per change', async () => {
    const log: string[] = [];
    /** A saveProject that logs each write's start and end (by motion count) and holds the first until released. */
    const holdFirstWrite = (): (() => void) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      log.length = 0;
      setAppApi(
        fakeApi({
          saveProject: async (req) => {
            const n = JSON.parse(req.text).motions.length;
            log.push(`start ${n}`);
            if (log.length === 1) await held;
            log.push(`end ${n}`);
            return { path: req.path, name: 'game.actguy.json', byteLength: req.text.length };
          },
        }),
      );
      return release;
    };
    const release = holdFirstWrite();
    editProject();
    const twice = [saveProject(), saveProject()];
    release();
    expect(await Promise.all(twice)).toEqual([true, true]);
    expect(log).toEqual(['start 2', 'end 2']);
    expect(messageTexts('info')).toEqual(['Saved /p/game.actguy.json.']);
    // An edit while a save is on its way: the next save waits for it and writes the newer text after it.
    const releaseAgain = holdFirstWrite();
    editProject();
    const a = saveProject();
    while (log.length === 0) await Promise.resolve(); // its write has started
    editProject();
    const b = saveProject();
    releaseAgain();
    expect(await Promise.all([a, b])).toEqual([true, true]);
    expect(log).toEqual(['start 3', 'end 3', 'start 4', 'end 4']);
    expect(isProjectDirty(projectStore.getState())).toBe(false);
  });

  it('Save Project writes the open .sev first; when that fails the project is not written', async () => {
    const order: string[] = [];
    let sevFails = true;
    setAppApi(
      fakeApi({
        saveSev: async (req) => {
          order.push(`saveSev ${req.path}`);
          if (sevFails) throw new Error('disk full');
          return { path: req.path, name: 'walk.sev', byteLength: 1 };
        },
        saveProject: async (req) => (
          order.push(`saveProject ${req.path}`),
          { path: req.path, name: 'game.actguy.json', byteLength: 1 }
        ),
      }),
    );
    editProject();
    editSev();
    expect(await saveProjectAndSev()).toBe(false);
    expect(order).toEqual(['saveSev /p/walk.sev']);
    expect(isProjectDirty(projectStore.getState())).toBe(true);
    sevFails = false;
    expect(await saveProjectAndSev()).toBe(true);
    expect(order).toEqual(['saveSev /p/walk.sev', 'saveSev /p/walk.sev', 'saveProject /p/game.actguy.json']);
    expect(isSevDirty(sevStore.getState().file)).toBe(false);
  });
});

describe('checks and builds through the API', () => {
  it('a build sends the unsaved project and .sev text, and reports what it wrote', async () => {
    const started: StartBuildRequest[] = [];
    setAppApi(
      fakeApi({
        startBuild: async (req) => (started.push(req), status({ state: 'compressing', done: 0 })),
        getBuildStatus: async ({ buildId }) => status({ buildId, written: ['/p/out/game.mar', '/p/out/game.sar'] }),
      }),
    );
    editProject();
    editSev();
    await buildArchives();
    expect(started).toHaveLength(1);
    expect(started[0].projectPath).toBe('/p/game.actguy.json');
    expect(started[0].dryRun).toBeUndefined();
    expect(JSON.parse(started[0].projectText).motions.map((m: { name: string }) => m.name)).toEqual(['walk', 'run']);
    expect(started[0].sevTexts).toEqual([{ path: '/p/walk.sev', text: expect.stringContaining('event 6 0 1') }]);
    expect(projectStore.getState().build?.status?.state).toBe('done');
    expect(messageTexts('info')).toEqual(['Built game.mar, game.sar: 1 motions in 1.2 s.']);
  });

  it("a check is a dry run whose problems become the panel's; a check that cannot start says why", async () => {
    const started: StartBuildRequest[] = [];
    const problem = { message: 'walk.sev line 4: SE 0 is not defined', file: '/p/walk.sev', line: 4 };
    setAppApi(
      fakeApi({
        startBuild: async (req) => (started.push(req), status({ dryRun: true, state: 'failed', errors: [problem] })),
      }),
    );
    await checkProject();
    expect(started.map((r) => r.dryRun)).toEqual([true]);
    expect(started[0].sevTexts).toEqual([]);
    expect(projectStore.getState().problems).toEqual([problem]);
    setAppApi(fakeApi({ startBuild: () => Promise.reject(new Error('worker gone')) }));
    await checkProject();
    expect(projectStore.getState().problems).toEqual([{ message: 'worker gone' }]);
    expect(projectStore.getState().checking).toBe(false);
  });

  it('keeps the tolerance scales a memory budget applied beside the figures, only those other than 1', async () => {
    const motion = (name: string) => ({
      index: 0,
      name,
      totalKeys: 10,
      mt3Bytes: 400,
      mtnBytes: 4000,
      ratio: 0.1,
      maxErrorRatio: 0.9,
      maxRotationErrorDeg: 0.45,
      maxPositionError: 0.01,
      seSlots: 1,
      events: 1,
      frameCount: 30,
      fps: 30,
      resampledFromFps: null,
      speed: 1,
      durationMs: 1000,
    });
    const budget = (scales: Record<string, number>) => ({
      marBytes: 1000,
      usedBytes: 900,
      maxScale: 4,
      worstRatio: 1.5,
      limitingMotion: 'walk',
      passes: 3,
      motions: Object.entries(scales).map(([name, scale]) => ({
        name,
        scale,
        mt3Bytes: 400,
        marBytes: 416,
        worstRatio: 1,
      })),
    });
    const report = (scales: Record<string, number>) =>
      ({ budget: budget(scales) }) as unknown as NonNullable<BuildStatus['report']>;
    let next = status({
      dryRun: true,
      motions: [motion('walk'), motion('constructor')],
      report: report({ walk: 1.5, constructor: 1 }),
    });
    setAppApi(fakeApi({ startBuild: async () => next }));
    await checkProject();
    expect(projectStore.getState().scales).toEqual({ walk: 1.5 });
    expect(Object.keys(projectStore.getState().status)).toEqual(['walk', 'constructor']);
    // A check without a budget forgets the scales; so does another project.
    next = status({ dryRun: true, motions: [motion('walk')], report: null });
    await checkProject();
    expect(projectStore.getState().scales).toEqual({});
    next = status({ dryRun: true, motions: [motion('walk')], report: report({ walk: 2 }) });
    await checkProject();
    expect(projectStore.getState().scales).toEqual({ walk: 2 });
    projectStore.getState().adopt('/p/other.actguy.json', PROJECT);
    expect(projectStore.getState().scales).toEqual({});
  });
});

describe('audition sounds through the API', () => {
  it('lists the folder it is given (the first of two same-named sounds wins); a failure empties the list and says why', async () => {
    const asked: string[] = [];
    setAppApi(
      fakeApi({
        listSounds: async ({ folder }) => (
          asked.push(folder),
          {
            folder,
            sounds: [
              { name: 'SE_FOOT_L', path: `${folder}/SE_FOOT_L.wav`, byteLength: 10, extension: 'wav' },
              { name: 'SE_FOOT_L', path: `${folder}/SE_FOOT_L.ogg`, byteLength: 10, extension: 'ogg' },
            ],
          }
        ),
      }),
    );
    await loadSounds('/p/sounds');
    expect(asked).toEqual(['/p/sounds']);
    expect(projectStore.getState().soundFolder).toBe('/p/sounds');
    expect(projectStore.getState().sounds).toEqual({ SE_FOOT_L: '/p/sounds/SE_FOOT_L.wav' });
    setAppApi(fakeApi({ listSounds: () => Promise.reject(new Error('/p/gone: no such folder')) }));
    await loadSounds('/p/gone');
    expect(projectStore.getState().sounds).toEqual({});
    expect(messageTexts('error')).toEqual(['Audition folder: /p/gone: no such folder']);
  });
});

describe('saving everything (the savable parts)', () => {
  it("a motion's new .sev saved with everything is listed in the project, and the project is written with it", async () => {
    registerFeatures();
    projectStore.getState().close();
    projectStore
      .getState()
      .adopt(
        '/p/game.actguy.json',
        JSON.stringify({ version: 1, fps: 30, motions: [{ name: 'walk', mtn: 'walk.mtn' }] }),
      );
    const written: string[] = [];
    setAppApi(
      fakeApi({
        saveSev: async (req) => (written.push(req.path), { path: req.path, name: 'walk.sev', byteLength: 1 }),
        saveProject: async (req) => (
          written.push(req.path),
          { path: req.path, name: 'game.actguy.json', byteLength: 1 }
        ),
        reportDocumentState: async () => undefined,
      }),
    );
    editSev();
    expect(isProjectDirty(projectStore.getState())).toBe(false);
    expect(await saveAllAndClose({ reportDocumentState: async () => undefined }, () => undefined)).toBe(true);
    expect(written).toEqual(['/p/walk.sev', '/p/game.actguy.json']);
    expect(projectStore.getState().json!.motions[0].sev).toBe('walk.sev');
    expect(isProjectDirty(projectStore.getState())).toBe(false);
  });
});

describe('a project that does not open', () => {
  it("leaves the SEV editor on the tuner motion's .sev beside it, not 'no .sev'", async () => {
    const read: string[] = [];
    setAppApi(
      fakeApi({
        openProject: async ({ path }) => ({
          status: 'opened',
          project: { path, text: '{ "version": 1, "motions": [' },
        }),
        readProjectText: async ({ path }) => (
          read.push(path),
          { path, text: path === '/p/walk.sev' ? WALK_SEV : null }
        ),
      }),
    );
    await openProject('/q/broken.actguy.json');
    expect(projectStore.getState().json).toBeNull();
    expect(messageTexts('error').join('\n')).toMatch(/Could not read broken\.actguy\.json as a project/);
    expect(read).toContain('/p/walk.sev');
    const f = sevStore.getState().file;
    expect(f?.path).toBe('/p/walk.sev');
    expect(f?.motionName).toBe('walk');
    expect(f?.doc?.events.length).toBe(1);
  });
});
