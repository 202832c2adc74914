import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { clickTraceRow, dragLockRow, freeRun, selectJoint, waitForDocument } from './ui';

/**
 * The timeline's lock and trace rows draw the locks and trace keys in view from the motion's lists (read once for
 * each edit), and its chain headers take their joints' worst error frame by frame (docs/architecture.md, "Renderer
 * review, round 6"). The counts are vitest's (renderer/timeline/timelineKeys.test.ts); here a lock and a trace key
 * made in the window show in the Locks list and on screen, grouped, at 1280x800 and 1920x1080 (screenshots, looked
 * at).
 */
test('a lock and a trace key made in the timeline, grouped by chain, at two window sizes', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  const start = freeRun(readFileSync(workspace.path('walk.mtn')), 5);
  await selectJoint(page, 'LeftFoot');
  await dragLockRow(page, start, start + 4);
  await expect(page.getByTestId('lock-item').filter({ hasText: `LeftFoot frames ${start}–${start + 4}` })).toHaveCount(
    1,
  );
  await clickTraceRow(page, start + 2);
  await expect(page.getByTestId('trace-item').filter({ hasText: new RegExp(`^${start + 2}`) })).toHaveCount(1);
  await page.getByTestId('timeline-group').click();
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-rows', /[a-z]+[+-]/);
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await expect(page.getByTestId('timeline-canvas')).toBeVisible();
    await saveScreenshot(`round6-flags-${width}x${height}`);
  }
  expect(pageErrors).toEqual([]);
});
