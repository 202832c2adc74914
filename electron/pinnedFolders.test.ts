/**
 * The folders a write opens to make its temp and rename through (fsutil.ts openPinnedFolders, docs/security.md round
 * 41): what folderSwap.test.ts does not hold. Each descriptor is closed once the write, the failed write or the commit
 * ends (a save, an export or a build every few seconds left one open each time, until the process ran out); a folder
 * pinned twice is opened once; a pinned folder gone by the write is refused as moved; and an error of the rename
 * through the descriptor names the paths the user knows, never /proc/self/fd. Mutation audit, round 3
 * (docs/testing.md): the close dropped, the second pin not skipped, the vanished folder passed over, and the error
 * not mapped back each fail one of these.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitOutputs } from './build/commit';
import { atomicWriteIo, openPinnedFolders, pinFolder, writeFileAtomic, writeFileAtomicAsync } from './fsutil';
import { canonicalPath } from './pathPolicy';

const onLinux = process.platform === 'linux';
/** The descriptors this process holds now. */
const openDescriptors = (): number => readdirSync('/proc/self/fd').length;

let dir: string;
let out: string;
beforeEach(() => {
  dir = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-pinned-')));
  out = join(dir, 'out');
  mkdirSync(out);
});
afterEach(() => {
  Object.assign(atomicWriteIo, { renameSync });
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(onLinux)('the folders a pinned write opens (Linux)', () => {
  it('are closed again after a write, a write off the main thread, a failed write and a commit', async () => {
    const folder = pinFolder(out)!;
    const before = openDescriptors();
    writeFileAtomic(join(out, 'a.sev'), 'sev 1\n', { folder });
    await writeFileAtomicAsync(join(out, 'b.sev'), 'sev 1\n', { folder });
    Object.assign(atomicWriteIo, {
      renameSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    expect(() => writeFileAtomic(join(out, 'c.sev'), 'sev 1\n', { folder })).toThrow(/no space left/);
    Object.assign(atomicWriteIo, { renameSync });
    commitOutputs(
      ['a.res8', 'a.res19'].map((n) => ({ path: join(out, n), bytes: new Uint8Array([1, 2, 3]) })),
      { folders: [folder] },
    );
    expect(readdirSync(out).sort()).toEqual(['a.res19', 'a.res8', 'a.sev', 'b.sev']);
    expect(openDescriptors()).toBe(before);
  });

  it('a folder pinned twice is opened once, and closed', () => {
    const folder = pinFolder(out)!;
    const before = openDescriptors();
    const pinned = openPinnedFolders([folder, pinFolder(out)!], join(out, 'a.sev'));
    expect(openDescriptors()).toBe(before + 1);
    expect(pinned.at(join(out, 'a.sev'))).toMatch(/^\/proc\/self\/fd\/\d+\/a\.sev$/);
    pinned.close();
    expect(openDescriptors()).toBe(before);
  });

  it('a pinned folder that is not there by the write is refused as gone, nothing written', () => {
    // Pinned before it was made (a build's out/): its folder above is pinned, and the write finds no folder to open.
    const later = join(out, 'later');
    const folder = pinFolder(later)!;
    expect(folder.anchor).toBe(out);
    let thrown: unknown;
    try {
      openPinnedFolders([folder], join(later, 'a.res8'));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({
      code: 'EFOLDERMOVED',
      message: `its folder ${later} changed after it was checked (it is gone); nothing was written there`,
    });
    expect(readdirSync(out)).toEqual([]);
  });

  it('a rename through the folder that fails names the file and its temp as the user knows them', () => {
    const folder = pinFolder(out)!;
    Object.assign(atomicWriteIo, {
      renameSync: (a: string, b: string) => {
        throw Object.assign(new Error(`EXDEV: cross-device link not permitted, rename '${a}' -> '${b}'`), {
          code: 'EXDEV',
        });
      },
    });
    const path = join(out, 'a.sev');
    let thrown: Error | undefined;
    try {
      writeFileAtomic(path, 'sev 1\n', { folder });
    } catch (e) {
      thrown = e as Error;
    }
    expect(thrown?.message).toContain(`-> '${path}'`);
    expect(thrown?.message).not.toContain('/proc/self/fd');
    expect((thrown as NodeJS.ErrnoException).code).toBe('EXDEV');
    expect(readdirSync(out)).toEqual([]);
  });
});
