/**
 * Main's copies of unsaved work (hot exit): what the page may hand over, the
 * backup files an app crash leaves (read back as untrusted input), and when
 * the copies go. Runs the real handlers with a fake compress client.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UnsavedBackup } from '../shared/ipc/backups';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { KeyFlag } from '../shared/motion/types';
import type { CompressClient } from './compressClient';
import { asyncWriteIo, atomicWriteIo } from './fsutil';
import { commitsInFlight, settleWrites, writesInFlight } from './writeTurns';
import { host } from './tempFiles';
import { inProcessMotionChecker } from './motionCheckJob';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import {
  SAMPLE_MTN,
  testHandlers,
  openedMotion,
  scriptedDialogs,
  type ScriptedDialogs,
} from './testing/handlerHarness';
import { canonicalPath } from './pathPolicy';
import { inProcessTextChecker } from './project/textCheckJob';
import { inProcessImportRunner } from './interchange/importRunner';
import { motionToGlb } from '../shared/interchange/gltf/export';
import {
  BACKUP_PIECE_BYTES,
  BACKUPS_FOLDER,
  backupFileBytes,
  backupFilePieces,
  createBackupStore,
  deferredBackupStore,
  MAX_BACKUP_FILE_BYTES,
  MAX_BACKUP_MTN_BYTES,
  MAX_BACKUP_TEXT_CHARS,
  MAX_SET_ASIDE_PER_PART,
  type BackupStore,
} from './unsavedBackups';

const SAMPLE_PROJECT = readFileSync(resolve(__dirname, '..', 'assets', 'sample.actguy.json'), 'utf8');
const WALK_SEV = readFileSync(resolve(__dirname, '..', 'assets', 'walk.sev'), 'utf8');

function fakeCompress(): CompressClient {
  let n = 0;
  return {
    open: (doc) => doc.documentId ?? `doc-${++n}`,
    close: () => undefined,
    compress: async () => {
      throw new Error('not used');
    },
    exportMsh: async () => {
      throw new Error('not used');
    },
    dispose: async () => {},
  };
}

let dir: string;
let ws: string;
let folder: string;
let store: BackupStore;
let handlers: ApiHandlers;
let warnings: string[];

function make(dialogs?: ScriptedDialogs): void {
  warnings = [];
  store = createBackupStore(folder, (m) => warnings.push(m));
  handlers = testHandlers({
    app: { samplePath: SAMPLE_MTN, startupPath: SAMPLE_MTN, workspaceRoot: ws },
    ...(dialogs ? { dialogs } : {}),
    compress: fakeCompress(),
    checkText: inProcessTextChecker,
    runImport: inProcessImportRunner,
    backups: store,
  });
}

beforeEach(() => {
  dir = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-backups-')));
  ws = join(dir, 'ws');
  folder = join(dir, 'userData', BACKUPS_FOLDER);
  mkdirSync(ws);
  copyFileSync(SAMPLE_MTN, join(ws, 'walk.mtn'));
  make();
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The walk motion with a user key set on frame 3 of joint 0: an edit Save would write. */
function editedWalk(): Uint8Array {
  const m = readMtn(readFileSync(SAMPLE_MTN));
  const info = m.jointKeyInfo.slice();
  info[3 * m.joints.length * 4] |= KeyFlag.KEY;
  return writeMtn({ ...m, jointKeyInfo: info });
}

async function openWalk(): Promise<string> {
  return (await openedMotion(handlers, join(ws, 'walk.mtn'))).documentId;
}

function motionCopy(documentId: string, over: Partial<UnsavedBackup> = {}): UnsavedBackup {
  return {
    part: 'motion',
    documentId,
    name: 'walk',
    path: join(ws, 'walk.mtn'),
    editedAt: 1_700_000_000_000,
    mtnBytes: editedWalk(),
    tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.25, offsetTolerance: 0.1, method: 'classic' },
    rotationOverridesDeg: { 4: 2 },
    ...over,
  } as UnsavedBackup;
}

/** A valid motion copy as its backup file holds it (written by a store, then read as text). */
async function toFileCopy(): Promise<string> {
  const scratch = join(dir, 'scratch-backups');
  const id = 'doc-x';
  await createBackupStore(scratch).put(motionCopy(id), null, ['/elsewhere/x.glb']);
  return readFileSync(join(scratch, 'motion.json'), 'utf8');
}

const refusal = async (arg: unknown): Promise<string> => {
  const r = await dispatchInvoke(handlers, 'backupUnsaved', arg);
  if (r.ok) throw new Error('backupUnsaved accepted it');
  return r.error.message;
};

