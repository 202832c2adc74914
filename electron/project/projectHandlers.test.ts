import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../shared/ipc';
import { readMar } from '../../shared/mar/read';
import { readSar } from '../../shared/sar/read';
import { gvStrCode } from '../../shared/strcode';
import type { DialogPort } from '../dialogPort';
import { createPathPolicy } from '../pathPolicy';
import { readInputFile } from '../build/files';
import { bundleWorkerForTests } from '../compress/buildWorkerForTests';
import { runBuildJob } from './buildJob';
import type { BuildJobLauncher } from './buildRunner';
import { createProjectHandlers } from './projectHandlers';

const ASSETS = resolve(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A copy of assets/ whose project writes its outputs inside the copy. */
function workspace(): { dir: string; project: string } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-proj-'));
  dirs.push(dir);
  cpSync(ASSETS, dir, { recursive: true });
  const project = join(dir, 'sample.actguy.json');
  const json = JSON.parse(readFileSync(project, 'utf8'));
  json.outputs = { mar: 'out/stage.mar', sar: 'out/stage.sar' };
  writeFileSync(project, JSON.stringify(json, null, 2));
  return { dir, project };
}

const noDialogs: DialogPort = {
  chooseFileToOpen: async () => null,
  chooseFileToSave: async () => null,
  confirm: async () => false,
};

/** Runs jobs in-process, delivering messages asynchronously as a worker would. */
const inProcess: BuildJobLauncher = (req, onMessage) => {
  let stopped = false;
  setTimeout(() => runBuildJob(req, readInputFile, (m) => !stopped && onMessage(m)), 0);
  return () => {
    stopped = true;
  };
};

