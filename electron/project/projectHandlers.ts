/**
 * The main-process side of projects: project files, SEV files, SE tables,
 * archive builds and audition sounds. The same functions serve Electron IPC
 * and the loopback transport (electron/handlers.ts spreads them into the API).
 *
 * The renderer is untrusted. Every path goes through the PathPolicy. A
 * project widens it only when the user picked the project in a dialog: the
 * main process then reads the file from disk itself and allows the files it
 * names (its motions, SEVs and SE tables, and its `sounds/` folder). Project
 * text the renderer sends (saveProject, startBuild) never allows anything: a
 * build reads only allowed files and writes its outputs only inside the
 * project's folder (of a project picked in a dialog) or the workspace.
 * The texts the renderer sends are parsed in a worker (textCheck.ts).
 */
import { closeSync, existsSync, lstatSync, opendirSync, statSync } from 'node:fs';
import { dirname, extname, join, sep } from 'node:path';
import { FormatError } from '../../shared/errors';
import type {
  ApiHandlersOf,
  BuildProblem,
  OpenProjectOutcome,
  ProjectFilePurpose,
  SavedFile,
  SoundFolderListing,
} from './types';
import { decodeUtf8Text, TEXT_MAX_BYTES } from '../../shared/sev/text';
import type { DialogPort, FileFilter } from '../dialogPort';
import {
  baseNameOf,
  pinFolder,
  pinFoldersOf,
  readBytes,
  readBytesOf,
  TEXT_LIMIT,
  writeFileAtomicAsync,
} from '../fsutil';
import { danglingLinkReason, saveAgainNext, systemReason } from '../fsErrors';
import { requireObject, requirePath, requireString } from '../ipcArgs';
import { inputOverwrittenBy } from '../pathIdentity';
import { allowUnlessLinkedOut, canonicalPath, isInside, quotePath, type PathPolicy } from '../pathPolicy';
import { journalRefusedBeforeBuild, outputsRefusedBeforeBuild } from '../build/commit';
import { lockRefusedBeforeBuild } from '../build/commitLock';
import { judgeFile } from '../build/files';
import { openRecentFileOrRefuse } from '../recentFiles';
import { openIfBeside } from '../besideFiles';
import { createBuildRunner, workerLauncher, type BuildJobLauncher, type BuildRunner } from './buildRunner';
import { workerTextChecker, type TextChecker } from './textCheck';
import { ChangedOnDiskError, isLoadedVersion, LoadedFiles } from '../loadedFiles';

/** Sound file types Web Audio decodes in Chromium. */
export const SOUND_EXTENSIONS = ['wav', 'ogg', 'mp3', 'flac'] as const;
/** Largest sound file served for audition. */
const SOUND_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The most entries an audition folder may hold (docs/limits.md): it is listed when a motion beside it opens, each
 * sound checked against the policy and stat'ed on the main process, and a received folder of 200,000 empty `.wav`
 * files held it 6 s and sent the page an 81 MB listing. A folder holds a sound per SE name.
 */
export const SOUND_FOLDER_MAX_ENTRIES = 16384;

/** The names in `folder`, sorted; more than SOUND_FOLDER_MAX_ENTRIES is refused without reading the rest. */
function soundFolderNames(folder: string): string[] {
  let dir;
  try {
    dir = opendirSync(folder);
  } catch (e) {
    throw new Error(`Could not list ${folder}: ${systemReason(e)}`);
  }
  const names: string[] = [];
  let tooMany = false;
  try {
    for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
      if (names.length === SOUND_FOLDER_MAX_ENTRIES) {
        tooMany = true;
        break;
      }
      names.push(entry.name);
    }
  } catch (e) {
    throw new Error(`Could not list ${folder}: ${systemReason(e)}`);
  } finally {
    dir.closeSync();
  }
  if (tooMany)
    throw new Error(
      `Could not list ${folder}: it holds more than ${SOUND_FOLDER_MAX_ENTRIES} files and folders, more than an audition folder (a sound per SE name) is read for`,
    );
  return names.sort();
}

/** Text files a project holds that the renderer may read. */
const TEXT_EXTENSIONS = ['.sev', '.sls', '.h', '.json'];

