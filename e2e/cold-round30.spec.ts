/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * thirtieth round).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { undoLabel } from './ui';
import { markerFrames, openSampleProjectAt1280, trackX } from './sev-ui';

/** Presses the mouse on the SE table's "#" handle of SE `se` (the drag starts at the first move). */
async function pickUpSe(page: Page, se: number): Promise<void> {
  const grip = page.locator(`[data-testid="sev-se-row"][data-index="${se}"]`).getByTestId('sev-se-grip');
  const from = (await grip.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
}

/** x (page coordinates) of a frame on the timeline's rows, read from the span the canvas publishes. */
async function timelineX(page: Page, frame: number): Promise<{ x: number; y: number }> {
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const d = await canvas.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
  const view = await page
    .getByTestId('sev-track')
    .evaluate((el) => [Number((el as HTMLElement).dataset.viewStart), Number((el as HTMLElement).dataset.viewEnd)]);
  const [left, right] = [Number(d.plotLeft), Number(d.plotRight)];
  return { x: box.x + left + ((frame - view[0]) / (view[1] - view[0])) * (right - left), y: box.y + 60 };
}

/**
 * Round 29 left a drag given up without a scenario, and the playhead where the drag last passed: the SE's line
 * showed a drop that never came, and the pose stayed at a frame the user only passed over. A drag let go where
 * nothing takes it adds nothing, takes its line away and puts the playhead back. Mutation that fails: endSeDrag not
 * putting the playhead back (the scrub stays at 40).
 */
test('an SE drag given up adds nothing, takes its line away and puts the playhead back', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const before = await markerFrames(page);
  const scrub = page.getByTestId('scrub');
  await scrub.fill('7');
  await expect(scrub).toHaveValue('7');
  await pickUpSe(page, 1);
  const y = (await page.getByTestId('sev-track').boundingBox())!.y + 30;
  await page.mouse.move(await trackX(page, 40), y, { steps: 6 });
  await expect(scrub).toHaveValue('40');
  await expect(page.getByTestId('sev-drop')).toHaveText('SE_FOOT_R at 40');
  // Let go over the viewport, which takes no SE (straight up: over the timeline the playhead stays at 40).
  const viewport = (await page.getByTestId('viewport').boundingBox())!;
  await page.mouse.move(await trackX(page, 40), viewport.y + viewport.height / 2, { steps: 6 });
  await expect(page.getByTestId('sev-drop')).toHaveCount(0);
  await expect(scrub).toHaveValue('40');
  await page.mouse.up();
  await expect(page.getByTestId('sev-drop')).toHaveCount(0);
  await expect(scrub).toHaveValue('7');
  expect(await markerFrames(page)).toEqual(before);
  expect(pageErrors).toEqual([]);
});

/**
 * A user drops a sound on the event list, where the events are listed (round 29 took a drop on the event row only).
 * The list has no frame between its rows: the drop adds at the playhead, as M does, which the list says while the
 * drag is over it; one undo step. Mutation that fails: the list's column not taking the drop (no event added).
 */
test('an SE dropped on the event list is added at the playhead', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const before = await markerFrames(page);
  const scrub = page.getByTestId('scrub');
  await scrub.fill('33');
  await expect(scrub).toHaveValue('33');
  await pickUpSe(page, 1);
  // Over the event row first (the playhead follows), then onto the list's room under its rows.
  const y = (await page.getByTestId('sev-track').boundingBox())!.y + 30;
  await page.mouse.move(await trackX(page, 50), y, { steps: 6 });
  await expect(scrub).toHaveValue('50');
  const col = (await page.locator('.sev-col.events').boundingBox())!;
  await page.mouse.move(col.x + col.width / 2, col.y + col.height - 12, { steps: 6 });
  await expect(page.getByTestId('sev-list-drop')).toHaveText('Drop to add SE_FOOT_R at frame 33 (the playhead)');
  await expect(scrub).toHaveValue('33');
  await expect(page.getByTestId('sev-drop')).toHaveText('SE_FOOT_R at 33');
  await saveScreenshot('round30-se-drop-on-list-1280x800');
  await page.mouse.up();
  await expect(page.getByTestId('sev-list-drop')).toHaveCount(0);
  await expect.poll(() => markerFrames(page)).toEqual([...before, 33]);
  await expect(page.locator('[data-testid="sev-event-row"][data-frame="33"]')).toHaveAttribute('aria-selected', 'true');
  await expect(scrub).toHaveValue('33');
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_R at frame 33 on joint 21 RightFoot');
  expect(pageErrors).toEqual([]);
});

/**
 * A sound designer drags a sound onto the timeline, where the keys show the foot's motion (round 29 took a drop on
 * the event row under it only). Over the timeline's rows the playhead follows the pointer and a tip names what a drop
 * adds; over the joint names nothing is taken. Mutation that fails: the timeline not taking the drop (no event added).
 */
test('an SE dropped on the timeline is added at the frame under the pointer', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await expect(page.getByTestId('timeline-canvas')).toBeVisible();
  await expect(page.getByTestId('sev-se-grip').first()).toBeVisible();
  const before = await markerFrames(page);
  const scrub = page.getByTestId('scrub');
  await pickUpSe(page, 1);
  const at = await timelineX(page, 24);
  await page.mouse.move(at.x, at.y, { steps: 8 });
  await expect(scrub).toHaveValue('24');
  await expect(page.getByTestId('timeline-se-drop')).toHaveText('SE_FOOT_R at 24');
  // The event row under the timeline shows the same line.
  await expect(page.getByTestId('sev-drop')).toHaveAttribute('data-frame', '24');
  await saveScreenshot('round30-se-drop-on-timeline-1280x800');
  await page.mouse.up();
  await expect(page.getByTestId('timeline-se-drop')).toHaveCount(0);
  await expect.poll(() => markerFrames(page)).toEqual([...before, 24]);
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_R at frame 24 on joint 21 RightFoot');
  await page.keyboard.press('Control+z');
  await expect.poll(() => markerFrames(page)).toEqual(before);
  expect(pageErrors).toEqual([]);
});
