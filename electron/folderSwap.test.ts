/**
 * A write the app checks, then makes seconds later: Export MT3 checks its path and compresses before it writes, a
 * SEV or project save checks its text in a worker first. A folder on the path swapped for a link in that window (by
 * whoever can write the folder above it: a synced or network share a colleague also writes) had the file written
 * where the link led, outside every folder the user chose (docs/security.md, round 14's open item, fixed in round 17).
 * The folder is pinned at the check (fsutil.ts FolderPin) and checked again before the temp is made and before the
 * rename; the swap is made inside the very wait, by the compressor or text checker the handlers are given.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  closeSync as realCloseSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import { readMtn } from '../shared/mtn/read';
import { dispatchInvoke } from './invokeReply';
import { EXPORT_AGAIN_NEXT, SAVE_MOTION_NEXT, saveAgainNext } from './fsErrors';
import { inProcessMotionChecker } from './motionCheckJob';
import { defaultTuning, serializeTuning } from '../shared/tuning/sidecar';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { asyncWriteIo, atomicWriteIo, openPinnedFolders, pinFolder, writeFileAtomic } from './fsutil';
import { BUILD_REPORT_KIND, commitOutputs } from './build/commit';
import { buildProject } from './build/build';
import { readBuildInput } from './build/files';
import { inProcessBuild, settleBuild, testProjectHandlers } from './testing/projectHarness';
import { canonicalPath } from './pathPolicy';
import { inProcessTextChecker } from './project/textCheckJob';
import { inProcessImportRunner } from './interchange/importRunner';
import { SMALL_BVH } from '../shared/testing/bvhFixtures';
import type { CompressClient } from './compressClient';
import { pieceOfWork } from './testing/pieceOfWork';

const compress = useCompressClientPerTest();

let dir: string;
let ws: string;
let out: string;
let victim: string;
beforeEach(() => {
  dir = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-folder-swap-')));
  ws = join(dir, 'ws');
  out = join(ws, 'out');
  victim = join(dir, 'victim');
  cpSync(ASSETS, ws, { recursive: true });
  mkdirSync(out);
  mkdirSync(victim);
});
afterEach(() => {
  Object.assign(atomicWriteIo, { closeSync: realCloseSync });
  rmSync(dir, { recursive: true, force: true });
});

/** The swap: ws/out moves aside and a link to the victim's folder takes its name. */
function swap(): void {
  renameSync(out, `${out}-aside`);
  symlinkSync(victim, out);
}

const everything = () => [...readdirSync(victim), ...readdirSync(`${out}-aside`)];

