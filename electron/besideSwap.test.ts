/**
 * A motion's .sev, tuning file and `sounds/` are granted when the motion opens and read by name later (the SEV
 * editor, the next open, an audition). In a folder others may write, another user can swap such a file in between:
 * each read of a file granted only beside a motion is judged on the descriptor it reads (docs/security.md, round 31).
 */
import {
  chownSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcReply } from '../shared/ipc/transport';
import { besideReadSeam } from './besideFiles';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { SAMPLE_MTN, scriptedDialogs, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { inProcessTextChecker } from './project/textCheckJob';

const compress = useCompressClientPerTest();

let dir: string;
let handlers: ApiHandlers;
const motion = () => join(dir, 'walk.mtn');
const sev = () => join(dir, 'walk.sev');
const tuning = () => join(dir, 'walk.mtn.actguy-tuning.json');
const sound = (name: string) => join(dir, 'sounds', name);
const TUNING = '{"version": 1}\n';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-beside-'));
  copyFileSync(SAMPLE_MTN, motion());
  writeFileSync(sev(), "the user's sound events\n");
  writeFileSync(tuning(), TUNING);
  mkdirSync(join(dir, 'sounds'));
  writeFileSync(sound('SE_A.wav'), "RIFF the user's A");
  writeFileSync(sound('SE_B.wav'), "RIFF the user's B");
  // The motion is the user's pick (handed over on the command line); what lies beside it is granted beside it.
  handlers = testHandlers({
    app: { startupPath: motion(), workspaceRoot: null },
    compress: compress(),
    dialogs: scriptedDialogs(),
    checkText: inProcessTextChecker,
  });
});
afterEach(() => {
  besideReadSeam.judged = () => undefined;
  besideReadSeam.opening = () => undefined;
  rmSync(dir, { recursive: true, force: true });
});

const call = (member: string, arg: unknown): Promise<IpcReply<unknown>> => dispatchInvoke(handlers, member, arg);
const errorOf = (reply: IpcReply<unknown>) => (reply.ok ? 'read' : reply.error.message);
const tuningOf = async () =>
  ((await call('openMotion', { path: motion() })) as { value: { motion: { tuning: unknown } } }).value.motion.tuning;

