/**
 * Writes a set of outputs (a .mar, its .sar and the report) as one unit: after
 * a failure at any point, or a kill at any moment followed by the next run,
 * the targets hold either every old file or every new one, never a new .mar
 * beside an old .sar (a mismatched pair the game would load).
 *
 * The protocol, with a journal beside the first target:
 *   1. check every target (not a folder; its folder exists or can be made);
 *   2. take the lock, finish any interrupted commit of these targets (only
 *      from a journal that provably belongs to exactly them, commitJournal.ts;
 *      any other is refused before a file is touched), sweep stale temp
 *      files of our own naming;
 *   3. write each new file to a temp beside its target (fsync);
 *   4. hard-link each existing target to a backup beside it;
 *   5. write the journal (temp + fsync + rename), naming the whole output
 *      set: the commit point;
 *   6. rename each temp over its target;
 *   7. remove the backups, then the journal; release the lock.
 * A kill before 5 leaves the old set (the next run sweeps the temps); a kill
 * after 5 leaves a journal that the next run rolls forward. A failure in 6
 * rolls back from the backups. Every step is numbered so a test can kill the
 * process at each one (ACTGUY_TEST_KILL_AT_COMMIT_STEP).
 */
import * as nodeFs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ownFileNameProblem, ownTempName, sweepStaleTemps } from '../tempFiles';
import { checkJournal, journalByteLimit, JournalProblem, JOURNAL_VERSION, type Journal } from './commitJournal';
import {
  danglingLinkReason,
  danglingOutputProblem,
  describeFsError,
  linkedFileOutputProblem,
  outputFolderProblem,
} from '../fsErrors';
import {
  asyncWriteIo,
  keepMode,
  makeFolders,
  modeToKeep,
  movedFolderProblem,
  readFileHead,
  readSmallFile,
  refuseTempNotWritten,
  tempMadeAs,
  writePiecesAsync,
  type FolderPin,
  type SmallFile,
  type TempMade,
  notReplaceableMessage,
  openPinnedFolders,
  type PinnedFolders,
} from '../fsutil';
import { inTurn, trackWrite } from '../writeTurns';
import { mshOutputKind } from './mshOutputKinds';
import { startsAsBuildReport } from '../../shared/project/reportStart';
import { lockPath, takeLock, type TakenLock } from './commitLock';
import { OutputWriteError } from './outputWriteError';

/** The file-system calls the commit makes; tests replace some to inject failures (as root, permissions cannot). */
export interface CommitFs {
  /** `mode`: the permission bits of the file the temp will replace (fsutil.ts modeToKeep). */
  writeFileSync(path: string, data: Uint8Array | string, options?: { flag?: string; mode?: number }): void;
  /** writeFileSync of a file given as pieces (BuildOutput.pieces): written in order, as if joined. */
  writePiecesSync(path: string, pieces: readonly Uint8Array[], options?: { flag?: string; mode?: number }): void;
  /**
   * writeFileSync (or writePiecesSync, given pieces) off the main thread, for commitOutputsAsync: the file written in
   * order, as if joined, and flushed.
   */
  writeAsync(
    path: string,
    data: Uint8Array | readonly Uint8Array[],
    options?: { flag?: string; mode?: number },
  ): Promise<void | TempMade>;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, link: string): void;
  copyFileSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  /** Creates one folder whose parent exists (makeFolders walks the levels). */
  mkdirSync(path: string): unknown;
  lstatSync(path: string): nodeFs.Stats;
  readdirSync(path: string): string[];
  /** Reads a small file that may be hostile (fsutil.ts readSmallFile); undefined when absent. */
  readSmallFile(path: string, maxBytes: number): SmallFile | undefined;
}

const realFs: CommitFs = {
  writeFileSync: (p, d, o) => writeDurably(p, d, o?.flag ?? 'w', o?.mode),
  writePiecesSync: (p, d, o) => writeDurably(p, d, o?.flag ?? 'w', o?.mode),
  writeAsync: (p, d, o) => writeDurablyAsync(p, d, o?.flag ?? 'w', o?.mode),
  renameSync: nodeFs.renameSync,
  linkSync: nodeFs.linkSync,
  copyFileSync: nodeFs.copyFileSync,
  unlinkSync: nodeFs.unlinkSync,
  mkdirSync: (p) => nodeFs.mkdirSync(p),
  lstatSync: (p) => nodeFs.lstatSync(p),
  readdirSync: (p) => nodeFs.readdirSync(p),
  readSmallFile,
};

