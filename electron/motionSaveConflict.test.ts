/**
 * A motion's Save never silently replaces a .mtn or tuning file that changed on disk since the page loaded it
 * (electron/loadedFiles.ts, docs/security.md "Saves of a motion compare too"): saveMotion compares both files with what
 * the open read (their bytes, or that there was none) before anything is written, and again inside the write, right
 * before it installs them (the commit of the pair: before its journal, so a refusal leaves the old pair and nothing to
 * complete). A change refuses the save with ChangedOnDiskError; "Save anyway" (`overwriteChanged`) replaces only what
 * the refusal found; a Save As elsewhere is no conflict.
 */
import {
  copyFileSync,
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
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TUNING_MAX_BYTES, tuningPathOf } from '../shared/tuning/sidecar';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { commitOutputs, recoverOutputs } from './build/commit';
import { ChangedOnDiskError, LoadedFiles } from './loadedFiles';
import { createBackupStore } from './unsavedBackups';
import { inProcessMotionChecker, type MotionChecker } from './motionCheckJob';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { asyncWriteIo } from './fsutil';

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

  it('a tuning file too large to show is remembered unread: a change to it is refused, unchanged it is replaced', async () => {
    const big = `{"version": 1, "note": "${'x'.repeat(TUNING_MAX_BYTES)}"}\n`;
    writeFileSync(tuning, big);
    const { documentId, mtnBytes } = await opened(false);
    // Another program writes it again, the same size: only its times (and content) tell.
    const theirs = big.replace('"x', '"y');
    writeFileSync(tuning, theirs);
    utimesSync(tuning, new Date(2002, 1, 1), new Date(2002, 1, 1));
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.path).toBe(tuning);
    expect(e.change).toBe('changed');
    expect(readFileSync(tuning, 'utf8')).toBe(theirs);
    // Opened again and left alone, Save replaces it with the tuner's settings, as before.
    const again = await opened(false);
    await handlers.saveMotion({ documentId: again.documentId, path: mtn, mtnBytes, tuningText: MINE });
    expect(readFileSync(tuning, 'utf8')).toBe(MINE);
  });

  it('a tuning file whose text does not decode is remembered by its bytes: a change to it is refused', async () => {
    const broken = Buffer.from(`${TUNING.slice(0, -2)}\xff}\n`, 'latin1');
    writeFileSync(tuning, broken);
    const { documentId, mtnBytes } = await opened(false);
    const theirs = Buffer.from(broken);
    theirs[0] = 0x20;
    writeFileSync(tuning, theirs);
    const e = await refusal(handlers.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.path).toBe(tuning);
    expect(readFileSync(tuning)).toEqual(theirs);
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

describe('the copy a Reload from disk keeps of the edits it drops', () => {
  /** The names the Reload's copy of walk.mtn takes in each of the next five seconds (its first try each second). */
  const nextCopyNames = (): string[] => {
    const two = (n: number) => String(n).padStart(2, '0');
    const stampOf = (d: Date) =>
      `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}-${two(d.getMinutes())}-${two(d.getSeconds())}`;
    const now = Date.now();
    return [0, 1, 2, 3, 4].map((s) => join(ws, `walk (edits kept ${stampOf(new Date(now + s * 1000))}).mtn`));
  };

  it('writes the edits and their tuning as new files beside the motion, touching nothing there, listed as recent', async () => {
    const { documentId, mtnBytes } = await opened();
    const theirs = flipped(mtn);
    writeFileSync(mtn, theirs);
    const before = readdirSync(ws).sort();
    const kept = await handlers.keepMotionCopy({ documentId, mtnBytes, tuningText: MINE });
    expect(kept.path).toMatch(/\/walk \(edits kept \d{4}-\d\d-\d\d \d\d-\d\d-\d\d\)\.mtn$/);
    expect(kept.tuningPath).toBe(tuningPathOf(kept.path));
    expect(new Uint8Array(readFileSync(kept.path))).toEqual(mtnBytes);
    expect(readFileSync(kept.tuningPath!, 'utf8')).toBe(MINE);
    // The pair on disk is as the other program left it; only the two new files came.
    expect(readFileSync(mtn)).toEqual(theirs);
    expect(readFileSync(tuning, 'utf8')).toBe(TUNING);
    expect(readdirSync(ws).sort()).toEqual(
      [...before, kept.path.slice(ws.length + 1), kept.tuningPath!.slice(ws.length + 1)].sort(),
    );
    expect((await handlers.getRecentFiles(undefined)).map((f) => f.path)).toContain(kept.path);
    // It opens as any motion, with the edits and their tuning.
    const copy = await openedMotion(handlers, kept.path);
    expect(new Uint8Array(copy.mtnBytes)).toEqual(mtnBytes);
    expect(copy.tuning).toEqual({ path: kept.tuningPath, text: MINE });
    // A second copy never replaces the first.
    const second = await handlers.keepMotionCopy({ documentId, mtnBytes });
    expect(second.path).not.toBe(kept.path);
    expect(second.tuningPath).toBeNull();
    expect(new Uint8Array(readFileSync(kept.path))).toEqual(mtnBytes);
  });

  it('never writes through whatever lies at a name it would take: a link there is passed over, its target not made', async () => {
    const { documentId, mtnBytes } = await opened();
    // A dangling link at the copy's name for each of the next seconds, leading to a file that must not be made.
    const target = join(ws, 'elsewhere.mtn');
    for (const name of nextCopyNames()) symlinkSync(target, name);
    const kept = await handlers.keepMotionCopy({ documentId, mtnBytes });
    expect(kept.path).toMatch(/ 2\)\.mtn$/);
    expect(new Uint8Array(readFileSync(kept.path))).toEqual(mtnBytes);
    expect(existsSync(target)).toBe(false);
  });

  // Round 42: the copy's name is the motion's and about 56 bytes more (its tuning file's); a motion named near the
  // 255 bytes a file name may take had no copy (ENAMETOOLONG), so its Reload from disk stopped. Mutation that fails:
  // the motion's name not shortened (keptBaseName returning it whole).
  it("keeps a copy of a motion whose name is long, its name cut to fit, never past a character's bytes", async () => {
    const long = join(ws, `${'é'.repeat(60)}${'x'.repeat(110)}.mtn`);
    copyFileSync(mtn, long);
    const { documentId, mtnBytes } = await openedMotion(handlers, long);
    const kept = await handlers.keepMotionCopy({ documentId, mtnBytes, tuningText: MINE });
    const name = basename(kept.tuningPath!);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^é{60}x+ \(edits kept [^)]*\)\.mtn\.actguy-tuning\.json$/);
    expect(new Uint8Array(readFileSync(kept.path))).toEqual(mtnBytes);
  });

  // Mutation audit, round 3 (docs/testing.md): the copy kept beside an .mtn the window only reads (the start-up
  // sample) passed every test without `policy.mayWrite`: nothing may be written in a folder the window only reads.
  it('keeps no copy beside a motion the window only reads, and says what to do', async () => {
    const sample = join(ws, 'sample', 'walk.mtn');
    mkdirSync(join(ws, 'sample'));
    cpSync(mtn, sample);
    const reader = testHandlers({
      app: { samplePath: sample, startupPath: sample, workspaceRoot: null },
      compress: compress(),
      checkMotion: inProcessMotionChecker,
    });
    const { documentId, mtnBytes } = await openedMotion(reader, sample);
    await expect(reader.keepMotionCopy({ documentId, mtnBytes })).rejects.toThrow(
      'Could not keep a copy of walk: a copy is kept only beside an .mtn this window saves; keep your edits with Save As',
    );
    expect(readdirSync(join(ws, 'sample'))).toEqual(['walk.mtn']);
  });

  // Mutation audit, round 3: without the look at the tuning file's name, a link there failed the copy (its .mtn made
  // and removed again) instead of passing over to the next name.
  it('a link at the name of the copy’s tuning file alone passes over that name too', async () => {
    const { documentId, mtnBytes } = await opened();
    const target = join(ws, 'elsewhere.json');
    for (const name of nextCopyNames()) symlinkSync(target, tuningPathOf(name));
    const kept = await handlers.keepMotionCopy({ documentId, mtnBytes, tuningText: MINE });
    expect(kept.path).toMatch(/ 2\)\.mtn$/);
    expect(readFileSync(kept.tuningPath!, 'utf8')).toBe(MINE);
    expect(existsSync(target)).toBe(false);
  });

  // Mutation audit, round 3: the copy is the pair or nothing; without the removal of its .mtn when its tuning file
  // fails, a copy without its tuning was left (and reopened with the motion's defaults).
  it('a tuning file that cannot be written takes the copy’s .mtn with it', async () => {
    const { documentId, mtnBytes } = await opened();
    const before = readdirSync(ws).sort();
    const open = asyncWriteIo.open;
    let opens = 0;
    asyncWriteIo.open = (p, flags, mode) =>
      ++opens === 2
        ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
        : open(p, flags, mode);
    try {
      await expect(handlers.keepMotionCopy({ documentId, mtnBytes, tuningText: MINE })).rejects.toThrow(
        /its tuning file: .*; nothing was kept$/,
      );
    } finally {
      asyncWriteIo.open = open;
    }
    expect(opens).toBe(2);
    expect(readdirSync(ws).sort()).toEqual(before);
  });

  it('keeps nothing of bytes that are not a motion, and says so', async () => {
    const { documentId } = await opened();
    const before = readdirSync(ws).sort();
    await expect(handlers.keepMotionCopy({ documentId, mtnBytes: new Uint8Array([1, 2, 3]) })).rejects.toThrow(
      /^Could not keep a copy of walk: .*nothing was written$/,
    );
    expect(readdirSync(ws).sort()).toEqual(before);
  });
});