const PROJECT_FILTERS: FileFilter[] = [{ name: 'ActGuy project (.actguy.json)', extensions: ['json'] }];
const PURPOSE_FILTERS: Record<ProjectFilePurpose, { title: string; filters: FileFilter[] }> = {
  mtn: { title: 'Add a motion to the project', filters: [{ name: 'Motion (.mtn)', extensions: ['mtn'] }] },
  sev: { title: 'Attach a sound-event file', filters: [{ name: 'Sound events (.sev)', extensions: ['sev'] }] },
  sound: {
    title: 'Choose any sound in the audition folder',
    filters: [{ name: 'Sounds', extensions: [...SOUND_EXTENSIONS] }],
  },
};

export interface ProjectHandlerContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  /** How builds run; defaults to buildWorker.cjs beside the running bundle. */
  launchBuild?: BuildJobLauncher;
  /** How SEV and project texts are parsed; defaults to textCheckWorker.cjs beside the running bundle. */
  checkText?: TextChecker;
  /**
   * Whether the user chose this project (canonical path) outside the window: a double-click, "Open With"
   * or the command line (electron/main.ts). Opened by path, such a project is granted like one picked in
   * the dialog; any other project opened by path is only read. `'found'`: the user chose a .sev and this is
   * the project found beside it that lists it (not chosen itself): it grants only what it names inside its folder.
   */
  userChoseProject?: (canonicalPath: string) => boolean | 'found';
  /**
   * Whether `path` is, exactly, a project in main's own recent list (electron/recentFiles.ts): only such a path may
   * be opened with openRecentProject. Without it, openRecentProject refuses every path.
   */
  isRecentProject?: (path: string) => boolean;
  /** Told the project (canonical path) the user just opened as chosen: in the dialog, from Open Recent, or outside the window. */
  onProjectPicked?: (path: string) => void;
  /** What the page loaded of each .sev and project file, checked before each save (a fresh record when omitted). */
  loadedFiles?: LoadedFiles;
}

type ProjectHandlers = ApiHandlersOf<
  | 'openProject'
  | 'openProjectDialog'
  | 'openRecentProject'
  | 'saveProject'
  | 'chooseProjectFileDialog'
  | 'readProjectText'
  | 'saveSev'
  | 'startBuild'
  | 'getBuildStatus'
  | 'cancelBuild'
  | 'listSounds'
  | 'readSound'
>;

