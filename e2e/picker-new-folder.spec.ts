/**
 * The save picker's New Folder, left before main answered (docs/architecture.md, "Renderer review, round 5"): Escape
 * in its field, or the picker cancelled and another opened, while main makes the folder. The answer moved the picker
 * shown then into the folder (the one the user left, or a folder of a request since cancelled), and a refusal left
 * behind by Escape stayed on screen under no field. Main's answer is held with page.route until the user has left.
 * Mutations that fail: Dialogs.tsx's makeFolder going into the folder without its `making` check (the first and
 * second tests), listing it without its `shownReq` check (the second), Escape not clearing the refusal (the third).
 */
import { existsSync } from 'node:fs';
import type { Page, Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForDocumentAt1280 } from './ui';

/** Holds main's answers to New Folder until `release` is called; `answered` waits for the body to have come back. */
async function holdMakeFolder(page: Page): Promise<{ release: () => void; answered: Promise<Response> }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/rpc/makeWorkspaceFolder', async (route) => {
    await gate;
    await route.continue();
  });
  const answered = page.waitForResponse('**/rpc/makeWorkspaceFolder').then(async (r) => {
    await r.finished();
    return r;
  });
  return { release, answered };
}

async function openSaveAs(page: Page) {
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-save-as').click();
  const picker = page.getByTestId('file-picker');
  await expect(picker.getByTestId('picker-folder')).toHaveText('Save in: workspace');
  return picker;
}

test('Escape while main makes the folder: it is listed, and the picker stays where the user is', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the native save dialog has folders of its own');
  await waitForDocumentAt1280(page, electronApp);
  const picker = await openSaveAs(page);
  const held = await holdMakeFolder(page);
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill('takes');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await picker.getByTestId('picker-new-folder-name').press('Escape');
  await expect(picker.getByTestId('picker-new-folder-name')).toHaveCount(0);
  held.release();
  await held.answered;
  // Made all the same (main cannot take it back): listed in the folder shown, which stays the workspace.
  await expect(picker.getByTestId('picker-folder-row').filter({ hasText: /^takes\// })).toHaveCount(1);
  await expect(picker.getByTestId('picker-folder')).toHaveText('Save in: workspace');
  expect(existsSync(workspace.path('takes'))).toBe(true);
  expect(pageErrors).toEqual([]);
});

test("a picker cancelled while main makes the folder: the next picker is not moved by the first one's answer", async ({
  page,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the native save dialog has folders of its own');
  await waitForDocumentAt1280(page, electronApp);
  let picker = await openSaveAs(page);
  const held = await holdMakeFolder(page);
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill('late');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await picker.getByTestId('picker-cancel').click();
  await expect(picker).toHaveCount(0);
  picker = await openSaveAs(page);
  held.release();
  await held.answered;
  await page.unroute('**/rpc/makeWorkspaceFolder');
  // The user's own next folder, made after the late answer came: it is made in the workspace, where the picker is.
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill('mine');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await expect(picker.getByTestId('picker-folder')).toHaveText('Save in: workspace/mine');
  // Back up in the workspace: the folder made for the cancelled request is no folder of this one's listing.
  await picker.getByTestId('picker-up').click();
  const rows = picker.getByTestId('picker-folder-row');
  await expect(rows.filter({ hasText: /^mine\// })).toHaveCount(1);
  await expect(rows.filter({ hasText: /^late\// })).toHaveCount(0);
  await picker.getByTestId('picker-cancel').click();
  expect(pageErrors).toEqual([]);
});

test('Escape leaves a refused new folder without its refusal', async ({ page, electronApp, pageErrors }) => {
  test.skip(!!electronApp, 'the native save dialog has folders of its own');
  await waitForDocumentAt1280(page, electronApp);
  const picker = await openSaveAs(page);
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill('../escape');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await expect(picker.getByTestId('picker-folder-error')).toContainText('a name holds no "/"');
  await picker.getByTestId('picker-new-folder-name').press('Escape');
  await expect(picker.getByTestId('picker-new-folder-name')).toHaveCount(0);
  await expect(picker.getByTestId('picker-folder-error')).toHaveCount(0);
  // Escape left the new folder only: the picker is still open.
  await expect(picker).toBeVisible();
  expect(pageErrors).toEqual([]);
});
