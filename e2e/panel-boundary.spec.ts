import { expect, test } from './fixtures';
import { waitForCompression, waitForDocument } from './ui';

/**
 * A panel that throws keeps its failure to itself (renderer/components/PanelBoundary.tsx): the window, the other
 * panels and the edits stay, the panel's place says what happened, and it can be shown again. The failure here is
 * one a machine can really have: no 2D canvas for the curve view (its painter's constructor throws).
 */
test('a curve view that cannot start leaves the rest of the window working and the edits kept', async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { failCurves: boolean };
    w.failCurves = true;
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: unknown[]) {
      if (w.failCurves && args[0] === '2d' && this.closest('.area-curves')) return null;
      return (getContext as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof getContext;
  });
  await page.reload();
  await waitForDocument(page);
  const failed = page.getByTestId('panel-failed-curves');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText(
    'The Curves panel stopped: Canvas 2D is not available in this window. Your motion',
  );
  await expect(failed).toContainText('Your motion, events and project are kept');
  await saveScreenshot('panel-failed-curves');
  // The other panels are there and answer.
  await expect(page.getByTestId('viewport-canvas')).toBeVisible();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('tuning-panel')).toBeVisible();
  await page.getByTestId('viewport-host').focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await waitForCompression(page);

  // Shown again once it can start: the curve view is back and the edit is still there.
  await page.evaluate(() => ((window as unknown as { failCurves: boolean }).failCurves = false));
  await page.getByTestId('panel-retry-curves').click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId('curve-canvas')).toBeVisible();
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  // React logs the error it caught; nothing else went wrong.
  expect(pageErrors.filter((e) => !e.includes('Canvas 2D is not available'))).toEqual([]);
});
