import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles } from './workspaceListing';
import { canonicalPath } from './pathPolicy';

// Fuzz round 3 (docs/testing.md, the workspace target): links into the workspace's own folders were walked again
// under each link's name, down to the depth bound, so three links to the workspace itself listed its one .mtn 5,000
// times (the file limit) and held the main process 0.65 s; six made every listing stop at the 50,000-name bound.
// Mutations that fail: the walk not skipping a folder it has walked (the seen identities unused); a link to a folder
// walked where it is met, before the folder itself.
describe('the workspace listing: links to folders already walked', () => {
  let root = '';
  beforeEach(() => {
    root = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-listing-')));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('walks each folder once: links back into the workspace list nothing twice', () => {
    writeFileSync(join(root, 'walk.mtn'), 'x');
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'run.mtn'), 'x');
    for (const name of ['loop1', 'loop2', 'loop3']) symlinkSync('.', join(root, name));
    symlinkSync('..', join(root, 'a', 'up'));
    symlinkSync('a', join(root, 'z_same_as_a'));
    // A link named before the folder it leads to: the folder's files are listed at their own path.
    mkdirSync(join(root, 'zz'));
    writeFileSync(join(root, 'zz', 'deep.mtn'), 'x');
    symlinkSync('zz', join(root, 'b_link'));
    const listed = listFiles(root, ['mtn']);
    expect(listed.files.map((f) => f.relativePath)).toEqual(['a/run.mtn', 'walk.mtn', 'zz/deep.mtn']);
    expect(listed.folders).toEqual(['a', 'zz']);
    expect(listed.incomplete).toBeUndefined();
  });

  it('still lists the files of a folder reached only through a link (in a hidden folder, or past the depth)', () => {
    mkdirSync(join(root, '.store', 'x'), { recursive: true });
    writeFileSync(join(root, '.store', 'x', 'kept.mtn'), 'x');
    symlinkSync('.store/x', join(root, 'kept'));
    expect(listFiles(root, ['mtn']).files.map((f) => f.relativePath)).toEqual(['kept/kept.mtn']);
  });
});
