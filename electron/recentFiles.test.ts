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
import { createRecentFilesStore } from './recentFiles';

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
    const store = createRecentFilesStore(folder);
    expect(store.list().map((e) => e.path)).toEqual([join(root, 'walk.mtn'), join(root, 'run.MT3')]);
    // Said once to the user: how many were dropped, how many kept, which file (the duplicate is not a problem).
    // Mutation that fails: the dropped count not kept (startupProblem stays null).
    expect(store.startupProblem).toBe(
      `6 entries of the list of recent files could not be used (not the path of a motion ActGuy would list) and were dropped; the other 2 were kept. File: ${join(folder, 'recent-files.json')}`,
    );
    expect(createRecentFilesStore(folder).startupProblem).toBeNull();
    expect(createRecentFilesStore(folder).list()).toEqual(store.list());
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