/**
 * Writes and fsyncs, so a renamed temp never turns out empty after a power cut. `data` as pieces (an output's
 * BuildOutput.pieces) is written piece after piece, as if joined.
 */
function writeDurably(
  path: string,
  data: Uint8Array | string | readonly Uint8Array[],
  flag: string,
  mode?: number,
): void {
  const fd = nodeFs.openSync(path, flag, mode ?? 0o666);
  try {
    keepMode(fd, mode);
    if (typeof data === 'string' || data instanceof Uint8Array) nodeFs.writeFileSync(fd, data);
    else writePieces(fd, data);
    nodeFs.fsyncSync(fd);
  } finally {
    nodeFs.closeSync(fd);
  }
}

/**
 * writeDurably with the writes and the flush in Node's thread pool (through fsutil's asyncWriteIo, the seam of every
 * write made off the main thread): the main thread is free meanwhile.
 */
async function writeDurablyAsync(
  path: string,
  data: Uint8Array | readonly Uint8Array[],
  flag: string,
  mode?: number,
): Promise<TempMade> {
  const io = asyncWriteIo;
  const fd = await io.open(path, flag, mode ?? 0o666);
  try {
    // The file made, as the install checks that it is still the one at the temp's name (fsutil refuseTempNotWritten),
    // and where it was made, so that a refused install removes it there (round 36).
    const made = tempMadeAs(fd);
    keepMode(fd, mode);
    await writePiecesAsync(fd, data instanceof Uint8Array ? [data] : data);
    await io.fsync(fd);
    return made;
  } finally {
    await io.close(fd);
  }
}

/**
 * Writes `pieces` at the file's current position, in order, whole: writev takes a bounded number of buffers per call
 * (IOV_MAX, 1024 on Linux) and may write fewer bytes than asked, so a short write goes on from where it stopped.
 */
function writePieces(fd: number, pieces: readonly Uint8Array[]): void {
  for (let at = 0; at < pieces.length;) {
    const batch = pieces.slice(at, at + PIECES_PER_WRITE);
    at += batch.length;
    let left = batch.reduce((n, piece) => n + piece.byteLength, 0);
    let written = nodeFs.writevSync(fd, batch as Uint8Array[]);
    left -= written;
    for (let k = 0; left > 0; k++) {
      const piece = batch[k];
      if (written >= piece.byteLength) {
        written -= piece.byteLength;
        continue;
      }
      // The rest of this piece (and of the batch after it), a plain write at a time.
      for (let o = written; o < piece.byteLength;) {
        const n = nodeFs.writeSync(fd, piece, o, piece.byteLength - o);
        o += n;
        left -= n;
      }
      written = 0;
    }
  }
}
const PIECES_PER_WRITE = 512;

export interface CommitOptions {
  fs?: Partial<CommitFs>;
  /** Called before each numbered step (1-based) with its label; a test seam. */
  onStep?: (step: number, label: string) => void;
  /**
   * Called once every output is in place, while the lock is still held: what it sees of the outputs is this
   * commit's, not another run's that replaced them after (the record of the last build takes their stamps here).
   */
  installed?: () => void;
  /**
   * Identities (tempFiles.ts identityOf) of files the sweep must keep whatever their names: the inputs another
   * thread read for this commit (the app's build worker). What this thread read is kept without it (noteInputRead).
   */
  keep?: readonly string[];
  /**
   * The outputs' folders as the caller checked them before a wait (fsutil.ts FolderPin): the commit refuses to start,
   * and to install, once one resolves elsewhere (an app export that waited on its compression).
   */
  folders?: readonly FolderPin[];
  /**
   * Called last before the commit point, once every temp is written and every old target linked aside, in the same
   * turn of the event loop as the journal's write and the renames: what it throws refuses the commit (every temp and
   * backup removed, no journal written, the old files in place) and is thrown as it is. A motion's Save checks here
   * that its .mtn and tuning file are still what the page loaded (electron/loadedFiles.ts).
   */
  beforeCommitPoint?: () => void;
}

export interface OutputFile {
  path: string;
  bytes: Uint8Array;
  /** The file as pieces, written as they are when set (`bytes` is then their join: BuildOutput.pieces). */
  pieces?: readonly Uint8Array[];
  /** When set, a file already at `path` is replaced only if it is of this kind (docs/security.md). */
  kind?: OutputKind;
}

