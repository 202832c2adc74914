/**
 * The one setup of the project handlers for tests: builds run in this process (their messages delivered
 * asynchronously, as a worker's are), a build awaited to its end, createProjectHandlers on a fresh path policy
 * with dialogs that pick what the test queues, and a copy of assets/ whose project writes inside the copy.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildStatus } from '../../shared/ipc/project';
import { readBuildInput } from '../build/files';
import type { DialogPort } from '../dialogPort';
import { createPathPolicy } from '../pathPolicy';
import { runBuildJob } from '../project/buildJob';
import type { BuildJobLauncher } from '../project/buildRunner';
import { createProjectHandlers, type ProjectHandlerContext } from '../project/projectHandlers';
import { inProcessTextChecker } from '../project/textCheckJob';
import { ASSETS, noDialogs } from './handlerHarness';

/** Runs build jobs in this process, delivering their messages asynchronously as the worker would; stoppable. */
export const inProcessBuild: BuildJobLauncher = (req, onMessage) => {
  let stopped = false;
  setTimeout(() => runBuildJob(req, readBuildInput, (m) => !stopped && onMessage(m)), 0);
  return () => {
    stopped = true;
  };
};

/** Polls a build's status until it is done, failed or cancelled; fails the test after 30 s of polling. */
export async function settleBuild(get: () => Promise<BuildStatus>): Promise<BuildStatus> {
  for (let i = 0; i < 1500; i++) {
    const s = await get();
    if (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('build did not finish');
}

/** Polls a cancelled build until its worker has ended (BuildStatus.stopped), and returns that status. */
export async function stoppedBuild(get: () => Promise<BuildStatus>): Promise<BuildStatus> {
  for (let i = 0; i < 1500; i++) {
    const s = await get();
    if (s.state !== 'cancelled') throw new Error(`the build is ${s.state}, not cancelled`);
    if (s.stopped) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the cancelled build did not stop');
}

/**
 * A fresh temporary copy of assets/ whose sample project writes its outputs inside the copy (`out/stage.mar`,
 * `out/stage.sar`); with `motions`, the project keeps only those motions and no aliases (a quicker build).
 * The caller removes `dir`.
 */
export function assetsProjectCopy(
  prefix: string,
  options: { motions?: readonly string[] } = {},
): { dir: string; project: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(ASSETS, dir, { recursive: true });
  const project = join(dir, 'sample.actguy.json');
  const json = JSON.parse(readFileSync(project, 'utf8'));
  if (options.motions) {
    json.motions = json.motions.filter((m: { name: string }) => options.motions!.includes(m.name));
    delete json.aliases;
  }
  json.outputs = { mar: 'out/stage.mar', sar: 'out/stage.sar' };
  const text = JSON.stringify(json, null, 2);
  writeFileSync(project, text);
  return { dir, project, text };
}

/**
 * createProjectHandlers on a fresh path policy, building in this process, checking texts in this process and
 * with noDialogs, unless `options` say otherwise. `pick(path)` queues the answer of the next open dialog (before
 * the dialogs' own); `openPicked(project)` opens a project the way File > Open Project does (the user picks it
 * in the dialog), which is what grants the files it names, and returns its text; `build` starts a build (or a
 * check, with `dryRun`) and waits for its end.
 */
export function testProjectHandlers(options: Partial<ProjectHandlerContext> = {}) {
  const policy = options.policy ?? createPathPolicy();
  const dialogs = options.dialogs ?? noDialogs;
  const picks: string[] = [];
  const scripted: DialogPort = {
    ...dialogs,
    chooseFileToOpen: async (o) => (picks.length ? picks.shift()! : dialogs.chooseFileToOpen(o)),
  };
  const h = createProjectHandlers({
    launchBuild: inProcessBuild,
    checkText: inProcessTextChecker,
    ...options,
    policy,
    dialogs: scripted,
  });
  const openPicked = async (project: string): Promise<string> => {
    picks.push(project);
    const r = await h.openProjectDialog(undefined);
    if (r.status !== 'opened') throw new Error('not opened');
    return r.project.text;
  };
  const build = async (projectPath: string, projectText: string, dryRun = false): Promise<BuildStatus> => {
    const s = await h.startBuild({ projectPath, projectText, dryRun });
    return settleBuild(() => h.getBuildStatus({ buildId: s.buildId }));
  };
  return { policy, h, pick: (path: string) => void picks.push(path), openPicked, build };
}
