/**
 * A motion's Save never silently replaces a .mtn or tuning file that changed on disk since the page loaded it
 * (electron/loadedFiles.ts, docs/security.md "Saves of a motion compare too"): saveMotion compares both files with what
 * the open read (their bytes, or that there was none) before anything is written, and again inside the write, right
 * before it installs them (the commit of the pair: before its journal, so a refusal leaves the old pair and nothing to
 * complete). A change refuses the save with ChangedOnDiskError; "Save anyway" (`overwriteChanged`) replaces only what
 * the refusal found; a Save As elsewhere is no conflict.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tuningPathOf } from '../shared/tuning/sidecar';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { commitOutputs, recoverOutputs } from './build/commit';
import { ChangedOnDiskError, LoadedFiles } from './loadedFiles';
import { inProcessMotionChecker, type MotionChecker } from './motionCheckJob';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';

const compress = useCompressClientPerTest();
let ws: string;
let handlers: ApiHandlers;
/** Run while a save's motion is checked: after the first comparison, before anything is written. */
let duringCheck: () => void = () => undefined;
let mtn: string;
let tuning: string;
const TUNING = '{"version": 1, "rotationOverridesDeg": {"LeftFoot": 1}}\n';
const MINE = '{"version": 1, "rotationOverridesDeg": {"LeftFoot": 2}}\n';

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-motion-conflict-'));
  cpSync(ASSETS, ws, { recursive: true });
  mtn = join(ws, 'walk.mtn');
  tuning = tuningPathOf(mtn);
  const checkMotion: MotionChecker = async (req) => {
    const r = await inProcessMotionChecker(req);
    duringCheck();
    return r;
  };
  handlers = testHandlers({ app: { startupPath: mtn, workspaceRoot: ws }, compress: compress(), checkMotion });
  duringCheck = () => undefined;
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

/** Files the commit or the write left beside the pair: temps, backups, a journal, a lock. */
const leftovers = (): string[] => readdirSync(ws).filter((n) => /\.tmp$|journal|\.lock$/.test(n));

/** The refusal a save ended with (it must be ChangedOnDiskError). */
async function refusal(p: Promise<unknown>): Promise<ChangedOnDiskError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ChangedOnDiskError);
  return e as ChangedOnDiskError;
}

/** Opens walk.mtn (with its tuning file when `withTuning`) and returns what Save sends, edited. */
async function opened(withTuning = true): Promise<{ documentId: string; mtnBytes: Uint8Array }> {
  if (withTuning) writeFileSync(tuning, TUNING);
  const m = await openedMotion(handlers, mtn);
  const mtnBytes = new Uint8Array(m.mtnBytes);
  // An edit: the last byte's neighbour is padding-free motion data; any other bytes of the same length do.
  mtnBytes[mtnBytes.length - 1] ^= 1;
  return { documentId: m.documentId, mtnBytes };
}

/** Bytes of the same length as the file's, one flipped: a colleague's edit the size cannot tell. */
function flipped(path: string): Buffer {
  const b = readFileSync(path);
  b[0] ^= 1;
  return b;
}

