/**
 * Drawing glitches of the timeline and the SEV editor, checked on pixels and bounding boxes:
 * - zoomed in, key ticks and error cells left of the first visible frame never show over the row labels;
 * - the joint rows scroll in whole rows, so the row under the pinned lock/trace rows is never half hidden;
 * - a motion that opens shows the selected joint's row;
 * - the timeline's help text is shown whole;
 * - the SE table's sticky header is opaque: rows scrolling under it do not show through.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { animationFrames, openThroughPicker, selectJoint, waitForCapture, waitForDocument } from './ui';

const timeline = (page: Page) => page.getByTestId('timeline-canvas');

/** The timeline's scroll state and row geometry. */
async function rowsState(
  page: Page,
): Promise<{ scrollTop: number; clientHeight: number; jointsTop: number; row: number }> {
  return timeline(page).evaluate((c) => {
    const host = c.parentElement!;
    return {
      scrollTop: host.scrollTop,
      clientHeight: host.clientHeight,
      jointsTop: Number((c as HTMLElement).dataset.jointsTop),
      row: Number((c as HTMLElement).dataset.rowHeight),
    };
  });
}

test('zoomed in, no key tick or error cell is painted over the timeline row labels', async ({
  page,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  const canvas = timeline(page);
  const box = (await canvas.boundingBox())!;
  const data = await canvas.evaluate((c) => ({ ...(c as HTMLElement).dataset }));
  const left = Number(data.plotLeft);
  // Zoom around the middle with Ctrl+wheel until a frame is about 4 px wide: ticks and cells of the frames just
  // left of the view would then fall on the last columns of the label gutter.
  await page.mouse.move(box.x + (left + Number(data.plotRight)) / 2, box.y + Number(data.jointsTop) + 30);
  // The timeline's width follows the arrangement (beside at 1600x1000 since round 12, about 290 px of frames):
  // zoom step by step until a frame is wide enough.
  const pxPerFrame = async () =>
    (Number(data.plotRight) - left) /
    (Number(await canvas.getAttribute('data-view-end')) - Number(await canvas.getAttribute('data-view-start')));
  for (let i = 0; i < 8 && (await pxPerFrame()) <= 3; i++) {
    const before = await canvas.getAttribute('data-view-end');
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -320);
    await page.keyboard.up('Control');
    await expect.poll(() => canvas.getAttribute('data-view-end')).not.toBe(before);
  }
  await expect.poll(async () => Number(await canvas.getAttribute('data-view-start'))).toBeGreaterThan(100);
  expect(await pxPerFrame(), 'px per frame').toBeGreaterThan(2.5);
  // The pointer leaves the canvas (no tooltip), and the frame is painted.
  await page.mouse.move(1, 1);
  await animationFrames(page, 3);
  await saveScreenshot('timeline-zoomed-labels');
  const problems = await canvas.evaluate((c) => {
    const el = c as HTMLCanvasElement;
    const dpr = el.width / el.clientWidth;
    const ctx = el.getContext('2d')!;
    const d = el.dataset;
    const gutter = Number(d.plotLeft);
    const top = Number(d.jointsTop);
    const rowH = Number(d.rowHeight);
    const host = el.parentElement!;
    const out: string[] = [];
    for (let y = top + host.scrollTop + 2; y < host.scrollTop + host.clientHeight - 2; y += rowH) {
      // The label's own background at its far left is the reference for the row's last gutter columns (the
      // right-aligned "keys · error" text ends 6 px before the gutter edge).
      const px = (x: number) =>
        Array.from(ctx.getImageData(Math.floor(x * dpr), Math.floor((y + rowH / 2 - 2) * dpr), 1, 1).data).join(',');
      const ref = px(2);
      for (let x = gutter - 5; x < gutter; x++)
        if (px(x) !== ref) out.push(`row at y=${y}: x=${x} is ${px(x)}, label background ${ref}`);
    }
    return out;
  });
  expect(problems).toEqual([]);
});

