/**
 * A curve editor animators recognise. The curve view and the timeline share one time axis, the
 * Euler curves do not swing through gimbal lock, user keys can be selected, moved, deleted and jumped to.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  canvasData,
  clickCurveFrame,
  frameX,
  openThroughPicker,
  selectJoint,
  toggleCurveKey,
  waitForCapture,
  waitForCompression,
  waitForDocument,
} from './ui';

async function openCmu(page: Page): Promise<void> {
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
}

/** Page x of a frame in a canvas. */
async function pageX(page: Page, testId: string, frame: number): Promise<number> {
  const canvas = page.getByTestId(testId);
  const box = (await canvas.boundingBox())!;
  return box.x + (await frameX(canvas, frame));
}

for (const size of [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
]) {
  test(`curve view and timeline put a frame at the same x (${size.width}x${size.height})`, async ({
    page,
    electronApp,
  }) => {
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

test("the Hips' Euler curves do not swing by 180 degrees at the turns of CMU 01_01 (rotate order Auto)", async ({
  page,
}) => {
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

/** Page coordinates of a frame in the curve view's key band. */
async function keyBandPoint(page: Page, frame: number): Promise<{ x: number; y: number }> {
  const canvas = page.getByTestId('curve-canvas');
  const box = (await canvas.boundingBox())!;
  const d = await canvasData(canvas);
  return { x: box.x + (await frameX(canvas, frame)), y: box.y + Number(d.keyBandY) };
}

const numbers = (csv: string | undefined) => (csv ?? '').split(',').filter(Boolean).map(Number);

test('user keys: click, Shift+click and box select; drag retimes them by whole frames in one undo step; Delete removes them', async ({
  page,
}) => {
  await waitForDocument(page);
  await selectJoint(page, 'RightForeArm');
  const curve = page.getByTestId('curve-canvas');
  const userKeys = async () => numbers((await canvasData(curve)).userKeyFrames);
  const selected = async () => numbers((await canvasData(curve)).selectedKeys);
  // The sample's own user keys on this joint lie outside the frames used here.
  const base = await userKeys();
  expect(base.filter((k) => k >= 60 && k <= 110)).toEqual([]);
  const withBase = (...frames: number[]) => [...base, ...frames].sort((x, y) => x - y);
  await toggleCurveKey(page, 70);
  await toggleCurveKey(page, 90);
  await expect.poll(userKeys).toEqual(withBase(70, 90));

  // Click selects one key, Shift+click adds another, a plain click on empty plot clears the selection.
  let p = await keyBandPoint(page, 70);
  await page.mouse.click(p.x, p.y);
  await expect.poll(selected).toEqual([70]);
  p = await keyBandPoint(page, 90);
  await page.keyboard.down('Shift');
  await page.mouse.click(p.x, p.y);
  await page.keyboard.up('Shift');
  await expect.poll(selected).toEqual([70, 90]);
  await clickCurveFrame(page, 105);
  await expect.poll(selected).toEqual([]);

  // A box over both selects them.
  const a = await keyBandPoint(page, 65);
  const b = await keyBandPoint(page, 95);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
  await expect.poll(selected).toEqual([70, 90]);

  // Dragging one of them moves both by the same whole number of frames, as one undo step.
  const from = await keyBandPoint(page, 70);
  const to = await keyBandPoint(page, 75.3);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, from.y, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 3 });
  await page.mouse.up();
  await expect.poll(userKeys).toEqual(withBase(75, 95));
  await expect.poll(selected).toEqual([75, 95]);
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Undo Move 2 keys');
  await page.getByTestId('menu-undo').click();
  await expect.poll(userKeys).toEqual(withBase(70, 90));
  await page.keyboard.press('Control+y');
  await expect.poll(userKeys).toEqual(withBase(75, 95));

  // Delete removes the selected keys (one step), undo brings them back.
  p = await keyBandPoint(page, 75);
  await page.mouse.click(p.x, p.y);
  await expect.poll(selected).toEqual([75]);
  await page.keyboard.press('Delete');
  await expect.poll(userKeys).toEqual(withBase(95));
  await page.keyboard.press('Control+z');
  await expect.poll(userKeys).toEqual(withBase(75, 95));
});

test('Up / Down jump to the previous / next key of the selected channel; PageUp / PageDown switch joints', async ({
  page,
}) => {
  await waitForDocument(page);
  await selectJoint(page, 'RightForeArm');
  await waitForCompression(page);
  const curve = page.getByTestId('curve-canvas');
  await toggleCurveKey(page, 47);
  await waitForCompression(page);
  const keys = [
    ...new Set([...numbers((await canvasData(curve)).keyFrames), ...numbers((await canvasData(curve)).userKeyFrames)]),
  ].sort((x, y) => x - y);
  expect(keys).toContain(47);
  await page.getByTestId('frame-number').fill('30');
  await page.getByTestId('frame-number').press('Enter');
  await curve.hover();
  const next = keys.find((k) => k > 30)!;
  const prev = [...keys].reverse().find((k) => k < next)!;
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('status-frame')).toHaveText(String(next));
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('status-frame')).toHaveText(String(prev));
  // The joint stays: arrows no longer switch joints.
  await expect(page.getByTestId('timeline-selected')).toHaveText('RightForeArm');
  const index = Number(await page.getByTestId('joint-select').getAttribute('data-value'));
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('joint-select')).toHaveAttribute('data-value', String(index + 1));
  await page.keyboard.press('PageUp');
  await expect(page.getByTestId('joint-select')).toHaveAttribute('data-value', String(index));
});
