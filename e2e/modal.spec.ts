import { expect, test } from './fixtures';
import { lockAt, lockedFrames, makeKeyEdit, waitForDocument } from './ui';

/**
 * The dialogs share one frame (renderer/components/Modal.tsx): Escape closes the one it is for wherever the focus is,
 * on its text after a click too (it went to the page, and Escape did nothing), and only that dialog.
 */
test('Escape closes a dialog after a click on its text moved the focus out of its controls', async ({ page }) => {
  await waitForDocument(page);
  await page.getByTestId('viewport-host').focus();
  await page.keyboard.press('Control+/');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('heading', { name: 'Keyboard shortcuts' }).click();
  expect(await page.evaluate(() => document.activeElement?.closest('[aria-modal="true"]') ?? null)).toBeNull();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the Escape that answers a question is not also the page’s: a refusal in the message bar stays', async ({
  page,
  workspace,
}) => {
  await waitForDocument(page);
  const [f] = lockedFrames(workspace.path('walk.mtn'));
  await makeKeyEdit(page, 'Neck');
  await lockAt(page, f);
  const warnings = page.getByTestId('message-warning');
  await expect(warnings).toContainText(`frame ${f} is already locked by joint`);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('unsaved changes');
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(warnings).toHaveCount(1);
  // The keyboard is back where it was before File › Close, the frame field, whose Escape is its own.
  await expect(page.getByTestId('frame-number')).toBeFocused();
  // The page's own Escape, once no dialog is open and no field has the keyboard, still dismisses it.
  await page.getByTestId('viewport-host').focus();
  await page.keyboard.press('Escape');
  await expect(warnings).toHaveCount(0);
});
