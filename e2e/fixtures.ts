/**
 * Fixtures for every e2e scenario. Import `test` and `expect` from here:
 *
 *   test('toggle a key', async ({ page, workspace, appMode }) => { ... });
 *
 * - `workspace`: a fresh temp folder with a copy of assets/ (walk.mtn, ...);
 *   `workspace.path('walk.mtn')` gives an absolute path inside it.
 * - `page`: the real renderer, already loaded on workspace/walk.mtn. In project
 *   "chromium" it is Debian Chromium on the loopback server (in-app file picker
 *   listing the workspace); in project "electron" it is the Electron window
 *   (native dialogs: stub them with `electronApp.evaluate`), skipped with the
 *   reason when no Electron binary is installed.
 * - `server`: the loopback server (url, token) in "chromium", null in "electron".
 * - `workHold` (option, `test.use`): a hold on the app's work (e2e/holdWorker.cjs's variables), given to the loopback
 *   server in "chromium" and to Electron's main process in "electron" (e2e/workHold.ts); none by default.
 * - `electronApp`: the ElectronApplication in "electron", null in "chromium".
 * - `pageErrors`: uncaught page errors and console errors collected during the test.
 * - `saveScreenshot(name)`: saves e2e-output/screenshots/<project>-<name>.png and returns its path.
 */
import {
  _electron,
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ELECTRON_SKIP_REASON, electronBinary, repoRoot } from './electron-binary';
import { electronSandboxPlan } from './electronSandbox';
import { electronHoldArgs, loopbackHoldEnv, type WorkHold } from './workHold';
import { SHORTCUTS, chordOfAccelerator, chordOfKeyPress, sameChord, type ShortcutPlatform } from '../shared/shortcuts';

export interface AppFixtureOptions {
  /** Which transport the project drives: the loopback server in Chromium, or Electron. */
  appMode: 'loopback' | 'electron';
}

export interface Workspace {
  /** Absolute path of the temp workspace folder. */
  dir: string;
  /** Absolute path of a file in the workspace. */
  path(relative: string): string;
}

export interface LoopbackHandle {
  /** The page URL with the token. */
  url: string;
  origin: string;
  token: string;
}

interface TestFixtures {
  workspace: Workspace;
  server: LoopbackHandle | null;
  electronApp: ElectronApplication | null;
  page: Page;
  pageErrors: string[];
  saveScreenshot: (name: string) => Promise<string>;
  /** A hold on the app's work (e2e/holdWorker.cjs's variables), in Chromium and in Electron alike; none by default. */
  workHold: WorkHold;
}

interface WorkerFixtures {
  appMode: AppFixtureOptions['appMode'];
  loopbackBrowser: Browser | null;
}

let electronSkipPrinted = false;
/** The Electron app and workspace of the scenario running now (project "electron"), for helpers that answer native dialogs. */
let running: { app: ElectronApplication; workspace: Workspace } | null = null;

/** The running Electron app and its workspace, or null in project "chromium". */
export function runningElectronApp(): { app: ElectronApplication; workspace: Workspace } | null {
  return running;
}
const SCREENSHOT_DIR = join(repoRoot, 'e2e-output', 'screenshots');
const LOOPBACK_BUNDLE = join(repoRoot, 'dist', 'electron', 'loopback.cjs');

/** Starts dist/electron/loopback.cjs on a workspace (with `extraArgs`, e.g. `--open FILE`) and waits for the URL it prints. */
export async function startLoopbackChild(
  workspace: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; handle: LoopbackHandle }> {
  const child = spawn(
    process.execPath,
    [LOOPBACK_BUNDLE, '--workspace', workspace, '--port', '0', '--exit-with-stdin', ...extraArgs],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  // Ended by the URL line or by the child's end, never by a clock: this once had 15 s, the bound a server's start went
  // past at load 15 in the unit tests' copy of this wait (docs/testing.md, "Tests under load, round 3"). A start that
  // does neither is the scenario's own timeout, which names the fixture still being set up.
  const url = await new Promise<string>((resolveUrl, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^ActGuy web: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/.exec(line);
      if (m) resolveUrl(m[1]);
    });
    // 'close', not 'exit': the reason it gives is on stderr, whole once the pipes are closed.
    child.once('close', (code) => reject(new Error(`loopback server exited with ${code}: ${stderr.trim()}`)));
  });
  const parsed = new URL(url);
  return { child, handle: { url, origin: parsed.origin, token: parsed.searchParams.get('token')! } };
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Loads a loopback server that a scenario started itself (startLoopbackChild) in a 1280x800 page of a context of
 * its own, which the caller closes. It waits only for the page to load: each caller waits for what it expects.
 */
export async function openLoopbackPage(
  browser: Browser,
  handle: LoopbackHandle,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(handle.url);
  return { context, page };
}

