/**
 * Files the OS hands to the running app (a double-click, "Open With", a
 * second launch with a file) before and after the window can take them.
 *
 * The renderer subscribes to menu commands when its script runs, and says it
 * is listening by asking for the app info (or, failing that, when the page
 * has loaded). Until then every file is kept, in order: a macOS `open-file`
 * after `ready` or a second launch during start-up is never sent to a page
 * that is not listening yet. The same holds again once the page is gone (it
 * crashed, or main reloads it): a file handed over then waits for the page
 * that loads next, instead of going to a page that cannot open it.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveFrom } from '../shared/project/paths';
import { windowsPathProblem } from '../shared/windowsNames';
import { HIDDEN_CHARACTERS } from '../shared/errors';
import { SYSTEM_FILE_EXTENSIONS, systemFileKindOfPath } from '../shared/systemFiles';
import { canonicalPath, linkOutOf, quotePath } from './pathPolicy';
import { anotherUsers, readBytes } from './fsutil';
import { describeFsError } from './fsErrors';

interface SystemFileQueue {
  /** A file handed over by the OS: delivered at once when the renderer listens, else kept. */
  offer(path: string): void;
  /** Takes the first kept file that `wanted` accepts (the start-up motion), or null. */
  take(wanted: (path: string) => boolean): string | null;
  /** The renderer listens: the kept files are delivered in order; later files go straight through. */
  rendererListening(): void;
  /** The page is gone (crashed, or being reloaded): files are kept again until the next page listens. */
  rendererGone(): void;
  /** Files kept so far (for tests and diagnostics). */
  pending(): readonly string[];
}

export function createSystemFileQueue(deliver: (path: string) => void): SystemFileQueue {
  const kept: string[] = [];
  let listening = false;
  return {
    offer(path) {
      if (listening) deliver(path);
      else kept.push(path);
    },
    take(wanted) {
      const i = kept.findIndex(wanted);
      return i < 0 ? null : kept.splice(i, 1)[0];
    },
    rendererListening() {
      if (listening) return;
      listening = true;
      for (const path of kept.splice(0)) deliver(path);
    },
    rendererGone() {
      listening = false;
    },
    pending: () => kept.slice(),
  };
}

/**
 * Why a file the OS handed over (a launch's or a second launch's command line, macOS `open-file`) is not granted,
 * in words, or undefined when it may be: looked at on disk before any grant, as a dropped file is
 * (droppedFiles.ts; docs/security.md, round 29). Refused: a path with nothing there (a grant of a path nobody holds
 * goes to whoever makes the file first, round 26), a folder or what is not a plain file (a FIFO a read would wait
 * on), a symbolic link (the grant would be of wherever it leads when granted, which whoever may change the link
 * chooses; the file it leads to opens when named itself), and a file another user owns (anotherUsers: in a folder
 * others may write, another user may have put it there, or swap it later; not asked where there are no user ids).
 */
export function handedOverProblem(path: string, uid: number | undefined = process.getuid?.()): string | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    return `it is not there (${describeFsError(e)})`;
  }
  if (st.isSymbolicLink()) return `it is a symbolic link to ${quotePath(canonicalPath(path))}; open that file itself`;
  if (st.isDirectory()) return 'a folder, not a file';
  if (!st.isFile()) return 'it is not a plain file (a pipe, socket or device)';
  if (anotherUsers(st.uid, uid))
    return `it belongs to another user (user id ${st.uid}); copy it to a folder of yours to open it`;
  handedOverSeam.looked(path);
  return undefined;
}

/**
 * Called when handedOverProblem has passed a file, before its grant: tests swap the file there, to show that what is
 * granted is the file looked at, not where a link swapped in since leads (docs/security.md, round 30).
 */
export const handedOverSeam = { looked: (_path: string): void => undefined };

/**
 * The path to grant for a file handedOverProblem passed: its folder resolved (the user named it, links and all), its
 * name as looked at (a plain file, not a link), for `allowFile(…, { asJudged: true })`. A grant that resolved the
 * whole path again would follow a link swapped in at the name since the look, granting where it leads.
 */
