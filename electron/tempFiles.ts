/**
 * Temp files of ActGuy's own naming, beside the file they will replace:
 * `<target name>.actguy-<kind>.<host>.<pid>.<random>.tmp`. The name says who
 * wrote it, so a later run can sweep the ones whose writer died (a kill, a
 * power cut) without touching a temp another running process still needs.
 */
import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { quoteJson } from '../shared/errors';
import { windowsNameProblem } from '../shared/windowsNames';
import { OWN_TEMP, ownFileNameOf } from '../shared/ownFileNames';
import { FILE_NAME_MAX_BYTES, PATH_MAX } from '../shared/fileSystemLimits';

export { OWN_TEMP };
/**
 * Why `path` cannot be an output: its name is one ActGuy gives its own files beside an output (a commit's lock or
 * journal, docs/safety-journal.md, or a temp file). An output of that name was deleted by the commit that wrote it
 * (the lock and journal go when the commit ends: `compress -o x.mt3 --report x.mt3.actguy-lock` printed success
 * and left no report), swept by a later write (a temp), or read back as a journal and refused. Letter case is
 * ignored, as a disk may ignore it. A name Windows takes for something else (a device, a trailing dot) is refused
 * too. Undefined for any other name.
 */
export function ownFileNameProblem(path: string, write: OwnWrite = 'commit'): string | undefined {
  const name = basename(path);
  const own = ownFileNameOf(name);
  if (own) return own;
  // Outputs are passed to Windows users: a device name (`nul.mt3` from a motion named `nul`) or a trailing dot
  // is another file there (shared/windowsNames.ts), refused on every platform.
  const windows = windowsNameProblem(name);
  if (windows) return `${windows}; ActGuy's outputs must be files on Windows too`;
  return outputNameLengthProblem(path, write);
}

/** The longest path Linux opens, in bytes, its closing NUL aside. */
export const PATH_MAX_BYTES = PATH_MAX - 1;

/**
 * The longest suffix ActGuy adds to an output's name for a file of its own beside it, on this machine and in this
 * process: the temp of a commit's journal, `<output>.actguy-commit.actguy-journal.<host>.<pid>.<random>.tmp` (the lock,
 * `.actguy-lock`, the temps `.actguy-new.…` and backups `.actguy-old.…` are shorter); for a file written alone
 * (writeFileAtomic), its temp `<file>.actguy-new.<host>.<pid>.<random>.tmp`. It holds the host name, so it is longer
 * on some machines than on others.
 */
export function longestOwnSuffixBytes(write: OwnWrite = 'commit'): number {
  const kind = write === 'commit' ? '.actguy-commit.actguy-journal' : '.actguy-new';
  return Buffer.byteLength(`${kind}.${host()}.${process.pid}.${'z'.repeat(6)}.tmp`);
}

/** How a file is written: alone (writeFileAtomic: one temp beside it), or in a commit (a lock, a journal, temps, backups). */
export type OwnWrite = 'single' | 'commit';

/**
 * Why ActGuy cannot write `path` as an output here: its name, or its whole path, leaves no room for the files it
 * writes beside it (longestOwnSuffixBytes). Such a write failed with ENAMETOOLONG naming a file the user never named
 * (`….mar.actguy-lock`), and only at the commit: `actguy compress -o NAME` compressed first (docs/security.md, round
 * 12). Undefined when there is room.
 */
export function outputNameLengthProblem(path: string, write: OwnWrite = 'commit'): string | undefined {
  const suffix = longestOwnSuffixBytes(write);
  const name = basename(path);
  const nameBytes = Buffer.byteLength(name);
  const quoted = (text: string) => quoteJson(text, 80);
  if (nameBytes + suffix > FILE_NAME_MAX_BYTES)
    return (
      `the file name ${quoted(name)} is ${nameBytes} bytes long; ActGuy writes its temp, backup and journal files beside ` +
      `an output under that name plus up to ${suffix} bytes on this machine, and a file name holds ${FILE_NAME_MAX_BYTES}: ` +
      `give it a name of at most ${FILE_NAME_MAX_BYTES - suffix} bytes`
    );
  const full = Buffer.byteLength(resolve(path));
  if (full + suffix > PATH_MAX_BYTES)
    return (
      `the path ${quoted(path)} is ${full} bytes long once absolute; with the up to ${suffix} bytes ActGuy adds for the ` +
      `files it writes beside an output, it passes the ${PATH_MAX_BYTES} a path may have: choose a shorter folder or name`
    );
  return undefined;
}

/** Temps older than this are stale even when their writer might be alive (another machine on a shared disk). */
export const STALE_MS = 24 * 3600 * 1000;

export function host(): string {
  return hostname().replace(/[^A-Za-z0-9-]/g, '') || 'host';
}

/** A temp name beside `target` of the given kind, unique to this process and call. */
export function ownTempName(target: string, kind: 'new' | 'old' | 'journal'): string {
  const rand = Math.floor(Math.random() * 36 ** 6).toString(36);
  return join(dirname(target), `${basename(target)}.actguy-${kind}.${host()}.${process.pid}.${rand}.tmp`);
}

/**
 * What tells the process now running under `pid` from any earlier or later one
 * with that id: on Linux the boot's random id and the process's start time
 * (field 22 of /proc/PID/stat), which a file made elsewhere cannot guess.
 * Undefined where it cannot be asked (another system, or a process this user
 * may not see).
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = nodeFs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The name (field 2) is in parentheses and may hold spaces; field 3 follows the last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    const boot = nodeFs.readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
    return /^[0-9]+$/.test(start ?? '') && /^[0-9a-f-]{1,64}$/.test(boot) ? `${boot}.${start}` : undefined;
  } catch {
    return undefined;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a file named `name` (of our naming) is an orphan: its writer on this
 * machine is gone, or it is older than a day (a writer on another machine).
 * Names of other shapes are never orphans.
 */
