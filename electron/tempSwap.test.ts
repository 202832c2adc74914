/**
 * A save writes its temp off the main thread, opened by name in the thread pool (fsutil.ts writeFileAtomicAsync,
 * build/commit.ts commitOutputsAsync). Whoever may write the folder can swap it for a link to a folder of theirs
 * around that open and put it back before the rename: the temp is made in their folder, and the pinned folder's
 * check before the rename passes again (docs/security.md, round 35). Before this round, a save with its tuning file
 * then found no temp at the motion's name, took it for installed and said "saved" with the old motion on disk (the
 * tuning file new, its unsaved-work copy removed); a plain save installed whatever they put at the temp's name
 * meanwhile as the user's file. Now each refuses, nothing of theirs installed and the file unchanged. The swap is
 * made by the test's seam at the open, never by timing.
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
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMtn } from '../shared/mtn/read';
import { defaultTuning, serializeTuning, tuningPathOf } from '../shared/tuning/sidecar';
import type { ApiHandlers } from './handlers';
import { asyncWriteIo, writeFileAtomicAsync } from './fsutil';
import { commitOutputsAsync } from './build/commit';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { inProcessTextChecker } from './project/textCheckJob';

const compress = useCompressClientPerTest();
const realAsyncIo = { ...asyncWriteIo };

let ws: string;
let share: string;
let theirs: string;
let handlers: ApiHandlers;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-temp-swap-'));
  share = join(ws, 'share');
  theirs = join(ws, 'theirs');
  cpSync(ASSETS, share, { recursive: true });
  mkdirSync(theirs);
  handlers = testHandlers({
    app: { startupPath: join(share, 'walk.mtn'), workspaceRoot: ws },
    compress: compress(),
    checkText: inProcessTextChecker,
  });
});
afterEach(() => {
  Object.assign(asyncWriteIo, realAsyncIo);
  rmSync(ws, { recursive: true, force: true });
});

/**
 * At the first open made off the main thread: the shared folder swapped for a link to `theirs` for the open, then put
 * back; with `plant`, a file of theirs put at the temp's name in the shared folder. Gives what their folder held right
 * after that open, while the link was still in place (undefined before it).
 */
function swapAroundFirstOpen(plant?: Uint8Array): { inTheirs: () => string[] | undefined } {
  let opens = 0;
  let inTheirs: string[] | undefined;
  asyncWriteIo.open = async (path, flags, mode) => {
    // By name, or through the shared folder's descriptor (a pinned write's temp, round 41).
    if (++opens > 1 || !(dirname(path) === share || path.startsWith('/proc/self/fd/')))
      return realAsyncIo.open(path, flags, mode);
    renameSync(share, `${share}.away`);
    symlinkSync(theirs, share);
    const fd = await realAsyncIo.open(path, flags, mode);
    inTheirs = readdirSync(theirs);
    unlinkSync(share);
    renameSync(`${share}.away`, share);
    if (plant) writeFileSync(join(share, basename(path)), plant);
    return fd;
  };
  return { inTheirs: () => inTheirs };
}

describe("a folder swapped for a link around the open of a save's temp, and put back", () => {
  // Mutation that fails: writeFileAtomicAsync without refuseTempNotWritten (their file is installed as the file).
  it("a write by name does not install the file put at the temp's name", async () => {
    const path = join(share, 'walk.sev');
    const before = readFileSync(path, 'utf8');
    swapAroundFirstOpen(new TextEncoder().encode('sev 1\n# theirs\n'));
    await expect(writeFileAtomicAsync(path, `${before}# mine\n`)).rejects.toThrow(
      /changed while it was written.*nothing was written there/,
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
    // The temp made in their folder is removed there too (round 36; round 35 left it).
    expect(readdirSync(theirs)).toEqual([]);
  });

  // Round 41: a pinned write (every save) makes its temp through the folder it checked, so the swap gives their folder
  // nothing, not even for an instant, and the save lands. Mutation that fails: the temp made by name (tempHome).
  it.runIf(process.platform === 'linux')(
    'a .sev save makes its temp in the folder checked: nothing reaches their folder, and it saves',
    async () => {
      const path = join(share, 'walk.sev');
      const before = readFileSync(path, 'utf8');
      const swapped = swapAroundFirstOpen();
      await handlers.saveSev({ path, text: `${before}# mine\n` });
      expect(readFileSync(path, 'utf8')).toBe(`${before}# mine\n`);
      expect(swapped.inTheirs()).toEqual([]);
      expect(readdirSync(theirs)).toEqual([]);
    },
  );

  // Mutation that fails: the install without refuseTempNotWritten (the commit says written; a.res8 is the old one and
  // a.res19 the new one). A commit with no folder pinned makes its temps by name, as a write by name does.
  it('a commit by name is refused whole, not said written with one file old', async () => {
    const files = ['a.res8', 'a.res19'].map((n) => join(share, n));
    for (const f of files) writeFileSync(f, 'old');
    swapAroundFirstOpen();
    await expect(
      commitOutputsAsync(files.map((path) => ({ path, bytes: new TextEncoder().encode('new') }))),
    ).rejects.toThrow(/changed while it was written.*nothing was written there/);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(['old', 'old']);
    expect(readdirSync(theirs)).toEqual([]);
  });

  // Round 41, continued: a motion's Save with its tuning file (a commit, pinned as every save is) makes its temps and
  // backups through the folder it checked, so the swap around the temp's open gives their folder nothing, not even for
  // the instant the temp is written, and the pair lands whole. Mutation that fails: the commit's temps made by name
  // (beginCommit's `fs: via` back to `fs`: the temp is made in their folder, and the save is refused).
  it.runIf(process.platform === 'linux')(
    'a motion saved with its tuning file makes its temps in the folder checked: nothing reaches their folder, and it saves',
    async () => {
      const path = join(share, 'walk.mtn');
      const tuningText = serializeTuning(defaultTuning(), readMtn(new Uint8Array(readFileSync(path))).joints);
      // A tuning file there already, so that the commit links it aside too (a backup, made through the folder as well).
      writeFileSync(tuningPathOf(path), tuningText.replace('{', '{ '));
      const { documentId } = await openedMotion(handlers, path);
      const newer = new Uint8Array(readFileSync(join(share, 'walk_60fps.mtn')));
      const swapped = swapAroundFirstOpen();
      await handlers.saveMotion({ documentId, path, mtnBytes: newer, tuningText });
      expect(swapped.inTheirs()).toEqual([]);
      expect(readdirSync(theirs)).toEqual([]);
      expect(Buffer.from(readFileSync(path)).equals(Buffer.from(newer))).toBe(true);
      expect(readFileSync(tuningPathOf(path), 'utf8')).toBe(tuningText);
      expect(readdirSync(share).filter((n) => n.includes('.actguy-') && !n.endsWith('.actguy-tuning.json'))).toEqual(
        [],
      );
    },
  );
});
