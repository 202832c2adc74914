/**
 * A fake `electron` recording what main.ts sets up, for tests that load main.ts itself (main.test.ts, mainMac.test.ts):
 * `vi.mock('electron', () => import('./testing/fakeElectron').then((f) => f.fakeElectronModule()))`, then `fake.state`
 * holds what main did and how the stand-ins answer.
 */
import { resolve } from 'node:path';
import { afterAll, vi } from 'vitest';

function makeFake() {
  const state = {
    ipc: new Map<string, (event: unknown, arg: unknown) => unknown>(),
    appEvents: new Map<string, (...args: unknown[]) => void>(),
    protocolHandler: null as null | ((req: Request) => Promise<Response>),
    privileged: [] as unknown[],
    windows: [] as FakeWindow[],
    menus: [] as { template: MenuTemplate[] }[],
    sent: [] as { channel: string; payload: unknown }[],
    messageBoxes: [] as unknown[],
    /** For each of messageBoxes, whether it was shown with no parent window (`dialog.showMessageBox(options)`). */
    parentlessBoxes: [] as boolean[],
    messageBoxResponse: 1,
    /** While set, message boxes fail to show (their promise rejects). */
    failMessageBoxes: false,
    /** How many times main called app.quit. */
    quits: 0,
    /** While set, message boxes stay open until answered here (or taken down by their `signal`). */
    holdMessageBoxes: false,
    heldAnswers: [] as ((response: number) => void)[],
    /** While set, a reloaded page does not finish loading until the test says so ('did-finish-load'). */
    holdLoads: false,
    /** Files whose read fails as a deleted file's (ENOENT), for the modules that read through fakeFsPromises. */
    unreadableFiles: new Set<string>(),
    /** While set, a window's page fails to load (loadURL rejects with this message). */
    failLoads: null as string | null,
    /** While set, error boxes are kept in `errorBoxes` (else one throws: a test expects none). */
    keepErrorBoxes: false,
    errorBoxes: [] as { title: string; message: string }[],
    /** How many times main called app.exit. */
    exits: 0,
    /** What main showed in the file manager (shell.showItemInFolder). */
    shownInFolder: [] as string[],
    /** main.test.ts: how many times the text checker's worker was stopped (its stand-in's dispose). */
    textCheckerDisposed: 0,
    /** How many times main flushed the session's stored data (session.flushStorageData). */
    storageFlushes: 0,
    /** Paths the next native open dialogs answer with (the user's picks). */
    openDialogAnswers: [] as string[],
    sessionEvents: new Map<string, (event: { preventDefault(): void }) => void>(),
    permissionHandler: null as null | ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void),
    permissionCheck: null as null | ((wc: unknown, permission: string, origin: string) => boolean),
    userData: '',
    crashReporter: [] as unknown[],
    /** What app.setPath was given, by name. */
    paths: {} as Record<string, string>,
    /** The profile and crash-reporter calls, in order. */
    startOrder: [] as string[],
    /** app.enableSandbox and app.whenReady, in the order main called them. */
    readyOrder: [] as string[],
    /** The app events main listened to when it first waited for 'ready'. */
    heardBeforeReady: null as string[] | null,
    /** What main set the session's spell checker to (undefined: left as Electron starts it, on). */
    spellChecker: undefined as boolean | undefined,
    /** What main handed requestSingleInstanceLock: a second launch sends it to the first. */
    lockData: undefined as unknown,
    /** Builds stopped (the launcher below never finishes one by itself). */
    buildsStopped: 0,
    /** Export Alls stopped (main.test.ts's stand-in thread never finishes one by itself). */
    exportsStopped: 0,
    /** main.test.ts: the keep-awake main made (keepAwake.ts), to count its holds. */
    keepAwake: null as null | { readonly holds: number },
    /** main.test.ts: the keep-awake's holds as each stand-in Export All thread was first asked for its answer. */
    holdsDuringExport: [] as number[],
    /** The bundles main keeps idle threads of (oneShotWorker.ts keptWorkers), and how many times they were disposed. */
    keptWorkerPaths: [] as string[],
    buildWorkerDisposed: 0,
    /** The options of each compress client main made, and how many times one was disposed. */
    compressOptions: [] as unknown[],
    compressDisposed: 0,
    /** main.test.ts: while set, the compress client's dispose never ends (a worker that does not stop). */
    compressDisposeHangs: false,
    /** Whether 'window-all-closed' had a listener when the page began to load. */
    quitHandlerAtLoad: undefined as boolean | undefined,
    /** The power-save blockers started and not stopped, by id, with their type; and the ids handed out. */
    blockers: new Map<number, string>(),
    blockerIds: 0,
    /** How many blockers were on while an import's worker and an MSH export's worker ran (stand-ins below). */
    blockersDuringImport: [] as number[],
    blockersDuringMshExport: [] as number[],
    compressClient: null as null | { exportMsh: (req: never) => Promise<unknown> },
  };
  type MenuTemplate = {
    label?: string;
    role?: string;
    submenu?: MenuTemplate[];
    click?: () => void;
    type?: string;
    enabled?: boolean;
  };
  class FakeWindow {
    options: { webPreferences: Record<string, unknown> };
    events = new Map<string, (event: { preventDefault(): void; defaultPrevented?: boolean }) => void>();
    edited: boolean | undefined;
    mainFrame = { url: 'actguy://app/index.html' };
    webContentsEvents = new Map<string, (...args: unknown[]) => void>();
    reloads = 0;
    webContents = {
      mainFrame: this.mainFrame,
      send: (channel: string, payload: unknown) => state.sent.push({ channel, payload }),
      // As Electron's: a `once` listener is gone after its first call (a reloaded page loads again).
      once: (name: string, fn: () => void) =>
        this.webContentsEvents.set(name, () => {
          this.webContentsEvents.delete(name);
          fn();
        }),
      on: (name: string, fn: (...args: unknown[]) => void) => this.webContentsEvents.set(name, fn),
      // A reloaded page loads again by itself, unless a test holds the load to act while it reloads. It asks the app's
      // scheme for its page first; 'did-finish-load' does not wait for the answer (a real read, which changes nothing
      // main keeps, may take long on a loaded machine and would land in a later test), but a file a test took away
      // (fakeFsPromises) fails at once, before it.
      reload: () => {
        this.reloads++;
        if (state.holdLoads) return;
        void this.askScheme(this.mainFrame.url);
        setTimeout(() => this.webContentsEvents.get('did-finish-load')?.(), 0);
      },
    };
    /** As Electron's: a destroyed window's methods throw. */
    destroyed = false;
    isDestroyed() {
      return this.destroyed;
    }
    menuBarVisible: boolean | undefined;
    loadedUrl = '';
    closed = 0;
    constructor(options: FakeWindow['options']) {
      this.options = options;
      state.windows.push(this);
    }
    onceEvents = new Map<string, () => void>();
    maximized = false;
    once(name: string, fn: () => void) {
      this.onceEvents.set(name, fn);
    }
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    getNormalBounds() {
      const o = this.options as unknown as { x?: number; y?: number; width: number; height: number };
      return { x: o.x ?? 100, y: o.y ?? 20, width: o.width, height: o.height };
    }
    on(name: string, fn: (event: { preventDefault(): void }) => void) {
      this.events.set(name, fn);
    }
    /**
     * As Chromium's: a load asks the app's scheme for its page, then for the scripts the page names (`<script src>`),
     * and what the handler answers (a 404's "not found" too) loads as the page, with no 'did-fail-load'.
     */
    async askScheme(url: string) {
      if (!url.startsWith('actguy:') || !state.protocolHandler) return;
      const page = await state.protocolHandler(new Request(url));
      if (!page.ok) return;
      for (const [, src] of (await page.text()).matchAll(/<script\b[^>]*\ssrc="([^"]+)"/g))
        await state.protocolHandler(new Request(new URL(src, url).href));
    }
    async loadURL(url: string) {
      // As Electron's: 'did-fail-load' first, then the load's promise rejects.
      if (state.failLoads) {
        this.webContentsEvents.get('did-fail-load')?.({}, -6, state.failLoads, url, true);
        throw new Error(state.failLoads);
      }
      await this.askScheme(url);
      this.loadedUrl = url;
      state.quitHandlerAtLoad = state.appEvents.has('window-all-closed');
    }
    setDocumentEdited(edited: boolean) {
      this.edited = edited;
    }
    setMenuBarVisibility(visible: boolean) {
      this.menuBarVisible = visible;
    }
    /** Minimised to the Dock or the taskbar (a test sets it); restore() brings it back, as Electron's. */
    minimized = false;
    isMinimized() {
      return this.minimized;
    }
    restored = 0;
    restore() {
      this.minimized = false;
      this.restored++;
    }
    focused = 0;
    focus() {
      this.focused++;
    }
    title = '';
    setTitle(title: string) {
      this.title = title;
    }
    visible = false;
    isVisible() {
      return this.visible;
    }
    show() {
      this.visible = true;
    }
    close() {
      if (this.destroyed) throw new TypeError('Object has been destroyed');
      this.closed++;
    }
    /** As Electron's: closed with no 'close' event (no question), then 'closed'. */
    destroy() {
      this.destroyed = true;
      this.events.get('closed')?.({ preventDefault() {} });
    }
  }
  return { state, FakeWindow };
}

