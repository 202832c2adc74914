/**
 * The viewport shows the difference between source and decoded: the source skeleton as a ghost (toggleable,
 * remembered), each decoded joint coloured by its error against the tolerance at the frame drawn, an optional
 * onion skin; the character fills the view on open and Follow keeps the whole pose in view. The canvas
 * publishes what it draws as data-* attributes (joint error classes, ghost, onion count, the pose's screen box),
 * so the scenarios assert on those rather than on pixels.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { animationFrames, canvasData, waitForCompression, waitForDocument } from './ui';
import { readMtn } from '../shared/mtn/read';
import { compressMotion } from '../shared/compress/compress';
import type { Page } from '@playwright/test';

const canvasOf = (page: Page) => page.getByTestId('viewport-canvas');

async function goToFrame(page: Page, frame: number): Promise<void> {
  await page.getByTestId('scrub').fill(String(frame));
  await expect(page.getByTestId('status-frame')).toHaveText(String(frame));
  await expect(canvasOf(page)).toHaveAttribute('data-frame', String(frame));
}

/** The pose's screen box (left, top, right, bottom, canvas px) and the canvas size. */
async function poseBox(page: Page) {
  const d = await canvasData(canvasOf(page));
  const [left, top, right, bottom] = d.poseBox.split(',').map(Number);
  const size = (await canvasOf(page).boundingBox())!;
  return { left, top, right, bottom, width: size.width, height: size.height };
}

/** Waits until the camera no longer moves between two paints. */
async function cameraSettled(page: Page): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = (await canvasOf(page).getAttribute('data-view-projection')) ?? '';
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [250, 250, 250, 500] },
    )
    .toBe(true);
}

test('decoded joints are coloured by their error against the tolerance; the source is a ghost that can be hidden', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  const canvas = canvasOf(page);
  await expect(canvas).toHaveAttribute('data-ghost', '1');

  // A loose rotation tolerance leaves errors between keys worth seeing.
  const field = page.getByTestId('tol-rotation');
  await field.fill('3');
  await field.press('Enter');
  await waitForCompression(page);

  // The same compression in Node: each joint's worst channel error / tolerance at a frame.
  const walk = readMtn(readFileSync(workspace.path('walk.mtn')));
  const result = compressMotion(walk, {
    positionTolerance: 0.5,
    rotationToleranceDeg: 3,
    offsetTolerance: 0.5,
    name: 'walk',
    method: 'refined',
  });
  const J = walk.joints.length;
  const expected = (f: number) => {
    const worst = new Array<number>(J).fill(0);
    for (const ch of result.channels) {
      const j = Math.max(0, ch.joint);
      worst[j] = Math.max(worst[j], ch.errors[f] / ch.tolerance);
    }
    return worst.map((r) => (r > 1 ? 'over' : r > 0.5 ? 'near' : 'ok'));
  };
  // Frame 0 is a key of every channel: all green.
  await goToFrame(page, 0);
  await expect(canvas).toHaveAttribute('data-joint-errors', expected(0).join(','));
  expect(expected(0).every((c) => c === 'ok')).toBe(true);
  // The frame with the most joints near their tolerance.
  let frame = 0;
  let most = 0;
  for (let f = 1; f < walk.frameCount; f++) {
    const n = expected(f).filter((c) => c !== 'ok').length;
    if (n > most) [frame, most] = [f, n];
  }
  expect(most).toBeGreaterThan(0);
  expect(expected(frame).filter((c) => c === 'ok').length).toBeGreaterThan(0);
  await goToFrame(page, frame);
  await expect(canvas).toHaveAttribute('data-joint-errors', expected(frame).join(','));
  await expect(page.getByTestId('joint-error-legend')).toBeVisible();
  await saveScreenshot('viewport-errors-ghost');

  // The ghost toggles, and the choice is remembered.
  await page.getByTestId('show-ghost').uncheck();
  await expect(canvas).toHaveAttribute('data-ghost', '0');
  await page.reload();
  await expect(page.getByTestId('show-ghost')).not.toBeChecked();
  await page.getByTestId('show-ghost').check();
  await waitForDocument(page);
  await expect(canvasOf(page)).toHaveAttribute('data-ghost', '1');
  expect(pageErrors).toEqual([]);
});

test('the onion skin shows faint poses around the playhead, toggled in the toolbar and remembered', async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  const canvas = canvasOf(page);
  await expect(canvas).toHaveAttribute('data-onion-count', '0');
  await page.getByTestId('show-onion').check();
  await goToFrame(page, 60);
  // three before and three after
  await expect(canvas).toHaveAttribute('data-onion-count', '6');
  await saveScreenshot('viewport-onion');
  // none before frame 0
  await goToFrame(page, 0);
  await expect(canvas).toHaveAttribute('data-onion-count', '3');
  await page.reload();
  await waitForDocument(page);
  await expect(page.getByTestId('show-onion')).toBeChecked();
  await expect(canvasOf(page)).toHaveAttribute('data-onion-count', '3');
  await page.getByTestId('show-onion').uncheck();
  await expect(canvasOf(page)).toHaveAttribute('data-onion-count', '0');
  expect(pageErrors).toEqual([]);
});

test.describe('at 1280x800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the character fills the view on open, and Follow keeps the whole pose in view even zoomed in', async ({
    page,
    pageErrors,
    saveScreenshot,
  }) => {
    await waitForDocument(page);
    await expect(page.getByTestId('follow')).toBeChecked();
    await cameraSettled(page);
    let box = await poseBox(page);
    // Inside the canvas, and big: at least half its height (or width).
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.width);
    expect(box.bottom).toBeLessThanOrEqual(box.height);
    expect(Math.max((box.bottom - box.top) / box.height, (box.right - box.left) / box.width)).toBeGreaterThan(0.5);
    await saveScreenshot('viewport-open-1280');

    // Zoom far in over the character, then play through the motion: the pose never leaves the view.
    const canvas = canvasOf(page);
    await canvas.hover();
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -400);
    await animationFrames(page, 4);
    const frames = Number(await page.getByTestId('scrub').getAttribute('max'));
    for (let f = 0; f <= frames; f += Math.max(1, Math.floor(frames / 12))) {
      await goToFrame(page, f);
      await animationFrames(page, 2);
      box = await poseBox(page);
      expect(box.top, `head above the view at frame ${f}`).toBeGreaterThanOrEqual(0);
      expect(box.left, `frame ${f}`).toBeGreaterThanOrEqual(0);
      expect(box.right, `frame ${f}`).toBeLessThanOrEqual(box.width);
      expect(box.bottom, `frame ${f}`).toBeLessThanOrEqual(box.height);
    }
    await saveScreenshot('viewport-follow-1280');

    // With Follow off a motion still opens framed on its character, not on the whole path it walks.
    await page.getByTestId('follow').uncheck();
    await page.reload();
    await waitForDocument(page);
    await expect(page.getByTestId('follow')).not.toBeChecked();
    await cameraSettled(page);
    box = await poseBox(page);
    const fill = (b: typeof box) => Math.max((b.bottom - b.top) / b.height, (b.right - b.left) / b.width);
    expect(fill(box)).toBeGreaterThan(0.5);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(box.height);
    // Frame all (F) then shows the whole motion: the character gets smaller.
    await page.getByTestId('frame-all').click();
    await cameraSettled(page);
    expect(fill(await poseBox(page))).toBeLessThan(fill(box));
    expect(pageErrors).toEqual([]);
  });
});
