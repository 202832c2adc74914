/**
 * The Electron main process: one window running the renderer from the `actguy://app/` scheme, the native menu and
 * the ActGuyApi handlers on IPC.
 *
 * Lifecycle, in the order it happens, and where each step is handled:
 * - loading, before 'ready' (this file, top to bottom): debugging switches taken off, every renderer sandboxed, the
 *   profile folder and the crash reporter, `unhandledRejection` (a crash record) and `uncaughtException` (a record and
 *   a box; before 'ready', a failed start), the privileged scheme, and the
 *   listeners below that must be there first: 'open-file' and 'web-contents-created';
 * - 'open-file' (macOS, before or after 'ready'): the file waits in `systemFiles` until the page listens; after the
 *   window closed, a window is made again to open it (appWindow.ts createWindowSlot);
 * - the single-instance lock (the end of this file): a second launch quits, and the first gets its command line
 *   through 'second-instance', which offers the files and brings the window forward once it is shown;
 * - 'ready' (start()): the first launch's files and the samples, the session's refusals (refuseSessionRequests), the
 *   workers, the stores, the IPC handlers and the menu (startServices), the window (openWindow), the app's end
 *   (listenToAppEnd), then the page's load (one that fails, or whose page file or script bundle the installation lacks, is said in a
 *   box, and the app exits; a window made again whose page fails says it alike, and goes: sayCouldNotStart);
 * - the window (openWindow): 'ready-to-show' shows it, 'did-finish-load' hands over the files
 *   kept, 'close' asks about unsaved work and running builds and Export Alls (closeQuestions.ts), 'render-process-gone' and
 *   'unresponsive' record it and offer a reload, 'responsive' takes the hang's question down (pageRecovery.ts),
 *   'preload-error' says a preload that failed (the page cannot reach main), 'did-fail-load' says a page that failed
 *   to load after it had loaded once (its reload) and offers to reload again or quit (pageRecovery.ts), as
 *   'did-finish-load' does for a reload that got the scheme's "not found" for its page file,
 *   'closed' forgets the window, and the page's report with it;
 * - 'before-quit': Cmd+Q, File › Exit and the Dock's Quit close the window first, so its 'close' questions stand for
 *   the quit (an answer of Cancel keeps both; Save or Discard quits again on macOS, where Electron cancelled the quit
 *   when the close was held); from here until a Cancel no window is made again (appWindow.ts quitAsked);
 * - 'child-process-gone' (a GPU or utility process): a crash record, no question;
 * - 'window-all-closed' stops the compression workers, then quits; not on macOS, where the app stays with no window
 *   until Cmd+Q or the Dock's Quit (appWindow.ts quitsWithLastWindow), and 'activate' (the Dock's icon clicked) makes
 *   the window again, as an 'open-file', a second launch or a command of the menu does (the command then goes to the
 *   new window's page once it listens: appWindow.ts createMenuDelivery);
 * - 'will-quit' waits for the writes in flight (quitWaits.ts; a commit still running after its five seconds is not cut
 *   without asking), then stops every worker and waits for them, five seconds at most (one still running then is
 *   recorded and the process killed: quitWaits.ts createWorkersStop); no window is made after it.
 *
 * Security model: the renderer is sandboxed with context isolation and no Node;
 * it reaches main only through the preload's ActGuyApi (one fixed channel per
 * member, sender checked); it can only touch files the PathPolicy allows; new
 * windows, navigation, webviews and permission requests are refused; a strict
 * CSP is sent with every page resource.
 *
 * Usage: `electron . [file.mtn|.mt3|.mar|.sev|.actguy.json ...] [--workspace DIR]`
 */
import {
  app,
  BrowserWindow,
  crashReporter,
  dialog,
  ipcMain,
  Menu,
  powerSaveBlocker,
  protocol,
  screen,
  session,
  shell,
  type IpcMainInvokeEvent,
} from 'electron';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { ACTGUY_INVOKE_MEMBERS } from '../shared/ipc/api';
import type { AppInfo, DocumentStateReport } from '../shared/ipc/documents';
import type { MenuCommand } from '../shared/ipc/menu';
import { DROPPED_FILE_CHANNEL, ipcInvokeChannel, MENU_COMMAND_CHANNEL } from '../shared/ipc/transport';
import { systemFileKindOfPath } from '../shared/systemFiles';
import { APP_NAME, applyAppIdentity } from './appIdentity';
import {
  bringForward,
  createMenuDelivery,
  createWindowSlot,
  createWindowStartup,
  followDocumentReport,
  quitsWithLastWindow,
} from './appWindow';
import { trackBuilds, trackExports, type WorkInFlight } from './buildsInFlight';
import { createCompressClient } from './compressClient';
import { crashDumpsFolder, mainProcessErrorText, writeCrashRecord, type CrashRecord } from './crashRecords';
import { debugSwitchesRefusal, removeDebugSwitches } from './debugSwitches';
import { grantDroppedFile } from './droppedFiles';
import { createHandlers, type ApiHandlers } from './handlers';
import { dispatchInvoke, replyOf } from './invokeReply';
import { workerImportRunner } from './interchange/importRunner';
import {
  createKeepAwake,
  keepingAwakeDuringBuilds,
  keepingAwakeDuringImports,
  keepingAwakeDuringMshExports,
} from './keepAwake';
import { createLastFolderStore } from './lastFolder';
import { buildAppMenu } from './menu';
import { createNativeDialogPort } from './nativeDialogs';
import { canonicalPath, createPathPolicy } from './pathPolicy';
import { BUILD_WORKER_KEEP_MS, workerLauncher } from './project/buildRunner';
import { keptWorkers } from './oneShotWorker';
import { defaultBuildWorkerPath } from './project/projectHandlers';
import { createRecentFilesStore } from './recentFiles';
import { appTopFrame, CONTENT_SECURITY_POLICY, pageScriptFiles, rendererContentType, rendererFileOf } from './security';
import {
  createSystemFileQueue,
  findProjectListingSev,
  firstLaunchFiles,
  handedOverProblem,
  handedOverRefusal,
  lookedAtPath,
  notOpenedKindProblem,
  parseCommandLine,
  commandLineFilesNotOpened,
  commandLineRefusals,
  secondLaunchCommandLine,
  secondLaunchWorkspaceNotTaken,
  type LaunchData,
} from './systemFiles';
import { grantUserSamples, prepareUserSamples, STARTUP_SAMPLE, type UserSamples } from './userSamples';
import { initialWindow, MIN_SIZE, readWindowState, writeWindowState } from './windowState';
import { BACKUPS_FOLDER, createBackupStore } from './unsavedBackups';
import { commitsInFlight, writesInFlight } from './writeTurns';
import { appWorkerStops, createQuitGate, createWorkersStop, WORKERS_STOP_MS } from './quitWaits';
import { besideBundleCheckers, type WorkerCheckers } from './project/textCheck';
import { requireBundleDigests, type BundleDigests } from './workerBundles';
import { profileFolderFromEnv } from './userDataFolder';
import { createCloseQuestions, quitDuringCommitsQuestion } from './closeQuestions';
import { failed, warn } from './mainLog';
import { describeFsError } from './fsErrors';
import { createPageRecovery } from './pageRecovery';

