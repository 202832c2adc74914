import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { encodeIpcFrame } from '../shared/ipc/codec';
import { expect, test } from './fixtures';
import { canvasData, frameX, makeKeyEdit, untilBuildEnds, waitForDocument } from './ui';
import { openSampleProject } from './sev-ui';

/**
 * Every dialog and both right-click menus, as a keyboard and a screen reader meet them (docs/architecture.md,
 * "Round 2, continued: focus"): a dialog is `role="dialog"`, `aria-modal`, named by its heading through
 * `aria-labelledby`; the focus goes into it on open (on its marked control, else its first), Tab and Shift+Tab stay
 * in it, Escape closes it and the focus goes back to what had it. A menu is `role="menu"`, named, its commands
 * `menuitem` / `menuitemcheckbox` and its rules `separator`; Escape gives the keyboard back.
 */

/** A short description of the focused element, for the messages of failed expectations. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return 'body';
    return (
      e.dataset.testid ??
      `${e.tagName.toLowerCase()}${e.getAttribute('aria-label') ? `[${e.getAttribute('aria-label')}]` : ''}`
    );
  });
}

/** Whether the focus is inside `dialog`. */
function focusInside(dialog: Locator): Promise<boolean> {
  return dialog.evaluate((d) => d.contains(document.activeElement));
}

/**
 * The dialog's roles and name, the focus in it on open (on `start`), Tab and Shift+Tab kept in it; then Escape
 * closes it and the focus is back on `back`.
 */
async function walkDialog(page: Page, dialog: Locator, heading: string, start: Locator, back: Locator) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('role', 'dialog');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  const id = await dialog.getAttribute('aria-labelledby');
  expect(id, `${heading}: aria-labelledby`).toBeTruthy();
  const name = dialog.locator(`[id="${id}"]`);
  await expect(name).toHaveText(heading);
  expect(await name.evaluate((e) => e.tagName)).toBe('H2');
  // What a screen reader announces: the dialog by its heading's words.
  await expect(page.getByRole('dialog', { name: heading, exact: true })).toBeVisible();
  await expect(start).toBeFocused();
  // Around the dialog and back, both ways: the focus never leaves it.
  const stops = await dialog.evaluate(
    (d) =>
      Array.from(
        d.querySelectorAll<HTMLElement>(
          'button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])',
        ),
      ).filter((e) => e.getClientRects().length > 0).length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i <= stops; i++) {
      await page.keyboard.press(key);
      expect(await focusInside(dialog), `${heading}: ${key} ${i + 1} left the dialog for ${await focused(page)}`).toBe(
        true,
      );
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(back).toBeFocused();
}

/** A right-click menu's roles and name, the keyboard on its first command, and back on `back` after Escape. */
async function walkMenu(page: Page, menu: Locator, name: string, back: Locator) {
  await expect(menu).toBeVisible();
  await expect(page.getByRole('menu', { name, exact: true })).toBeVisible();
  const roles = await menu.evaluate((m) =>
    Array.from(m.children).map((c) => c.getAttribute('role') ?? `${c.tagName} without a role`),
  );
  expect(roles.length).toBeGreaterThan(2);
  for (const r of roles) expect(['menuitem', 'menuitemcheckbox', 'separator']).toContain(r);
  await expect(menu.locator('[role^="menuitem"]:not(:disabled)').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(back).toBeFocused();
}

test('every dialog and right-click menu: roles, name, focus in, Tab kept, Escape out, focus back', async ({
  page,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'the in-page picker and the replaced replies are the loopback build’s');
  test.setTimeout(120_000);
  await waitForDocument(page);
  const fileMenu = page.getByTestId('menu-file');
  // A click on a menu takes no focus: a dialog a menu command opened gives it back to what had it before the menu.
  const viewport = page.getByTestId('viewport-host');

  // The shortcut list, from the viewport: its Close takes the focus (the scrolling list before it is a Tab stop).
  await viewport.focus();
  await page.keyboard.press('Control+/');
  await walkDialog(
    page,
    page.getByTestId('shortcuts-dialog'),
    'Keyboard shortcuts',
    page.getByTestId('shortcuts-close'),
    viewport,
  );

  // The file picker, from File › Open…: its filter field.
  await fileMenu.click();
  await page.getByTestId('menu-open').click();
  const picker = page.getByTestId('file-picker');
  await walkDialog(page, picker, 'Open motion', picker.getByRole('textbox', { name: 'Filter files' }), viewport);

  // File › Import…: its first field.
  await fileMenu.click();
  await page.getByTestId('menu-import').click();
  const importing = page.getByTestId('import-options');
  await walkDialog(page, importing, 'Import motion (BVH, glTF, FBX)', importing.getByTestId('import-fps'), viewport);

  // File › Export MSH…: its first field.
  await fileMenu.click();
  await page.getByTestId('menu-export-msh').click();
  const msh = page.getByTestId('msh-export-options');
  await walkDialog(page, msh, 'Export MSH animation', msh.getByTestId('msh-pos-tol'), viewport);

  // A dialog that failed (a workspace file of no name makes the picker throw): its Close.
  await page.route('**/rpc/listWorkspace', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/octet-stream',
      body: Buffer.from(
        encodeIpcFrame({
          ok: true,
          value: { root: '/ws', files: [{ path: '/ws/x.mtn', relativePath: 7, extension: 'mtn', byteLength: 1 }] },
        }),
      ),
    }),
  );
  await viewport.focus();
  await fileMenu.click();
  await page.getByTestId('menu-open').click();
  await walkDialog(
    page,
    page.getByTestId('dialog-failed'),
    'The file picker stopped',
    page.getByTestId('dialog-failed-close'),
    viewport,
  );
  await page.unroute('**/rpc/listWorkspace');

  // A question (File › Close with an edit): its primary answer.
  await makeKeyEdit(page, 'Neck');
  await viewport.focus();
  await fileMenu.click();
  await page.getByTestId('menu-close').click();
  const question = page.getByTestId('confirm-dialog');
  const title = (await question.getByRole('heading').textContent()) ?? '';
  await walkDialog(page, question, title, question.getByTestId('confirm-save'), viewport);

  // The curves' right-click menu, and the event row's.
  const canvas = page.getByTestId('curve-canvas');
  const d = await canvasData(canvas);
  await canvas.click({
    button: 'right',
    position: { x: await frameX(canvas, 10), y: (Number(d.plotTop) + Number(d.plotBottom)) / 2 },
  });
  await walkMenu(page, page.getByTestId('tuning-context-menu'), 'Curve commands', canvas);
  await page.getByTestId('sev-marker').first().click({ button: 'right' });
  await walkMenu(page, page.getByTestId('sev-context-menu'), 'Event commands', page.getByTestId('sev-track'));
});

