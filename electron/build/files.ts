import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { FormatError, quoteJson } from '../../shared/errors';
import { openedAt, readBytes, readBytesOf, TEXT_LIMIT } from '../fsutil';
import type { PathPolicy } from '../pathPolicy';
import { readInput } from '../io/readBinary';
import { danglingLinkReason, describeFsError } from '../fsErrors';

/**
 * A file the app's main thread judged by its path policy for a worker to read later (the app's Build, Export All):
 * its path as the worker names it, and the file that path led to at the judgement, links followed as the policy
 * followed them (`dev:ino`; null where nothing was there).
 */
export interface JudgedFile {
  path: string;
  identity: string | null;
}

/**
 * Test seams of judgeFile: `checked` runs right after the policy allowed the path, before the file is opened, and
 * `opened` right after it is opened (tests swap the file or a folder above it there, as whoever may write its folder
 * could); `openedAt` asks where an open file lies (tests answer undefined, as on a system without /proc).
 */
export const judgeSeam = {
  checked: (_path: string): void => undefined,
  opened: (_path: string): void => undefined,
  openedAt,
};

/**
 * `path` judged by `policy` for a worker to read later: the identity of the very file the policy allowed, or null
 * (nothing there, or what is there now is not what the policy allowed: the worker then refuses to read it).
 *
 * The policy allows a path and the file is opened after it, so whoever may write the folder could swap the file in
 * between (docs/security.md, round 44). A name that was no link when checked is opened without following one
 * (O_NOFOLLOW: a link put there since is not opened, whatever it leads to); then the file opened is judged where it
 * lies: on Linux the path the kernel gives for the descriptor (/proc/self/fd/N) must be the path allowed or one the
 * policy allows too; elsewhere (no /proc) the file opened must be the file at the path allowed after the open,
 * looked at without following a link (lstat), and every folder above it the same folder, no link, as when the policy
 * checked it (round 45: the file at the path allowed was asked by name, links followed, so a folder above it swapped
 * for a link, or for another folder, or the file a link inside leads to swapped for a link out, was judged as the
 * file it led to then). Only a folder swapped after the policy's check and swapped back between the two looks after
 * the open passes.
 */
export function judgeFile(path: string, policy: Pick<PathPolicy, 'check'>): JudgedFile {
  const refused = { path, identity: null };
  let allowed: string;
  try {
    allowed = policy.check(path, 'read');
  } catch {
    return refused;
  }
  // Off Linux: the folders down to it as they were when the policy checked it.
  const folders = foldersAt(allowed);
  judgeSeam.checked(path);
  let fd: number;
  try {
    const noLink = allowed === resolve(path) ? (constants.O_NOFOLLOW ?? 0) : 0;
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | noLink);
  } catch {
    return refused;
  }
  try {
    judgeSeam.opened(path);
    const st = fstatSync(fd, { bigint: true });
    const identity = `${st.dev}:${st.ino}`;
    const at = judgeSeam.openedAt(fd);
    const judged =
      at === undefined
        ? folders !== undefined && fileAt(allowed) === identity && foldersAt(allowed) === folders
        : at === allowed || allowedAs(policy, at);
    return judged ? { path, identity } : refused;
  } finally {
    closeSync(fd);
  }
}

/** The identity (`dev:ino`) of what is at `path` now, a link not followed (its own identity); null when nothing is. */
function fileAt(path: string): string | null {
  const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : null;
}

/**
 * The identities of the folders above `path`, its own folder to the root, none followed through a link; undefined
 * when one is a link or no folder (or cannot be looked at).
 */
function foldersAt(path: string): string | undefined {
  const ids: string[] = [];
  try {
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const st = lstatSync(dir, { bigint: true });
      if (!st.isDirectory()) return undefined;
      ids.push(`${st.dev}:${st.ino}`);
      if (dirname(dir) === dir) return ids.join('/');
    }
  } catch {
    return undefined;
  }
}

/** Whether the policy allows `at` (a path the kernel gave, links resolved) as it is. */
function allowedAs(policy: Pick<PathPolicy, 'check'>, at: string): boolean {
  try {
    return policy.check(at, 'read') === at;
  } catch {
    return false;
  }
}

/**
 * readInputFile's refusal of a file that is not the one main judged at its path: the app's Build asks main to judge the
 * path again once (buildRunner.ts), as a file saved over by renaming since is such a file.
 */
