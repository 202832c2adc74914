import {
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ACTGUY_INVOKE_MEMBERS } from '../shared/ipc/api';
import { DROPPED_FILE_CHANNEL, ipcInvokeChannel, MENU_COMMAND_CHANNEL } from '../shared/ipc/transport';
import { handedOverSeam as systemFilesSeam } from './systemFiles';
import { writesInFlight } from './writeTurns';

import { fake, loadMain } from './testing/fakeElectron';

vi.mock('electron', () => import('./testing/fakeElectron').then((f) => f.fakeElectronModule()));
// The renderer's files as main reads them: a test takes the page file away (fake.state.unreadableFiles).
vi.mock('node:fs/promises', () => import('./testing/fakeElectron').then((f) => f.fakeFsPromises()));

// The text-check worker is a built bundle; here the same check runs in-process, and the quit's stop of it is counted.
vi.mock('./project/textCheck', async (importOriginal) => {
  const { inProcessTextChecker } = await import('./project/textCheckJob');
  const { inProcessMotionChecker } = await import('./motionCheckJob');
  return {
    ...(await importOriginal<typeof import('./project/textCheck')>()),
    workerTextChecker: () => inProcessTextChecker,
    besideBundleCheckers: () => ({
      text: inProcessTextChecker,
      motion: inProcessMotionChecker,
      dispose: async () => {
        fake.state.textCheckerDisposed++;
      },
    }),
  };
});

// The compress client main makes, with the options it was given and its disposals counted.
vi.mock('./compressClient', async (importOriginal) => {
  const real = await importOriginal<typeof import('./compressClient')>();
  return {
    ...real,
    createCompressClient: (options: Parameters<typeof real.createCompressClient>[0]) => {
      fake.state.compressOptions.push(options);
      const client = real.createCompressClient(options);
      // The MSH export's worker: it notes whether the machine is kept awake while it runs, then fails.
      client.exportMsh = async () => {
        fake.state.blockersDuringMshExport.push(fake.state.blockers.size);
        throw new Error('stand-in MSH export');
      };
      fake.state.compressClient = client;
      const dispose = client.dispose.bind(client);
      client.dispose = () => {
        fake.state.compressDisposed++;
        return fake.state.compressDisposeHangs ? new Promise<void>(() => {}) : dispose();
      };
      return client;
    },
  };
});

// The keep-awake main makes, kept to count its holds (an Export All's: several blockers' holds share one blocker).
vi.mock('./keepAwake', async (importOriginal) => {
  const real = await importOriginal<typeof import('./keepAwake')>();
  return {
    ...real,
    createKeepAwake: (...args: Parameters<typeof real.createKeepAwake>) => {
      const keepAwake = real.createKeepAwake(...args);
      fake.state.keepAwake = keepAwake;
      return keepAwake;
    },
  };
});

// An import's worker: it notes whether the machine is kept awake while it runs, and fails.
vi.mock('./interchange/importRunner', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./interchange/importRunner')>()),
  workerImportRunner: () => async () => {
    fake.state.blockersDuringImport.push(fake.state.blockers.size);
    return { status: 'failed', message: 'stand-in import' };
  },
}));

// A build runs until it is stopped: the window can be closed while one is in flight.
vi.mock('./project/buildRunner', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./project/buildRunner')>()),
  workerLauncher: () =>
    Object.assign(
      () => () => {
        fake.state.buildsStopped++;
      },
      { dispose: async () => undefined, started: 0 },
    ),
}));

// The kept threads of worker bundles main makes (the build bundle's, for the Build and Export All), their disposals
// counted.
vi.mock('./oneShotWorker', async (importOriginal) => {
  const real = await importOriginal<typeof import('./oneShotWorker')>();
  return {
    ...real,
    keptWorkers: (workerPath: string, keepMs: number) => {
      fake.state.keptWorkerPaths.push(workerPath);
      const workers = real.keptWorkers(workerPath, keepMs);
      const dispose = workers.dispose;
      workers.dispose = () => {
        fake.state.buildWorkerDisposed++;
        return dispose();
      };
      return workers;
    },
    // An Export All's thread: a job that only plans answers one file in its folder (the desktop export then waits for
    // the page's answer); any other job works until it is cancelled, as the build's stand-in above does, so the window
    // can be closed while an export runs.
    keptWorkerTalks: () => ({
      start: (job: { planOnly?: boolean; req: { folder: string } }, options: { signal?: AbortSignal } = {}) => {
        const { signal } = options;
        const planned = {
          end: 'answer',
          value: { type: 'planned', outline: { writes: [join(job.req.folder, 'walk.res8')] }, reads: [], warnings: [] },
        };
        const cancelled = new Promise<{ end: 'cancelled' }>((resolve) => {
          if (job.planOnly) return;
          const stop = () => {
            fake.state.exportsStopped++;
            resolve({ end: 'cancelled' });
          };
          if (signal?.aborted) stop();
          else signal?.addEventListener('abort', stop, { once: true });
        });
        return {
          next: async () => {
            fake.state.holdsDuringExport.push(fake.state.keepAwake!.holds);
            return job.planOnly ? planned : cancelled;
          },
          send: () => undefined,
          close: () => undefined,
          release: () => undefined,
        };
      },
    }),
  };
});

fake.state.userData = mkdtempSync(join(tmpdir(), 'actguy-main-'));
// Left by a run on a big monitor that is no longer connected.
writeFileSync(
  join(fake.state.userData, 'window-state.json'),
  JSON.stringify({ x: 2400, y: 100, width: 1800, height: 1000, maximized: true }),
);
// The first launch's own command line (read from process.argv when main.ts loads): motions that are refused, a link,
// one not there and (as root, as CI runs) another user's. None opens at start-up; each is said once (round 30).
const firstLaunch = mkdtempSync(join(fake.state.userData, 'first-launch-'));
const firstLaunchArgs = {
  link: join(firstLaunch, 'link.mtn'),
  missing: join(firstLaunch, 'missing.mtn'),
  theirs: join(firstLaunch, 'theirs.mtn'),
};
copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), join(firstLaunch, 'mine.mtn'));
symlinkSync(join(firstLaunch, 'mine.mtn'), firstLaunchArgs.link);
copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), firstLaunchArgs.theirs);
const firstLaunchAsRoot = process.getuid?.() === 0;
if (firstLaunchAsRoot) chownSync(firstLaunchArgs.theirs, 65534, 65534);
// A profile of its own, as the e2e runs give each instance; main's unhandledRejection listener kept to be called here.
const {
  main: { compressWorkerPaths, loadPage },
  unhandledRejection,
  uncaughtException,
} = await loadMain([
  firstLaunchArgs.link,
  firstLaunchArgs.missing,
  ...(firstLaunchAsRoot ? [firstLaunchArgs.theirs] : []),
]);
await vi.waitFor(() => expect(fake.state.windows[0]?.loadedUrl).toBe('actguy://app/index.html'));
const win = fake.state.windows[0];
afterAll(() => rmSync(fake.state.userData, { recursive: true, force: true }));

/**
 * vi.waitFor for what waits on a real worker thread (an Export All's plan, a build's or export's stop before the close):
 * vi.waitFor's own 1 s is a bound a loaded machine passes while the thread is well (with the plan slowed 1.5 s on
 * purpose the Export All case failed there). Its limit here is the test's own, less the time to say which check was
 * still failing (docs/testing.md, "Tests under load, round 3").
 */
const threadSettles = (check: () => unknown) => vi.waitFor(check, { timeout: 25_000, interval: 10 });
const trustedEvent = { sender: win.webContents, senderFrame: win.mainFrame };

/*
 * The tests share one main process, loaded above, and run in this order in the file; each can also run alone
 * (`npx vitest run electron/main.test.ts -t NAME`, docs/testing.md "Tests under load, round 4"). What a test needs
 * that an earlier test of the file made happen (the first paint, the page listening, a project opened through its
 * dialog, a check running) it makes happen through the helpers below, each of which does so once per process, as the
 * earlier test did; a folder another test would write is looked at as possibly not there.
 */

/** The window's first paint (ready-to-show, which Electron emits once): the third test makes it and checks its effects. */
let painted = false;
function firstPaint(): void {
  if (painted) return;
  painted = true;
  win.onceEvents.get('ready-to-show')!();
}

/** The page has loaded and listens: the first test's page asked for the app info; a reloaded page's load says so too. */
function pageListens(): void {
  win.webContentsEvents.get('did-finish-load')!();
}

/**
 * The page has started and asked for the app info, as the first test's page does: the first ask takes a kept motion as
 * the start-up one, and files handed over later go to the page. A reloaded page asks again.
 */
async function pageStarted(): Promise<void> {
  await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(trustedEvent, undefined);
}

/** The crash records written so far (none, and no folder, until the first). */
const crashRecordNames = (): string[] => {
  const records = join(fake.state.userData, 'Crash Records');
  return existsSync(records) ? readdirSync(records) : [];
};

/**
 * The sample project copied to build-on-close/ and opened through the project dialog (which grants its files): the
 * build-on-close test does this and the Export All and failed-question tests build or export it.
 */
let buildOnClose: Promise<{ project: string; projectText: string }> | undefined;
function openBuildOnClose(): Promise<{ project: string; projectText: string }> {
  buildOnClose ??= (async () => {
    const dir = join(fake.state.userData, 'build-on-close');
    cpSync(resolve(__dirname, '..', 'assets'), dir, { recursive: true });
    const project = join(dir, 'sample.actguy.json');
    fake.state.openDialogAnswers.push(project);
    const opened = (await fake.state.ipc.get(ipcInvokeChannel('openProjectDialog'))!(trustedEvent, undefined)) as {
      value: { project: { text: string } };
    };
    return { project, projectText: opened.value.project.text };
  })();
  return buildOnClose;
}

/**
 * A check (a dry-run build) of build-on-close, started once: its stand-in worker never ends by itself, so it holds
 * the machine awake until the app quits (the build-on-close test starts it, the last test quits).
 */
let checkStarted: Promise<unknown> | undefined;
function startCheck(): Promise<unknown> {
  checkStarted ??= openBuildOnClose().then(({ project, projectText }) =>
    fake.state.ipc.get(ipcInvokeChannel('startBuild'))!(trustedEvent, {
      projectPath: project,
      projectText,
      dryRun: true,
    }),
  );
  return checkStarted;
}

