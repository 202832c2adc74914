import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './fsutil';
import { ownTempName } from './tempFiles';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('sweeps temps a killed writer left beside the target, and leaves none of its own on failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    const target = join(dir, 'walk.mtn');
    writeFileSync(target, 'old');
    const orphan = ownTempName(target, 'new').replace(`.${process.pid}.`, '.999999999.');
    writeFileSync(orphan, 'half a file from a killed run');
    writeFileAtomic(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['walk.mtn']);
    // A folder where the file should go: the rename fails (even as root) and the temp goes away.
    mkdirSync(join(dir, 'folder.mtn'));
    writeFileSync(join(dir, 'folder.mtn', 'inside'), 'x');
    expect(() => writeFileAtomic(join(dir, 'folder.mtn'), 'bytes')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['folder.mtn', 'walk.mtn']);
  });
});