/** The default worker: dist/electron/buildWorker.cjs (unpacked beside app.asar in a packaged app). */
export function defaultBuildWorkerPath(): string {
  return join(__dirname, 'buildWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/**
 * The project handlers, and `buildCacheDir`: the build cache the app uses for a project (canonical path), that of its
 * Build, which Export All of the compressed motions uses too (interchange/projectExportHandlers.ts).
 */
export function createProjectHandlers(
  ctx: ProjectHandlerContext,
): ProjectHandlers & { buildCacheDir: (projectPath: string) => string | null } {
  const { policy, dialogs } = ctx;
  const runner: BuildRunner = createBuildRunner(ctx.launchBuild ?? workerLauncher(defaultBuildWorkerPath()));
  const checkText: TextChecker = ctx.checkText ?? workerTextChecker();
  // A save never silently replaces a file that changed on disk since the page loaded it (docs/security.md).
  const loaded = ctx.loadedFiles ?? new LoadedFiles();
  /**
   * Folders (canonical) of the projects the user picked in a dialog: a
   * motion's first .sev may be created there, and their builds write there.
   */
  const pickedProjectFolders = new Map<string, string>();

  /**
   * Allows what a project the user just picked in a dialog names: `text` is
   * what this process read from disk, never what the renderer sent. Outputs
   * are not allowed here: startBuild places them (project folder or workspace).
   */
  const grantPickedProject = async (path: string, text: string, found = false): Promise<void> => {
    const { named } = await checkText({ kind: 'project', path, text });
    const folder = dirname(path);
    // Found beside a chosen .sev, not chosen itself: what it names outside its folder stays as allowed as it was.
    const inFolder = (p: string) => !found || isInside(canonicalPath(folder), canonicalPath(p));
    // A link inside the project's folder that leads out of it grants nothing (docs/security.md). Nor does a .json:
    // no input of a project is one (its .mtn, .sev, .sls and .h are not), and granted, a received project naming
    // ~/.config/x/settings.json as its SE table let the page read that file and replace it with Save Project.
    for (const p of named.inputs)
      if (extname(p).toLowerCase() !== '.json' && inFolder(p)) allowUnlessLinkedOut(policy, folder, p);
    const sounds = join(folder, 'sounds');
    if (existsSync(sounds) && statSync(sounds).isDirectory())
      allowUnlessLinkedOut(policy, folder, sounds, { as: 'tree', extensions: SOUND_EXTENSIONS });
    pickedProjectFolders.set(canonicalPath(path), canonicalPath(dirname(path)));
  };

  /**
   * The text at `path`, read through `fd` when the file was opened and judged already (openRecentFile). `rememberAs`:
   * the name the page loads it by to edit (a .sev, a project file), so that a save checks first that the file there
   * is still what was read.
   */
  const readText = (path: string, fd?: number, rememberAs?: string, read?: (version: string) => void): string => {
    try {
      const kind = extname(path).toLowerCase() === '.sev' ? 'SEV' : 'PROJECT';
      const bytes = fd === undefined ? readBytes(path, TEXT_LIMIT) : readBytesOf(fd, path, TEXT_LIMIT);
      const text = decodeUtf8Text(bytes, kind, path);
      if (rememberAs !== undefined) {
        // Remembered whether or not the caller names the read to the page (an optional call skips its argument).
        const version = loaded.remember(rememberAs, bytes, true);
        read?.(version);
      }
      return text;
    } catch (e) {
      if (e instanceof FormatError) throw e;
      throw new Error(`Could not read ${path}: ${systemReason(e)}`);
    }
  };

  const readProject = (given: string, fd?: number): { path: string; text: string } => {
    if (!given.toLowerCase().endsWith('.json'))
      throw new Error(`${quotePath(given)}: not a project file (expected *.actguy.json)`);
    // A judged project keeps the path judged (canonical then): a link swapped in since names no other file here.
    const path = fd === undefined ? policy.check(given, 'read') : given;
    return { path, text: readText(path, fd, given) };
  };

  /** Whether `canon` may be written by a build of `projectPath`: inside the folder of a picked project, or the workspace. */
  const buildMayWrite = (projectPath: string, canon: string): boolean => {
    const folder = pickedProjectFolders.get(projectPath);
    return (folder !== undefined && isInside(folder, canon)) || policy.trees().some((root) => isInside(root, canon));
  };

  /**
   * The build cache of a project the app builds (docs/cache.md): `.actguy-cache/` in the project's own folder
   * (`projectPath` is canonical), only when the path names a project file and that folder is one a build may
   * write (a picked project's folder, or inside the workspace), and never through a link; else no cache.
   */
  const appCacheDir = (projectPath: string): string | null => {
    if (!projectPath.toLowerCase().endsWith('.json')) return null;
    const cache = join(dirname(projectPath), '.actguy-cache');
    if (!buildMayWrite(projectPath, cache)) return null;
    try {
      if (!lstatSync(cache).isDirectory()) return null;
    } catch {
      // not made yet: the build makes it, one level, never through a link (buildCache.ts)
    }
    return cache;
  };

  /** Writes text the checker found no errors in, atomically. `unchanged` says what the user keeps when the write fails. */
  const saveCheckedText = async (
    kind: 'sev' | 'project',
    path: string,
    text: string,
    unchanged: string,
    save: { given: string; overwriteChanged: boolean; loadedAs?: string },
  ): Promise<SavedFile> => {
    // Only what ActGuy reads back: a text past TEXT_MAX_BYTES is refused by every open (a project padded to 70 MB
    // passed its check and was written, then File › Open Project refused it). Refused before the check worker is
    // handed it (docs/architecture.md#electron, round 5).
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > TEXT_MAX_BYTES)
      throw new Error(
        `Could not save ${path}: the text is ${bytes} bytes, and ActGuy opens a text file of at most ${TEXT_MAX_BYTES} bytes (64 MiB), so it would not open again; nothing was written and your edits are kept.`,
      );
    // Not over a file that changed on disk since the page loaded it: checked now, and again right before the rename.
    const stillAsLoaded = loaded.check(save.given, save.overwriteChanged, save.loadedAs);
    // The folder as checked: the text is checked in a worker first, and the write goes nowhere else (fsutil FolderPin).
    const folder = pinFolder(dirname(path));
    const { errors } = await checkText({ kind, path, text });
    if (errors.length)
      throw new Error(
        `Could not save ${path}: ${kind === 'project' ? 'the project' : 'the text'} has errors; nothing was written\n${errors.join('\n')}`,
      );
    try {
      await writeFileAtomicAsync(path, text, { folder, beforeRename: stillAsLoaded });
    } catch (e) {
      if (e instanceof ChangedOnDiskError) throw e;
      throw new Error(`Could not save ${path}: ${systemReason(e)}; ${unchanged}`);
    }
    loaded.remember(save.given, text);
    return saved(path, bytes);
  };

  /** A .sev chosen to edit opens with its motion: `<motion>.mtn` beside it (its `motion` statement, else its own base name). */
  const allowMotionOfSev = (sevPath: string): void => {
    const folder = dirname(sevPath);
    // A link beside the .sev that leads out of its folder grants nothing.
    allowUnlessLinkedOut(policy, folder, join(folder, `${baseNameOf(sevPath)}.mtn`));
    try {
      // Only the `motion <name>` statement is needed here (the full parse runs in the renderer).
      const named = /^[ \t]*motion[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:#.*)?$/m.exec(readText(sevPath))?.[1];
      if (named) allowUnlessLinkedOut(policy, folder, join(folder, `${named}.mtn`));
    } catch {
      // unreadable or broken: the renderer reports it when it reads the file
    }
  };

  /**
   * What a build of `projectPath` would refuse: every file it reads must be allowed; every file it writes must lie
   * in the project's folder or the workspace and must not be one of its inputs. Named as the worker resolves them
   * (from the path given), each checked after resolving links. Check (a dry run) and Build share it, so Check
   * reports exactly what Build refuses.
   */
  const refusedBuildPaths = (
    projectPath: string,
    named: { inputs: string[]; outputs: string[] },
  ): { reads: BuildProblem[]; writes: BuildProblem[] } => {
    const reads: BuildProblem[] = [];
    const writes: BuildProblem[] = [];
    for (const p of named.inputs)
      if (!policy.isAllowed(p))
        reads.push({
          message: `ActGuy refused to read ${quotePath(p)}: it is not in the workspace, not named by a project you opened with Open Project, and not a file you chose (add it with its dialog, or reopen the project)`,
          file: p,
        });
    for (const p of named.outputs) {
      let canon: string;
      try {
        canon = canonicalPath(p);
      } catch {
        canon = '';
      }
      const overwritten = inputOverwrittenBy(p, [projectPath, ...named.inputs]);
      if (!canon || !buildMayWrite(projectPath, canon))
        writes.push({
          message: `ActGuy refused to write ${quotePath(p)}: a build writes only inside the project's folder (${quotePath(dirname(projectPath))}) or the workspace`,
          file: p,
        });
      else if (overwritten !== null)
        writes.push({
          message: `ActGuy refused to write ${quotePath(p)}: it is ${quotePath(overwritten)}, an input of this build`,
          file: p,
        });
    }
    return { reads, writes };
  };

  /**
   * Opens a project the user picked (in the dialog, or again from Open Recent): the file is read here, from disk,
   * and what it names is granted as a pick grants it.
   */
  const openPicked = async (chosen: string, fd?: number): Promise<OpenProjectOutcome> => {
    // A listed project judged on its descriptor is granted as the path judged (not resolved again: round 29).
    policy.allowFile(chosen, { asJudged: fd !== undefined });
    const project = readProject(chosen, fd);
    await grantPickedProject(project.path, project.text);
    ctx.onProjectPicked?.(project.path);
    return { status: 'opened', project };
  };

  const requireBuildId = (raw: unknown, what: string): string =>
    requireString(requireObject<{ buildId: string }>(raw, what).buildId, `${what}: buildId`);

  return {
    openProject: async (raw) => {
      // A project opened by path (the workspace picker, tests) is only read: what it names must be allowed already.
      const req = requireObject<{ path: string }>(raw, 'openProject');
      const project = readProject(requirePath(req.path, 'openProject: path'));
      const choice = ctx.userChoseProject?.(project.path);
      if (choice) await grantPickedProject(project.path, project.text, choice === 'found');
      // Chosen outside the window, it is listed as a pick is. Only read (or found beside a .sev), it is not: from
      // the list it would open as picked, granting what it names outside the workspace.
      if (choice === true) ctx.onProjectPicked?.(project.path);
      return { status: 'opened', project };
    },

    openProjectDialog: async (): Promise<OpenProjectOutcome> => {
      const chosen = await dialogs.chooseFileToOpen({ title: 'Open project', filters: PROJECT_FILTERS });
      if (!chosen) return { status: 'cancelled' };
      return openPicked(chosen);
    },

    openRecentProject: async (raw) => {
      // The page only names the entry: the path must be one main itself listed as a project (docs/security.md).
      const req = requireObject<{ path: string }>(raw, 'openRecentProject');
      const given = requirePath(req.path, 'openRecentProject: path');
      if (!ctx.isRecentProject?.(given))
        throw new Error(`${quotePath(given)}: not a project in File › Open Recent (open it with Open Project)`);
      // The list holds the path as it resolved when the user chose it. A link put there since (the file, or a folder
      // above it, replaced by a sync or a colleague) leads to a file the user never chose, which a pick would grant
      // to be read and written: refused before any grant (docs/security.md, round 24). Nor one another user made at
      // the listed path since (a folder under /tmp after a restart), nor one not there at this check, which another
      // user could make before the read below (round 26). The file judged is the file read: opened once, judged on
      // its descriptor and read through it, so a file swapped in after the look is not read (round 29).
      const fd = openRecentFileOrRefuse(given, 'Open Project');
      try {
        return await openPicked(given, fd);
      } finally {
        closeSync(fd);
      }
    },

    saveProject: async (raw) => {
      const req = requireObject<{ path: string; text: string; overwriteChanged?: unknown }>(raw, 'saveProject');
      const given = requirePath(req.path, 'saveProject: path');
      if (!given.toLowerCase().endsWith('.json'))
        throw new Error(`Could not save ${quotePath(given)}: a project file name ends in .actguy.json`);
      if (typeof req.text !== 'string') throw new Error('saveProject: text must be a string');
      const path = policy.check(given, 'write');
      // The text is written, never trusted: the files it names stay as allowed (or not) as they were.
      return saveCheckedText(
        'project',
        path,
        req.text,
        `the file on disk is unchanged and your edits are kept. ${saveAgainNext('Save')}`,
        { given, overwriteChanged: req.overwriteChanged === true },
      );
    },

    chooseProjectFileDialog: async (raw) => {
      const req = requireObject<{ purpose: ProjectFilePurpose }>(raw, 'chooseProjectFileDialog');
      // Its own keys only: `constructor` or `__proto__` found Object's and showed a dialog with it as the options.
      const kind =
        typeof req.purpose === 'string' && Object.hasOwn(PURPOSE_FILTERS, req.purpose)
          ? PURPOSE_FILTERS[req.purpose]
          : undefined;
      if (!kind)
        throw new Error(`chooseProjectFileDialog: purpose must be one of ${Object.keys(PURPOSE_FILTERS).join(', ')}`);
      const path = await dialogs.chooseFileToOpen(kind);
      if (!path) return { status: 'cancelled' };
      policy.allowFile(path);
      if (req.purpose === 'sound') policy.allowTree(dirname(path), { extensions: SOUND_EXTENSIONS });
      if (req.purpose === 'sev') allowMotionOfSev(path);
      return { status: 'chosen', path };
    },

    readProjectText: async (raw) => {
      const req = requireObject<{ path: string; project?: string }>(raw, 'readProjectText');
      const given = requirePath(req.path, 'readProjectText: path');
      if (!TEXT_EXTENSIONS.includes(extname(given).toLowerCase()))
        throw new Error(`${quotePath(given)}: not a project text file (.sev, .sls, .h, .json)`);
      const project = req.project === undefined ? undefined : requirePath(req.project, 'readProjectText: project');
      const path = policy.check(given, 'read');
      // Outside the folder of the project that names it, links resolved (as round 34's messages judge it): the editor
      // says so, since a save writes there (docs/security.md, round 35).
      const outside =
        project !== undefined && !isInside(canonicalPath(dirname(project)), canonicalPath(path))
          ? { outsideProject: true as const }
          : {};
      const edited = ['.sev', '.json'].includes(extname(path).toLowerCase());
      // A link to nothing at the name is said, not taken for no file: the editor started an empty .sev whose save
      // made the file the link names (docs/security.md, round 47).
      const dangling = existsSync(path) ? undefined : danglingLinkReason(given);
      if (dangling)
        throw new Error(
          `Could not read ${quotePath(given)}: ${dangling}; ActGuy did not start an empty file in its place. Remove the link, or put the file it leads to there.`,
        );
      if (!existsSync(path)) {
        if (extname(path).toLowerCase() === '.sev') {
          // The editor starts an empty one: a file made there since is a change its save asks about.
          const loadedAs = loaded.remember(given, null, true);
          return { path: given, text: null, ...outside, loadedAs };
        }
        throw new Error(`Could not read ${path}: no such file`);
      }
      // A .sev granted only beside a motion is judged on the descriptor read (besideFiles.ts; round 31).
      const judged = openIfBeside(policy, given, path);
      try {
        let loadedAs: string | undefined;
        const text = readText(path, judged, edited ? given : undefined, (v) => (loadedAs = v));
        return { path: given, text, ...outside, ...(loadedAs !== undefined && { loadedAs }) };
      } finally {
        if (judged !== undefined) closeSync(judged);
      }
    },

    saveSev: async (raw) => {
      const req = requireObject<{ path: string; text: string; overwriteChanged?: unknown; loadedAs?: unknown }>(
        raw,
        'saveSev',
      );
      if (req.loadedAs !== undefined && !isLoadedVersion(req.loadedAs))
        throw new Error('saveSev: loadedAs must name a read (a SHA-256 in hex, or none)');
      const given = requirePath(req.path, 'saveSev: path');
      if (extname(given).toLowerCase() !== '.sev')
        throw new Error(`Could not save ${quotePath(given)}: a sound-event file name ends in .sev`);
      if (typeof req.text !== 'string') throw new Error('saveSev: text must be a string');
      // A motion's first .sev is created beside a project the user picked (not through a link that leads out).
      if (
        !policy.isAllowed(given) &&
        !given.includes('\0') &&
        [...pickedProjectFolders.values()].includes(canonicalPath(dirname(given)))
      )
        allowUnlessLinkedOut(policy, dirname(given), given);
      // Never through a link to nothing (a received folder's walk.sev -> elsewhere.sev): the save made that file
      // without a word (round 47); the policy refuses it for every write (docs/security.md, round 50).
      const path = policy.check(given, 'write');
      return saveCheckedText(
        'sev',
        path,
        req.text,
        `the file on disk is unchanged and your edits are kept. ${saveAgainNext('Save SEV')}`,
        {
          given,
          overwriteChanged: req.overwriteChanged === true,
          ...(req.loadedAs !== undefined && { loadedAs: req.loadedAs }),
        },
      );
    },

    startBuild: async (raw) => {
      const req = requireObject<{
        projectPath: string;
        projectText: string;
        sevTexts?: { path: string; text: string }[];
        dryRun?: boolean;
      }>(raw, 'startBuild');
      const given = requirePath(req.projectPath, 'startBuild: projectPath');
      const projectPath = policy.check(given, 'read');
      if (typeof req.projectText !== 'string') throw new Error('startBuild: projectText must be a string');
      const sevTexts = Array.isArray(req.sevTexts) ? req.sevTexts : [];
      for (const s of sevTexts)
        if (typeof s?.path !== 'string' || typeof s.text !== 'string')
          throw new Error('startBuild: sevTexts must be {path, text} objects');
      const dryRun = req.dryRun === true;
      const { named, errors } = await checkText({ kind: 'project', path: given, text: req.projectText });
      const refused = refusedBuildPaths(projectPath, named);
      // A received project naming the user's package.json as its report, or outputs.msh onto another tool's files,
      // is refused before any work (the commit checks again); a path the policy refuses is not read.
      const mayRead = (file: string) => !refused.writes.some((w) => w.file === file);
      for (const r of outputsRefusedBeforeBuild(named.outputs, named.report, mayRead))
        refused.writes.push({ message: r.problem, file: r.file });
      // A commit journal the commit would refuse fails the Build now, not after its compression, as `actguy build`
      // does (docs/safety-journal.md); only for a project that parses, whose outputs are then named in the order the
      // build commits them, and whose first output the policy lets it write (the journal lies beside it).
      // A lock another live run holds beside them is met the same way before the work (the commit's, under the
      // lock, is still what keeps two runs apart; docs/security.md, round 24).
      if (!dryRun && !refused.writes.length && !errors.length) {
        const journal = journalRefusedBeforeBuild(named.outputs);
        const lock = journal ? undefined : lockRefusedBeforeBuild(named.outputs);
        for (const e of [journal, lock]) if (e) refused.writes.push({ message: e.message, file: named.outputs[0] });
      }
      // Nothing is read that the policy refuses; a check (dry run) still compresses and reports the writes a build would refuse.
      if (refused.reads.length || (!dryRun && refused.writes.length))
        return runner.reject([...refused.reads, ...refused.writes], dryRun);
      return runner.start({
        projectPath: given,
        projectText: req.projectText,
        // Only the texts of files the build reads, each once (the last sent, as the job would take it): the page
        // sends the open .sev's, and a million entries naming other paths held the build for 39 s and 590 MB (each
        // looked at on disk, docs/security.md, round 55) for no text it would read.
        sevTexts: textsOfInputs(sevTexts, named.inputs),
        dryRun,
        refused: refused.writes,
        cacheDir: appCacheDir(projectPath),
        // Each input as the policy just allowed it: the worker reads it only while it is that file (a link put at its
        // name before the worker reads it is refused, not followed: docs/security.md, round 43).
        judged: named.inputs.map((input) => judgeFile(input, policy)),
        // Once, for inputs saved over by renaming since (the job refuses another file at a judged name): judged again.
        rejudge: (paths) => paths.map((input) => judgeFile(input, policy)),
        // The outputs' folders as just checked: the commit, after the build's seconds or minutes, writes nowhere else.
        folders: pinFoldersOf([...named.outputs, ...(named.report ? [named.report] : [])]),
      });
    },

    getBuildStatus: async (raw) => runner.status(requireBuildId(raw, 'getBuildStatus')),

    cancelBuild: async (raw) => runner.cancel(requireBuildId(raw, 'cancelBuild')),

    listSounds: async (raw): Promise<SoundFolderListing> => {
      const req = requireObject<{ folder: string }>(raw, 'listSounds');
      const folder = policy.check(requirePath(req.folder, 'listSounds: folder'), 'read');
      const names = soundFolderNames(folder);
      const sounds: SoundFolderListing['sounds'] = [];
      for (const name of names) {
        const extension = extname(name).slice(1).toLowerCase();
        if (!(SOUND_EXTENSIONS as readonly string[]).includes(extension)) continue;
        const path = join(folder, name);
        // A link that leads out of the allowed set is left out, as readSound would refuse it.
        if (!policy.isAllowed(path)) continue;
        try {
          const st = statSync(path);
          if (st.isFile()) sounds.push({ name: baseNameOf(name), path, byteLength: st.size, extension });
        } catch {
          // vanished between readdir and stat: leave it out
        }
      }
      return { folder, sounds };
    },

    readSound: async (raw) => {
      const req = requireObject<{ path: string }>(raw, 'readSound');
      const given = requirePath(req.path, 'readSound: path');
      if (!(SOUND_EXTENSIONS as readonly string[]).includes(extname(given).slice(1).toLowerCase()))
        throw new Error(`${given}: not a sound file (${SOUND_EXTENSIONS.join(', ')})`);
      const path = policy.check(given, 'read');
      let size: number;
      try {
        size = statSync(path).size;
      } catch (e) {
        throw new Error(`Could not read ${path}: ${systemReason(e)}`);
      }
      if (size > SOUND_MAX_BYTES)
        throw new Error(`${path}: ${size} bytes is too large for audition (at most ${SOUND_MAX_BYTES})`);
      // The limit holds for the file opened too: one swapped in after the stat was read whole (round 14).
      // A sound granted only in `sounds/` beside a motion is judged on the descriptor read (besideFiles.ts; round 31).
      const limit = { bytes: SOUND_MAX_BYTES, of: 'a sound for audition' };
      const judged = openIfBeside(policy, given, path);
      try {
        return { path: given, bytes: judged === undefined ? readBytes(path, limit) : readBytesOf(judged, path, limit) };
      } catch (e) {
        throw new Error(`Could not read ${path}: ${systemReason(e)}`);
      } finally {
        if (judged !== undefined) closeSync(judged);
      }
    },

    buildCacheDir: appCacheDir,
  };
}

function saved(path: string, byteLength: number): SavedFile {
  return { path, name: baseNameOf(path), byteLength };
}

/** The unsaved texts of the project's own inputs among those sent, one a path (the last sent). */
function textsOfInputs(
  sent: readonly { path: string; text: string }[],
  inputs: readonly string[],
): { path: string; text: string }[] {
  const read = new Set(inputs);
  const texts = new Map<string, string>();
  for (const s of sent) if (read.has(s.path)) texts.set(s.path, s.text);
  return [...texts].map(([path, text]) => ({ path, text }));
}