export function lookedAtPath(path: string): string {
  return join(canonicalPath(dirname(path)), basename(path));
}

/**
 * Why a file the OS handed over by macOS `open-file` is not opened when its name is of no kind ActGuy opens (Finder's
 * "Open With" offers any file), in the words handedOverProblem's refusals take; undefined for a kind it opens.
 */
export function notOpenedKindProblem(path: string): string | undefined {
  if (systemFileKindOfPath(path)) return undefined;
  const { motion, sev, project } = SYSTEM_FILE_EXTENSIONS;
  return `ActGuy opens motions (${motion.join(', ')}), sound-event files (${sev.join(', ')}) and projects (${project.join(', ')}), not this kind of file`;
}

/** The refusal of a file the OS handed over, naming it, as a refused drop is worded. */
export function handedOverRefusal(path: string, problem: string): string {
  return `${quotePath(path)}: ${problem}. Nothing was opened.`;
}

/** What the first launch's own command line asks for (firstLaunchFiles). */
interface FirstLaunchFiles {
  /**
   * The first motion that passed the look on disk, as lookedAtPath gives it: opened at start-up, granted as a pick as
   * it was looked at (HandlerContext.startupLookedAt).
   */
  startupMotion: string | null;
  /** The other files, in order, kept until the page listens and looked at when delivered (as a second launch's). */
  kept: string[];
  /** The refusals of the motions looked at before the start-up one (handedOverRefusal), said by the page at start. */
  refusals: string[];
  workspace: string | null;
}

/**
 * The first launch's command line (process.argv, read once when main starts): the start-up motion is the first
 * motion named that passes the look a file the OS hands over gets (handedOverProblem); each motion refused before it
 * is said once, among the start-up warnings, and not kept (kept, it was looked at again when delivered and said a
 * second time in a message box); the other files are kept in order for the page. Pure but for the look on disk, so
 * the first launch's refusals can be tested without starting main (docs/security.md, round 30).
 */
export function firstLaunchFiles(
  argv: readonly string[],
  cwd: string,
  problemOf: (path: string) => string | undefined = handedOverProblem,
  // Electron's own member of process, spelled so that code without Electron's types (the fuzz targets) compiles this.
  defaultApp = Boolean((process as { defaultApp?: boolean }).defaultApp),
): FirstLaunchFiles {
  const { files, workspace: named } = parseCommandLine(argv, cwd);
  let startupMotion: string | null = null;
  const kept: string[] = [];
  // A file of no kind ActGuy opens is said too, not passed over (round 42); so is a value refused as it is (round 46).
  const refusals = [
    ...commandLineRefusals(argv, cwd),
    ...commandLineFilesNotOpened(argv, cwd, defaultApp).map((f) => handedOverRefusal(f, notOpenedKindProblem(f)!)),
  ];
  // The workspace is granted whole: a path with no folder there now would be granted to whoever makes it first (round
  // 26's reason for files), and the page would list nothing without a word (round 46).
  let workspace = named;
  if (workspace !== null && !isFolderNow(workspace)) {
    refusals.push(workspaceRefusal(workspace, 'no folder is there'));
    workspace = null;
  }
  for (const file of files) {
    if (startupMotion !== null || systemFileKindOfPath(file) !== 'motion') kept.push(file);
    else {
      const problem = problemOf(file);
      if (problem) refusals.push(handedOverRefusal(file, problem));
      // As looked at (its folder resolved, its name kept), for a grant that does not resolve it again (round 33).
      else startupMotion = lookedAtPath(file);
    }
  }
  return { startupMotion, kept, refusals, workspace };
}

/** What a launch hands the running instance besides Electron's argv: its own argv and folder, as it had them. */
export interface LaunchData {
  argv: string[];
  cwd: string;
}

/** At most this many arguments are taken from a second launch (a shell glob of a big folder), each at most this long. */
const LAUNCH_MAX_ARGS = 10_000;
const LAUNCH_MAX_ARG_CHARS = 32_768;