describe('copies the page hands over', () => {
  it('are kept in memory and as a file, and a new start (an app crash) reads them back exactly', async () => {
    const id = await openWalk();
    const copy = motionCopy(id);
    await handlers.backupUnsaved({ part: 'motion', backup: copy });
    expect(readdirSync(folder)).toEqual(['motion.json']);
    expect(store.held().backups).toEqual([copy]);
    make(); // the next start, on the same folder
    expect(store.held()).toEqual({ backups: [copy], setAside: [] });
  });

  it('are refused unless they name an open document, its own file and a valid MTN; a SEV or project only when the window has it', async () => {
    const id = await openWalk();
    expect(await refusal({ part: 'motion', backup: motionCopy('nope') })).toMatch(/document nope is not open/);
    expect(await refusal({ part: 'motion', backup: motionCopy(id, { path: join(dir, 'elsewhere.mtn') }) })).toMatch(
      /not the file of that document/,
    );
    expect(
      await refusal({ part: 'motion', backup: motionCopy(id, { mtnBytes: new Uint8Array([1, 2, 3]) } as never) }),
    ).toMatch(/mtnBytes is not a valid MTN/);
    expect(
      await refusal({ part: 'motion', backup: motionCopy(id, { tolerances: { positionTolerance: -1 } } as never) }),
    ).toMatch(/tolerances.positionTolerance must be a number > 0/);
    expect(
      await refusal({ part: 'motion', backup: motionCopy(id, { rotationOverridesDeg: { x: 1 } } as never) }),
    ).toMatch(/rotationOverridesDeg key "x"/);
    expect(await refusal({ part: 'sev', backup: motionCopy(id) })).toMatch(/a copy of the part named/);
    expect(await refusal({ part: 'other', backup: null })).toMatch(/part must be/);
    // A path the page names grants nothing: a .sev outside what the window has open is refused.
    const outside = { part: 'sev', name: 'x.sev', path: join(dir, 'x.sev'), motionName: 'x', editedAt: 1, text: 'x' };
    expect(await refusal({ part: 'sev', backup: outside })).toMatch(/not a file this window has open/);
    const sev = { ...outside, name: 'walk.sev', path: join(ws, 'walk.sev'), motionName: 'walk' };
    await handlers.backupUnsaved({ part: 'sev', backup: sev as UnsavedBackup });
    expect(store.held().backups).toEqual([sev]);
    expect(existsSync(join(folder, 'motion.json'))).toBe(false);
  });

  it('are bounded in size', async () => {
    const id = await openWalk();
    const sev = {
      part: 'sev',
      name: 'walk.sev',
      path: join(ws, 'walk.sev'),
      motionName: 'walk',
      editedAt: 1,
      text: 'x'.repeat(MAX_BACKUP_TEXT_CHARS + 1),
    };
    expect(await refusal({ part: 'sev', backup: sev })).toMatch(/text must be a string of at most/);
    expect(
      await refusal({
        part: 'motion',
        backup: motionCopy(id, { mtnBytes: new Uint8Array(MAX_BACKUP_MTN_BYTES + 1) } as never),
      }),
    ).toMatch(/mtnBytes must be at most/);
    expect(await refusal({ part: 'motion', backup: motionCopy(id, { name: 'n'.repeat(5000) }) })).toMatch(
      /name must be a string of 1\.\.4096/,
    );
    expect(store.held().backups).toEqual([]);
  });

  it('are written atomically: a write that fails leaves the previous file whole, and the copy is still held', async () => {
    const id = await openWalk();
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    const before = readFileSync(join(folder, 'motion.json'), 'utf8');
    vi.spyOn(atomicWriteIo, 'renameSync').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    });
    const newer = motionCopy(id, { editedAt: 1_800_000_000_000 });
    await handlers.backupUnsaved({ part: 'motion', backup: newer });
    expect(readFileSync(join(folder, 'motion.json'), 'utf8')).toBe(before);
    expect(readdirSync(folder)).toEqual(['motion.json']);
    expect(warnings.join()).toMatch(/the backup of walk was not written: no space left/);
    expect(store.held().backups).toEqual([newer]);
  });
});