export class ReplacedAfterJudged extends Error {
  constructor() {
    super(
      'it was replaced after ActGuy checked it (another file, or a link to one, is at its name now), so it was not read; start again to check what is there now',
    );
  }
}

/**
 * How a build reads its inputs (shared/project/plan.ts ReadFile): a .sev or SE table within the text limit, refused
 * by its size before it is read (64 MiB), anything else as readInputFile reads a binary input (up to 1 GiB). A sparse
 * 200 MB .sev was read whole before the decoder refused it when every input went the binary way (round 13).
 * `judged`: what main judged at that path (readInputFile).
 */
export function readBuildInput(path: string, as?: 'text', judged?: string | null): Uint8Array {
  return readInputFile(path, as === 'text' ? TEXT_LIMIT : undefined, judged);
}

/**
 * Reads a whole file for the pure build core; failures become an Error with a readable message, or a FormatError
 * naming the file. With `limit`, a text file; without, a binary input (`.mtn`, `.mt3`, `.mar`, `.sar` by name or
 * magic) is read header first (electron/io/readBinary.ts), anything else whole up to its limit.
 *
 * With `judged` (JudgedFile's identity), the file opened is read only when it is the one main judged, compared on the
 * descriptor read: main's policy allowed the path a moment (or, for a build's later motions, minutes) before this
 * worker opens it, and whoever may write that folder could put a link to another file at its name in between, which
 * an open by name follows (docs/security.md, round 43).
 */
export function readInputFile(path: string, limit?: { bytes: number; of: string }, judged?: string | null): Uint8Array {
  try {
    if (judged === undefined) return limit ? readBytes(path, limit) : readInput(path);
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const st = fstatSync(fd, { bigint: true });
      if (`${st.dev}:${st.ino}` !== judged) throw new ReplacedAfterJudged();
      return limit ? readBytesOf(fd, path, limit) : readInput(path, fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (e instanceof FormatError || e instanceof ReplacedAfterJudged) throw e;
    const missing = (e as NodeJS.ErrnoException)?.code === 'ENOENT';
    const link = missing ? danglingLinkReason(path) : undefined;
    if (link) throw new Error(link);
    const hint = missing ? otherSpellingHint(path) : undefined;
    throw new Error(hint ? `${describeFsError(e)}; ${hint}` : describeFsError(e));
  }
}

/** How many names of a folder otherSpellingHint looks at: the hint is a courtesy, never a cost (docs/limits.md). */
const SPELLING_HINT_MAX_ENTRIES = 4096;

/**
 * For a file that is not there, the name beside it that is the same name in another Unicode form or another letter
 * case, in words; undefined when there is none (or the folder cannot be listed, or holds more than
 * SPELLING_HINT_MAX_ENTRIES names). A project written on macOS names `café.sev` with `é` as one code point while
 * the file, unpacked from the archive, spells it `e` + U+0301 (or the reverse); macOS and Windows open either
 * spelling, Linux only the one on disk, and both print alike: "no such file" alone left the user looking at a file
 * of that very name (docs/security.md, round 11).
 */
function otherSpellingHint(path: string): string | undefined {
  const want = basename(path);
  const nfc = want.normalize('NFC');
  const lower = nfc.toLowerCase();
  let dir: ReturnType<typeof opendirSync> | undefined;
  try {
    dir = opendirSync(dirname(path));
    for (let k = 0; k < SPELLING_HINT_MAX_ENTRIES; k++) {
      const entry = dir.readSync();
      if (!entry) return undefined;
      const name = entry.name;
      if (name === want) continue;
      const other = name.normalize('NFC');
      if (other === nfc)
        return (
          `the folder has ${quoteJson(name, 300)}, the same name in another Unicode form ` +
          `(${name === name.normalize('NFD') ? 'NFD, as macOS writes it' : 'NFC'}); rename the file or the path that names it ` +
          '(macOS and Windows take either form, Linux only the one on disk)'
        );
      if (other.toLowerCase() === lower)
        return (
          `the folder has ${quoteJson(name, 300)}, which differs only in letter case; rename the file or the path that names it ` +
          '(macOS and Windows ignore case, Linux does not)'
        );
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    try {
      dir?.closeSync();
    } catch {
      /* closed */
    }
  }
}