const APP_SCHEME = 'actguy';
const APP_ORIGIN = `${APP_SCHEME}://app`;
const PAGE_URL = `${APP_ORIGIN}/index.html`;

/** What to do about a file of the installation missing or damaged: said by each failure that finds one. */
const INSTALL_AGAIN = 'Installing ActGuy again should fix it.';

/** The answer to an API call from anything but the app's own top frame (trustedSender). */
const REFUSED_SENDER = { ok: false, error: { message: 'refused: the request did not come from the ActGuy window' } };

// A packaged app started with a debugging switch (--remote-debugging-port, --inspect, --js-flags...) does not run: the
// switches are taken off the command line first, before Chromium starts its DevTools server or any child process,
// and the app exits below (electron/debugSwitches.ts).
const refusedDebugSwitches = removeDebugSwitches(app.commandLine, app.isPackaged);

/** The SHA-256 of each worker bundle beside main.cjs, embedded by scripts/build.mjs (undefined unbundled: tests). */
declare const __ACTGUY_WORKER_DIGESTS__: BundleDigests | undefined;
// A packaged app runs only the worker bundles it was built with: app.asar.unpacked is outside the archive's integrity
// check (electron/workerBundles.ts). One bundled without the digests runs none.
if (app.isPackaged)
  requireBundleDigests(typeof __ACTGUY_WORKER_DIGESTS__ === 'object' ? __ACTGUY_WORKER_DIGESTS__ : {});
applyAppIdentity(app, process.platform);
// Every renderer the app could ever start runs sandboxed, not only the window made below with `sandbox: true`: a
// window or contents added later without the flag is sandboxed all the same. It counts only when called before
// 'ready' (docs/architecture.md#electron).
app.enableSandbox();
// Tests and side-by-side runs give each instance its own profile (recent files, single-instance lock, minidumps).
// First: the crash reporter fixes its folder (under userData) when it starts.
// The folder named is checked as `npm run web --user-data` checks its own (electron/userDataFolder.ts, docs/security.md
// round 40): one another user made, or under a folder others may write, is refused below, before anything is read.
const profileFolder = profileFolderFromEnv(process.env);
if (profileFolder && 'dir' in profileFolder) {
  for (const note of profileFolder.notes) warn(note);
  app.setPath('userData', profileFolder.dir);
}
const profileRefusal = profileFolder && 'refusal' in profileFolder ? profileFolder.refusal : null;
// Native crashes leave a minidump in <userData>/Crashpad for a bug report (set here: Electron's default for
// crashDumps is not the same on every platform and version). Nothing is ever uploaded: uploadToServer is false and
// no submit URL is given, so even a Crashpad settings file that says uploads are on has nowhere to send a report
// (docs/install.md#where-actguy-keeps-things, docs/security.md round 12).
const dumps = profileRefusal ? null : crashDumpsFolder(app.getPath('userData'));
if (!dumps) {
  // refused above: the app exits below, and starts nothing in the usual profile meanwhile
} else if ('path' in dumps) {
  app.setPath('crashDumps', dumps.path);
  crashReporter.start({ uploadToServer: false });
} else warn(dumps.problem);

/** What every crash record says besides its event: the app, the machine, the motion shown and the unsaved work. */
type CrashRecordContext = Pick<
  CrashRecord,
  'appVersion' | 'versions' | 'platform' | 'arch' | 'documentName' | 'unsaved'
>;

const NO_DOCUMENT: DocumentStateReport = { documentId: null, documentName: null, dirty: false };
/** What the window's page last reported (its document, unsaved or not); declared before the crash records that name it. */
let documentState: DocumentStateReport = NO_DOCUMENT;

/**
 * Writes a crash record (electron/crashRecords.ts), stamped now, with what every record says besides its event: its
 * path, or null where it could not be written (said in the terminal; the app goes on).
 */