describe('written off the main thread, in the order the copies came', () => {
  /** Holds the first backup write at its open until `release`; `opened` resolves once it is held there. */
  const realOpen = asyncWriteIo.open;
  function holdFirstWrite(): { opened: Promise<void>; release: () => void } {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    let opened = (): void => undefined;
    const atOpen = new Promise<void>((r) => (opened = r));
    let n = 0;
    vi.spyOn(asyncWriteIo, 'open').mockImplementation(async (...args) => {
      if (++n === 1) {
        opened();
        await held;
      }
      return realOpen(...args);
    });
    return { opened: atOpen, release };
  }
  const onDisk = () => JSON.parse(readFileSync(join(folder, 'motion.json'), 'utf8')) as { editedAt: number };

  // Mutation that fails: the write renaming whatever the copy held (stillWanted left out).
  it('a copy whose write ends after a later copy was written never replaces it', async () => {
    const id = await openWalk();
    const hold = holdFirstWrite();
    const older = handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id, { editedAt: 1 }) });
    await hold.opened;
    const newer = motionCopy(id, { editedAt: 2 });
    await handlers.backupUnsaved({ part: 'motion', backup: newer });
    expect(onDisk().editedAt).toBe(2);
    hold.release();
    await older;
    expect(onDisk().editedAt).toBe(2);
    expect(readdirSync(folder)).toEqual(['motion.json']);
    expect(store.held().backups).toEqual([newer]);
    expect(warnings).toEqual([]);
  });

  // Mutation that fails: as above (a discard or a clean close undone by the write that ends after it).
  it('a removal or a clean close made while a write is in flight stays made', async () => {
    const id = await openWalk();
    const hold = holdFirstWrite();
    const written = handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    await hold.opened;
    await handlers.backupUnsaved({ part: 'motion', backup: null });
    hold.release();
    await written;
    expect(readdirSync(folder)).toEqual([]);
    const again = holdFirstWrite();
    const second = handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    await again.opened;
    store.clear();
    again.release();
    await second;
    expect(readdirSync(folder)).toEqual([]);
    expect(store.held().backups).toEqual([]);
    expect(warnings).toEqual([]);
  });

  // What main waits for before it quits (main.ts will-quit): a copy being written counts until its write ends.
  // Mutations that fail: writeFileAtomicAsync not tracked; settleWrites not waiting (resolving at once).
  it('a copy being written counts among the writes in flight until it is on disk; settleWrites waits for it', async () => {
    const id = await openWalk();
    const hold = holdFirstWrite();
    const written = handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    await hold.opened;
    expect(writesInFlight.size).toBe(1);
    // A single file's write is no commit: a quit whose wait runs out does not ask about it (round 11). Mutation that
    // fails: every tracked write counted as a commit.
    expect(commitsInFlight.size).toBe(0);
    // Bounded: a write that does not end in time is left (the count of those still running comes back).
    expect(await settleWrites(writesInFlight, 1)).toBe(1);
    const settled = settleWrites(writesInFlight, 60_000);
    hold.release();
    expect(await settled).toBe(0);
    expect(existsSync(join(folder, 'motion.json'))).toBe(true);
    expect(writesInFlight.size).toBe(0);
    await written;
  });

  // Mutation that fails: put keeping a copy whatever came while its MTN was checked (the arrival check left out).
  it('a copy whose MTN check ends after a later copy or removal is dropped', async () => {
    let release = (): void => undefined;
    let calls = 0;
    const held = testHandlers({
      app: { samplePath: SAMPLE_MTN, startupPath: SAMPLE_MTN, workspaceRoot: ws },
      compress: fakeCompress(),
      backups: store,
      checkMotion: (req) => {
        const answer = inProcessMotionChecker(req);
        if (++calls > 1) return answer;
        return new Promise((done) => (release = () => void answer.then(done)));
      },
    });
    const id = (await openedMotion(held, join(ws, 'walk.mtn'))).documentId;
    const older = held.backupUnsaved({ part: 'motion', backup: motionCopy(id, { editedAt: 1 }) });
    const newer = motionCopy(id, { editedAt: 2 });
    await held.backupUnsaved({ part: 'motion', backup: newer });
    release();
    await older;
    expect(store.held().backups).toEqual([newer]);
    expect(onDisk().editedAt).toBe(2);
    // Its removal overtaken the same way: the page discarded the edits, and the late copy does not bring them back.
    calls = 0;
    const late = held.backupUnsaved({ part: 'motion', backup: motionCopy(id, { editedAt: 3 }) });
    await held.backupUnsaved({ part: 'motion', backup: null });
    release();
    await late;
    expect(store.held().backups).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
  });

  // Mutation that fails: the MTN read on the calling thread when the handlers offer their check (checkBackup's read).
  it("reads a copy's MTN bytes through the handlers' motion check (the worker in the app), not in the store", async () => {
    const seen: number[] = [];
    const checking = testHandlers({
      app: { samplePath: SAMPLE_MTN, startupPath: SAMPLE_MTN, workspaceRoot: ws },
      compress: fakeCompress(),
      backups: store,
      checkMotion: async (req) => {
        seen.push(req.mtnBytes.byteLength);
        // What the check says stands: three bytes pass (none read here), a good motion is refused in its words.
        return req.mtnBytes.byteLength === 3 ? { problem: null } : { problem: 'motion', message: 'said by the check' };
      },
    });
    const id = (await openedMotion(checking, join(ws, 'walk.mtn'))).documentId;
    const r = await dispatchInvoke(checking, 'backupUnsaved', { part: 'motion', backup: motionCopy(id) });
    expect(r).toMatchObject({
      ok: false,
      error: { message: 'backup: mtnBytes is not a valid MTN file (said by the check)' },
    });
    expect(store.held().backups).toEqual([]);
    const unread = motionCopy(id, { mtnBytes: new Uint8Array([1, 2, 3]) } as never);
    await checking.backupUnsaved({ part: 'motion', backup: unread });
    expect(store.held().backups).toEqual([unread]);
    expect(seen).toEqual([editedWalk().byteLength, 3]);
  });
});

