/**
 * A request racing a project change, through the loopback HTTP server as a page drives it (docs/security.md, round
 * 48; round 47 tried it through the handlers only): project A opened, its Build started, project B opened while A's
 * build is in flight, and A's `out` swapped for a link to B's `out` before A's build writes. Both projects lie in the
 * workspace, every file of which the page may read and write: what keeps A's outputs out of B's folder is the build's
 * folders, pinned when it started (round 41), not the policy. Round 51: Export All the same, its commit held at its
 * first temp's write (after main checked and pinned the folder) while B is opened and A's folder swapped.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { promises as fsPromises } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActGuyApi } from '../../shared/ipc/api';
import type { ProjectExportStatus } from '../../shared/ipc/project';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import type { CommitFs } from '../build/commit';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import type { CompressClient } from '../compressClient';
import { loopbackDialogPort } from '../dialogPort';
import type { BuildJobLauncher } from '../project/buildRunner';
import { keptWorkers } from '../oneShotWorker';
import { inProcessTextChecker } from '../project/textCheckJob';
import { SAMPLE_MTN, testHandlers } from '../testing/handlerHarness';
import { inProcessBuild, settleBuild } from '../testing/projectHarness';
import { startLoopbackServer, type LoopbackServer } from './server';

let dir: string;
let workspace: string;
let server: LoopbackServer;
let api: ActGuyApi;
/** Resolves when a build job is launched; the job runs only once `release` is called. */
let launched: Promise<void>;
let release: () => void;
/** Resolves when an export's commit writes its first temp; the write goes on only once `releaseWrite` is called. */
let writing: Promise<void>;
let releaseWrite: () => void;

// Export All's work runs in the build bundle's thread, built here as scripts/build.mjs builds it.
const workerPath = useBundledWorker(resolve(__dirname, '..', 'project', 'buildWorker.ts'));

const PROJECT = JSON.stringify({
  version: 1,
  motions: [{ name: 'walk', mtn: 'walk.mtn' }],
  outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
});

