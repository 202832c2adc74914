/**
 * Round 12 (docs/security.md): everything the app reads back from its own userData is input. For each file it reads
 * (window-state.json, recent-files.json, last-folder.json, Backups/<part>.json) and each hostile form of it (huge, cut short, of the
 * wrong types, holding NUL bytes, nested a million deep, a FIFO, a folder, a symbolic link to a valid file elsewhere),
 * the module starts with its default, says so (a warning, or a copy set aside with a message), never reads through
 * the link, never changes the link's target, and never throws. The folders it writes into (Backups, Crash Records)
 * are never followed when they are links. Tested through the modules (no Electron binary here). CI runs as root:
 * nothing here depends on permissions.
 * Mutations that fail: readBack reading with readFileSync after a statSync (as before: the link, FIFO-swap and NUL
 * cases differ — the link's copy was restored); the `linkedFolder` check in createBackupStore removed (the Backups
 * link test); the `isLink` check in writeCrashRecord removed (the Crash Records test); createRecentFilesStore's
 * `unusable` warnings removed (the recent-files cases); the nesting check in fromFileText removed (the deep backup).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crashDumpsFolder, writeCrashRecord } from './crashRecords';
import { createLastFolderStore, LAST_FOLDER_FILE } from './lastFolder';
import { createRecentFilesStore } from './recentFiles';
import { createBackupStore } from './unsavedBackups';
import { readWindowState, WINDOW_STATE_FILE } from './windowState';

let dir: string;
let userData: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-userdata-'));
  userData = join(dir, 'userData');
  outside = join(dir, 'elsewhere');
  mkdirSync(userData);
  mkdirSync(outside);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SPARSE = 1_572_864_000;

/** What a valid file of each kind holds (so that a link to one proves the link is not followed). */
const VALID = {
  window: JSON.stringify({ x: 10, y: 10, width: 1000, height: 700, maximized: false }),
  recent: JSON.stringify([{ path: '/home/u/walk.mtn', name: 'walk', kind: 'mtn', openedAt: 1 }]),
  // A folder that exists wherever the test runs: only the hostile form can refuse it.
  lastFolder: JSON.stringify({ folder: tmpdir() }),
  sev: JSON.stringify({
    part: 'sev',
    name: 'x.sev',
    path: '/home/u/x.sev',
    motionName: 'x',
    editedAt: 1,
    text: 'sev 1\n',
  }),
};

/** The hostile forms, each made at `path`; `valid` is what a link's target holds. */
const HOSTILE: Record<string, (path: string, valid: string) => void> = {
  huge: (path) => {
    writeFileSync(path, '{');
    truncateSync(path, SPARSE);
  },
  truncated: (path, valid) => writeFileSync(path, valid.slice(0, valid.length - 5)),
  'wrong types': (path) => writeFileSync(path, '{"x": "10", "width": [1000], "part": 7, "path": null}'),
  'NUL bytes': (path, valid) => writeFileSync(path, `${valid.slice(0, 8)}\0\0\0${valid.slice(8)}`),
  'deep JSON': (path) => writeFileSync(path, `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`),
  'not UTF-8': (path, valid) =>
    writeFileSync(
      path,
      Buffer.concat([Buffer.from(valid.slice(0, -2)), Buffer.from([0xff, 0xfe]), Buffer.from(valid.slice(-2))]),
    ),
  FIFO: (path) => execFileSync('mkfifo', [path]),
  folder: (path) => mkdirSync(path),
  'link out': (path, valid) => {
    const target = join(outside, 'target.json');
    writeFileSync(target, valid);
    symlinkSync(target, path);
  },
};

/** The link's target, unchanged (when the case made one). */
function targetUnchanged(valid: string): void {
  const target = join(outside, 'target.json');
  if (existsSync(target)) expect(readFileSync(target, 'utf8')).toBe(valid);
}

