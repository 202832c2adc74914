/**
 * Export All's work runs in a worker of the build bundle, never on the main thread (docs/architecture.md#electron):
 * main's copies of the motion reader, the MSH fit and the GLB encoder are counted here (the worker's are its own
 * bundle's, which the counts do not see). The worker reads and makes only what main listed, and main commits only
 * the files it allowed, whatever the worker hands back.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectExportStatus } from '../../shared/ipc/project';
import { judgeFile } from '../build/files';
import { exportProject } from '../build/projectExport';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import type { DialogPort } from '../dialogPort';
import { keptWorkers, keptWorkerTalks, type OneShotEnd } from '../oneShotWorker';
import { createPathPolicy } from '../pathPolicy';
import { planExportJob, runProjectExportJob, type ProjectExportAllowed } from './projectExportJob';
import { createProjectExportHandlers } from './projectExportHandlers';
import type { BuildJobMessage } from '../project/buildJob';
import { endsBuild, workerLauncher } from '../project/buildRunner';

const onThisThread = vi.hoisted(() => ({ prepares: 0, fits: 0, glbs: 0 }));
vi.mock('../../shared/project/plan', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/project/plan')>();
  return {
    ...real,
    prepareBuild: (...args: Parameters<typeof real.prepareBuild>) => {
      onThisThread.prepares++;
      return real.prepareBuild(...args);
    },
  };
});
vi.mock('../../shared/msh/files', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/msh/files')>();
  return {
    ...real,
    fitMsh: (...args: Parameters<typeof real.fitMsh>) => {
      onThisThread.fits++;
      return real.fitMsh(...args);
    },
  };
});
vi.mock('../../shared/interchange/gltf/export', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/interchange/gltf/export')>();
  return {
    ...real,
    motionToGlb: (...args: Parameters<typeof real.motionToGlb>) => {
      onThisThread.glbs++;
      return real.motionToGlb(...args);
    },
  };
});

const workerPath = useBundledWorker(resolve(__dirname, '..', 'project', 'buildWorker.ts'));
const root = mkdtempSync(join(tmpdir(), 'actguy-export-thread-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, 'ws');
mkdirSync(workspace);
copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), join(workspace, 'walk.mtn'));
const projectPath = join(workspace, 'p.actguy.json');
const projectText = JSON.stringify({
  version: 1,
  motions: [{ name: 'walk', mtn: 'walk.mtn' }],
  aliases: [{ name: 'walk_slow', target: 'walk' }],
  outputs: { mar: 'stage.mar', sar: 'stage.sar' },
});
writeFileSync(projectPath, projectText);
let n = 0;
const freshFolder = () => {
  const d = join(workspace, `out${n++}`);
  mkdirSync(d);
  return d;
};

beforeEach(() => Object.assign(onThisThread, { prepares: 0, fits: 0, glbs: 0 }));

/** How the handlers have an export's thread (their `startWorker` seam). */
type WorkerStart = NonNullable<Parameters<typeof createProjectExportHandlers>[0]['startWorker']>;
/** A fresh thread for each export (none kept), for the tests that wrap the talk (the bundle is built before each file). */
const fresh: Pick<ReturnType<typeof keptWorkerTalks>, 'start'> = {
  start: (job, options) => keptWorkerTalks(keptWorkers(workerPath(), 0)).start(job, options),
};

function handlers(extra: Partial<Parameters<typeof createProjectExportHandlers>[0]> = {}) {
  const policy = createPathPolicy();
  policy.allowTree(workspace);
  const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
  return createProjectExportHandlers({ policy, dialogs, workerPath: workerPath(), ...extra });
}

async function exported(
  h: ReturnType<typeof handlers>,
  format: 'msh' | 'gltf',
  folder: string,
  gltfSource?: 'source' | 'compressed',
) {
  let s: ProjectExportStatus = await h.startProjectExport({
    projectPath,
    projectText,
    format,
    ...(gltfSource && { gltfSource }),
    path: join(folder, 'x.res8'),
  });
  while (s.state === 'exporting' || s.state === 'writing') {
    await new Promise((r) => setTimeout(r, 10));
    s = await h.getProjectExportStatus({ exportId: s.exportId });
  }
  return s;
}