describe('the backup file', () => {
  // The motion's base64 is put between the quotes as bytes, not through JSON.stringify (main-thread time): the file
  // must be the very bytes JSON.stringify gives, for a name of several UTF-8 bytes a character, one holding quotes
  // and the key's own spelling, and MTN bytes that are a view into a larger buffer. Mutations that fail: the head's
  // length in characters (not bytes); the view's offset ignored; the base64 written as UTF-16.
  it('holds exactly the JSON of the copy, with the MTN bytes as base64 and the inputs', () => {
    const mtnBytes = new Uint8Array(readFileSync(SAMPLE_MTN));
    const padded = new Uint8Array(mtnBytes.byteLength + 7);
    padded.set(mtnBytes, 5);
    const copy: UnsavedBackup = {
      part: 'motion',
      documentId: 'doc-1',
      name: 'wälk "mtnBytes":"" ☃',
      path: '/home/u/wälk.mtn',
      editedAt: 1_764_846_000_000,
      mtnBytes: padded.subarray(5, 5 + mtnBytes.byteLength),
      tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5 },
      rotationOverridesDeg: { 3: 2 },
    };
    const inputs = ['/home/u/wälk.glb'];
    const expected = JSON.stringify({ ...copy, mtnBytes: Buffer.from(mtnBytes).toString('base64'), inputs });
    expect(Buffer.from(backupFileBytes(copy, inputs)).toString('utf8')).toBe(expected);
    const sev: UnsavedBackup = { part: 'sev', name: 'wälk', path: '/w.sev', motionName: 'w', editedAt: 1, text: 'é' };
    expect(Buffer.from(backupFileBytes(sev, [])).toString('utf8')).toBe(JSON.stringify(sev));
  });

  // Made in pieces as the write asks for them (the main thread is never held for the whole base64): the pieces must
  // join into the very same file. Mutation that fails: a piece of MTN bytes not a multiple of 3 (padding mid-file).
  it('comes in pieces, the base64 of a few hundred KiB of MTN each, that join into the same bytes', () => {
    const size = 2 * BACKUP_PIECE_BYTES + 5;
    const whole = new Uint8Array(size + 3);
    for (let i = 0; i < whole.length; i++) whole[i] = (i * 131) & 0xff;
    const copy: UnsavedBackup = {
      part: 'motion',
      documentId: 'doc-1',
      name: 'long',
      path: '/home/u/long.mtn',
      editedAt: 1,
      mtnBytes: whole.subarray(3),
      tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5 },
      rotationOverridesDeg: {},
    };
    const pieces = [...backupFilePieces(copy, [])];
    // The head, three pieces of base64, the tail.
    expect(pieces.length).toBe(5);
    expect(Math.max(...pieces.map((p) => p.byteLength))).toBe((BACKUP_PIECE_BYTES / 3) * 4);
    const expected = JSON.stringify({
      ...copy,
      mtnBytes: Buffer.from(whole.subarray(3)).toString('base64'),
      inputs: [],
    });
    expect(Buffer.concat(pieces).toString('utf8')).toBe(expected);
    expect(Buffer.from(backupFileBytes(copy, [])).toString('utf8')).toBe(expected);
  });

  // A quit may cut a write off (main waits only so long): its temp is swept at the next start, not left (44 MB) until
  // its part is copied again. Mutation that fails: the sweep at the store's start left out.
  it("a temp a cut-off write left is swept when the store starts; another writer's running one and other files stay", () => {
    mkdirSync(folder, { recursive: true });
    const dead = join(folder, `motion.json.actguy-new.${host()}.4194305.abc123.tmp`);
    const running = join(folder, `sev.json.actguy-new.${host()}.${process.pid}.abc123.tmp`);
    const other = join(folder, 'notes.txt');
    for (const f of [dead, running, other]) writeFileSync(f, 'x');
    createBackupStore(folder);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});