/**
 * The command line a second launch gave, as it gave it. Electron's `second-instance` argv is the command line as
 * Chromium parsed it again: switches may be moved before the other arguments and some added
 * (`--original-process-start-time`), so `a.mtn --workspace /ws` can arrive as `--workspace a.mtn /ws`, which reads
 * `a.mtn` as the workspace and drops it. The second launch also sends its own argv and folder as the single-instance
 * lock's additional data (Electron's advice); that is read when it has the shape sent (an absolute folder, a bounded
 * list of strings), else Electron's argv is (docs/architecture.md#electron).
 */
export function secondLaunchCommandLine(argv: readonly string[], cwd: string, additionalData: unknown): LaunchData {
  const sent = additionalData as Partial<Record<keyof LaunchData, unknown>> | null;
  const args = sent?.argv;
  if (
    typeof sent === 'object' &&
    sent !== null &&
    typeof sent.cwd === 'string' &&
    isAbsolute(sent.cwd) &&
    Array.isArray(args) &&
    args.length <= LAUNCH_MAX_ARGS &&
    args.every((a) => typeof a === 'string' && a.length <= LAUNCH_MAX_ARG_CHARS)
  )
    return { argv: args as string[], cwd: sent.cwd };
  return { argv: [...argv], cwd };
}

/**
 * The files ActGuy opens among command-line arguments, and the workspace
 * option. argv[0] is the executable; Electron's and Chromium's switches, the
 * app folder (`electron .`) and other arguments are skipped. `--workspace DIR`
 * and `--workspace=DIR` both work; the value is never taken for a file.
 * A `file://` URL (a Linux file manager's `%U`) is taken as the file it names.
 */
export function parseCommandLine(argv: readonly string[], cwd: string): { files: string[]; workspace: string | null } {
  const { named, workspace } = commandLineArgs(argv, cwd);
  return { files: named.filter((f) => systemFileKindOfPath(f)), workspace };
}

/**
 * The refusals of a command line's values that parseCommandLine and commandLineFilesNotOpened pass over: a file named
 * with a NUL or longer than a path can be, and a `--workspace` with no value, an empty one, or one holding a control
 * or invisible character (HIDDEN_CHARACTERS), a NUL among them, or too long. Each is said (a first launch's among the
 * start-up warnings, a second launch's in a box) in the words of handedOverRefusal; the value never becomes a file or
 * the workspace (docs/security.md, round 46).
 */
export function commandLineRefusals(argv: readonly string[], cwd: string): string[] {
  return commandLineArgs(argv, cwd).refusals;
}

/**
 * A second launch's `--workspace` that passes workspaceValueProblem but is not the running instance's: said, where it
 * was passed over without a word (docs/security.md, round 47). It is not taken: the workspace is granted whole to the
 * page, and a second launch is any program's to make (a script, another user's shortcut run by this one), so a folder
 * would reach the window the user never opened in it, and the page's open documents and project would change roots
 * under it. `current` is the workspace the running instance holds (null: none).
 */
export function secondLaunchWorkspaceNotTaken(
  argv: readonly string[],
  cwd: string,
  current: string | null,
): string | undefined {
  const { workspace } = commandLineArgs(argv, cwd);
  if (workspace === null || workspace === current) return undefined;
  const holds = current === null ? 'with no workspace folder' : `with the workspace ${quotePath(current)}`;
  return `--workspace ${quotePath(workspace)}: ActGuy is already running ${holds}, and a second launch does not change it. Quit ActGuy and start it again with --workspace to work in that folder.`;
}

/** Longest path taken from a command line (PATH_MAX on Linux): no file or folder has a longer one. */
const COMMAND_LINE_PATH_MAX = 4096;

/**
 * Why a `--workspace` folder (resolved) is refused before any look on disk, or undefined. Its folder is granted whole
 * to the page and shown in it: a value with a NUL was taken as a workspace path (testing.md, fuzz round 5). An empty
 * value (a script's unset variable) is refused before it is resolved: it was the current folder.
 */
function workspaceValueProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'it holds a NUL character, which no folder name holds';
  if (HIDDEN_CHARACTERS.test(value))
    return 'it holds a control or invisible character (a line break, a terminal escape, a bidirectional or zero-width character), which would show the folder as another';
  if (value.length > COMMAND_LINE_PATH_MAX) return `it is longer than ${COMMAND_LINE_PATH_MAX} characters`;
  return undefined;
}