function keepCrashRecord(
  record: Omit<CrashRecord, 'time' | keyof CrashRecordContext>,
  unsaved: string[],
): string | null {
  const { event, ...details } = record;
  try {
    return writeCrashRecord(app.getPath('userData'), {
      event,
      time: new Date().toISOString(),
      ...details,
      appVersion: app.getVersion(),
      versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
      platform: process.platform,
      arch: process.arch,
      documentName: documentState.documentName,
      unsaved,
    });
  } catch (e) {
    warn(`the crash record was not written: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

// A promise of main's that failed with nothing to catch it: Electron would put up "A JavaScript error occurred in the
// main process" with a stack trace, in the user's face and nowhere in a bug report. A crash record keeps it (the
// page and its edits go on: no question) and the terminal gets it too.
process.on('unhandledRejection', (reason) => {
  const error = mainProcessErrorText(reason);
  console.error(`${APP_NAME}: an error nothing caught: ${error}`);
  keepCrashRecord({ event: 'main-process-error', error }, []);
});

/** Whether the box about an error nothing caught was shown this run: one box, however many such errors follow. */
let uncaughtErrorSaid = false;
// A throw in main that nothing caught (in a listener, a timer, a callback): Electron's own box had a stack trace and
// the app went on, with no record. The same record as a rejection's and the terminal line; then, before 'ready', the
// start failed (said as any failed start, and the app exits: nothing is open to lose); after it, the app goes on, so
// that the user can save what the window holds (ending the process would lose the edits made since their last copy),
// and one box says what happened, where the record is, and to save and start ActGuy again (main may be left half-way
// through what it was doing). Only a throw out of this listener itself would end the process: each step here catches.
process.on('uncaughtException', (thrown) => {
  const error = mainProcessErrorText(thrown);
  console.error(`${APP_NAME}: an error nothing caught: ${error}`);
  const record = keepCrashRecord({ event: 'main-process-error', error }, []);
  if (!app.isReady()) {
    try {
      sayCouldNotStart(thrown);
    } finally {
      app.exit(1);
    }
    return;
  }
  if (uncaughtErrorSaid) return;
  uncaughtErrorSaid = true;
  // Go On (the default, and Escape): the user saves first. Show the Record opens the folder with the record selected,
  // for a bug report. Quit is File › Exit's: the window's close asks about unsaved work and running builds first.
  const actions: ('go-on' | 'show-record' | 'quit')[] = record ? ['go-on', 'show-record', 'quit'] : ['go-on', 'quit'];
  const words = { 'go-on': 'Go On', 'show-record': 'Show the Record', quit: 'Quit' };
  const options: Electron.MessageBoxOptions = {
    type: 'error',
    title: APP_NAME,
    message: `${APP_NAME} met an error it did not expect.`,
    detail:
      `${firstLine(error)}\n\nActGuy goes on, but may not work as it should: save your work, then quit and start ` +
      `ActGuy again.${record ? ` A record of the error was kept for a bug report: ${record}` : ''}`,
    buttons: actions.map((a) => words[a]),
    defaultId: 0,
    cancelId: 0,
  };
  try {
    const win = windows.current();
    (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options))
      .then(({ response }) => {
        const action = actions[response];
        if (action === 'show-record' && record) shell.showItemInFolder(record);
        else if (action === 'quit') app.quit();
      })
      .catch(failed('the message about an error nothing caught could not be shown'));
  } catch (e) {
    warn(`the message about an error nothing caught could not be shown: ${mainProcessErrorText(e)}`);
  }
});

/** The first line of an error's text (its stack's: the name and message). */
function firstLine(text: string): string {
  return text.split('\n', 1)[0];
}

// Must run before 'ready': a standard, secure scheme gets an origin, fetch and module scripts.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

/** dist/electron -> dist/renderer (inside app.asar when packaged). */
const rendererDir = resolve(__dirname, '..', 'renderer');

/**
 * The sample the app starts on. Packaged, the bundled samples are copied on first run to a folder of the
 * user's and opened from there (electron/userSamples.ts); from a checkout (`electron .`) the repository's
 * assets are the developer's own and open in place.
 */
function startupSamples(): UserSamples {
  if (!app.isPackaged)
    return { startupPath: join(app.getAppPath(), 'assets', STARTUP_SAMPLE), folder: null, notice: null };
  let documentsDir: string | null = null;
  try {
    documentsDir = app.getPath('documents');
  } catch {
    // no Documents folder on this system: the app's own folder takes the copy
  }
  return prepareUserSamples({
    bundledDir: join(process.resourcesPath, 'assets'),
    documentsDir,
    fallbackDir: app.getPath('userData'),
  });
}

/**
 * The window (it opens hidden, until its first paint: `ready-to-show`); on macOS the app outlives it, and the Dock's
 * icon or a file handed over makes it again (appWindow.ts).
 */
const windows = createWindowSlot<BrowserWindow>(process.platform);
/**
 * What the page may read and write (pathPolicy.ts): the files the user chose, granted here when chosen outside the
 * window (the command line, a second launch, Finder's "Open With", a drop) and by the handlers (dialogs, Open Recent).
 */
const policy = createPathPolicy();

const sendMenuCommand = (command: MenuCommand): void => {
  windows.current()?.webContents.send(MENU_COMMAND_CHANNEL, command);
};
/**
 * The native menu's commands: held until the window's page listens, and on macOS with no window, a window made again
 * for them (appWindow.ts createMenuDelivery).
 */
const menuCommands = createMenuDelivery<MenuCommand>({ sendToPage: sendMenuCommand, windows });

/** Only the app's own top frame may call the API (security.ts appTopFrame). */
function trustedSender(event: IpcMainInvokeEvent): boolean {
  return appTopFrame(event, windows.current()?.webContents ?? null, APP_ORIGIN);
}

/** The window's page file, which every load of the window asks the scheme for first. */
const pageFile = join(rendererDir, 'index.html');
/**
 * Why the page file, or a script it loads, could not be read at the window's last load of it (missing from the
 * installation, unreadable), or null: its "not found" loads as a page of its own, with no `did-fail-load` (a script's
 * leaves a page with no app in it), so the window's load is said failed by this (loadPage's caller for a first load,
 * the window's 'did-finish-load' for a reload).
 */
let pageNotServed: string | null = null;
/**
 * The renderer's files the page file served last loads as scripts (its bundle): one that cannot be read is the page
 * not served too (`pageNotServed`), where a request the page makes for nothing is not.
 */
let pageScripts: ReadonlySet<string> = new Set();

async function serveRenderer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== 'app') return new Response('not found', { status: 404 });
  // A malformed escape (`%E0%A4%A`) or a path out of the folder is a missing file (security.ts rendererFileOf).
  const full = rendererFileOf(rendererDir, url.pathname);
  if (full === 'malformed' || full === 'outside') return new Response('not found', { status: 404 });
  const isPage = full === pageFile;
  if (isPage) pageNotServed = null;
  try {
    const body = await readFile(full);
    if (isPage) pageScripts = pageScriptFiles(body.toString('utf8'), request.url, rendererDir);
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': rendererContentType(full),
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (e) {
    if (isPage)
      pageNotServed = `ActGuy's page could not be read from its installation (${full}: ${describeFsError(e)}). ${INSTALL_AGAIN}`;
    // Its script bundle missing or unreadable: the page would load with no app in it, a blank window.
    else if (pageScripts.has(full))
      pageNotServed ??= `ActGuy's page could not read its program from its installation (${full}: ${describeFsError(e)}). ${INSTALL_AGAIN}`;
    return new Response('not found', { status: 404 });
  }
}

function showAbout(): void {
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: `About ${APP_NAME}`,
    message: `${APP_NAME} ${app.getVersion()}`,
    detail: `Motion-compression tuner and sound-event attach tool.\nElectron ${process.versions.electron}, Chromium ${process.versions.chrome}, Node ${process.versions.node}.`,
    buttons: ['OK'],
  };
  const win = windows.current();
  (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options)).catch(
    failed('the About box could not be shown'),
  );
}

