/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-first round).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canvasData, frameX, goToFrame, selectJoint, toggleCurveKey, undoLabel } from './ui';
import { openSampleProjectAt1280 } from './sev-ui';

/** Chooses the SE to add in the Sound events toolbar's SE picker, by its name typed in the picker's filter. */
async function chooseSe(page: Page, name: string): Promise<void> {
  await page.getByTestId('sev-add-se').click();
  await page.getByTestId('sev-add-se-filter').fill(name);
  await page.getByTestId('sev-add-se-list').getByTestId('se-picker-item').first().click();
  await expect(page.getByTestId('sev-add-se')).toContainText(name);
}

const numbers = (csv: string | undefined) => (csv ?? '').split(',').filter(Boolean).map(Number);

/**
 * A sound designer pressed M at the wrong frame and then Delete, as in any editor: the event stayed (the keyboard was
 * on the page, where Delete removes curve keys), and the user key the animator had selected in the curves, hidden in
 * Sound events mode, was deleted instead. After M the keyboard is in the event row, so Delete removes the event just
 * added (its "Added …" message going with it is tested in renderer/sev/sevActions.test.ts: it fades here anyway);
 * Delete where the work mode hides the curves removes no key and says why. Mutations that fail: keyboardToEventRow
 * not called in addAtPlayhead (the event stays); deleteSelectedKeys without its tuningEditsShown gate (the key goes).
 */
test('Delete after M removes the event just added, never the curve keys Sound events mode hides', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  // The animator's user key on Spine at frame 70, selected in the curve view.
  await selectJoint(page, 'Spine');
  const curve = page.getByTestId('curve-canvas');
  await toggleCurveKey(page, 70);
  await expect.poll(async () => numbers((await canvasData(curve)).userKeyFrames)).toContain(70);
  const box = (await curve.boundingBox())!;
  await page.mouse.click(box.x + (await frameX(curve, 70)), box.y + Number((await canvasData(curve)).keyBandY));
  await expect.poll(async () => numbers((await canvasData(curve)).selectedKeys)).toEqual([70]);

  // Sound events mode: M at frame 32, then Delete takes it away again, one named undo step.
  await page.keyboard.press('Control+2');
  await chooseSe(page, 'SE_FOOT_L');
  await goToFrame(page, 32);
  await page.getByTestId('sev-track').hover();
  await page.keyboard.press('m');
  const row = page.locator('[data-testid="sev-event-row"][data-frame="32"]');
  await expect(row).toHaveCount(1);
  await page.keyboard.press('Delete');
  await expect(row).toHaveCount(0);
  expect(await undoLabel(page)).toBe('Undo Delete SE_FOOT_L at frame 32');

  // With the keyboard on the page, Delete removes nothing hidden, and says so.
  await page.getByTestId('menu-edit').click();
  await page.keyboard.press('Escape');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Delete');
  await expect(
    page.getByTestId('message-info').filter({ hasText: 'which this work mode hides: nothing was deleted' }),
  ).toHaveCount(1);
  await saveScreenshot('round21-delete-hidden-keys-1280x800');
  await page.keyboard.press('Control+1');
  await expect.poll(async () => numbers((await canvasData(curve)).userKeyFrames)).toContain(70);
  expect(pageErrors).toEqual([]);
});