/** The refusal of a `--workspace` value (workspaceValueProblem), naming it escaped. */
function workspaceRefusal(value: string | undefined, problem: string): string {
  const shown = value === undefined ? '--workspace' : `--workspace ${quotePath(value)}`;
  return `${shown}: ${problem}. ActGuy opened no workspace folder.`;
}

/** Why a command line's file is refused before any look on disk, or undefined (its kind is judged elsewhere). */
function commandLineFileProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'it holds a NUL character, which no file name holds';
  if (path.length > COMMAND_LINE_PATH_MAX) return `it is longer than ${COMMAND_LINE_PATH_MAX} characters`;
  return undefined;
}

/**
 * The command line's files (paths and `file://` URLs as paths), whatever their kind, its workspace option, and the
 * refusals of values that are neither (commandLineRefusals).
 */
function commandLineArgs(
  argv: readonly string[],
  cwd: string,
): { named: string[]; workspace: string | null; refusals: string[] } {
  const named: string[] = [];
  const refusals: string[] = [];
  let workspace: string | null = null;
  const takeWorkspace = (value: string | undefined): void => {
    // Judged as resolved: a second launch's folder (its cwd) is part of it, and is the other launch's to give.
    const path = value === undefined || value === '' ? undefined : resolve(cwd, value);
    const problem =
      value === undefined
        ? 'it needs a folder after it'
        : path === undefined
          ? 'it is empty; name a folder'
          : workspaceValueProblem(path);
    if (problem !== undefined) {
      refusals.push(workspaceRefusal(path ?? value, problem));
      workspace = null;
    } else workspace = path!;
  };
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--workspace') takeWorkspace(i + 1 < args.length ? args[++i] : undefined);
    else if (a.startsWith('--workspace=')) takeWorkspace(a.slice('--workspace='.length));
    else if (!a.startsWith('-')) {
      const file = commandLineFile(a, cwd);
      const problem = file === null ? undefined : commandLineFileProblem(file);
      if (problem !== undefined) refusals.push(handedOverRefusal(file!, problem));
      else if (file) named.push(file);
    }
  }
  return { named, workspace, refusals };
}

/**
 * The files a command line names that are of no kind ActGuy opens (`actguy notes.txt`), which parseCommandLine passes
 * over: a launch says each (notOpenedKindProblem), as a macOS open-file of one is said, rather than dropping it
 * without a word (docs/security.md, round 42). Not a folder (the app folder of `electron .`, a project's folder), and
 * not the app itself when Electron runs it as a default app (`electron dist/electron/main.cjs`: `defaultApp`, its
 * first argument that is no switch).
 */
export function commandLineFilesNotOpened(argv: readonly string[], cwd: string, defaultApp: boolean): string[] {
  const { named } = commandLineArgs(argv, cwd);
  return named.slice(defaultApp ? 1 : 0).filter((f) => notOpenedKindProblem(f) !== undefined && !isFolderNow(f));
}

/** Whether a folder is at `path` now (links followed). */
function isFolderNow(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A command-line file as an absolute path. Linux file managers start the app
 * through its .desktop entry, whose Exec line takes `%U`: they pass
 * `file:///home/u/walk%202.mtn`, not a path. Other URLs (a network location) are not files ActGuy opens.
 */
function commandLineFile(arg: string, cwd: string): string | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return resolve(cwd, arg);
  if (!/^file:/i.test(arg)) return null;
  try {
    return fileURLToPath(arg);
  } catch {
    return null; // file://host/... on POSIX, or a malformed URL
  }
}

/** Bigger project files are not read while looking for a .sev's project. */
const MAX_PROJECT_BYTES = 4 * 1024 * 1024;
/** At most this many projects are read per folder. */
const MAX_PROJECTS_PER_FOLDER = 64;
/** At most this many motions of one project are looked at: a project holds no more (MAX_PROJECT_ENTRIES). */
const MAX_MOTIONS_PER_PROJECT = 4096;
/** At most this many paths are resolved in one search, all projects together (each costs file-system calls). */
const MAX_RESOLVED_PER_SEARCH = 4096;
/** At most this many bytes of projects are read in one search (64 projects of 4 MB, each parsed, took 11 s). */
const MAX_BYTES_PER_SEARCH = 16 * 1024 * 1024;

