/**
 * The recent-files list is read back at start-up and grants the page access to every file it names
 * (electron/handlers.ts), so it is read as a file from a stranger: only a plain, small file; only entries that
 * name an absolute path a user could have opened, once each.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH } from './pathPolicy';
import { createRecentFilesStore, RECENT_FILES_LIMIT } from './recentFiles';

const root = mkdtempSync(join(tmpdir(), 'actguy-recent-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folderWith(name: string, text: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'recent-files.json'), text);
  return dir;
}

describe('recent-files.json read back', () => {
  it('keeps only absolute motion paths of the kind their extension says, once each', () => {
    const good = { path: join(root, 'walk.mtn'), name: 'walk', kind: 'mtn', openedAt: 2 };
    const entries = [
      good,
      { ...good, openedAt: 1 },
      { path: 'relative/walk.mtn', name: 'walk', kind: 'mtn', openedAt: 1 },
      { path: '', name: 'x', kind: 'mtn', openedAt: 1 },
      { path: `${root}/a\u0000b.mtn`, name: 'x', kind: 'mtn', openedAt: 1 },
      { path: `/${'a'.repeat(5000)}.mtn`, name: 'x', kind: 'mtn', openedAt: 1 },
      { path: join(root, '.bashrc'), name: 'bashrc', kind: 'mtn', openedAt: 1 },
      { path: join(root, 'stage.mar'), name: 'stage', kind: 'mtn', openedAt: 1 },
      { path: join(root, 'run.MT3'), name: 'run', kind: 'mt3', openedAt: 1 },
    ];
    const folder = folderWith('mixed', JSON.stringify(entries));
    const warnings: string[] = [];
    const store = createRecentFilesStore(folder, Date.now, (m) => warnings.push(m));
    // The log says which entries (counting from 0), the first five of them.
    expect(warnings).toEqual([expect.stringContaining('writes: entries 2, 3, 4, 5, 6, …, counting from 0); 2 kept')]);
    expect(store.list().map((e) => e.path)).toEqual([join(root, 'walk.mtn'), join(root, 'run.MT3')]);
    // Said once to the user: how many were dropped, how many kept, which file (the duplicate is not a problem).
    // Mutation that fails: the dropped count not kept (startupProblem stays null).
    expect(store.startupProblem).toBe(
      `6 entries of the list of recent files could not be used (not the path of a motion or project ActGuy would list) and were dropped; the other 2 were kept. File: ${join(folder, 'recent-files.json')}`,
    );
    expect(createRecentFilesStore(folder).startupProblem).toBeNull();
    expect(createRecentFilesStore(folder).list()).toEqual(store.list());
  });

  // A recent project grants what Open Project grants once the user opens it from the list: a planted entry must not
  // pass as one. Mutation that fails: recentKindOfPath answering 'project' for any .json (or isRecentFile skipping
  // the kind check for projects); the length, absolute-path or name checks removed.
  it('keeps a project entry only for an absolute *.actguy.json path with a bounded name', () => {
    const project = { path: join(root, 'stage.actguy.json'), name: 'stage', kind: 'project', openedAt: 3 };
    const entries = [
      { ...project, path: join(root, 'settings.json') },
      { ...project, path: join(root, '.bashrc') },
      { ...project, path: join(root, 'walk.mtn') },
      { ...project, path: join(root, '.actguy.json') },
      { ...project, path: 'projects/stage.actguy.json' },
      { ...project, path: `/${'a'.repeat(5000)}.actguy.json` },
      { ...project, path: join(root, 'big.actguy.json'), name: 'p'.repeat(1_000_000) },
      { ...project, path: join(root, 'x\u202Enosj.yugtca.actguy.json') },
      { ...project, path: join(root, 'run.mtn'), kind: 'mtn' },
      { ...project, path: join(root, 'stage2.actguy.json'), kind: 'mtn' },
      project,
    ];
    const folder = folderWith('projects', JSON.stringify(entries));
    const store = createRecentFilesStore(folder);
    expect(store.list().map((e) => [e.path, e.kind])).toEqual([
      [join(root, 'run.mtn'), 'mtn'],
      [join(root, 'stage.actguy.json'), 'project'],
    ]);
    expect(store.startupProblem).toMatch(/^9 entries of the list of recent files could not be used/);
    // Bounded with the motions: ten entries in all, the newest first.
    const many = createRecentFilesStore(join(root, 'projects'));
    for (let i = 0; i < 15; i++) many.add({ path: join(root, `p${i}.actguy.json`), name: `p${i}`, kind: 'project' });
    const kept = createRecentFilesStore(join(root, 'projects')).list();
    expect(kept.map((e) => e.name)).toEqual(['p14', 'p13', 'p12', 'p11', 'p10', 'p9', 'p8', 'p7', 'p6', 'p5']);
  });

  // Round 11 (docs/security.md). Mutation: the name bound or the HIDDEN_CHARACTERS checks in isRecentFile removed:
  // the planted entries come back, and the Open Recent label reads as another file than the one it opens.
  it('drops entries whose name or path holds a line break, a bidi override or a zero-width character, or a 1 MB name', () => {
    const good = { path: join(root, 'walk.mtn'), name: 'walk', kind: 'mtn', openedAt: 2 };
    const entries = [
      { ...good, path: join(root, 'a\u202Entm.klaw.mtn') },
      { ...good, path: join(root, 'b\nwalk.mtn') },
      { ...good, path: join(root, 'c.mtn'), name: 'walk\u200b' },
      { ...good, path: join(root, 'd.mtn'), name: 'walk\u001b]0;x\u0007' },
      { ...good, path: join(root, 'e.mtn'), name: 'w'.repeat(1000) },
      good,
    ];
    const store = createRecentFilesStore(folderWith('hidden', JSON.stringify(entries)));
    expect(store.list()).toEqual([good]);
  });

  it('drops an entry whose time is 1e309 (Infinity once parsed): written back it became null and was dropped at the next start', () => {
    // Found by `npm run fuzz -- --format recent-files`: the list kept did not read back as itself.
    const good = { path: join(root, 'walk.mtn'), name: 'walk', kind: 'mtn', openedAt: 2 };
    const text = `[${JSON.stringify({ ...good, path: join(root, 'far.mtn') }).replace('"openedAt":2', '"openedAt":1e309')},${JSON.stringify(good)}]`;
    const folder = folderWith('infinite-time', text);
    const store = createRecentFilesStore(folder);
    expect(store.list()).toEqual([good]);
    expect(store.startupProblem).toMatch(/^1 entry of the list of recent files could not be used/);
    expect(createRecentFilesStore(folder).startupProblem).toBeNull();
  });

  // Round 26, held: each limit of an entry and of the list, and one past it.
  it('keeps an entry and a list at each limit, and drops what is one past it', () => {
    const entry = (i: number, over: Partial<{ path: string; name: string }> = {}) => ({
      path: join(root, `${i}.mtn`),
      name: 'w',
      kind: 'mtn',
      openedAt: i,
      ...over,
    });
    const longPath = (n: number) => `/${'p'.repeat(n - 5)}.mtn`;
    expect(longPath(MAX_PATH_LENGTH)).toHaveLength(MAX_PATH_LENGTH);
    const atLimit = [entry(1, { path: longPath(MAX_PATH_LENGTH) }), entry(2, { name: 'n'.repeat(255) })];
    const past = [entry(3, { path: longPath(MAX_PATH_LENGTH + 1) }), entry(4, { name: 'n'.repeat(256) })];
    const more = Array.from({ length: RECENT_FILES_LIMIT }, (_, i) => entry(10 + i));
    const kept = createRecentFilesStore(folderWith('limits', JSON.stringify([...past, ...atLimit, ...more]))).list();
    expect(kept).toEqual([...atLimit, ...more].slice(0, RECENT_FILES_LIMIT));
    // The file at its 1 MiB limit is read; one byte more is not.
    const one = JSON.stringify([entry(1)]);
    const sized = (n: number) => `${one}${' '.repeat(n - one.length)}`;
    expect(createRecentFilesStore(folderWith('at-1mib', sized(1024 * 1024))).list()).toEqual([entry(1)]);
    expect(createRecentFilesStore(folderWith('past-1mib', sized(1024 * 1024 + 1))).list()).toEqual([]);
  });

  it('a list that is not JSON: the log says where it goes wrong, the user that it was reset', () => {
    const folder = folderWith('not-json', '[{"path": "/p/walk.mtn",\n  "name": walk}]');
    const warnings: string[] = [];
    const store = createRecentFilesStore(folder, Date.now, (m) => warnings.push(m));
    expect(warnings).toEqual([
      expect.stringMatching(
        /: not used \(not JSON at line 2, column 11: expected a value .*\); Open Recent starts empty$/,
      ),
    ]);
    expect(store.startupProblem).toMatch(/^The list of recent files could not be used \(not JSON\), so it was reset/);
  });

  it('a huge file is not read (an empty list), and a FIFO is never waited on', () => {
    const one = JSON.stringify([{ path: join(root, 'w.mtn'), name: 'w', kind: 'mtn', openedAt: 1 }]);
    expect(createRecentFilesStore(folderWith('huge', `${one}${' '.repeat(2 << 20)}`)).list()).toEqual([]);
    if (process.platform === 'win32') return; // mkfifo
    const dir = join(root, 'fifo');
    mkdirSync(dir);
    const fifo = join(dir, 'recent-files.json');
    execFileSync('mkfifo', [fifo]);
    // Were the read to wait, this writer lists a file after a second: the list would then hold it instead of
    // the test hanging (it gives up after 10 s when nothing reads).
    const writer = spawn('timeout', ['10', 'sh', '-c', `sleep 1; printf '%s' '${one}' > '${fifo}'`], {
      stdio: 'ignore',
    });
    try {
      expect(createRecentFilesStore(dir).list()).toEqual([]);
    } finally {
      writer.kill();
    }
  });
});
