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
 * - `electronApp`: the ElectronApplication in "electron", null in "chromium".
 * - `pageErrors`: uncaught page errors and console errors collected during the test.
 * - `saveScreenshot(name)`: saves e2e-output/screenshots/<project>-<name>.png and returns its path.
 */
import { _electron, expect, test as base, type Browser, type ElectronApplication, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ELECTRON_SKIP_REASON, electronBinary, repoRoot } from './electron-binary';

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
}

interface WorkerFixtures {
  appMode: AppFixtureOptions['appMode'];
  loopbackBrowser: Browser | null;
}

let electronSkipPrinted = false;
const SCREENSHOT_DIR = join(repoRoot, 'e2e-output', 'screenshots');
const LOOPBACK_BUNDLE = join(repoRoot, 'dist', 'electron', 'loopback.cjs');

/** Starts dist/electron/loopback.cjs on a workspace and waits for the URL it prints. */
async function startLoopbackChild(workspace: string): Promise<{ child: ChildProcess; handle: LoopbackHandle }> {
  const child = spawn(process.execPath, [LOOPBACK_BUNDLE, '--workspace', workspace, '--port', '0', '--exit-with-stdin'], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`loopback server did not start within 15 s: ${stderr}`)), 15_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^ActGuy web: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`loopback server exited with ${code}: ${stderr.trim()}`));
    });
  });
  const parsed = new URL(url);
  return { child, handle: { url, origin: parsed.origin, token: parsed.searchParams.get('token')! } };
}

function stopChild(child: ChildProcess): Promise<void> {
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

function collectErrors(page: Page, into: string[]): void {
  page.on('pageerror', (e) => into.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`console: ${m.text()}`);
  });
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  appMode: ['loopback', { scope: 'worker', option: true }],

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

  server: async ({ appMode, workspace }, use) => {
    if (appMode !== 'loopback') return use(null);
    const { child, handle } = await startLoopbackChild(workspace.dir);
    await use(handle);
    await stopChild(child);
  },

  electronApp: async ({ appMode, workspace }, use, testInfo) => {
    if (appMode !== 'electron') return use(null);
    const binary = electronBinary();
    if (!binary) {
      if (!electronSkipPrinted) console.log(`e2e: ${ELECTRON_SKIP_REASON}`);
      electronSkipPrinted = true;
      testInfo.skip(true, ELECTRON_SKIP_REASON);
      return use(null);
    }
    const userData = mkdtempSync(join(tmpdir(), 'actguy-e2e-profile-'));
    const app = await _electron.launch({
      executablePath: binary,
      args: [repoRoot, workspace.path('walk.mtn'), '--workspace', workspace.dir],
      cwd: repoRoot,
      env: { ...process.env, ACTGUY_USER_DATA_DIR: userData } as Record<string, string>,
    });
    await use(app);
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  },

  pageErrors: async ({}, use) => {
    await use([]);
  },

  page: async ({ appMode, loopbackBrowser, server, electronApp, pageErrors, viewport }, use) => {
    if (appMode === 'electron') {
      const window = await electronApp!.firstWindow();
      collectErrors(window, pageErrors);
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

/** Answers for Electron's native dialogs while a scenario runs in project "electron". */
export interface NativeDialogAnswers {
  /** Path the next open dialogs return (null: cancel). */
  openPath?: string | null;
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
    if (a.openPath !== undefined)
      dialog.showOpenDialog = (async () => ({ canceled: a.openPath === null, filePaths: a.openPath ? [a.openPath] : [] })) as typeof dialog.showOpenDialog;
    if (a.savePath !== undefined)
      dialog.showSaveDialog = (async () => ({ canceled: a.savePath === null, filePath: a.savePath ?? '' })) as typeof dialog.showSaveDialog;
    if (a.messageBoxResponse !== undefined)
      dialog.showMessageBox = (async () => ({ response: a.messageBoxResponse!, checkboxChecked: false })) as typeof dialog.showMessageBox;
  }, answers);
}