describe('a file beside an opened motion, read later, is judged when read (round 31)', () => {
  it('swapped for a link since the open (to a file also granted): refused, naming the link', async () => {
    expect(await tuningOf()).toEqual({ path: tuning(), text: TUNING });
    rmSync(sev());
    symlinkSync(tuning(), sev());
    expect(errorOf(await call('readProjectText', { path: sev() }))).toBe(
      `${sev()}: it is a symbolic link to ${tuning()}; open that file itself, so it was not read`,
    );
    rmSync(sound('SE_A.wav'));
    symlinkSync(sound('SE_B.wav'), sound('SE_A.wav'));
    expect(errorOf(await call('readSound', { path: sound('SE_A.wav') }))).toMatch(/SE_A\.wav.*symbolic link.*not read/);
    rmSync(tuning());
    symlinkSync(sound('SE_B.wav'), tuning());
    // The link stays inside the folder (round 13's look passes it); the judgement refuses it.
    expect(await tuningOf()).toEqual({
      path: tuning(),
      error: `${tuning()}: it is a symbolic link to ${sound('SE_B.wav')}; open that file itself, so it was not read; the motion opened with the default tolerances`,
    });
  });

  it('the file read is the file judged: one swapped in after the judgement is not what is read', async () => {
    expect((await call('openMotion', { path: motion() })).ok).toBe(true);
    const swapIn = (path: string) => {
      writeFileSync(join(dir, 'planted'), 'PLANTED by another user');
      renameSync(join(dir, 'planted'), path);
    };
    besideReadSeam.judged = swapIn;
    const read = await call('readProjectText', { path: sev() });
    expect(read).toMatchObject({ ok: true, value: { path: sev(), text: "the user's sound events\n" } });
    const heard = (await call('readSound', { path: sound('SE_A.wav') })) as { value: { bytes: Uint8Array } };
    expect(Buffer.from(heard.value.bytes).toString()).toBe("RIFF the user's A");
    expect(await tuningOf()).toEqual({ path: tuning(), text: TUNING });
  });

  // Round 32. O_NOFOLLOW refuses a link at the name only: the motion's folder swapped for a link after the policy's
  // check and before the open led the open to the user's own file of that name elsewhere, never granted. Linux tells
  // where the open file lies. Mutation that fails: openBesideFile without that look.
  it.runIf(process.platform === 'linux')(
    'a folder above it swapped for a link just before the open: refused, naming where the open led',
    async () => {
      expect((await call('openMotion', { path: motion() })).ok).toBe(true);
      const other = mkdtempSync(join(tmpdir(), 'actguy-beside-other-'));
      try {
        writeFileSync(join(other, 'walk.sev'), "the user's private notes, never chosen\n");
        besideReadSeam.opening = () => {
          besideReadSeam.opening = () => undefined;
          renameSync(dir, `${dir}-away`);
          symlinkSync(other, dir);
        };
        const read = await call('readProjectText', { path: sev() });
        rmSync(dir);
        renameSync(`${dir}-away`, dir);
        expect(errorOf(read)).toBe(
          `${sev()}: it is not there now: a folder on its path was swapped since it was checked, and the file opened lies at ${join(other, 'walk.sev')}, so it was not read`,
        );
        // Put back, it reads as before.
        expect(await call('readProjectText', { path: sev() })).toMatchObject({
          ok: true,
          value: { path: sev(), text: "the user's sound events\n" },
        });
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    },
  );

  // CI runs as root; anotherUsers compares with process.getuid(), so as root user 65534's file is another user's.
  it.skipIf(process.getuid?.() !== 0)('one another user owns now: refused, saying whose it is', async () => {
    expect((await call('openMotion', { path: motion() })).ok).toBe(true);
    for (const f of [sev(), tuning(), sound('SE_A.wav')]) chownSync(f, 65534, 65534);
    const theirs = (path: string) =>
      `${path}: it belongs to another user (user id 65534), who may have put it there since the motion was opened; copy it to a folder of yours to use it, so it was not read`;
    expect(errorOf(await call('readProjectText', { path: sev() }))).toBe(theirs(sev()));
    expect(errorOf(await call('readSound', { path: sound('SE_A.wav') }))).toBe(theirs(sound('SE_A.wav')));
    expect(await tuningOf()).toEqual({
      path: tuning(),
      error: `${theirs(tuning())}; the motion opened with the default tolerances`,
    });
    // The user's own sound beside it still plays.
    expect((await call('readSound', { path: sound('SE_B.wav') })).ok).toBe(true);
  });
});

// Round 32. A save wrote to the path the policy resolved: through a link put at the name since it was chosen or
// opened, the user's text replaced the file it leads to (another granted file: the tuning file, the .sev, a file of
// the workspace). Such a save is refused now, naming the link; the file it leads to is unchanged (pathPolicy.ts check).
// A link that already stood there when chosen is written through as before (linkedSiblings.test.ts). Mutation that
// fails: the policy's check without the look at the name.
describe('a file written later is not written through a link put at its name since it was opened (round 32)', () => {
  const refusal = (path: string, to: string) =>
    `ActGuy refused to access ${path}: it is a symbolic link to ${to} now, put there since it was chosen or opened, and ActGuy writes nothing through such a link: remove the link, or save a copy with Save As; nothing was written`;
  const open = async () =>
    ((await call('openMotion', { path: motion() })) as { value: { motion: { documentId: string } } }).value.motion
      .documentId;
  const saveRequest = (documentId: string) => ({
    documentId,
    path: motion(),
    mtnBytes: new Uint8Array(readFileSync(SAMPLE_MTN)),
    tuningText: TUNING,
  });
  const saveMotion = (documentId: string) => call('saveMotion', saveRequest(documentId));

  it('Save SEV and a save with the tuning file refuse a link at the name; what it leads to is unchanged', async () => {
    const documentId = await open();
    rmSync(sev());
    symlinkSync(tuning(), sev());
    expect(errorOf(await call('saveSev', { path: sev(), text: 'sev 1\n' }))).toBe(refusal(sev(), tuning()));
    expect(readFileSync(tuning(), 'utf8')).toBe(TUNING);
    expect(lstatSync(sev()).isSymbolicLink()).toBe(true);
    // The tuning file's name, granted at the open, now a link to the .sev: the .sev's text is not replaced.
    rmSync(sev());
    writeFileSync(sev(), "the user's sound events\n");
    rmSync(tuning());
    symlinkSync(sev(), tuning());
    expect(errorOf(await saveMotion(documentId))).toBe(refusal(tuning(), sev()));
    expect(readFileSync(sev(), 'utf8')).toBe("the user's sound events\n");
    // With the link gone, both save as before.
    rmSync(tuning());
    expect((await call('saveSev', { path: sev(), text: 'sev 1\n' })).ok).toBe(true);
    // The tuning file the open read is gone now: the motion's Save asks first (docs/security.md, "Saves of a motion
    // compare too"), and Save anyway writes it.
    expect((await saveMotion(documentId)).ok).toBe(false);
    expect((await call('saveMotion', { ...saveRequest(documentId), overwriteChanged: true })).ok).toBe(true);
    expect(readFileSync(tuning(), 'utf8')).toBe(TUNING);
  });

  it("the motion itself, chosen in a shared folder, made a link to a file of the user's workspace: not saved there", async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'actguy-beside-ws-'));
    try {
      writeFileSync(join(workspace, 'boss.mtn'), "the user's other motion");
      handlers = testHandlers({
        app: { startupPath: motion(), workspaceRoot: workspace },
        compress: compress(),
        dialogs: scriptedDialogs(),
        checkText: inProcessTextChecker,
      });
      const documentId = await open();
      rmSync(motion());
      symlinkSync(join(workspace, 'boss.mtn'), motion());
      const saved = await call('saveMotion', {
        documentId,
        path: motion(),
        mtnBytes: new Uint8Array(readFileSync(SAMPLE_MTN)),
      });
      expect(errorOf(saved)).toBe(refusal(motion(), join(workspace, 'boss.mtn')));
      expect(readFileSync(join(workspace, 'boss.mtn'), 'utf8')).toBe("the user's other motion");
      // Not the name but its folder: the shared folder renamed away and a link to the workspace put in its place. The
      // page saves at the path the motion opened as; it resolves into the workspace now, onto the user's walk.mtn.
      rmSync(motion());
      copyFileSync(SAMPLE_MTN, motion());
      const again = await open();
      writeFileSync(join(workspace, 'walk.mtn'), "the user's walk in the workspace");
      renameSync(dir, `${dir}-away`);
      symlinkSync(workspace, dir);
      try {
        const through = await call('saveMotion', {
          documentId: again,
          path: motion(),
          mtnBytes: new Uint8Array(readFileSync(SAMPLE_MTN)),
        });
        expect(errorOf(through)).toBe(
          `ActGuy refused to access ${motion()}: it resolves to ${join(workspace, 'walk.mtn')} now, not where it lay when it was chosen or opened: a folder on its path was made a symbolic link since, and ActGuy writes nothing through it; put the folder back, or save a copy with Save As; nothing was written`,
        );
        expect(readFileSync(join(workspace, 'walk.mtn'), 'utf8')).toBe("the user's walk in the workspace");
      } finally {
        rmSync(dir);
        renameSync(`${dir}-away`, dir);
      }
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
