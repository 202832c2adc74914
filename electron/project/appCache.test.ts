/**
 * Where the app's Build keeps its cache (docs/cache.md): `.actguy-cache/` in
 * the folder of a project the user picked, or inside the workspace; never
 * beside a file that is not a project, never beside a project only opened by
 * path outside the workspace (the start-up sample), never through a link.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../shared/ipc/project';
import type { DialogPort } from '../dialogPort';
import { createPathPolicy } from '../pathPolicy';
import { readInputFile } from '../build/files';
import { runBuildJob } from './buildJob';
import type { BuildJobLauncher } from './buildRunner';
import { createProjectHandlers } from './projectHandlers';
import { inProcessTextChecker } from './textCheckJob';

const ASSETS = resolve(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A copy of assets/ (one motion, to stay quick) whose outputs go inside the copy. */
function projectFolder(): { dir: string; project: string; text: string } {
  const dir = tempDir('actguy-appcache-');
  cpSync(ASSETS, dir, { recursive: true });
  const project = join(dir, 'sample.actguy.json');
  const json = JSON.parse(readFileSync(project, 'utf8'));
  json.motions = json.motions.filter((m: { name: string }) => m.name === 'walk');
  delete json.aliases;
  json.outputs = { mar: 'out/stage.mar', sar: 'out/stage.sar' };
  const text = JSON.stringify(json, null, 2);
  writeFileSync(project, text);
  return { dir, project, text };
}

const inProcess: BuildJobLauncher = (req, onMessage) => {
  setTimeout(() => runBuildJob(req, readInputFile, onMessage), 0);
  return () => {};
};

async function settle(get: () => Promise<BuildStatus>): Promise<BuildStatus> {
  for (let i = 0; i < 1500; i++) {
    const s = await get();
    if (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('build did not finish');
}

function handlers(pickNext: string[] = []) {
  const policy = createPathPolicy();
  const dialogs: DialogPort = {
    chooseFileToOpen: async () => pickNext.shift() ?? null,
    chooseFileToSave: async () => null,
    confirm: async () => false,
  };
  const h = createProjectHandlers({ policy, dialogs, launchBuild: inProcess, checkText: inProcessTextChecker });
  const build = async (projectPath: string, projectText: string, dryRun = false) => {
    const s = await h.startBuild({ projectPath, projectText, dryRun });
    return settle(() => h.getBuildStatus({ buildId: s.buildId }));
  };
  return { policy, h, build };
}

/** Every `.actguy-cache` under a folder. */
const caches = (dir: string) =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.actguy-cache'));
const entryCount = (cache: string) =>
  readdirSync(cache, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.mt3c')).length;

describe("the app's build cache", () => {
  it('a picked project keeps its cache in its own folder', async () => {
    const { dir, project, text } = projectFolder();
    const { h, build } = handlers([project]);
    await h.openProjectDialog(undefined);
    const s = await build(project, text);
    expect(s.state).toBe('done');
    expect(caches(dir)).toEqual(['.actguy-cache']);
    expect(entryCount(join(dir, '.actguy-cache'))).toBe(1);
  });

  it('a project in the workspace keeps its cache in its folder, inside the workspace', async () => {
    const { dir, project, text } = projectFolder();
    const { policy, build } = handlers();
    policy.allowTree(dir);
    expect((await build(project, text, true)).state).toBe('done');
    expect(caches(dir)).toEqual(['.actguy-cache']);
  });

  it('a project only opened by path outside the workspace (the start-up sample) writes no cache anywhere', async () => {
    const { dir, project, text } = projectFolder();
    const { policy, build } = handlers();
    for (const f of ['sample.actguy.json', 'walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
      policy.allowFile(join(dir, f));
    // A check still compresses (and reports that Build would refuse the outputs, which lie outside what was chosen).
    const s = await build(project, text, true);
    expect(s.state).toBe('failed');
    expect(s.state === 'failed' && s.errors.map((e) => e.message).join('\n')).toMatch(/refused to write/);
    expect(caches(dir)).toEqual([]);
  });

  it('a build of a file that is not a project writes no cache beside it', async () => {
    const { dir, text } = projectFolder();
    const { policy, build } = handlers();
    const ws = tempDir('actguy-ws-');
    policy.allowTree(ws);
    policy.allowTree(dir);
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'notes.sev'), 'sev 1\n');
    // Project text naming the real inputs, sent for a .sev in the workspace.
    const absolute = JSON.parse(text);
    for (const m of absolute.motions) {
      m.mtn = join(dir, m.mtn);
      if (m.sev) m.sev = join(dir, m.sev);
    }
    absolute.seTables = { sls: join(dir, 'default.sls'), seDefine: join(dir, 'se_define.h') };
    const s = await build(join(ws, 'sub', 'notes.sev'), JSON.stringify(absolute), true);
    expect(s.state).toBe('done');
    expect(caches(ws)).toEqual([]);
    expect(caches(dir)).toEqual([]);
  });

  it('a .actguy-cache that is a link out of the project folder is not followed', async () => {
    const { dir, project, text } = projectFolder();
    const outside = tempDir('actguy-outside-');
    symlinkSync(outside, join(dir, '.actguy-cache'));
    const { h, build } = handlers([project]);
    await h.openProjectDialog(undefined);
    const s = await build(project, text);
    expect(s.state).toBe('done');
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(dir, '.actguy-cache')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, 'out', 'stage.mar'))).toBe(true);
  });
});
