/**
 * Who holds a TCP port that `npm run web` asked for and did not get (docs/security.md round 40). Another local user's
 * program on that port is reached by every tab and bookmark of that address, and can serve any page there: the
 * terminal says so plainly. Linux only (its /proc/net/tcp and tcp6 name each listening socket's owner); elsewhere
 * the owner is not known and the plain "in use" is said.
 */
import { readFileSync } from 'node:fs';

/** The user ids of the sockets listening on `port` in the text of /proc/net/tcp or /proc/net/tcp6. */
export function listenerUids(port: number, tableText: string): number[] {
  const uids: number[] = [];
  for (const line of tableText.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8) continue;
    const local = cols[1].split(':');
    if (cols[3] !== '0A' || local.length !== 2) continue; // 0A: LISTEN
    if (Number.parseInt(local[1], 16) !== port) continue;
    const uid = Number(cols[7]);
    if (Number.isInteger(uid) && uid >= 0) uids.push(uid);
  }
  return uids;
}

/** The owners of whatever listens on `port` here, or null where that cannot be known (not Linux, /proc hidden). */
export function portHolders(
  port: number,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): number[] | null {
  const uids: number[] = [];
  let known = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      uids.push(...listenerUids(port, read(table)));
      known = true;
    } catch {
      // no such table (IPv6 off, or not Linux)
    }
  }
  return known ? [...new Set(uids)] : null;
}

/**
 * What the terminal says when the port asked for was taken and the run serves on `served` instead. `holders`:
 * portHolders' answer; `me`: this process's user id.
 */
export function portTakenMessage(
  asked: number,
  served: number,
  holders: number[] | null,
  me: number | undefined,
  keptForThisRun: boolean,
): string {
  const after = `the browser keeps ActGuy's preferences per address, so this window starts without those saved on port ${asked}${keptForThisRun ? ', and copies of unsaved work are kept for this run only' : ''}`;
  const others = me === undefined || !holders ? [] : holders.filter((uid) => uid !== me && uid !== 0);
  if (others.length === 0) return `port ${asked} is in use, so this run serves on port ${served}: ${after}`;
  return `port ${asked} is held by a program of another user (user id ${others.join(', ')}), not by ActGuy, so this run serves on port ${served}. A tab or bookmark of http://127.0.0.1:${asked}/ now reaches that program, which can show any page there, one that looks like ActGuy among them: it has no token of this run and cannot reach your files through ActGuy, but type nothing into a page on port ${asked} and open only the address printed below. ${after[0].toUpperCase()}${after.slice(1)}`;
}