describe('window-state.json', () => {
  for (const [name, make] of Object.entries(HOSTILE))
    it(`${name}: the default size, with a warning`, () => {
      make(join(userData, WINDOW_STATE_FILE), VALID.window);
      const warnings: string[] = [];
      expect(readWindowState(userData, (m) => warnings.push(m))).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /window-state\.json: (cannot be read|set aside).*; the window opens at its default size$/,
      );
      // eslint-disable-next-line no-control-regex
      expect(warnings[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      targetUnchanged(VALID.window);
    });
});

describe('recent-files.json', () => {
  for (const [name, make] of Object.entries(HOSTILE))
    it(`${name}: an empty list, with a warning; the next open replaces the file, never a link's target`, () => {
      const file = join(userData, 'recent-files.json');
      make(file, VALID.recent);
      const warnings: string[] = [];
      const store = createRecentFilesStore(
        userData,
        () => 2,
        (m) => warnings.push(m),
      );
      expect(store.list()).toEqual([]);
      // "wrong types" is a JSON object, not a list: said too.
      expect(warnings).toEqual([
        expect.stringMatching(/recent-files\.json: not used \(.+\); Open Recent starts empty$/),
      ]);
      // Said to the user (main passes it to the page as a start-up warning): what happened, which file, the reset.
      expect(store.startupProblem).toMatch(
        /^The list of recent files could not be used \(.+\), so it was reset: File › Open Recent starts empty\. File: .*recent-files\.json$/,
      );
      // eslint-disable-next-line no-control-regex
      expect(store.startupProblem).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      // Once: the reset list replaced the damaged file (a folder in its place cannot be replaced: said again).
      // Mutation that fails: the persist() after a startupProblem removed (every start says it again).
      if (name !== 'folder') expect(createRecentFilesStore(userData, () => 2).startupProblem).toBeNull();
      if (name !== 'folder' && name !== 'huge') {
        store.add({ path: '/home/u/run.mtn', name: 'run', kind: 'mtn' });
        expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([
          { path: '/home/u/run.mtn', name: 'run', kind: 'mtn', openedAt: 2 },
        ]);
      }
      targetUnchanged(VALID.recent);
    });

  it('a valid list is read without a word', () => {
    writeFileSync(join(userData, 'recent-files.json'), VALID.recent);
    const warnings: string[] = [];
    expect(
      createRecentFilesStore(
        userData,
        () => 2,
        (m) => warnings.push(m),
      ).list(),
    ).toHaveLength(1);
    expect(warnings).toEqual([]);
    expect(createRecentFilesStore(userData).startupProblem).toBeNull();
  });
});

describe('last-folder.json (where open dialogs start)', () => {
  for (const [name, make] of Object.entries(HOSTILE))
    it(`${name}: the OS default folder, with a warning; the next pick replaces the file, never a link's target`, () => {
      const file = join(userData, LAST_FOLDER_FILE);
      make(file, VALID.lastFolder);
      const warnings: string[] = [];
      const store = createLastFolderStore(userData, (m) => warnings.push(m));
      expect(store.folder()).toBeUndefined();
      expect(warnings).toEqual([
        expect.stringMatching(
          /last-folder\.json: (cannot be read|set aside).*; file dialogs start in the system's default folder$/,
        ),
      ]);
      // eslint-disable-next-line no-control-regex
      expect(warnings[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      if (name !== 'folder') {
        store.rememberFileChosen(join(outside, 'walk.mtn'));
        expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ folder: outside, owner: process.getuid?.() });
      }
      targetUnchanged(VALID.lastFolder);
    });

  it('a valid file is read without a word', () => {
    writeFileSync(join(userData, LAST_FOLDER_FILE), VALID.lastFolder);
    const warnings: string[] = [];
    expect(createLastFolderStore(userData, (m) => warnings.push(m)).folder()).toBe(tmpdir());
    expect(warnings).toEqual([]);
  });
});

describe('Backups/<part>.json (the copies of unsaved work)', () => {
  for (const [name, make] of Object.entries(HOSTILE))
    it(`${name}: nothing restored, the copy set aside with a message, start-up goes on`, () => {
      const folder = join(userData, 'Backups');
      mkdirSync(folder);
      make(join(folder, 'sev.json'), VALID.sev);
      const warnings: string[] = [];
      const store = createBackupStore(folder, (m) => warnings.push(m));
      expect(store.held().backups).toEqual([]);
      expect(store.held().setAside).toHaveLength(1);
      expect(store.held().setAside[0]).toMatch(
        /^The backup .*sev\.json could not be used \(.+\); (moved to .*sev\.json\.bad-\d+|not moved .*)\.$/,
      );
      expect(warnings).toEqual(store.held().setAside);
      // Refused before JSON.parse walks a million levels (a copy nests four).
      if (name === 'deep JSON') expect(store.held().setAside[0]).toContain('(nested too deeply at line 1, column 129)');
      targetUnchanged(VALID.sev);
    });

  it('a valid copy is restored (the same file, not linked)', () => {
    const folder = join(userData, 'Backups');
    mkdirSync(folder);
    writeFileSync(join(folder, 'sev.json'), VALID.sev);
    expect(createBackupStore(folder).held().backups).toHaveLength(1);
  });

  it('a Backups folder that is a link: nothing read from or written to its target, and it says so', async () => {
    const target = join(outside, 'Backups');
    mkdirSync(target);
    writeFileSync(join(target, 'sev.json'), VALID.sev);
    symlinkSync(target, join(userData, 'Backups'));
    const warnings: string[] = [];
    const store = createBackupStore(join(userData, 'Backups'), (m) => warnings.push(m));
    expect(store.held().backups).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /Backups is a symbolic link, not a folder: copies of unsaved work are kept for this run only$/,
      ),
    ]);
    await store.put({ part: 'project', name: 'p', path: '/home/u/p.actguy.json', editedAt: 1, text: '{}' }, null);
    expect(store.held().backups).toHaveLength(1);
    expect(readdirSync(target)).toEqual(['sev.json']);
    expect(readFileSync(join(target, 'sev.json'), 'utf8')).toBe(VALID.sev);
  });
});

