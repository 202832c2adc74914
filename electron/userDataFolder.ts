/**
 * A folder the user names for ActGuy to keep its own files in, checked before anything is read from it or written
 * into it: `npm run web --user-data DIR` (electron/loopback/serve.ts) and the desktop app's `ACTGUY_USER_DATA_DIR`
 * (electron/main.ts). A folder in /tmp that another local user made first, or one under a folder others may write,
 * would hold their copies of "unsaved work", recent files and window state for ActGuy to read, and receive the
 * user's own (docs/security.md rounds 39 and 40).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { makeFolderNoFollow, stateFolderProblem, stateFolderWarnings, statePathProblem } from './build/buildCache';
import { anotherUsers } from './fsutil';

type UserDataFolder =
  /** The folder to use (resolved through the links the user named); `notes`: what was changed, to say (made 0700). */
  | { dir: string; notes: string[] }
  /** Why it is not used; nothing was read from it or written into it. */
  | { why: string };

/**
 * `named` as it may be used: the path to it walked as the state folder's is (every folder a name is looked up in the
 * user's or root's, and none that others may write unless sticky, as /tmp; a link the user named is followed when it
 * is the user's or root's), the folder made 0700 when it is not there, and one there already the user's alone (made
 * so when others could write it) and not another user's. Unlike the state folder's, the folder above it is the
 * user's choice and never changed (makeStateFolder makes that one 0700 too).
 */
export function userDataFolder(named: string): UserDataFolder {
  const said: string[] = [];
  const warn = stateFolderWarnings.warn;
  // The build's wording (build state, ACTGUY_STATE_DIR) is not this folder's: the caller says its own.
  stateFolderWarnings.warn = (m) => said.push(m);
  try {
    const checked = check(named);
    // The one thing said of a folder used: it was made the user's alone.
    return 'dir' in checked ? { dir: checked.dir, notes: said.filter((m) => m.includes('it is now 0700')) } : checked;
  } finally {
    stateFolderWarnings.warn = warn;
  }
}

function check(named: string): { dir: string } | { why: string } {
  const me = process.getuid?.();
  const pathWhy = (dir: string) => (me === undefined ? undefined : statePathProblem(dir, me));
  const first = pathWhy(named);
  if (first) return { why: first };
  let dir = named;
  try {
    dir = realpathSync(named);
  } catch {
    // not there yet: made below, under the folders just walked
  }
  const why = makeFolderNoFollow(dir, 0o700) ?? pathWhy(dir) ?? stateFolderProblem(dir);
  if (why) return { why };
  try {
    const owner = lstatSync(dir).uid;
    return anotherUsers(owner) ? { why: `${dir} belongs to another user (user id ${owner})` } : { dir };
  } catch (e) {
    return { why: `${dir}: ${(e as Error).message}` };
  }
}

/**
 * The desktop app's profile folder from `ACTGUY_USER_DATA_DIR` (tests and side-by-side runs give each instance its
 * own): null when the variable is not set (Electron's own profile folder), the folder checked by userDataFolder, or
 * the refusal to start with: the app does not fall back to the user's usual profile, which the run was told to keep
 * out of, and reads nothing of the folder named.
 */
export function profileFolderFromEnv(
  env: Record<string, string | undefined>,
): null | { dir: string; notes: string[] } | { refusal: string } {
  const named = env.ACTGUY_USER_DATA_DIR;
  if (!named) return null;
  // A relative one names a folder in whatever folder the app was started in (a received project's among them).
  if (!isAbsolute(named))
    return {
      refusal: `ACTGUY_USER_DATA_DIR=${named} is a relative path, which names a folder in whatever folder ActGuy starts in; nothing was read from it or written to it; set it to an absolute path of a folder of yours, or unset it`,
    };
  const checked = userDataFolder(resolve(named));
  if ('dir' in checked) return checked;
  return {
    refusal: `ACTGUY_USER_DATA_DIR=${named} cannot be used as ActGuy's profile folder (${checked.why}); nothing was read from it or written to it; name a folder of yours (one not there yet is made for you alone), or unset it`,
  };
}
