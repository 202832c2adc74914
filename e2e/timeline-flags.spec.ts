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

/**
 * A ✕ of the Locks list takes its own entry, and with it the focus: the focus went to the page, and a keyboard user
 * removing three trace keys tabbed back from the top each time. It goes to the ✕ now at that place (the next
 * entry's, else the last's). Mutation: LocksList.tsx's useFocusAfterRemove focusing nothing (the page had the focus).
 */
test('a lock or a trace key removed from the keyboard leaves the focus on the next ✕ of its list', async ({
  page,
  workspace,
  pageErrors,
}) => {
  await waitForDocument(page);
  const focused = page.locator(':focus');
  const removeTrace = page.getByTestId('trace-item').getByRole('button', { name: /^Remove trace key at/ });
  // The sample's two trace keys and one more.
  const count = await removeTrace.count();
  await clickTraceRow(page, freeRun(readFileSync(workspace.path('walk.mtn')), 5) + 2);
  await expect(removeTrace).toHaveCount(count + 1);
  const traces = await removeTrace.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!));
  expect(traces.length).toBeGreaterThanOrEqual(3);
  await removeTrace.first().focus();
  await page.keyboard.press('Enter');
  await expect(removeTrace).toHaveCount(traces.length - 1);
  await expect(focused).toHaveAttribute('aria-label', traces[1]);
  // The last one: the focus goes to the one before it, now the last.
  await removeTrace.last().focus();
  await page.keyboard.press('Enter');
  await expect(removeTrace).toHaveCount(traces.length - 2);
  await expect(focused).toHaveAttribute('aria-label', traces[traces.length - 2]);

  const removeLock = page.getByTestId('lock-item').getByRole('button', { name: /^Remove lock of/ });
  const locks = await removeLock.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!));
  expect(locks.length).toBeGreaterThanOrEqual(2);
  await removeLock.first().focus();
  await page.keyboard.press('Enter');
  await expect(removeLock).toHaveCount(locks.length - 1);
  await expect(focused).toHaveAttribute('aria-label', locks[1]);
  // Undo from there brings the lock back; the focus stays where it is.
  await page.keyboard.press('Control+z');
  await expect(removeLock).toHaveCount(locks.length);
  await expect(focused).toHaveAttribute('aria-label', locks[1]);
  expect(pageErrors).toEqual([]);
});
