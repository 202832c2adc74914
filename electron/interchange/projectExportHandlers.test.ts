/**
 * Project › Export All in main (projectExportHandlers.ts): the page names what is read and written, so both pass the
 * path policy; Cancel before the commit leaves nothing written; a finished export lists every file with its size.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ProjectExportStatus } from '../../shared/ipc/project';
import type { DialogPort } from '../dialogPort';
import { createPathPolicy } from '../pathPolicy';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { keptWorkers, keptWorkerTalks } from '../oneShotWorker';
import { createProjectExportHandlers } from './projectExportHandlers';

// The work runs in the build bundle's worker, built here as scripts/build.mjs builds it.
const workerPath = useBundledWorker(resolve(__dirname, '..', 'project', 'buildWorker.ts'));

const root = mkdtempSync(join(tmpdir(), 'actguy-export-all-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, 'ws');
const outside = join(root, 'outside');
mkdirSync(workspace);
mkdirSync(outside);
// The picker names a file in a folder that exists (the policy refuses a path in one that does not).
for (const d of ['gl', 'm', 'c']) mkdirSync(join(workspace, d));
copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), join(workspace, 'walk.mtn'));
copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), join(outside, 'secret.mtn'));
const projectPath = join(workspace, 'p.actguy.json');
const text = (mtn: string) =>
  JSON.stringify({
    version: 1,
    motions: [{ name: 'walk', mtn }],
    aliases: [{ name: 'walk_slow', target: 'walk' }],
    outputs: { mar: 'stage.mar', sar: 'stage.sar' },
  });
writeFileSync(projectPath, text('walk.mtn'));

/** How the handlers have an export's thread (their `startWorker` seam). */
type WorkerStart = NonNullable<Parameters<typeof createProjectExportHandlers>[0]['startWorker']>;
/** A fresh thread for each export (none kept), for the tests that wrap the talk (the bundle is built before each file). */
const fresh: { start: WorkerStart } = {
  start: (job, options) => keptWorkerTalks(keptWorkers(workerPath(), 0)).start(job, options),
};

function handlers(extra: Partial<Parameters<typeof createProjectExportHandlers>[0]> = {}) {
  const policy = extra.policy ?? createPathPolicy();
  policy.allowTree(workspace);
  const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
  return createProjectExportHandlers({ policy, dialogs, workerPath: workerPath(), ...extra });
}

async function finished(h: ReturnType<typeof handlers>, s: ProjectExportStatus): Promise<ProjectExportStatus> {
  while (s.state === 'exporting' || s.state === 'writing') {
    await new Promise((r) => setTimeout(r, 10));
    s = await h.getProjectExportStatus({ exportId: s.exportId });
  }
  return s;
}

/**
 * Export All as glTF through the dialog (the offered name walk.glb), until it ends or, on the desktop path (a folder
 * dialog), waits for the page's answer before any work (tried cold, round 19).
 */
async function settledByDialog(h: ReturnType<typeof handlers>): Promise<ProjectExportStatus> {
  const started = await h.startProjectExportDialog({
    projectPath,
    projectText: text('walk.mtn'),
    format: 'gltf',
    defaultName: 'walk.glb',
  });
  if ('status' in started) throw new Error('cancelled');
  return finished(h, started);
}

/** The same to its end, a wait for the page's answer answered Export. */
async function exportedByDialog(h: ReturnType<typeof handlers>): Promise<ProjectExportStatus> {
  const settled = await settledByDialog(h);
  if (settled.state !== 'confirm') return settled;
  return finished(h, await h.confirmProjectExport({ exportId: settled.exportId }));
}