const filesOf = (folder: string) =>
  Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(join(folder, f)))]));

describe('Export All off the main thread', () => {
  // Mutation that fails: the handler calling exportProject (or exportEntries) on its own thread.
  // Mutation that fails: the work in a thread of its own after the plan's (two starts per export, as before).
  it('reads, fits and encodes in the one worker of each export: none on this thread, and the files the CLI writes', async () => {
    const started: string[] = [];
    const startWorker: WorkerStart = (job, options) =>
      fresh.start(job, { ...options, onWorker: (w) => started.push(`thread ${w.threadId}`) });
    const h = handlers({ startWorker });
    const msh = freshFolder();
    const gl = freshFolder();
    const glc = freshFolder();
    const a = await exported(h, 'msh', msh);
    const b = await exported(h, 'gltf', gl);
    const c = await exported(h, 'gltf', glc, 'compressed');
    expect([a.state, b.state, c.state, a.errors, b.errors, c.errors]).toEqual(['done', 'done', 'done', [], [], []]);
    expect(c.gltfSource).toBe('compressed');
    expect(onThisThread).toEqual({ prepares: 0, fits: 0, glbs: 0 });
    // One thread per export, its plan and its work.
    expect(started).toHaveLength(3);
    expect(new Set(started).size).toBe(3);

    // The same bytes as the export run in this process (`actguy export-msh --project`), which these counts do see.
    const cliMsh = freshFolder();
    const cliGl = freshFolder();
    expect((await exportProject(projectPath, 'msh', cliMsh, { jobs: 1 })).ok).toBe(true);
    expect((await exportProject(projectPath, 'gltf', cliGl)).ok).toBe(true);
    expect(onThisThread.fits).toBe(1);
    expect(onThisThread.glbs).toBe(2);
    expect(Object.keys(filesOf(msh)).sort()).toEqual(
      ['walk', 'walk_slow'].flatMap((e) => [`${e}.nodes.json`, `${e}.res19`, `${e}.res8`]).sort(),
    );
    expect(filesOf(msh)).toEqual(filesOf(cliMsh));
    expect(filesOf(gl)).toEqual(filesOf(cliGl));
    // The compressed motions: the files `actguy export-gltf --project --compressed` writes, not the source's.
    const cliGlc = freshFolder();
    expect(
      (await exportProject(projectPath, 'gltf', cliGlc, { glb: { scale: 1, boneMesh: true, compressed: true } })).ok,
    ).toBe(true);
    expect(filesOf(glc)).toEqual(filesOf(cliGlc));
    expect(filesOf(glc)['walk.glb']).not.toEqual(filesOf(gl)['walk.glb']);
  });

  // Mutation that fails: the handler not handing the worker its abort signal (the worker runs on and tells its second
  // entry).
  it('Cancel once the first entry is under way terminates the worker there: cancelled, nothing written', async () => {
    const folder = freshFolder();
    let exited: Promise<number> | undefined;
    let cancel!: (press: Promise<ProjectExportStatus>) => void;
    const pressed = new Promise<Promise<ProjectExportStatus>>((r) => (cancel = r));
    const steps: string[] = [];
    const startWorker: WorkerStart = (job, options) => {
      const talk = fresh.start(job, {
        ...options,
        onWorker: (w) => (exited = new Promise((done) => w.once('exit', done))),
      });
      return {
        ...talk,
        next: (progress) =>
          talk.next((m) => {
            // The plan's turn has no steps: its one message is its answer.
            const step = progress?.(m) ?? false;
            if (step) steps.push((m as { name: string }).name);
            // Cancel as the page would, the moment the worker says it began the first entry.
            if (step && steps.length === 1) cancel(h.cancelProjectExport({ exportId: started.exportId }));
            return step;
          }),
      };
    };
    const h = handlers({ startWorker });
    const started = await h.startProjectExport({
      projectPath,
      projectText,
      format: 'msh',
      path: join(folder, 'x.res8'),
    });
    expect((await await pressed).state).toBe('cancelled');
    expect(await exited).toBeTypeOf('number');
    expect(steps).toEqual(['walk']);
    expect(readdirSync(folder)).toEqual([]);
  });

  // Mutation that fails: the thread not closed when main refuses its plan (it waits for main's answer for ever: the
  // exit never comes, the test times out).
  it("a refusal of the plan ends the export's thread, which was waiting for main's answer", async () => {
    let exited: Promise<number> | undefined;
    const startWorker: WorkerStart = (job, options) =>
      fresh.start(job, {
        ...options,
        onWorker: (w) => (exited = new Promise((done) => w.once('exit', done))),
      });
    const policy = createPathPolicy();
    // The project and its folder's outputs, but not its motion.
    policy.allowFile(projectPath);
    const folder = freshFolder();
    policy.allowTree(folder);
    const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
    const h = createProjectExportHandlers({ policy, dialogs, workerPath: workerPath(), startWorker });
    const s = await exported(h, 'gltf', folder);
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message).join('\n')).toContain('ActGuy refused to read');
    expect(await exited).toBeTypeOf('number');
    expect(readdirSync(folder)).toEqual([]);
  });

  // Mutation that fails: the handler committing answer.files as they came (no check against the plan's writes).
  it('commits only the files main allowed: a worker handing back another file has the export fail, nothing written', async () => {
    const folder = freshFolder();
    const stray = join(workspace, 'stray.glb');
    // The plan's turn runs as it would; the work's hands back a file main did not allow.
    const startWorker: WorkerStart = (job, options) => {
      const talk = fresh.start(job, options);
      let turn = 0;
      return {
        ...talk,
        next: async <T>(progress?: (m: unknown) => boolean) =>
          turn++ === 0
            ? talk.next<T>(progress)
            : ({
                end: 'answer',
                value: {
                  type: 'done',
                  files: [
                    { path: join(folder, 'walk.glb'), bytes: new Uint8Array([1]) },
                    { path: join(folder, 'walk_slow.glb'), bytes: new Uint8Array([2]) },
                    { path: stray, bytes: new Uint8Array([3]) },
                  ],
                  entries: [],
                  warnings: [],
                  inputsRead: [],
                } as T,
              } satisfies OneShotEnd<T>),
      };
    };
    const s = await exported(handlers({ startWorker }), 'gltf', folder);
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message)).toEqual(["the export's worker handed back files other than the 2 allowed"]);
    expect(readdirSync(folder)).toEqual([]);
    expect(readdirSync(workspace)).not.toContain('stray.glb');
  });

  // Mutations that fail: the job reading through readFile without its list; the job not checking the plan's writes.
  it('the job reads only the files listed and makes only the files listed', async () => {
    const folder = freshFolder();
    const { plan } = planExportJob({ projectPath, projectText, format: 'gltf', folder });
    const allowed: ProjectExportAllowed = {
      reads: [judgeFile(join(workspace, 'walk.mtn'), { check: (path) => realpathSync(path) })],
      writes: [join(folder, 'walk.glb'), join(folder, 'walk_slow.glb')],
    };
    const entries: string[] = [];
    const done = await runProjectExportJob(plan!, { jobs: 1 }, allowed, (m) => entries.push(m.name));
    expect(done.type).toBe('done');
    expect(entries).toEqual(['walk', 'walk_slow']);

    const read = vi.fn((path: string) => new Uint8Array(readFileSync(path)));
    const noRead = await runProjectExportJob(plan!, {}, { ...allowed, reads: [] }, () => {}, { readFile: read });
    expect(read).not.toHaveBeenCalled();
    expect(noRead.type === 'failed' && noRead.errors.map((e) => e.message).join('\n')).toContain(
      'ActGuy refused to read',
    );
    const noWrite = await runProjectExportJob(plan!, {}, { ...allowed, writes: [allowed.writes[0]] }, () => {}, {
      readFile: read,
    });
    expect(read).not.toHaveBeenCalled();
    expect(noWrite.type === 'failed' && noWrite.errors.map((e) => e.message)).toEqual([
      `ActGuy refused to write ${join(folder, 'walk_slow.glb')}: the app did not allow it`,
    ]);
  });
});

