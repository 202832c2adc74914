/**
 * The app's one window as the app's lifecycle sees it: its title and edited mark from the page's report, a second
 * launch bringing it forward, whether the app outlives it (macOS), a window then made again by the Dock's icon, a file
 * handed over or a command of the menu (and not while a quit is asked), and the menu's commands held until its page
 * listens. No Electron call of its own: main.ts hands it the window it makes and the platform, so each decision runs
 * under vitest (docs/architecture.md#electron).
 */
import type { AppInfo, DocumentStateReport } from '../shared/ipc/documents';
import { APP_NAME } from './appIdentity';

/** What of the window follows the page's report (a BrowserWindow's). */
interface ReportedWindow {
  setDocumentEdited(edited: boolean): void;
  setTitle(title: string): void;
}

/** What a second launch needs of the window (a BrowserWindow's). */
interface ForwardWindow {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** The window's title: the document the page shows, a dot while it has unsaved edits, then the app's name. */
function windowTitle(report: DocumentStateReport): string {
  return report.documentName ? `${report.documentName}${report.dirty ? ' •' : ''} — ${APP_NAME}` : APP_NAME;
}

/**
 * The window follows the page's report (handlers' onDocumentState: names already escaped and bounded there): its title
 * and macOS's edited mark. Whether the greyed-out menu items changed is the answer (the menu is rebuilt only then).
 */
export function followDocumentReport(
  win: ReportedWindow | null,
  previous: DocumentStateReport,
  report: DocumentStateReport,
): { menuChanged: boolean } {
  const menuChanged = (report.disabledCommands ?? []).join() !== (previous.disabledCommands ?? []).join();
  win?.setDocumentEdited(report.dirty);
  win?.setTitle(windowTitle(report));
  return { menuChanged };
}

/**
 * A second launch brings the window forward, restored if minimised. Not before its first paint: ready-to-show shows
 * and focuses it then, and focusing a hidden window shows it (macOS does), empty, and unmaximised until ready-to-show
 * maximises it.
 */
export function bringForward(win: ForwardWindow | null, shown: boolean): void {
  if (!win || !shown) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

/**
 * Whether the app quits when its last window closes: everywhere but macOS, where an app stays running (in the Dock,
 * its menu bar up) with no window until the user quits it, as Electron's documentation and Apple's guidelines have it.
 */
export function quitsWithLastWindow(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin';
}

/** The app's one window: the current one, whether it has been shown, and when a closed one is made again. */
interface WindowSlot<W> {
  /** The window, or null: none made yet, or it closed. */
  current(): W | null;
  /** Whether the current window has been shown (its first paint, or a question that could not wait for it). */
  shown(): boolean;
  /**
   * Makes the first window ('ready' passed, the services made); `make` makes each later one too, told it is made again
   * (its page then loads on its own: the first window's load is start()'s).
   */
  open(make: (again: boolean) => W): W;
  /** The window is shown. */
  markShown(): void;
  /**
   * The window closed ('closed'): forgotten. `resumeQuit`: the close was a quit's that its questions held and an answer
   * let go on (Discard, Save, Stop and close); Electron cancelled that quit when the close was held, so where the app
   * outlives its window main quits again (else the app would stay running with no window after a Cmd+Q).
   */
  closed(): { resumeQuit: boolean };
  /**
   * A quit is asked ('before-quit': Cmd+Q, the Dock's Quit, File › Exit): no window is made again until it is cancelled,
   * also between the window's close and 'will-quit'.
   */
  quitAsked(): void;
  /** The window's close was held for its questions (unsaved work, a running build). */
  closeHeld(): void;
  /** The questions' answer kept the window (Cancel, or a question that failed): a quit asked is cancelled. */
  closeKept(): void;
  /** The quit goes ahead ('will-quit'): no window is made again. */
  quitting(): void;
  /**
   * The Dock's icon was clicked ('activate'), or a file was handed over (macOS 'open-file', a second launch): a window
   * is made again, and returned, where none is, the first was made, the app outlives its window (quitsWithLastWindow)
   * and it is not quitting; else null.
   */
  reopen(): W | null;
}

export function createWindowSlot<W>(platform: NodeJS.Platform): WindowSlot<W> {
  let current: W | null = null;
  let shown = false;
  let make: ((again: boolean) => W) | null = null;
  let quitting = false;
  /** 'before-quit' came and no answer has cancelled that quit. */
  let quitAsked = false;
  /** The quit's close is held for the window's questions. */
  let quitHeld = false;
  const openWith = (m: (again: boolean) => W, again: boolean): W => {
    shown = false;
    current = m(again);
    return current;
  };
  return {
    current: () => current,
    shown: () => current !== null && shown,
    open(m) {
      make = m;
      return openWith(m, false);
    },
    markShown() {
      shown = true;
    },
    closed() {
      current = null;
      const resumeQuit = quitHeld && !quitsWithLastWindow(platform);
      quitHeld = false;
      return { resumeQuit };
    },
    quitAsked() {
      quitAsked = true;
    },
    closeHeld() {
      if (quitAsked) quitHeld = true;
    },
    closeKept() {
      quitAsked = false;
      quitHeld = false;
    },
    quitting() {
      quitting = true;
    },
    reopen() {
      if (current !== null || make === null || quitting || quitAsked || quitsWithLastWindow(platform)) return null;
      return openWith(make, true);
    },
  };
}

/** What a window's page starts on (startupPath) and is told at start, as the page asks for the app info. */
interface WindowStartup {
  /** The page asks for the app info (the first page of a window, or one reloaded after a crash or a hang). */
  pageAsks(): void;
  /** A window made again (macOS): it starts as a launch that named no file does. */
  windowMadeAgain(): void;
}

/**
 * A window's start-up motion: the one the command line named, else the first motion the OS handed over while no page
 * listened (macOS open-file as Finder launches the app, or after the window closed), else the sample. A page reloaded
 * later gets the files kept meanwhile as files to open, not a start-up motion. A window made again says what was
 * refused while none was open, not again what the first start said (its notice, its warnings).
 */
export function createWindowStartup(ctx: {
  /** The answer handlers give the page: changed here before each window's first page asks. */
  appInfo: Pick<AppInfo, 'samplePath' | 'startupPath' | 'startupNotice' | 'startupWarnings'>;
  /** The command line named the start-up motion (it is appInfo.startupPath already). */
  named: boolean;
  /** The first kept motion that passes the look on disk, granted (those refused are said, and taken out), or null. */
  takeKeptMotion: () => string | null;
  /** The refusals of files handed over while no window was open, taken. */
  takeRefusals: () => string[];
}): WindowStartup {
  const { appInfo } = ctx;
  /** The window's start-up motion may still come from the files kept: its first page has not asked yet. */
  let fromKept = !ctx.named;
  return {
    pageAsks() {
      if (!fromKept) return;
      fromKept = false;
      const motion = ctx.takeKeptMotion();
      if (motion) appInfo.startupPath = motion;
    },
    windowMadeAgain() {
      appInfo.startupPath = appInfo.samplePath;
      fromKept = true;
      delete appInfo.startupNotice;
      const refusals = ctx.takeRefusals();
      if (refusals.length > 0) appInfo.startupWarnings = refusals;
      else delete appInfo.startupWarnings;
    },
  };
}

/** The menu's commands for the page, as main hands them over. */
interface MenuDelivery<C> {
  /** A command of the menu's: sent to the page; held while its page loads; with no window, one is made for it. */
  send(command: C): void;
  /** A window was made: its page does not listen yet. */
  windowMade(): void;
  /** The window's page listens (it asked for the app info, or finished loading): the commands held go to it. */
  pageListens(): void;
  /** The window closed: the commands held for its page are dropped with it (the user closed it). */
  windowClosed(): void;
}

/**
 * The menu's commands for the page (File › Open…, Open Recent, …). Sent to the window's page once it listens (one
 * sent while it loads would reach no listener); on macOS, with no window, the menu stays up and its command makes the
 * window again (as the Dock's icon does) and goes to that window's page once it listens, after its start-up motion.
 * Where no window may be made (the quit goes ahead), the command is dropped.
 */
export function createMenuDelivery<C>(ctx: {
  /** Sends a command to the current window's page. */
  sendToPage: (command: C) => void;
  windows: Pick<WindowSlot<unknown>, 'current' | 'reopen'>;
}): MenuDelivery<C> {
  const held: C[] = [];
  let listening = false;
  return {
    send(command) {
      if (ctx.windows.current() === null && ctx.windows.reopen() === null) return;
      if (listening) ctx.sendToPage(command);
      else held.push(command);
    },
    windowMade() {
      listening = false;
    },
    pageListens() {
      listening = true;
      for (const command of held.splice(0)) ctx.sendToPage(command);
    },
    windowClosed() {
      listening = false;
      held.length = 0;
    },
  };
}