describe('when copies go', () => {
  it('a save of the motion, the SEV or the project drops its copy (only that one), file included', async () => {
    const id = await openWalk();
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    const sev = {
      part: 'sev',
      name: 'walk.sev',
      path: join(ws, 'walk.sev'),
      motionName: 'walk',
      editedAt: 1,
      text: WALK_SEV,
    } as UnsavedBackup;
    await handlers.backupUnsaved({ part: 'sev', backup: sev });
    await handlers.saveMotion({ documentId: id, path: join(ws, 'walk.mtn'), mtnBytes: editedWalk() });
    expect(store.held().backups.map((b) => b.part)).toEqual(['sev']);
    expect(readdirSync(folder)).toEqual(['sev.json']);
    const project = {
      part: 'project',
      name: 'sample.actguy.json',
      path: join(ws, 'sample.actguy.json'),
      editedAt: 1,
      text: SAMPLE_PROJECT,
    } as UnsavedBackup;
    await handlers.backupUnsaved({ part: 'project', backup: project });
    await handlers.saveSev({ path: join(ws, 'walk.sev'), text: WALK_SEV });
    expect(store.held().backups).toEqual([project]);
    await handlers.saveProject({ path: join(ws, 'sample.actguy.json'), text: SAMPLE_PROJECT });
    expect(store.held().backups).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('the page drops one with null (its edits were discarded), and a clean close drops them all', async () => {
    const id = await openWalk();
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    await handlers.backupUnsaved({ part: 'motion', backup: null });
    expect(store.held().backups).toEqual([]);
    expect(existsSync(join(folder, 'motion.json'))).toBe(false);
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    store.clear();
    make();
    expect(store.held().backups).toEqual([]);
  });
});

describe('a copy that cannot be removed', () => {
  // On Windows an indexer or a virus scanner holds a file open for a moment; here, where root may remove any file, a
  // folder stands in its place. Mutation that fails: remove() without its try (the save threw after writing, and a
  // clean close threw out of main's close handler, Electron's error box with a stack).
  it('fails nothing: the save is saved, a clean close goes ahead, and a warning names the file', async () => {
    const id = await openWalk();
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    const copyFile = join(folder, 'motion.json');
    rmSync(copyFile);
    mkdirSync(join(copyFile, 'held'), { recursive: true });
    const saved = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: id,
      path: join(ws, 'walk.mtn'),
      mtnBytes: editedWalk(),
    });
    expect(saved).toMatchObject({ ok: true, value: { status: 'saved' } });
    expect(store.held().backups).toEqual([]);
    expect(warnings.join('\n')).toContain(`${copyFile} could not be removed`);
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    expect(() => store.clear()).not.toThrow();
    expect(store.held().backups).toEqual([]);
  });
});