export const fake = makeFake();

/** The module main.ts imports as `electron`. */
export function fakeElectronModule() {
  return {
    app: {
      isPackaged: false,
      whenReady: () => {
        fake.state.readyOrder.push('whenReady');
        fake.state.heardBeforeReady ??= [...fake.state.appEvents.keys()];
        return Promise.resolve();
      },
      enableSandbox: () => fake.state.readyOrder.push('enableSandbox'),
      /** Ready once main has waited for it (the fake's whenReady answers at once). */
      isReady: () => fake.state.readyOrder.includes('whenReady'),
      getAppPath: () => resolve(__dirname, '..', '..'),
      getPath: () => fake.state.userData,
      setPath: (name: string, value: string) => {
        fake.state.startOrder.push(`setPath ${name}`);
        fake.state.paths[name] = value;
      },
      getVersion: () => '9.9.9',
      requestSingleInstanceLock: (additionalData?: unknown) => {
        fake.state.lockData = additionalData;
        return true;
      },
      on: (name: string, fn: (...args: unknown[]) => void) => fake.state.appEvents.set(name, fn),
      quit: () => {
        fake.state.quits++;
      },
      exit: () => {
        fake.state.exits++;
      },
    },
    powerSaveBlocker: {
      start: (type: string) => {
        fake.state.blockers.set(++fake.state.blockerIds, type);
        return fake.state.blockerIds;
      },
      stop: (id: number) => fake.state.blockers.delete(id),
    },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => fake.state.privileged.push(...s),
      handle: (_scheme: string, fn: (req: Request) => Promise<Response>) => {
        fake.state.protocolHandler = fn;
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof fake.state.permissionHandler) => {
          fake.state.permissionHandler = fn;
        },
        setPermissionCheckHandler: (fn: typeof fake.state.permissionCheck) => {
          fake.state.permissionCheck = fn;
        },
        on: (name: string, fn: (event: { preventDefault(): void }) => void) => fake.state.sessionEvents.set(name, fn),
        setSpellCheckerEnabled: (enabled: boolean) => {
          fake.state.spellChecker = enabled;
        },
        flushStorageData: () => {
          fake.state.storageFlushes++;
        },
      },
    },
    ipcMain: {
      // As Electron's: a second handler for one channel throws ("Attempted to register a second handler").
      handle: (channel: string, fn: (event: unknown, arg: unknown) => unknown) => {
        if (fake.state.ipc.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        fake.state.ipc.set(channel, fn);
      },
    },
    Menu: {
      setApplicationMenu: (m: { template: never[] }) => fake.state.menus.push(m),
      buildFromTemplate: (template: unknown[]) => ({ template }),
    },
    dialog: {
      // As Electron's: the window first, or only the options (a box with no parent).
      showMessageBox: async (...args: [unknown, { signal?: AbortSignal; cancelId?: number }] | [unknown]) => {
        const options = (args.length > 1 ? args[1] : args[0]) as { signal?: AbortSignal; cancelId?: number };
        fake.state.messageBoxes.push(options);
        fake.state.parentlessBoxes.push(args.length === 1);
        if (fake.state.failMessageBoxes) throw new Error('stand-in: the box could not be shown');
        if (!fake.state.holdMessageBoxes) return { response: fake.state.messageBoxResponse };
        // As Electron does: an aborted signal closes the box as if cancelled.
        return new Promise<{ response: number }>((done) => {
          fake.state.heldAnswers.push((response) => done({ response }));
          options.signal?.addEventListener('abort', () => done({ response: options.cancelId ?? 0 }));
        });
      },
      showOpenDialog: async () => {
        const path = fake.state.openDialogAnswers.shift();
        return path ? { canceled: false, filePaths: [path] } : { canceled: true, filePaths: [] };
      },
      showErrorBox: (title: string, message: string) => {
        if (!fake.state.keepErrorBoxes) throw new Error(`${title}: ${message}`);
        fake.state.errorBoxes.push({ title, message });
      },
    },
    BrowserWindow: fake.FakeWindow,
    shell: {
      showItemInFolder: (path: string) => fake.state.shownInFolder.push(path),
    },
    crashReporter: {
      start: (o: unknown) => {
        fake.state.crashReporter.push(o);
        fake.state.startOrder.push('crashReporter.start');
      },
    },
    // A 1366x768 laptop screen with a 40 px taskbar.
    screen: {
      getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1366, height: 728 } }],
      getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1366, height: 728 } }),
    },
  };
}