describe('a folder swapped for a link while a write waits', () => {
  it('Export MT3: the compression is the wait; nothing lands where the link leads', async () => {
    const real = compress();
    const swapping: CompressClient = {
      open: (d) => real.open(d),
      close: (id) => real.close(id),
      compress: (req, o) => {
        swap();
        return real.compress(req, o);
      },
      exportMsh: (req) => real.exportMsh(req),
      dispose: () => real.dispose(),
    };
    // A file there of a temp's name, a day old: the sweep before the write would remove it, were it made there.
    const stale = join(victim, 'walk.mt3.actguy-new.otherhost.1234.abcdef.tmp');
    writeFileSync(stale, 'theirs');
    utimesSync(stale, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const handlers = testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: swapping,
    });
    const { documentId, mtnBytes } = await pieceOfWork('walk.mtn opened', openedMotion(handlers, join(ws, 'walk.mtn')));
    const path = join(out, 'walk.mt3');
    const r = await pieceOfWork(
      'the MT3 export (its compression) answered',
      dispatchInvoke(handlers, 'exportMt3', {
        path,
        compress: compressRequestForMotion(readMtn(mtnBytes), documentId, 1),
      }),
    );
    expect(r).toEqual({
      ok: false,
      error: {
        message:
          `Could not export ${path}: its folder ${out} changed after it was checked (it now leads to ${victim}); ` +
          `nothing was written there; the file on disk is unchanged. ${EXPORT_AGAIN_NEXT}`,
      },
    });
    expect(everything()).toEqual(['walk.mt3.actguy-new.otherhost.1234.abcdef.tmp']);
  }, 0); // each piece bounded by pieceOfWork (docs/testing.md, "Tests under load, round 5")

  /** A compress client whose compression or MSH export swaps the folder before it starts. */
  const swappingClient = (): CompressClient => {
    const real = compress();
    return {
      open: (d) => real.open(d),
      close: (id) => real.close(id),
      compress: (req, o) => {
        swap();
        return real.compress(req, o);
      },
      exportMsh: (req) => {
        swap();
        return real.exportMsh(req);
      },
      dispose: () => real.dispose(),
    };
  };

  it('Export glTF of the compressed motion and Export MSH: their waits too', async () => {
    const handlers = testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: swappingClient(),
    });
    const { documentId, mtnBytes } = await pieceOfWork('walk.mtn opened', openedMotion(handlers, join(ws, 'walk.mtn')));
    const glb = join(out, 'walk.glb');
    const g = await pieceOfWork(
      'the glTF export (its compression) answered',
      dispatchInvoke(handlers, 'exportGltf', {
        documentId,
        source: 'compressed',
        mtnBytes,
        path: glb,
        compress: compressRequestForMotion(readMtn(mtnBytes), documentId, 1),
      }),
    );
    expect(g).toEqual({
      ok: false,
      error: {
        message:
          `Could not export ${glb}: its folder ${out} changed after it was checked (it now leads to ${victim}); ` +
          `nothing was written there; the file on disk is unchanged. ${EXPORT_AGAIN_NEXT}`,
      },
    });
    expect(everything()).toEqual([]);
    // Back as it was, for the MSH export's own swap; a file of a temp's name there, a day old, which the commit's
    // sweep would remove were it started there.
    rmSync(out);
    renameSync(`${out}-aside`, out);
    const stale = join(victim, 'walk.res8.actguy-new.otherhost.1234.abcdef.tmp');
    writeFileSync(stale, 'theirs');
    utimesSync(stale, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const m = await pieceOfWork(
      'the MSH export answered',
      dispatchInvoke(handlers, 'exportMsh', {
        documentId,
        positionTolerance: 0.5,
        rotationToleranceDeg: 1,
        path: join(out, 'walk.res8'),
      }),
    );
    expect(m).toMatchObject({ ok: false });
    expect((m as { error: { message: string } }).error.message).toContain(
      `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written`,
    );
    expect(everything()).toEqual(['walk.res8.actguy-new.otherhost.1234.abcdef.tmp']);
  }, 0); // each piece bounded by pieceOfWork (docs/testing.md, "Tests under load, round 5")

  it('batch import: a later import is the wait; no .mtn lands where the link leads', async () => {
    // a.bvh imports and its output is checked; then b.bvh, which fails, takes its time: a.mtn is written after it.
    const sources = ['a.bvh', 'b.bvh'].map((f) => join(out, f));
    writeFileSync(sources[0], SMALL_BVH);
    writeFileSync(sources[1], 'HIERARCHY\nbroken\n');
    const handlers = testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: compress(),
      runImport: (req, signal) => {
        if (req.path === sources[1]) swap();
        return inProcessImportRunner(req, signal);
      },
    });
    const r = await pieceOfWork(
      'the batch import answered',
      dispatchInvoke(handlers, 'importMotionBatch', { paths: sources }),
    );
    expect(r).toMatchObject({ ok: true });
    const items = (r as { value: { items: { error: string | null }[] } }).value.items;
    expect(items[0].error).toBe(
      `cannot write ${join(out, 'a.mtn')}: its folder ${out} changed after it was checked (it now leads to ` +
        `${victim}); nothing was written there`,
    );
    expect(readdirSync(victim)).toEqual([]);
  }, 0); // each piece bounded by pieceOfWork (docs/testing.md, "Tests under load, round 5")

  it('SEV save: the text check is the wait; nothing lands where the link leads', async () => {
    const handlers = testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: compress(),
      checkText: async (req) => {
        swap();
        return inProcessTextChecker(req);
      },
    });
    const path = join(out, 'walk.sev');
    const r = await dispatchInvoke(handlers, 'saveSev', { path, text: readFileSync(join(ws, 'walk.sev'), 'utf8') });
    expect(r).toMatchObject({ ok: false });
    expect((r as { error: { message: string } }).error.message).toBe(
      `Could not save ${path}: its folder ${out} changed after it was checked (it now leads to ${victim}); ` +
        `nothing was written there; the file on disk is unchanged and your edits are kept. ${saveAgainNext('Save SEV')}`,
    );
    expect(everything()).toEqual([]);
  });

  /** Handlers whose motion check (a worker's, the wait of a motion's Save and of a reload's copy) swaps the folder first. */
  const swappingAtMotionCheck = () =>
    testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: compress(),
      checkMotion: async (req) => {
        swap();
        return inProcessMotionChecker(req);
      },
    });

  // Mutations that fail: the save's write without its folder pin (writeFileAtomic's `folder`, commitOutputs' `folders`).
  it('motion save: the motion check (in a worker) is the wait; nothing lands where the link leads, tuning or not', async () => {
    const handlers = swappingAtMotionCheck();
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    const path = join(out, 'walk.mtn');
    const alone = await dispatchInvoke(handlers, 'saveMotion', { documentId, path, mtnBytes });
    expect((alone as { error: { message: string } }).error.message).toBe(
      `Could not save ${path}: its folder ${out} changed after it was checked (it now leads to ${victim}); ` +
        `nothing was written there; the file on disk is unchanged and your edits are kept. ${SAVE_MOTION_NEXT}`,
    );
    expect(everything()).toEqual([]);
    // Back as it was, then the same with the tuning file: the two files' commit meets the swap too.
    rmSync(out);
    renameSync(`${out}-aside`, out);
    const both = await dispatchInvoke(handlers, 'saveMotion', {
      documentId,
      path,
      mtnBytes,
      tuningText: serializeTuning(defaultTuning(), readMtn(mtnBytes).joints),
    });
    expect((both as { error: { message: string } }).error.message).toContain(
      `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written`,
    );
    expect(everything()).toEqual([]);
  });

  // Round 42: a motion's Reload from disk keeps the edits as a new pair beside the motion (keepMotionCopy), checked in
  // a worker first. The copy went by name after that wait, so a folder swapped for a link meanwhile had the user's
  // edits written where the link led, listed as recent and granted to the page there. Mutations that fail this: the
  // copy's folder not pinned before the check; the copy made by name after the folder's open (writeNewFileAsync
  // given no `pinned`).
  it("a motion's copy kept at Reload: the motion check is the wait; nothing lands where the link leads", async () => {
    cpSync(join(ws, 'walk.mtn'), join(out, 'walk.mtn'));
    const handlers = swappingAtMotionCheck();
    const { documentId, mtnBytes } = await openedMotion(handlers, join(out, 'walk.mtn'));
    const tuningText = serializeTuning(defaultTuning(), readMtn(mtnBytes).joints);
    await expect(handlers.keepMotionCopy({ documentId, mtnBytes, tuningText })).rejects.toThrow(
      `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written`,
    );
    expect(readdirSync(victim)).toEqual([]);
    expect(readdirSync(`${out}-aside`)).toEqual(['walk.mtn']);
    expect((await handlers.getRecentFiles(undefined)).map((f) => f.path).filter((p) => p.includes('kept'))).toEqual([]);
    if (process.platform !== 'linux') return;
    // Put back, then swapped at the copy's own open, after the last check: it is made in the folder checked.
    rmSync(out);
    renameSync(`${out}-aside`, out);
    const handlers2 = testHandlers({
      app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
      compress: compress(),
      checkMotion: inProcessMotionChecker,
    });
    const second = await openedMotion(handlers2, join(out, 'walk.mtn'));
    const realOpen = asyncWriteIo.open;
    let swapped = false;
    asyncWriteIo.open = (p, f, m) => {
      if (!swapped) swap();
      swapped = true;
      return realOpen(p, f, m);
    };
    try {
      const kept = await handlers2.keepMotionCopy({ documentId: second.documentId, mtnBytes, tuningText });
      expect(readdirSync(victim)).toEqual([]);
      expect(readdirSync(`${out}-aside`).sort()).toEqual(
        [basename(kept.path), basename(kept.tuningPath!), 'walk.mtn'].sort(),
      );
    } finally {
      asyncWriteIo.open = realOpen;
    }
  });

  it('writeFileAtomic: a swap after the temp is written is met before the rename', () => {
    const folder = pinFolder(out);
    Object.assign(atomicWriteIo, {
      closeSync: (fd: number) => {
        realCloseSync(fd);
        swap();
      },
    });
    expect(() => writeFileAtomic(join(out, 'x.sev'), 'sev 1\n', { folder })).toThrow(
      `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written there`,
    );
    expect(readdirSync(victim)).toEqual([]);
  });

  /** A project in ws writing out/s.mar, out/s.sar and out/s.report.json; `out` not made yet when `fresh`. */
  const project = (fresh = false): string => {
    if (fresh) rmSync(out, { recursive: true });
    const file = join(ws, 'p.actguy.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
      }),
    );
    return file;
  };
  const refusal = () =>
    `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written`;

  it('actguy build: the compression is the wait, for an out/ there or one the commit would make', async () => {
    for (const fresh of [false, true]) {
      const file = project(fresh);
      let swapped = false;
      const r = buildProject(file, {
        cacheDir: null,
        jobs: 1,
        readFile: (path, as) => {
          if (!swapped) {
            swapped = true;
            // Not made yet: a link takes the name the commit would have made a folder of.
            if (fresh) symlinkSync(victim, out);
            else swap();
          }
          return readBuildInput(path, as);
        },
      });
      await expect(pieceOfWork(`the build (${fresh ? 'no out/' : 'out/ there'}) ended`, r)).rejects.toThrow(refusal());
      expect(readdirSync(victim)).toEqual([]);
      rmSync(out);
      if (!fresh) renameSync(`${out}-aside`, out);
    }
  }, 0); // each piece bounded by pieceOfWork (docs/testing.md, "Tests under load, round 5")

  it("the app's Build: the build is the wait; the commit writes nowhere else", async () => {
    const file = project();
    const { h, openPicked } = testProjectHandlers({
      launchBuild: (req, onMessage, onCrash) => {
        swap();
        return inProcessBuild(req, onMessage, onCrash);
      },
    });
    const projectText = await openPicked(file);
    const started = await h.startBuild({ projectPath: file, projectText });
    const done = await pieceOfWork(
      'the build ended',
      settleBuild(() => h.getBuildStatus({ buildId: started.buildId })),
    );
    expect(done.state).toBe('failed');
    expect(done.errors.map((e) => e.message).join('\n')).toContain(refusal());
    expect(readdirSync(victim)).toEqual([]);
  }, 0); // each piece bounded by pieceOfWork (docs/testing.md, "Tests under load, round 5")

  it('commitOutputs: a swap after the temps are written is met before anything is installed', () => {
    const folder = pinFolder(out)!;
    let swapped = false;
    const fs = {
      writeFileSync: (p: string, d: Uint8Array, o: object) => {
        writeFileSync(p, d, o);
        if (!swapped) swap();
        swapped = true;
      },
    };
    const files = ['a.res8', 'a.res19'].map((n) => ({ path: join(out, n), bytes: new Uint8Array([1, 2, 3]) }));
    expect(() => commitOutputs(files, { fs: fs as never, folders: [folder] })).toThrow(
      `cannot write ${files.map((f) => f.path).join(', ')}: its folder ${out} changed after it was checked (it now ` +
        `leads to ${victim}); nothing was written`,
    );
    expect(readdirSync(victim)).toEqual([]);
    // Where the folder went, only the commit's own files (its lock and temps, named after the process, swept later).
    expect(readdirSync(`${out}-aside`).filter((n) => !n.includes('.actguy-'))).toEqual([]);
  });

  // Round 41: the instant between the last check and the rename. A folder swapped there (the motion's Save reads and
  // hashes the file on disk in it) had the file land where the link led; now the rename goes through the folder
  // checked, opened by descriptor. Mutation that fails these: the single write or the commit renaming by name again.
  describe('a swap after the last check, right before the rename (Linux)', () => {
    const onLinux = process.platform === 'linux';
    /** atomicWriteIo.renameSync swapping the folder first, once: the attacker's timing at its best. */
    const swapAtRename = () => {
      let swapped = false;
      Object.assign(atomicWriteIo, {
        renameSync: (a: string, b: string) => {
          if (!swapped) swap();
          swapped = true;
          renameSync(a, b);
        },
      });
    };
    afterEach(() => {
      Object.assign(atomicWriteIo, { renameSync });
    });

    it.runIf(onLinux)('writeFileAtomic: the file lands in the folder checked, never where the link leads', () => {
      const folder = pinFolder(out);
      swapAtRename();
      writeFileAtomic(join(out, 'x.sev'), 'sev 1\n', { folder });
      expect(readdirSync(victim)).toEqual([]);
      expect(readFileSync(join(`${out}-aside`, 'x.sev'), 'utf8')).toBe('sev 1\n');
    });

    it.runIf(onLinux)(
      'SEV save and a lone motion save (off the main thread): the same, through the handlers',
      async () => {
        const handlers = testHandlers({
          app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
          compress: compress(),
          checkText: inProcessTextChecker,
          checkMotion: inProcessMotionChecker,
        });
        const sev = readFileSync(join(ws, 'walk.sev'), 'utf8');
        swapAtRename();
        const path = join(out, 'walk.sev');
        const saved = await dispatchInvoke(handlers, 'saveSev', { path, text: sev });
        expect(saved).toMatchObject({ ok: true });
        expect(readdirSync(victim)).toEqual([]);
        expect(readFileSync(join(`${out}-aside`, 'walk.sev'), 'utf8')).toBe(sev);
        rmSync(out);
        renameSync(`${out}-aside`, out);
        const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
        swapAtRename();
        const mtn = join(out, 'walk.mtn');
        expect(await dispatchInvoke(handlers, 'saveMotion', { documentId, path: mtn, mtnBytes })).toMatchObject({
          ok: true,
        });
        expect(readdirSync(victim)).toEqual([]);
        expect(readFileSync(join(`${out}-aside`, 'walk.mtn'))).toEqual(Buffer.from(mtnBytes));
      },
    );

    it.runIf(onLinux)(
      'commitOutputs (a motion with its tuning file, a build, an MSH export): the journal and the renames too',
      () => {
        const folder = pinFolder(out)!;
        let swapped = false;
        const fs = {
          renameSync: (a: string, b: string) => {
            if (!swapped) swap();
            swapped = true;
            renameSync(a, b);
          },
        };
        const files = ['a.res8', 'a.res19'].map((n) => ({ path: join(out, n), bytes: new Uint8Array([1, 2, 3]) }));
        commitOutputs(files, { fs: fs as never, folders: [folder] });
        expect(readdirSync(victim)).toEqual([]);
        expect(
          readdirSync(`${out}-aside`)
            .filter((n) => !n.includes('.actguy-'))
            .sort(),
        ).toEqual(['a.res19', 'a.res8']);
        expect(readFileSync(join(`${out}-aside`, 'a.res19'))).toEqual(Buffer.from([1, 2, 3]));
      },
    );

    // Round 41, continued: the commit's lock and temps too (a build, an MSH export, written on this thread). The folder
    // swapped right before its first file (the lock) is made: the lock and every temp go into the folder checked, never
    // where the link leads, and the install is then refused by the check before it. Mutations that fail: the commit's
    // temps made by name (`fs: via` back to `fs` in beginCommit), and its lock taken by name (takeLock given `fs`).
    it.runIf(onLinux)(
      "commitOutputs: a swap before its lock and temps are made gives the link's folder nothing",
      () => {
        const folder = pinFolder(out)!;
        const seen: string[][] = [];
        const fs = {
          writeFileSync: (p: string, d: Uint8Array, o: object) => {
            if (seen.length === 0) swap();
            writeFileSync(p, d, o);
            seen.push(readdirSync(victim));
          },
        };
        const files = ['a.res8', 'a.res19'].map((n) => ({ path: join(out, n), bytes: new Uint8Array([1, 2, 3]) }));
        expect(() => commitOutputs(files, { fs: fs as never, folders: [folder] })).toThrow(
          `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written`,
        );
        // The lock, then the two temps: each made with nothing in the link's folder.
        expect(seen).toEqual([[], [], []]);
        expect(readdirSync(victim)).toEqual([]);
        // Removed where they were made, the lock as well.
        expect(readdirSync(`${out}-aside`)).toEqual([]);
      },
    );

    // Round 42: the commit's kind check (otherKindProblem) read an existing output's first bytes by name. Swapped for a
    // link between the folder's check and that read, and put back before the install, the folder let a file of the
    // link's folder (a report) vouch for the user's own file at that name, which the commit then replaced. Mutation
    // that fails this: the kind check given `targets[k]` again instead of its path through the folder checked.
    it.runIf(onLinux)("commitOutputs: the kind check reads the folder checked, not the link's", () => {
      const folder = pinFolder(out)!;
      const report = join(out, 's.report.json');
      writeFileSync(report, '{"mine": "settings of the user"}\n');
      writeFileSync(join(victim, 's.report.json'), '{"tool": "actguy build", "theirs": true}\n');
      let state: 'before' | 'swapped' | 'back' = 'before';
      const fs = {
        // The sweep lists the folder after the lock and before the kind check: swapped there.
        readdirSync: (p: string) => {
          if (state === 'before') {
            swap();
            state = 'swapped';
          }
          return readdirSync(p);
        },
        // The first temp is written after the kind check: put back there, so that no later check sees the swap.
        writeFileSync: (p: string, d: Uint8Array, o: object) => {
          if (state === 'swapped') {
            rmSync(out);
            renameSync(`${out}-aside`, out);
            state = 'back';
          }
          writeFileSync(p, d, o);
        },
      };
      const files = [
        { path: report, bytes: new TextEncoder().encode('{"tool": "actguy build"}\n'), kind: BUILD_REPORT_KIND },
      ];
      expect(() => commitOutputs(files, { fs: fs as never, folders: [folder] })).toThrow(
        `refused to replace ${report}: it is already there and is not an ActGuy build report`,
      );
      expect(state).toBe('swapped');
      rmSync(out);
      renameSync(`${out}-aside`, out);
      expect(readFileSync(report, 'utf8')).toBe('{"mine": "settings of the user"}\n');
      expect(readFileSync(join(victim, 's.report.json'), 'utf8')).toBe('{"tool": "actguy build", "theirs": true}\n');
    });

    it.runIf(onLinux)('a swap just before the folder is opened is refused, as before', () => {
      const folder = pinFolder(out)!;
      swap();
      expect(() => openPinnedFolders([folder], join(out, 'x.sev'))).toThrow(
        `its folder ${out} changed after it was checked (it now leads to ${victim}); nothing was written there`,
      );
    });
  });

  it('writeFileAtomic: the folder unchanged, the pinned write goes through', () => {
    const folder = pinFolder(out);
    writeFileAtomic(join(out, 'x.sev'), 'sev 1\n', { folder });
    expect(readFileSync(join(out, 'x.sev'), 'utf8')).toBe('sev 1\n');
  });
});
