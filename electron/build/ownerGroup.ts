import { readSmallFile } from '../fsutil';

/**
 * Where the account lists are read (a test seam: tests point these at lists of their own). Only the local files are
 * read; where the system names another source of users or groups (LDAP, SSSD, NIS...), their members are not known
 * here and no group counts as its owner's alone.
 */
export const accountFiles = { passwd: '/etc/passwd', group: '/etc/group', nsswitch: '/etc/nsswitch.conf' };

/** The account lists are at most this big (a site with thousands of users is still far below). */
const ACCOUNT_FILE_MAX = 8 * 1024 * 1024;

/** The sources nsswitch.conf may name for passwd and group while the local files still tell every member. */
const LOCAL_SOURCES = new Set(['files', 'compat', 'systemd']);

function lines(path: string): string[] | undefined {
  const read = readSmallFile(path, ACCOUNT_FILE_MAX);
  if (read === undefined || 'problem' in read) return undefined;
  return read.text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
}

/** Whether nsswitch.conf names only local sources for `passwd` and `group` (a missing file: glibc's default, files). */
function localAccountsOnly(): boolean {
  const read = readSmallFile(accountFiles.nsswitch, ACCOUNT_FILE_MAX);
  if (read === undefined) return true;
  if ('problem' in read) return false;
  for (const line of read.text.split('\n')) {
    const m = /^\s*(passwd|group)\s*:(.*)$/.exec(line.replace(/#.*/, ''));
    if (!m) continue;
    // Sources, and [STATUS=action] items between them.
    const sources = m[2]!
      .replace(/\[[^\]]*\]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    if (sources.some((s) => !LOCAL_SOURCES.has(s))) return false;
  }
  return true;
}

/**
 * Whether the group `gid` holds only the user `owner`: a user private group, as Debian and most Linux systems give each
 * user (the `alice` group of user `alice`), where a folder made under a umask of 002 is 0775 and yet no one else may
 * write it. The rule is Debian's OpenSSH's for StrictModes (its user-group-modes patch): the group is listed; every
 * account whose primary group it is has the owner's user id; its member list names no one, or the owner alone; and
 * the owner is in it one way or the other (a group of no one is a set-group-id program's). Anything not known for sure
 * answers false: a list not readable, a group or owner not listed, users or groups from another source than the local
 * files (docs/security.md, round 33).
 */
function groupOfOwnerAlone(gid: number, owner: number): boolean {
  if (process.platform === 'win32' || !localAccountsOnly()) return false;
  const passwd = lines(accountFiles.passwd);
  const group = lines(accountFiles.group);
  if (!passwd || !group) return false;
  let ownerName: string | undefined;
  let members = 0;
  for (const line of passwd) {
    const [name, , uid, pgid] = line.split(':');
    // A compat list's +/- entries pull accounts from elsewhere: not known here.
    if (name === undefined || name.startsWith('+') || name.startsWith('-')) return false;
    if (uid === undefined || pgid === undefined || !/^\d+$/.test(uid) || !/^\d+$/.test(pgid)) continue;
    if (Number(uid) === owner) ownerName ??= name;
    if (Number(pgid) !== gid) continue;
    if (Number(uid) !== owner) return false;
    members++;
  }
  if (ownerName === undefined) return false;
  let listed = false;
  for (const line of group) {
    const [name, , id, list] = line.split(':');
    if (name === undefined || name.startsWith('+') || name.startsWith('-')) return false;
    // Every entry of this id counts (two group names may share one).
    if (id === undefined || !/^\d+$/.test(id) || Number(id) !== gid) continue;
    listed = true;
    const names = (list ?? '').split(',').filter(Boolean);
    if (names.some((n) => n !== ownerName)) return false;
    if (names.length > 0) members++;
  }
  return listed && members > 0;
}

/**
 * Whether users other than a folder's owner may write it, by its mode: others' write, or the group's unless the group
 * holds the owner alone (groupOfOwnerAlone).
 */
export function othersMayWrite(st: { mode: number; uid: number; gid: number }): boolean {
  if (st.mode & 0o002) return true;
  return (st.mode & 0o020) !== 0 && !groupOfOwnerAlone(st.gid, st.uid);
}
