import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

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
