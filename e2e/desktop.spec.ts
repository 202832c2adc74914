import { readFileSync } from 'node:fs';
import { expect, stubNativeDialogs, test, type Workspace } from './fixtures';
import { chooseFile } from './sev-ui';
import { waitForCapture, waitForDocument } from './ui';

/** How many motions the workspace's sample project lists (the project panel shows one row each). */
function sampleMotionCount(workspace: Workspace): number {
  return (JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8')) as { motions: unknown[] }).motions
    .length;
}

const ELECTRON_ONLY = 'Electron only: the native menu, the OS file hand-off and the native close question';

test('Ctrl+Shift+O is Open Project and Ctrl+O is Open, whoever owns the shortcut (the page here, the native menu under Electron)', async ({
  page,
  workspace,
  electronApp,
}) => {
  await waitForDocument(page);
  // Open Project: the sample project's motions appear.
  await chooseFile(page, electronApp, workspace, 'sample.actguy.json', 'open', () =>
    page.keyboard.press('Control+Shift+o'),
  );
  await expect(page.getByTestId('project-motion')).toHaveCount(sampleMotionCount(workspace));
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await waitForDocument(page);
  // Open: a motion opens in the tuner; the project stays.
  await chooseFile(page, electronApp, workspace, 'cmu_01_01.mtn', 'open', () => page.keyboard.press('Control+o'));
  await waitForCapture(page);
  await expect(page.getByTestId('project-motion')).toHaveCount(sampleMotionCount(workspace));
});

test('no shortcut runs behind an open question', async ({ page }) => {
  await waitForDocument(page);
  await page.keyboard.press('t'); // an unsaved edit, so File > Close asks
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('unsaved changes');
  await page.keyboard.press('Control+Shift+o');
  await page.keyboard.press('Control+o');
  // A shortcut that ran would not show its picker: Open asks this question first, in place of Close's. So the question
  // still asked is Close's, and once it is answered nothing else is.
  await expect(page.getByTestId('file-picker')).toHaveCount(0);
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(1);
  await expect(question).toContainText('before you close it?');
  await question.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect(page.getByTestId('file-picker')).toHaveCount(0);
  // With no question open the same key runs: its question is Open's.
  await page.keyboard.press('Control+o');
  await expect(question).toContainText('before you open another motion?');
});

test("Electron: WebGL without a GPU (Playwright's loader switches reach Electron), native menu bar hidden beside the page's", async ({
  page,
  electronApp,
}) => {
  test.skip(!electronApp, ELECTRON_ONLY);
  await waitForDocument(page);
  const main = await electronApp!.evaluate(({ app, BrowserWindow, Menu }) => {
    const accelerators: Record<string, string> = {};
    const walk = (items: Electron.MenuItem[]) =>
      items.forEach((i) =>
        i.submenu ? walk(i.submenu.items) : i.accelerator && (accelerators[i.label] = i.accelerator),
      );
    walk(Menu.getApplicationMenu()?.items ?? []);
    return {
      swiftshader: app.commandLine.hasSwitch('enable-unsafe-swiftshader'),
      menuBar: BrowserWindow.getAllWindows()[0].isMenuBarVisible(),
      accelerators,
    };
  });
  expect(main.swiftshader).toBe(true);
  expect(main.menuBar).toBe(process.platform === 'darwin');
  expect(main.accelerators['Open Project…']).toBe('CmdOrCtrl+Shift+O');
  expect(await page.evaluate(() => document.createElement('canvas').getContext('webgl2') !== null)).toBe(true);
});

test('Electron: files the OS hands over open where they belong (a motion in the tuner, a project in the project panel)', async ({
  page,
  workspace,
  electronApp,
}) => {
  test.skip(!electronApp, ELECTRON_ONLY);
  await waitForDocument(page);
  const handOver = (path: string) =>
    electronApp!.evaluate(({ app }, p) => app.emit('open-file', { preventDefault() {} }, p), path);
  await handOver(workspace.path('cmu_01_01.mtn'));
  await waitForCapture(page);
  await handOver(workspace.path('sample.actguy.json'));
  await expect(page.getByTestId('project-motion')).toHaveCount(sampleMotionCount(workspace));
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
});

test('Electron: a .sev the OS hands over opens in the project beside it that lists it, not as a lone .sev', async ({
  page,
  workspace,
  electronApp,
}) => {
  test.skip(!electronApp, ELECTRON_ONLY);
  await waitForDocument(page);
  await electronApp!.evaluate(
    ({ app }, p) => app.emit('open-file', { preventDefault() {} }, p),
    workspace.path('walk.sev'),
  );
  await expect(page.getByTestId('project-motion')).toHaveCount(sampleMotionCount(workspace));
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
});

test('Electron: closing with unsaved edits asks natively; Cancel keeps the window, Discard closes it', async ({
  page,
  electronApp,
}) => {
  test.skip(!electronApp, ELECTRON_ONLY);
  await waitForDocument(page);
  await page.keyboard.press('t');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  const closeWindow = () => electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
  const windows = () => electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length);
  // The question's buttons: Save, Discard changes, Cancel.
  await stubNativeDialogs(electronApp!, { messageBoxResponse: 2 });
  await closeWindow();
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  expect(await windows()).toBe(1);
  await stubNativeDialogs(electronApp!, { messageBoxResponse: 1 });
  const closed = electronApp!.waitForEvent('close');
  await closeWindow();
  await closed; // the last window closed: the app quits
});