async function settle(get: () => Promise<BuildStatus>): Promise<BuildStatus> {
  for (let i = 0; i < 600; i++) {
    const s = await get();
    if (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('build did not finish');
}

function handlers(launchBuild: BuildJobLauncher = inProcess, dialogs = noDialogs) {
  const policy = createPathPolicy();
  return { policy, h: createProjectHandlers({ policy, dialogs, launchBuild }) };
}

describe('project handlers', () => {
  it('opening a project allows exactly the files it lists', async () => {
    const { dir, project } = workspace();
    const { policy, h } = handlers();
    await expect(h.openProject({ path: project })).rejects.toThrow(/refused/);
    policy.allowFile(project);
    const r = await h.openProject({ path: project });
    expect(r.status).toBe('opened');
    if (r.status === 'opened') expect(JSON.parse(r.project.text).motions.map((m: { name: string }) => m.name)).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
    const sev = await h.readProjectText({ path: join(dir, 'walk.sev') });
    expect(sev.text).toContain('se 0 SE_FOOT_L variants');
    expect((await h.readProjectText({ path: join(dir, 'default.sls') })).text).toContain('SE_FOOT_L');
    await expect(h.readProjectText({ path: join(dir, 'README.md') })).rejects.toThrow(/not a project text file/);
    expect(policy.isAllowed(join(dir, 'README.md'))).toBe(false);
  });

  it('saves a SEV atomically and refuses text with errors, leaving the file as it was', async () => {
    const { dir, project } = workspace();
    const { policy, h } = handlers();
    policy.allowFile(project);
    await h.openProject({ path: project });
    const path = join(dir, 'walk.sev');
    const before = readFileSync(path, 'utf8');
    await expect(h.saveSev({ path, text: 'sev 1\nevent 3 9 -\n' })).rejects.toThrow(/has errors; nothing was written\n.*walk\.sev:2:9: event uses undefined SE index 9/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const text = before.replace('event 66 2 -', 'event 67 2 -');
    const saved = await h.saveSev({ path, text });
    expect(saved.byteLength).toBe(Buffer.byteLength(text));
    expect(readFileSync(path, 'utf8')).toBe(text);
    // a motion's first SEV may be created beside the project, nowhere else
    await h.saveSev({ path: join(dir, 'walk_rough.sev'), text: 'sev 1\n' });
    expect(existsSync(join(dir, 'walk_rough.sev'))).toBe(true);
    await expect(h.saveSev({ path: join(tmpdir(), 'elsewhere.sev'), text: 'sev 1\n' })).rejects.toThrow(/refused/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to save an invalid project', async () => {
    const { project } = workspace();
    const { policy, h } = handlers();
    policy.allowFile(project);
    const before = readFileSync(project, 'utf8');
    await expect(h.saveProject({ path: project, text: before.replace('"walk_rough"', '"walk rough"') })).rejects.toThrow(/project has errors/);
    expect(readFileSync(project, 'utf8')).toBe(before);
  });

  it('builds the archives with progress in the real worker; the .sar events and .mar names read back', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'actguy-bw-'));
    dirs.push(outDir);
    const workerPath = await bundleWorkerForTests(resolve(__dirname, 'buildWorker.ts'), outDir);
    const { workerLauncher } = await import('./buildRunner');
    const { dir, project } = workspace();
    const { policy, h } = handlers(workerLauncher(workerPath));
    policy.allowFile(project);
    const opened = await h.openProject({ path: project });
    if (opened.status !== 'opened') throw new Error('not opened');
    // an unsaved SEV edit takes part in the build
    const sevPath = join(dir, 'walk.sev');
    const edited = readFileSync(sevPath, 'utf8').replace('event 66 2 -', 'event 66 2 -\nevent 70 2 3');
    const started = await h.startBuild({ projectPath: project, projectText: opened.project.text, sevTexts: [{ path: sevPath, text: edited }] });
    const done = await settle(() => h.getBuildStatus({ buildId: started.buildId }));
    expect(done.errors).toEqual([]);
    expect(done.state).toBe('done');
    expect(done.motions.map((m) => [m.name, m.events])).toEqual([['walk', 11], ['cmu_01_01', 30], ['walk_rough', 0], ['walk_60', 0]]);
    expect(done.motions.every((m) => m.totalKeys > 0 && m.maxErrorRatio > 0)).toBe(true);
    expect(done.written.map((p) => p.slice(dir.length + 1))).toEqual(['out/stage.mar', 'out/stage.sar', 'out/stage.report.json']);
    const mar = readMar(new Uint8Array(readFileSync(join(dir, 'out/stage.mar'))));
    const sar = readSar(new Uint8Array(readFileSync(join(dir, 'out/stage.sar'))));
    expect(mar.entries.map((e) => e.name)).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60', 'walk_slow'].map(gvStrCode)); // the alias walk_slow is the last entry
    expect(sar.entries[0].events.find((e) => e.frame === 70)).toEqual({ frame: 70, se: 2, joint: 3 });
  });

  it('an unknown SE name refuses the build and writes nothing', async () => {
    const { dir, project } = workspace();
    const { policy, h } = handlers();
    policy.allowFile(project);
    const opened = await h.openProject({ path: project });
    if (opened.status !== 'opened') throw new Error('not opened');
    const sevPath = join(dir, 'walk.sev');
    const text = readFileSync(sevPath, 'utf8').replace('se 2 SE_CLOTH_SWISH', 'se 2 SE_NOT_THERE');
    const started = await h.startBuild({ projectPath: project, projectText: opened.project.text, sevTexts: [{ path: sevPath, text }] });
    const s = await settle(() => h.getBuildStatus({ buildId: started.buildId }));
    expect(s.state).toBe('failed');
    expect(s.errors).toEqual([expect.objectContaining({ kind: 'SEV', file: sevPath, line: 15, column: 6, message: expect.stringContaining('SE name SE_NOT_THERE is not defined') })]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('a build of paths the opened project does not list is refused before anything is read', async () => {
    const { project } = workspace();
    const { policy, h } = handlers();
    policy.allowFile(project);
    const opened = await h.openProject({ path: project });
    if (opened.status !== 'opened') throw new Error('not opened');
    const text = opened.project.text.replace('"out/stage.mar"', '"/etc/evil.mar"');
    const s = await h.startBuild({ projectPath: project, projectText: text });
    expect(s.state).toBe('failed');
    expect(s.errors[0].message).toMatch(/refused to write \/etc\/evil\.mar/);
  });

  it('cancelling a build writes nothing', async () => {
    const { dir, project } = workspace();
    let deliver: (() => void) | null = null;
    const slow: BuildJobLauncher = (req, onMessage) => {
      let stopped = false;
      deliver = () => runBuildJob(req, readInputFile, (m) => !stopped && onMessage(m));
      return () => {
        stopped = true;
      };
    };
    const { policy, h } = handlers(slow);
    policy.allowFile(project);
    const opened = await h.openProject({ path: project });
    if (opened.status !== 'opened') throw new Error('not opened');
    const s = await h.startBuild({ projectPath: project, projectText: opened.project.text });
    expect(s.state).toBe('checking');
    expect((await h.cancelBuild({ buildId: s.buildId })).state).toBe('cancelled');
    deliver!();
    expect((await h.getBuildStatus({ buildId: s.buildId })).state).toBe('cancelled');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('lists and reads audition sounds only in an allowed folder', async () => {
    const { dir, project } = workspace();
    const { mkdirSync } = await import('node:fs');
    const mine = join(dir, 'mysounds');
    mkdirSync(mine);
    writeFileSync(join(mine, 'SE_CLOTH_SWISH.wav'), new Uint8Array([1, 2, 3]));
    writeFileSync(join(mine, 'notes.txt'), 'x');
    const { policy, h } = handlers(inProcess, { ...noDialogs, chooseFileToOpen: async () => join(mine, 'SE_CLOTH_SWISH.wav') });
    await expect(h.listSounds({ folder: join(dir, 'sounds') })).rejects.toThrow(/refused/);
    await expect(h.listSounds({ folder: mine })).rejects.toThrow(/refused/);
    // a project's sounds/ folder is the project's: the generated sample sounds are listed by SE name
    policy.allowFile(project);
    await h.openProject({ path: project });
    const bundled = await h.listSounds({ folder: join(dir, 'sounds') });
    expect(bundled.sounds.map((s) => s.name)).toContain('SE_FOOT_L_WATER');
    const wav = await h.readSound({ path: bundled.sounds.find((s) => s.name === 'SE_FOOT_L_WATER')!.path });
    expect(Buffer.from(wav.bytes.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    // another folder becomes allowed when the user picks a sound in it
    expect(await h.chooseProjectFileDialog({ purpose: 'sound' })).toEqual({ status: 'chosen', path: join(mine, 'SE_CLOTH_SWISH.wav') });
    const list = await h.listSounds({ folder: mine });
    expect(list.sounds.map((s) => [s.name, s.extension, s.byteLength])).toEqual([['SE_CLOTH_SWISH', 'wav', 3]]);
    expect(Array.from((await h.readSound({ path: list.sounds[0].path })).bytes)).toEqual([1, 2, 3]);
    await expect(h.readSound({ path: join(mine, 'notes.txt') })).rejects.toThrow(/not a sound file/);
  });
});