/**
 * A file the OS handed over, once the renderer listens: it becomes allowed and
 * the renderer opens it where its kind belongs (renderer/app/commands.ts), after
 * its own unsaved-changes question. A .sev goes with the project beside it that lists it.
 */
function deliverSystemFile(path: string): void {
  if (refusedHandedOver(path)) return;
  sendMenuCommand({ command: 'file.openFromSystem', path, ...grantSystemFile(path) });
}

/**
 * Whether a file the OS handed over is refused: looked at on disk before any grant, as a drop is (systemFiles.ts
 * handedOverProblem; docs/security.md, round 29). Why is said in a message box over the window (files are delivered
 * only once a page listens); the first launch's own files are looked at by firstLaunchFiles, and said at start.
 */
function refusedHandedOver(path: string): boolean {
  const problem = handedOverProblem(path);
  if (!problem) return false;
  sayNotOpened(handedOverRefusal(path, problem));
  return true;
}

/**
 * The refusals of files handed over while there was no window (macOS open-file as a double-click launches the app, or
 * after the window closed): said among the next window's start-up warnings, as the first launch's own refused files are.
 */
const refusedBeforeWindow: string[] = [];

/** Says why a file the OS handed over was not opened: in a message box over the window, or in the next window's start. */
function sayNotOpened(detail: string): void {
  warn(detail);
  const win = windows.current();
  if (!win) {
    refusedBeforeWindow.push(detail);
    return;
  }
  dialog
    .showMessageBox(win, {
      type: 'warning',
      title: APP_NAME,
      message: 'A file handed to ActGuy was not opened',
      detail,
      buttons: ['OK'],
    })
    .catch(failed('the message about a file handed over could not be shown'));
}

/**
 * Grants a file the user chose outside a dialog (the OS handed it over, or it was dropped on the window) as a
 * dialog's pick: it becomes allowed, a project counts as chosen, and a .sev brings the project beside it that lists it.
 */
function grantSystemFile(path: string): { projectPath?: string } {
  // As looked at (handedOverProblem, before this grant): a link swapped in at its name since grants nothing.
  const looked = lookedAtPath(path);
  policy.allowFile(looked, { asJudged: true });
  const kind = systemFileKindOfPath(path);
  if (kind === 'project') chosenProjects.add(looked);
  if (kind === 'sev') {
    const project = findProjectListingSev(path);
    if (project) {
      policy.allowFile(project);
      foundProjects.add(canonicalPath(project));
      return { projectPath: project };
    }
  }
  return {};
}

/** Projects the user handed over from outside the window: opened, they are granted as if picked in the dialog. */
const chosenProjects = new Set<string>();
/** Projects found beside a .sev the user handed over (not chosen themselves): they grant only inside their folder. */
const foundProjects = new Set<string>();

/** Files from the OS (command line, second launch, macOS open-file), kept until the renderer listens. */
const systemFiles = createSystemFileQueue(deliverSystemFile);

/** The window's page listens (it asked for the app info, or finished loading): what waited for it goes to it. */
function pageListens(): void {
  systemFiles.rendererListening();
  menuCommands.pageListens();
}

/** Set once the quit goes ahead (not at 'before-quit': the close question can still cancel that quit). */
let quitting = false;
/** Set when the user quits after a crash: the copies stay for the next start. */
let keepBackups = false;

/** What start() makes once, after 'ready', for the window: the workers, the handlers on IPC and the menu. */
interface Services {
  compress: ReturnType<typeof createCompressClient>;
  /**
   * The build bundle's idle thread, kept warm between Build clicks and Export Alls (one for both: oneShotWorker.ts
   * keptWorkers), ended at 'will-quit'.
   */
  buildWorkers: ReturnType<typeof keptWorkers>;
  /** The text checker's worker (texts and motions to be saved, checked off the main thread), stopped at 'will-quit'. */
  checkers: WorkerCheckers | null;
  keepAwake: ReturnType<typeof createKeepAwake>;
  /** The builds the window started (buildsInFlight.ts): the close asks about them. */
  builds: WorkInFlight;
  /** The Export Alls the window started (buildsInFlight.ts): the close asks about them as about builds. */
  exports: WorkInFlight;
  /** Copies of unsaved work (docs/install.md#unsaved-work-after-a-crash). */
  backups: ReturnType<typeof createBackupStore>;
  /** Writes still running, waited for before the app ends (quitWaits.ts). */
  quitGate: ReturnType<typeof createQuitGate>;
  rebuildMenu: () => void;
  /** The menu of a window made, before the window slot holds it. */
  menuWithWindow: () => void;
  userData: string;
  /** A window made again (macOS) starts as a launch that named no file does: what was said at the first start is not said again. */
  windowMadeAgain: () => void;
}

