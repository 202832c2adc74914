/**
 * The lock of an output set (`<first output>.actguy-lock`): taken by a commit before it touches a file (commit.ts),
 * released only while it is still the file the commit made, taken over from a holder that ended, and said as a
 * refusal (who holds it, since when, when it lapses, the file to delete) otherwise. A build looks at it before its
 * work too (lockRefusedBeforeBuild). docs/safety-journal.md#when-a-lock-blocks.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { host, processAlive, processStart, STALE_MS } from '../tempFiles';
import { JournalProblem, LOCK_MAX_BYTES, parseLock, type LockHolder } from './commitJournal';
import { readSmallFile, type SmallFile } from '../fsutil';
import type { CommitFs } from './commit';
import { OutputWriteError } from './outputWriteError';

export function lockPath(first: string): string {
  return join(dirname(first), `${basename(first)}.actguy-lock`);
}

/** Lock files this process holds now (a lock naming this process and not listed here was left by an earlier process with our id). */
const heldLocks = new Set<string>();

/**
 * Whether a live process of this machine may be the holder of a lock that recorded `recorded` as its holder's
 * start, `actual` being that process's start as read now and `mine` this process's own. Where the system records
 * starts (`mine` known), a lock with none is planted, and one whose start differs names a process that came after
 * its holder. A start that cannot be read proves nothing: another user's process, where /proc hides them, may
 * well be a build writing these outputs, so it keeps the lock (until the lock is a day old).
 */
export function mayHoldLock(
  recorded: string | undefined,
  actual: string | undefined,
  mine: string | undefined,
): boolean {
  if (mine === undefined) return true;
  if (recorded === undefined) return false;
  return actual === undefined || actual === recorded;
}

/**
 * How long a lock of another machine keeps this one out (docs/security.md, round 34). A commit holds its lock only
 * while it writes and renames the outputs: seconds, minutes for a gigabyte over a slow share. Whether another
 * machine's holder still runs cannot be asked, so its lock was kept for a day (STALE_MS): a folder received with a
 * lock in it (zipped while a build committed, or after one was killed) could not be built for a day after it was
 * unpacked. Past this bound such a lock is taken over, with a note naming it.
 */
export const FOREIGN_LOCK_MS = 3600 * 1000;

/** A lock taken: its release, and a note when another's lock was taken over for it (judgeLock's `takenOver`). */
export interface TakenLock {
  release: () => void;
  note?: string;
}

/**
 * Takes the commit lock of an output set. The lock file is read as untrusted
 * input (commitJournal.ts parseLock). A lock is taken over when its owner on
 * this machine died, or its process id is alive but is not the process that
 * took it (where the system tells process starts apart, a lock must name its
 * holder's start: a planted lock naming pid 1 does not block), or it is a day
 * old; a lock of another machine, or one naming no holder, once it is an hour
 * old (FOREIGN_LOCK_MS), with a note. Ages count from its date or its file's
 * change time, whichever is earlier, so a lock dated in the future cannot block
 * for longer; otherwise the refusal says who holds it, since when, when it
 * lapses and which file to delete.
 */
export function takeLock(fs: CommitFs, path: string): TakenLock {
  const myStart = processStart(process.pid);
  const me = `${host()} ${process.pid} ${Date.now()}${myStart ? ` ${myStart}` : ''}`;
  let note: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(path, me, { flag: 'wx' });
      heldLocks.add(path);
      // The lock file made, as the system names it: released only while it is the file at `path`. An output folder
      // moved while the commit ran takes its lock with it, and the file now at `path` (in the folder put in its place)
      // is another run's lock or none: removing it by path let a third run in beside a commit still writing there.
      let made: { dev: number; ino: number } | undefined;
      try {
        made = fs.lstatSync(path);
      } catch {
        made = undefined; // then by path, as before
      }
      const release = () => {
        heldLocks.delete(path);
        try {
          if (made) {
            const now = fs.lstatSync(path);
            if (now.dev !== made.dev || now.ino !== made.ino) return;
          }
          fs.unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
      return note === undefined ? { release } : { release, note };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const read = fs.readSmallFile(path, LOCK_MAX_BYTES);
      if (read === undefined) continue; // released meanwhile
      const judged = judgeLock(path, read, myStart);
      if (judged.refusal) throw judged.refusal;
      // Removed only while it is still the lock judged: another run that judged it too may have taken it over
      // meanwhile, and removing that run's fresh lock by path let both commit at once (round 37). Compared by its
      // text (its holder, date and start), which a lock made since never repeats, not by its inode, which the
      // system may give again at once.
      const still = fs.readSmallFile(path, LOCK_MAX_BYTES);
      if (!sameLockFile(still, read)) continue;
      note = judged.takenOver;
      try {
        fs.unlinkSync(path);
      } catch {
        /* another process took it over first */
      }
    }
  }
  throw new OutputWriteError(`cannot take the lock ${path}`);
}