describe("a motion's Save over files changed on disk", () => {
  it('a .mtn changed since it was opened (same size) is refused, the pair untouched', async () => {
    const { documentId, mtnBytes } = await opened();
    const theirs = flipped(mtn);
    writeFileSync(mtn, theirs);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.change).toBe('changed');
    expect(e.path).toBe(mtn);
    expect(e.message).toMatch(/walk\.mtn.*changed on disk since it was opened.*nothing was written/);
    expect(readFileSync(mtn)).toEqual(theirs);
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING);
    expect(leftovers()).toEqual([]);
  });

  it('the tuning file alone changed is refused, naming it; the .mtn is not written either', async () => {
    const { documentId, mtnBytes } = await opened();
    const before = readFileSync(mtn);
    writeFileSync(tuning, TUNING.replace('1}', '3}'));
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.change).toBe('changed');
    expect(e.path).toBe(tuning);
    expect(readFileSync(mtn)).toEqual(before);
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING.replace('1}', '3}'));
    expect(leftovers()).toEqual([]);
  });

  it('a tuning file the open found missing, made on disk since, is refused as created', async () => {
    rmSync(tuning, { force: true });
    const { documentId, mtnBytes } = await opened(false);
    writeFileSync(tuning, TUNING);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.change).toBe('created');
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING);
  });

  it('a .mtn deleted since it was opened is refused as deleted, and nothing is made there', async () => {
    const { documentId, mtnBytes } = await opened();
    unlinkSync(mtn);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.change).toBe('deleted');
    expect(existsSync(mtn)).toBe(false);
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING);
  });

  it('a .mtn replaced by a folder is refused as folder', async () => {
    const { documentId, mtnBytes } = await opened(false);
    unlinkSync(mtn);
    mkdirSync(mtn);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes }));
    expect(e.change).toBe('folder');
  });

  it('a tuning file replaced by a link (inside the folder) is refused as link, the file it leads to untouched', async () => {
    const { documentId, mtnBytes } = await opened();
    const target = join(ws, 'other.json');
    writeFileSync(target, TUNING);
    unlinkSync(tuning);
    symlinkSync(target, tuning);
    // The policy refuses a link put at the name first (round 32); either way nothing is written through it.
    const outcome = await handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }).then(
      () => 'saved',
      (err: unknown) => err,
    );
    expect(String(outcome)).toMatch(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe(TUNING);
  });

  it('both touched with their bytes unchanged is no change: the pair is saved', async () => {
    const { documentId, mtnBytes } = await opened();
    for (const p of [mtn, tuning]) utimesSync(p, new Date(2001, 1, 1), new Date(2001, 1, 1));
    await handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE });
    expect(new Uint8Array(readFileSync(mtn))).toEqual(mtnBytes);
    expect(readFileSync(tuning, 'utf8')).toBe(MINE);
  });

  it('a change made while the motion was checked is refused inside the commit: old pair, no journal, no temps', async () => {
    const { documentId, mtnBytes } = await opened();
    const theirs = flipped(mtn);
    duringCheck = () => writeFileSync(mtn, theirs);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.path).toBe(mtn);
    expect(readFileSync(mtn)).toEqual(theirs);
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING);
    expect(leftovers()).toEqual([]);
    // Nothing is left for the next commit to complete.
    expect(recoverOutputs([mtn, tuning])).toBeUndefined();
    expect(readFileSync(mtn)).toEqual(theirs);
  });

  it('a change made while a .mtn alone was checked is refused right before its rename', async () => {
    const { documentId, mtnBytes } = await opened(false);
    const theirs = flipped(mtn);
    duringCheck = () => writeFileSync(mtn, theirs);
    await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes }));
    expect(readFileSync(mtn)).toEqual(theirs);
    expect(leftovers()).toEqual([]);
  });

  it('Save anyway replaces what the refusal found, and only that', async () => {
    const { documentId, mtnBytes } = await opened();
    writeFileSync(tuning, TUNING.replace('1}', '3}'));
    await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    // Changed again after the question: asked again.
    writeFileSync(tuning, TUNING.replace('1}', '5}'));
    await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE, overwriteChanged: true }));
    await handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE, overwriteChanged: true });
    expect(new Uint8Array(readFileSync(mtn))).toEqual(mtnBytes);
    expect(readFileSync(tuning, 'utf8')).toBe(MINE);
    // What was written is what the next Save compares with.
    await handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: TUNING });
    writeFileSync(mtn, flipped(mtn));
    await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
  });

  it('a Save As to another file is no conflict, even over one opened before and changed since', async () => {
    const other = join(ws, 'walk_60fps.mtn');
    await openedMotion(handlers, other);
    const { documentId, mtnBytes } = await opened();
    writeFileSync(other, flipped(other));
    writeFileSync(mtn, flipped(mtn));
    await handlers.saveMotion({ documentId, path: other, mtnBytes, tuningText: MINE });
    expect(new Uint8Array(readFileSync(other))).toEqual(mtnBytes);
    expect(readFileSync(tuningPathOf(other), 'utf8')).toBe(MINE);
  });

  it('the refusal reaches the page as changedOnDisk, with its path and change', async () => {
    const { documentId, mtnBytes } = await opened();
    writeFileSync(tuning, `${TUNING} `);
    const reply = await dispatchInvoke(handlers, 'saveMotion', { documentId, path: mtn, mtnBytes, tuningText: MINE });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.changedOnDisk).toEqual({ path: tuning, change: 'changed' });
  });
});

describe('the commit of a pair refused at its commit point', () => {
  it('leaves the old pair, no journal and no temp, whatever step a fault stops at after it', () => {
    const a = join(ws, 'a.mtn');
    const b = join(ws, 'a.mtn.tuning.json');
    writeFileSync(a, 'old a');
    writeFileSync(b, 'old b');
    const files = new LoadedFiles();
    files.remember(a, 'old a');
    files.remember(b, 'old b');
    const still = [files.check(a), files.check(b)];
    const pair = [
      { path: a, bytes: new TextEncoder().encode('new a') },
      { path: b, bytes: new TextEncoder().encode('new b') },
    ];
    // Changed after the first comparison, before the commit point: refused there, as it is.
    writeFileSync(b, 'their b');
    const steps: string[] = [];
    expect(() =>
      commitOutputs(pair, {
        onStep: (_n, label) => steps.push(label),
        beforeCommitPoint: () => still.forEach((s) => s()),
      }),
    ).toThrow(ChangedOnDiskError);
    expect(steps).not.toContain('journal');
    expect(readFileSync(a, 'utf8')).toBe('old a');
    expect(readFileSync(b, 'utf8')).toBe('their b');
    expect(leftovers()).toEqual([]);
    expect(recoverOutputs([a, b])).toBeUndefined();
    // A fault at any install step after a check that passed rolls back to the old pair as before (commit.ts).
    writeFileSync(b, 'old b');
    files.remember(b, 'old b');
    let renames = 0;
    expect(() =>
      commitOutputs(pair, {
        beforeCommitPoint: () => [files.check(a), files.check(b)].forEach((s) => s()),
        fs: {
          renameSync: (from, to) => {
            if (to === b && ++renames === 1) throw Object.assign(new Error('EIO'), { code: 'EIO' });
            return renameSync(from, to);
          },
        },
      }),
    ).toThrow(/the previous files were kept/);
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['old a', 'old b']);
    expect(leftovers()).toEqual([]);
  });
});