test('the Build archives dialog: named by its heading, the heading focused while it runs, Close once done', async ({
  page,
  workspace,
  electronApp,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'the held reply is the loopback server’s');
  await openSampleProject(page, workspace, electronApp);
  // The build's start is held until the running dialog has been walked.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/rpc/startBuild', async (route) => {
    await held;
    await route.continue();
  });
  const build = page.getByTestId('project-build');
  await build.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('build-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('build-state')).toHaveText('Starting…');
  // While it runs, a stray Enter or Space finds the heading, not Cancel; Escape does not stop it either.
  const heading = dialog.getByRole('heading', { name: 'Build archives' });
  await expect(heading).toBeFocused();
  for (const key of ['Enter', 'Space', 'Escape']) await page.keyboard.press(key);
  await expect(dialog.getByTestId('build-cancel')).toBeEnabled();
  // Shift+Tab from the heading goes round to the dialog's last stop, not into the page behind it.
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByTestId('build-cancel')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByTestId('build-cancel')).toBeFocused();
  release();
  await untilBuildEnds(dialog, 'done');
  await walkDialog(page, dialog, 'Build archives', dialog.getByTestId('build-close'), build);
});

test('Enter in a dialog’s text field does its primary action where one expects it, and asks before replacing', async ({
  page,
  workspace,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'the in-page picker is the loopback build’s');
  await waitForDocument(page);
  const fileMenu = page.getByTestId('menu-file');
  const picker = page.getByTestId('file-picker');

  // File › Import…: Enter in the frame rate goes on to the file (the in-page picker); Escape there imports nothing.
  await fileMenu.click();
  await page.getByTestId('menu-import').click();
  await page.getByTestId('import-fps').fill('60');
  await page.getByTestId('import-fps').press('Enter');
  await expect(page.getByTestId('import-options')).toHaveCount(0);
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);

  // File › Export MSH…: Enter in a tolerance goes on to the file to write.
  await fileMenu.click();
  await page.getByTestId('menu-export-msh').click();
  await page.getByTestId('msh-rot-tol').fill('0.75');
  await page.getByTestId('msh-rot-tol').press('Enter');
  await expect(page.getByTestId('msh-export-options')).toHaveCount(0);
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);

  // File › Save As… onto a file that exists: Enter asks first, and the file is still as it was.
  const before = readFileSync(workspace.path('walk_60fps.mtn'));
  await fileMenu.click();
  await page.getByTestId('menu-save-as').click();
  await page.getByTestId('picker-name').fill('walk_60fps.mtn');
  await page.getByTestId('picker-name').press('Enter');
  await expect(page.getByTestId('picker-replace')).toContainText('walk_60fps.mtn already exists');
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  expect(readFileSync(workspace.path('walk_60fps.mtn')).equals(before)).toBe(true);

  // File › Open…: Enter in the filter opens the one file it leaves.
  await fileMenu.click();
  await page.getByTestId('menu-open').click();
  await picker.getByRole('textbox', { name: 'Filter files' }).fill('60fps');
  await picker.getByRole('textbox', { name: 'Filter files' }).press('Enter');
  await expect(picker).toHaveCount(0);
  await waitForDocument(page, 'walk_60fps');
});