describe('restoring', () => {
  it('opens a new document for the motion copy (never writing the file), re-keys the copy to it, and Save goes through saveMotion', async () => {
    const id = await openWalk();
    await handlers.backupUnsaved({ part: 'motion', backup: motionCopy(id) });
    const fileBefore = readFileSync(join(ws, 'walk.mtn'));
    const { backups } = await handlers.restoreBackups(undefined);
    const restored = backups[0] as Extract<UnsavedBackup, { part: 'motion' }>;
    expect(restored.documentId).not.toBe(id);
    expect(restored.mtnBytes).toEqual(editedWalk());
    expect(readFileSync(join(ws, 'walk.mtn'))).toEqual(fileBefore);
    expect(store.held().backups).toEqual([restored]);
    await handlers.saveMotion({
      documentId: restored.documentId,
      path: join(ws, 'walk.mtn'),
      mtnBytes: restored.mtnBytes,
    });
    expect(new Uint8Array(readFileSync(join(ws, 'walk.mtn')))).toEqual(editedWalk());
    expect(store.held().backups).toEqual([]);
  });
  it('a restored motion keeps the files it was read from: an export onto its imported .glb is refused, after a reload and after an app crash', async () => {
    const glb = join(ws, 'hero.glb');
    writeFileSync(glb, motionToGlb(readMtn(readFileSync(SAMPLE_MTN)), { animationName: 'Walk' }));
    const glbBefore = readFileSync(glb);
    const imported = await handlers.importMotion({ path: glb });
    if (imported.status !== 'imported') throw new Error(`expected an import, got ${imported.status}`);
    const exportOnto = (documentId: string) =>
      dispatchInvoke(handlers, 'exportGltf', { documentId, source: 'source', path: glb, mtnBytes: editedWalk() });
    const refused = {
      ok: false,
      error: {
        message: `Could not export ${glb}: it is ${glb}, a file this motion was read from; choose another name (nothing was written)`,
      },
    };
    expect(await exportOnto(imported.motion.documentId)).toEqual(refused);
    await handlers.backupUnsaved({
      part: 'motion',
      backup: motionCopy(imported.motion.documentId, { name: imported.motion.name, path: null }),
    });
    // The page crashed and reloaded: the copy comes back as a new document.
    const reloaded = (await handlers.restoreBackups(undefined)).backups[0] as Extract<
      UnsavedBackup,
      { part: 'motion' }
    >;
    expect(await exportOnto(reloaded.documentId)).toEqual(refused);
    // The app crashed: the next start reads the copy from its file.
    make();
    const restarted = (await handlers.restoreBackups(undefined)).backups[0] as Extract<
      UnsavedBackup,
      { part: 'motion' }
    >;
    expect(restarted.mtnBytes).toEqual(editedWalk());
    expect(await exportOnto(restarted.documentId)).toEqual(refused);
    expect(readFileSync(glb)).toEqual(glbBefore);
  });
  it('a SEV or project copy the window may no longer open after a restart keeps its text in a file a clean close leaves', async () => {
    // A project outside the workspace, picked in the dialog, with its .sev: both writable in this run only.
    const proj = join(dir, 'proj');
    mkdirSync(proj);
    for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
      copyFileSync(resolve(__dirname, '..', 'assets', f), join(proj, f));
    const projectPath = join(proj, 'stage.actguy.json');
    writeFileSync(
      projectPath,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
      }),
    );
    const dialogs = scriptedDialogs();
    make(dialogs);
    dialogs.answers.push(projectPath);
    expect((await handlers.openProjectDialog(undefined)).status).toBe('opened');
    const projectText = `${readFileSync(projectPath, 'utf8')}\n`;
    const sevText = `${WALK_SEV}# edited after the last save\n`;
    const sevPath = join(proj, 'walk.sev');
    await handlers.backupUnsaved({
      part: 'project',
      backup: { part: 'project', name: 'stage.actguy.json', path: projectPath, editedAt: 1, text: projectText },
    });
    await handlers.backupUnsaved({
      part: 'sev',
      backup: { part: 'sev', name: 'walk.sev', path: sevPath, motionName: 'walk', editedAt: 1, text: sevText },
    });
    // A reload in the same run restores both as before: nothing is set aside.
    expect((await handlers.restoreBackups(undefined)).setAside).toEqual([]);
    // The app crashed: after the restart the window may not open them (a copy's path grants nothing)...
    make();
    await expect(handlers.openProject({ path: projectPath })).rejects.toThrow(/refused/);
    const { setAside } = await handlers.restoreBackups(undefined);
    // ...so their texts are kept as files, named in the messages the page shows.
    const kept = join(folder, 'Not restored');
    // In order of the name after the time stamp: the two may be set aside on either side of a second's turn.
    const named = (f: string) => f.replace(/^\d{8}-\d{6}-/, '');
    const files = readdirSync(kept).sort((a, b) => named(a).localeCompare(named(b)));
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^\d{8}-\d{6}-stage\.actguy\.json$/);
    expect(files[1]).toMatch(/^\d{8}-\d{6}-walk\.sev$/);
    expect(readFileSync(join(kept, files[0]), 'utf8')).toBe(projectText);
    expect(readFileSync(join(kept, files[1]), 'utf8')).toBe(sevText);
    expect(setAside).toHaveLength(2);
    expect(setAside[0]).toContain(`The unsaved changes to ${sevPath}`);
    expect(setAside[0]).toContain(join(kept, files[1]));
    expect(setAside[1]).toContain(`The unsaved changes to ${projectPath}`);
    // Asked again (another reload), nothing is kept twice.
    await handlers.restoreBackups(undefined);
    expect(readdirSync(kept)).toHaveLength(2);
    // A clean close drops the copies, not the kept texts.
    store.clear();
    expect(readdirSync(kept).sort()).toEqual(files);
    expect(readFileSync(projectPath, 'utf8')).toBe(projectText.slice(0, -1));
  });
});