/** What a file already at an output's path must be for a commit to replace it, told from its first bytes (or beside it). */
export interface OutputKind {
  /** As a message names it: `an ActGuy build report`. */
  name: string;
  /** How one is told, for the message: `those start {"tool": "actguy build"`. */
  told: string;
  /** How many first bytes `accepts` reads. */
  headBytes: number;
  /** `at`: the file's path as the commit resolved it (a kind told by what lies beside it looks there). */
  accepts(head: Uint8Array, at: string): boolean;
  /** What the user can do instead, for the message. */
  instead: string;
}

/**
 * A build report: its name ends in `.json` (validate.ts), a name people's own files have too (package.json,
 * settings), so an existing file is replaced only when it starts as every report does. A damaged report that lost
 * its first line is moved away by the user; an empty file holds nothing to lose.
 */
export const BUILD_REPORT_KIND: OutputKind = {
  name: 'an ActGuy build report',
  told: 'those start {"tool": "actguy build"',
  headBytes: 256,
  accepts: (head) => startsAsBuildReport(new TextDecoder().decode(head)),
  instead: "move that file away (a damaged report too) or name another file in the project's outputs.report",
};

/** What a build's refusal to replace a file of `outputs.msh` tells the user to do. */
export const MSH_BUILD_INSTEAD = "move that file away or name another folder in the project's outputs.msh";

/**
 * A build's outputs, the report marked so that it replaces only a build report and each file of `outputs.msh` only
 * that file of an MSH export (mshOutputKinds.ts): a received project may name a folder of the user's own files.
 */
export function buildOutputFiles(outputs: readonly OutputFile[], reportPath: string): OutputFile[] {
  return outputs.map((o) => {
    const kind = buildOutputKind(o.path, reportPath);
    if (!kind) return o;
    // Not spread: a pieced output's `bytes` joins its pieces when read (BuildOutput.pieces), and the commit never does.
    return {
      path: o.path,
      kind,
      ...(o.pieces && { pieces: o.pieces }),
      get bytes() {
        return o.bytes;
      },
    };
  });
}

/** The kind the file already at a build's output `path` must be to be replaced (buildOutputFiles). */
function buildOutputKind(path: string, reportPath: string | undefined): OutputKind | undefined {
  return path === reportPath ? BUILD_REPORT_KIND : mshOutputKind(path, MSH_BUILD_INSTEAD);
}

/**
 * The files already at a build's outputs that it refuses to replace, each with why, checked before any work (the
 * CLI's build and the app's Build; the commit checks again, under its lock): `paths` in the order the build writes
 * them (the commit's journal lies beside the first), `mayRead` false for a path not to be read at all (one the
 * app's policy refuses). While a commit journal lies beside the first, the MSH files are left to the commit, which
 * checks them once it has completed the interrupted one (commitJournalBeside).
 */
export function outputsRefusedBeforeBuild(
  paths: readonly string[],
  reportPath: string | undefined,
  mayRead: (path: string) => boolean = () => true,
): { file: string; problem: string }[] {
  const interrupted = paths.length > 0 && commitJournalBeside(paths[0]);
  const refused: { file: string; problem: string }[] = [];
  for (const file of paths) {
    const kind = file === reportPath || !interrupted ? buildOutputKind(file, reportPath) : undefined;
    const problem = mayRead(file)
      ? (outputFolderProblem(resolve(file), file) ??
        // A device, pipe or socket (or a link to one) at an output's name, which no commit replaces.
        notReplaceableMessage(file) ??
        otherKindProblem({ path: file, kind }))
      : undefined;
    if (problem) refused.push({ file, problem });
  }
  return refused;
}

/**
 * The refusal the commit of `paths` (a build's outputs in the order it writes them) would make of the commit journal
 * beside the first (readJournal, the same check), made before the build's work: a journal that will be refused fails
 * the build at once, not after minutes of compression, and `build --watch` retries it at once too. Undefined when no
 * journal lies there or the commit would act on it (the commit checks again, under its lock).
 */
export function journalRefusedBeforeBuild(paths: readonly string[]): OutputWriteError | undefined {
  if (paths.length === 0) return undefined;
  const targets = paths.map((p) => resolve(p));
  try {
    readJournal(realFs, journalPath(targets[0]), targets);
    return undefined;
  } catch (e) {
    // Anything else is left to the commit, which meets it under its lock.
    return e instanceof OutputWriteError ? e : undefined;
  }
}

/**
 * Why the file already at `file.path` may not be replaced (it is not of the output's kind), naming it and saying
 * what to do; undefined when there is none, it is empty or it is of the kind. A build checks before it starts and
 * the commit again, under its lock, just before it writes.
 */
