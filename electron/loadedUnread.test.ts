/**
 * A file main remembered unread (too large to show, unreadable: loadedFiles.ts `unread`) is the same file only while
 * lstat says the same three things of it: its size, its modification time and its inode. The saves' tests change it
 * by writing it, which moves all three at once, so any one of them could go unnoticed; each is changed alone here,
 * through LoadedFiles.check as a save asks it. Mutation audit, round 3 (docs/testing.md): each comparison dropped from
 * changeBetween fails this.
 */
import { mkdtempSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ChangedOnDiskError, LoadedFiles } from './loadedFiles';

let dir: string;
let path: string;
const when = new Date(2030, 0, 1);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-unread-'));
  path = join(dir, 'walk.actguy-tuning.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a save's check of `path` says after `change`: the change it was refused for, or 'same'. */
function checkAfter(change: () => void): string {
  rmSync(path, { force: true });
  writeFileSync(path, 'x'.repeat(100));
  utimesSync(path, when, when);
  const loaded = new LoadedFiles();
  loaded.rememberUnread(path);
  change();
  try {
    loaded.check(path);
    return 'same';
  } catch (e) {
    if (!(e instanceof ChangedOnDiskError)) throw e;
    return e.change;
  }
}

it('an unread file untouched is the same; touched to the same time, too', () => {
  expect(checkAfter(() => undefined)).toBe('same');
  expect(checkAfter(() => utimesSync(path, when, when))).toBe('same');
});

it('an unread file of another size, another time or another inode alone is changed', () => {
  // Another size, its time put back.
  expect(
    checkAfter(() => {
      truncateSync(path, 50);
      utimesSync(path, when, when);
    }),
  ).toBe('changed');
  // Another time, the same bytes.
  expect(checkAfter(() => utimesSync(path, new Date(2031, 0, 1), new Date(2031, 0, 1)))).toBe('changed');
  // Another file put at the name: the same size and time, another inode.
  expect(
    checkAfter(() => {
      const other = join(dir, 'other');
      writeFileSync(other, 'y'.repeat(100));
      utimesSync(other, when, when);
      const before = statSync(path).ino;
      renameSync(other, path);
      expect(statSync(path).ino).not.toBe(before);
    }),
  ).toBe('changed');
});