describe('Crash Records', () => {
  const record = {
    event: 'render-process-gone' as const,
    time: '2026-12-03T07:00:00.000Z',
    appVersion: '1',
    versions: { electron: '41', chrome: '1', node: '20' },
    platform: 'linux',
    arch: 'x64',
    documentName: null,
    unsaved: [],
  };

  it('a Crash Records folder that is a link: no record written or pruned through it, an error to warn with', () => {
    const target = join(outside, 'records');
    mkdirSync(target);
    // 25 records of the app's naming: writing through the link would also have pruned them to 20.
    const names = Array.from(
      { length: 25 },
      (_, i) => `2026-01-01T00-00-${String(i).padStart(2, '0')}-000Z-unresponsive.json`,
    );
    for (const n of names) writeFileSync(join(target, n), '{}');
    symlinkSync(target, join(userData, 'Crash Records'));
    expect(() => writeCrashRecord(userData, record)).toThrow(
      /Crash Records is a symbolic link, not a folder: no record is written through it/,
    );
    expect(readdirSync(target).sort()).toEqual(names);
  });

  it('a file in its place: an error to warn with, not a crash; a real folder takes the record', () => {
    writeFileSync(join(userData, 'Crash Records'), 'x');
    expect(() => writeCrashRecord(userData, record)).toThrow();
    rmSync(join(userData, 'Crash Records'));
    const written = writeCrashRecord(userData, record);
    expect(JSON.parse(readFileSync(written, 'utf8')).event).toBe('render-process-gone');
  });
});

describe('Crashpad (minidumps of native crashes)', () => {
  it('is <userData>/Crashpad; a link there is not used (no dump written where it leads), with the reason', () => {
    expect(crashDumpsFolder(userData)).toEqual({ path: join(userData, 'Crashpad') });
    symlinkSync(outside, join(userData, 'Crashpad'));
    expect(crashDumpsFolder(userData)).toEqual({
      problem: `${join(userData, 'Crashpad')} is a symbolic link, not a folder: native crashes leave no minidump this run`,
    });
  });

  it('nothing is uploaded: no main-process file gives a submitURL or turns uploads on', () => {
    // main.test.ts checks what crashReporter.start is given ({ uploadToServer: false }) and that the folder is set first.
    const sources = readdirSync(__dirname, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(20);
    for (const f of sources) {
      const text = readFileSync(join(__dirname, f), 'utf8');
      expect(text, f).not.toMatch(/submitURL|setUploadToServer|uploadToServer:\s*true/);
    }
  });
});