function collectErrors(page: Page, into: string[]): void {
  page.on('pageerror', (e) => into.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`console: ${m.text()}`);
  });
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  appMode: ['loopback', { scope: 'worker', option: true }],
  workHold: [{}, { option: true }],

  // Chromium is launched only for the loopback project, so the Electron project never needs a browser.
  loopbackBrowser: [
    async ({ appMode, playwright, launchOptions }, use) => {
      if (appMode !== 'loopback') return use(null);
      const browser = await playwright.chromium.launch(launchOptions);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],

  workspace: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-e2e-'));
    cpSync(join(repoRoot, 'assets'), dir, { recursive: true });
    await use({ dir, path: (relative) => join(dir, relative) });
    rmSync(dir, { recursive: true, force: true });
  },

  server: async ({ appMode, workspace, workHold }, use, testInfo) => {
    if (appMode !== 'loopback') return use(null);
    const { child, handle } = await startLoopbackChild(workspace.dir, [], loopbackHoldEnv(workHold));
    // What the server printed (an uncaught error, a crash) goes with a failed test's report.
    let log = '';
    child.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-64 * 1024)));
    child.once('exit', (code, signal) => (log += `\n[the loopback server exited: code ${code}, signal ${signal}]\n`));
    await use(handle);
    if (testInfo.status !== testInfo.expectedStatus && log)
      await testInfo.attach('loopback-server-stderr', { body: log, contentType: 'text/plain' });
    await stopChild(child);
  },

  electronApp: async ({ appMode, workspace, workHold }, use, testInfo) => {
    if (appMode !== 'electron') return use(null);
    const binary = electronBinary();
    if (!binary) {
      if (!electronSkipPrinted) console.log(`e2e: ${ELECTRON_SKIP_REASON}`);
      electronSkipPrinted = true;
      testInfo.skip(true, ELECTRON_SKIP_REASON);
      return use(null);
    }
    const sandbox = electronSandboxPlan(binary);
    if (sandbox.skip) {
      testInfo.skip(true, sandbox.skip);
      return use(null);
    }
    const userData = mkdtempSync(join(tmpdir(), 'actguy-e2e-profile-'));
    const app = await _electron.launch(electronLaunchOptions(workspace, userData, sandbox.args, workHold));
    running = { app, workspace };
    await use(app);
    running = null;
    await closeElectronApp(app);
    rmSync(userData, { recursive: true, force: true });
  },

  pageErrors: async ({}, use) => {
    await use([]);
  },

  page: async ({ appMode, loopbackBrowser, server, electronApp, pageErrors, viewport }, use) => {
    if (appMode === 'electron') {
      const window = await electronApp!.firstWindow();
      collectErrors(window, pageErrors);
      await routeShortcutsToNativeMenu(window, electronApp!);
      await use(window);
      return;
    }
    const context = await loopbackBrowser!.newContext({ viewport: viewport ?? { width: 1600, height: 1000 } });
    const page = await context.newPage();
    collectErrors(page, pageErrors);
    await page.goto(server!.url);
    await use(page);
    await context.close();
  },

  saveScreenshot: async ({ page }, use, testInfo) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await use(async (name) => {
      const file = join(SCREENSHOT_DIR, `${testInfo.project.name}-${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    });
  },
});

export { expect };

/**
 * How the scenarios launch Electron: through Playwright's own Electron loader (no `executablePath`, so it
 * resolves node_modules/electron and preloads its loader, which appends Chromium switches such as
 * --enable-unsafe-swiftshader: WebGL for the viewport on a machine without a GPU), with SwiftShader's ANGLE
 * backend asked for as in the Chromium project, and a profile of its own. A scenario's hold on the app's work is
 * preloaded in the main process (`-r`, before the app's path) with its variables in the environment.
 */
export function electronLaunchOptions(
  workspace: Workspace,
  userData: string,
  sandboxArgs: readonly string[],
  hold: WorkHold = {},
): Parameters<typeof _electron.launch>[0] {
  return {
    // sandboxArgs: --no-sandbox as root only (e2e/electronSandbox.ts).
    args: [
      ...sandboxArgs,
      ...electronHoldArgs(hold),
      repoRoot,
      workspace.path('walk.mtn'),
      '--workspace',
      workspace.dir,
      '--use-angle=swiftshader',
      '--ignore-gpu-blocklist',
    ],
    cwd: repoRoot,
    env: { ...process.env, ...hold, ACTGUY_USER_DATA_DIR: userData } as Record<string, string>,
  };
}

/**
 * Ends the app even when the scenario left unsaved edits: the window's close would ask "Discard changes?"
 * in a native message box nobody can answer, and `app.close()` would wait forever. The windows are
 * destroyed (no close event), then the app quits as after the last window.
 */
export async function closeElectronApp(app: ElectronApplication): Promise<void> {
  await app
    .evaluate(({ BrowserWindow }) => {
      for (const w of BrowserWindow.getAllWindows()) w.destroy();
    })
    .catch(() => undefined); // already gone
  await app.close();
}

/** The native-menu accelerator a Playwright key chord ("Control+Shift+o") means on a platform, if any. */
export function nativeAcceleratorOf(keys: string, platform: ShortcutPlatform): string | null {
  const parts = keys.split('+');
  const key = parts.pop()!;
  const press = {
    key,
    ctrlKey: parts.includes('Control'),
    metaKey: parts.includes('Meta'),
    shiftKey: parts.includes('Shift'),
    altKey: parts.includes('Alt'),
  };
  const chord = chordOfKeyPress(press, platform);
  const binding = SHORTCUTS.find(
    (b) =>
      b.native &&
      (!b.platform || b.platform === platform) &&
      sameChord(chordOfAccelerator(b.accelerator, platform), chord),
  );
  return binding?.accelerator ?? null;
}

/**
 * Under Electron the native menu owns the command shortcuts (shared/shortcuts.ts), and a menu accelerator
 * fires when the page leaves the key unhandled. Key presses Playwright synthesizes (DevTools protocol) skip
 * the browser side's accelerator handling, so `page.keyboard.press` is completed here the way Electron
 * completes a real key press: the key goes to the page first; when it is a native accelerator and the page
 * did not take it (no preventDefault), the menu item it names is clicked.
 */
async function routeShortcutsToNativeMenu(page: Page, app: ElectronApplication): Promise<void> {
  const platform: ShortcutPlatform = process.platform === 'darwin' ? 'mac' : 'other';
  // The last keydown event itself: read after its dispatch, its defaultPrevented is what every listener decided.
  const remember = () => {
    window.addEventListener('keydown', (e) => {
      (window as unknown as { __actguyLastKeyDown: KeyboardEvent }).__actguyLastKeyDown = e;
    });
  };
  await page.addInitScript(remember);
  await page.evaluate(remember);
  const press = page.keyboard.press.bind(page.keyboard);
  page.keyboard.press = async (keys, options) => {
    await press(keys, options);
    const accelerator = nativeAcceleratorOf(keys, platform);
    if (!accelerator) return;
    if (
      await page.evaluate(
        () =>
          (window as unknown as { __actguyLastKeyDown?: KeyboardEvent }).__actguyLastKeyDown?.defaultPrevented === true,
      )
    )
      return;
    const clicked = await app.evaluate(({ BrowserWindow, Menu }, wanted) => {
      const find = (items: Electron.MenuItem[]): Electron.MenuItem | null => {
        for (const item of items) {
          if (item.accelerator === wanted && item.registerAccelerator !== false) return item;
          const inner = item.submenu ? find(item.submenu.items) : null;
          if (inner) return inner;
        }
        return null;
      };
      const item = find(Menu.getApplicationMenu()?.items ?? []);
      if (!item || !item.enabled) return false;
      const win = BrowserWindow.getAllWindows()[0];
      item.click(undefined, win, win?.webContents);
      return true;
    }, accelerator);
    if (!clicked) throw new Error(`${keys}: no enabled native menu item has the accelerator ${accelerator}`);
  };
}

/** Answers for Electron's native dialogs while a scenario runs in project "electron". */
export interface NativeDialogAnswers {
  /** Path the next open dialogs return (null: cancel). */
  openPath?: string | null;
  /** Paths the next open dialogs return (a multi-selection); wins over openPath. */
  openPaths?: string[];
  /** Path the next save dialogs return (null: cancel). */
  savePath?: string | null;
  /** Button index message boxes return (0 = the confirming button, e.g. "Discard changes"). */
  messageBoxResponse?: number;
}

/**
 * Replaces Electron's native dialogs in the app under test with fixed answers
 * (Playwright cannot click native dialogs). Only for project "electron"; in
 * "chromium" use the in-app picker the page shows.
 */
export async function stubNativeDialogs(app: ElectronApplication, answers: NativeDialogAnswers): Promise<void> {
  await app.evaluate(({ dialog }, a) => {
    if (a.openPaths !== undefined)
      dialog.showOpenDialog = (async () => ({
        canceled: a.openPaths!.length === 0,
        filePaths: a.openPaths!,
      })) as typeof dialog.showOpenDialog;
    else if (a.openPath !== undefined)
      dialog.showOpenDialog = (async () => ({
        canceled: a.openPath === null,
        filePaths: a.openPath ? [a.openPath] : [],
      })) as typeof dialog.showOpenDialog;
    if (a.savePath !== undefined)
      dialog.showSaveDialog = (async () => ({
        canceled: a.savePath === null,
        filePath: a.savePath ?? '',
      })) as typeof dialog.showSaveDialog;
    if (a.messageBoxResponse !== undefined)
      dialog.showMessageBox = (async () => ({
        response: a.messageBoxResponse!,
        checkboxChecked: false,
      })) as typeof dialog.showMessageBox;
  }, answers);
}