/** The workspace this instance was started with (firstLaunchFiles), which a second launch does not change. */
let runningWorkspace: string | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  // The first motion on the command line that passes the look on disk opens at start-up; those refused before it are
  // said once, among the start-up warnings; the rest (a project, a .sev, more motions) follow it, looked at when
  // delivered (systemFiles.ts firstLaunchFiles).
  const firstLaunch = firstLaunchFiles(process.argv, process.cwd());
  runningWorkspace = firstLaunch.workspace;
  for (const refusal of firstLaunch.refusals) warn(refusal);
  for (const f of firstLaunch.kept) systemFiles.offer(f);
  const samples = startupSamples();
  grantUserSamples(policy, samples);

  protocol.handle(APP_SCHEME, serveRenderer);
  refuseSessionRequests();
  const services = startServices(firstLaunch, samples);
  const win = windows.open((again) => {
    if (!again) return openWindow(services);
    services.windowMadeAgain();
    const made = openWindow(services);
    services.menuWithWindow();
    loadPage(made, PAGE_URL, () => pageNotServed).catch((e: unknown) => {
      // Said as the first window's failure is; the app stays, with no window, as before the Dock's icon was clicked.
      sayCouldNotStart(e);
      if (!made.isDestroyed()) made.destroy();
    });
    return made;
  });
  services.rebuildMenu();
  listenToAppEnd(services);
  // macOS: the Dock's icon clicked with no window open makes the window again (appWindow.ts reopen); with the window
  // minimised, it is restored and focused as for a second launch (appWindow.ts bringForward): Electron tells AppKit
  // there is no visible window then, and AppKit leaves a minimised one in the Dock.
  app.on('activate', () => {
    if (windows.reopen() === null) bringForward(windows.current(), windows.shown());
  });
  await loadPage(win, PAGE_URL, () => pageNotServed);
}

/** The session's refusals: what the page could ask of Chromium beyond the app's own API. */
function refuseSessionRequests(): void {
  // The app needs no camera, microphone, notifications, geolocation...
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  // Nor a spell checker (the window's `spellcheck: false` is the page's side): with the session's on, Electron may
  // fetch hunspell dictionaries from Google's servers on Windows and Linux, a request the app has no use for.
  session.defaultSession.setSpellCheckerEnabled(false);
  // Nor downloads: the app saves through its own dialogs, so a download (a page's `<a download>` on a blob) would
  // only ever be a page writing where it was not asked to; Electron would put up a save dialog for it.
  session.defaultSession.on('will-download', (event) => event.preventDefault());
}

/** The workers, the stores, the handlers on IPC and the menu: made once, before the window. */
function startServices(firstLaunch: ReturnType<typeof firstLaunchFiles>, samples: UserSamples): Services {
  const { startupMotion: argMotion, workspace } = firstLaunch;
  const sample = samples.startupPath;
  // The machine stays awake while a build, an import, an MSH export or an Export All runs, released by the work's own
  // end (electron/keepAwake.ts).
  const keepAwake = createKeepAwake(powerSaveBlocker);
  const compress = keepingAwakeDuringMshExports(createCompressClient(compressWorkerPaths(__dirname)), keepAwake);
  const buildWorkers = keptWorkers(defaultBuildWorkerPath(), BUILD_WORKER_KEEP_MS);
  const checkers = besideBundleCheckers();
  // A write still running (a copy of unsaved work, a save, an export: each off the main thread) is waited for, a few
  // seconds at most, before the app ends: the windows are closed by then, so no new one starts (electron/quitWaits.ts).
  const quitGate = createQuitGate({
    pending: writesInFlight,
    // A commit (a build's or an export's files, put in place as one unit) is not cut by the wait's end without asking:
    // the window is gone by then, so the box stands alone.
    commits: commitsInFlight,
    quitDuringCommits: quitDuringCommitsQuestion((options) => dialog.showMessageBox(options)),
    quit: () => app.quit(),
    warn,
  });
  const recent = createRecentFilesStore(app.getPath('userData'), Date.now, warn);
  /** The menu, with no window (menu.ts noWindow: only what opens something) or with one. */
  const menuFor = (windowOpen: boolean): void => {
    Menu.setApplicationMenu(
      buildAppMenu({
        appName: APP_NAME,
        isMac: process.platform === 'darwin',
        recentFiles: recent.list(),
        send: menuCommands.send,
        clearRecentFiles: () => {
          recent.clear();
          rebuildMenu();
        },
        showAbout,
        allowDevTools: !app.isPackaged,
        disabledCommands: documentState.disabledCommands,
        // Before the first window too: the menu is made again as each window is made (start()).
        noWindow: !windowOpen,
      }),
    );
  };
  const rebuildMenu = (): void => menuFor(windows.current() !== null);
  const startupWarnings = [
    ...(recent.startupProblem ? [recent.startupProblem] : []),
    ...firstLaunch.refusals,
    ...refusedBeforeWindow.splice(0),
  ];
  const appInfo: AppInfo = {
    version: app.getVersion(),
    samplePath: sample,
    startupPath: argMotion ?? sample,
    transport: 'electron',
    nativeDialogs: true,
    workspaceRoot: workspace,
    platform: process.platform,
    ...(samples.notice ? { startupNotice: samples.notice } : {}),
    ...(startupWarnings.length > 0 ? { startupWarnings } : {}),
  };
  const userData = app.getPath('userData');
  // Copies of unsaved work (docs/install.md#unsaved-work-after-a-crash): those an app crash left are read back now.
  const backups = createBackupStore(join(userData, BACKUPS_FOLDER), warn);
  // Open dialogs start in the folder last chosen, kept in <userData>/last-folder.json (read as hostile input).
  const lastFolder = createLastFolderStore(userData, warn);
  const handlers = createHandlers({
    backups,
    appInfo,
    // The start-up motion from the command line comes as firstLaunchFiles looked at it: granted so (round 33).
    startupLookedAt: argMotion !== null,
    userChoseProject: (canon) => chosenProjects.has(canon) || (foundProjects.has(canon) && 'found'),
    policy,
    recent,
    compress,
    launchBuild: keepingAwakeDuringBuilds(workerLauncher(buildWorkers), keepAwake),
    buildWorkers,
    checkers,
    keepAwake,
    runImport: keepingAwakeDuringImports(workerImportRunner(), keepAwake),
    dialogs: createNativeDialogPort(() => windows.current()),
    lastFolder,
    onRecentFilesChanged: rebuildMenu,
    onDocumentState: ({ keptOpen, ...report }) => {
      // The close question's Save failed (or its Save As was cancelled): the window stays, and a quit that asked for
      // the close is over, as after Cancel (else the window's next close, its red button, would quit the app).
      if (keptOpen) windows.closeKept();
      // The greyed-out items follow the renderer (an event selected, something copied): rebuilt only on a change.
      const { menuChanged } = followDocumentReport(windows.current(), documentState, report);
      documentState = report;
      if (menuChanged) rebuildMenu();
    },
  });
  const startup = createWindowStartup({
    appInfo,
    named: argMotion !== null,
    takeKeptMotion: () => {
      // The first kept motion that passes the look on disk; those refused are said, and taken out of the queue.
      const isMotion = (f: string) => systemFileKindOfPath(f) === 'motion';
      for (let motion = systemFiles.take(isMotion); motion; motion = systemFiles.take(isMotion))
        if (!refusedHandedOver(motion)) {
          policy.allowFile(lookedAtPath(motion), { asJudged: true });
          return motion;
        }
      return null;
    },
    takeRefusals: () => refusedBeforeWindow.splice(0),
  });
  const builds = trackBuilds(handlers);
  const exports = trackExports(handlers);
  /**
   * What the IPC channels serve: the handlers, with main's own steps around three kinds of call. The app info's
   * answer says the page listens (the renderer asks for it right after subscribing to menu commands: a motion the OS
   * handed over before, macOS open-file at launch, becomes the start-up file; the other files follow it); the build
   * and Export All handlers note what they start, for the close's questions (buildsInFlight.ts).
   */
  const served: ApiHandlers = {
    ...handlers,
    getAppInfo: async (arg) => {
      startup.pageAsks();
      pageListens();
      return handlers.getAppInfo(arg);
    },
    ...builds.handlers,
    ...exports.handlers,
  };
  for (const member of ACTGUY_INVOKE_MEMBERS) {
    ipcMain.handle(ipcInvokeChannel(member), (event, arg: unknown) => {
      if (!trustedSender(event)) return REFUSED_SENDER;
      return dispatchInvoke(served, member, arg);
    });
  }
  // A file dropped on the window: its path comes from the preload (webUtils.getPathForFile of a dropped File, never
  // a string from the page) and is granted as a pick (electron/droppedFiles.ts, docs/security.md).
  ipcMain.handle(DROPPED_FILE_CHANNEL, async (event, path: unknown) => {
    if (!trustedSender(event)) return REFUSED_SENDER;
    // Answered in the invoke members' envelope (invokeReply.ts): clipped, a bad file's kind, no stack.
    return replyOf('openDroppedFile', path, () =>
      grantDroppedFile(path, {
        grantChosen: grantSystemFile,
        grantImport: (p) => policy.allowFile(lookedAtPath(p), { asJudged: true }),
        rememberFolder: (p) => lastFolder.rememberFileChosen(p),
      }),
    );
  });
  rebuildMenu();
  return {
    compress,
    buildWorkers,
    checkers,
    keepAwake,
    builds: builds.inFlight,
    exports: exports.inFlight,
    backups,
    quitGate,
    rebuildMenu,
    menuWithWindow: () => menuFor(true),
    userData,
    windowMadeAgain: startup.windowMadeAgain,
  };
}

