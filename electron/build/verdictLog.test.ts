/**
 * The log of the local verdicts (docs/cache.md, "Local verdicts"): a save that changed a few records appends them as
 * one checksummed line beside the verdict file instead of rewriting it, and the log is local state read as untrusted
 * input: bounded, checksummed for the one file it extends, and dropped from the first line that is not whole, not
 * checksummed for that file, or not of our shape.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStateFolder, stateFolderProblem, stateFolderWarnings } from './buildCache';
import { accountFiles } from './ownerGroup';
import {
  VERDICT_LOG_MAX_BYTES,
  openVerdictStore,
  parseVerdicts,
  stampOf,
  verdictLogKey,
  verdictLogLine,
  type FileStamp,
} from './verdicts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const [k1, k2, k3, k4, d1, d2] = ['1', '2', '3', '4', 'd', 'e'].map((c) => c.repeat(64));
const STAMP: FileStamp = { size: 10, mtimeNs: '1', ctimeNs: '2', ino: '3', dev: '4' };

/** A cache folder and a state folder, with a verdict file saved whole that knows k1. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-vlog-'));
  dirs.push(dir);
  const cache = join(dir, 'cache');
  const state = join(dir, 'state');
  mkdirSync(cache);
  const open = () => openVerdictStore(cache, state);
  const first = open();
  first.remember(k1, d1);
  first.save();
  const file = first.file!;
  const log = file.replace(/\.json$/, '.log');
  const id = (JSON.parse(readFileSync(file, 'utf8')) as { cache: string }).cache;
  /** A line checksummed for the verdict file as it is now. */
  const line = (payload: unknown) =>
    verdictLogLine(
      verdictLogKey(stampOf(statSync(file, { bigint: true }))),
      typeof payload === 'string' ? payload : JSON.stringify(payload),
    );
  return { dir, cache, state, open, file, log, id, line };
}

