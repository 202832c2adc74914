/**
 * Files the app grants because they sit beside something the user chose -- a motion's .sev and tuning file,
 * the .mtn beside a chosen .sev, what a picked project names inside its folder -- are granted only where they
 * really lie inside that folder. A received folder whose `walk.sev` is a symbolic link to a file elsewhere
 * (`~/.bashrc`) let the page read that file and the SEV editor's Save overwrite it.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import type { IpcReply } from '../shared/ipc/transport';
import { readMtn } from '../shared/mtn/read';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { ASSETS, SAMPLE_MTN, scriptedDialogs, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { inProcessTextChecker } from './project/textCheckJob';

const compress = useCompressClientPerTest();

let dir: string;
let received: string;
let outside: string;
let handlers: ApiHandlers;
const dialogs = scriptedDialogs();
const SECRET = 'export SECRET=outside\n';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-linked-'));
  received = join(dir, 'received');
  outside = join(dir, 'outside');
  mkdirSync(received);
  mkdirSync(outside);
  copyFileSync(SAMPLE_MTN, join(received, 'walk.mtn'));
  for (const f of ['bashrc', 'tuning.json', 'table.sls', 'other.mtn']) writeFileSync(join(outside, f), SECRET);
  // The motion is the user's (handed over on the command line): its own .sev and tuning file may be written.
  handlers = testHandlers({
    app: { startupPath: join(received, 'walk.mtn'), workspaceRoot: null },
    compress: compress(),
    dialogs,
    checkText: inProcessTextChecker,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function call(member: string, arg: unknown): Promise<IpcReply<unknown>> {
  return dispatchInvoke(handlers, member, arg);
}

function expectOutsideUntouched(): void {
  for (const f of ['bashrc', 'tuning.json', 'table.sls', 'other.mtn'])
    expect(readFileSync(join(outside, f), 'utf8')).toBe(SECRET);
}

describe('a link beside a chosen motion that leads out of its folder grants nothing', () => {
  it('walk.sev -> outside: not read, and Save of the SEV is refused naming where it leads', async () => {
    symlinkSync(join(outside, 'bashrc'), join(received, 'walk.sev'));
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    const read = await call('readProjectText', { path: join(received, 'walk.sev') });
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain('SECRET');
    const save = await call('saveSev', { path: join(received, 'walk.sev'), text: 'sev 1\n' });
    expect(save.ok).toBe(false);
    if (!save.ok) expect(save.error.message).toContain(`it resolves to ${join(outside, 'bashrc')}`);
    expectOutsideUntouched();
  });

  it('a sounds folder that links out: its sounds are not granted (one beside the motion still is)', async () => {
    mkdirSync(join(outside, 'snd'));
    writeFileSync(join(outside, 'snd', 'SE_X.wav'), `RIFF${SECRET}WAVE`);
    symlinkSync(join(outside, 'snd'), join(received, 'sounds'));
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    const read = await call('readSound', { path: join(received, 'sounds', 'SE_X.wav') });
    expect(read.ok).toBe(false);
    rmSync(join(received, 'sounds'));
    mkdirSync(join(received, 'sounds'));
    writeFileSync(join(received, 'sounds', 'SE_Y.wav'), 'RIFFWAVE');
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    expect((await call('readSound', { path: join(received, 'sounds', 'SE_Y.wav') })).ok).toBe(true);
  });

  it('the tuning file -> outside: not read at open, and a save with tuning is refused before anything is written', async () => {
    const tuning = join(received, 'walk.mtn.actguy-tuning.json');
    symlinkSync(join(outside, 'tuning.json'), tuning);
    const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
    expect(opened.ok).toBe(true);
    expect(JSON.stringify(opened)).not.toContain('SECRET');
    const motion = (opened as { value: { motion: { documentId: string; mtnBytes: Uint8Array; tuning: unknown } } })
      .value.motion;
    expect(motion.tuning).toEqual({
      path: tuning,
      error: `${tuning}: it is a symbolic link to ${join(outside, 'tuning.json')}, outside the folder of walk.mtn, so ActGuy neither reads nor writes it; the motion opened with the default tolerances`,
    });
    const walkBefore = readFileSync(join(received, 'walk.mtn'));
    const save = await call('saveMotion', {
      documentId: motion.documentId,
      path: join(received, 'walk.mtn'),
      mtnBytes: new Uint8Array(readFileSync(SAMPLE_MTN)),
      tuningText: '{"version": 1}\n',
    });
    expect(save.ok).toBe(false);
    if (!save.ok)
      expect(save.error.message).toContain(
        `its tuning file ${tuning} is a symbolic link to ${join(outside, 'tuning.json')}, outside the motion's folder`,
      );
    expect(readFileSync(join(received, 'walk.mtn'))).toEqual(walkBefore);
    expectOutsideUntouched();
  });

  // Round 46: a tuning file that is a link to itself or to nothing was taken for none (existsSync follows links): the
  // motion opened with the default tolerances without a word while the file was there. Mutation that fails: the look
  // by existsSync again (tuning null).
  it('a tuning file that is a loop of links or a link to nothing is said, not taken for none', async () => {
    const tuning = join(received, 'walk.mtn.actguy-tuning.json');
    for (const [target, error] of [
      ['walk.mtn.actguy-tuning.json', `ActGuy refused to access ${tuning}: its symbolic links form a loop`],
      ['gone.json', `Could not read ${join(received, 'gone.json')}: no such file or folder`],
    ]) {
      symlinkSync(target, tuning);
      const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
      rmSync(tuning);
      // The motion opens all the same (the loop refused the whole open).
      expect(opened.ok).toBe(true);
      const motion = (opened as { value: { motion: { tuning: unknown } } }).value.motion;
      expect(motion.tuning).toEqual({ path: tuning, error: `${error}; the motion opened with the default tolerances` });
    }
  });

  // Round 46: walk.sev linked to itself refused the whole open of walk.mtn ("its symbolic links form a loop"). Mutation
  // that fails: allowUnlessLinkedOut without its catch (the open refused).
  it('a .sev beside the motion that is a loop of links grants nothing, and the motion opens', async () => {
    const sev = join(received, 'walk.sev');
    symlinkSync('walk.sev', sev);
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    const read = await call('readProjectText', { path: sev });
    expect(read).toMatchObject({
      ok: false,
      error: { message: `ActGuy refused to access ${sev}: its symbolic links form a loop` },
    });
  });

  // Round 47: walk.sev linked to nothing opened as an empty event list without a word, and its save made the file the
  // link names. Mutations that fail: readProjectText without the dangling look (text null); the policy's write check
  // without its look for a link to nothing (saved; saveSev's own look went there in round 50).
  it('a .sev beside the motion that is a link to nothing is said at the read, and its save writes nothing', async () => {
    const sev = join(received, 'walk.sev');
    symlinkSync('elsewhere.sev', sev);
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    const read = await call('readProjectText', { path: sev });
    expect(read).toMatchObject({
      ok: false,
      error: {
        message: `Could not read ${sev}: it is a symbolic link to elsewhere.sev, which is not there; ActGuy did not start an empty file in its place. Remove the link, or put the file it leads to there.`,
      },
    });
    const save = await call('saveSev', { path: sev, text: 'sev 1\n' });
    expect(save).toMatchObject({ ok: false });
    if (!save.ok)
      expect(save.error.message).toBe(
        `ActGuy refused to access ${sev}: it is a symbolic link to elsewhere.sev, which is not there; move that link away or write the output under another name; nothing was written`,
      );
    expect(existsSync(join(received, 'elsewhere.sev'))).toBe(false);
    expect(readlinkSync(sev)).toBe('elsewhere.sev');
  });

  it('a link that stays inside the folder still works (walk.sev -> sev/walk.sev)', async () => {
    mkdirSync(join(received, 'sev'));
    copyFileSync(join(ASSETS, 'walk.sev'), join(received, 'sev', 'walk.sev'));
    symlinkSync(join(received, 'sev', 'walk.sev'), join(received, 'walk.sev'));
    expect((await call('openMotion', { path: join(received, 'walk.mtn') })).ok).toBe(true);
    const read = await call('readProjectText', { path: join(received, 'walk.sev') });
    expect(read.ok && (read.value as { text: string }).text).toContain('motion walk');
    expect((await call('saveSev', { path: join(received, 'walk.sev'), text: 'sev 1\n' })).ok).toBe(true);
    expect(readFileSync(join(received, 'sev', 'walk.sev'), 'utf8')).toBe('sev 1\n');
  });

  it('a chosen .sev: the .mtn beside it that links out is not granted', async () => {
    copyFileSync(join(ASSETS, 'walk.sev'), join(received, 'run.sev'));
    copyFileSync(SAMPLE_MTN, join(outside, 'motion.mtn'));
    symlinkSync(join(outside, 'motion.mtn'), join(received, 'run.mtn'));
    dialogs.answers.push(join(received, 'run.sev'));
    expect((await call('chooseProjectFileDialog', { purpose: 'sev' })).ok).toBe(true);
    const opened = await call('openMotion', { path: join(received, 'run.mtn') });
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.error.message).toContain(`it resolves to ${join(outside, 'motion.mtn')}`);
    expectOutsideUntouched();
  });
});

describe('a name the app completes with an extension is not the name the user chose', () => {
  it('Save As "walk2" saves walk2.mtn, which links out: refused, and the file it leads to is unchanged', async () => {
    const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
    const documentId = (opened as { value: { motion: { documentId: string } } }).value.motion.documentId;
    copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(outside, 'theirs.mtn'));
    const theirs = readFileSync(join(outside, 'theirs.mtn'));
    symlinkSync(join(outside, 'theirs.mtn'), join(received, 'walk2.mtn'));
    dialogs.answers.push(join(received, 'walk2'));
    const saved = await call('saveMotionAsDialog', { documentId, mtnBytes: new Uint8Array(readFileSync(SAMPLE_MTN)) });
    const after = readFileSync(join(outside, 'theirs.mtn'));
    expect(after.equals(theirs)).toBe(true);
    expect(saved.ok).toBe(false);
    if (!saved.ok) expect(saved.error.message).toContain(`it resolves to ${join(outside, 'theirs.mtn')}`);
    expect(readFileSync(join(outside, 'theirs.mtn'))).toEqual(theirs);
  });

  // Mutation audit, round 3 (docs/testing.md): the name chosen itself is the user's choice, a link too (the dialog
  // asked about replacing that very name), and is saved where it leads, as any program does. allowDialogAnswer
  // judging it as a name the app completed (refused where it links out) passed every other test.
  it('Save As naming walk2.mtn itself, a link out: the user chose it, and the save goes where it leads', async () => {
    const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
    const documentId = (opened as { value: { motion: { documentId: string } } }).value.motion.documentId;
    writeFileSync(join(outside, 'theirs.mtn'), SECRET);
    symlinkSync(join(outside, 'theirs.mtn'), join(received, 'walk2.mtn'));
    dialogs.answers.push(join(received, 'walk2.mtn'));
    const mtnBytes = new Uint8Array(readFileSync(SAMPLE_MTN));
    const saved = await call('saveMotionAsDialog', { documentId, mtnBytes });
    expect(saved).toMatchObject({ ok: true, value: { status: 'saved', file: { path: join(outside, 'theirs.mtn') } } });
    expect(readFileSync(join(outside, 'theirs.mtn')).equals(Buffer.from(mtnBytes))).toBe(true);
  });

  it('Export "walk2" exports walk2.mt3, which links out: refused the same way', async () => {
    const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
    const motion = (opened as { value: { motion: { documentId: string } } }).value.motion;
    writeFileSync(join(outside, 'theirs.mt3'), SECRET);
    symlinkSync(join(outside, 'theirs.mt3'), join(received, 'walk2.mt3'));
    dialogs.answers.push(join(received, 'walk2'));
    const request = compressRequestForMotion(readMtn(readFileSync(SAMPLE_MTN)), motion.documentId, 1);
    const exported = await call('exportMt3Dialog', { compress: request });
    expect(exported.ok).toBe(false);
    if (!exported.ok) expect(exported.error.message).toContain(`it resolves to ${join(outside, 'theirs.mt3')}`);
    expect(readFileSync(join(outside, 'theirs.mt3'), 'utf8')).toBe(SECRET);
  });

  it('Export glTF "walk2" exports walk2.glb, which links out: refused the same way', async () => {
    const opened = await call('openMotion', { path: join(received, 'walk.mtn') });
    const motion = (opened as { value: { motion: { documentId: string; mtnBytes: Uint8Array } } }).value.motion;
    writeFileSync(join(outside, 'theirs.glb'), SECRET);
    symlinkSync(join(outside, 'theirs.glb'), join(received, 'walk2.glb'));
    dialogs.answers.push(join(received, 'walk2'));
    const exported = await call('exportGltfDialog', {
      documentId: motion.documentId,
      source: 'source',
      mtnBytes: motion.mtnBytes,
    });
    expect(exported.ok).toBe(false);
    if (!exported.ok) expect(exported.error.message).toContain(`it resolves to ${join(outside, 'theirs.glb')}`);
    expect(readFileSync(join(outside, 'theirs.glb'), 'utf8')).toBe(SECRET);
  });
});

describe('a picked project grants what it names inside its folder only where it really lies there', () => {
  it('links out are refused; a file named outside on purpose (../common) is still granted', async () => {
    mkdirSync(join(dir, 'common'));
    copyFileSync(join(ASSETS, 'default.sls'), join(dir, 'common', 'default.sls'));
    symlinkSync(join(outside, 'bashrc'), join(received, 'walk.sev'));
    symlinkSync(join(outside, 'table.sls'), join(received, 'linked.sls'));
    const project = join(received, 'p.actguy.json');
    const text = (sls: string) =>
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
        seTables: { sls },
        outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
      });
    writeFileSync(project, text('linked.sls'));
    dialogs.answers.push(project);
    expect((await call('openProjectDialog', undefined)).ok).toBe(true);
    for (const f of ['walk.sev', 'linked.sls']) {
      const read = await call('readProjectText', { path: join(received, f) });
      expect(read.ok).toBe(false);
      expect(JSON.stringify(read)).not.toContain('SECRET');
    }
    expect((await call('saveSev', { path: join(received, 'walk.sev'), text: 'sev 1\n' })).ok).toBe(false);
    expectOutsideUntouched();

    writeFileSync(project, text('../common/default.sls'));
    dialogs.answers.push(project);
    expect((await call('openProjectDialog', undefined)).ok).toBe(true);
    const shared = await call('readProjectText', { path: join(dir, 'common', 'default.sls') });
    expect(shared.ok).toBe(true);
  });

  it("the project's sounds folder that links out: its sounds are not granted (a real sounds folder still is)", async () => {
    const folder = join(dir, 'proj');
    mkdirSync(folder);
    copyFileSync(SAMPLE_MTN, join(folder, 'walk.mtn'));
    mkdirSync(join(outside, 'snd'));
    writeFileSync(join(outside, 'snd', 'SE_X.wav'), `RIFF${SECRET}WAVE`);
    symlinkSync(join(outside, 'snd'), join(folder, 'sounds'));
    const project = join(folder, 'p.actguy.json');
    writeFileSync(
      project,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn' }],
        outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
      }),
    );
    dialogs.answers.push(project);
    expect((await call('openProjectDialog', undefined)).ok).toBe(true);
    const read = await call('readSound', { path: join(folder, 'sounds', 'SE_X.wav') });
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain('SECRET');
    rmSync(join(folder, 'sounds'));
    mkdirSync(join(folder, 'sounds'));
    writeFileSync(join(folder, 'sounds', 'SE_Y.wav'), 'RIFFWAVE');
    dialogs.answers.push(project);
    expect((await call('openProjectDialog', undefined)).ok).toBe(true);
    expect((await call('readSound', { path: join(folder, 'sounds', 'SE_Y.wav') })).ok).toBe(true);
  });
});