export function otherKindProblem(file: Pick<OutputFile, 'path' | 'kind'>, at = file.path): string | undefined {
  const { kind } = file;
  // A link to a file at the name, kind or none: replaced by the output, the link lost and the file it leads to left as
  // it was (docs/security.md, round 50).
  const linked = linkedFileOutputProblem(at, file.path);
  if (linked) return linked;
  if (!kind) {
    // An output of no kind (a build's .mar and .sar, unpack-mar's .mt3 files) replaced a link to nothing at its name
    // without a word, the link lost, where Export All's refused it (docs/security.md, round 48).
    return danglingOutputProblem(at, file.path)?.message;
  }
  let head: Uint8Array | undefined;
  try {
    head = readFileHead(at, kind.headBytes);
  } catch (e) {
    return `refused to replace ${file.path}: it is not ${kind.name} (${describeFsError(e)}); ${kind.instead}`;
  }
  // A link to nothing at the name was replaced by the output without a word, the link lost (docs/security.md, round 47).
  const dangling = head === undefined ? danglingLinkReason(at) : undefined;
  if (dangling) return `refused to replace ${file.path}: ${dangling}; ${kind.instead}`;
  if (head === undefined || head.length === 0 || kind.accepts(head, at)) return undefined;
  return `refused to replace ${file.path}: it is already there and is not ${kind.name} (${kind.told}); ${kind.instead}`;
}

/**
 * Whether a commit journal lies beside `firstOutput` (the first file of an output set, where the commit keeps it):
 * an interrupted commit, which the next commit completes or refuses before anything else. Until then its outputs
 * may be half the new set -- an MSH export's new `.res8` beside the old node list, which names the old size -- and
 * a kind check would take that for another tool's file, refusing every build and never reaching the recovery. So
 * the checks a build makes before its work leave the MSH files to the commit, which checks them after recovery.
 */
function commitJournalBeside(firstOutput: string): boolean {
  try {
    nodeFs.lstatSync(journalPath(resolve(firstOutput)));
    return true;
  } catch {
    return false;
  }
}

/** What a commit's journal adds to the name of the first output, beside which it lies. */
export const COMMIT_JOURNAL_SUFFIX = '.actguy-commit';

function journalPath(first: string): string {
  return join(dirname(first), `${basename(first)}${COMMIT_JOURNAL_SUFFIX}`);
}

/**
 * Whether a commit journal or lock lies beside the outputs whose first is `first` (anything at either name, even a
 * link): a build that finds one must go through commitOutputs, which completes, refuses or waits as the rules say.
 */