/** Makes the window and listens to its lifecycle (in the order of the list at the top of this file); the page is not loaded yet. */
function openWindow(services: Services): BrowserWindow {
  const { userData, backups, builds, exports } = services;
  // Size, position and maximised state as the user left them (on a screen still connected), else fitted to the primary screen.
  const placement = initialWindow(
    readWindowState(userData, warn),
    screen.getAllDisplays().map((d) => d.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const win = new BrowserWindow({
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    width: placement.width,
    height: placement.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: APP_NAME,
    backgroundColor: '#1b1d21',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  // Windows and Linux: the page draws its own menu bar (with the same commands), so the native one is not
  // shown too; its accelerators stay registered (the native menu owns the command shortcuts, shared/shortcuts.ts).
  if (process.platform !== 'darwin') win.setMenuBarVisibility(false);
  const showWindow = (): void => {
    windows.markShown();
    win.show();
  };

  win.once('ready-to-show', () => {
    if (placement.maximized) win.maximize();
    showWindow();
  });
  // A page that never asked for the app info (a failed start-up) still gets the files and the menu's commands once it
  // has loaded; so does each page reloaded after a crash or a hang.
  menuCommands.windowMade();
  /** Whether the page has loaded once: a failed load before that is the first, said by loadPage's caller. */
  let pageLoaded = false;
  /** The page did not load: the page that failed answers nothing, so a file the OS hands over waits for the next one. */
  const pageDidNotLoad = (reason: string): void => {
    systemFiles.rendererGone();
    recovery.pageFailedToLoad(reason);
  };
  win.webContents.on('did-finish-load', () => {
    // What loaded is the scheme's "not found", not the app: its page file could not be read (serveRenderer). A first
    // load is said by loadPage's caller; a reload as a failed load is, in the terminal and a box.
    const notServed = pageNotServed;
    if (notServed !== null) {
      if (!pageLoaded || win.isDestroyed()) return;
      warn(`the window's page did not load: ${notServed}`);
      pageDidNotLoad(notServed);
      return;
    }
    pageLoaded = true;
    pageListens();
  });
  const closeQuestions = createCloseQuestions({
    win,
    ask: (options) => dialog.showMessageBox(win, options),
    document: () => documentState,
    builds,
    exports,
    saveAllAndClose: () => sendMenuCommand({ command: 'app.saveAllAndClose' }),
    closing: () => {
      writeWindowState(userData, { ...win.getNormalBounds(), maximized: win.isMaximized() }, warn);
      // A clean close: everything was saved or discarded, so no copy is kept.
      if (!keepBackups) backups.clear();
    },
    kept: () => windows.closeKept(),
  });
  // A close held for the questions cancels a quit under way (Electron's): the slot knows, to quit again on macOS.
  win.on('close', (event) =>
    closeQuestions({
      preventDefault: () => {
        event.preventDefault();
        windows.closeHeld();
      },
    }),
  );
  /** The page is gone or never came: its unsaved work is held as copies, nothing is left to ask about on close. */
  const forgetUnsaved = (): void => {
    documentState = NO_DOCUMENT;
    win.setDocumentEdited(false);
  };
  const reloadPage = (): void => {
    // Until the reloaded page listens, a file the OS hands over waits for it (the old page is going).
    systemFiles.rendererGone();
    win.webContents.reload();
  };
  const quitKeepingCopies = (): void => {
    keepBackups = true;
    // The app's Quit: on macOS a closed window would leave the app running.
    if (quitsWithLastWindow(process.platform)) win.close();
    else app.quit();
  };
  // A crashed or hung page: a crash record, then the offer to reload (electron/pageRecovery.ts).
  const recovery = createPageRecovery({
    win,
    ask: (options) => dialog.showMessageBox(win, options),
    document: () => documentState,
    keepRecord: keepCrashRecord,
    hasCopies: () => backups.held().backups.length > 0,
    show: showWindow,
    forgetUnsaved,
    reload: reloadPage,
    quit: quitKeepingCopies,
  });
  // The page failed to load after it had loaded once (its reload after a crash or a hang: a damaged installation, a
  // disk that stopped answering): the window stays blank, and Chromium says why only in its console. Said here in the
  // terminal, and by the recovery in a box over the window, which offers to reload again or to quit (keeping the copies
  // of unsaved work, as the crash's Quit does: electron/pageRecovery.ts). Not: the first load's failure (loadPage's
  // caller says it, and the window goes), a load aborted (ERR_ABORTED, -3: a reload replaced by another, the window
  // closing), a frame's.
  win.webContents.on('did-fail-load', (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
    if (!isMainFrame || errorCode === -3 || !pageLoaded || win.isDestroyed()) return;
    warn(`the window's page did not load (${validatedURL}): ${errorDescription} (${errorCode})`);
    pageDidNotLoad(`${errorDescription} (${errorCode}).`);
  });
  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    // A dead page opens nothing: a file the OS hands over now (a double-click, a second launch) waits for the page
    // the recovery question reloads, instead of being granted and sent to no one.
    systemFiles.rendererGone();
    recovery.pageInTrouble('render-process-gone', details);
  });
  // The preload failed (a damaged or altered installation): the page runs with no `window.actguy`, and says only that
  // it could not reach its main process, with no reason; Chromium's console has the reason, which no user reads. Said
  // here, in the terminal and in a box over the window, with the file and the error.
  win.webContents.on('preload-error', (_event, preloadPath, error) => {
    const reason = error instanceof Error ? error.message : String(error);
    warn(`the window's preload ${preloadPath} failed: ${reason}`);
    dialog
      .showMessageBox(win, {
        type: 'error',
        title: APP_NAME,
        message: 'ActGuy did not start properly: its window cannot reach the app.',
        detail: `${basename(preloadPath)} could not run: ${reason}\n\nNothing can be opened or saved in this window. ${INSTALL_AGAIN}`,
        buttons: ['OK'],
      })
      .catch(failed('the message about the failed preload could not be shown'));
  });
  win.on('unresponsive', () => recovery.pageInTrouble('unresponsive'));
  // The hung page answers again: its question goes away by itself (its record stays).
  win.on('responsive', () => recovery.pageAnswers());
  win.on('closed', () => {
    // A Cmd+Q whose close the questions held, answered Save or Discard: Electron cancelled that quit; it goes on now.
    if (windows.closed().resumeQuit) app.quit();
    menuCommands.windowClosed();
    // macOS goes on without a window: a file the OS hands over now waits for the window made again, which starts with
    // no document (its menu too).
    systemFiles.rendererGone();
    documentState = NO_DOCUMENT;
    // With no window, only the commands that open something stay (menu.ts noWindow).
    services.rebuildMenu();
  });
  return win;
}

/** The app's end and what happens beside the window (in the order of the list at the top of this file). */
function listenToAppEnd({ compress, buildWorkers, checkers, keepAwake, quitGate }: Services): void {
  // Another of Chromium's processes died (the GPU process, a utility such as the audio or network service): Chromium
  // starts it again and the page goes on, but a GPU process that keeps crashing ends in software drawing, and the
  // user's bug report would have nothing to show. A crash record says which, when and why; no question is asked (no
  // edit is lost). Not once the window is gone or the app quits: the processes ending with it are no crash.
  app.on('child-process-gone', (_event, details) => {
    if (quitting || windows.current() === null || details.reason === 'clean-exit') return;
    keepCrashRecord(
      {
        event: 'child-process-gone',
        process: details.type,
        ...(details.name ? { processName: details.name } : {}),
        reason: details.reason,
        exitCode: details.exitCode,
      },
      [],
    );
  });
  // Before the page loads: a window closed while loading must still quit the app. Not on macOS, where the app stays
  // (its menu bar, its Dock icon) until the user quits it; the workers stay for the window made again.
  // The quit does not wait for the workers to stop (they stop again at 'will-quit'): a worker that did not would keep
  // the app running with no window, which only ending the process ends.
  app.on('window-all-closed', () => {
    if (!quitsWithLastWindow(process.platform)) return;
    compress.dispose().catch(failed('the compression workers did not stop'));
    app.quit();
  });
  // Cmd+Q, File > Exit, the Dock's Quit and app.quit() close the window without 'window-all-closed' (Electron emits it
  // only when the windows close by themselves): the workers are stopped here too, whichever way the app quits.
  // A quit asked (Cmd+Q, the Dock's Quit, File › Exit): no window is made again meanwhile, as between the window's
  // close and 'will-quit' an 'open-file' or the Dock's icon would (appWindow.ts quitAsked); a close its questions keep
  // cancels it.
  app.on('before-quit', () => windows.quitAsked());
  // Past the gate, the workers are stopped and the quit waits for them, WORKERS_STOP_MS at most (quitWaits.ts
  // createWorkersStop): the process's end would wait for a thread that does not stop (one held in native code), with
  // no window left. One still running then is kept in a crash record and said in the terminal, and the process is
  // ended: its writes have ended (the gate), and Chromium's stored data was flushed when the stops began.
  const workersStop = createWorkersStop({
    stops: () => {
      session.defaultSession.flushStorageData();
      // The same threads as the web server's stop (loopback/serve.ts), each waited for whole (quitWaits.ts).
      return appWorkerStops({ compress, buildWorkers, checkers });
    },
    quit: () => app.quit(),
    stuck: endWithWorkersStuck,
    warn,
  });
  app.on('will-quit', (event) => {
    quitting = true;
    windows.quitting();
    if (!quitGate(event)) return;
    keepAwake.releaseAll();
    workersStop(event);
  });
}

/**
 * The quit's end when workers did not stop in WORKERS_STOP_MS (quitWaits.ts): a crash record names them (in `Crash
 * Records`, where the other records go), the terminal says it and where the record is, and the process is killed, the
 * one end that does not wait for the threads (Node joins them at `app.exit` and `process.exit` too).
 */
function endWithWorkersStuck(names: string[]): void {
  const which = names.join(', ');
  const record = keepCrashRecord({ event: 'workers-did-not-stop', workers: names }, []);
  console.error(
    `${APP_NAME}: ${which} did not stop within ${WORKERS_STOP_MS / 1000} s of the quit: ending the process` +
      (record ? ` (a record was kept for a bug report: ${record})` : ''),
  );
  process.kill(process.pid, 'SIGKILL');
}

/**
 * The compression workers' files. Packaged, every worker is unpacked beside app.asar (electron-builder asarUnpack):
 * worker_threads loads a real file. Both the compress worker and the pool it starts for a long motion's MSH export
 * (compressClient's `pool`) come from there; the pool's path used to be compressClient's default, inside app.asar.
 */
export function compressWorkerPaths(dir: string): { workerPath: string; pool: { workerPath: string } } {
  const unpacked = (name: string) => join(dir, name).replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
  return { workerPath: unpacked('compressWorker.cjs'), pool: { workerPath: unpacked('compressPoolWorker.cjs') } };
}

/**
 * A start that failed, said in the terminal and in a box (there is no page to say it): a window whose page could not
 * load, a debugging switch or a profile folder refused, an error nothing caught before 'ready'. The one wording of it.
 */
function sayCouldNotStart(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  console.error(`${APP_NAME} could not start: ${message}`);
  dialog.showErrorBox(`${APP_NAME} could not start`, message);
}

/**
 * Loads the page. Closing the window while it loads aborts the load: that is the user's choice, not a failed start
 * (no "could not start" box); any other failure is one, and so is a load that showed the scheme's "not found" for the
 * page itself (`notServed` says why: its file missing from the installation).
 */
export async function loadPage(
  win: Pick<BrowserWindow, 'loadURL' | 'isDestroyed'>,
  url: string,
  notServed: () => string | null = () => null,
): Promise<void> {
  try {
    await win.loadURL(url);
  } catch (e) {
    if (win.isDestroyed()) return;
    throw e;
  }
  const problem = notServed();
  if (problem !== null && !win.isDestroyed()) throw new Error(problem);
}

// macOS Finder's "Open With" and a double-click: before or after ready, before or after the page listens.
app.on('open-file', (event, path) => {
  event.preventDefault();
  // Finder's "Open With" offers ActGuy for any file: one of a kind it does not open is said, not dropped unsaid.
  const notOpened = notOpenedKindProblem(path);
  if (notOpened) sayNotOpened(handedOverRefusal(path, notOpened));
  else systemFiles.offer(path);
  // After the window closed (macOS), a window made again opens the file, or says why not (appWindow.ts reopen).
  windows.reopen();
});

// Every web contents (the window and anything it might try to create): no new windows, no navigation, no webviews,
// no page holding its own unload.
app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  // Sub-frames too (will-navigate is the main frame's only): the page has no frames, and one a library or a hostile
  // page made goes nowhere, whatever the CSP lets it load.
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Main asks about unsaved work on close (win 'close'): a page's cancelling `beforeunload` would keep the window open
  // without a word, even after "Discard changes" (and a hostile page could keep it open for good). It is ignored.
  contents.on('will-prevent-unload', (event) => event.preventDefault());
});