export function isStaleTemp(name: string, mtimeMs: number): boolean {
  const m = OWN_TEMP.exec(name);
  if (!m) return false;
  const pid = Number(m[4]);
  if (m[3] === host() && pid !== process.pid && !processAlive(pid)) return true;
  return Date.now() - mtimeMs > STALE_MS;
}

/**
 * How many files this thread remembers having read as inputs (inputsRead): an app open for days reads more, and the
 * oldest are forgotten first; a build's own inputs, read just before its commit, are among the newest.
 */
export const INPUTS_READ_MAX = 65536;
const inputsReadSet = new Set<string>();

/**
 * A file's identity as the sweep compares it: device, inode and the time of its last change (ctime, which no one
 * can set). The inode alone was not enough: a file read and then deleted frees its number, and a temp made later
 * (by a build killed at its commit) took it, so a process that had read the first kept the temp from the sweep.
 * Undefined where the file system gives no inode (0): such a file is not kept by identity.
 */
export function identityOf(st: { dev: number; ino: number; ctimeMs: number }): string | undefined {
  return st.ino > 0 ? `${st.dev}:${st.ino}:${st.ctimeMs}` : undefined;
}

/**
 * What identityOf needs of a file, from a stat taken with `bigint: true`: the very numbers a plain stat of the same
 * file gives (Node makes a plain stat's ctimeMs as seconds * 1e3 + nanoseconds / 1e6, in doubles; the same sums
 * here), so that a reader that takes only the exact stat notes the identity the sweep compares (the sweep's stats
 * are plain). Undefined for a ctime before 1970, which this does not split as Node does: take a plain stat then.
 */
export function plainIdentityFields(st: {
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
}): { dev: number; ino: number; ctimeMs: number } | undefined {
  if (st.ctimeNs < 0n) return undefined;
  const seconds = st.ctimeNs / 1_000_000_000n;
  const nanoseconds = st.ctimeNs % 1_000_000_000n;
  return { dev: Number(st.dev), ino: Number(st.ino), ctimeMs: Number(seconds) * 1e3 + Number(nanoseconds) / 1e6 };
}

/**
 * Notes that this thread read (or took the stamp of) the file `st` describes, as an input: the sweep never removes
 * it, whatever name it has. A received project's `walk.sev` that is a link to `out/s.mar.actguy-new.h.1.x.tmp` was
 * read, and the commit's sweep then removed that file as a stale temp: the input was lost (docs/security.md,
 * round 17). The readers of fsutil.ts and io/readBinary.ts call it for every file they read.
 */
export function noteInputRead(st: { dev: number; ino: number; ctimeMs: number }): void {
  const id = identityOf(st);
  if (id === undefined) return;
  inputsReadSet.delete(id);
  inputsReadSet.add(id);
  if (inputsReadSet.size > INPUTS_READ_MAX) inputsReadSet.delete(inputsReadSet.values().next().value as string);
}

/**
 * Forgets the identities noteInputRead kept in this thread: a build worker kept warm between builds starts each with
 * none, so that a build hands its commit the files it read and not those of the builds before it (buildWorker.ts).
 */
export function forgetInputsRead(): void {
  inputsReadSet.clear();
}

/** The identities noteInputRead kept in this thread, newest last: a build worker hands them to the commit. */
export function inputsRead(): string[] {
  return [...inputsReadSet];
}

/** The file-system calls a sweep makes (tests inject failures through the same seam as the commit). */
export interface SweepFs {
  readdirSync(path: string): string[];
  lstatSync(path: string): nodeFs.Stats;
  unlinkSync(path: string): void;
}

/**
 * Removes temp files of our own naming beside `targets` that no running
 * process on this machine owns (their writer died), or that are older than a
 * day. Files of other names are never touched, nor one of such a name that is
 * not a plain file (a link, a folder: ActGuy's temps are files), nor one this
 * thread read as an input (noteInputRead) or that `keep` names by identity (the
 * inputs a build worker read): a name alone never makes a file ActGuy's own.
 */
export function sweepStaleTemps(
  targets: readonly string[],
  fsOverride: Partial<SweepFs> = {},
  keep: readonly string[] = [],
): string[] {
  const fs: SweepFs = {
    readdirSync: (p) => nodeFs.readdirSync(p),
    lstatSync: (p) => nodeFs.lstatSync(p),
    unlinkSync: nodeFs.unlinkSync,
    ...fsOverride,
  };
  const removed: string[] = [];
  const kept = new Set(keep);
  const byDir = new Map<string, Set<string>>();
  for (const t of targets) {
    const abs = resolve(t);
    const set = byDir.get(dirname(abs)) ?? new Set<string>();
    set.add(basename(abs));
    byDir.set(dirname(abs), set);
  }
  for (const [dir, names] of byDir) {
    let entries: string[];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = OWN_TEMP.exec(e);
      if (!m || !names.has(m[1])) continue;
      const pid = Number(m[4]);
      const mine = m[3] === host();
      let st: nodeFs.Stats;
      try {
        st = fs.lstatSync(join(dir, e));
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      const id = identityOf(st);
      if (id !== undefined && (inputsReadSet.has(id) || kept.has(id))) continue;
      const stale = (mine && pid !== process.pid && !processAlive(pid)) || Date.now() - st.mtimeMs > STALE_MS;
      if (!stale) continue;
      try {
        fs.unlinkSync(join(dir, e));
        removed.push(join(dir, e));
      } catch {
        /* gone already, or another process swept it */
      }
    }
  }
  return removed;
}