describe('a copy of unsaved edits restored after a restart', () => {
  /** A window with its copies kept in `folder` (a fresh LoadedFiles: what a restart has). */
  const windowWith = (folder: string) =>
    testHandlers({
      app: { startupPath: mtn, workspaceRoot: ws },
      compress: compress(),
      backups: createBackupStore(folder),
    });

  /** Opens walk.mtn with its tuning in one window, copies an edit, and restores it in the next: its Save's arguments. */
  async function restoredAfterRestart(between: () => void) {
    const folder = join(ws, 'Backups');
    const first = windowWith(folder);
    writeFileSync(tuning, TUNING);
    const m = await openedMotion(first, mtn);
    const mtnBytes = new Uint8Array(m.mtnBytes);
    mtnBytes[mtnBytes.length - 1] ^= 1;
    await first.backupUnsaved({
      part: 'motion',
      backup: {
        part: 'motion',
        documentId: m.documentId,
        name: 'walk',
        path: mtn,
        editedAt: 1_700_000_000_000,
        mtnBytes,
        tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 2, offsetTolerance: 0.5 },
        rotationOverridesDeg: {},
      },
    });
    between();
    const next = windowWith(folder);
    const restored = await next.restoreBackups(undefined);
    const [copy] = restored.backups;
    if (copy?.part !== 'motion') throw new Error(`no motion copy restored: ${restored.setAside.join('; ')}`);
    return { next, documentId: copy.documentId, mtnBytes };
  }

  it('its Save compares the pair with what the edits were made over: a change since the crash is asked about', async () => {
    const original = readFileSync(mtn);
    const { next, documentId, mtnBytes } = await restoredAfterRestart(() => writeFileSync(mtn, flipped(mtn)));
    const theirs = readFileSync(mtn);
    const e = await refusal(next.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE }));
    expect(e.path).toBe(mtn);
    expect(readFileSync(mtn)).toEqual(theirs);
    // The tuning file alone, too.
    writeFileSync(mtn, original);
    const again = await restoredAfterRestart(() => writeFileSync(tuning, TUNING.replace('1}', '3}')));
    const t = await refusal(
      again.next.saveMotion({ documentId: again.documentId, path: mtn, mtnBytes, tuningText: MINE }),
    );
    expect(t.path).toBe(tuning);
  });

  it('a copy whose file names a remembered state of another shape is set aside, naming the field', async () => {
    const folder = join(ws, 'Backups');
    await restoredAfterRestart(() => {
      const file = join(folder, 'motion.json');
      const held = JSON.parse(readFileSync(file, 'utf8'));
      expect(held.loaded.mtn).toMatchObject({ kind: 'file', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      held.loaded.mtn.sha256 = 'not a hash';
      writeFileSync(file, JSON.stringify(held));
    }).then(
      () => expect.unreachable('restored'),
      (e: unknown) =>
        expect(String(e)).toMatch(
          /no motion copy restored: .*motion\.json could not be used \(backup: loaded\.mtn must be/,
        ),
    );
  });

  it('unchanged on disk, its Save writes the pair', async () => {
    const { next, documentId, mtnBytes } = await restoredAfterRestart(() => undefined);
    await next.saveMotion({ documentId, path: mtn, mtnBytes, tuningText: MINE });
    expect(new Uint8Array(readFileSync(mtn))).toEqual(mtnBytes);
    expect(readFileSync(tuning, 'utf8')).toBe(MINE);
  });
});

describe('a journal beside a motion the window only reads', () => {
  it('refuses the open, naming it, and touches nothing (the start-up sample is read, never written)', async () => {
    const sample = join(ws, 'sample', 'walk.mtn');
    mkdirSync(join(ws, 'sample'));
    cpSync(mtn, sample);
    const journal = `${sample}.actguy-commit`;
    writeFileSync(journal, '{}');
    const reader = testHandlers({
      app: { samplePath: sample, startupPath: sample, workspaceRoot: null },
      compress: compress(),
    });
    await expect(reader.openMotion({ path: sample })).rejects.toThrow(
      /^Could not open .*walk\.mtn.*: an interrupted save left .*walk\.mtn\.actguy-commit.* ActGuy only reads this motion/,
    );
    expect(readFileSync(journal, 'utf8')).toBe('{}');
    expect(readdirSync(join(ws, 'sample')).sort()).toEqual(['walk.mtn', 'walk.mtn.actguy-commit']);
  });
});