describe('electron main', () => {
  // First: nothing has asked for the app info yet, as at a real start-up.
  it('keeps files the OS hands over before the page listens, then opens them: a motion at start-up, the rest after it', async () => {
    const dir = mkdtempSync(join(fake.state.userData, 'os-'));
    for (const f of ['walk.mtn', 'walk.sev', 'sample.actguy.json'])
      copyFileSync(resolve(__dirname, '..', 'assets', f), join(dir, f));
    copyFileSync(join(dir, 'walk.mtn'), join(dir, 'late.mtn'));
    const sentBefore = fake.state.sent.length;
    // macOS open-file after ready (the window exists, its page has not subscribed yet), and a second launch during start-up.
    const prevent = vi.fn();
    fake.state.appEvents.get('open-file')!({ preventDefault: prevent }, join(dir, 'late.mtn'));
    expect(prevent).toHaveBeenCalled();
    fake.state.appEvents.get('second-instance')!(
      {},
      ['/usr/bin/actguy', join(dir, 'walk.sev'), join(dir, 'notes.txt')],
      '/',
    );
    fake.state.appEvents.get('open-file')!({ preventDefault: vi.fn() }, join(dir, 'sample.actguy.json'));
    expect(fake.state.sent.length).toBe(sentBefore);
    // Before its first paint the window stays hidden: ready-to-show shows and focuses it (round 16 left this open).
    expect(fake.state.windows[0].focused).toBe(0);

    const boxesBefore = fake.state.messageBoxes.length;
    const info = (await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(trustedEvent, undefined)) as {
      value: { startupPath: string; startupWarnings?: string[] };
    };
    expect(info.value.startupPath).toBe(join(dir, 'late.mtn'));
    // Round 30: the first launch's refused motions are said once, among the start-up warnings, and are not kept to be
    // looked at and said again in a box once the page listens (mutation that fails: firstLaunchFiles keeping them).
    expect(info.value.startupWarnings).toEqual([
      `${firstLaunchArgs.link}: it is a symbolic link to ${join(firstLaunch, 'mine.mtn')}; open that file itself. Nothing was opened.`,
      `${firstLaunchArgs.missing}: it is not there (no such file or directory). Nothing was opened.`,
      ...(firstLaunchAsRoot
        ? [
            `${firstLaunchArgs.theirs}: it belongs to another user (user id 65534); copy it to a folder of yours to open it. Nothing was opened.`,
          ]
        : []),
    ]);
    expect(fake.state.messageBoxes.length).toBe(boxesBefore);
    const openFirst = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    for (const path of [...Object.values(firstLaunchArgs), join(firstLaunch, 'mine.mtn')])
      expect(await openFirst(trustedEvent, { path })).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/refused/) },
      });
    expect(fake.state.sent.slice(sentBefore)).toEqual([
      // The .sev opens in the project beside it that lists it.
      {
        channel: MENU_COMMAND_CHANNEL,
        payload: {
          command: 'file.openFromSystem',
          path: join(dir, 'walk.sev'),
          projectPath: join(dir, 'sample.actguy.json'),
        },
      },
      {
        channel: MENU_COMMAND_CHANNEL,
        payload: { command: 'file.openFromSystem', path: join(dir, 'sample.actguy.json') },
      },
    ]);
    const open = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    expect(await open(trustedEvent, { path: join(dir, 'late.mtn') })).toMatchObject({
      ok: true,
      value: { status: 'opened' },
    });
    // Once the page listens, a file goes straight through.
    fake.state.appEvents.get('open-file')!({ preventDefault: vi.fn() }, join(dir, 'walk.mtn'));
    expect(fake.state.sent.at(-1)).toEqual({
      channel: MENU_COMMAND_CHANNEL,
      payload: { command: 'file.openFromSystem', path: join(dir, 'walk.mtn') },
    });
  });

  it("listens for macOS open-file before 'ready' (a double-click that launches the app sends it then), and for the rest", () => {
    // Electron emits open-file as the app launches, before 'ready': a listener added after it misses that file.
    expect(fake.state.heardBeforeReady).toEqual(expect.arrayContaining(['open-file', 'web-contents-created']));
    for (const event of ['second-instance', 'will-quit', 'window-all-closed', 'child-process-gone'])
      expect(fake.state.appEvents.has(event)).toBe(true);
  });

  it('on Windows and Linux the native menu bar is hidden (the page draws the menu bar); the page load also releases kept files', () => {
    expect(win.menuBarVisible).toBe(process.platform === 'darwin' ? undefined : false);
    expect(win.webContentsEvents.has('did-finish-load')).toBe(true);
  });

  it('opens the window within the screen it is on (a saved position on an unplugged monitor is dropped), maximised as it was left', () => {
    const o = win.options as unknown as {
      x?: number;
      width: number;
      height: number;
      minWidth: number;
      minHeight: number;
    };
    expect(o.x).toBeUndefined();
    expect([o.width, o.height]).toEqual([1366, 728]);
    expect(o.minWidth).toBeLessThanOrEqual(1366);
    expect(o.minHeight).toBeLessThanOrEqual(728);
    firstPaint();
    expect(win.maximized).toBe(true);
    // Shown: a second launch now brings the window to the front.
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy'], '/');
    expect(win.focused).toBe(1);
  });

  it('quits when the window is closed while the page loads, and that closing is not a failed start', async () => {
    expect(fake.state.quitHandlerAtLoad).toBe(true);
    const aborted = Object.assign(new Error('ERR_ABORTED (-3) loading actguy://app/index.html'), {
      code: 'ERR_ABORTED',
    });
    const loading = (destroyed: boolean) => ({ loadURL: () => Promise.reject(aborted), isDestroyed: () => destroyed });
    await expect(loadPage(loading(true), 'actguy://app/index.html')).resolves.toBeUndefined();
    await expect(loadPage(loading(false), 'actguy://app/index.html')).rejects.toThrow('ERR_ABORTED');
  });

  it("registers one IPC handler per invoke member, the preload's dropped-file channel and no other channel", () => {
    expect([...fake.state.ipc.keys()].sort()).toEqual(
      [...ACTGUY_INVOKE_MEMBERS.map(ipcInvokeChannel), DROPPED_FILE_CHANNEL].sort(),
    );
  });

  it('opens a sandboxed, context-isolated window without Node, with the preload; every renderer is sandboxed', () => {
    // app.enableSandbox() counts only before 'ready': called when main loads, before start() waits for ready.
    expect(fake.state.readyOrder).toEqual(['enableSandbox', 'whenReady']);
    const prefs = win.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
  });

  it('answers the app window and refuses any other sender', async () => {
    const info = (await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(trustedEvent, undefined)) as {
      ok: boolean;
      value: { transport: string; nativeDialogs: boolean; version: string };
    };
    expect(info).toMatchObject({ ok: true, value: { transport: 'electron', nativeDialogs: true, version: '9.9.9' } });
    const foreignFrame = { url: 'https://evil.example/' };
    const refused = await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(
      { sender: win.webContents, senderFrame: foreignFrame },
      undefined,
    );
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/refused/) } });
    const other = await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(
      { sender: {}, senderFrame: win.mainFrame },
      undefined,
    );
    expect(other).toMatchObject({ ok: false });
    // A path the user never chose is refused over IPC too.
    const open = await fake.state.ipc.get(ipcInvokeChannel('openMotion'))!(trustedEvent, { path: '/etc/passwd.mtn' });
    expect(open).toMatchObject({ ok: false, error: { message: expect.stringMatching(/refused to access/) } });
  });

  it('denies new windows, navigation, webviews, permission requests and downloads', () => {
    const handlers = new Map<string, (e: { preventDefault(): void }) => void>();
    let openHandler: (() => { action: string }) | null = null;
    fake.state.appEvents.get('web-contents-created')!(
      {},
      {
        setWindowOpenHandler: (fn: () => { action: string }) => (openHandler = fn),
        on: (name: string, fn: (e: { preventDefault(): void }) => void) => handlers.set(name, fn),
      },
    );
    expect(openHandler!()).toEqual({ action: 'deny' });
    // will-prevent-unload: a page's cancelling beforeunload never holds the window (main asks about unsaved work).
    // will-frame-navigate: a sub-frame's navigation too (round 20; will-navigate is the main frame's only).
    for (const name of [
      'will-navigate',
      'will-frame-navigate',
      'will-redirect',
      'will-attach-webview',
      'will-prevent-unload',
    ]) {
      const prevent = vi.fn();
      handlers.get(name)!({ preventDefault: prevent });
      expect(prevent, name).toHaveBeenCalled();
    }
    const decisions: boolean[] = [];
    fake.state.permissionHandler!({}, 'media', (ok) => decisions.push(ok));
    expect(decisions).toEqual([false]);
    // The synchronous checks (navigator.permissions, the clipboard, HID/serial/USB) are answered no as well, the app's
    // own origin included.
    for (const permission of ['clipboard-read', 'media', 'hid', 'notifications'])
      expect(fake.state.permissionCheck!({}, permission, 'actguy://app'), permission).toBe(false);
    // A download the page starts (no navigation: `<a download>` on a blob) is cancelled before any dialog.
    // No spell checker: nothing for Electron to fetch dictionaries for.
    expect(fake.state.spellChecker).toBe(false);
    const download = { preventDefault: vi.fn() };
    fake.state.sessionEvents.get('will-download')!(download);
    expect(download.preventDefault).toHaveBeenCalled();
    expect(fake.state.privileged).toEqual([
      { scheme: 'actguy', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
    ]);
  });

  it('serves the renderer folder with the CSP header and nothing outside it', async () => {
    const page = await fake.state.protocolHandler!(new Request('actguy://app/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("object-src 'none'");
    // The URL parser resolves `%2e%2e/` before the handler sees it; an encoded slash reaches the folder check.
    expect((await fake.state.protocolHandler!(new Request('actguy://app/..%2fpackage.json'))).status).toBe(404);
    expect((await fake.state.protocolHandler!(new Request('actguy://app/..%2f..%2fpackage.json'))).status).toBe(404);
    expect((await fake.state.protocolHandler!(new Request('actguy://app/%2e%2e/package.json'))).status).toBe(404);
    expect((await fake.state.protocolHandler!(new Request('actguy://other/index.html'))).status).toBe(404);
    // A malformed escape is a missing file, answered (it rejected the handler's promise).
    for (const bad of ['actguy://app/%E0%A4%A', 'actguy://app/%', 'actguy://app/a%zz.js'])
      expect((await fake.state.protocolHandler!(new Request(bad))).status, bad).toBe(404);
  });

  it('builds a menu whose items send commands to the renderer', () => {
    pageListens();
    const menu = fake.state.menus.at(-1)!.template;
    const file = menu.find((m) => m.label === 'File')!.submenu!;
    const labels = file.map((i) => i.label).filter(Boolean);
    const mine = ['Open…', 'Open Recent', 'Save', 'Save As…', 'Export .mt3…'];
    expect(labels.filter((l) => mine.includes(l!))).toEqual(mine);
    expect(labels.at(-1)).toBe('Exit');
    // Only items that work: every item does something (a click, a role, a submenu) or is a disabled note.
    const dead: string[] = [];
    const walk = (items: typeof menu) =>
      items.forEach((i) => {
        if (i.type === 'separator') return;
        if (i.submenu) walk(i.submenu);
        else if (!i.click && !i.role && i.enabled !== false) dead.push(String(i.label));
      });
    walk(menu);
    expect(dead).toEqual([]);
    file.find((i) => i.label === 'Save')!.click!();
    const edit = menu.find((m) => m.label === 'Edit')!.submenu!;
    edit.find((i) => i.label === 'Undo')!.click!();
    expect(fake.state.sent.slice(-2)).toEqual([
      { channel: MENU_COMMAND_CHANNEL, payload: { command: 'file.save' } },
      { channel: MENU_COMMAND_CHANNEL, payload: { command: 'edit.undo' } },
    ]);
    const top = menu.map((m) => m.label);
    expect(top.filter((l) => ['File', 'Edit', 'View', 'Playback', 'Help'].includes(l!))).toEqual([
      'File',
      'Edit',
      'View',
      'Playback',
      'Help',
    ]);
    expect(top.at(-1)).toBe('Help');
  });

  it('a crashed page: a local crash record naming what was unsaved, then the offer to reload (no uploads)', async () => {
    expect(fake.state.crashReporter).toEqual([{ uploadToServer: false }]);
    // The minidumps go to the profile the instance was given: its folder is fixed when the reporter starts. It is set
    // explicitly to <userData>/Crashpad, the folder docs/install.md names (Electron's default differs by platform).
    expect(fake.state.startOrder).toEqual(['setPath userData', 'setPath crashDumps', 'crashReporter.start']);
    expect(fake.state.paths.crashDumps).toBe(join(fake.state.userData, 'Crashpad'));
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, {
      documentId: 'd',
      documentName: 'walk',
      dirty: true,
      unsaved: ['walk.mtn', 'walk.sev'],
    });
    const asked = fake.state.messageBoxes.length;
    fake.state.messageBoxResponse = 0; // Reload
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'crashed', exitCode: 139 });
    await vi.waitFor(() => expect(win.reloads).toBe(1));
    const records = join(fake.state.userData, 'Crash Records');
    const [name] = readdirSync(records);
    const record = JSON.parse(readFileSync(join(records, name), 'utf8'));
    expect(record).toMatchObject({
      event: 'render-process-gone',
      reason: 'crashed',
      exitCode: 139,
      appVersion: '9.9.9',
      documentName: 'walk',
      unsaved: ['walk.mtn', 'walk.sev'],
    });
    const question = fake.state.messageBoxes[asked] as { buttons: string[]; detail: string };
    expect(question.buttons).toEqual(['Reload', 'Quit']);
    expect(question.detail).toContain(join(records, name));
    expect(question.detail).toContain('walk.mtn, walk.sev');
    // The reloaded page starts clean: closing does not ask about edits that went with the crash.
    expect(win.edited).toBe(false);
    const close = { preventDefault: vi.fn() };
    win.events.get('close')!(close);
    expect(close.preventDefault).not.toHaveBeenCalled();
    // A page closing itself is no crash.
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'clean-exit', exitCode: 0 });
    expect(readdirSync(records)).toHaveLength(1);
  });

  // Round 11 (maintainer's read). Mutation that fails: no 'preload-error' listener (the page said only that it could
  // not reach its main process, with no reason, and the terminal said nothing).
  it('a preload that fails is said in the terminal and in a box over the window, with its reason', async () => {
    const asked = fake.state.messageBoxes.length;
    const said = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      win.webContentsEvents.get('preload-error')!(
        {},
        '/opt/ActGuy/resources/app.asar/dist/electron/preload.cjs',
        new Error('Unexpected token'),
      );
      await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
      expect(fake.state.messageBoxes[asked]).toMatchObject({
        type: 'error',
        message: 'ActGuy did not start properly: its window cannot reach the app.',
        detail: expect.stringMatching(
          /^preload\.cjs could not run: Unexpected token\n\nNothing can be opened or saved/,
        ),
      });
      expect(said).toHaveBeenCalledWith(expect.stringMatching(/preload .*preload\.cjs failed: Unexpected token$/));
    } finally {
      said.mockRestore();
    }
  });

  it('a hung page: waiting (the default) keeps its unsaved edits; reloading is offered, saying what it discards', async () => {
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    const asked = fake.state.messageBoxes.length;
    const reloads = win.reloads;
    fake.state.messageBoxResponse = 0; // Wait
    (win.events.get('unresponsive') as () => void)();
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
    const question = fake.state.messageBoxes[asked] as { buttons: string[]; detail: string; defaultId: number };
    expect(question.buttons[question.defaultId]).toBe('Wait');
    expect(question.detail).toMatch(/reloading discards the unsaved changes to walk\.mtn/);
    await new Promise((r) => setTimeout(r, 0));
    expect(win.reloads).toBe(reloads); // none more (the whole file: still the one from the crash)
    const close = { preventDefault: vi.fn() };
    fake.state.messageBoxResponse = 2; // Cancel the close question: the edits are still there to ask about
    win.events.get('close')!(close);
    expect(close.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 2));
  });

  it('a hung page that then crashes gets the crash question and its record: "Wait" would leave a dead page', async () => {
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    const crashRecords = () => crashRecordNames().filter((n) => n.endsWith('-render-process-gone.json')).length;
    const crashesBefore = crashRecords();
    const reloads = win.reloads;
    fake.state.holdMessageBoxes = true;
    fake.state.heldAnswers.length = 0;
    const asked = fake.state.messageBoxes.length;
    (win.events.get('unresponsive') as () => void)();
    expect(fake.state.messageBoxes).toHaveLength(asked + 1);
    const hang = fake.state.messageBoxes[asked] as { message: string; signal: AbortSignal };
    expect(hang.message).toBe('The ActGuy window is not responding.');
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'crashed', exitCode: 139 });
    // The hang's question is taken down and the crash's asked, with a record of the crash.
    expect(hang.signal.aborted).toBe(true);
    expect(fake.state.messageBoxes).toHaveLength(asked + 2);
    expect(fake.state.messageBoxes[asked + 1]).toMatchObject({
      message: 'The ActGuy window crashed.',
      buttons: ['Reload', 'Quit'],
    });
    expect(crashRecords()).toBe(crashesBefore + 1);
    // The taken-down question answers "Wait" as it closes: that answer is nobody's and does nothing.
    await new Promise((r) => setTimeout(r, 0));
    (win.events.get('unresponsive') as () => void)();
    expect(fake.state.messageBoxes).toHaveLength(asked + 2);
    fake.state.heldAnswers[1](0); // Reload
    await vi.waitFor(() => expect(win.reloads).toBe(reloads + 1));
    fake.state.holdMessageBoxes = false;
  });

  it('a page that hangs or crashes before its first paint (no ready-to-show) is shown with its question', async () => {
    fake.state.holdMessageBoxes = true;
    fake.state.heldAnswers.length = 0;
    win.visible = false;
    (win.events.get('unresponsive') as () => void)();
    expect(win.visible).toBe(true);
    fake.state.heldAnswers[0](0); // Wait
    await new Promise((r) => setTimeout(r, 0));
    win.visible = false;
    fake.state.messageBoxResponse = 0;
    fake.state.holdMessageBoxes = false;
    const reloads = win.reloads;
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'crashed', exitCode: 139 });
    expect(win.visible).toBe(true);
    await vi.waitFor(() => expect(win.reloads).toBe(reloads + 1)); // Reload
  });

  it('a hung page that answers again takes its question down by itself; a later hang asks again', async () => {
    fake.state.holdMessageBoxes = true;
    fake.state.heldAnswers.length = 0;
    const reloads = win.reloads;
    const asked = fake.state.messageBoxes.length;
    (win.events.get('unresponsive') as () => void)();
    const hang = fake.state.messageBoxes[asked] as { signal: AbortSignal };
    expect(hang.signal.aborted).toBe(false);
    (win.events.get('responsive') as () => void)();
    expect(hang.signal.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(win.reloads).toBe(reloads);
    (win.events.get('unresponsive') as () => void)();
    expect(fake.state.messageBoxes).toHaveLength(asked + 2);
    fake.state.heldAnswers[1](0); // Wait
    await new Promise((r) => setTimeout(r, 0));
    expect(win.reloads).toBe(reloads);
    fake.state.holdMessageBoxes = false;
  });

  it('a file the OS hands over while the page is crashed or reloading waits for the reloaded page, then opens', async () => {
    await pageStarted();
    const dir = mkdtempSync(join(fake.state.userData, 'gone-'));
    for (const f of ['crashed.mtn', 'reloading.mtn', 'hung.mtn'])
      copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), join(dir, f));
    const opened = (since: number) =>
      fake.state.sent
        .slice(since)
        .filter((s) => s.channel === MENU_COMMAND_CHANNEL)
        .map((s) => (s.payload as { path?: string }).path);
    fake.state.holdMessageBoxes = true;
    fake.state.heldAnswers.length = 0;
    fake.state.holdLoads = true;
    const sentBefore = fake.state.sent.length;
    const reloads = win.reloads;
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'crashed', exitCode: 139 });
    // A double-click while the crash question is up: the dead page cannot open it.
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', join(dir, 'crashed.mtn')], '/');
    expect(opened(sentBefore)).toEqual([]);
    fake.state.heldAnswers[0](0); // Reload
    await vi.waitFor(() => expect(win.reloads).toBe(reloads + 1));
    fake.state.appEvents.get('open-file')!({ preventDefault: vi.fn() }, join(dir, 'reloading.mtn'));
    expect(opened(sentBefore)).toEqual([]);
    // The reloaded page has loaded: both files open, in the order they came.
    win.webContentsEvents.get('did-finish-load')!();
    expect(opened(sentBefore)).toEqual([join(dir, 'crashed.mtn'), join(dir, 'reloading.mtn')]);

    // A hung page the user reloads: a file handed over while it reloads waits for it too.
    const hungBefore = fake.state.sent.length;
    (win.events.get('unresponsive') as () => void)();
    fake.state.heldAnswers[1](1); // Reload
    await vi.waitFor(() => expect(win.reloads).toBe(reloads + 2));
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', join(dir, 'hung.mtn')], '/');
    expect(opened(hungBefore)).toEqual([]);
    // The reloaded page asks for the app info as it starts: it listens now.
    await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(trustedEvent, undefined);
    expect(opened(hungBefore)).toEqual([join(dir, 'hung.mtn')]);
    fake.state.holdLoads = false;
    fake.state.holdMessageBoxes = false;
  });

  it('a second close while the close question is on screen (Cmd+Q, the taskbar) asks nothing more', async () => {
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    fake.state.holdMessageBoxes = true;
    fake.state.heldAnswers.length = 0;
    const asked = fake.state.messageBoxes.length;
    const first = { preventDefault: vi.fn() };
    const second = { preventDefault: vi.fn() };
    win.events.get('close')!(first);
    win.events.get('close')!(second);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(second.preventDefault).toHaveBeenCalled();
    expect(fake.state.messageBoxes).toHaveLength(asked + 1);
    fake.state.heldAnswers[0](2); // Cancel
    await new Promise((r) => setTimeout(r, 0));
    // Answered, the question is asked again at the next close.
    win.events.get('close')!({ preventDefault: vi.fn() });
    expect(fake.state.messageBoxes).toHaveLength(asked + 2);
    fake.state.heldAnswers[1](2); // Cancel
    await new Promise((r) => setTimeout(r, 0));
    expect(win.closed).toBe(0);
    fake.state.holdMessageBoxes = false;
  });

  // Mutations that fail: the close question's promise without its catch (closeAsked stays set: no close ever asks
  // again), and the catch not clearing closeAsked.
  it('a close question that fails to show leaves the window open with its edits, says why, and the next close asks again', async () => {
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    const asked = fake.state.messageBoxes.length;
    const closed = win.closed;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.state.failMessageBoxes = true;
    const first = { preventDefault: vi.fn() };
    win.events.get('close')!(first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/the unsaved-changes question could not be shown/)),
    );
    fake.state.failMessageBoxes = false;
    stderr.mockRestore();
    fake.state.messageBoxResponse = 2; // Cancel
    win.events.get('close')!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 2));
    expect(fake.state.messageBoxes[asked + 1]).toMatchObject({ title: 'Unsaved changes' });
    await new Promise((r) => setTimeout(r, 0));
    expect(win.closed).toBe(closed);
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });
  });

  it("the close question offers Save like the page's own: the page saves everything and closes the window itself", async () => {
    pageListens();
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    await report(trustedEvent, {
      documentId: 'd',
      documentName: 'walk',
      dirty: true,
      unsaved: ['walk.mtn', 'the project'],
    });
    const asked = fake.state.messageBoxes.length;
    fake.state.messageBoxResponse = 0; // Save all
    win.events.get('close')!({ preventDefault: vi.fn() });
    await vi.waitFor(() =>
      expect(fake.state.sent.at(-1)).toEqual({
        channel: MENU_COMMAND_CHANNEL,
        payload: { command: 'app.saveAllAndClose' },
      }),
    );
    expect(fake.state.messageBoxes[asked]).toMatchObject({
      buttons: ['Save all', 'Discard changes', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
    });
    expect(win.closed).toBe(0);
    // The page reports it is clean, then closes the window: no second question.
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });
    const close = { preventDefault: vi.fn() };
    win.events.get('close')!(close);
    expect(close.preventDefault).not.toHaveBeenCalled();
  });

  // Round 16. Mutation that fails: handlers.ts reportDocumentState passing documentName (and the unsaved names) on as
  // the page sent them, unescaped and unbounded.
  it("shows the page's document names in the title and the close question with hidden characters escaped, bounded", async () => {
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    const spoof = 'walk\u202Egpj.mtn';
    await report(trustedEvent, {
      documentId: 'd',
      documentName: spoof + 'x'.repeat(100_000),
      dirty: true,
      unsaved: [spoof],
    });
    expect(win.title).not.toContain('\u202E');
    expect(win.title).toContain('walk\\u202egpj.mtn');
    expect(win.title.length).toBeLessThan(300);
    const asked = fake.state.messageBoxes.length;
    const closedBefore = win.closed;
    fake.state.messageBoxResponse = 2; // Cancel
    win.events.get('close')!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
    const { message } = fake.state.messageBoxes[asked] as { message: string };
    expect(message).not.toContain('\u202E');
    expect(message).toContain('walk\\u202egpj.mtn');
    expect(win.closed).toBe(closedBefore);
    await report(trustedEvent, { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });
  });

  it('asks before closing with unsaved edits, and closes only after "Discard"', async () => {
    const close = win.events.get('close')!;
    const clean = { preventDefault: vi.fn() };
    close(clean);
    expect(clean.preventDefault).not.toHaveBeenCalled();
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(trustedEvent, {
      documentId: 'd',
      documentName: 'walk',
      dirty: true,
    });
    const dirty = { preventDefault: vi.fn() };
    const asked = fake.state.messageBoxes.length;
    fake.state.messageBoxResponse = 2; // Cancel
    close(dirty);
    expect(dirty.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
    expect(win.closed).toBe(0);
    fake.state.messageBoxResponse = 1; // Discard changes
    close({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(win.closed).toBe(1));
    expect(fake.state.messageBoxes[asked + 1]).toMatchObject({ message: 'walk has unsaved changes.' });
  });

  it("keeps the window's size, position and maximised state when it closes", () => {
    win.maximized = false;
    win.events.get('close')!({ preventDefault: vi.fn() });
    expect(JSON.parse(readFileSync(join(fake.state.userData, 'window-state.json'), 'utf8'))).toEqual({
      x: 100,
      y: 20,
      width: 1366,
      height: 728,
      maximized: false,
    });
  });

  it('a file given to a second launch becomes allowed and is sent to the renderer to open', async () => {
    firstPaint();
    pageListens();
    const file = join(fake.state.userData, 'dropped.mtn');
    copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), file);
    const open = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    expect(await open(trustedEvent, { path: file })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused/) },
    });
    const focused = win.focused;
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', '--some-switch', file], '/');
    // Shown by now: a second launch brings it to the front.
    expect(win.focused).toBe(focused + 1);
    expect(fake.state.sent.at(-1)).toEqual({
      channel: MENU_COMMAND_CHANNEL,
      payload: { command: 'file.openFromSystem', path: file },
    });
    expect(await open(trustedEvent, { path: file })).toMatchObject({ ok: true, value: { status: 'opened' } });
  });

  // Electron's second-instance argv is Chromium's parse of it again: switches moved before the other arguments. The
  // second launch's own argv and folder travel as the lock's additional data, and they are what is read.
  // Mutations that fail: the lock taken without the data; second-instance reading Electron's argv.
  it("a second launch's files are read from the command line it sent, not Electron's reordered argv", () => {
    // The first launch's own argv (main read it when it loaded) and folder.
    expect(fake.state.lockData).toEqual({ argv: expect.arrayContaining([firstLaunchArgs.link]), cwd: process.cwd() });
    const dir = mkdtempSync(join(fake.state.userData, 'reordered-'));
    copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), join(dir, 'first.mtn'));
    // The page listens (as it does by now when the whole file runs).
    win.webContentsEvents.get('did-finish-load')!();
    const sentBefore = fake.state.sent.length;
    // `actguy first.mtn --workspace /ws`, started in `dir`, as Chromium hands it over and as the launch sent it.
    fake.state.appEvents.get('second-instance')!(
      {},
      ['/usr/bin/actguy', '--workspace', 'first.mtn', '/ws', '--original-process-start-time=1'],
      dir,
      { argv: ['/usr/bin/actguy', 'first.mtn', '--workspace', '/ws'], cwd: dir },
    );
    expect(fake.state.sent.slice(sentBefore)).toEqual([
      { channel: MENU_COMMAND_CHANNEL, payload: { command: 'file.openFromSystem', path: join(dir, 'first.mtn') } },
    ]);
  });

  // Round 29. A file from the command line (a second launch; the first launch's and macOS open-file go the same way)
  // was granted without a look on disk, unlike a drop. Now it is looked at before any grant and refused saying why.
  // Mutation that fails: deliverSystemFile without refusedHandedOver (each is granted and sent to the page).
  it("a file a second launch hands over is looked at first: not there, a link or another user's is refused, saying why", async () => {
    pageListens();
    const dir = mkdtempSync(join(fake.state.userData, 'handed-'));
    const mine = join(dir, 'mine.mtn');
    copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), mine);
    const link = join(dir, 'link.mtn');
    symlinkSync(mine, link);
    const theirs = join(dir, 'theirs.mtn');
    copyFileSync(mine, theirs);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(theirs, 65534, 65534);
    const missing = join(dir, 'missing.mtn');
    const open = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    const cases: [string, RegExp][] = [
      [missing, /missing\.mtn: it is not there \(no such file or directory\)\. Nothing was opened\./],
      [link, /link\.mtn: it is a symbolic link to .*mine\.mtn; open that file itself\. Nothing was opened\./],
      ...(asRoot ? [[theirs, /theirs\.mtn: it belongs to another user \(user id 65534\)/] as [string, RegExp]] : []),
    ];
    for (const [file, why] of cases) {
      const sent = fake.state.sent.length;
      const boxes = fake.state.messageBoxes.length;
      fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', file], '/');
      expect(fake.state.sent.length).toBe(sent);
      expect(fake.state.messageBoxes.slice(boxes)).toEqual([
        expect.objectContaining({ detail: expect.stringMatching(why) }),
      ]);
      expect(await open(trustedEvent, { path: file })).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/refused/) },
      });
    }
    // The link's target was not granted through it either; named itself, it is.
    expect(await open(trustedEvent, { path: mine })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused/) },
    });
    fake.state.appEvents.get('open-file')!({ preventDefault: vi.fn() }, mine);
    expect(fake.state.sent.at(-1)).toEqual({
      channel: MENU_COMMAND_CHANNEL,
      payload: { command: 'file.openFromSystem', path: mine },
    });
    expect(await open(trustedEvent, { path: mine })).toMatchObject({ ok: true, value: { status: 'opened' } });
  });

  /** The box that says a file of a kind ActGuy does not open was not opened. */
  const notOpenedBox = (path: string) =>
    expect.objectContaining({
      message: 'A file handed to ActGuy was not opened',
      detail:
        `${path}: ActGuy opens motions (.mtn, .mt3, .mar), sound-event files (.sev) and projects (.actguy.json), ` +
        'not this kind of file. Nothing was opened.',
    });

  // Round 41, continued: Finder's "Open With" hands over any file; one of a kind ActGuy does not open was dropped
  // without a word. Mutation that fails: open-file without sayNotOpened (no box, as before).
  it('a macOS open-file of a kind ActGuy does not open is said as a refused file is, and nothing is sent', () => {
    pageListens();
    const dir = mkdtempSync(join(fake.state.userData, 'kind-'));
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a motion');
    const sent = fake.state.sent.length;
    const boxes = fake.state.messageBoxes.length;
    const prevent = vi.fn();
    fake.state.appEvents.get('open-file')!({ preventDefault: prevent }, notes);
    expect(prevent).toHaveBeenCalled();
    expect(fake.state.sent.length).toBe(sent);
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([notOpenedBox(notes)]);
  });

  // Round 42: a second launch's command line passed over a file of such a kind without a word (parseCommandLine).
  // Mutation that fails: the second-instance handler without commandLineFilesNotOpened (no box, as before).
  it("a second launch's file of a kind ActGuy does not open is said the same way, and nothing is sent", () => {
    pageListens();
    const dir = mkdtempSync(join(fake.state.userData, 'kind2-'));
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a motion');
    const sent = fake.state.sent.length;
    const boxes = fake.state.messageBoxes.length;
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', notes, dir], '/');
    expect(fake.state.sent.length).toBe(sent);
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([notOpenedBox(notes)]);
  });

  // Round 46: a second launch's file named with a NUL went to the look on disk and was refused as "not there" in
  // Node's words; a hostile --workspace was passed over without a word. Mutation that fails: the second-instance
  // handler without commandLineRefusals (no box).
  it("a second launch's file with a NUL and its hostile --workspace are refused saying why, and nothing is sent", () => {
    pageListens();
    const sent = fake.state.sent.length;
    const boxes = fake.state.messageBoxes.length;
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', '/p/wa\0lk.mtn', '--workspace=/ws\0/x'], '/');
    expect(fake.state.sent.length).toBe(sent);
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([
      expect.objectContaining({
        detail: '/p/wa\\u0000lk.mtn: it holds a NUL character, which no file name holds. Nothing was opened.',
      }),
      expect.objectContaining({
        detail:
          '--workspace /ws\\u0000/x: it holds a NUL character, which no folder name holds. ActGuy opened no workspace folder.',
      }),
    ]);
  });

  // Round 47: a second launch's valid --workspace was passed over without a word. Mutation that fails: the
  // second-instance handler without secondLaunchWorkspaceNotTaken (no box).
  it("a second launch's valid --workspace is not taken, and says so", () => {
    pageListens();
    const sent = fake.state.sent.length;
    const boxes = fake.state.messageBoxes.length;
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', '--workspace', 'ws'], '/home/u');
    expect(fake.state.sent.length).toBe(sent);
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([
      expect.objectContaining({
        detail:
          '--workspace /home/u/ws: ActGuy is already running with no workspace folder, and a second launch does not change it. Quit ActGuy and start it again with --workspace to work in that folder.',
      }),
    ]);
  });

  it('a dropped file (its path from the preload) is granted as a pick; a path never dropped or chosen stays refused', async () => {
    const dir = mkdtempSync(join(fake.state.userData, 'drop-'));
    for (const f of ['walk.mtn', 'walk.sev', 'sample.actguy.json'])
      copyFileSync(resolve(__dirname, '..', 'assets', f), join(dir, f));
    copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), join(dir, 'other.mtn'));
    const drop = fake.state.ipc.get(DROPPED_FILE_CHANNEL)!;
    const open = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    const motion = join(dir, 'walk.mtn');
    expect(await open(trustedEvent, { path: motion })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused/) },
    });
    // Only the app window's own frame may drop: another sender grants nothing.
    expect(
      await drop({ sender: win.webContents, senderFrame: { url: 'https://evil.example/' } }, motion),
    ).toMatchObject({ ok: false, error: { message: expect.stringMatching(/refused/) } });
    expect(await open(trustedEvent, { path: motion })).toMatchObject({ ok: false });
    expect(await drop(trustedEvent, motion)).toEqual({
      ok: true,
      value: { status: 'granted', path: motion, kind: 'motion' },
    });
    expect(await open(trustedEvent, { path: motion })).toMatchObject({ ok: true, value: { status: 'opened' } });
    // The drop granted that file alone, not its folder.
    expect(await open(trustedEvent, { path: join(dir, 'other.mtn') })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused/) },
    });
    // A .sev comes with the project beside it that lists it; a project dropped is as chosen (it opens).
    expect(await drop(trustedEvent, join(dir, 'walk.sev'))).toEqual({
      ok: true,
      value: {
        status: 'granted',
        path: join(dir, 'walk.sev'),
        kind: 'sev',
        projectPath: join(dir, 'sample.actguy.json'),
      },
    });
    expect(await drop(trustedEvent, join(dir, 'sample.actguy.json'))).toMatchObject({ ok: true });
    const project = await fake.state.ipc.get(ipcInvokeChannel('openProject'))!(trustedEvent, {
      path: join(dir, 'sample.actguy.json'),
    });
    expect(project).toMatchObject({ ok: true });
    // A kind ActGuy does not open grants nothing.
    writeFileSync(join(dir, 'notes.txt'), 'x');
    expect(await drop(trustedEvent, join(dir, 'notes.txt'))).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/notes\.txt: ActGuy cannot open this kind of file/) },
    });
    // Round 30: a link dropped is refused as a link handed over by the OS is, in the same words, and grants nothing,
    // neither itself nor where it leads (mutation that fails: grantDroppedFile back on statSync).
    const link = join(dir, 'link.mtn');
    symlinkSync(join(dir, 'other.mtn'), link);
    expect(await drop(trustedEvent, link)).toEqual({
      ok: false,
      error: {
        message: `${link}: it is a symbolic link to ${join(dir, 'other.mtn')}; open that file itself. Nothing was opened.`,
      },
    });
    for (const path of [link, join(dir, 'other.mtn')])
      expect(await open(trustedEvent, { path })).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/refused/) },
      });
  });

  // Round 30. The look before a grant (handedOverProblem) and the grant (allowFile, which resolved the path again)
  // were two walks of the name: a link swapped in between granted where it led. Each grant is now of the file as
  // looked at (lookedAtPath, asJudged). The swap is made by the seam the look calls once it has passed the file.
  // Mutations that fail: grantSystemFile granting `path` resolved again (a drop and a second launch grant the secret);
  // the drop's import grant so (the .bvh case).
  it('a link swapped in after the look at a dropped or handed-over file grants nothing where it leads', async () => {
    const dir = mkdtempSync(join(fake.state.userData, 'looked-'));
    const secret = join(dir, 'secret');
    mkdirSync(secret);
    const drop = fake.state.ipc.get(DROPPED_FILE_CHANNEL)!;
    const open = fake.state.ipc.get(ipcInvokeChannel('openMotion'))!;
    /** The file at `path` becomes a link to a file of the same name in `secret/` once it has been looked at. */
    const swapAfterLook = (path: string) => {
      const target = join(secret, path.slice(dir.length + 1));
      copyFileSync(path, target);
      systemFilesSeam.looked = (p) => {
        systemFilesSeam.looked = () => undefined;
        rmSync(p);
        symlinkSync(target, p);
      };
      return target;
    };
    try {
      for (const [name, hand] of [
        ['dropped.mtn', (p: string) => drop(trustedEvent, p)],
        ['launched.mtn', (p: string) => fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', p], '/')],
        ['take.bvh', (p: string) => drop(trustedEvent, p)],
      ] as const) {
        const path = join(dir, name);
        copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), path);
        const target = swapAfterLook(path);
        await hand(path);
        if (name.endsWith('.mtn'))
          expect(await open(trustedEvent, { path: target })).toMatchObject({
            ok: false,
            error: { message: expect.stringMatching(/refused/) },
          });
        const read = fake.state.ipc.get(ipcInvokeChannel('importMotion'))!;
        if (name.endsWith('.bvh'))
          expect(await read(trustedEvent, { path: target })).toMatchObject({
            ok: false,
            error: { message: expect.stringMatching(/refused/) },
          });
      }
    } finally {
      systemFilesSeam.looked = () => undefined;
    }
  });

  it('a .sev given to a second launch is sent with the project beside it that lists it', () => {
    pageListens();
    const dir = mkdtempSync(join(fake.state.userData, 'second-sev-'));
    for (const f of ['walk.sev', 'sample.actguy.json'])
      copyFileSync(resolve(__dirname, '..', 'assets', f), join(dir, f));
    fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', join(dir, 'walk.sev')], '/');
    expect(fake.state.sent.at(-1)).toEqual({
      channel: MENU_COMMAND_CHANNEL,
      payload: {
        command: 'file.openFromSystem',
        path: join(dir, 'walk.sev'),
        projectPath: join(dir, 'sample.actguy.json'),
      },
    });
  });

  it('over IPC, a project picked in the dialog that the renderer saves with outside paths widens nothing', async () => {
    const ipc = (member: string, arg?: unknown) =>
      fake.state.ipc.get(ipcInvokeChannel(member as never))!(trustedEvent, arg) as Promise<{
        ok: boolean;
        value?: unknown;
        error?: { message: string };
      }>;
    const projectDir = join(fake.state.userData, 'proj');
    const outside = join(fake.state.userData, 'elsewhere');
    cpSync(resolve(__dirname, '..', 'assets'), projectDir, { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.sev'), '# OUTSIDE\nsev 1\n');
    writeFileSync(join(outside, 'notes.json'), '{}');
    const project = join(projectDir, 'sample.actguy.json');
    // The user picks the project in the native dialog: the files it names on disk become readable.
    fake.state.openDialogAnswers.push(project);
    const opened = await ipc('openProjectDialog');
    expect(opened).toMatchObject({ ok: true, value: { status: 'opened', project: { path: project } } });
    expect(await ipc('readProjectText', { path: join(projectDir, 'walk.sev') })).toMatchObject({ ok: true });
    // A compromised renderer rewrites the project to name outside files, saves it, and opens it again by path.
    const json = JSON.parse((opened.value as { project: { text: string } }).project.text);
    json.motions[2].sev = join(outside, 'secret.sev');
    json.outputs = { mar: join(outside, 'x.mar'), sar: join(outside, 'x.sar') };
    const text = JSON.stringify(json);
    expect(await ipc('saveProject', { path: project, text })).toMatchObject({ ok: true });
    expect(await ipc('openProject', { path: project })).toMatchObject({ ok: true });
    expect(await ipc('readProjectText', { path: join(outside, 'secret.sev') })).toEqual({
      ok: false,
      error: { message: expect.stringContaining(`ActGuy refused to access ${join(outside, 'secret.sev')}`) },
    });
    const build = (await ipc('startBuild', { projectPath: project, projectText: text })) as {
      ok: true;
      value: { state: string; errors: { message: string }[] };
    };
    expect(build.value.state).toBe('failed');
    expect(build.value.errors.map((e) => e.message.split(':')[0])).toEqual([
      `ActGuy refused to read ${join(outside, 'secret.sev')}`,
      `ActGuy refused to write ${join(outside, 'x.mar')}`,
      `ActGuy refused to write ${join(outside, 'x.sar')}`,
      `ActGuy refused to write ${join(outside, 'x.report.json')}`,
    ]);
    expect(await ipc('saveProject', { path: join(outside, 'notes.json'), text })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused to access/) },
    });
    expect(await ipc('readSound', { path: join(outside, 'x.wav') })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/refused to access/) },
    });
    expect(readdirSync(outside).sort()).toEqual(['notes.json', 'secret.sev']);
    expect(readFileSync(join(outside, 'notes.json'), 'utf8')).toBe('{}');
  });

  // Round 20. Mutations that fail: main.ts giving the handlers the import runner or the compress client unwrapped.
  it('keeps the machine awake while an import or an MSH export runs, and lets it sleep once each fails', async () => {
    // Nothing runs yet: no blocker.
    expect(fake.state.blockers.size).toBe(0);
    const bvh = join(fake.state.userData, 'take.bvh');
    writeFileSync(bvh, 'HIERARCHY\n');
    fake.state.openDialogAnswers.push(bvh);
    const imported = await fake.state.ipc.get(ipcInvokeChannel('importMotionDialog'))!(trustedEvent, undefined);
    expect(imported).toMatchObject({ ok: false, error: { message: 'stand-in import' } });
    expect(fake.state.blockersDuringImport).toEqual([1]);
    await expect(
      fake.state.compressClient!.exportMsh({ documentId: 'd', options: {}, names: {} } as never),
    ).rejects.toThrow('stand-in MSH export');
    expect(fake.state.blockersDuringMshExport).toEqual([1]);
    expect(fake.state.blockers.size).toBe(0);
  });

  it('closing while a build runs asks first and "Stop and close" cancels it; a check (dry run) or a finished build asks nothing', async () => {
    const ipc = (member: string, arg?: unknown) =>
      fake.state.ipc.get(ipcInvokeChannel(member as never))!(trustedEvent, arg) as Promise<{
        ok: boolean;
        value?: unknown;
      }>;
    const { project, projectText } = await openBuildOnClose();
    await ipc('reportDocumentState', { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });
    const asked = fake.state.messageBoxes.length;
    const closedBefore = win.closed;
    expect([...fake.state.blockers.values()]).toEqual([]);
    const check = await startCheck();
    expect(check).toMatchObject({ ok: true, value: { state: 'checking', dryRun: true } });
    // Round 20: the machine stays awake while a build or a check runs (one blocker; the display may sleep).
    expect([...fake.state.blockers.values()]).toEqual(['prevent-app-suspension']);
    const whileChecking = { preventDefault: vi.fn() };
    win.events.get('close')!(whileChecking);
    expect(whileChecking.preventDefault).not.toHaveBeenCalled();

    const build = (await ipc('startBuild', { projectPath: project, projectText })) as {
      value: { buildId: string; state: string };
    };
    expect(build.value.state).toBe('checking');
    fake.state.messageBoxResponse = 1; // Cancel
    const first = { preventDefault: vi.fn() };
    win.events.get('close')!(first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
    expect(fake.state.messageBoxes[asked]).toMatchObject({
      message: 'A build is running.',
      buttons: ['Stop and close', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    });
    await new Promise((r) => setTimeout(r, 0));
    expect([win.closed, fake.state.buildsStopped]).toEqual([closedBefore, 0]);
    // Kept open with unsaved edits: the close after asks about them, though an earlier close had "Discard changes"
    // (the test above) and the build question came after it.
    await ipc('reportDocumentState', { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    fake.state.messageBoxResponse = 2; // Cancel
    win.events.get('close')!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 2));
    expect(fake.state.messageBoxes[asked + 1]).toMatchObject({ title: 'Unsaved changes' });
    await new Promise((r) => setTimeout(r, 0));
    await ipc('reportDocumentState', { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });

    fake.state.messageBoxResponse = 0; // Stop and close
    win.events.get('close')!({ preventDefault: vi.fn() });
    await threadSettles(() => expect(win.closed).toBe(closedBefore + 1));
    expect(fake.state.buildsStopped).toBe(1);
    // The check (its stand-in worker never ends by itself) still holds the blocker; quitting releases it (last test).
    expect(fake.state.blockers.size).toBe(1);
    expect(await ipc('getBuildStatus', { buildId: build.value.buildId })).toMatchObject({
      value: { state: 'cancelled' },
    });
    // The close that follows goes ahead, and so does a later one: the stopped build is finished.
    for (let i = 0; i < 2; i++) {
      const after = { preventDefault: vi.fn() };
      win.events.get('close')!(after);
      expect(after.preventDefault).not.toHaveBeenCalled();
    }
    expect(fake.state.messageBoxes).toHaveLength(asked + 3);
  });

  // Round 10 (maintainer's read). Mutations that fail: main not tracking the exports (no question: the export ended
  // with the process without a word); main not handing them to the close questions; the questions not cancelling them;
  // main or the handlers not handing the keep-awake on to Export All (no hold while it works); the talk's hold not
  // released when it is closed.
  it('closing while an Export All runs asks as for a build and "Stop and close" cancels it; one waiting for its answer asks nothing', async () => {
    const ipc = (member: string, arg?: unknown) =>
      fake.state.ipc.get(ipcInvokeChannel(member as never))!(trustedEvent, arg) as Promise<{
        ok: boolean;
        value?: { exportId: string; state: string };
      }>;
    const { project } = await openBuildOnClose();
    const projectText = readFileSync(project, 'utf8');
    const into = mkdtempSync(join(fake.state.userData, 'export-on-close-'));
    await ipc('reportDocumentState', { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] });
    const asked = fake.state.messageBoxes.length;
    const closed = win.closed;
    const holds = fake.state.keepAwake!.holds;
    // The desktop Export All: a folder chosen, the files planned, the page asked before any work.
    fake.state.openDialogAnswers.push(into);
    const started = await ipc('startProjectExportDialog', { projectPath: project, projectText, format: 'msh' });
    expect(started).toMatchObject({ ok: true, value: { state: 'exporting' } });
    const exportId = started.value!.exportId;
    await threadSettles(async () =>
      expect((await ipc('getProjectExportStatus', { exportId })).value?.state).toBe('confirm'),
    );
    // Waiting for the page's answer, nothing of it runs: the close goes ahead without a question.
    const whileAsking = { preventDefault: vi.fn() };
    win.events.get('close')!(whileAsking);
    expect(whileAsking.preventDefault).not.toHaveBeenCalled();
    expect(fake.state.messageBoxes).toHaveLength(asked);
    // The machine is kept awake while its thread plans, not while the page asks.
    expect([fake.state.holdsDuringExport, fake.state.keepAwake!.holds]).toEqual([[holds + 1], holds]);

    expect(await ipc('confirmProjectExport', { exportId })).toMatchObject({ value: { state: 'exporting' } });
    fake.state.messageBoxResponse = 1; // Cancel
    const first = { preventDefault: vi.fn() };
    win.events.get('close')!(first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 1));
    expect(fake.state.messageBoxes[asked]).toMatchObject({
      title: 'Export in progress',
      message: 'An Export All is running.',
      buttons: ['Stop and close', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    });
    await new Promise((r) => setTimeout(r, 0));
    expect([win.closed, fake.state.exportsStopped]).toEqual([closed, 0]);
    expect((await ipc('getProjectExportStatus', { exportId })).value?.state).toBe('exporting');

    fake.state.messageBoxResponse = 0; // Stop and close
    win.events.get('close')!({ preventDefault: vi.fn() });
    await threadSettles(() => expect(win.closed).toBe(closed + 1));
    expect(fake.state.exportsStopped).toBe(1);
    expect((await ipc('getProjectExportStatus', { exportId })).value?.state).toBe('cancelled');
    // Kept awake while it worked; no longer once stopped.
    expect([fake.state.holdsDuringExport, fake.state.keepAwake!.holds]).toEqual([[holds + 1, holds + 1], holds]);
    expect(readdirSync(into)).toEqual([]);
    // The close that follows goes ahead: the stopped export is over.
    const after = { preventDefault: vi.fn() };
    win.events.get('close')!(after);
    expect(after.preventDefault).not.toHaveBeenCalled();
    expect(fake.state.messageBoxes).toHaveLength(asked + 2);
  });

  // Mutations that fail: the build question's promise without its catch (closeAsked stays set: no close asks again);
  // the catch not clearing closeAsked; no message to the user.
  it('a build question that fails to show keeps the window open with its build, says so, and the next close asks again', async () => {
    const ipc = (member: string, arg?: unknown) =>
      fake.state.ipc.get(ipcInvokeChannel(member as never))!(trustedEvent, arg) as Promise<{
        ok: boolean;
        value?: unknown;
      }>;
    const { project } = await openBuildOnClose();
    const projectText = readFileSync(project, 'utf8');
    const build = (await ipc('startBuild', { projectPath: project, projectText })) as { value: { buildId: string } };
    const asked = fake.state.messageBoxes.length;
    const closed = win.closed;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.state.failMessageBoxes = true;
    const first = { preventDefault: vi.fn() };
    win.events.get('close')!(first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(stderr).toHaveBeenCalledWith(
        expect.stringMatching(/the running build or export could not be asked about or stopped/),
      ),
    );
    // The user is told (here that box fails too, and is said in the terminal).
    await vi.waitFor(() => expect(fake.state.messageBoxes).toHaveLength(asked + 2));
    expect(fake.state.messageBoxes[asked + 1]).toMatchObject({
      type: 'error',
      message: 'ActGuy could not stop the running build or export, so it stays open.',
    });
    fake.state.failMessageBoxes = false;
    stderr.mockRestore();
    expect(win.closed).toBe(closed);
    fake.state.messageBoxResponse = 0; // Stop and close
    win.events.get('close')!({ preventDefault: vi.fn() });
    await threadSettles(() => expect(win.closed).toBe(closed + 1));
    expect(fake.state.messageBoxes[asked + 2]).toMatchObject({ message: 'A build is running.' });
    expect(await ipc('getBuildStatus', { buildId: build.value.buildId })).toMatchObject({
      value: { state: 'cancelled' },
    });
  });

  // Maintainer's read, round 15. Mutations that fail: main.ts without the uncaughtException listener; the listener
  // keeping no record; showing no box; a box for each error; ending the app (app.exit) after 'ready'. Round 16:
  // Go On, Show the Record and Quit (mainUncaught.test.ts: Quit); mutations that fail: OK alone, as before; Show the
  // Record not showing it (or showing it for another answer).
  it('a throw in main that nothing caught leaves a crash record and one box over the window, and the app goes on', async () => {
    const records = join(fake.state.userData, 'Crash Records');
    const errorRecords = () =>
      (existsSync(records) ? readdirSync(records) : []).filter((n) => n.endsWith('-main-process-error.json'));
    expect(uncaughtException).toBeTypeOf('function');
    const before = errorRecords().length;
    const boxes = fake.state.messageBoxes.length;
    const { exits, quits, messageBoxResponse } = fake.state;
    // Show the Record.
    fake.state.messageBoxResponse = 1;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      uncaughtException!(new RangeError('stand-in: an index out of range'));
      expect(stderr).toHaveBeenCalledWith(
        expect.stringMatching(/^ActGuy: an error nothing caught: RangeError: stand-in: an index out of range\n\s+at /),
      );
    } finally {
      stderr.mockRestore();
    }
    expect(errorRecords()).toHaveLength(before + 1);
    const recordPath = join(records, errorRecords().sort().at(-1)!);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { event: string; error: string };
    expect(record).toMatchObject({ event: 'main-process-error' });
    expect(record.error).toMatch(/^RangeError: stand-in: an index out of range\n\s+at /);
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([
      {
        type: 'error',
        title: 'ActGuy',
        message: 'ActGuy met an error it did not expect.',
        detail:
          'RangeError: stand-in: an index out of range\n\nActGuy goes on, but may not work as it should: save your work, ' +
          `then quit and start ActGuy again. A record of the error was kept for a bug report: ${recordPath}`,
        buttons: ['Go On', 'Show the Record', 'Quit'],
        defaultId: 0,
        cancelId: 0,
      },
    ]);
    // Round 17: the user guide says this box as it is, its message and each of its buttons (a change of the words
    // here that the guide does not follow fails). Mutation that fails: the guide's section left out.
    const guide = readFileSync(join(__dirname, '..', 'docs', 'user-guide.md'), 'utf8');
    expect(guide).toContain('*ActGuy met an error it did not expect.*');
    expect(guide).toContain(
      '"ActGuy goes on, but may not work as it should: save your work, then quit and start ActGuy again"',
    );
    for (const button of ['Go On', 'Show the Record', 'Quit']) expect(guide).toContain(`- **${button}**`);
    // Over the window, which stays. Answered Show the Record (the fake's answer, 1): the record is shown in its
    // folder, and nothing quits.
    expect(fake.state.parentlessBoxes.at(-1)).toBe(false);
    expect(win.destroyed).toBe(false);
    await vi.waitFor(() => expect(fake.state.shownInFolder).toEqual([recordPath]));
    fake.state.messageBoxResponse = messageBoxResponse;

    // A second one is recorded and said in the terminal, with no second box; the app goes on all along.
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      uncaughtException!('stand-in: a thrown string');
      expect(said).toHaveBeenCalledWith('ActGuy: an error nothing caught: stand-in: a thrown string');
    } finally {
      said.mockRestore();
    }
    expect(errorRecords()).toHaveLength(before + 2);
    expect(fake.state.messageBoxes).toHaveLength(boxes + 1);
    expect(fake.state).toMatchObject({ exits, quits });
    expect(await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(trustedEvent, undefined)).toMatchObject({
      ok: true,
    });
  });

  // Round 20. Mutations that fail: main.ts without the unhandledRejection listener; the close question's Discard
  // closing the window without looking whether it is gone (its promise then failed with nothing to catch it).
  it('a main-process promise that fails with nothing to catch it leaves a crash record (no error box); a Discard answered after the window went closes nothing', async () => {
    const records = join(fake.state.userData, 'Crash Records');
    const errorRecords = () =>
      (existsSync(records) ? readdirSync(records) : []).filter((n) => n.endsWith('-main-process-error.json'));
    expect(unhandledRejection).toBeTypeOf('function');
    const before = errorRecords().length;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    unhandledRejection!(new TypeError('Object has been destroyed'));
    stderr.mockRestore();
    expect(errorRecords()).toHaveLength(before + 1);
    const record = JSON.parse(readFileSync(join(records, errorRecords().sort().at(-1)!), 'utf8')) as {
      event: string;
      error: string;
    };
    expect(record).toMatchObject({ event: 'main-process-error' });
    expect(record.error).toMatch(/^TypeError: Object has been destroyed\n\s+at /);

    // The close question is open when the window goes (a crash's Quit answered meanwhile); then Discard.
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(trustedEvent, {
      documentId: 'd',
      documentName: 'walk',
      dirty: true,
    });
    fake.state.holdMessageBoxes = true;
    const asked = fake.state.heldAnswers.length;
    win.events.get('close')!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.state.heldAnswers).toHaveLength(asked + 1));
    win.destroyed = true;
    const failures: unknown[] = [];
    const onFailure = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', onFailure);
    // The answer is taken when the close question's continuation looks whether the window is gone (closeQuestions.ts):
    // waited for as that event, not for 10 ms, which a starved process can pass before the continuation ran.
    let lookedAfterAnswer!: () => void;
    const answerTaken = new Promise<void>((done) => (lookedAfterAnswer = done));
    const isDestroyed = vi.spyOn(win, 'isDestroyed').mockImplementation(function (this: typeof win) {
      lookedAfterAnswer();
      return this.destroyed;
    });
    // Nothing is said failed either: the continuation's own catch would log a close of the gone window as a failure.
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      fake.state.heldAnswers[asked](1); // Discard changes
      await answerTaken;
      // A promise the continuation left rejected is reported before the next turn of the event loop begins.
      await new Promise((r) => setImmediate(r));
      expect(said).not.toHaveBeenCalled();
    } finally {
      said.mockRestore();
      isDestroyed.mockRestore();
      process.off('unhandledRejection', onFailure);
      win.destroyed = false;
      fake.state.holdMessageBoxes = false;
    }
    expect(failures).toEqual([]);
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(trustedEvent, {
      documentId: 'd',
      documentName: 'walk',
      dirty: false,
    });
  });

  // Last: Quit after a crash ends the app in a real run.
  it('holds copies of unsaved work in Backups/: a clean close drops them; after a crash the question says they come back, and Quit keeps them for the next start', async () => {
    const ipc = (member: string, arg?: unknown) =>
      fake.state.ipc.get(ipcInvokeChannel(member as never))!(trustedEvent, arg) as Promise<{
        ok: boolean;
        value?: unknown;
        error?: { message: string };
      }>;
    const sample = resolve(__dirname, '..', 'assets', 'walk.mtn');
    const opened = (await ipc('openMotion', { path: sample })) as {
      ok: true;
      value: { motion: { documentId: string; path: string; mtnBytes: Uint8Array } };
    };
    const { documentId, path, mtnBytes } = opened.value.motion;
    const copy = {
      part: 'motion',
      documentId,
      name: 'walk',
      path,
      editedAt: 1,
      mtnBytes,
      tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 },
      rotationOverridesDeg: {},
    };
    const backupFile = join(fake.state.userData, 'Backups', 'motion.json');
    const report = fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!;
    expect(await ipc('backupUnsaved', { part: 'motion', backup: copy })).toEqual({ ok: true });
    expect(readdirSync(join(fake.state.userData, 'Backups'))).toEqual(['motion.json']);
    // Everything saved or discarded, the window closes: no copy is kept.
    await report(trustedEvent, { documentId, documentName: 'walk', dirty: false, unsaved: [] });
    win.events.get('close')!({ preventDefault: vi.fn() });
    expect(readdirSync(join(fake.state.userData, 'Backups'))).toEqual([]);

    expect(await ipc('backupUnsaved', { part: 'motion', backup: copy })).toEqual({ ok: true });
    await report(trustedEvent, { documentId, documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] });
    const asked = fake.state.messageBoxes.length;
    const closedBefore = win.closed;
    fake.state.messageBoxResponse = 1; // Quit
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'oom', exitCode: 1 });
    await vi.waitFor(() => expect(win.closed).toBe(closedBefore + 1));
    expect((fake.state.messageBoxes[asked] as { detail: string }).detail).toMatch(
      /^Your unsaved changes were kept: they come back, unsaved/,
    );
    win.events.get('close')!({ preventDefault: vi.fn() });
    expect(JSON.parse(readFileSync(backupFile, 'utf8'))).toMatchObject({ part: 'motion', name: 'walk', path });
  });
  // Round 12 (maintainer's read). After the crash's Quit above: this one's Quit changes nothing more. Mutations that
  // fail: no 'did-fail-load' listener (the window left blank without a word); an aborted load or a frame's said; the
  // first load's failure said twice (loadPage's caller says it); two boxes for two failures at once; Reload not
  // reloading; Quit not quitting.
  it('a page that fails to load after it had loaded once is said in the terminal and a box: Reload tries again, Quit quits', async () => {
    const fail = (code: number, description: string, mainFrame = true) =>
      win.webContentsEvents.get('did-fail-load')!({}, code, description, 'actguy://app/index.html', mainFrame);
    const said = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fake.state.holdMessageBoxes = true;
    const asked = fake.state.messageBoxes.length;
    const reloads = win.reloads;
    const closed = win.closed;
    // Boxes earlier tests left held, never answered.
    const held = fake.state.heldAnswers.length;
    try {
      // Not a failure of the window: a load aborted (a reload replaced, the window closing), a frame's.
      win.webContentsEvents.get('did-finish-load')!();
      fail(-3, 'ERR_ABORTED');
      fail(-6, 'ERR_FILE_NOT_FOUND', false);
      expect(said).not.toHaveBeenCalled();
      fail(-6, 'ERR_FILE_NOT_FOUND');
      // A second failure while the box is up is said in the terminal only.
      fail(-2, 'ERR_FAILED');
      await vi.waitFor(() => expect(fake.state.heldAnswers).toHaveLength(held + 1));
      expect(fake.state.messageBoxes).toHaveLength(asked + 1);
      expect(fake.state.messageBoxes[asked]).toMatchObject({
        type: 'error',
        message: "ActGuy's window could not load its page.",
        detail: expect.stringMatching(
          /^ERR_FILE_NOT_FOUND \(-6\)\.\n\nThe window cannot show ActGuy .*Reload tries again/,
        ),
        buttons: ['Reload', 'Quit'],
        cancelId: 0,
      });
      expect(said).toHaveBeenCalledWith(
        expect.stringMatching(/page did not load \(actguy:\/\/app\/index\.html\): ERR_FILE_NOT_FOUND \(-6\)$/),
      );
      expect(said).toHaveBeenCalledTimes(2);
      fake.state.heldAnswers.pop()!(0);
      await vi.waitFor(() => expect(win.reloads).toBe(reloads + 1));
      // Fails again: asked again; Quit quits (Windows and Linux: the window closes, and the app with it).
      fail(-6, 'ERR_FILE_NOT_FOUND');
      await vi.waitFor(() => expect(fake.state.heldAnswers).toHaveLength(held + 1));
      fake.state.heldAnswers.pop()!(1);
      await vi.waitFor(() => expect(win.closed).toBe(closed + 1));
      expect(win.reloads).toBe(reloads + 1);
    } finally {
      fake.state.holdMessageBoxes = false;
      said.mockRestore();
    }
  });

  // Round 13 (maintainer's read). The page file gone from the installation: the scheme answers "not found", which
  // loads as a page of its own (no 'did-fail-load'). Mutations that fail: serveRenderer not noting the page it could
  // not read (the window shows "not found", said nowhere); 'did-finish-load' taking that "not found" for the page (it
  // listens: a file handed over meanwhile is sent to no page); the note not cleared once the page is served again (the
  // good reload said failed too).
  it('a reload whose page file is gone from the installation is said as a failed load, with what to do; once it is back, Reload loads it', async () => {
    const pageFile = resolve(__dirname, '..', 'renderer', 'index.html');
    const dir = mkdtempSync(join(fake.state.userData, 'page-gone-'));
    const handed = join(dir, 'handed.mtn');
    copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), handed);
    const opened = (since: number) =>
      fake.state.sent
        .slice(since)
        .filter((s) => s.channel === MENU_COMMAND_CHANNEL)
        .map((s) => (s.payload as { path?: string }).path);
    const said = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fake.state.holdMessageBoxes = true;
    const asked = fake.state.messageBoxes.length;
    const held = fake.state.heldAnswers.length;
    const reloads = win.reloads;
    const sentBefore = fake.state.sent.length;
    try {
      // The page has loaded once; then its file goes (an update half done, a cleaner), and the page reloads (a crash's
      // Reload, or this box's).
      pageListens();
      fake.state.unreadableFiles.add(pageFile);
      win.webContents.reload();
      await vi.waitFor(() => expect(fake.state.heldAnswers).toHaveLength(held + 1));
      const why = `ActGuy's page could not be read from its installation (${pageFile}: no such file or directory). Installing ActGuy again should fix it.`;
      expect(fake.state.messageBoxes).toHaveLength(asked + 1);
      expect(fake.state.messageBoxes[asked]).toMatchObject({
        type: 'error',
        message: "ActGuy's window could not load its page.",
        detail: expect.stringContaining(`${why}\n\nThe window cannot show ActGuy until its page loads`),
        buttons: ['Reload', 'Quit'],
      });
      expect(said).toHaveBeenCalledWith(`ActGuy: the window's page did not load: ${why}`);
      // The "not found" page opens nothing: a file handed over now waits.
      fake.state.appEvents.get('second-instance')!({}, ['/usr/bin/actguy', handed], '/');
      expect(opened(sentBefore)).toEqual([]);
      // Installed again: Reload loads the page, which listens, and the file opens; nothing more is asked.
      fake.state.unreadableFiles.delete(pageFile);
      fake.state.heldAnswers.pop()!(0);
      await vi.waitFor(() => expect(opened(sentBefore)).toEqual([handed]));
      expect(win.reloads).toBe(reloads + 2);
      expect(fake.state.messageBoxes).toHaveLength(asked + 1);
    } finally {
      fake.state.unreadableFiles.clear();
      fake.state.holdMessageBoxes = false;
      said.mockRestore();
    }
  });

  // Round 16 (docs/security.md). Mutation that fails: main.ts without the child-process-gone listener, or writing the
  // record for a clean exit too.
  it('a GPU or utility process that dies leaves a crash record (no question: Chromium starts it again); a clean exit none', () => {
    const records = join(fake.state.userData, 'Crash Records');
    const before = crashRecordNames().length;
    const asked = fake.state.messageBoxes.length;
    const gone = fake.state.appEvents.get('child-process-gone')!;
    gone({}, { type: 'Utility', name: 'Audio Service', reason: 'clean-exit', exitCode: 0 });
    expect(crashRecordNames()).toHaveLength(before);
    gone({}, { type: 'GPU', reason: 'crashed', exitCode: 11 });
    const written = readdirSync(records).filter((f) => f.endsWith('-child-process-gone.json'));
    expect(written).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(records, written[0]), 'utf8'))).toMatchObject({
      event: 'child-process-gone',
      process: 'GPU',
      reason: 'crashed',
      exitCode: 11,
      unsaved: [],
    });
    expect(fake.state.messageBoxes).toHaveLength(asked);
  });

  // Round 16. Mutation that fails: main.ts giving createCompressClient only the compress worker's path (the pool's
  // then defaulted to one inside app.asar).
  it("gives the compress client both workers' files from app.asar.unpacked when packaged", () => {
    expect(fake.state.compressOptions).toEqual([compressWorkerPaths(__dirname)]);
    const packaged = join('/opt', 'ActGuy', 'resources', 'app.asar', 'dist', 'electron');
    const unpacked = join('/opt', 'ActGuy', 'resources', 'app.asar.unpacked', 'dist', 'electron');
    expect(compressWorkerPaths(packaged)).toEqual({
      workerPath: join(unpacked, 'compressWorker.cjs'),
      pool: { workerPath: join(unpacked, 'compressPoolWorker.cjs') },
    });
  });

  // Round 14 (maintainer's read). Windows and Linux: the window closed by itself quits the app. Mutation that fails:
  // the quit asked only once the compression workers have stopped, as before (a worker that does not stop kept the
  // app running with no window).
  it('the last window closed quits the app at once, whatever the compression workers take to stop', () => {
    const quits = fake.state.quits;
    const disposed = fake.state.compressDisposed;
    fake.state.compressDisposeHangs = true;
    try {
      fake.state.appEvents.get('window-all-closed')!();
      expect(fake.state.compressDisposed).toBe(disposed + 1);
      expect(fake.state.quits).toBe(quits + 1);
    } finally {
      fake.state.compressDisposeHangs = false;
    }
  });

  // Last: it stops the compressor. Round 16. Mutation that fails: main.ts without the will-quit listener (Cmd+Q and
  // File > Exit quit without 'window-all-closed', so the workers were never disposed), or with it not disposing.
  // Round 16 (maintainer's read). Mutation that fails: will-quit not stopping the text checker.
  // Round 20. Mutation that fails: no keepAwake.releaseAll() in the will-quit listener. Mutations that fail: no
  // buildWorkers.dispose() there; main not handing its buildWorkers to the handlers (Export All keeps a thread of its
  // own, which no quit ends).
  // Mutations that fail: will-quit without the quit gate (the workers stop and the app ends under a running write);
  // the gate's quit not asked again once the write ends.
  it('a quit while a write runs (a copy of unsaved work, a save) waits for it, then quits again', async () => {
    const disposed = fake.state.compressDisposed;
    const quits = fake.state.quits;
    let end = (): void => undefined;
    const write = new Promise<void>((r) => (end = r));
    const entry: Promise<unknown> = write.then(() => writesInFlight.delete(entry));
    writesInFlight.add(entry);
    const event = { preventDefault: vi.fn() };
    fake.state.appEvents.get('will-quit')!(event);
    expect(event.preventDefault).toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 0));
    expect([fake.state.compressDisposed, fake.state.quits]).toEqual([disposed, quits]);
    end();
    await vi.waitFor(() => expect(fake.state.quits).toBe(quits + 1));
    expect(fake.state.compressDisposed).toBe(disposed);
  });

  it('stops the compression workers when the app quits by Cmd+Q or Exit (no window-all-closed), and records no crash then', async () => {
    // The build-on-close test's check still runs.
    await startCheck();
    const disposed = fake.state.compressDisposed;
    expect(fake.state.blockers.size).toBe(1);
    fake.state.appEvents.get('will-quit')!({ preventDefault: vi.fn() });
    expect(fake.state.compressDisposed).toBe(disposed + 1);
    // The build bundle's thread kept warm between builds and Export Alls goes too: one, made once, for both
    // (oneShotWorker.ts keptWorkers).
    expect(fake.state.keptWorkerPaths).toEqual([expect.stringMatching(/buildWorker\.cjs$/)]);
    expect(fake.state.buildWorkerDisposed).toBe(1);
    // And the text checker's (round 16): it was left to end with the process.
    expect(fake.state.textCheckerDisposed).toBe(1);
    // A build's hold on sleep is released with the app, whatever the page last polled.
    expect(fake.state.blockers.size).toBe(0);
    const before = crashRecordNames().length;
    fake.state.appEvents.get('child-process-gone')!({}, { type: 'GPU', reason: 'killed', exitCode: 9 });
    expect(crashRecordNames()).toHaveLength(before);
  });
});
