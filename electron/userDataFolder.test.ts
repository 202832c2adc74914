import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileFolderFromEnv, userDataFolder } from './userDataFolder';

const root = mkdtempSync(join(tmpdir(), 'actguy-userdata-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const asRoot = process.getuid?.() === 0;
const posix = process.platform !== 'win32';

describe('a folder named for ActGuy to keep its files in (docs/security.md rounds 39 and 40)', () => {
  it.runIf(posix)('is refused under a folder that others may write, and nothing is made there', () => {
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const checked = userDataFolder(join(open, 'ud'));
    expect(checked).toEqual({ why: expect.stringContaining('can be written by other users (mode 0777, not sticky)') });
    expect(readdirSync(open)).toEqual([]);
  });

  it.runIf(posix && asRoot)("is refused when another user's, or a link of another user's leads to it", () => {
    const theirs = join(root, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 65534, 65534);
    expect(userDataFolder(theirs)).toEqual({ why: `${theirs} belongs to another user (user id 65534)` });
    const link = join(root, 'link-theirs');
    symlinkSync(join(root, 'mine-by-link'), link);
    mkdirSync(join(root, 'mine-by-link'), { mode: 0o700 });
    // The link itself is theirs: they could make it lead elsewhere.
    lchownSync(link, 65534, 65534);
    expect(userDataFolder(link)).toEqual({ why: expect.stringContaining('another user') });
  });

  it.runIf(posix)("makes the user's own open folder 0700 and uses it, saying so; makes one not there yet 0700", () => {
    const mine = join(root, 'mine');
    mkdirSync(mine);
    chmodSync(mine, 0o777);
    const checked = userDataFolder(mine);
    expect(checked).toEqual({ dir: mine, notes: [expect.stringContaining('it is now 0700')] });
    expect(statSync(mine).mode & 0o777).toBe(0o700);
    const fresh = join(root, 'fresh');
    expect(userDataFolder(fresh)).toEqual({ dir: fresh, notes: [] });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it.runIf(posix)(
    "the desktop app's ACTGUY_USER_DATA_DIR gets the same check, and refuses to start on a bad one",
    () => {
      expect(profileFolderFromEnv({})).toBeNull();
      expect(profileFolderFromEnv({ ACTGUY_USER_DATA_DIR: '' })).toBeNull();
      const good = join(root, 'profile');
      expect(profileFolderFromEnv({ ACTGUY_USER_DATA_DIR: good })).toEqual({ dir: good, notes: [] });
      const open = join(root, 'open2');
      mkdirSync(open);
      chmodSync(open, 0o777);
      expect(profileFolderFromEnv({ ACTGUY_USER_DATA_DIR: join(open, 'profile') })).toEqual({
        refusal: expect.stringMatching(
          /^ACTGUY_USER_DATA_DIR=.*open2\/profile cannot be used as ActGuy's profile folder \(.*can be written by other users.*\); nothing was read from it or written to it/,
        ),
      });
      expect(existsSync(join(open, 'profile'))).toBe(false);
      expect(profileFolderFromEnv({ ACTGUY_USER_DATA_DIR: 'profile' })).toEqual({
        refusal: expect.stringContaining('is a relative path'),
      });
    },
  );
});