if (refusedDebugSwitches.length > 0) {
  sayCouldNotStart(debugSwitchesRefusal(APP_NAME, refusedDebugSwitches));
  app.exit(1);
} else if (profileRefusal) {
  sayCouldNotStart(profileRefusal);
  app.exit(1);
} else if (!app.requestSingleInstanceLock({ argv: process.argv, cwd: process.cwd() } satisfies LaunchData)) {
  // One instance per profile: a second launch focuses the first window, handing it its command line as it had it.
  app.quit();
} else {
  app.on('second-instance', (_event, argv, cwd, additionalData) => {
    const launch = secondLaunchCommandLine(argv, cwd, additionalData);
    for (const file of parseCommandLine(launch.argv, launch.cwd).files) systemFiles.offer(file);
    // A file of no kind ActGuy opens is said, as a macOS open-file of one is, not passed over (docs/security.md, round 42).
    for (const file of commandLineFilesNotOpened(launch.argv, launch.cwd, Boolean(process.defaultApp)))
      sayNotOpened(handedOverRefusal(file, notOpenedKindProblem(file)!));
    // A value refused as it is (a NUL, a hidden character in --workspace) is said too (docs/security.md, round 46).
    for (const refusal of commandLineRefusals(launch.argv, launch.cwd)) sayNotOpened(refusal);
    // A valid --workspace is not taken, and says so (systemFiles.ts secondLaunchWorkspaceNotTaken; round 47).
    const workspaceNotTaken = secondLaunchWorkspaceNotTaken(launch.argv, launch.cwd, runningWorkspace);
    if (workspaceNotTaken) sayNotOpened(workspaceNotTaken);
    // With no window (macOS, closed), one is made again for the files; once shown (appWindow.ts bringForward).
    windows.reopen();
    bringForward(windows.current(), windows.shown());
  });
  start().catch((e: unknown) => {
    sayCouldNotStart(e);
    app.exit(1);
  });
}
