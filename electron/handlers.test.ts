import { inProcessTextChecker } from './project/textCheckJob';
import { readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressMotion } from '../shared/compress/compress';
import { compressRequestForMotion } from '../shared/compress/request';
import { DEFAULT_TOLERANCES } from '../shared/compress/types';
import { ACTGUY_INVOKE_MEMBERS } from '../shared/ipc/api';
import type { CompressRequest, CompressResponse } from '../shared/ipc/compress';
import { writeMar } from '../shared/mar/write';
import { KeyFlag, type Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { asyncWriteIo, atomicWriteIo } from './fsutil';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { SAVE_MOTION_NEXT } from './fsErrors';
import {
  SAMPLE_MTN,
  scriptedDialogs,
  tempWorkspace,
  testHandlers,
  type ScriptedDialogs,
  openedMotion,
  useCompressClientPerTest,
} from './testing/handlerHarness';

const compress = useCompressClientPerTest();

let dir: string;
let workspace: string;
let dialogs: ScriptedDialogs;
let handlers: ApiHandlers;
let outside: string;

function setup(): void {
  ({ dir, workspace, outside } = tempWorkspace('actguy-handlers-', { walkOutside: true }));
  dialogs = scriptedDialogs();
  handlers = testHandlers({
    app: { samplePath: SAMPLE_MTN, startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    recentDir: join(dir),
    compress: compress(),
    dialogs,
    checkText: inProcessTextChecker,
  });
}
beforeEach(setup);
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A compress request reproducing the motion's own flags, with user keys toggled at `extraKeys` on joint 1. */
function requestFor(m: Motion, documentId: string, revision: number, extraKeys: number[] = []): CompressRequest {
  const req = compressRequestForMotion(m, documentId, revision);
  for (const f of extraKeys) req.jointKeyFlags[f * m.joints.length + 1] ^= KeyFlag.KEY;
  return req;
}

const openWalk = (path = join(workspace, 'walk.mtn')) => openedMotion(handlers, path);

describe('handlers', () => {
  it('handle every invoke member of the API (and nothing else)', async () => {
    expect(Object.keys(handlers).sort()).toEqual([...ACTGUY_INVOKE_MEMBERS].sort());
    for (const member of ACTGUY_INVOKE_MEMBERS) {
      const reply = await dispatchInvoke(handlers, member, undefined);
      if (!reply.ok) expect(reply.error.message).not.toMatch(/unknown API member|has no handler/);
    }
    const unknown = await dispatchInvoke(handlers, 'readAnyFile', { path: '/etc/passwd' });
    expect(unknown).toEqual({ ok: false, error: { message: 'unknown API member "readAnyFile"' } });
  });

  it('opens the sample as MTN bytes equal to the file, read-write, and remembers it as recent', async () => {
    const m = await openWalk();
    expect(m.kind).toBe('mtn');
    expect(m.readOnly).toBe(false);
    expect(m.name).toBe('walk');
    expect(Buffer.from(m.mtnBytes).equals(readFileSync(SAMPLE_MTN))).toBe(true);
    const recent = await handlers.getRecentFiles(undefined);
    expect(recent[0]).toMatchObject({ name: 'walk', kind: 'mtn' });
    // persisted in the user-data folder
    expect(JSON.parse(readFileSync(join(dir, 'recent-files.json'), 'utf8'))[0].name).toBe('walk');
    await handlers.clearRecentFiles(undefined);
    expect(await handlers.getRecentFiles(undefined)).toEqual([]);
  });

  it('refuses a path outside the allowed set, for reading and for writing, with a clear message', async () => {
    const secret = join(outside, 'walk.mtn');
    const open = await dispatchInvoke(handlers, 'openMotion', { path: secret });
    expect(open.ok).toBe(false);
    if (!open.ok) expect(open.error.message).toMatch(/refused to access .*outside.*walk\.mtn/);
    const doc = await openWalk();
    const before = readFileSync(secret);
    const save = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: doc.documentId,
      path: secret,
      mtnBytes: doc.mtnBytes,
    });
    expect(save.ok).toBe(false);
    const exp = await dispatchInvoke(handlers, 'exportMt3', {
      path: join(outside, 'x.mt3'),
      compress: requestFor(readMtn(doc.mtnBytes), doc.documentId, 1),
    });
    expect(exp.ok).toBe(false);
    if (!exp.ok) expect(exp.error.message).toMatch(/refused/);
    expect(readFileSync(secret).equals(before)).toBe(true);
    // The same file becomes allowed once the user picks it in a dialog.
    dialogs.answers.push(secret);
    const picked = await handlers.openMotionDialog(undefined);
    expect(picked.status).toBe('opened');
  });

  it('an opened .mtn brings its own .sev beside it into reach (read and create), and no other file there', async () => {
    const secret = join(outside, 'walk.mtn');
    expect((await dispatchInvoke(handlers, 'readProjectText', { path: join(outside, 'walk.sev') })).ok).toBe(false);
    dialogs.answers.push(secret);
    expect((await handlers.openMotionDialog(undefined)).status).toBe('opened');
    expect(await handlers.readProjectText({ path: join(outside, 'walk.sev') })).toEqual({
      path: join(outside, 'walk.sev'),
      text: null,
      // The read named (none there): a save may compare with it (electron/loadedFiles.ts).
      loadedAs: 'none',
    });
    await handlers.saveSev({ path: join(outside, 'walk.sev'), text: 'sev 1\nmotion walk\nse 0 SE_A\nevent 3 0 -\n' });
    expect(readFileSync(join(outside, 'walk.sev'), 'utf8')).toContain('event 3 0 -');
    const other = await dispatchInvoke(handlers, 'saveSev', { path: join(outside, 'run.sev'), text: 'sev 1\n' });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error.message).toMatch(/refused/);
  });

  it('a corrupt file gives a readable FormatError message naming the file, over dispatch', async () => {
    writeFileSync(join(workspace, 'broken.mtn'), readFileSync(SAMPLE_MTN).subarray(0, 200));
    const reply = await dispatchInvoke(handlers, 'openMotion', { path: join(workspace, 'broken.mtn') });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.formatKind).toBe('MTN');
      expect(reply.error.message).toMatch(/broken\.mtn/);
    }
  });

  it('a missing file is named with a plain reason that holds for a file that never was (a project names it)', async () => {
    const missing = join(workspace, 'nope.mtn');
    const reply = await dispatchInvoke(handlers, 'openMotion', { path: missing });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.message).toBe(`Could not read ${missing}: there is no file by that name`);
  });

  it('saves the tuning file with the motion (checked first, both or neither) and hands it back on open', async () => {
    const doc = await openWalk();
    const target = join(workspace, 'walk.mtn');
    const tuningPath = `${target}.actguy-tuning.json`;
    expect(doc.tuning ?? null).toBeNull();
    const text = '{"version": 1, "tolerances": {"rotationDeg": 2}, "rotationOverridesDeg": {"LeftFoot": 0.25}}\n';
    expect(
      (
        await handlers.saveMotion({
          documentId: doc.documentId,
          path: target,
          mtnBytes: doc.mtnBytes,
          tuningText: text,
        })
      ).status,
    ).toBe('saved');
    expect(readFileSync(tuningPath, 'utf8')).toBe(text);
    const before = readFileSync(target);
    const bad = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: doc.documentId,
      path: target,
      mtnBytes: doc.mtnBytes,
      tuningText: '{"version": 1, "rotationOverridesDeg": {"LeftFut": 1}}',
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.error.message).toMatch(/its tuning is not valid .*rotationOverridesDeg\.LeftFut.*nothing was written/);
    expect(readFileSync(tuningPath, 'utf8')).toBe(text);
    expect(readFileSync(target)).toEqual(before);
    const again = await handlers.openMotion({ path: target });
    expect(again.status === 'opened' && again.motion.tuning).toEqual({ path: tuningPath, text });
    writeFileSync(tuningPath, 'x'.repeat(70 * 1024));
    const big = await handlers.openMotion({ path: target });
    expect(
      big.status === 'opened' && big.motion.tuning && 'error' in big.motion.tuning && big.motion.tuning.error,
    ).toMatch(/too large for a tuning file/);
  });

  it('saves atomically the edited key flags; a failed save leaves the file untouched and says why', async () => {
    const doc = await openWalk();
    const motion = readMtn(doc.mtnBytes);
    motion.jointKeyInfo[(5 * motion.joints.length + 2) * 4] |= KeyFlag.KEY;
    const edited = writeMtn(motion);
    const target = join(workspace, 'walk.mtn');
    const saved = await handlers.saveMotion({ documentId: doc.documentId, path: target, mtnBytes: edited });
    expect(saved.status).toBe('saved');
    expect(
      readMtn(new Uint8Array(readFileSync(target))).jointKeyInfo[(5 * motion.joints.length + 2) * 4] & KeyFlag.KEY,
    ).toBe(KeyFlag.KEY);
    expect(readdirSync(workspace).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const garbage = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: doc.documentId,
      path: target,
      mtnBytes: new Uint8Array(10),
    });
    expect(garbage.ok).toBe(false);
    if (!garbage.ok) expect(garbage.error.message).toMatch(/not a valid MTN file.*nothing was written/);
    const wrongKind = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: doc.documentId,
      path: join(workspace, 'walk.mt3'),
      mtnBytes: edited,
    });
    expect(wrongKind.ok).toBe(false);

    // A folder that refuses the write. As root (CI) a read-only folder does not stop a write, so the refusal is
    // injected where the file system would give it: opening the temp file beside the target.
    const before = readFileSync(target);
    const realOpen = atomicWriteIo.openSync;
    // By name, or through the folder's descriptor, as a pinned save makes its temp (docs/security.md, round 41).
    const inWorkspace = (path: string) =>
      (path.startsWith('/proc/self/fd/') ? readlinkSync(dirname(path)) : path).startsWith(workspace);
    atomicWriteIo.openSync = ((path: string, flags: string) => {
      if (inWorkspace(String(path)))
        throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
      return realOpen(path, flags);
    }) as typeof atomicWriteIo.openSync;
    // The save writes off the main thread: its open is refused there the same way.
    const realAsyncOpen = asyncWriteIo.open;
    asyncWriteIo.open = async (path, flags, mode) => {
      if (inWorkspace(String(path)))
        throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
      return realAsyncOpen(path, flags, mode);
    };
    let failed;
    try {
      failed = await dispatchInvoke(handlers, 'saveMotion', {
        documentId: doc.documentId,
        path: target,
        mtnBytes: writeMtn(readMtn(doc.mtnBytes)),
      });
    } finally {
      atomicWriteIo.openSync = realOpen;
      asyncWriteIo.open = realAsyncOpen;
    }
    expect(failed).toEqual({
      ok: false,
      error: {
        message: `Could not save ${target}: permission denied; the file on disk is unchanged and your edits are kept. ${SAVE_MOTION_NEXT}`,
      },
    });
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(readdirSync(workspace).filter((n) => n.includes('actguy'))).toEqual([]);
  });

  it('compresses in the worker with the same result as compressMotion in-process, and a toggled key lands in the key list', async () => {
    const doc = await openWalk();
    const motion = readMtn(doc.mtnBytes);
    const r = await handlers.compressMotion(requestFor(motion, doc.documentId, 1));
    expect(r.status).toBe('done');
    const done = r as CompressResponse;
    const local = compressMotion(motion, { ...DEFAULT_TOLERANCES, name: 'walk' });
    expect(done.totalKeys).toBe(local.totalKeys);
    expect(done.bytes).toBeUndefined();
    expect(done.channels[0].errors).toBeInstanceOf(Float64Array);
    const rot1 = (x: CompressResponse) => x.channels.find((c) => c.kind === 'rotation' && c.joint === 1)!;
    const frame = rot1(done).keyFrames.find((f, i, a) => i > 0 && a[i - 1] + 2 < f)! - 1;
    const toggled = (await handlers.compressMotion(requestFor(motion, doc.documentId, 2, [frame]))) as CompressResponse;
    expect(toggled.revision).toBe(2);
    expect(rot1(toggled).userKeyFrames).toContain(frame);
    expect(rot1(toggled).keyFrames).toContain(frame);
  });

  it('coalesces a burst of requests: the newest revision wins, older waiting ones resolve superseded and the running one is stopped', async () => {
    const doc = await openWalk();
    const motion = readMtn(doc.mtnBytes);
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map((rev) => handlers.compressMotion(requestFor(motion, doc.documentId, rev))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['superseded', 'superseded', 'superseded', 'done']);
    expect(outcomes[3].revision).toBe(4);
    expect(outcomes[0]).toMatchObject({ supersededBy: 2 });
    expect(outcomes[1]).toMatchObject({ supersededBy: 3 });
    expect(outcomes[2]).toMatchObject({ supersededBy: 4 });
  });

  it('reports a bad request clearly (wrong array sizes, two locks on one frame, bad tolerance)', async () => {
    const doc = await openWalk();
    const motion = readMtn(doc.mtnBytes);
    const short = { ...requestFor(motion, doc.documentId, 1), translationKeyFlags: new Uint32Array(3) };
    await expect(handlers.compressMotion(short)).rejects.toThrow(
      /translationKeyFlags must be a Uint32Array of \d+ entries/,
    );
    const twoLocks = requestFor(motion, doc.documentId, 2);
    twoLocks.jointKeyFlags[0] |= KeyFlag.LOCK;
    twoLocks.jointKeyFlags[1] |= KeyFlag.LOCK;
    const reply = await dispatchInvoke(handlers, 'compressMotion', twoLocks);
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.formatKind).toBe('MTN');
    const badTol = {
      ...requestFor(motion, doc.documentId, 3),
      tolerances: { positionTolerance: 0, rotationToleranceDeg: 1, offsetTolerance: 1 },
    };
    await expect(handlers.compressMotion(badTol)).rejects.toThrow(/positionTolerance must be a number > 0/);
    // The worker survives bad requests.
    expect((await handlers.compressMotion(requestFor(motion, doc.documentId, 4))).status).toBe('done');
    await handlers.closeDocument({ documentId: doc.documentId });
    await expect(handlers.compressMotion(requestFor(motion, doc.documentId, 5))).rejects.toThrow(/not open/);
  });

  it('exports .mt3 and reopens it read-only with the skeleton beside it; a .mar lists entries then opens one', async () => {
    const doc = await openWalk();
    const motion = readMtn(doc.mtnBytes);
    const mt3Path = join(workspace, 'walk.mt3');
    const exported = await handlers.exportMt3({ path: mt3Path, compress: requestFor(motion, doc.documentId, 1) });
    expect(exported.status).toBe('exported');
    const opened = await handlers.openMotion({ path: mt3Path });
    expect(opened.status).toBe('opened');
    if (opened.status !== 'opened') return;
    expect(opened.motion).toMatchObject({
      kind: 'mt3',
      readOnly: true,
      skeletonPath: expect.stringContaining('walk.mtn'),
    });
    const decoded = readMtn(opened.motion.mtnBytes);
    expect(decoded.joints.map((j) => j.name)).toEqual(motion.joints.map((j) => j.name));
    expect(decoded.frameCount).toBe(motion.frameCount);

    const mt3Bytes = new Uint8Array(readFileSync(mt3Path));
    writeFileSync(join(workspace, 'moves.mar'), writeMar([mt3Bytes]));
    const listing = await handlers.openMotion({ path: join(workspace, 'moves.mar') });
    expect(listing.status).toBe('chooseMarEntry');
    if (listing.status !== 'chooseMarEntry') return;
    expect(listing.entries).toHaveLength(1);
    expect(listing.entries[0]).toMatchObject({
      index: 0,
      frameCount: motion.frameCount,
      jointCount: motion.joints.length,
    });
    const noSkeleton = await handlers.openMotion({ path: join(workspace, 'moves.mar'), marEntry: 0 });
    expect(noSkeleton).toMatchObject({ status: 'needsSkeleton', kind: 'mar', marEntry: 0 });
    const withSkeleton = await handlers.openMotion({
      path: join(workspace, 'moves.mar'),
      marEntry: 0,
      skeletonPath: join(workspace, 'walk.mtn'),
    });
    expect(withSkeleton.status).toBe('opened');
    const bare = await handlers.openMotion({ path: join(workspace, 'moves.mar'), marEntry: 0, withoutSkeleton: true });
    expect(bare.status).toBe('opened');
    await expect(handlers.openMotion({ path: join(workspace, 'moves.mar'), marEntry: 3 })).rejects.toThrow(
      /entry 3 does not exist/,
    );
  });

  it('lists the workspace filtered by extension, and uses the dialog port for dialog members', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'x');
    const listing = await handlers.listWorkspace({ extensions: ['mtn'] });
    expect(listing.files.map((f) => f.relativePath)).toEqual(['walk.mtn']);
    const doc = await openWalk();
    dialogs.answers.push(null);
    expect(await handlers.saveMotionAsDialog({ documentId: doc.documentId, mtnBytes: doc.mtnBytes })).toEqual({
      status: 'cancelled',
    });
    dialogs.answers.push(join(outside, 'copy'));
    const saved = await handlers.saveMotionAsDialog({ documentId: doc.documentId, mtnBytes: doc.mtnBytes });
    expect(saved).toMatchObject({ status: 'saved', file: { name: 'copy' } });
    expect(readFileSync(join(outside, 'copy.mtn')).equals(readFileSync(SAMPLE_MTN))).toBe(true);
    dialogs.answers.push(true);
    expect(await handlers.confirmDiscardChanges({ documentName: 'walk', action: 'open another motion' })).toBe(true);
  });
});
