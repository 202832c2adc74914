/**
 * Issue 12 §3: a curve editor animators recognise. The curve view and the timeline share one time axis, the
 * Euler curves do not swing through gimbal lock, user keys can be selected, moved, deleted and jumped to.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canvasData, frameX, openThroughPicker, selectJoint, waitForDocument } from './ui';

async function openCmu(page: Page): Promise<void> {
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForDocument(page, 'cmu_01_01');
}

/** Page x of a frame in a canvas. */
async function pageX(page: Page, testId: string, frame: number): Promise<number> {
  const canvas = page.getByTestId(testId);
  const box = (await canvas.boundingBox())!;
  return box.x + (await frameX(canvas, frame));
}

for (const size of [{ width: 1600, height: 1000 }, { width: 1280, height: 800 }]) {
  test(`curve view and timeline put a frame at the same x (${size.width}x${size.height})`, async ({ page, electronApp }) => {
    test.skip(!!electronApp, 'window size is set through the page viewport in Chromium');
    await page.setViewportSize(size);
    await openCmu(page);
    await page.getByTestId('frame-number').fill('273');
    await page.getByTestId('frame-number').press('Enter');
    await expect(page.getByTestId('status-frame')).toHaveText('273');
    for (const frame of [0, 273, 687]) {
      const a = await pageX(page, 'curve-canvas', frame);
      const b = await pageX(page, 'timeline-canvas', frame);
      expect(Math.abs(a - b), `frame ${frame}: curves ${a}, timeline ${b}`).toBeLessThanOrEqual(1);
    }
  });
}

test("the Hips' Euler curves do not swing by 180 degrees at the turns of CMU 01_01 (rotate order Auto)", async ({ page }) => {
  await openCmu(page);
  await selectJoint(page, 'Hips');
  const curve = page.getByTestId('curve-canvas');
  await expect(page.getByTestId('euler-order')).toHaveValue('auto');
  // Auto leaves XYZ for an order whose middle axis stays away from ±90 degrees on this joint.
  await expect.poll(async () => (await canvasData(curve)).eulerOrder).toMatch(/^(YXZ|ZXY|ZYX|YZX|XZY)$/);
  const auto = (await canvasData(curve)).eulerOrder;
  await expect(page.getByTestId('euler-order').locator('option[value="auto"]')).toHaveText(`Auto (${auto})`);
  // Choosing XYZ by hand shows the animator's default order (and its gimbal swings) again.
  await page.getByTestId('euler-order').selectOption('XYZ');
  await expect.poll(async () => (await canvasData(curve)).eulerOrder).toBe('XYZ');
  await page.getByTestId('euler-order').selectOption('auto');
  await expect.poll(async () => (await canvasData(curve)).eulerOrder).toBe(auto);
});