/** Whether two reads of a lock file read the same lock: the same text (its holder, date and start). */
function sameLockFile(a: SmallFile | undefined, b: SmallFile): boolean {
  if (a === undefined) return false;
  if ('problem' in a || 'problem' in b) return 'problem' in a && 'problem' in b && a.problem === b.problem;
  return a.text === b.text;
}

/**
 * `ms` in words, to the minute (a lock's age). Not to the second: `build --watch` says a refusal it meets again on its
 * retries as "failed again, as above", which a message changing every second never was.
 */
function ageInWords(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60000);
  if (min < 1) return 'less than a minute';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
}

/**
 * Why the lock at `path`, read as `read`, keeps this process from taking it (it is not an ActGuy lock, or its holder
 * may be alive and it is younger than its bound), naming who holds it, since when, the file to delete and when it
 * lapses; undefined when it may be taken over (takeLock's rules).
 */
function lockRefusal(path: string, read: SmallFile, myStart: string | undefined): OutputWriteError | undefined {
  return judgeLock(path, read, myStart).refusal;
}

/**
 * lockRefusal's answer, and, when the lock may be taken over though its holder may be alive (another machine's past
 * FOREIGN_LOCK_MS, this machine's past STALE_MS), the note that says so (`takenOver`).
 */
function judgeLock(
  path: string,
  read: SmallFile,
  myStart: string | undefined,
): { refusal?: OutputWriteError; takenOver?: string } {
  const clear = `if no ActGuy run is writing these outputs, delete ${path} and try again`;
  if ('problem' in read)
    return {
      refusal: new OutputWriteError(`${path} is not an ActGuy lock (${read.problem}); nothing was changed; ${clear}`),
    };
  const now = Date.now();
  let holder: LockHolder | undefined;
  try {
    holder = parseLock(read.text, read.ctimeMs, now);
  } catch (p) {
    if (!(p instanceof JournalProblem)) throw p;
    return { refusal: new OutputWriteError(`${path}: ${p.message}; nothing was changed; ${clear}`) };
  }
  const since = holder?.sinceMs ?? read.ctimeMs;
  const local = holder?.host === host();
  const dead =
    (local && holder!.pid === process.pid && !heldLocks.has(path)) ||
    (local && !processAlive(holder!.pid)) ||
    (local && !mayHoldLock(holder!.start, processStart(holder!.pid), myStart));
  if (dead) return {};
  // A holder this machine cannot ask about (another machine's, or none named yet) keeps it for FOREIGN_LOCK_MS; a
  // live process of this machine that may be the holder, for STALE_MS.
  const bound = local ? STALE_MS : FOREIGN_LOCK_MS;
  const who = holder
    ? `process ${holder.pid} on ${local ? 'this machine' : `the machine ${holder.host}`}`
    : 'a run that has not written its name yet';
  const dated = holder?.futureDated ? '; the date it records is in the future, so its file time is taken' : '';
  const taken = `taken by ${who} ${ageInWords(now - since)} ago (at ${new Date(since).toISOString()}${dated})`;
  if (!(now - since < bound))
    return {
      takenOver: `took over the lock ${path}, ${taken}: no commit holds its lock that long, so that run has ended`,
    };
  const lapse = new Date(since + bound).toISOString();
  const lapses = local
    ? `it lapses when that process ends, or at ${lapse}`
    : `whether that run still runs cannot be asked from this machine: the lock lapses at ${lapse}, an hour after it was taken`;
  return {
    refusal: new OutputWriteError(
      `another ActGuy run is writing these outputs now: the lock ${path} was ${taken}; ${lapses}; try again when it has finished; ${clear}`,
    ),
  };
}

/**
 * The refusal the commit of `paths` (a build's outputs in the order it writes them) would make of the lock beside
 * the first now (lockRefusal, the same rules), made before the build's work: while another run holds the outputs,
 * `build --watch` retries every 30 s at most, and each retry under `--no-cache` compressed every motion again before
 * it met the lock at the commit (docs/security.md, round 24). Undefined when no lock lies there or it may be taken
 * over; the commit takes the lock itself, and that is what keeps two runs apart.
 */
export function lockRefusedBeforeBuild(paths: readonly string[]): OutputWriteError | undefined {
  if (paths.length === 0) return undefined;
  const path = lockPath(resolve(paths[0]));
  let read: SmallFile | undefined;
  try {
    read = readSmallFile(path, LOCK_MAX_BYTES);
  } catch {
    return undefined; // anything else is left to the commit, which meets it taking the lock
  }
  return read === undefined ? undefined : lockRefusal(path, read, processStart(process.pid));
}
