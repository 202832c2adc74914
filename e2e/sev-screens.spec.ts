/** The SEV mode at laptop and desktop sizes: screenshots to look at, and the editor's controls on screen. */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`SEV editor at ${size.width}x${size.height}: toolbar, event row and footstep suggestions are on screen`, async ({
    page,
    workspace,
    electronApp,
    saveScreenshot,
  }) => {
    await page.setViewportSize(size);
    await openSampleProject(page, workspace, electronApp);
    // Selecting an event brings its SE's floor variants into view in their column, heading and all 8 floors whole.
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    await expect(page.getByTestId('sev-variants').locator('.sev-variants-head')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('sev-variant')).toHaveCount(8);
    for (const floor of [0, 7])
      await expect(page.locator(`[data-testid="sev-variant"][data-floor="${floor}"]`)).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('sev-se-variant-7')).toHaveValue('SE_FOOT_L_GRATE');
    await saveScreenshot(`sev-variants-${size.width}x${size.height}`);
    // walk.sev has every step: take one out so there is a suggestion to show.
    await page.keyboard.press('Delete');
    await page.getByTestId('sev-suggest-footsteps').click();
    await expect(page.getByTestId('sev-ghost').first()).toBeVisible();
    for (const id of ['sev-add-event', 'sev-track', 'sev-footsteps-accept'])
      await expect(page.getByTestId(id)).toBeInViewport();
    // The event list below the row needs the room the layout gives the panel (scrolls at 1280x800).
    if (size.height >= 1000) await expect(page.getByTestId('sev-event-row').first()).toBeInViewport();
    await saveScreenshot(`sev-mode-${size.width}x${size.height}`);
  });
}
