/**
 * The one implementation of ActGuyApi's invoke members, as plain async
 * functions over Node (fs, the compress worker). Electron IPC (main.ts) and
 * the loopback server (loopback/server.ts) both serve exactly these functions
 * through `dispatchInvoke` (invokeReply.ts).
 *
 * The renderer is untrusted: every argument is checked for shape, and every
 * path goes through the PathPolicy before anything is read or written.
 */
import { closeSync, existsSync, fstatSync, lstatSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { escapeControls, FormatError } from '../shared/errors';
import { isEventsMenuCommand, type EventsMenuCommand } from '../shared/eventsMenu';
import type { ActGuyInvokeMember } from '../shared/ipc/api';
import type { UnsavedBackup } from '../shared/ipc/backups';
import type {
  AppInfo,
  DocumentId,
  DocumentStateReport,
  ExportMt3Outcome,
  KeptMotionCopy,
  OpenMotionOutcome,
  OpenMotionRequest,
  RecentFileKind,
  SaveOutcome,
  TuningFileRead,
} from '../shared/ipc/documents';
import type { InvokeArg, InvokeResult } from '../shared/ipc/transport';
import type { CompressClient } from './compressClient';
import type { DialogPort, FileFilter } from './dialogPort';
import { DocumentTable, type HandlerDocument } from './documents';
import {
  baseNameOf,
  openPinnedFolders,
  pinFolder,
  readBytes,
  readBytesOf,
  writeExportedFile,
  writeFileAtomicAsync,
  writeNewFileAsync,
  type PinnedFolders,
} from './fsutil';
import { inTurn } from './writeTurns';
import { openIfBeside } from './besideFiles';
import { ChangedOnDiskError, LoadedFiles, sameLoadedName } from './loadedFiles';
import { decodeUtf8Text } from '../shared/sev/text';
import { TUNING_MAX_BYTES, tuningPathOf } from '../shared/tuning/sidecar';
import { COMMIT_JOURNAL_SUFFIX, commitLeftovers, commitOutputsAsync, recoverOutputs } from './build/commit';
import { SAVE_MOTION_NEXT, systemReason } from './fsErrors';
import { offeredFileName, requireBytes, requireCompressRequest, requireObject, requirePath } from './ipcArgs';
import { motionKindOfPath, skeletonBesidePath, type LoadOutcome } from './motionFiles';
import { defaultMotionLoader, type MotionLoader } from './motionLoad';
import { refuseOverwritingInput } from './pathIdentity';
import {
  allowDialogAnswer,
  allowUnlessLinkedOut,
  canonicalPath,
  linkOutOf,
  quotePath,
  type PathPolicy,
  withExtension,
} from './pathPolicy';
import { openRecentFileOrRefuse, recentKindOfPath, recentPathProblem, type RecentFilesStore } from './recentFiles';
import { createProjectHandlers, defaultBuildWorkerPath, SOUND_EXTENSIONS } from './project/projectHandlers';
import { createInterchangeHandlers } from './interchange/interchangeHandlers';
import { createMshExportHandlers } from './interchange/mshExportHandlers';
import { createProjectExportHandlers } from './interchange/projectExportHandlers';
import type { CommitOptions } from './build/commit';
import type { ImportRunner } from './interchange/importRunner';
import { BUILD_WORKER_KEEP_MS, workerLauncher, type BuildJobLauncher } from './project/buildRunner';
import { keptWorkers, type KeptWorkers } from './oneShotWorker';
import type { KeepAwake } from './keepAwake';
import { besideBundleCheckers, type TextChecker, type WorkerCheckers } from './project/textCheck';
import { inProcessMotionChecker, type MotionChecker, type MotionCheckResult } from './motionCheckJob';
import { createLastFolderStore, withLastFolder, type LastFolderStore } from './lastFolder';
import { FILE_NAME_MAX_BYTES } from '../shared/fileSystemLimits';
import { createBackupStore, type BackupStore } from './unsavedBackups';
import { fileExtensions, listFiles, makeFolder } from './workspaceListing';

/** Every invoke member as a function of its one argument. */
export type ApiHandlers = { [M in ActGuyInvokeMember]: (arg: InvokeArg<M>) => Promise<InvokeResult<M>> };

export interface HandlerContext {
  appInfo: AppInfo;
  policy: PathPolicy;
  recent: RecentFilesStore;
  compress: CompressClient;
  dialogs: DialogPort;
  /** Called after the recent list changes (Electron rebuilds the Open Recent menu). */
  onRecentFilesChanged?: () => void;
  /** Called with each dirty-state report (Electron confirms on window close with it). */
  onDocumentState?: (report: DocumentStateReport) => void;
  /** How archive builds run (tests run them in-process); defaults to a thread of `buildWorkers`. */
  launchBuild?: BuildJobLauncher;
  /**
   * The build bundle's idle thread, kept between jobs (oneShotWorker.ts KeptWorkers): Export All takes it and leaves
   * it, as the Build's default launcher does (main.ts hands the same to its launcher and ends it at quit). Defaults to
   * threads of buildWorker.cjs beside the bundle, kept BUILD_WORKER_KEEP_MS.
   */
  buildWorkers?: KeptWorkers;
  /** Kept awake while Export All's threads work (main's keepAwake.ts); none when omitted. */
  keepAwake?: KeepAwake;
  /** How File > Import runs (tests run it in-process); defaults to one import worker per import beside the bundle. */
  runImport?: ImportRunner;
  /** How File > Open reads and decodes a motion; defaults to one worker per open beside the bundle (motionLoad.ts). */
  loadMotion?: MotionLoader;
  /** How SEV and project texts are parsed (tests run it in-process); defaults to the text-check worker beside the bundle. */
  checkText?: TextChecker;
  /**
   * The text-check worker's checkers (texts, and motions to be saved), which main stops at the quit; when omitted,
   * besideBundleCheckers() (null: checked in-process).
   */
  checkers?: WorkerCheckers | null;
  /**
   * Whether `appInfo.startupPath` is a file just looked at as a file the OS hands over (systemFiles.ts
   * handedOverProblem: the first launch's command line), given as lookedAtPath: it is granted as it is, not resolved
   * again, so a link put at its name since the look grants nothing where it leads (docs/security.md, round 33).
   */
  startupLookedAt?: boolean;
  /**
   * How a motion to be saved, and its tuning file, are checked; defaults to the text-check worker beside the bundle
   * (shared with the text checks when `checkText` is not given), else in-process (motionCheckJob.ts).
   */
  checkMotion?: MotionChecker;
  /** Projects the user chose outside the window (see ProjectHandlerContext.userChoseProject). */
  userChoseProject?: (canonicalPath: string) => boolean | 'found';
  /** How File > Export MSH commits its three files; a test seam (an injected file-system failure). */
  mshCommit?: CommitOptions;
  /** Copies of the window's unsaved work (Electron: also files under userData); an in-memory store when omitted. */
  backups?: BackupStore;
  /**
   * The folder of the file last chosen through a dialog, where open dialogs (and saves with no folder of their own)
   * start (Electron: kept under userData); an in-memory one when omitted. It only seeds the dialogs' defaultPath.
   */
  lastFolder?: LastFolderStore;
}

/**
 * Words of the page's that main shows in its own windows and records (a document name, the action of the discard
 * question): at most 200 characters (`…` says it was cut), hidden characters shown as `\uXXXX`, so a file named
 * `walk\u202Egpj.mtn` cannot reorder the sentence it stands in.
 */
function displayName(name: string): string {
  return escapeControls(name.length > 200 ? `${name.slice(0, 200)}…` : name);
}

const MOTION_FILTERS: FileFilter[] = [
  { name: 'Motions (.mtn, .mt3, .mar)', extensions: ['mtn', 'mt3', 'mar'] },
  { name: 'Editable motion (.mtn)', extensions: ['mtn'] },
  { name: 'Compressed motion (.mt3)', extensions: ['mt3'] },
  { name: 'Motion archive (.mar)', extensions: ['mar'] },
];

/** Whether anything (a file, a link, even a dangling one, a folder) is at `path`. */
function somethingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A time in a file name, local and without colons (Windows refuses them): `2026-12-05 15-12-00`. */
function keptStamp(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}-${two(d.getMinutes())}-${two(d.getSeconds())}`;
}

/**
 * The motion's name as the start of its kept copy's name (`walk` of `walk (edits kept …).mtn`), cut, never inside a
 * character, so that the copy's tuning file name, the longest of the pair, fits the 255 bytes a file name may take:
 * a motion named near that length had no copy, and its Reload from disk stopped (docs/security.md, round 42).
 */
function keptBaseName(base: string, stamp: string): string {
  const longest = Buffer.byteLength(`${tuningPathOf(` (edits kept ${stamp} 20).mtn`)}`);
  let cut = base;
  while (cut.length > 0 && Buffer.byteLength(cut) + longest > FILE_NAME_MAX_BYTES) cut = [...cut].slice(0, -1).join('');
  return cut;
}
export function createHandlers(ctx: HandlerContext): ApiHandlers {
  const { policy, recent, compress } = ctx;
  // Every dialog of every handler group starts in the last folder chosen and remembers the next pick.
  const dialogs = withLastFolder(ctx.dialogs, ctx.lastFolder ?? createLastFolderStore(null));
  /** Documents the renderer has open: their file, the name compress defaults to, the inputs a save must not overwrite. */
  const documents = new DocumentTable((id) => compress.close(id));
  const backups = ctx.backups ?? createBackupStore(null);
  // The text-check worker, when its bundle lies beside this one (the app, the loopback server): texts and motions
  // to be saved are parsed there, one worker for both, started at the first check.
  const checkers = ctx.checkers !== undefined ? ctx.checkers : besideBundleCheckers();
  const checkMotion = ctx.checkMotion ?? checkers?.motion ?? inProcessMotionChecker;
  /**
   * What the page loaded of each file it may save back: a motion's .mtn and tuning file here, a .sev and a project
   * file in the project handlers. A save compares the file on disk with it first (docs/security.md, round 39 and
   * "Saves of a motion compare too").
   */
  const loadedFiles = new LoadedFiles();

  // A recent project grants nothing until the user opens it from Open Recent (openRecentProject). A recent motion is
  // listed as its path resolved when the user chose it: one that now leads elsewhere through a link (put there since by
  // a sync or a colleague) would grant a file the user never chose, so it is not granted (docs/security.md, round 24);
  // nor one that another user owns, or whose folder another user owns (made at that path since, under /tmp); nor one
  // that is not there, which another user could make after this grant (round 26). Those are judged again when opened,
  // and so are those granted here: the grant is marked `listed`, and each open judges the file as it is then (round 30).
  for (const file of recent.list())
    if (file.kind !== 'project' && !recentPathProblem(file.path)) policy.allowFile(file.path, { listed: true });
  // The sample the app opens by itself is read, never written: the user did not choose it (docs/limits.md#what-the-page-may-touch).
  const sample = canonicalPath(ctx.appInfo.samplePath);
  policy.allowFile(sample, { readOnly: true });
  policy.allowFile(ctx.appInfo.startupPath, {
    readOnly: canonicalPath(ctx.appInfo.startupPath) === sample,
    ...(ctx.startupLookedAt ? { asJudged: true } : {}),
  });
  if (ctx.appInfo.workspaceRoot) policy.allowTree(ctx.appInfo.workspaceRoot);

  const remember = (path: string, name: string, kind: RecentFileKind): void => {
    recent.add({ path, name, kind });
    ctx.onRecentFilesChanged?.();
  };

  const requireDocument = (id: unknown): HandlerDocument => documents.require(id);

  /**
   * A motion's own .sev (`walk.mtn` -> `walk.sev` beside it) may be read and written once the motion is open: the SEV
   * editor pairs them without a project; the sound files in `sounds/` beside it may be read for audition. Beside a
   * motion that is only read (the start-up sample), the .sev is only read.
   */
  const allowSiblingSev = (motionPath: string): void => {
    if (extname(motionPath).toLowerCase() !== '.mtn') return;
    const folder = dirname(motionPath);
    const sev = join(folder, `${baseNameOf(motionPath)}.sev`);
    // A link that leads out of the motion's folder grants nothing (the page's read or save names where it leads).
    // Granted `beside`: read later by name, each such read is judged on its descriptor (besideFiles.ts, round 31).
    allowUnlessLinkedOut(policy, folder, sev, { as: 'file', readOnly: !policy.mayWrite(motionPath), beside: true });
    // Outside a project the audition sounds are `sounds/` beside the motion (the layout of assets/): sound files only.
    const sounds = join(folder, 'sounds');
    try {
      if (statSync(sounds).isDirectory())
        allowUnlessLinkedOut(policy, folder, sounds, { as: 'tree', extensions: SOUND_EXTENSIONS, beside: true });
    } catch {
      // no sounds folder: the editor shows which SEs have no sound
    }
  };

  /**
   * The tuning file beside an .mtn (docs/formats-tuning.md) may be read and written once the motion is open,
   * and is read with it: its text, or why not (too large, unreadable); null when there is none.
   */
  const readTuningBeside = (motionPath: string): TuningFileRead | null => {
    if (extname(motionPath).toLowerCase() !== '.mtn') return null;
    const path = tuningPathOf(motionPath);
    // What the page is shown is what the motion's Save compares with: none, or the bytes read. A tuning file the page
    // is not shown (a link out, too large, unreadable) is remembered as unread, by its lstat: a Save replaces it only
    // while that is unchanged (docs/security.md, "Saves of a motion compare too").
    const tuningRead = (bytes: Uint8Array | null): void => {
      loadedFiles.remember(path, bytes);
    };
    const notShown = (error: string): TuningFileRead => {
      loadedFiles.rememberUnread(path);
      return { path, error };
    };
    let leadsTo: string | null;
    try {
      leadsTo = linkOutOf(dirname(motionPath), path);
    } catch (e) {
      // A link that leads back to itself: its loop refused the whole open of the motion (docs/security.md, round 46).
      return notShown(`${(e as Error).message}; the motion opened with the default tolerances`);
    }
    if (leadsTo !== null)
      return notShown(
        `${path}: it is a symbolic link to ${quotePath(leadsTo)}, outside the folder of ${basename(motionPath)}, so ActGuy neither reads nor writes it; the motion opened with the default tolerances`,
      );
    // Beside a motion that is only read (the start-up sample), its tuning file is only read too.
    // Read at every open of the motion, by name: judged on its descriptor while only granted beside it (round 31).
    policy.allowFile(path, { readOnly: !policy.mayWrite(motionPath), beside: true });
    let judged: number | undefined;
    let bytes: Uint8Array | undefined;
    try {
      // Anything at the name: a link to nothing (or to itself) was taken for no file, and the motion opened with the
      // default tolerances without a word (round 46); it is judged as any other file there now.
      if (lstatSync(path, { throwIfNoEntry: false }) === undefined) {
        tuningRead(null);
        return null;
      }
      try {
        judged = openIfBeside(policy, path, canonicalPath(path));
      } catch (e) {
        return notShown(`${(e as Error).message}; the motion opened with the default tolerances`);
      }
      const size = judged === undefined ? statSync(path).size : fstatSync(judged).size;
      if (size > TUNING_MAX_BYTES)
        return notShown(
          `${path}: ${size} bytes is too large for a tuning file (at most ${TUNING_MAX_BYTES}); the motion opened with the default tolerances`,
        );
      // The limit holds for the file opened, not only the one stat saw: a file swapped in between was read whole.
      const limit = { bytes: TUNING_MAX_BYTES, of: 'a tuning file' };
      bytes = judged === undefined ? readBytes(path, limit) : readBytesOf(judged, path, limit);
      // Read, even when its text does not decode: the page is told what is wrong with these bytes.
      tuningRead(bytes);
      const text = decodeUtf8Text(bytes, 'TUNING', path);
      return { path, text };
    } catch (e) {
      if (bytes === undefined) loadedFiles.rememberUnread(path);
      return { path, error: e instanceof FormatError ? e.message : `Could not read ${path}: ${systemReason(e)}` };
    } finally {
      if (judged !== undefined) closeSync(judged);
    }
  };

  const loadMotion = ctx.loadMotion ?? defaultMotionLoader();
  /** Opens in progress, so cancelOpenMotion can stop them. */
  const opensInFlight = new Set<AbortController>();

  const openMotion = async (raw: OpenMotionRequest): Promise<OpenMotionOutcome> => {
    const req = requireObject<OpenMotionRequest>(raw, 'openMotion');
    const given = requirePath(req.path, 'openMotion: path');
    // A listed motion not granted at start-up (not there then, a link, another user's) is judged as it is now, when
    // the user opens it from the list: granted as the start-up would, or refused naming why (docs/security.md, round 26).
    // The file judged is the file read: opened once, judged on its descriptor, and the load reads that descriptor,
    // so a file swapped in at the path after the look is not what opens (round 29). A listed motion granted only
    // because it is listed (at start-up, or by an open like this one) is judged at every open, its .mar entry's and
    // skeleton's re-opens too: the file may have been replaced since (round 30). A pick of it stays a pick.
    let judged: number | undefined;
    if (
      (!policy.isAllowed(given) || policy.grantedAsListed(given)) &&
      recent.list().some((e) => e.kind !== 'project' && e.path === given)
    ) {
      judged = openRecentFileOrRefuse(given, 'File › Open');
      policy.allowFile(given, { asJudged: true, listed: true });
    }
    try {
      const recovered = await finishInterruptedSave(given, judged !== undefined);
      // The file judged was the one the save replaced since: judged again, as it is now.
      if (recovered !== undefined && judged !== undefined) {
        closeSync(judged);
        judged = undefined;
        judged = openRecentFileOrRefuse(given, 'File › Open');
      }
      return await openMotionAt(given, req, judged, recovered);
    } finally {
      if (judged !== undefined) closeSync(judged);
    }
  };

  /**
   * Before an .mtn is read: a Save of it with its tuning file that was killed mid-commit left a journal (or a lock)
   * beside it; the open finishes it first (rolled forward past the commit point, else the old pair kept and the temps
   * swept), so the page never shows a new .mtn with its old tuning file. Resolves what was done, for the page to say;
   * undefined when nothing lay there. A journal that is not of exactly this pair, or one beside a motion ActGuy only
   * reads, refuses the open naming it (docs/security.md, "Saves of a motion compare too").
   */
  const finishInterruptedSave = async (given: string, judged: boolean): Promise<string | undefined> => {
    // A path the policy refuses is refused by the open as always, before anything beside it is looked at.
    const path = judged ? given : policy.check(given, 'read');
    // Also where the .mtn is not there: a first Save of it killed past its commit point left only the journal and the
    // temps, and a build refuses the motion until an open (or the next Save) finishes it (build.ts interruptedSaves;
    // docs/security.md, round 41, continued). A name that cannot be one, too long, is refused by the read as before.
    const journal = `${path}${COMMIT_JOURNAL_SUFFIX}`;
    if (extname(path).toLowerCase() !== '.mtn' || !(existsSync(path) || existsSync(journal)) || !commitLeftovers(path))
      return undefined;
    const pair = [path, tuningPathOf(path)];
    if (!policy.mayWrite(path))
      throw new Error(
        `Could not open ${quotePath(path)}: an interrupted save left ${quotePath(journal)} (or its lock) beside it, and ActGuy only reads this motion, so it neither completes nor removes it; open a copy of the motion from another folder`,
      );
    // In turn with a Save of the same pair in this window (its lock is this process's while it writes).
    const note = await inTurn(pair, async () => {
      try {
        return recoverOutputs(pair) ?? '';
      } catch (e) {
        throw new Error(`Could not open ${quotePath(path)}: ${(e as Error).message}`);
      }
    });
    return `${basename(path)}: ${note ? note.replace(/interrupted build/g, 'interrupted save') : 'the temporary files of an interrupted save were removed'}.`;
  };

  /** openMotion past the judgement of a listed motion: `fd`, when given, is the judged file, read instead of `given`. */
  const openMotionAt = async (
    given: string,
    req: OpenMotionRequest,
    fd?: number,
    recovered?: string,
  ): Promise<OpenMotionOutcome> => {
    // A judged motion keeps the path judged (canonical then): a link swapped in since names no other file here.
    const path = fd === undefined ? policy.check(given, 'read') : given;
    if (!motionKindOfPath(path)) throw new Error(`${path}: not a motion file (expected .mtn, .mt3 or .mar)`);
    const skeletonPath =
      req.skeletonPath === undefined
        ? undefined
        : policy.check(requirePath(req.skeletonPath, 'openMotion: skeletonPath'), 'read');
    if (req.marEntry !== undefined && !Number.isInteger(req.marEntry))
      throw new Error('openMotion: marEntry must be an integer');
    // The skeleton beside an .mt3 is read only when it is allowed too (else the user is asked to choose it).
    // The load runs in a worker of its own (motionLoad.ts); cancelOpenMotion ends it wherever it is, even inside
    // the decode of a large archive: it then answers `cancelled` and opens nothing.
    const beside = skeletonBesidePath(path);
    const abort = new AbortController();
    opensInFlight.add(abort);
    let loaded: LoadOutcome;
    try {
      loaded = await loadMotion(
        {
          path,
          ...(fd === undefined ? {} : { fd }),
          marEntry: req.marEntry,
          skeletonPath,
          withoutSkeleton: req.withoutSkeleton === true,
          readableBeside: policy.isAllowed(beside) ? beside : null,
        },
        abort.signal,
      );
    } catch (e) {
      if (abort.signal.aborted) return { status: 'cancelled' };
      throw e;
    } finally {
      opensInFlight.delete(abort);
    }
    if (abort.signal.aborted) return { status: 'cancelled' };
    if (loaded.status !== 'loaded') return loaded;
    const m = loaded.motion;
    // An .mtn is shown as its bytes as read (in the worker): its Save compares the file on disk with them.
    if (m.kind === 'mtn') loadedFiles.remember(m.path, m.mtnBytes);
    const documentId = compress.open({ name: m.name, mtnBytes: m.mtnBytes });
    const inputs = m.kind === 'mtn' ? [] : [m.path, ...(m.skeletonPath ? [m.skeletonPath] : [])];
    documents.set(documentId, { path: m.path, name: m.name, inputs });
    // Recent files are granted in full at the next start: a file only read (the sample) does not become one by opening.
    if (policy.mayWrite(m.path)) remember(m.path, m.name, m.kind);
    allowSiblingSev(m.path);
    return {
      status: 'opened',
      motion: { documentId, ...m, tuning: readTuningBeside(m.path), ...(recovered ? { recovered } : {}) },
    };
  };

  const saveMotion = async (raw: InvokeArg<'saveMotion'>): Promise<SaveOutcome> => {
    const req = requireObject<InvokeArg<'saveMotion'>>(raw, 'saveMotion');
    const doc = requireDocument(req.documentId);
    const given = requirePath(req.path, 'saveMotion: path');
    if (extname(given).toLowerCase() !== '.mtn')
      throw new Error(
        `Could not save ${quotePath(given)}: only .mtn files are saved (export .mt3 with Export; .mt3 and .mar are read-only)`,
      );
    const mtnBytes = requireBytes(req.mtnBytes, 'saveMotion: mtnBytes');
    const path = policy.check(given, 'write');
    refuseOverwritingInput('save', path, doc.inputs ?? []);
    let tuning: { path: string; text: string } | undefined;
    if (req.tuningText !== undefined) {
      // The tuning file goes with the motion (both or neither), and only a valid one is written.
      if (typeof req.tuningText !== 'string') throw new Error('saveMotion: tuningText must be a string');
      tuning = { path: tuningPathOf(path), text: req.tuningText };
    }
    // Save over the motion's own file (not a Save As elsewhere) writes nothing over a .mtn or tuning file that changed
    // on disk since the page loaded it: checked now, and again inside the write, right before it installs them.
    const overwriteChanged = req.overwriteChanged === true;
    // By the names given, their folders resolved (a link put at the motion's name since is found as a link).
    // The tuning file's first comparison follows the policy's judgement of its name, below (a link put there is
    // refused as the policy words it, round 32).
    const ownFile = sameLoadedName(doc.path, given);
    const stillAsLoaded = ownFile ? [loadedFiles.check(given, overwriteChanged)] : [];
    const beforeInstall = (): void => stillAsLoaded.forEach((still) => still());
    // The folder as checked: the motion is checked in a worker first, and the write goes nowhere else (fsutil FolderPin).
    const folder = pinFolder(dirname(path));
    // Read (and the tuning parsed against its joints) off the main thread: a 30 MB motion takes about 0.1 s.
    let checked: MotionCheckResult;
    try {
      checked = await checkMotion({ kind: 'motion', mtnBytes, ...(tuning ? { tuning } : {}) });
    } catch (e) {
      throw new Error(`Could not save ${path}: ${(e as Error).message}; nothing was written`);
    }
    if (checked.problem === 'motion')
      throw new Error(
        `Could not save ${path}: the motion is not a valid MTN file (${checked.message}); nothing was written`,
      );
    if (tuning) {
      const leadsTo = linkOutOf(dirname(path), tuning.path);
      if (leadsTo !== null)
        throw new Error(
          `Could not save ${path}: its tuning file ${tuning.path} is a symbolic link to ${quotePath(leadsTo)}, outside the motion's folder; remove the link (or save a copy with Save As); nothing was written`,
        );
    }
    if (checked.problem === 'tuning')
      throw new Error(`Could not save ${path}: its tuning is not valid (${checked.message}); nothing was written`);
    const files = [{ path, bytes: mtnBytes }];
    if (tuning) {
      policy.allowFile(tuning.path, { beside: true });
      files.push({ path: policy.check(tuning.path, 'write'), bytes: new TextEncoder().encode(tuning.text) });
      if (ownFile) stillAsLoaded.push(loadedFiles.check(tuningPathOf(given), overwriteChanged));
    }
    try {
      // Off the main thread (a motion may be 30 MB): written and flushed in Node's thread pool, renamed here.
      if (files.length === 1)
        await writeFileAtomicAsync(path, mtnBytes, { ...(folder ? { folder } : {}), beforeRename: beforeInstall });
      else
        await commitOutputsAsync(files, {
          ...(folder ? { folders: [folder] } : {}),
          beforeCommitPoint: beforeInstall,
          // Remembered while the commit's lock is held: a second Save of the same pair compares with this one's files.
          installed: () => {
            loadedFiles.remember(path, mtnBytes);
            if (tuning) loadedFiles.remember(tuning.path, files[1].bytes);
          },
        });
    } catch (e) {
      if (e instanceof ChangedOnDiskError) throw e;
      throw new Error(
        `Could not save ${path}: ${systemReason(e)}; the file on disk is unchanged and your edits are kept. ${SAVE_MOTION_NEXT}`,
      );
    }
    // The pair's commit remembered both under its lock (installed); a lone .mtn is remembered here, hashed once.
    if (files.length === 1) loadedFiles.remember(path, mtnBytes);
    const name = baseNameOf(path);
    // A document the page closed while its motion was checked stays closed (the file is written all the same).
    if (documents.get(req.documentId)) {
      documents.set(req.documentId, { path, name, inputs: doc.inputs });
      compress.open({ documentId: req.documentId, name, mtnBytes });
    }
    policy.allowFile(path);
    allowSiblingSev(path);
    remember(path, name, 'mtn');
    // On disk now: its copy is no longer needed (the page would say so too, after its debounce).
    backups.removeSaved('motion', req.documentId);
    return { status: 'saved', file: { path, name, byteLength: mtnBytes.byteLength } };
  };

  /**
   * A motion's Reload from disk opens the file again, which its undo history cannot hold: the edits it drops are first
   * written here, as a new file beside the motion's own (`walk (edits kept 2026-12-05 15-12-00).mtn`, with its tuning
   * file when the page keeps one), never over anything, and listed under File › Open Recent. Only beside an .mtn this
   * window may write (the file whose Save was refused), and only a motion that reads.
   */
  const keepMotionCopy = async (raw: InvokeArg<'keepMotionCopy'>): Promise<KeptMotionCopy> => {
    const req = requireObject<InvokeArg<'keepMotionCopy'>>(raw, 'keepMotionCopy');
    const doc = requireDocument(req.documentId);
    const mtnBytes = requireBytes(req.mtnBytes, 'keepMotionCopy: mtnBytes');
    if (req.tuningText !== undefined && typeof req.tuningText !== 'string')
      throw new Error('keepMotionCopy: tuningText must be a string');
    if (extname(doc.path).toLowerCase() !== '.mtn' || !policy.mayWrite(doc.path))
      throw new Error(
        `Could not keep a copy of ${doc.name}: a copy is kept only beside an .mtn this window saves; keep your edits with Save As`,
      );
    const folder = canonicalPath(dirname(doc.path));
    // Pinned before the check's wait, and the copy made through it after: by name, a folder swapped for a link
    // meanwhile had the edits written where the link led (docs/security.md, round 42).
    const pin = pinFolder(folder);
    const tuningText = req.tuningText;
    const checked = await checkMotion({
      kind: 'motion',
      mtnBytes,
      ...(tuningText !== undefined ? { tuning: { path: tuningPathOf(doc.path), text: tuningText } } : {}),
    });
    if (checked.problem !== null)
      throw new Error(`Could not keep a copy of ${doc.name}: ${checked.message}; nothing was written`);
    let pinned: PinnedFolders;
    try {
      pinned = openPinnedFolders(pin ? [pin] : [], doc.path);
    } catch (e) {
      throw new Error(`Could not keep a copy of ${doc.name}: ${(e as Error).message}`);
    }
    try {
      return await keepCopyIn(pinned);
    } finally {
      pinned.close();
    }

    async function keepCopyIn(pinned: PinnedFolders): Promise<KeptMotionCopy> {
      const stamp = keptStamp(new Date());
      for (let n = 1; n <= 20; n++) {
        const path = join(
          folder,
          `${keptBaseName(baseNameOf(doc.path), stamp)} (edits kept ${stamp}${n > 1 ? ` ${n}` : ''}).mtn`,
        );
        const tuningPath = tuningText === undefined ? null : tuningPathOf(path);
        // Both names free (not even a link there, which is never written through), else the next number is tried.
        if (somethingAt(pinned.at(path)) || (tuningPath !== null && somethingAt(pinned.at(tuningPath)))) continue;
        policy.allowFile(path);
        try {
          await writeNewFileAsync(path, mtnBytes, pinned);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw new Error(`Could not keep a copy of ${doc.name} in ${path}: ${systemReason(e)}; nothing was written`);
        }
        if (tuningPath !== null)
          try {
            policy.allowFile(tuningPath, { beside: true });
            await writeNewFileAsync(tuningPath, new TextEncoder().encode(tuningText), pinned);
          } catch (e) {
            // The copy is the pair or nothing: its .mtn, this call's own new file, goes again (where it was made).
            rmSync(pinned.at(path), { force: true });
            throw new Error(
              `Could not keep a copy of ${doc.name} in ${path}: its tuning file: ${systemReason(e)}; nothing was kept`,
            );
          }
        remember(path, baseNameOf(path), 'mtn');
        return { path, tuningPath };
      }
      throw new Error(
        `Could not keep a copy of ${doc.name}: 20 names beside it are taken; keep your edits with Save As`,
      );
    }
  };

  const exportMt3 = async (raw: InvokeArg<'exportMt3'>): Promise<ExportMt3Outcome> => {
    const req = requireObject<InvokeArg<'exportMt3'>>(raw, 'exportMt3');
    const compressReq = requireCompressRequest(req.compress, 'exportMt3: compress');
    const doc = requireDocument(compressReq.documentId);
    const given = requirePath(req.path, 'exportMt3: path');
    if (extname(given).toLowerCase() !== '.mt3')
      throw new Error(`Could not export ${quotePath(given)}: the file name must end in .mt3`);
    const path = policy.check(given, 'write');
    refuseOverwritingInput('export', path, [...(doc.inputs ?? []), doc.path]);
    // The folder as checked: the compression takes seconds, and the write goes nowhere else (docs/security.md, round 17).
    const folder = pinFolder(dirname(path));
    const outcome = await compress.compress({ ...compressReq, includeBytes: true }, { coalesce: false });
    if (outcome.status !== 'done' || !outcome.bytes)
      throw new Error(`Could not export ${path}: the compressor returned no file`);
    await writeExportedFile(path, outcome.bytes, folder);
    policy.allowFile(path);
    return {
      status: 'exported',
      file: {
        path,
        name: baseNameOf(path),
        byteLength: outcome.bytes.byteLength,
        totalKeys: outcome.totalKeys,
        ratio: outcome.ratio,
      },
    };
  };

  /** The path to start a save dialog at: the document's folder with the suggested name. */
  const defaultSavePath = (documentId: DocumentId, defaultName: unknown, extension: string): string => {
    const doc = requireDocument(documentId);
    return join(dirname(doc.path), offeredFileName(defaultName, `${baseNameOf(doc.path)}.${extension}`));
  };

  /** Grants the file a save dialog's answer names once its extension is added (pathPolicy.ts allowDialogAnswer). */
  const allowCompleted = (chosen: string, path: string): void => allowDialogAnswer(policy, chosen, path);

  // One idle thread of the build bundle for the Build and Export All, not one for each.
  const buildWorkers = ctx.buildWorkers ?? keptWorkers(defaultBuildWorkerPath(), BUILD_WORKER_KEEP_MS);
  const { buildCacheDir, ...projectHandlers } = createProjectHandlers({
    policy,
    loadedFiles,
    dialogs,
    launchBuild: ctx.launchBuild ?? workerLauncher(buildWorkers),
    checkText: ctx.checkText ?? checkers?.text,
    userChoseProject: ctx.userChoseProject,
    isRecentProject: (path) => recent.list().some((e) => e.kind === 'project' && e.path === path),
    // A project file not named *.actguy.json opens, but is not listed: the list would drop it at the next start.
    onProjectPicked: (path) => {
      if (recentKindOfPath(path) === 'project')
        remember(path, basename(path).replace(/\.actguy\.json$/i, ''), 'project');
    },
  });

  return {
    // Projects, SEV files, SE tables, archive builds, audition sounds (electron/project).
    ...projectHandlers,
    // A saved SEV or project drops its copy (keyed by the path the save was asked for, as the copy names it).
    saveSev: async (raw) => {
      const saved = await projectHandlers.saveSev(raw);
      backups.removeSaved('sev', (raw as { path: string }).path);
      return saved;
    },
    saveProject: async (raw) => {
      const saved = await projectHandlers.saveProject(raw);
      backups.removeSaved('project', (raw as { path: string }).path);
      return saved;
    },
    // File > Import (BVH, glTF/GLB) as a new unsaved document, File > Export glTF (electron/interchange).
    ...createInterchangeHandlers({
      policy,
      dialogs,
      compress,
      documents,
      runImport: ctx.runImport,
    }),
    // File > Export MSH: the motion as .res8 + .res19 + .nodes.json, in a worker, the three as one unit.
    ...createMshExportHandlers({ policy, dialogs, compress, documents, commit: ctx.mshCommit }),
    // Project › Export All as MSH… / glTF…: every motion and alias into one folder, as one unit.
    ...createProjectExportHandlers({
      policy,
      dialogs,
      commit: ctx.mshCommit,
      cacheDirOf: buildCacheDir,
      workers: buildWorkers,
      keepAwake: ctx.keepAwake,
    }),

    getAppInfo: async () => ({ ...ctx.appInfo }),

    openMotion,

    openMotionDialog: async () => {
      const path = await dialogs.chooseFileToOpen({ title: 'Open motion', filters: MOTION_FILTERS });
      if (!path) return { status: 'cancelled' };
      policy.allowFile(path);
      return openMotion({ path });
    },

    chooseSkeletonDialog: async () => {
      const path = await dialogs.chooseFileToOpen({
        title: 'Choose the skeleton (.mtn) this motion was made from',
        filters: [{ name: 'Skeleton motion (.mtn)', extensions: ['mtn'] }],
      });
      if (!path) return { status: 'cancelled' };
      policy.allowFile(path);
      return { status: 'chosen', path };
    },

    closeDocument: async (raw) => {
      const req = requireObject<{ documentId: DocumentId }>(raw, 'closeDocument');
      if (documents.delete(req.documentId)) compress.close(req.documentId);
    },

    saveMotion,

    keepMotionCopy,

    saveMotionAsDialog: async (raw) => {
      const req = requireObject<InvokeArg<'saveMotionAsDialog'>>(raw, 'saveMotionAsDialog');
      const defaultPath = defaultSavePath(req.documentId, req.defaultName, 'mtn');
      const chosen = await dialogs.chooseFileToSave({
        title: 'Save motion as',
        filters: [{ name: 'Motion (.mtn)', extensions: ['mtn'] }],
        defaultPath,
      });
      if (!chosen) return { status: 'cancelled' };
      const path = withExtension(chosen, 'mtn');
      allowCompleted(chosen, path);
      return saveMotion({
        documentId: req.documentId,
        path,
        mtnBytes: req.mtnBytes,
        ...(req.tuningText !== undefined ? { tuningText: req.tuningText } : {}),
      });
    },

    compressMotion: async (raw) => {
      const req = requireCompressRequest(raw, 'compressMotion');
      requireDocument(req.documentId);
      return compress.compress(req);
    },

    exportMt3,

    exportMt3Dialog: async (raw) => {
      const req = requireObject<InvokeArg<'exportMt3Dialog'>>(raw, 'exportMt3Dialog');
      const compressReq = requireCompressRequest(req.compress, 'exportMt3Dialog: compress');
      const defaultPath = defaultSavePath(compressReq.documentId, req.defaultName, 'mt3');
      const chosen = await dialogs.chooseFileToSave({
        title: 'Export compressed motion',
        filters: [{ name: 'Compressed motion (.mt3)', extensions: ['mt3'] }],
        defaultPath,
      });
      if (!chosen) return { status: 'cancelled' };
      const path = withExtension(chosen, 'mt3');
      allowCompleted(chosen, path);
      return exportMt3({ compress: compressReq, path });
    },

    cancelOpenMotion: async () => {
      const cancelled = opensInFlight.size;
      for (const a of opensInFlight) a.abort();
      opensInFlight.clear();
      return { cancelled };
    },

    getRecentFiles: async () => recent.list(),

    clearRecentFiles: async () => {
      recent.clear();
      ctx.onRecentFilesChanged?.();
    },

    listWorkspace: async (raw) => {
      const req =
        raw === undefined || raw === null ? {} : requireObject<InvokeArg<'listWorkspace'>>(raw, 'listWorkspace');
      const root = ctx.appInfo.workspaceRoot;
      if (!root) return { root: null, files: [] };
      // Checked and bounded: each file is compared with every extension (a million held the main process 27 s).
      const wanted = req.extensions === undefined || req.extensions === null ? null : fileExtensions(req.extensions);
      return { root, ...listFiles(canonicalPath(root), wanted) };
    },

    makeWorkspaceFolder: async (raw) => {
      const req = requireObject<InvokeArg<'makeWorkspaceFolder'>>(raw, 'makeWorkspaceFolder');
      const root = ctx.appInfo.workspaceRoot;
      if (!root)
        throw new Error('New folder: there is no workspace folder (the desktop app saves through its own dialog).');
      return makeFolder(canonicalPath(root), req.parent, req.name);
    },

    confirmDiscardChanges: async (raw) => {
      const req = requireObject<InvokeArg<'confirmDiscardChanges'>>(raw, 'confirmDiscardChanges');
      if (typeof req.documentName !== 'string' || typeof req.action !== 'string')
        throw new Error('confirmDiscardChanges: documentName and action must be strings');
      // The page's words in a native dialog: a name, not megabytes, and no hidden characters.
      return dialogs.confirm({
        title: 'Unsaved changes',
        message: `${displayName(req.documentName)} has unsaved changes.`,
        detail: `Discard them and ${displayName(req.action)}?`,
        confirmLabel: 'Discard changes',
        cancelLabel: 'Cancel',
      });
    },

    backupUnsaved: async (raw) => {
      const req = requireObject<InvokeArg<'backupUnsaved'>>(raw, 'backupUnsaved');
      if (req.part !== 'motion' && req.part !== 'sev' && req.part !== 'project')
        throw new Error('backupUnsaved: part must be "motion", "sev" or "project"');
      if (req.backup === null) {
        backups.remove(req.part);
        return;
      }
      if (typeof req.backup !== 'object' || req.backup?.part !== req.part)
        throw new Error('backupUnsaved: backup must be a copy of the part named, or null');
      // Its MTN bytes are read in the worker, and its file written off the main thread (unsavedBackups.ts).
      await backups.put(req.backup, {
        documentPath: (id) => documents.get(id)?.path,
        documentInputs: (id) => documents.get(id)?.inputs,
        isAllowed: (p) => policy.isAllowed(p),
        checkMtn: async (mtnBytes) => {
          const checked = await checkMotion({ kind: 'motion', mtnBytes });
          return checked.problem === null ? null : checked.message;
        },
        // What its Save compares with, so the restored copy's Save compares with the same (restoreBackups).
        documentLoaded: (id) => {
          const path = documents.get(id)?.path;
          if (path === undefined || extname(path).toLowerCase() !== '.mtn') return null;
          return { mtn: loadedFiles.stateOf(path) ?? null, tuning: loadedFiles.stateOf(tuningPathOf(path)) ?? null };
        },
      });
    },

    restoreBackups: async () => {
      const held = backups.held();
      const restored: UnsavedBackup[] = [];
      for (const b of held.backups) {
        if (b.part !== 'motion') {
          restored.push(b);
          continue;
        }
        // The files the first document was read from (its .mt3 and skeleton, an imported .glb): still never replaced.
        const inputs = backups.inputsOf('motion');
        // What its edits were made over: the restored copy's Save over its .mtn compares with that, as the first
        // window's would have (a file changed on disk between the crash and now is asked about, not replaced).
        const loaded = backups.loadedOf('motion');
        if (b.path !== null && loaded) {
          if (loaded.mtn) loadedFiles.rememberState(b.path, loaded.mtn);
          if (loaded.tuning) loadedFiles.rememberState(tuningPathOf(b.path), loaded.tuning);
        }
        // A new document for the copy (like an import): Save writes it through saveMotion, checked as any save.
        const documentId = compress.open({ name: b.name, mtnBytes: b.mtnBytes });
        const folder = ctx.appInfo.workspaceRoot ?? dirname(ctx.appInfo.samplePath);
        documents.set(documentId, {
          path: b.path ?? join(folder, `${b.name.replace(/[:/\\]/g, '_')}.mtn`),
          name: b.name,
          inputs,
        });
        const copy = { ...b, documentId };
        await backups.put(copy, null, inputs, loaded);
        restored.push(copy);
      }
      // A SEV or project copy this window may not write now (after a restart) keeps its text where a clean close leaves it.
      const kept = backups.keepUnwritable((path) => policy.mayWrite(path));
      return { backups: restored, setAside: [...held.setAside, ...kept] };
    },

    reportDocumentState: async (raw) => {
      const req = requireObject<DocumentStateReport>(raw, 'reportDocumentState');
      ctx.onDocumentState?.({
        documentId: typeof req.documentId === 'string' ? req.documentId : null,
        // Display names only (the window's title, the close question, a crash record): strings, a handful, each
        // bounded and with its hidden characters shown (a file named `walk\u202Egpj.mtn` would otherwise reorder
        // the close question's sentence, as the menu's recent files are escaped for).
        documentName: typeof req.documentName === 'string' ? displayName(req.documentName) : null,
        dirty: req.dirty === true,
        ...(Array.isArray(req.unsaved)
          ? {
              unsaved: req.unsaved
                .filter((n): n is string => typeof n === 'string')
                .slice(0, 8)
                .map(displayName),
            }
          : {}),
        // The Events menu's commands only (the renderer greys out those it cannot run now), each once.
        ...(Array.isArray(req.disabledCommands)
          ? {
              disabledCommands: [
                ...new Set(
                  req.disabledCommands.filter(
                    (c): c is EventsMenuCommand => typeof c === 'string' && isEventsMenuCommand(c),
                  ),
                ),
              ],
            }
          : {}),
        // The close question's Save ended with the window open (renderer/app/unsaved.ts saveAllAndClose).
        ...(req.keptOpen === true && { keptOpen: true }),
      });
    },
  };
}