function project(name: string): string {
  const folder = join(workspace, name);
  mkdirSync(join(folder, 'out'), { recursive: true });
  mkdirSync(join(folder, 'ex'));
  copyFileSync(SAMPLE_MTN, join(folder, 'walk.mtn'));
  writeFileSync(join(folder, 'p.actguy.json'), PROJECT);
  return join(folder, 'p.actguy.json');
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-switch-'));
  workspace = join(dir, 'workspace');
  const rendererDir = join(dir, 'renderer');
  mkdirSync(workspace);
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  let onLaunch = (): void => undefined;
  launched = new Promise<void>((r) => (onLaunch = r));
  const held = new Promise<void>((r) => (release = r));
  // The build job waits until released: the test acts while it is in flight, with no timing involved.
  const launchBuild: BuildJobLauncher = (req, onMessage, onCrash) => {
    onLaunch();
    let stop: (() => void | Promise<void>) | undefined;
    let stopped = false;
    void held.then(() => {
      if (!stopped) stop = inProcessBuild(req, onMessage, onCrash);
    });
    return () => {
      stopped = true;
      return stop?.();
    };
  };
  let onWrite = (): void => undefined;
  writing = new Promise<void>((r) => (onWrite = r));
  const writeHeld = new Promise<void>((r) => (releaseWrite = r));
  // Export All's commit (the app's, commitOutputsAsync) writes its temps off the main thread: the first waits.
  const exportFs: Partial<CommitFs> = {
    writeAsync: async (p, d, o) => {
      onWrite();
      await writeHeld;
      await fsPromises.writeFile(p, d instanceof Uint8Array ? d : Buffer.concat(d), { flag: o?.flag, mode: o?.mode });
    },
  };
  const handlers = testHandlers({
    app: { workspaceRoot: workspace },
    compress: {} as CompressClient,
    dialogs: loopbackDialogPort,
    launchBuild,
    checkText: inProcessTextChecker,
    buildWorkers: keptWorkers(workerPath(), 0),
    mshCommit: { fs: exportFs },
  });
  server = await startLoopbackServer({ rendererDir, handlers });
  api = createLoopbackClient({ baseUrl: server.origin, token: server.token });
});
afterEach(async () => {
  release();
  releaseWrite();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a project change while a request on the previous project is in flight (loopback HTTP)', () => {
  // Mutation that fails: startBuild (projectHandlers.ts) without `folders` (A's outputs are written into B's out).
  it("A's build writes nothing into B's folder when A's out is swapped for a link to it after B is opened", async () => {
    const a = project('A');
    const b = project('B');
    const openedA = await api.openProject({ path: a });
    if (openedA.status !== 'opened') throw new Error('A not opened');
    const started = await api.startBuild({ projectPath: a, projectText: openedA.project.text });
    await launched;
    const openedB = await api.openProject({ path: b });
    expect(openedB.status).toBe('opened');
    renameSync(join(workspace, 'A', 'out'), join(workspace, 'A', 'aside'));
    symlinkSync(join(workspace, 'B', 'out'), join(workspace, 'A', 'out'));
    release();
    const ended = await settleBuild(() => api.getBuildStatus({ buildId: started.buildId }));
    expect(ended.state).toBe('failed');
    expect(ended.errors.map((e) => e.message).join('\n')).toMatch(/changed after it was checked/);
    expect(readdirSync(join(workspace, 'B', 'out'))).toEqual([]);
    expect(readdirSync(join(workspace, 'A', 'aside'))).toEqual([]);
    // B's own build, started after, writes into B's out as B's.
    const built = await api.startBuild({ projectPath: b, projectText: PROJECT });
    const bEnded = await settleBuild(() => api.getBuildStatus({ buildId: built.buildId }));
    expect(bEnded.state).toBe('done');
    expect(readdirSync(join(workspace, 'B', 'out')).sort()).toEqual(['stage.mar', 'stage.report.json', 'stage.sar']);
    expect(existsSync(join(workspace, 'A', 'aside', 'stage.mar'))).toBe(false);
  });

  // Round 51 (round 50's open item 1). Mutation that fails: run (projectExportHandlers.ts) committing without
  // `folders` (A's export done, its walk.glb written into B's ex).
  it("A's Export All writes nothing into B's folder when A's folder is swapped for a link to it after B is opened", async () => {
    const a = project('A');
    const b = project('B');
    const openedA = await api.openProject({ path: a });
    if (openedA.status !== 'opened') throw new Error('A not opened');
    const exportOf = (path: string, folder: string) =>
      api.startProjectExport({ projectPath: path, projectText: PROJECT, format: 'gltf', path: join(folder, 'x.glb') });
    const settle = async (s: ProjectExportStatus): Promise<ProjectExportStatus> => {
      for (let i = 0; i < 3000 && (s.state === 'exporting' || s.state === 'writing'); i++) {
        await new Promise((r) => setTimeout(r, 20));
        s = await api.getProjectExportStatus({ exportId: s.exportId });
      }
      return s;
    };
    const started = await exportOf(a, join(workspace, 'A', 'ex'));
    // Its commit has begun (main checked the folder and pinned it); B is opened, and A's ex becomes a link to B's.
    await writing;
    const openedB = await api.openProject({ path: b });
    expect(openedB.status).toBe('opened');
    renameSync(join(workspace, 'A', 'ex'), join(workspace, 'A', 'aside'));
    symlinkSync(join(workspace, 'B', 'ex'), join(workspace, 'A', 'ex'));
    releaseWrite();
    const ended = await settle(started);
    expect(ended.state).toBe('failed');
    expect(ended.errors.map((e) => e.message).join('\n')).toMatch(/changed after it was checked/);
    expect(readdirSync(join(workspace, 'B', 'ex'))).toEqual([]);
    expect(readdirSync(join(workspace, 'A', 'aside'))).toEqual([]);
    // B's own Export All, started after, writes into B's ex.
    const bEnded = await settle(await exportOf(b, join(workspace, 'B', 'ex')));
    expect([bEnded.state, bEnded.errors]).toEqual(['done', []]);
    expect(readdirSync(join(workspace, 'B', 'ex'))).toEqual(['walk.glb']);
    expect(readdirSync(join(workspace, 'A', 'aside'))).toEqual([]);
  });
});