describe("Export All's thread is kept between exports", () => {
  // Mutations that fail: the handler closing the thread at the work's end rather than releasing it (three threads);
  // the worker keeping the files main allowed for one export for the next (the narrowed export reads walk.mtn).
  it("an export that ended on its own leaves its thread for the next, which reads only what main allowed it, none of the last one's", async () => {
    const threads = new Set<number>();
    const kept = keptWorkerTalks(keptWorkers(workerPath(), 60_000));
    let narrow = false;
    const startWorker: WorkerStart = (job, options) => {
      const talk = kept.start(job, { ...options, onWorker: (w) => threads.add(w.threadId) });
      // Main's answer as a main that allowed no read at all would send it.
      return { ...talk, send: (m) => talk.send(narrow ? { ...(m as ProjectExportAllowed), reads: [] } : m) };
    };
    const h = handlers({ startWorker });
    const a = await exported(h, 'msh', freshFolder());
    const b = await exported(h, 'gltf', freshFolder(), 'compressed');
    expect([a.state, b.state, a.errors, b.errors]).toEqual(['done', 'done', [], []]);
    expect(threads.size).toBe(1);
    narrow = true;
    const folder = freshFolder();
    const c = await exported(h, 'gltf', folder);
    expect(c.state).toBe('failed');
    expect(c.errors.map((e) => e.message).join('\n')).toContain('ActGuy refused to read');
    expect(readdirSync(folder)).toEqual([]);
    // Its failure was its own (not a crash, not a Cancel): the thread is kept still.
    narrow = false;
    const d = await exported(h, 'gltf', freshFolder());
    expect([d.state, d.errors]).toEqual(['done', []]);
    expect(threads.size).toBe(1);
    expect(onThisThread).toEqual({ prepares: 0, fits: 0, glbs: 0 });
  });
});