/**
 * `node:fs/promises` with a readFile that fails for the files in `fake.state.unreadableFiles` as for a file deleted
 * (ENOENT): `vi.mock('node:fs/promises', () => import('./testing/fakeElectron').then((f) => f.fakeFsPromises()))`.
 */
export async function fakeFsPromises() {
  const real = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
  const readFile = ((path: Parameters<typeof real.readFile>[0], ...rest: unknown[]) =>
    fake.state.unreadableFiles.has(String(path))
      ? Promise.reject(
          Object.assign(new Error(`ENOENT: no such file or directory, open '${String(path)}'`), { code: 'ENOENT' }),
        )
      : (real.readFile as (...a: unknown[]) => Promise<unknown>)(path, ...rest)) as typeof real.readFile;
  return { ...real, readFile, default: { ...real, readFile } };
}

/**
 * Loads main.ts under the fake (the test file mocks `electron` with fakeElectronModule), its profile
 * `fake.state.userData` and its command line `argv`, as a launch gives them; the environment and `process.argv` are
 * restored after. main's process-wide `unhandledRejection` and `uncaughtException` listeners are handed back to be
 * called, and taken off after the file (the test runner has its own).
 */
export async function loadMain(argv: string[]) {
  const userDataBefore = process.env.ACTGUY_USER_DATA_DIR;
  const argvBefore = process.argv;
  process.env.ACTGUY_USER_DATA_DIR = fake.state.userData;
  process.argv = [process.argv[0], ...argv];
  const processOn = vi.spyOn(process, 'on');
  try {
    const main = await import('../main');
    const listener = (event: string) =>
      processOn.mock.calls.find(([name]) => name === event)?.[1] as ((reason: unknown) => void) | undefined;
    const unhandledRejection = listener('unhandledRejection');
    const uncaughtException = listener('uncaughtException');
    afterAll(() => {
      if (unhandledRejection) process.off('unhandledRejection', unhandledRejection);
      if (uncaughtException) process.off('uncaughtException', uncaughtException);
    });
    return { main, unhandledRejection, uncaughtException };
  } finally {
    processOn.mockRestore();
    process.argv = argvBefore;
    if (userDataBefore === undefined) delete process.env.ACTGUY_USER_DATA_DIR;
    else process.env.ACTGUY_USER_DATA_DIR = userDataBefore;
  }
}