test('the timeline rows scroll whole under the pinned rows, and an opened motion shows the selected joint', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  // The tuning mode: a timeline with room for several joint rows under its pinned rows.
  await page.keyboard.press('Control+1');
  const canvas = timeline(page);
  await expect
    .poll(async () => {
      const s = await rowsState(page);
      return Math.floor((s.clientHeight - s.jointsTop) / s.row);
    })
    .toBeGreaterThanOrEqual(5);
  const box = (await canvas.boundingBox())!;
  const s0 = await rowsState(page);
  // A wheel step that is not a whole number of rows.
  await page.mouse.move(box.x + box.width / 2, box.y + s0.jointsTop + 10);
  await page.mouse.wheel(0, 40);
  await expect.poll(async () => (await rowsState(page)).scrollTop).toBeGreaterThan(0);
  await expect
    .poll(async () => (await rowsState(page)).scrollTop % s0.row, { message: 'scroll offset in whole rows' })
    .toBe(0);
  // Scrolled to the end, the last row is whole too.
  await canvas.evaluate((c) => c.parentElement!.scrollTo({ top: 1e6 }));
  await expect.poll(async () => (await rowsState(page)).scrollTop % s0.row).toBe(0);
  const end = await rowsState(page);
  const canvasHeight = await canvas.evaluate((c) => c.clientHeight);
  expect(end.scrollTop + end.clientHeight).toBe(canvasHeight);
  const lastRowBottom = end.jointsTop + 32 * end.row; // root translation + 31 joints
  expect(lastRowBottom).toBeLessThanOrEqual(canvasHeight);
  expect(canvasHeight - lastRowBottom).toBeLessThan(end.row);

  // Select a joint far down the list, scroll back to the top, and open the motion again: the selection is kept
  // (by name) and its row is shown.
  await selectJoint(page, 'RightHand');
  const joint = Number(await page.getByTestId('joint-select').getAttribute('data-value'));
  expect(joint).toBeGreaterThan(20);
  await canvas.evaluate((c) => c.parentElement!.scrollTo({ top: 0 }));
  await expect.poll(async () => (await rowsState(page)).scrollTop).toBe(0);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  await expect(page.getByTestId('timeline-selected')).toHaveText('RightHand');
  await expect
    .poll(
      async () => {
        const s = await rowsState(page);
        const whole = Number(await canvas.getAttribute('data-visible-rows'));
        const y = s.jointsTop + (joint + 1) * s.row - s.scrollTop;
        return y >= s.jointsTop && y + s.row <= s.jointsTop + whole * s.row;
      },
      { message: 'the selected row is in view' },
    )
    .toBe(true);
});

test('the timeline help text is shown whole at 1280x800', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const hint = page.getByTestId('timeline-hint');
  await expect(hint).toContainText('Ctrl+wheel: zoom');
  await expect(hint).toContainText('Label: select');
  const clipped = await hint.evaluate(
    (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
  );
  expect(clipped).toBe(false);
  const panel = (await page.getByTestId('timeline').boundingBox())!;
  const box = (await hint.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(panel.y + panel.height + 1);
  expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
});

test('the SE table header stays opaque while rows scroll under it', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const head = page.getByTestId('sev-se-table').locator('thead');
  const column = page.getByTestId('sev-se-table').locator('xpath=ancestor::div[contains(@class, "sev-col")]');
  await expect(page.getByTestId('sev-variants')).toBeVisible();
  const scrollable = await column.evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(scrollable, 'the SE column scrolls at this size').toBeGreaterThan(30);
  // Page screenshots clipped to the header's box: an element screenshot would scroll the column back to the top.
  const clip = (await head.boundingBox())!;
  const before = await page.screenshot({ clip });
  await column.evaluate((el) => (el.scrollTop = 30));
  await expect.poll(() => column.evaluate((el) => el.scrollTop)).toBe(30);
  await animationFrames(page, 2);
  await saveScreenshot('sev-table-scrolled');
  expect(await column.evaluate((el) => el.scrollTop), 'still scrolled').toBe(30);
  const after = await page.screenshot({ clip });
  expect(after.equals(before), 'the header looks the same with rows under it').toBe(true);
});