export function commitLeftovers(first: string): boolean {
  for (const path of [journalPath(first), lockPath(first)]) {
    try {
      realFs.lstatSync(path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return true;
    }
  }
  return false;
}

function exists(fs: CommitFs, p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Checks that `target` can be a file: not a folder, and its folder exists or can be created. */
function prepareTarget(fs: CommitFs, target: string, shown: string): void {
  const reserved = ownFileNameProblem(target);
  if (reserved)
    throw new OutputWriteError(`cannot write ${shown}: ${reserved}; choose another name; nothing was written`);
  let st: nodeFs.Stats | undefined;
  try {
    st = fs.lstatSync(target);
  } catch {
    /* does not exist yet: fine */
  }
  if (st?.isDirectory())
    throw new OutputWriteError(`cannot write ${shown}: it is a folder, not a file; nothing was written`);
  const special = notReplaceableMessage(target, shown);
  if (special) throw new OutputWriteError(`${special}; nothing was written`);
  const dir = dirname(target) || '.';
  const problem = outputFolderProblem(target, shown, fs.lstatSync);
  if (problem) throw new OutputWriteError(`${problem}; nothing was written`);
  try {
    makeFolders(dir, { mkdirSync: fs.mkdirSync, statSync: nodeFs.statSync });
  } catch (e) {
    throw new OutputWriteError(
      `cannot create the folder ${dirname(shown)} for ${shown}: ${describeFsError(e)}; nothing was written`,
    );
  }
}

/**
 * The system's answers to making a file in a folder that takes no new files (/proc, a read-only disk, another user's
 * folder): what a commit's lock or temps meet there, said as such, naming the outputs (docs/security.md, round 38).
 */
const NO_NEW_FILE_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

/**
 * takeLock, whose failure to make the lock file names the outputs and says why: the system's error named only the
 * lock (`actguy export-msh: /proc/m.res8.actguy-lock: no such file or directory`).
 */
function lockOrSayWhy(take: () => TakenLock, files: readonly OutputFile[]): TakenLock {
  try {
    return take();
  } catch (e) {
    if (!NO_NEW_FILE_CODES.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    const first = files[0].path;
    throw new OutputWriteError(
      `cannot write ${files.map((f) => f.path).join(', ')}: cannot create a file beside ${first} in ${dirname(first) || '.'} ` +
        `(${describeFsError(e)}; a commit takes a lock file there before it writes); nothing was written`,
    );
  }
}

function writeJournal(fs: CommitFs, path: string, journal: Journal): void {
  const tmp = ownTempName(path, 'journal');
  try {
    fs.writeFileSync(tmp, `${JSON.stringify(journal, null, 1)}\n`);
    fs.renameSync(tmp, path);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* not written */
    }
    throw e;
  }
}

/**
 * The journal of these outputs, if there is one, checked to be ours for
 * exactly `outputs` (commitJournal.ts checkJournal); anything else is refused
 * before any file is touched, with the journal's name and how to clear it.
 */
function readJournal(fs: CommitFs, path: string, outputs: readonly string[]): Journal | undefined {
  const refuse = (why: string) =>
    new OutputWriteError(
      `refused the commit journal ${path}: ${why}. ActGuy completes an interrupted commit only from a journal it wrote for exactly these outputs, ` +
        `so nothing was changed. If no ActGuy run is writing these outputs, move the journal aside (rename or delete it) and run again: every output is written anew`,
    );
  const read = fs.readSmallFile(path, journalByteLimit(outputs));
  if (read === undefined) return undefined;
  if ('problem' in read) throw refuse(read.problem);
  try {
    return checkJournal(read.text, outputs);
  } catch (e) {
    if (e instanceof JournalProblem) throw refuse(e.message);
    throw e;
  }
}

function unlinkQuiet(fs: CommitFs, p: string | null): void {
  if (!p) return;
  try {
    fs.unlinkSync(p);
  } catch {
    /* already gone */
  }
}

/** Restores the backups (state 'back'): the old set returns; targets that did not exist before are removed. */
function rollBack(fs: CommitFs, jpath: string, journal: Journal): void {
  if (journal.state !== 'back') writeJournal(fs, jpath, { ...journal, state: 'back' });
  for (const e of journal.entries) {
    if (exists(fs, e.temp)) {
      // Never installed: the target still holds the old file (rename() of a hard link onto
      // its twin would do nothing, so the backup is dropped rather than renamed).
      unlinkQuiet(fs, e.temp);
      unlinkQuiet(fs, e.backup);
    } else if (e.backup !== null) {
      if (exists(fs, e.backup)) fs.renameSync(e.backup, e.path);
    } else {
      // The new file was installed where none was before.
      unlinkQuiet(fs, e.path);
    }
  }
  fs.unlinkSync(jpath);
}

/**
 * `fs` with every path in one of `pinned`'s folders taken through that folder's descriptor (PinnedFolders.at): the
 * commit's temps, backups, journal, renames and roll-back, from the folders' first check to the end. What the journal
 * says keeps the paths as named.
 */
function throughPinned(fs: CommitFs, pinned: PinnedFolders): CommitFs {
  const at = pinned.at;
  return {
    ...fs,
    writeFileSync: (p, d, o) => fs.writeFileSync(at(p), d, o),
    writePiecesSync: (p, d, o) => fs.writePiecesSync(at(p), d, o),
    writeAsync: (p, d, o) => fs.writeAsync(at(p), d, o),
    renameSync: (a, b) => fs.renameSync(at(a), at(b)),
    linkSync: (a, b) => fs.linkSync(at(a), at(b)),
    copyFileSync: (a, b) => fs.copyFileSync(at(a), at(b)),
    unlinkSync: (p) => fs.unlinkSync(at(p)),
    lstatSync: (p) => fs.lstatSync(at(p)),
    readSmallFile: (p, max) => fs.readSmallFile(at(p), max),
    // A pinned folder itself (the sweep lists it): the folder of a name in it, taken through the descriptor.
    readdirSync: (p) => fs.readdirSync(dirname(at(join(p, '-')))),
  };
}

/** Installs the temps (state 'forward'); on a failure rolls back. Returns whether the new set is in place. */
function rollForward(fs: CommitFs, jpath: string, journal: Journal, step: (label: string) => void): boolean {
  try {
    journal.entries.forEach((e, k) => {
      step(`install ${k + 1}`);
      if (exists(fs, e.temp)) fs.renameSync(e.temp, e.path);
    });
  } catch (e) {
    if ((e as Error).name === 'CommitKilled') throw e;
    rollBack(fs, jpath, journal);
    throw e;
  }
  // The new set is in place: what remains is tidying. A failure here leaves a journal whose temps are
  // all installed, which the next run finishes in no time; it never undoes the new set.
  journal.entries.forEach((e, k) => {
    step(`drop backup ${k + 1}`);
    unlinkQuiet(fs, e.backup);
  });
  step('remove journal');
  unlinkQuiet(fs, jpath);
  return true;
}

/**
 * Finishes a commit of these outputs that a kill interrupted (rolls it
 * forward, or back if it was rolling back) and sweeps stale temps. Returns
 * what it did, for a note to the user; nothing when there was nothing to do.
 */
export function recoverOutputs(paths: readonly string[], options: CommitOptions = {}): string | undefined {
  if (paths.length === 0) return undefined;
  const fs = { ...realFs, ...options.fs };
  const targets = paths.map((p) => resolve(p));
  const lock = takeLock(fs, lockPath(targets[0]));
  try {
    return joinNotes(lock.note, recoverLocked(fs, targets, options.keep));
  } finally {
    lock.release();
  }
}

/** Recovery under the lock; `targets` are the absolute output paths of this run, the first one beside the journal. */
function recoverLocked(fs: CommitFs, targets: readonly string[], keep?: readonly string[]): string | undefined {
  const jpath = journalPath(targets[0]);
  const journal = readJournal(fs, jpath, targets);
  let note: string | undefined;
  if (journal) {
    if (journal.state === 'back') {
      // A file installed where none was before is removed by the roll-back: said so, not as "previous contents".
      const removed = journal.entries.filter((e) => e.backup === null && !exists(fs, e.temp)).map((e) => e.path);
      rollBack(fs, jpath, journal);
      note = rolledBackNote(
        journal.entries.map((e) => e.path).filter((p) => !removed.includes(p)),
        removed,
      );
    } else {
      try {
        rollForward(fs, jpath, journal, () => {});
        note = `an interrupted build was completed: ${journal.entries.map((e) => e.path).join(', ')} hold its outputs`;
      } catch (e) {
        note = `an interrupted build could not be completed (${describeFsError(e)}) and was rolled back`;
      }
    }
  }
  sweepStaleTemps([...targets, jpath], fs, keep);
  return note;
}

/** What a recovery that rolled a commit back says: the files back as they were, and those it removed. */
function rolledBackNote(kept: readonly string[], removed: readonly string[]): string {
  const said = [
    ...(kept.length ? [`${kept.join(', ')} ${kept.length === 1 ? 'holds its' : 'hold their'} previous contents`] : []),
    ...(removed.length
      ? [`${removed.join(', ')} ${removed.length === 1 ? 'was' : 'were'} removed (none was there before it)`]
      : []),
  ];
  return `an interrupted build was rolled back: ${said.join('; ')}`;
}

/** Two notes of a commit as one (either may be absent). */
function joinNotes(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : `${a}; ${b}`;
}

/** The step numbers a commit of `n` files goes through with `existing` old targets (for kill-at-every-step tests). */
export function commitStepCount(n: number, existing: number): number {
  return n + existing + 1 + n + n + 1;
}

class CommitKilled extends Error {
  override name = 'CommitKilled';
}

/**
 * Writes `files` as one unit (see the protocol above). On a failure the
 * targets keep their old contents, no temp file remains, and the error names
 * the user's path. Returns a note when an interrupted earlier commit of the
 * same outputs had to be finished first.
 */
export function commitOutputs(files: readonly OutputFile[], options: CommitOptions = {}): string | undefined {
  if (files.length === 0) return undefined;
  const commit = beginCommit(files, options);
  try {
    files.forEach((f, k) =>
      commit.writeTemp(k, (temp, o) =>
        f.pieces ? commit.fs.writePiecesSync(temp, f.pieces, o) : commit.fs.writeFileSync(temp, f.bytes, o),
      ),
    );
    return commit.install();
  } finally {
    commit.release();
  }
}

/**
 * commitOutputs with step 3, the writing of each new file to its temp (and its flush), off the main thread: for the
 * app's saves and exports (a 30 MB .mtn, an MSH export's key pool), whose synchronous writes held the window. The
 * rest (the checks, the lock, the backups, the journal, the renames) is as commitOutputs does it, in the same order:
 * the same files in the end, after a failure or a kill at any step. The lock is held while the temps are written. A
 * second asynchronous write of any of the same files in this process (a second Save, with or without its tuning file)
 * waits for this one to end and then goes (writeTurns.ts inTurn): the newer one lands last, never refused by this
 * commit's lock as another run's. The commit counts in writesInFlight (fsutil.ts) until it ends, so a quit waits for
 * it, and in commitsInFlight: a quit whose wait ran out asks before it cuts one (quitWaits.ts).
 */
export function commitOutputsAsync(
  files: readonly OutputFile[],
  options: CommitOptions = {},
): Promise<string | undefined> {
  return trackWrite(
    () =>
      inTurn(
        files.map((f) => f.path),
        async () => {
          if (files.length === 0) return undefined;
          const commit = beginCommit(files, options);
          try {
            for (let k = 0; k < files.length; k++) {
              const f = files[k];
              const made = await commit.writeTemp(k, (temp, o) => commit.fs.writeAsync(temp, f.pieces ?? f.bytes, o));
              if (made) commit.madeAs(k, made);
            }
            return commit.install();
          } finally {
            commit.release();
          }
        },
        true,
      ),
    { commit: true },
  );
}

/** A commit under way: checked, locked, recovered; its temps are written next (writeTemp), then installed. */
interface StartedCommit {
  fs: CommitFs;
  /** Step 3 for file `k`: `write` writes its temp; a failure removes every temp and throws, naming the user's file. */
  writeTemp<T>(k: number, write: (temp: string, options: { flag: string; mode: number | undefined }) => T): T;
  /** Records the file written for temp `k` (its fstat): install refuses unless that file is still at the temp's name. */
  madeAs(k: number, made: TempMade): void;
  /** Steps 4 to 7, once every temp is written; returns the note of a recovered earlier commit. */
  install(): string | undefined;
  /** Releases the lock (not after a test's kill). */
  release(): void;
}

/** Steps 1 and 2 of a commit (see the protocol above); the lock is released on a failure here, else by the caller. */
function beginCommit(files: readonly OutputFile[], options: CommitOptions): StartedCommit {
  const fs = { ...realFs, ...options.fs };
  const targets = files.map((f) => resolve(f.path));
  const shown = new Map(targets.map((t, k) => [t, files[k].path]));
  const refuseMoved = () => {
    for (const pin of options.folders ?? []) {
      const problem = movedFolderProblem(pin);
      if (problem)
        throw new OutputWriteError(
          `cannot write ${files.map((f) => f.path).join(', ')}: ${problem}; nothing was written`,
        );
    }
  };
  refuseMoved();
  targets.forEach((t, k) => prepareTarget(fs, t, files[k].path));
  const first = targets[0];
  const jpath = journalPath(first);
  const movedError = (e: unknown) =>
    new OutputWriteError(`cannot write ${files.map((f) => f.path).join(', ')}: ${(e as Error).message}`);
  // The folders checked and opened once they are made, before the lock: the lock, the recovery, every temp and backup,
  // the journal and the renames go through them. A temp's open waits in Node's thread pool, and a folder swapped for a
  // link around it had the temp made, and the user's bytes written, in the folder the link led to, readable there
  // until removed (docs/security.md, round 41, continued). Through the folder's descriptor (fsutil.ts
  // openPinnedFolders) they are made in the folder checked, whatever is at its name by then.
  let pinned: PinnedFolders;
  try {
    pinned = openPinnedFolders(options.folders ?? [], files[0].path);
  } catch (e) {
    throw movedError(e);
  }
  const via = throughPinned(fs, pinned);
  let lock: TakenLock;
  try {
    lock = lockOrSayWhy(() => takeLock(via, lockPath(first)), files);
  } catch (e) {
    pinned.close();
    throw e;
  }
  const releaseLock = lock.release;
  let n = 0;
  const killAt = Number(process.env.ACTGUY_TEST_KILL_AT_COMMIT_STEP ?? 0);
  const step = (label: string) => {
    n++;
    options.onStep?.(n, label);
    if (n === killAt) {
      // The test seam: die here as a power cut would, with no cleanup at all.
      process.kill(process.pid, 'SIGKILL');
      throw new CommitKilled(label);
    }
  };
  const release = () => {
    // The lock first: it is removed through the folder's descriptor, which closes after it.
    if (n !== killAt || killAt === 0) releaseLock();
    pinned.close();
  };
  let note: string | undefined;
  let entries: Journal['entries'];
  try {
    note = joinNotes(lock.note, recoverLocked(via, targets, options.keep));
    // Read through the folder checked, as every other step here: by name, a folder swapped for a link before this read
    // (and put back after it) had a file of the link's folder vouch for the one about to be replaced (round 42).
    files.forEach((f, k) => {
      const problem = otherKindProblem(f, pinned.at(targets[k]));
      if (problem) throw new OutputWriteError(`${problem}; nothing was written`);
    });
    entries = targets.map((t) => ({ path: t, temp: ownTempName(t, 'new'), backup: null }));
  } catch (e) {
    release();
    throw e;
  }
  /** Removes every temp and backup made so far (before the commit point). */
  const dropTemps = (): void => {
    for (const x of entries) {
      unlinkQuiet(via, x.temp);
      unlinkQuiet(via, x.backup);
    }
  };
  /** A failure before the commit point: every temp and backup goes, and the error names the user's files. */
  const abandon = (e: unknown): never => {
    if ((e as Error).name === 'CommitKilled') throw e;
    dropTemps();
    if (e instanceof OutputWriteError) throw e;
    throw new OutputWriteError(
      `cannot write ${files.map((f) => f.path).join(', ')}: ${describeFsError(e)}; nothing was written`,
    );
  };
  const wrapWrite = (k: number, e: unknown): never => {
    if ((e as Error).name === 'CommitKilled') throw e;
    const file = shown.get(entries[k].path) ?? entries[k].path;
    return abandon(
      new OutputWriteError(
        NO_NEW_FILE_CODES.has((e as NodeJS.ErrnoException).code ?? '')
          ? `cannot write ${file}: cannot create a temporary file beside it in ${dirname(file) || '.'} (${describeFsError(e)}); nothing was written`
          : `cannot write ${file}: ${describeFsError(e)}; nothing was written`,
      ),
    );
  };
  const made = new Map<number, TempMade>();
  return {
    fs: via,
    madeAs(k, identity) {
      made.set(k, identity);
    },
    writeTemp<T>(k: number, write: (temp: string, o: { flag: string; mode: number | undefined }) => T): T {
      try {
        step(`write ${k + 1}`);
      } catch (e) {
        return abandon(e);
      }
      let result: T;
      try {
        // An output replaced keeps its permissions (a private file stays private).
        result = write(entries[k].temp, { flag: 'wx', mode: modeToKeep(entries[k].path) });
      } catch (e) {
        return wrapWrite(k, e);
      }
      if (result instanceof Promise) return result.catch((e: unknown) => wrapWrite(k, e)) as T;
      return result;
    },
    install() {
      try {
        entries.forEach((e, k) => {
          if (!exists(via, e.path)) return;
          step(`backup ${k + 1}`);
          const backup = ownTempName(e.path, 'old');
          try {
            via.linkSync(e.path, backup);
          } catch {
            // A file system without hard links: a copy serves as well.
            via.copyFileSync(e.path, backup);
          }
          e.backup = backup;
        });
        // Checked again last before anything is installed: what is left of the window is the journal and the renames.
        refuseMoved();
        // Each temp written off the main thread is still the file written (a folder swapped and put back around its
        // open made it elsewhere: the install would find none and take it for installed, or install another's file).
        for (const [k, identity] of made)
          try {
            refuseTempNotWritten(pinned.at(entries[k].temp), identity, entries[k].path);
          } catch (e) {
            throw movedError(e);
          }
      } catch (e) {
        abandon(e);
      }
      // The caller's last word, thrown as it is: nothing is installed yet, and no journal says to install it.
      if (options.beforeCommitPoint)
        try {
          options.beforeCommitPoint();
        } catch (e) {
          dropTemps();
          throw e;
        }
      // The folders checked once more: the journal and the renames go through the folders opened at the start (fsutil.ts
      // openPinnedFolders), so a folder swapped for a link after this point moves nothing (docs/security.md, round 41).
      try {
        refuseMoved();
      } catch (e) {
        return abandon(e);
      }
      try {
        step('journal');
        writeJournal(via, jpath, {
          tool: 'actguy commit',
          version: JOURNAL_VERSION,
          state: 'forward',
          outputs: targets,
          entries,
        });
      } catch (e) {
        abandon(e);
      }
      try {
        rollForward(
          via,
          jpath,
          { tool: 'actguy commit', version: JOURNAL_VERSION, state: 'forward', outputs: targets, entries },
          step,
        );
      } catch (e) {
        if ((e as Error).name === 'CommitKilled') throw e;
        // Rolled back: old files are back in place, and a target that had none is gone again.
        const kept = entries.some((x) => x.backup !== null) ? 'the previous files were kept' : 'nothing was written';
        throw new OutputWriteError(
          `cannot write ${files.map((f) => f.path).join(', ')}: ${describeFsError(e)}; ${kept}`,
        );
      }
      options.installed?.();
      return note;
    },
    release,
  };
}