describe('backup files read back at start-up', () => {
  it('a corrupt, mislabelled, oversized or forged file is set aside with a message, never used, and start-up goes on', async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'motion.json'), '{"part":"motion","mtnBytes":');
    writeFileSync(
      join(folder, 'sev.json'),
      JSON.stringify({ part: 'project', name: 'p', path: '/p.actguy.json', editedAt: 1, text: '{}' }),
    );
    const forged = JSON.stringify({
      part: 'motion',
      documentId: 'd',
      name: 'w',
      path: null,
      editedAt: 1,
      mtnBytes: Buffer.from('not an mtn').toString('base64'),
      tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 },
      rotationOverridesDeg: {},
    });
    writeFileSync(join(folder, 'project.json'), forged.replace('"part":"motion"', '"part":"project"'));
    expect(() => make()).not.toThrow();
    expect(store.held().backups).toEqual([]);
    const set = store.held().setAside;
    expect(set).toHaveLength(3);
    expect(set[0]).toMatch(
      new RegExp(
        `${join(folder, 'motion.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be used \\(not JSON at line 1, column 29: expected a value \\(object, array, string, number, true, false or null\\)\\); moved to .*motion\\.json\\.bad-\\d+`,
      ),
    );
    expect(set[1]).toMatch(/sev\.json could not be used \(it holds a project copy\)/);
    expect(set[2]).toMatch(/project\.json could not be used \(backup: path must be/);
    expect(readdirSync(folder).filter((n) => n.endsWith('.json'))).toEqual([]);
    expect(readdirSync(folder).filter((n) => n.includes('.bad-'))).toHaveLength(3);
    // A motion whose bytes are not an MTN is set aside too (it would fail only once restored).
    writeFileSync(join(folder, 'motion.json'), forged);
    make();
    expect(store.held().setAside[0]).toMatch(/mtnBytes is not a valid MTN file/);
    // The files a motion was read from: a list of absolute paths, nothing else (a planted list only adds refusals).
    const valid = JSON.parse(await toFileCopy()) as Record<string, unknown>;
    for (const inputs of ['/x.glb', ['relative.glb'], ['/a\0.glb'], Array(65).fill('/x.glb')]) {
      writeFileSync(join(folder, 'motion.json'), JSON.stringify({ ...valid, inputs }));
      make();
      expect(store.held().backups).toEqual([]);
      expect(store.held().setAside[0]).toMatch(/motion\.json could not be used \(backup: inputs(\[0\])? must be/);
    }
    // A copy's path is the file main holds: absolute, without NUL (found by `npm run fuzz -- --format backup`: a
    // relative one was restored naming a file relative to wherever the app started).
    for (const path of ['walk.mtn', '../outside/x.mtn', '/p/wa\0lk.mtn']) {
      writeFileSync(join(folder, 'motion.json'), JSON.stringify({ ...valid, path }));
      make();
      expect(store.held().backups).toEqual([]);
      expect(store.held().setAside[0]).toMatch(
        /motion\.json could not be used \(backup: path must be an absolute path without NUL or null\)/,
      );
    }
    writeFileSync(
      join(folder, 'project.json'),
      JSON.stringify({ part: 'project', name: 'p', path: 'stage.actguy.json', editedAt: 1, text: '{}' }),
    );
    make();
    expect(store.held().setAside[0]).toMatch(
      /project\.json could not be used \(backup: path must be an absolute path without NUL\)/,
    );
    writeFileSync(join(folder, 'motion.json'), JSON.stringify({ ...valid, inputs: ['/elsewhere/x.glb'] }));
    make();
    expect(store.held().backups).toHaveLength(1);
    expect(store.inputsOf('motion')).toEqual(['/elsewhere/x.glb']);
    rmSync(join(folder, 'motion.json'));
    // Over the size bound: refused before it is read (a sparse file).
    writeFileSync(join(folder, 'sev.json'), '');
    truncateSync(join(folder, 'sev.json'), MAX_BACKUP_FILE_BYTES + 1);
    make();
    expect(store.held().backups).toEqual([]);
    expect(store.held().setAside.join()).toMatch(
      /sev\.json could not be used \(it is \d+ bytes, more than the \d+ it could be\)/,
    );
  });
});

