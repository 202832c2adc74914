/**
 * The save picker's New Folder in main (workspaceListing.ts makeFolder; docs/security.md, round 43): a name is
 * counted in the bytes the disk counts, and the folder is made in the parent as checked, whatever is at the
 * parent's name by the time mkdir runs.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles, makeFolder } from './workspaceListing';

let root: string;
let ws: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'actguy-newfolder-'));
  ws = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(ws, 'out'), { recursive: true });
  mkdirSync(outside);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('New folder in the workspace', () => {
  // Mutation that fails: the length counted in characters (`name.length`): mkdir's ENAMETOOLONG, with the whole path.
  it('counts a name in UTF-8 bytes: 200 characters of three bytes are refused in words, 85 are made', () => {
    expect(() => makeFolder(ws, 'out', '日'.repeat(200))).toThrow(
      'New folder: the name is 600 bytes long in UTF-8 (200 characters); at most 255 bytes.',
    );
    expect(readdirSync(join(ws, 'out'))).toEqual([]);
    expect(makeFolder(ws, 'out', '日'.repeat(85)).relativePath).toBe(`out/${'日'.repeat(85)}`);
  });

  // Mutation that fails: mkdir by name (`io.mkdirSync(full)`): the folder is made where the link leads.
  it.runIf(process.platform === 'linux')(
    'a parent swapped for a link to a folder outside after its check: the folder is made in the parent checked',
    () => {
      const swap = {
        mkdirSync: (p: string) => {
          renameSync(join(ws, 'out'), join(ws, 'out.moved'));
          symlinkSync(outside, join(ws, 'out'));
          return mkdirSync(p);
        },
      };
      expect(makeFolder(ws, 'out', 'made', swap)).toEqual({ path: join(ws, 'out', 'made'), relativePath: 'out/made' });
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(join(ws, 'out.moved', 'made'))).toBe(true);
    },
  );

  // Mutation that fails: a backslash in the parent refused everywhere (the Windows rule): "not a folder of the workspace".
  it.runIf(process.platform !== 'win32')('makes a folder in a listed folder whose name holds a backslash', () => {
    mkdirSync(join(ws, 'a\\b'));
    expect(listFiles(ws, null).folders).toContain('a\\b');
    expect(makeFolder(ws, 'a\\b', 'made')).toEqual({ path: join(ws, 'a\\b', 'made'), relativePath: 'a\\b/made' });
    expect(readdirSync(join(ws, 'a\\b'))).toEqual(['made']);
  });
});