describe("The app's Build and Export All share one kept thread of the build bundle", () => {
  // Mutations that fail: the export holding the thread it planned in while it waits in 'confirm' (no planOnly job, no
  // release: the Build meanwhile starts a second thread); the worker not ending a planOnly job (the released thread
  // never serves the Build); the export's work not planned again (it fails for want of a plan); the launcher
  // starting threads of its own rather than taking the kept one.
  it("an export waiting for the user's answer holds no thread: a Build meanwhile takes the kept one, the export's work after it, and dispose ends it", async () => {
    const workers = keptWorkers(workerPath(), 60_000);
    const launch = workerLauncher(workers);
    const folder = freshFolder();
    const h = handlers({ workers, dialogs: { chooseFolder: async () => folder } as unknown as DialogPort });
    const started = await h.startProjectExportDialog({
      projectPath,
      projectText,
      format: 'gltf',
      defaultName: 'x.glb',
    });
    if ('status' in started) throw new Error('cancelled');
    let s = started;
    while (s.state === 'exporting') {
      await new Promise((r) => setTimeout(r, 10));
      s = await h.getProjectExportStatus({ exportId: s.exportId });
    }
    expect([s.state, s.planned?.files]).toEqual(['confirm', ['walk.glb', 'walk_slow.glb']]);
    expect(workers.started).toBe(1);
    const built = await new Promise<BuildJobMessage>((done, fail) =>
      launch(
        { projectPath, projectText, sevTexts: [], cacheDir: null },
        (m) => endsBuild(m) && done(m),
        (message) => fail(new Error(message)),
      ),
    );
    expect(built.type).toBe('done');
    expect(workers.started).toBe(1);
    s = await h.confirmProjectExport({ exportId: s.exportId });
    while (s.state === 'exporting' || s.state === 'writing') {
      await new Promise((r) => setTimeout(r, 10));
      s = await h.getProjectExportStatus({ exportId: s.exportId });
    }
    expect([s.state, s.errors]).toEqual(['done', []]);
    expect(readdirSync(folder).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
    expect(workers.started).toBe(1);
    // The one place that ends it (main.ts at quit): the next job starts a thread again.
    await workers.dispose();
    await workers.take().terminate();
    expect(workers.started).toBe(2);
  });
});

describe("Export All of the compressed motions in the app uses the project's build cache", () => {
  // Mutations that fail: the handler not handing the worker the cache main chose (every motion compressed again, no
  // cache line); the worker's job not handing it on to the export (projectExportJob.ts).
  it('as its Build: the entries it finds are reused, those it makes are kept, and the files are the same bytes', async () => {
    const cache = join(workspace, 'app-cache');
    const asked: string[] = [];
    const h = handlers({
      cacheDirOf: (path) => {
        asked.push(path);
        return cache;
      },
    });
    const cold = await exported(h, 'gltf', freshFolder(), 'compressed');
    const warmFolder = freshFolder();
    const warm = await exported(h, 'gltf', warmFolder, 'compressed');
    expect([cold.state, warm.state, cold.errors, warm.errors]).toEqual(['done', 'done', [], []]);
    expect(cold.cache).toBe('cache: 0 reused, 0 rejected, 1 compressed');
    expect(warm.cache).toBe('cache: 1 reused, 0 rejected, 0 compressed');
    // Asked for the project main allowed, as its Build asks (the canonical path).
    expect(asked).toEqual([realpathSync(projectPath), realpathSync(projectPath)]);
    const none = freshFolder();
    const noCache = await exported(handlers(), 'gltf', none, 'compressed');
    expect(noCache.cache).toBeUndefined();
    expect(filesOf(warmFolder)).toEqual(filesOf(none));
    // The source motions compress nothing: no cache asked for.
    const source = await exported(h, 'gltf', freshFolder());
    expect(source.cache).toBeUndefined();
    expect(asked).toHaveLength(2);
  });
});

describe("Export All judges a motion replaced after main's judgement again, once (round 45)", () => {
  const walk = join(workspace, 'walk.mtn');
  /** A Save as ActGuy's and most editors' make it: a new file written beside, renamed over the old. */
  const savedByRename = () => {
    copyFileSync(walk, `${walk}.new`);
    renameSync(`${walk}.new`, walk);
  };

  /** Exports with `swap` made before each of main's first `times` answers about reads reaches the thread. */
  async function exportSwapping(times: number, swap: () => void) {
    const answers: unknown[] = [];
    const startWorker: WorkerStart = (job, options) => {
      const talk = fresh.start(job, options);
      return {
        ...talk,
        send: (m: unknown) => {
          if (m && typeof m === 'object' && 'reads' in m) {
            answers.push((m as { reads: unknown }).reads);
            if (answers.length <= times) swap();
          }
          talk.send(m);
        },
      };
    };
    const folder = freshFolder();
    const s = await exported(handlers({ startWorker }), 'gltf', folder);
    return { s, answers, folder, errors: s.errors.map((e) => e.message).join('\n') };
  }

  // Mutation that fails: the thread given no answer to its question (round 44's export: failed, "replaced").
  it('a motion saved over by renaming after Export All judged it is judged again, and exported', async () => {
    const { s, answers, folder } = await exportSwapping(1, savedByRename);
    expect(s.errors).toEqual([]);
    expect(s.state).toBe('done');
    expect(answers.map((a) => Array.isArray(a))).toEqual([true, true]);
    expect(readdirSync(folder).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
  });

  // Mutation that fails: main answering a link judged as nothing with its judgement (a null identity) rather than with
  // none (the second answer is then a list).
  it('once only, and never for a link to a file the policy refuses', async () => {
    const again = await exportSwapping(5, savedByRename);
    expect(again.s.state).toBe('failed');
    expect(again.answers.length).toBe(2);
    expect(again.errors).toContain(`cannot read ${walk}: it was replaced after ActGuy checked it`);
    expect(readdirSync(again.folder)).toEqual([]);

    const outside = mkdtempSync(join(tmpdir(), 'actguy-export-outside-'));
    writeFileSync(join(outside, 'secret.mtn'), readFileSync(walk));
    try {
      const linked = await exportSwapping(1, () => {
        renameSync(walk, `${walk}.aside`);
        symlinkSync(join(outside, 'secret.mtn'), walk);
      });
      expect(linked.s.state).toBe('failed');
      expect(linked.answers).toEqual([expect.any(Array), null]);
      expect(readdirSync(linked.folder)).toEqual([]);
    } finally {
      rmSync(walk, { force: true });
      renameSync(`${walk}.aside`, walk);
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