const fileId = (path: string) => {
  const st = statSync(path, { bigint: true });
  return `${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
};

describe('the log of the local verdicts', () => {
  it('a save that changed a few records appends one line and leaves the verdict file as it was', () => {
    const s = setup();
    const before = { id: fileId(s.file), text: readFileSync(s.file, 'utf8') };
    const store = s.open();
    store.remember(k2, d2, STAMP);
    store.recordFile('/p/a.mtn', STAMP, d1, { fps: 30, frameCount: 5, joints: [] as never });
    store.forget(k1);
    store.save();
    expect(fileId(s.file)).toBe(before.id);
    expect(readFileSync(s.file, 'utf8')).toBe(before.text);
    expect(readFileSync(s.log, 'utf8').split('\n')).toHaveLength(2);
    const again = s.open();
    expect([again.knows(k1), again.knows(k2)]).toEqual([false, true]);
    expect(again.entryDigest(k2, STAMP)).toBe(d2);
    expect(again.digestOf('/p/a.mtn', STAMP)).toBe(d1);
    // A second build's save appends a second line.
    again.remember(k3, d1);
    again.save();
    expect(readFileSync(s.log, 'utf8').split('\n')).toHaveLength(3);
    expect(fileId(s.file)).toBe(before.id);
    expect([k1, k2, k3].map((k) => s.open().knows(k))).toEqual([false, true, true]);
  });

  it('two builds that read the same file both append: the records of each are kept', () => {
    const s = setup();
    const a = s.open();
    const b = s.open();
    a.remember(k2, d1);
    b.remember(k3, d1);
    a.save();
    b.save();
    expect([k1, k2, k3].map((k) => s.open().knows(k))).toEqual([true, true, true]);
  });

  it('a log is read only with the file it extends: once the file is rewritten (by hand or by a build) its lines are not records', () => {
    const s = setup();
    const store = s.open();
    store.remember(k2, d1);
    store.save();
    expect(s.open().knows(k2)).toBe(true);
    // The same records, written again with a space more: another file, so the old log is not its log.
    writeFileSync(s.file, `${readFileSync(s.file, 'utf8')} `);
    const reopened = s.open();
    expect([reopened.knows(k1), reopened.knows(k2)]).toEqual([true, false]);
    // Its save rewrites the file whole and removes the stale log.
    reopened.remember(k3, d1);
    reopened.save();
    expect(existsSync(s.log)).toBe(false);
    expect([k1, k2, k3].map((k) => s.open().knows(k))).toEqual([true, false, true]);
  });

  it('a damaged line and every line after it are dropped; the next save rewrites the file and removes the log', () => {
    const s = setup();
    const good = s.line({ verdicts: { [k2]: [d1, 5] } });
    const flipped = s.line({ verdicts: { [k3]: [d1, 5] } }).replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const after = s.line({ verdicts: { [k4]: [d1, 5] } });
    writeFileSync(s.log, good + flipped + after);
    const store = s.open();
    expect([k1, k2, k3, k4].map((k) => store.knows(k))).toEqual([true, true, false, false]);
    // The payload changed under a checksum made for another: refused too.
    writeFileSync(s.log, good + s.line({ verdicts: { [k3]: [d1, 5] } }).replace(k3, k4) + after);
    expect([k2, k3, k4].map((k) => s.open().knows(k))).toEqual([true, false, false]);
    // A last line without its line break (a save cut short) is not applied.
    writeFileSync(s.log, good + after.slice(0, -1));
    expect([k2, k4].map((k) => s.open().knows(k))).toEqual([true, false]);
    // A log with a refused line is not appended to: the save rewrites the file (with what was kept) and removes it.
    const saving = s.open();
    saving.remember(k3, d2);
    saving.save();
    expect(existsSync(s.log)).toBe(false);
    expect([k1, k2, k3, k4].map((k) => s.open().knows(k))).toEqual([true, true, true, false]);
  });

  it('records of a checksummed line are held to the shape the verdict file holds them to, one by one', () => {
    const s = setup();
    const h = 'a'.repeat(64);
    writeFileSync(
      s.log,
      s.line({
        verdicts: { [k2]: [d1, 5], bad: [d1, 5], [k3]: ['x', 5], [k4]: [d1, -1], [h]: { digest: d1 } },
        files: { '/a': [3, '1', '2', '3', '4', h, 9], '/b': [3, 1, '2', '3', '4', h, 9], '/c': [1, 2] },
        skeletons: 'none',
        forget: [5, null, { k: k1 }],
        walk: [5, -1],
      }) +
        s.line([1, 2]) +
        s.line({ verdicts: { [h]: [d1, 5] } }),
    );
    const text = readFileSync(s.file, 'utf8');
    const key = verdictLogKey(stampOf(statSync(s.file, { bigint: true })));
    const stored = parseVerdicts(text, s.id, { text: readFileSync(s.log, 'utf8'), key });
    expect([...stored.verdicts.keys()].sort()).toEqual([k1, k2]);
    expect([...stored.files.keys()]).toEqual(['/a']);
    expect(stored.walk).toBeUndefined();
    // The line that is not an object stops the log: the line after it is not applied.
    expect(stored.logClean).toBe(false);
    // Of another cache folder's file, nothing: not its lines either.
    expect(parseVerdicts(text, 'other', { text: readFileSync(s.log, 'utf8'), key }).verdicts.size).toBe(0);
  });

  it('a log that is not a regular file within its limit is not read, never blocks, and is replaced by the next save', () => {
    const s = setup();
    const cases: [string, () => void][] = [
      ['a folder', () => mkdirSync(s.log)],
      [
        'a link to a log of good lines',
        () => {
          const target = join(s.dir, 'elsewhere.log');
          writeFileSync(target, s.line({ verdicts: { [k2]: [d1, 5] } }));
          symlinkSync(target, s.log);
        },
      ],
      [
        'over the limit',
        () => {
          const good = s.line({ verdicts: { [k2]: [d1, 5] } });
          writeFileSync(s.log, good.repeat(Math.ceil((VERDICT_LOG_MAX_BYTES + 1) / good.length)));
        },
      ],
    ];
    if (process.platform !== 'win32') cases.push(['a FIFO', () => expect(spawnSync('mkfifo', [s.log]).status).toBe(0)]);
    cases.forEach(([what, plant], i) => {
      rmSync(s.log, { recursive: true, force: true });
      plant();
      const store = s.open();
      expect(store.knows(k2), what).toBe(false);
      const digest = String(i).repeat(64);
      store.remember(k3, digest, STAMP);
      store.save();
      // The file was rewritten whole (it holds k3's new digest), and what stood in the log's place is gone but a folder.
      expect(JSON.parse(readFileSync(s.file, 'utf8')).verdicts[k3][0], what).toBe(digest);
      expect([s.open().knows(k1), s.open().entryDigest(k3, STAMP)], what).toEqual([true, digest]);
      if (what !== 'a folder')
        expect(existsSync(s.log) || lstatSync(s.log, { throwIfNoEntry: false }), what).toBeFalsy();
    });
    // The link's target was not written through.
    expect(readFileSync(join(s.dir, 'elsewhere.log'), 'utf8').split('\n')).toHaveLength(2);
  });

  it('a save that would take the log past its limit rewrites the file and starts no log', () => {
    const s = setup();
    const filler = s.line({ verdicts: {}, pad: 'x'.repeat(VERDICT_LOG_MAX_BYTES - 300) });
    writeFileSync(s.log, filler);
    const store = s.open();
    store.remember(k2, d1, STAMP);
    store.save();
    expect(existsSync(s.log)).toBe(false);
    expect(s.open().entryDigest(k2, STAMP)).toBe(d1);
  });

  it('a save that changed many records rewrites the file instead of appending', () => {
    const s = setup();
    const before = fileId(s.file);
    const store = s.open();
    for (let i = 0; i < 300; i++) store.remember(i.toString(16).padStart(64, '0'), d1);
    store.save();
    expect(existsSync(s.log)).toBe(false);
    expect(fileId(s.file)).not.toBe(before);
    expect(s.open().knows((299).toString(16).padStart(64, '0'))).toBe(true);
  });

  it('a line appended to a log that a rewrite has since replaced is not read with the new file', () => {
    const s = setup();
    const late = s.open();
    late.remember(k2, d1);
    // Another build rewrites the file meanwhile (many records), then the late build's line lands in a new log.
    const other = s.open();
    for (let i = 0; i < 300; i++) other.remember(i.toString(16).padStart(64, '0'), d1);
    other.save();
    appendFileSync(
      s.log,
      verdictLogLine(
        verdictLogKey({ size: 1, mtimeNs: '2', ctimeNs: '3', ino: '4', dev: '5' }),
        JSON.stringify({ verdicts: { [k2]: [d1, 5] } }),
      ),
    );
    expect(s.open().knows(k2)).toBe(false);
    // The late build itself finds the file changed since it read it: it merges and rewrites instead of appending.
    late.save();
    expect(existsSync(s.log)).toBe(false);
    expect([k1, k2, (7).toString(16).padStart(64, '0')].map((k) => s.open().knows(k))).toEqual([true, true, true]);
  });

  // Round 26 (root only, as CI runs: only root can give a file to another user). A state folder all may write
  // (ACTGUY_STATE_DIR under /tmp) let another user leave verdicts, which make a build take a rewritten cache entry on
  // its stamp, unverified. Mutations that fail: the verdict file's or the log's read without `usersOwn` (their records
  // are known); makeStateFolder without its owner check (the save writes into the other user's folder).
  it.skipIf(process.getuid?.() !== 0)(
    "a verdict file or log another user owns is not read, and nothing is written into another user's folder",
    () => {
      const s = setup();
      expect(s.open().knows(k1)).toBe(true);
      chownSync(s.file, 65534, 65534);
      const a = s.open();
      expect(a.knows(k1)).toBe(false);
      // The user's next save puts their own file in its place.
      a.remember(k2, d1);
      a.save();
      expect(lstatSync(s.file).uid).toBe(0);
      expect(s.open().knows(k2)).toBe(true);

      appendFileSync(s.log, `${s.line({ verdicts: { [k3]: [d1, 1] } })}\n`);
      expect(s.open().knows(k3)).toBe(true);
      chownSync(s.log, 65534, 65534);
      expect(s.open().knows(k3)).toBe(false);
      rmSync(s.log);

      chownSync(dirname(s.file), 65534, 65534);
      const before = fileId(s.file);
      const b = s.open();
      b.remember(k4, d1);
      b.save();
      expect(fileId(s.file)).toBe(before);
      expect(existsSync(s.log)).toBe(false);
    },
  );

  // Round 27: the state folders ActGuy makes are the user's alone (0700, as Chromium makes a profile's folder):
  // made with the process's umask, under a umask of 0 (some CI runners, containers) they were 0777, and another user
  // could plant a log in them, or read the verdicts' paths and digests. Mutation that fails: makeStateFolder
  // making its folders without the mode (all three are 0777 here).
  it.runIf(process.platform !== 'win32')(
    'makes the state folders it needs for the user alone, whatever the umask',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'actguy-vmode-'));
      dirs.push(dir);
      const cache = join(dir, 'cache');
      mkdirSync(cache);
      const state = join(dir, 'state', 'actguy');
      const umask = process.umask(0);
      try {
        const store = openVerdictStore(cache, state);
        store.remember(k1, d1);
        store.save();
        const again = openVerdictStore(cache, state);
        again.remember(k2, d1);
        again.save();
        expect(existsSync(again.file!.replace(/\.json$/, '.log'))).toBe(true);
      } finally {
        process.umask(umask);
      }
      for (const folder of [join(dir, 'state'), state, join(state, 'cache-verdicts')])
        expect((statSync(folder).mode & 0o777).toString(8), folder).toBe('700');
    },
  );

  // Round 27 (root only, as above). The read refused another user's log, but the append did not look: a log another
  // user made after the build read the state (the folder let them: made under a umask of 0, or given mode 777) got
  // the user's records appended, their paths and digests, for the whole length of the build. Mutation that fails:
  // append() without its owner check (the planted log holds the user's line).
  it.skipIf(process.getuid?.() !== 0)(
    'a log another user makes after the verdicts were read is not appended to; the save rewrites the file instead',
    () => {
      const s = setup();
      const store = s.open();
      expect(existsSync(s.log)).toBe(false);
      writeFileSync(s.log, '', { mode: 0o666 });
      chownSync(s.log, 65534, 65534);
      // A second name for the planted file, to see what it holds once the save has removed the log.
      const planted = join(s.dir, 'planted.log');
      linkSync(s.log, planted);
      store.remember(k2, d2, STAMP);
      store.save();
      expect(readFileSync(planted, 'utf8')).toBe('');
      expect(existsSync(s.log)).toBe(false);
      expect(s.open().entryDigest(k2, STAMP)).toBe(d2);
      expect(lstatSync(s.file).uid).toBe(0);
    },
  );

  // Round 30. Round 27 made new state folders 0700 but left folders made before it (0777 under a umask of 0) as they
  // were, so another user could still plant or swap the user's state there (rename a log or a verdict file in, swap
  // cache-verdicts/ between a look and a write). A folder the user owns is now made 0700 when others may write it,
  // with one warning naming it; the state is then read and kept as before. Mutations that fail: stateFolderProblem
  // without its fchmod (the folders stay 0777); openVerdictStore without its look at the folders (0777 still,
  // no warning).
  it.runIf(process.platform !== 'win32')(
    "a state folder of before, writable by others, is made the user's alone once, with a warning, and still used",
    () => {
      const s = setup();
      const state = dirname(dirname(s.file));
      for (const folder of [state, dirname(s.file)]) chmodSync(folder, 0o777);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      try {
        expect(s.open().knows(k1)).toBe(true);
        expect(s.open().knows(k1)).toBe(true);
      } finally {
        stateFolderWarnings.warn = warn;
      }
      for (const folder of [state, dirname(s.file)])
        expect((statSync(folder).mode & 0o7777).toString(8), folder).toBe('700');
      expect(said).toEqual(
        [state, dirname(s.file)].map(
          (f) =>
            `${f}: this folder of ActGuy's local state could be written by other users (mode 0777, as folders made under a umask of 0 before 2026-12-04 were); it is now 0700, yours alone`,
        ),
      );
    },
  );

  // Round 30 (root only: only root can make a folder another user's, or be another user than the owner of a root
  // folder). A state folder the user cannot make theirs alone (root's, mode 0777, not sticky: a shared place an admin
  // made) is not used: nothing read, nothing written, one warning saying why and what to do; a sticky one (as /tmp)
  // is used, since others cannot rename or remove what is kept there. A state folder (not only its subfolders) that
  // another user owns is not used either. Mutations that fail: the sticky case refused; the root-owned case used; its
  // warning said at every build, not once;
  // openVerdictStore without its look at the state folder itself (the 65534 case is read).
  it.skipIf(process.getuid?.() !== 0)(
    "a state folder others may write that is not the user's to change, or another user's, is not used",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'actguy-vshared-'));
      dirs.push(dir);
      chmodSync(dir, 0o777);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      try {
        // As user 1000 would see it: a folder of root's that all may write.
        for (let build = 0; build < 2; build++)
          expect(stateFolderProblem(dir, true, 1000)).toBe(
            `${dir} can be written by other users (mode 0777) and is not yours to change`,
          );
        // Said once in a process (the app, `actguy build --watch`), not at every build.
        expect(said).toEqual([
          `${dir} can be written by other users (mode 0777) and is not yours to change: ActGuy keeps no build state there (builds only read everything again); make it yours alone (chmod 700) or set ACTGUY_STATE_DIR to a folder of yours`,
        ]);
        chmodSync(dir, 0o1777);
        expect(stateFolderProblem(dir, true, 1000)).toBeUndefined();
        expect((statSync(dir).mode & 0o7777).toString(8)).toBe('1777');
      } finally {
        stateFolderWarnings.warn = warn;
      }
      const s = setup();
      expect(s.open().knows(k1)).toBe(true);
      const state = dirname(dirname(s.file));
      chownSync(state, 65534, 65534);
      const store = s.open();
      expect(store.knows(k1)).toBe(false);
      expect(store.file).toBeUndefined();
    },
  );
  // Maintainer's read, round 17. A sticky folder all may write is used as it is and never changed, the user's own
  // too: run as root with ACTGUY_STATE_DIR=/tmp/actguy-vitest-state (vitest.config.ts), the CLI's code cache made its
  // state folder and judged the folder above it, /tmp (root's, the user's then), and made /tmp 0700. Mutation that
  // fails: the sticky bit asked only of a folder that is not the user's, as before (the folder made 0700, a warning).
  it('a sticky folder all may write, the folder above a state folder or the state folder itself, is never made 0700', () => {
    const shared = mkdtempSync(join(tmpdir(), 'actguy-vsticky-own-'));
    dirs.push(shared);
    chmodSync(shared, 0o1777);
    const said: string[] = [];
    const warn = stateFolderWarnings.warn;
    stateFolderWarnings.warn = (m) => said.push(m);
    try {
      const state = join(shared, 'state');
      expect(makeStateFolder(state)).toBeUndefined();
      expect(stateFolderProblem(shared, true)).toBeUndefined();
      expect((statSync(shared).mode & 0o7777).toString(8)).toBe('1777');
      expect((statSync(state).mode & 0o7777).toString(8)).toBe('700');
      expect(said).toEqual([]);
    } finally {
      stateFolderWarnings.warn = warn;
    }
  });
  // Round 31. A state folder in a folder others may write without the sticky bit (an ACTGUY_STATE_DIR under a
  // shared 0777 folder) could be renamed away by them and a folder of theirs put at its name, with verdicts that say
  // "unchanged" of what changed, between any look and a read. Whoever owns that folder, the state is then not used,
  // with one warning saying why and what to do; a sticky one (as /tmp) is fine; so is the same state named through a
  // link from a safe folder only while the folder it really lies in is safe. Mutations that fail: stateFolderProblem
  // without statePathProblem (the store is read); the sticky bit not asked (the 1777 case refused); only the named
  // parent asked (the link case is read).
  it.runIf(process.platform !== 'win32')(
    'a state folder whose parent others may write, not sticky, is not used; a sticky parent is fine',
    () => {
      const s = setup();
      const state = dirname(dirname(s.file));
      const parent = dirname(state);
      expect(s.open().knows(k1)).toBe(true);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      try {
        chmodSync(parent, 0o777);
        for (let build = 0; build < 2; build++) {
          const store = s.open();
          expect(store.knows(k1)).toBe(false);
          expect(store.file).toBeUndefined();
        }
        const why = `${parent}, a folder above ${state}, can be written by other users (mode 0777, not sticky), who could put a folder of theirs in its place`;
        expect(said).toEqual([
          `${why}: ActGuy keeps no build state there (builds only read everything again); set ACTGUY_STATE_DIR to a folder of yours whose folders above only you and root can change, or take the others' write away from that folder (chmod go-w)`,
        ]);
        expect((statSync(parent).mode & 0o7777).toString(8)).toBe('777');
        // Named through a link in a folder only the user may write: the folder it really lies in is what others can swap.
        const safe = mkdtempSync(join(tmpdir(), 'actguy-vsafe-'));
        dirs.push(safe);
        symlinkSync(state, join(safe, 'state'));
        expect(stateFolderProblem(join(safe, 'state'), true)).toBe(
          `${parent}, a folder above ${join(safe, 'state')}, can be written by other users (mode 0777, not sticky), who could put a folder of theirs in its place`,
        );
        chmodSync(parent, 0o1777);
        expect(s.open().knows(k1)).toBe(true);
        expect(stateFolderProblem(join(safe, 'state'), true)).toBeUndefined();
      } finally {
        stateFolderWarnings.warn = warn;
      }
    },
  );
  // Round 32. Not only the folder holding the state folder: whoever may rename any folder above it, or change a link
  // on the way, can put a folder of theirs at its name as well (ssh's StrictModes walks the whole path to ~/.ssh). Every
  // folder a name is looked up in on the way, links followed one by one, must be the user's or root's and not writable
  // by others unless sticky; every link on the way the user's or root's. Mutations that fail: round 31's parent-only
  // look (the grandparent case is read); links' targets not walked (the middle link's folder is not asked); the folder
  // owner not asked; the link owner not asked (both in the root test below); makeStateFolder making the folder before
  // asking its path, or stateFolderProblem asking the path only of a state folder already there (the state is made).
  it.runIf(process.platform !== 'win32')(
    'a state folder with a folder anywhere above it that others may write, not sticky, is not used; one met through a link too',
    () => {
      const top = mkdtempSync(join(tmpdir(), 'actguy-vpath-'));
      dirs.push(top);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      try {
        // top/shared (0777) / mine (0700) / state: the parent is the user's alone, the grandparent is everyone's.
        const shared = join(top, 'shared');
        const state = join(shared, 'mine', 'state');
        mkdirSync(join(shared, 'mine'), { recursive: true, mode: 0o700 });
        chmodSync(shared, 0o777);
        chmodSync(join(shared, 'mine'), 0o700);
        const cache = join(top, 'cache');
        mkdirSync(cache);
        const first = openVerdictStore(cache, state);
        first.remember(k1, d1);
        first.save();
        expect(first.file).toBeUndefined();
        expect(existsSync(state)).toBe(false);
        // Nothing is made there either (web --keep-state makes its folder so): the path is asked before the mkdir.
        expect(makeStateFolder(join(state, 'web'))).toMatch(/^.*, a folder above .*, can be written by other users/);
        expect(existsSync(state)).toBe(false);
        const why = `${shared}, a folder above ${state}, can be written by other users (mode 0777, not sticky), who could put a folder of theirs in its place`;
        expect(said).toEqual([
          `${why}: ActGuy keeps no build state there (builds only read everything again); set ACTGUY_STATE_DIR to a folder of yours whose folders above only you and root can change, or take the others' write away from that folder (chmod go-w)`,
        ]);
        // Sticky (as /tmp): the state is kept and read again.
        chmodSync(shared, 0o1777);
        const kept = openVerdictStore(cache, state);
        kept.remember(k1, d1);
        kept.save();
        expect(openVerdictStore(cache, state).knows(k1)).toBe(true);
        // Named through two links: top/a (safe) holds l1 -> top/b/l2, and top/b (0777) holds l2 -> the real state.
        // Neither the folder the name is in nor the one the state really lies in is open; the middle one is.
        mkdirSync(join(top, 'a'));
        mkdirSync(join(top, 'b'));
        symlinkSync(join(top, 'b', 'l2'), join(top, 'a', 'l1'));
        symlinkSync(join(shared, 'mine'), join(top, 'b', 'l2'));
        const named = join(top, 'a', 'l1', 'state');
        expect(openVerdictStore(cache, named).knows(k1)).toBe(true);
        chmodSync(join(top, 'b'), 0o777);
        expect(openVerdictStore(cache, named).knows(k1)).toBe(false);
        expect(stateFolderProblem(named, true)).toBe(
          `${join(top, 'b')}, a folder above ${named}, can be written by other users (mode 0777, not sticky), who could put a folder of theirs in its place`,
        );
        // A link back up (..) is walked as the kernel walks it: from the folder the link lies in.
        chmodSync(join(top, 'b'), 0o755);
        symlinkSync('../shared/mine', join(top, 'a', 'up'));
        expect(stateFolderProblem(join(top, 'a', 'up', 'state'), true)).toBeUndefined();
        chmodSync(top, 0o777);
        expect(stateFolderProblem(join(top, 'a', 'up', 'state'), true)).toMatch(
          new RegExp(`^${top}, a folder above .*, can be written by other users \\(mode 0777, not sticky\\)`),
        );
      } finally {
        stateFolderWarnings.warn = warn;
        chmodSync(top, 0o700);
      }
    },
  );
  // Round 33 (round 32's open item): Debian gives each user a group of their own, and a umask of 002 makes a home
  // folder 0775. Such a folder above the state folder (or the state folder itself) was refused as if others could
  // write it. A group that holds the folder's owner alone now writes as the owner does, by Debian's OpenSSH rule; any
  // doubt refuses as before. The account lists are the test's own (accountFiles). Mutations that fail: othersMayWrite
  // back to the mode alone (the private group refused); the primary-group accounts not asked (bob's case used); the
  // member list not asked; a group of no one taken; the nsswitch sources not asked; compat entries taken.
  it.runIf(process.platform !== 'win32')(
    "a folder writable by a group that holds its owner alone is the owner's; any other member, or any doubt, refuses it",
    () => {
      const top = mkdtempSync(join(tmpdir(), 'actguy-upg-'));
      dirs.push(top);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      const files = { ...accountFiles };
      try {
        const home = join(top, 'home');
        mkdirSync(home);
        chmodSync(home, 0o775);
        const { uid, gid } = statSync(home);
        const other = gid + 1;
        const accounts = join(top, 'accounts');
        mkdirSync(accounts);
        accountFiles.passwd = join(accounts, 'passwd');
        accountFiles.group = join(accounts, 'group');
        accountFiles.nsswitch = join(accounts, 'nsswitch.conf');
        const lists = (
          passwd: string,
          group: string,
          nsswitch = 'passwd: files systemd\ngroup: files [SUCCESS=merge] systemd\n',
        ) => {
          writeFileSync(accountFiles.passwd, `# accounts\n${passwd}`);
          writeFileSync(accountFiles.group, group);
          writeFileSync(accountFiles.nsswitch, nsswitch);
        };
        const me = `me:x:${uid}:${gid}:Me:/home/me:/bin/sh\n`;
        const cache = join(top, 'cache');
        mkdirSync(cache);
        const state = join(home, 'state');
        // The group of me alone: the state is kept and read again, and the state folder made 0775 stays so.
        lists(me, `me:x:${gid}:\n`);
        const store = openVerdictStore(cache, state);
        store.remember(k1, d1);
        store.save();
        expect(store.file).toBeDefined();
        expect(openVerdictStore(cache, state).knows(k1)).toBe(true);
        chmodSync(state, 0o775);
        expect(stateFolderProblem(state, true)).toBeUndefined();
        expect(statSync(state).mode & 0o777).toBe(0o775);
        // Me named its only member, its primary group another: still me alone.
        lists(`me:x:${uid}:${other}::/:/bin/sh\n`, `me:x:${gid}:me\n`);
        expect(stateFolderProblem(state, true)).toBeUndefined();
        expect(said).toEqual([]);
        const refused = `${home}, a folder above ${state}, can be written by other users (mode 0775, not sticky), who could put a folder of theirs in its place`;
        for (const [why, passwd, group, nsswitch] of [
          ['bob has it as his primary group', `${me}bob:x:${uid + 1}:${gid}::/:/bin/sh\n`, `me:x:${gid}:\n`],
          ['bob is a member', me, `me:x:${gid}:bob\n`],
          ['bob is a member of a second name of the group', me, `me:x:${gid}:\nus:x:${gid}:me,bob\n`],
          ['a group of no one', `me:x:${uid}:${other}::/:/bin/sh\n`, `me:x:${gid}:\n`],
          ['the group is not listed', me, `me:x:${other}:\n`],
          ['the owner is not listed', `bob:x:${uid + 1}:${other}::/:/bin/sh\n`, `me:x:${gid}:\n`],
          ['groups come from LDAP too', me, `me:x:${gid}:\n`, 'passwd: files\ngroup: files ldap\n'],
          ['a compat entry pulls accounts from NIS', `${me}+::::::\n`, `me:x:${gid}:\n`],
        ] as const) {
          lists(passwd, group, nsswitch);
          expect({ why, problem: stateFolderProblem(state, true) }).toEqual({ why, problem: refused });
          expect(openVerdictStore(cache, state).knows(k1)).toBe(false);
        }
        // The state folder itself, in a folder of the user's alone: another member's write is taken away, as round 30.
        chmodSync(home, 0o755);
        lists(me, `me:x:${gid}:bob\n`);
        expect(stateFolderProblem(state, true)).toBeUndefined();
        expect(statSync(state).mode & 0o777).toBe(0o700);
      } finally {
        Object.assign(accountFiles, files);
        stateFolderWarnings.warn = warn;
      }
    },
  );
  it.runIf(process.platform !== 'win32' && process.getuid?.() === 0)(
    "a state folder below another user's folder, or reached through another user's link, is not used",
    () => {
      const top = mkdtempSync(join(tmpdir(), 'actguy-vpathown-'));
      dirs.push(top);
      const said: string[] = [];
      const warn = stateFolderWarnings.warn;
      stateFolderWarnings.warn = (m) => said.push(m);
      try {
        const cache = join(top, 'cache');
        mkdirSync(cache);
        // top/theirs (user 65534's, 0755) / mine (root's) / state: they may rename mine away and put their own there.
        const theirs = join(top, 'theirs');
        mkdirSync(join(theirs, 'mine'), { recursive: true });
        const state = join(theirs, 'mine', 'state');
        const store = openVerdictStore(cache, state);
        store.remember(k1, d1);
        store.save();
        expect(openVerdictStore(cache, state).knows(k1)).toBe(true);
        chownSync(theirs, 65534, 65534);
        chmodSync(theirs, 0o755);
        expect(openVerdictStore(cache, state).knows(k1)).toBe(false);
        expect(stateFolderProblem(state, true)).toBe(
          `${theirs}, a folder above ${state}, belongs to another user (user id 65534), who could put a folder of theirs in its place`,
        );
        expect(said[0]).toMatch(
          /set ACTGUY_STATE_DIR to a folder of yours whose folders above only you and root can change$/,
        );
        // A sticky folder (as /tmp) holding a link another user made there: they may remove it and make another.
        chownSync(theirs, 0, 0);
        expect(openVerdictStore(cache, state).knows(k1)).toBe(true);
        const sticky = join(top, 'sticky');
        mkdirSync(sticky);
        chmodSync(sticky, 0o1777);
        symlinkSync(join(theirs, 'mine'), join(sticky, 'link'));
        const named = join(sticky, 'link', 'state');
        expect(openVerdictStore(cache, named).knows(k1)).toBe(true);
        lchownSync(join(sticky, 'link'), 65534, 65534);
        expect(openVerdictStore(cache, named).knows(k1)).toBe(false);
        expect(stateFolderProblem(named, true)).toBe(
          `${join(sticky, 'link')}, a symbolic link on the way to ${named}, belongs to another user (user id 65534), who could make it lead elsewhere`,
        );
      } finally {
        stateFolderWarnings.warn = warn;
      }
    },
  );
});