/**
 * The project (*.actguy.json) in a .sev's folder or the folder above that
 * lists it (its `sev`, or `<name>.sev` beside the project when it names
 * none), or null. Files that do not read or parse are skipped, and so are a
 * project that is a symbolic link leading out of its folder and one another
 * user owns (the project found is granted to the page): this only picks
 * where to open the .sev.
 */
export function findProjectListingSev(sevPath: string): string | null {
  const target = canonicalPath(sevPath);
  const folder = dirname(target);
  const budget = { resolved: 0, bytes: 0 };
  for (const dir of [folder, dirname(folder)]) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => systemFileKindOfPath(n) === 'project')
        .sort()
        .slice(0, MAX_PROJECTS_PER_FOLDER);
    } catch {
      continue;
    }
    for (const name of names) {
      const project = join(dir, name);
      // Found, not chosen: a project that is a link out of the folder is not opened (nor granted) from here.
      if (linkOutOf(dir, project) !== null) continue;
      if (projectListsSev(project, target, sevPath, budget)) return project;
      if (budget.resolved >= MAX_RESOLVED_PER_SEARCH || budget.bytes >= MAX_BYTES_PER_SEARCH) return null;
    }
    if (dirname(folder) === folder) break;
  }
  return null;
}

/**
 * Whether `project` lists the .sev. Only its first MAX_MOTIONS_PER_PROJECT motions are looked at, and only a path
 * named like the .sev (as opened, or where its links lead) is resolved, MAX_RESOLVED_PER_SEARCH in all (and
 * MAX_BYTES_PER_SEARCH of projects are read): resolving
 * every path of a 4 MB project of 190,000 motions held the main process 12 s, and a folder may hold 64 such
 * projects, its parent 64 more (64 projects of 4096 paths named walk.sev took 22 s).
 */
function projectListsSev(
  project: string,
  canonicalSev: string,
  openedSev: string,
  budget: { resolved: number; bytes: number },
): boolean {
  const names = new Set([basename(canonicalSev).toLowerCase(), basename(openedSev).toLowerCase()]);
  try {
    const { size, uid } = statSync(project);
    if (size > MAX_PROJECT_BYTES) return false;
    // Found, not chosen: one another user owns (planted in /tmp above the user's folder, or in a shared one) is not
    // the user's project, and is not opened or granted with the .sev (docs/security.md, round 30).
    if (anotherUsers(uid)) return false;
    budget.bytes += size;
    // readBytes: a FIFO named like a project must not stop the main process waiting for a writer.
    const text = new TextDecoder().decode(readBytes(project, { bytes: MAX_PROJECT_BYTES, of: 'a project' }));
    const json = JSON.parse(text.replace(/^\uFEFF/, '')) as { motions?: unknown };
    if (!Array.isArray(json.motions)) return false;
    const projectPath = project.replace(/\\/g, '/');
    return json.motions.slice(0, MAX_MOTIONS_PER_PROJECT).some((m: unknown) => {
      if (!m || typeof m !== 'object') return false;
      const { sev, name } = m as { sev?: unknown; name?: unknown };
      const rel = typeof sev === 'string' ? sev : typeof name === 'string' ? `${name}.sev` : null;
      // Not a path a project may name (shared/windowsNames.ts): never resolved, so a planted project naming
      // `\\host\share\walk.sev` cannot make a double-click on walk.sev connect Windows to that host.
      if (rel === null || windowsPathProblem(rel)) return false;
      const named = resolveFrom(projectPath, rel);
      if (!names.has(basename(named).toLowerCase()) || budget.resolved >= MAX_RESOLVED_PER_SEARCH) return false;
      budget.resolved++;
      return canonicalPath(named) === canonicalSev;
    });
  } catch {
    return false;
  }
}
