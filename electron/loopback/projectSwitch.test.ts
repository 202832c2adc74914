/**
 * A request racing a project change, through the loopback HTTP server as a page drives it (docs/security.md, round
 * 48; round 47 tried it through the handlers only): project A opened, its Build started, project B opened while A's
 * build is in flight, and A's `out` swapped for a link to B's `out` before A's build writes. Both projects lie in the
 * workspace, every file of which the page may read and write: what keeps A's outputs out of B's folder is the build's
 * folders, pinned when it started (round 41), not the policy.
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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActGuyApi } from '../../shared/ipc/api';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import type { CompressClient } from '../compressClient';
import { loopbackDialogPort } from '../dialogPort';
import type { BuildJobLauncher } from '../project/buildRunner';
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

const PROJECT = JSON.stringify({
  version: 1,
  motions: [{ name: 'walk', mtn: 'walk.mtn' }],
  outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
});

function project(name: string): string {
  const folder = join(workspace, name);
  mkdirSync(join(folder, 'out'), { recursive: true });
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
  const handlers = testHandlers({
    app: { workspaceRoot: workspace },
    compress: {} as CompressClient,
    dialogs: loopbackDialogPort,
    launchBuild,
    checkText: inProcessTextChecker,
  });
  server = await startLoopbackServer({ rendererDir, handlers });
  api = createLoopbackClient({ baseUrl: server.origin, token: server.token });
});
afterEach(async () => {
  release();
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
});