describe('copies set aside are bounded (round 6)', () => {
  it('a start that sets one aside keeps it and the newest others up to the bound; what is not named as one stays', () => {
    mkdirSync(folder, { recursive: true });
    // Twenty earlier starts of a crash loop, some dated in the future (the clock set back since).
    const times = Array.from({ length: 20 }, (_, k) => (k % 4 === 0 ? 9_000_000_000_000 + k : 1_000 + k));
    for (const t of times) writeFileSync(join(folder, `motion.json.bad-${t}`), 'x');
    for (const t of [5, 6]) writeFileSync(join(folder, `sev.json.bad-${t}`), 'x');
    mkdirSync(join(folder, 'motion.json.bad-1'));
    writeFileSync(join(folder, 'motion.json.bad-2x'), 'mine');
    writeFileSync(join(folder, 'notes.json.bad-3'), 'mine');
    writeFileSync(join(folder, 'motion.json'), 'not json');
    make();
    const aside = /moved to (.*)\.$/.exec(store.held().setAside[0])![1];
    const plain = readdirSync(folder).filter((n) => /^motion\.json\.bad-\d+$/.test(n) && n !== 'motion.json.bad-1');
    expect(plain).toHaveLength(MAX_SET_ASIDE_PER_PART);
    expect(plain).toContain(aside.slice(folder.length + 1));
    // The newest by their time (the future-dated ones), then the one just made.
    const future = times.filter((t) => t > 1e12).sort((a, b) => b - a);
    expect(plain.sort()).toEqual(
      [
        aside.slice(folder.length + 1),
        ...future.slice(0, MAX_SET_ASIDE_PER_PART - 1).map((t) => `motion.json.bad-${t}`),
      ].sort(),
    );
    for (const kept of [
      'motion.json.bad-1',
      'motion.json.bad-2x',
      'notes.json.bad-3',
      'sev.json.bad-5',
      'sev.json.bad-6',
    ])
      expect(existsSync(join(folder, kept)), kept).toBe(true);
  });
});

describe('deferredBackupStore (the loopback server: a store before it listens, its folder once it holds its port)', () => {
  // Round 26. A copy's path is read back from the Backups folder (local state, read as a stranger's), and it went
  // into the message whole: a line break or a bidirectional override in it showed another file's name than the one
  // the copy is of. Mutation that fails: the message without quotePath.
  it("names an unwritable copy's path with its hidden characters escaped", async () => {
    const s = createBackupStore(folder);
    const sevPath = join(ws, 'walk\u202everbs.sev\nThe unsaved changes to notes.sev');
    await s.put(
      { part: 'sev', name: 'walk.sev', path: sevPath, motionName: 'walk', editedAt: 1, text: WALK_SEV },
      null,
    );
    const [message] = createBackupStore(folder).keepUnwritable(() => false);
    expect(message).toContain(`The unsaved changes to ${join(ws, 'walk\\u202everbs.sev\\u000aThe unsaved changes')}`);
    expect(message).not.toMatch(/[\u202e\n]/);
  });

  it('hands every call to the store set last, none to the one it replaced', async () => {
    const first = createBackupStore(null);
    const next = createBackupStore(folder);
    const deferred = deferredBackupStore(first);
    deferred.use(next);
    const s = deferred.store;
    const sevPath = join(ws, 'walk.sev');
    const projectPath = join(ws, 'sample.actguy.json');
    await s.put(motionCopy('doc-1'), null, ['/elsewhere/walk.glb']);
    await s.put(
      { part: 'sev', name: 'walk.sev', path: sevPath, motionName: 'walk', editedAt: 1, text: WALK_SEV },
      null,
    );
    await s.put({ part: 'project', name: 'sample', path: projectPath, editedAt: 1, text: SAMPLE_PROJECT }, null);
    expect(first.held().backups).toEqual([]);
    expect(next.held().backups.map((b) => b.part)).toEqual(['motion', 'sev', 'project']);
    expect(s.held()).toEqual(next.held());
    expect(s.inputsOf('motion')).toEqual(['/elsewhere/walk.glb']);
    // Only a store with a folder keeps an unwritable copy's text apart: the deferred store's answer is next's.
    expect(s.keepUnwritable((p) => p !== sevPath)).toEqual([expect.stringContaining(`unsaved changes to ${sevPath}`)]);
    s.removeSaved('sev', sevPath);
    expect(next.held().backups.map((b) => b.part)).toEqual(['motion', 'project']);
    expect(existsSync(join(folder, 'sev.json'))).toBe(false);
    s.remove('project');
    expect(existsSync(join(folder, 'project.json'))).toBe(false);
    s.clear();
    expect(next.held().backups).toEqual([]);
    expect(existsSync(join(folder, 'motion.json'))).toBe(false);
  });
});