describe('Export All in main', () => {
  it('exports every entry into the folder of the named file and lists each file with its size', async () => {
    const h = handlers();
    const s = await finished(
      h,
      await h.startProjectExport({
        projectPath,
        projectText: text('walk.mtn'),
        format: 'gltf',
        path: join(workspace, 'gl', 'x.glb'),
      }),
    );
    expect(s.errors.map((e) => e.message)).toEqual([]);
    expect(s.state).toBe('done');
    expect(s.written.map((e) => [e.name, e.of, e.files.map((f) => f.path)])).toEqual([
      ['walk', undefined, [join(workspace, 'gl', 'walk.glb')]],
      ['walk_slow', 'walk', [join(workspace, 'gl', 'walk_slow.glb')]],
    ]);
    expect(s.written[0].files[0].bytes).toBeGreaterThan(1000);
  });

  // Tried cold, round 18: the desktop app named a file to choose a folder. Mutations that fail: the folder port left
  // unused (the save dialog asked); the folder's answer not granted (the export refused outside the workspace); the
  // offered entry's name not joined (the files' folder is the chosen one's parent).
  it("the dialog asks for a folder where the port has one; its answer grants that folder's files", async () => {
    const chosenFolder = join(root, 'chosen');
    mkdirSync(chosenFolder);
    const asked: unknown[] = [];
    const dialogs = {
      chooseFileToSave: async () => {
        throw new Error('a file was asked for');
      },
      chooseFolder: async (o: unknown) => (asked.push(o), chosenFolder),
    } as unknown as DialogPort;
    const h = handlers({ dialogs });
    // It waits for the page's answer before any work (round 19), then goes on.
    const waiting = await settledByDialog(h);
    expect(waiting.state).toBe('confirm');
    const s = await finished(h, await h.confirmProjectExport({ exportId: waiting.exportId }));
    expect(asked).toEqual([
      {
        title: 'Export All as glTF: choose the folder to export into (every motion gets its .glb)',
        buttonLabel: 'Export Here',
        defaultPath: workspace,
      },
    ]);
    expect([s.state, s.folder, s.errors]).toEqual(['done', chosenFolder, []]);
    expect(readdirSync(chosenFolder).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
    // Cancelled: nothing starts.
    const none = handlers({ dialogs: { ...dialogs, chooseFolder: async () => null } as DialogPort });
    expect(await none.startProjectExportDialog({ projectPath, projectText: text('walk.mtn'), format: 'msh' })).toEqual({
      status: 'cancelled',
    });
  });

  // Round 9: the confirmed export's work plans again (its thread went back while the user read the files). Mutation
  // that fails: the work going on from a second plan that names other files than those shown.
  it('a confirmed export whose work plans other files than those shown writes nothing', async () => {
    const chosenFolder = join(root, 'chosen-replanned');
    mkdirSync(chosenFolder);
    let jobs = 0;
    const startWorker: WorkerStart = (job, options) => {
      const talk = fresh.start(job, options);
      if (++jobs === 1) return talk;
      // The second job's plan, as a thread that answered otherwise would give it: one file fewer.
      const next = (async (progress?: (message: unknown) => boolean) => {
        const end = await talk.next(progress);
        if (end.end !== 'answer') return end;
        const v = end.value as { type: string; outline?: { writes: string[] } };
        if (v.type !== 'planned' || !v.outline) return end;
        return { ...end, value: { ...v, outline: { ...v.outline, writes: v.outline.writes.slice(1) } } };
      }) as typeof talk.next;
      return { ...talk, next };
    };
    const h = handlers({ startWorker, dialogs: { chooseFolder: async () => chosenFolder } as unknown as DialogPort });
    const waiting = await settledByDialog(h);
    expect(waiting.state).toBe('confirm');
    const s = await finished(h, await h.confirmProjectExport({ exportId: waiting.exportId }));
    expect([s.state, s.errors.map((e) => e.message)]).toEqual([
      'failed',
      ["the export's worker planned other files than those you confirmed; nothing was written"],
    ]);
    expect(jobs).toBe(2);
    expect(readdirSync(chosenFolder)).toEqual([]);
  });

  // Round 11 (maintainer's read). Mutation that fails: the confirm wait's abort listener not removed once confirmed (it
  // stayed on the export's signal for the export's life, and with its entry after).
  it("the wait for the page's answer takes its listener off the export's signal once answered", async () => {
    const chosenFolder = join(root, 'chosen-listeners');
    mkdirSync(chosenFolder);
    const heard: number[] = [];
    const startWorker: WorkerStart = (job, options) => {
      // Each job's start: the listeners on the export's signal before its thread adds its own.
      heard.push(getEventListeners(options.signal, 'abort').length);
      return fresh.start(job, options);
    };
    const h = handlers({ startWorker, dialogs: { chooseFolder: async () => chosenFolder } as unknown as DialogPort });
    const waiting = await settledByDialog(h);
    expect(waiting.state).toBe('confirm');
    const s = await finished(h, await h.confirmProjectExport({ exportId: waiting.exportId }));
    expect([s.state, s.errors]).toEqual(['done', []]);
    // The plan's job and the work's: neither finds a listener left by what ran before it.
    expect(heard).toEqual([0, 0]);
  });

  // Round 44: the file named in the chosen folder is the app's name, not the user's: a link there (a received folder's
  // walk.glb leading to the user's own file) granted where it led, for the rest of the session, as a save dialog's
  // answer is granted. Mutation that fails: the folder's files granted as a save dialog's answer (allowDialogAnswer).
  it("a link at an entry's name in the chosen folder grants nothing where it leads, and is not written through", async () => {
    const chosenFolder = join(root, 'chosen-link');
    mkdirSync(chosenFolder);
    mkdirSync(join(root, 'home'));
    const secret = join(root, 'home', 'notes.txt');
    writeFileSync(secret, 'mine');
    symlinkSync(secret, join(chosenFolder, 'walk.glb'));
    const policy = createPathPolicy();
    policy.allowTree(workspace);
    const dialogs = { chooseFolder: async () => chosenFolder } as unknown as DialogPort;
    const h = handlers({ dialogs, policy });
    const s = await exportedByDialog(h);
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message).join('\n')).toContain(`${join(chosenFolder, 'walk.glb')}`);
    expect(policy.isAllowed(secret)).toBe(false);
    expect(readdirSync(chosenFolder)).toEqual(['walk.glb']);
    expect(readFileSync(secret, 'utf8')).toBe('mine');
  });

  // Round 47 (docs/security.md): a link to nothing at an entry's name was replaced by the export without a word, the
  // link lost. Mutation that fails: otherKindProblem without its dangling look (done, the link replaced by a file).
  it("a link to nothing at an entry's name is refused naming it, glTF and MSH; nothing is written", async () => {
    for (const [format, name] of [
      ['gltf', 'walk_slow.glb'],
      ['msh', 'walk_slow.res8'],
    ] as const) {
      const folder = join(workspace, `dangling-${format}`);
      mkdirSync(folder);
      symlinkSync('gone', join(folder, name));
      const h = handlers();
      const s = await finished(
        h,
        await h.startProjectExport({ projectPath, projectText: text('walk.mtn'), format, path: join(folder, 'x') }),
      );
      expect(s.state).toBe('failed');
      // Refused by the policy's write check before the work since round 50 (by the commit after it before).
      expect(s.errors.map((e) => e.message).join('\n')).toContain(
        `(export folder): ActGuy refused to access ${join(folder, name)}: it is a symbolic link to gone, which is not there;`,
      );
      expect(readdirSync(folder)).toEqual([name]);
      expect(readlinkSync(join(folder, name))).toBe('gone');
    }
  });

  // Round 44: the page names the project; the folder dialog started in its folder before the policy was asked, so a
  // page could open it anywhere (and have that folder remembered for the next dialogs). Mutation that fails: the
  // project's check after the dialog.
  it('a project path the policy refuses is refused before any dialog is shown', async () => {
    const asked: unknown[] = [];
    const dialogs = { chooseFolder: async (o: unknown) => (asked.push(o), null) } as unknown as DialogPort;
    const h = handlers({ dialogs });
    await expect(
      h.startProjectExportDialog({ projectPath: join(outside, 'x.actguy.json'), projectText: '{}', format: 'msh' }),
    ).rejects.toThrow(/not a file you chose/);
    expect(asked).toEqual([]);
  });

  // Tried cold, round 19: the desktop app's folder dialog says nothing of the files written there, so the export
  // waits, its files and those it replaces named, for the page's answer. Mutations that fail: the wait left out
  // (files written unasked); presentNames not asked (no replaced names); the abort not ending the wait (Cancel
  // writes); confirmProjectExport not resolving the wait; the wait asked of the browser build's path too.
  it('the desktop path names the files it writes and replaces, and writes nothing until confirmed', async () => {
    const chosenFolder = join(root, 'asked');
    mkdirSync(chosenFolder);
    const dialogs = { chooseFolder: async () => chosenFolder } as unknown as DialogPort;
    const h = handlers({ dialogs });
    const req = { projectPath, projectText: text('walk.mtn'), format: 'gltf' as const };
    const files = ['walk.glb', 'walk_slow.glb'];
    let s = await settledByDialog(h);
    expect([s.state, s.folder, s.planned]).toEqual(['confirm', chosenFolder, { files, replaced: [] }]);
    // Polled again, it still waits: nothing is written.
    expect((await h.getProjectExportStatus({ exportId: s.exportId })).state).toBe('confirm');
    expect(readdirSync(chosenFolder)).toEqual([]);
    // Cancel: nothing written, and it cannot be confirmed afterwards.
    expect((await h.cancelProjectExport({ exportId: s.exportId })).state).toBe('cancelled');
    await expect(h.confirmProjectExport({ exportId: s.exportId })).rejects.toThrow(
      'confirmProjectExport: the export is cancelled, not waiting for an answer',
    );
    expect(readdirSync(chosenFolder)).toEqual([]);
    // A new export cancels one left waiting (its page gone).
    const left = await settledByDialog(h);
    s = await settledByDialog(h);
    expect((await h.getProjectExportStatus({ exportId: left.exportId })).state).toBe('cancelled');
    // Confirmed: written.
    const going = await h.confirmProjectExport({ exportId: s.exportId });
    expect(going.state).toBe('exporting');
    s = await finished(h, going);
    expect([s.state, s.errors]).toEqual(['done', []]);
    expect(readdirSync(chosenFolder).sort()).toEqual(files);
    // Again: both are there already and would be replaced; cancelled, they are as they were.
    const before = readFileSync(join(chosenFolder, 'walk.glb'));
    s = await settledByDialog(h);
    expect(s.planned).toEqual({ files, replaced: files });
    await h.cancelProjectExport({ exportId: s.exportId });
    expect(readFileSync(join(chosenFolder, 'walk.glb')).equals(before)).toBe(true);
    // The page's own picker has said it (startProjectExport, the browser build): no wait.
    const direct = await finished(h, await h.startProjectExport({ ...req, path: join(workspace, 'gl', 'y.glb') }));
    expect(direct.state).toBe('done');
  });

  // Mutations that fail: gltfSource taken from an MSH request; any value taken as the source.
  it('takes the source or the compressed motion for glTF only, the source when not said', async () => {
    const h = handlers();
    const req = { projectPath, projectText: text('walk.mtn'), path: join(workspace, 'gl', 'x.glb') };
    await expect(h.startProjectExport({ ...req, format: 'msh', gltfSource: 'compressed' })).rejects.toThrow(
      'startProjectExport: gltfSource applies to the glTF export only',
    );
    await expect(h.startProjectExport({ ...req, format: 'gltf', gltfSource: 'mt3' as never })).rejects.toThrow(
      'startProjectExport: gltfSource must be "source" or "compressed"',
    );
    const s = await finished(h, await h.startProjectExport({ ...req, format: 'gltf' }));
    expect([s.state, s.gltfSource]).toEqual(['done', 'source']);
    expect(readdirSync(join(workspace, 'gl')).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
  });

  it('refuses to write outside what the policy allows, and to read a file it does not allow; nothing is written', async () => {
    const h = handlers();
    const out = await finished(
      h,
      await h.startProjectExport({
        projectPath,
        projectText: text('walk.mtn'),
        format: 'msh',
        path: join(outside, 'walk.res8'),
      }),
    );
    expect(out.state).toBe('failed');
    expect(out.errors[0].message).toContain('walk.res8');
    const read = await finished(
      h,
      await h.startProjectExport({
        projectPath,
        projectText: text('../outside/secret.mtn'),
        format: 'msh',
        path: join(workspace, 'm', 'walk.res8'),
      }),
    );
    expect(read.state).toBe('failed');
    expect(read.errors.map((e) => e.message).join('\n')).toContain('ActGuy refused to read');
    expect(readdirSync(outside)).toEqual(['secret.mtn']);
    expect(readdirSync(join(workspace, 'm'))).toEqual([]);
  });

  it('Cancel before the commit: the export says cancelled and nothing is written', async () => {
    const h = handlers();
    const started = await h.startProjectExport({
      projectPath,
      projectText: text('walk.mtn'),
      format: 'msh',
      path: join(workspace, 'c', 'walk.res8'),
    });
    const cancelled = await h.cancelProjectExport({ exportId: started.exportId });
    expect(cancelled.state).toBe('cancelled');
    expect(readdirSync(join(workspace, 'c'))).toEqual([]);
  });

  // Round 10 of the maintainer's read (docs/architecture.md). Mutations that fail: Cancel waiting by polling, as before
  // (a timer set at each turn); Cancel not waiting for the export's end (it answers 'exporting').
  it("Cancel answers once the export's run has ended, on that end, not on a timer", async () => {
    let stopped = 0;
    // A thread that works until it is cancelled: its end comes only from the abort.
    const startWorker: WorkerStart = (_job, { signal }) => {
      const cancelled = new Promise<{ end: 'cancelled' }>((resolve) =>
        signal.addEventListener('abort', () => {
          stopped++;
          resolve({ end: 'cancelled' });
        }),
      );
      return { next: () => cancelled as never, send: () => undefined, close: () => undefined };
    };
    const h = handlers({ startWorker });
    const started = await h.startProjectExport({
      projectPath,
      projectText: text('walk.mtn'),
      format: 'msh',
      path: join(workspace, 'c', 'walk.res8'),
    });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const cancelled = await h.cancelProjectExport({ exportId: started.exportId });
      expect([cancelled.state, stopped]).toEqual(['cancelled', 1]);
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  // Round 10 of the maintainer's read. Mutation that fails: the export not saying it is past cancelling as its commit
  // starts (Cancel then waited for the commit's end, and answered 'failed' here, not 'writing').
  it('Cancel during the commit answers at once that it is writing; the commit goes on, all or nothing', async () => {
    const folder = join(workspace, 'c-commit');
    mkdirSync(folder);
    let reachedCommit!: () => void;
    const atCommit = new Promise<void>((resolve) => (reachedCommit = resolve));
    const holds: ((e: Error) => void)[] = [];
    // The commit's writes are held, then fail: nothing is written.
    const commit = {
      fs: {
        writeAsync: () => {
          reachedCommit();
          return new Promise<never>((_, reject) => holds.push(reject));
        },
      },
    };
    const h = handlers({ workers: keptWorkers(workerPath(), 0), commit });
    const started = await h.startProjectExport({
      projectPath,
      projectText: text('walk.mtn'),
      format: 'msh',
      path: join(folder, 'walk.res8'),
    });
    await atCommit;
    const answer = h.cancelProjectExport({ exportId: started.exportId });
    // Let the writes fail only after every step already due has run: Cancel has answered by then.
    setImmediate(() => holds.splice(0).forEach((fail) => fail(new Error('stand-in: the disk is full'))));
    expect((await answer).state).toBe('writing');
    const s = await finished(h, await h.getProjectExportStatus({ exportId: started.exportId }));
    expect(s.state).toBe('failed');
    expect(readdirSync(folder)).toEqual([]);
  });

  // Round 43 (docs/security.md). Mutation that fails: the job's reads handed over without what main judged (the
  // worker reading by name, `readBuildInput(path, as)`): the export reads the other user's file and is done.
  it("a motion swapped for a link between main's check and the worker's read is not read: failed, nothing written", async () => {
    const folder = join(workspace, 'swap');
    mkdirSync(folder);
    const victim = join(workspace, 'run.mtn');
    copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), victim);
    const project = JSON.stringify({
      version: 1,
      motions: [{ name: 'run', mtn: 'run.mtn' }],
      outputs: { mar: 'stage.mar', sar: 'stage.sar' },
    });
    // The plan is judged as it would be; right before the work's worker starts, whoever may write the project's
    // folder puts a link to a file the policy refuses at the motion's name (the thread plans first, then main tells
    // it what it may read: the swap comes between main's judgement and that message).
    // Once: main's answer to the thread's question since round 45 (the link judged as nothing) is sent too.
    let swapped = false;
    const startWorker: WorkerStart = (job, options) => {
      const talk = fresh.start(job, options);
      return {
        ...talk,
        send: (message) => {
          if (!swapped) {
            swapped = true;
            renameSync(victim, `${victim}.aside`);
            symlinkSync(join(outside, 'secret.mtn'), victim);
          }
          talk.send(message);
        },
      };
    };
    const h = handlers({ startWorker });
    const s = await finished(
      h,
      await h.startProjectExport({ projectPath, projectText: project, format: 'gltf', path: join(folder, 'x.glb') }),
    );
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message).join('\n')).toContain(
      `cannot read ${victim}: it was replaced after ActGuy checked it (another file, or a link to one, is at its name now), so it was not read`,
    );
    expect(readdirSync(folder)).toEqual([]);
    // The file as it was is read: the same export without the swap is done.
    rmSync(victim);
    renameSync(`${victim}.aside`, victim);
    const h2 = handlers();
    const again = await finished(
      h2,
      await h2.startProjectExport({ projectPath, projectText: project, format: 'gltf', path: join(folder, 'x.glb') }),
    );
    expect(again.errors).toEqual([]);
    expect(readdirSync(folder)).toEqual(['run.glb']);
  });
});
